import * as fs from 'fs';
import * as path from 'path';
import { describeVerdict, evaluateCompat, supportsIntrospection } from '../../common/sandy/compat';
import { isSandyError } from '../../common/sandy/errors';
import { DockerReadClient } from '../sandy/docker-client';
import { examineExecutable, LocatedSandy, SANDY_INSTALL_COMMAND } from '../sandy/locate';
import { SandyClient } from '../sandy/sandy-client';
import { CliIo, locate, ParsedArgs, printJson, sandyHome } from './cli-common';

/**
 * `sandy-ui doctor`: sandy, its version and schema, the docker CLI and daemon, SANDY_HOME and
 * ~/.local/bin, each with a fix-it hint; exit 1 when something is missing.
 */

/** One line of the doctor's checklist. */
export interface DoctorCheck {
    id: 'sandy' | 'compat' | 'docker-cli' | 'docker' | 'sandy-home' | 'local-bin';
    status: 'ok' | 'warn' | 'fail';
    summary: string;
    hint?: string;
}

export async function doctor(args: ParsedArgs, io: CliIo): Promise<number> {
    const checks: DoctorCheck[] = [];
    const add = (check: DoctorCheck): void => { checks.push(check); };

    let sandy: LocatedSandy | undefined;
    try {
        sandy = await locate(args, io);
        const configured = sandy.candidates.find(c => c.source === 'configured');
        add(configured && configured.verdict !== 'selected'
            ? {
                id: 'sandy', status: 'warn',
                summary: `sandy ${sandy.fullVersion} at ${sandy.path} — the configured path ${configured.path} was rejected (${configured.verdict})`,
                hint: 'Fix or clear the sandy path in settings (or --sandy).'
            }
            : { id: 'sandy', status: 'ok', summary: `sandy ${sandy.fullVersion} at ${sandy.path}` });
    } catch (e) {
        if (!isSandyError(e) || e.code !== 'not-found') {
            throw e;
        }
        add({ id: 'sandy', status: 'fail', summary: e.message, hint: e.hint });
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
    if (sandy) {
        const d = describeVerdict(verdict);
        const status = d.severity === 'error' ? 'fail' : d.severity === 'warning' ? 'warn' : 'ok';
        add({ id: 'compat', status, summary: d.message, ...(d.action || schemaError ? { hint: [schemaError, d.action].filter(Boolean).join(' ') } : {}) });
    }

    const dockerCli = await findOnPath('docker', io.env.PATH);
    add(dockerCli
        ? { id: 'docker-cli', status: 'ok', summary: `docker CLI at ${dockerCli}` }
        : {
            id: 'docker-cli', status: 'fail', summary: 'No docker command on PATH: sandy stops with "Docker is not installed or not in PATH."',
            hint: 'Install Docker (Docker Desktop, or docker-ce on Linux) and make sure `docker` is on PATH.'
        });

    const docker = new DockerReadClient({ env: io.env, home: io.home });
    const ping = await docker.ping();
    add(ping.reachable && ping.ok
        ? { id: 'docker', status: 'ok', summary: `Docker daemon reachable${ping.value.apiVersion ? ` (API ${ping.value.apiVersion})` : ''}` }
        : {
            id: 'docker', status: 'fail',
            summary: `Docker daemon not reachable: ${ping.reachable ? ping.message : ping.reason}`,
            // sandy's own advice for the same situation (CONTRACT §6.2).
            hint: 'Start Docker (Docker Desktop, or \'sudo systemctl start docker\') and retry.'
        });

    add(await checkSandyHome(sandyHome(io)));
    add(checkLocalBin(io, sandy));

    const ok = !checks.some(c => c.status === 'fail');
    if (args.json) {
        printJson(io, {
            ok,
            checks,
            sandy: sandy ? { path: sandy.path, fullVersion: sandy.fullVersion, printVersion: sandy.printVersion, candidates: sandy.candidates } : undefined,
            compat: verdict
        });
    } else {
        const mark = { ok: '✔', warn: '!', fail: '✘' } as const;
        for (const c of checks) {
            io.stdout(`${mark[c.status]} ${c.summary}\n`);
            if (c.hint && c.status !== 'ok') {
                io.stdout(`    → ${c.hint}\n`);
            }
        }
        io.stdout(ok ? 'All checks passed.\n' : 'Some checks failed; fix the items marked ✘.\n');
    }
    return ok ? 0 : 1;
}

async function checkSandyHome(home: string): Promise<DoctorCheck> {
    if (/[;$`&|<>]/.test(home)) {
        // sandy:150-155 refuses such a SANDY_HOME for every command, --version included (fx 07).
        return { id: 'sandy-home', status: 'fail', summary: `SANDY_HOME ${home} contains a shell metacharacter; sandy refuses to run.`, hint: 'Point SANDY_HOME at a plain path.' };
    }
    let target = home;
    try {
        const stat = await fs.promises.stat(home);
        if (!stat.isDirectory()) {
            return { id: 'sandy-home', status: 'fail', summary: `${home} is not a folder.`, hint: `Move it away; sandy keeps its state in that folder.` };
        }
    } catch {
        target = path.dirname(home); // sandy creates it on its first run (sandy:164)
    }
    try {
        await fs.promises.access(target, fs.constants.W_OK);
    } catch {
        return {
            id: 'sandy-home', status: 'fail', summary: `${target} is not writable; sandy stops with "SANDY_HOME (…) is not writable".`,
            hint: `Fix the owner or permissions of ${target} (e.g. sudo chown -R "$USER" ${target}).`
        };
    }
    return { id: 'sandy-home', status: 'ok', summary: target === home ? `${home} is writable` : `${home} does not exist yet; sandy will create it` };
}

function checkLocalBin(io: CliIo, sandy: LocatedSandy | undefined): DoctorCheck {
    const localBin = path.join(io.home, '.local', 'bin');
    const onPath = (io.env.PATH ?? '').split(path.delimiter).some(dir => dir && path.resolve(dir) === localBin);
    if (onPath) {
        return { id: 'local-bin', status: 'ok', summary: `${localBin} is on PATH` };
    }
    const hint = `Add it to your shell profile: export PATH="$HOME/.local/bin:$PATH"`;
    const selected = sandy?.candidates.find(c => c.verdict === 'selected');
    if (selected?.source === 'fallback' && path.dirname(selected.path) === localBin) {
        return { id: 'local-bin', status: 'fail', summary: `sandy is in ${localBin}, which is not on PATH: \`sandy\` does not work in a terminal.`, hint };
    }
    return {
        id: 'local-bin', status: 'warn', summary: `${localBin} is not on PATH (install.sh installs sandy there).`,
        hint: sandy ? hint : `${hint}, then install sandy: ${SANDY_INSTALL_COMMAND}`
    };
}

async function findOnPath(name: string, pathVar: string | undefined): Promise<string | undefined> {
    for (const dir of (pathVar ?? '').split(path.delimiter)) {
        if (dir && path.isAbsolute(dir) && await examineExecutable(path.join(dir, name)) === 'ok') {
            return path.join(dir, name);
        }
    }
    return undefined;
}
