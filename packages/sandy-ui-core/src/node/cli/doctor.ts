import { evaluateCompat, supportsIntrospection } from '../../common/sandy/compat';
import { isSandyError } from '../../common/sandy/errors';
import { PrerequisiteCheck, prerequisiteLines } from '../../common/onboarding/prerequisites';
import { SandyProblem } from '../../common/service/service-protocol';
import { checkPrerequisites } from '../onboarding/prerequisites';
import { LocatedSandy } from '../sandy/locate';
import { SandyClient } from '../sandy/sandy-client';
import { CliIo, locate, ParsedArgs, printJson, sandyHome } from './cli-common';

/**
 * `sandy-ui doctor`: the Get Started wizard's prerequisite checks on a command line — sandy, its
 * version and schema, the docker CLI and daemon, free disk space, SANDY_HOME and ~/.local/bin, each
 * with its fix; exit 1 when something is missing.
 */

/** One line of the doctor's checklist: the Get Started wizard's prerequisite checks. */
export type DoctorCheck = PrerequisiteCheck;

export async function doctor(args: ParsedArgs, io: CliIo): Promise<number> {
    let sandy: LocatedSandy | undefined;
    let problem: SandyProblem | undefined;
    try {
        sandy = await locate(args, io);
    } catch (e) {
        if (!isSandyError(e) || e.code !== 'not-found') {
            throw e;
        }
        problem = { code: e.code, message: e.message, hint: e.hint };
    }

    let schemaVersion: number | undefined;
    let schemaFailed = false;
    let schemaError: string | undefined;
    if (sandy && supportsIntrospection(sandy.fullVersion)) {
        try {
            schemaVersion = (await SandyClient.forPath(sandy.path, { processEnv: io.env, signal: io.signal }, { fullVersion: sandy.fullVersion }).schema()).schema_version;
        } catch (e) {
            schemaFailed = true;
            schemaError = isSandyError(e) ? e.toDisplayString() : String(e);
        }
    }
    const verdict = evaluateCompat({ sandyVersion: sandy?.fullVersion, schemaVersion, schemaFailed });
    const report = await checkPrerequisites({
        sandy: sandy ? { located: sandy } : { problem: problem! },
        compat: sandy ? verdict : undefined,
        schemaError,
        env: io.env, home: io.home, sandyHome: sandyHome(io)
    });
    if (args.json) {
        printJson(io, {
            ok: report.ok,
            checks: report.checks,
            sandy: sandy ? { path: sandy.path, fullVersion: sandy.fullVersion, printVersion: sandy.printVersion, candidates: sandy.candidates } : undefined,
            compat: verdict
        });
    } else {
        io.stdout(prerequisiteLines(report).map(l => `${l}\n`).join(''));
    }
    return report.ok ? 0 : 1;
}
