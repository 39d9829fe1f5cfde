import * as fs from 'fs';
import * as path from 'path';
import { CompatVerdict, describeVerdict } from '../../common/sandy/compat';
import { SandyProblem } from '../../common/service/service-protocol';
import {
    diskCheck, dockerCliCheck, dockerDaemonCheck, localBinCheck, PrerequisiteCheck, PrerequisiteReport, reportOf, sandyInstallFix
} from '../../common/onboarding/prerequisites';
import { CONTROL_CHARS } from '../../common/approvals/launch-gates';
import { describeTarget } from '../config/config-io';
import { DockerReadClient } from '../sandy/docker-client';
import { examineExecutable, LocatedSandy } from '../sandy/locate';

/**
 * Gathers the facts of the prerequisite checks (`common/onboarding/prerequisites.ts` decides and
 * words them): what locating sandy gave, the docker CLI on PATH, the Docker daemon's `/_ping`, the
 * free space under SANDY_HOME, whether SANDY_HOME is writable, `~/.local/bin` on PATH. Reads only;
 * runs no program (the daemon is asked over its socket).
 */
export interface PrerequisiteInput {
    /** The located sandy, or why it was not found. */
    sandy: { located: LocatedSandy } | { problem: SandyProblem };
    /** The compat verdict of the located sandy (undefined when none was found). */
    compat?: CompatVerdict;
    /** A failed `--print-schema`, said beside the compat verdict. */
    schemaError?: string;
    env: Readonly<Record<string, string | undefined>>;
    home: string;
    sandyHome: string;
    platform?: NodeJS.Platform;
}

export async function checkPrerequisites(input: PrerequisiteInput): Promise<PrerequisiteReport> {
    const platform = input.platform ?? process.platform;
    const checks: PrerequisiteCheck[] = [];
    const located = 'located' in input.sandy ? input.sandy.located : undefined;
    if (located) {
        const configured = located.candidates.find(c => c.source === 'configured');
        checks.push(configured && configured.verdict !== 'selected'
            ? {
                id: 'sandy', status: 'warn',
                summary: `sandy ${located.fullVersion} at ${located.path} — the configured path ${configured.path} was rejected (${configured.verdict})`,
                hint: 'Fix or clear the sandy path in settings (or --sandy).'
            }
            : { id: 'sandy', status: 'ok', summary: `sandy ${located.fullVersion} at ${located.path}` });
        if (input.compat) {
            const d = describeVerdict(input.compat);
            const status = d.severity === 'error' ? 'fail' : d.severity === 'warning' ? 'warn' : 'ok';
            const hint = [input.schemaError, d.action].filter(Boolean).join(' ');
            checks.push({ id: 'compat', status, summary: d.message, ...(hint ? { hint } : {}) });
        }
    } else if ('problem' in input.sandy) {
        checks.push({ id: 'sandy', status: 'fail', summary: input.sandy.problem.message, hint: input.sandy.problem.hint, fix: sandyInstallFix() });
    }

    const docker = await findOnPath('docker', input.env.PATH);
    checks.push(dockerCliCheck(docker, platform));
    const ping = await new DockerReadClient({ env: input.env, home: input.home, platform }).ping();
    checks.push(dockerDaemonCheck(ping.reachable && ping.ok
        ? { ok: true, apiVersion: ping.value.apiVersion }
        : { ok: false, reason: ping.reachable ? ping.message : ping.reason }, platform));
    checks.push(diskCheck(await freeSpace(input.sandyHome)));
    checks.push(await sandyHomeCheck(input.sandyHome));

    const localBin = path.join(input.home, '.local', 'bin');
    const onPath = (input.env.PATH ?? '').split(path.delimiter).some(dir => dir && path.resolve(dir) === localBin);
    const selected = located?.candidates.find(c => c.verdict === 'selected');
    checks.push(localBinCheck(localBin, onPath, selected?.source === 'fallback' && path.dirname(selected.path) === localBin, !!located));
    return reportOf(checks, platform);
}

/** Free bytes on the file system of the nearest existing folder at or above `folder`. */
async function freeSpace(folder: string): Promise<{ bytes: number; where: string } | undefined> {
    let at = folder;
    for (;;) {
        try {
            const s = await fs.promises.statfs(at);
            return { bytes: Number(s.bavail) * Number(s.bsize), where: at };
        } catch {
            const up = path.dirname(at);
            if (up === at) {
                return undefined;
            }
            at = up;
        }
    }
}

async function sandyHomeCheck(home: string): Promise<PrerequisiteCheck> {
    if (/[;$`&|<>]/.test(home)) {
        // sandy:150-155 refuses such a SANDY_HOME for every command, --version included (fx 07).
        return { id: 'sandy-home', status: 'fail', summary: `SANDY_HOME ${home} contains a shell metacharacter; sandy refuses to run.`, hint: 'Point SANDY_HOME at a plain path.' };
    }
    let target = home;
    try {
        const stat = await fs.promises.stat(home);
        if (!stat.isDirectory()) {
            return { id: 'sandy-home', status: 'fail', summary: `${home} is not a folder.`, hint: 'Move it away; sandy keeps its state in that folder.' };
        }
    } catch {
        target = path.dirname(home); // sandy creates it on its first run (sandy:164)
    }
    try {
        await fs.promises.access(target, fs.constants.W_OK);
    } catch {
        // A path with control characters is shown escaped and gets no command to run (a terminal would act on them).
        const plain = !CONTROL_CHARS.test(target);
        return {
            id: 'sandy-home', status: 'fail', summary: `${describeTarget(target)} is not writable; sandy stops with "SANDY_HOME (…) is not writable".`,
            hint: `Fix the owner or permissions of ${describeTarget(target)}.`,
            ...(plain ? { fix: { command: `sudo chown -R "$USER" ${shellQuote(target)}`, explains: `Makes you the owner of ${target} again (asks for your password).` } } : {})
        };
    }
    return { id: 'sandy-home', status: 'ok', summary: target === home ? `${home} is writable` : `${home} does not exist yet; sandy will create it` };
}

export async function findOnPath(name: string, pathVar: string | undefined): Promise<string | undefined> {
    for (const dir of (pathVar ?? '').split(path.delimiter)) {
        if (dir && path.isAbsolute(dir) && await examineExecutable(path.join(dir, name)) === 'ok') {
            return path.join(dir, name);
        }
    }
    return undefined;
}

/** A path or argument as one shell word (for a fix command shown to the user); never with control characters. */
export function shellQuote(text: string): string {
    if (CONTROL_CHARS.test(text)) {
        throw new Error('a control character in a command argument');
    }
    return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
