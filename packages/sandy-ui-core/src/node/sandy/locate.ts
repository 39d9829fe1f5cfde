import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { printVersionCommand, versionCommand } from '../../common/sandy/commands';
import { supportsPrintVersion } from '../../common/sandy/compat';
import { PrintVersion } from '../../common/sandy/contract';
import { isSandyError, SandyError } from '../../common/sandy/errors';
import { SandyRunner } from '../../common/sandy/runner-types';
import { SandyEnvOptions } from './env';
import { ProcessSandyRunner } from './runner';
import { SANDY_INSTALL_COMMAND } from '../../common/projects/project-labels';

/** sandy's installer (README "Install"); what every not-found message offers. */
export { SANDY_INSTALL_COMMAND };

/** Where a candidate path came from. */
export type SandyCandidateSource = 'configured' | 'PATH' | 'fallback';

/** What became of one candidate. */
export type SandyCandidateVerdict =
    | 'selected'
    | 'missing'
    | 'not-executable'
    | 'directory'
    /** A relative configured path or PATH entry: meaningless for an IDE whose cwd is arbitrary. */
    | 'not-absolute'
    /** Executable, but `--version` did not print `sandy <version>`: some other program called sandy. */
    | 'not-sandy'
    /** Executable, but `--version` failed (timeout, crash, bad interpreter). */
    | 'probe-failed'
    /** The same path was examined earlier in the search. */
    | 'duplicate';

export interface SandyCandidate {
    path: string;
    source: SandyCandidateSource;
    verdict: SandyCandidateVerdict;
    /** The error for probe failures. */
    detail?: string;
}

/** The sandy that will be used. */
export interface LocatedSandy {
    /** As found (may be a symlink, e.g. ~/.local/bin/sandy). */
    path: string;
    /** `--version`'s full_version (`1.7.1-dev`, `1.7.1-dev-abc1234`). */
    fullVersion: string;
    /** `--print-version`, only asked of sandy ≥ 1.7.0. */
    printVersion?: PrintVersion;
    /** Why `--print-version` failed on a sandy that should have it. */
    printVersionError?: string;
    /** With `size`: changes when sandy is updated in place — a schema cache key alongside fullVersion. */
    mtimeMs: number;
    size: number;
    /** Every path examined, in order, with its verdict. */
    candidates: SandyCandidate[];
}

export interface LocateOptions {
    /** The sandy path from settings; `~/` is expanded. Examined first. */
    readonly configuredPath?: string;
    /** Host environment (PATH, and the base for sandy's whitelisted env). Default process.env. */
    readonly processEnv?: Readonly<Record<string, string | undefined>>;
    /** Default os.homedir(). */
    readonly home?: string;
    /** Passed to buildSandyEnv for the probes. */
    readonly envOptions?: SandyEnvOptions;
    /** Injected for tests; default ProcessSandyRunner. */
    readonly runnerFor?: (sandyPath: string) => SandyRunner;
}

/** sandy could not be found; `candidates` lists every path examined and why it was rejected. */
export class SandyNotFoundError extends SandyError {
    constructor(message: string, readonly candidates: SandyCandidate[]) {
        super('not-found', message, `Install it with \`${SANDY_INSTALL_COMMAND}\`, or set the sandy path in settings.`);
    }
}

/**
 * The paths examined, in order: the configured path, every PATH entry, then the usual install folders
 * (install.sh's `~/.local/bin`, `/usr/local/bin`, Homebrew's `/opt/homebrew/bin`, `~/bin`) — an IDE
 * started from a desktop launcher often has a PATH without the user's shell additions.
 */
export function sandyCandidatePaths(
    configuredPath: string | undefined,
    pathVar: string | undefined,
    home: string
): Array<{ path: string; source: SandyCandidateSource }> {
    const list: Array<{ path: string; source: SandyCandidateSource }> = [];
    if (configuredPath && configuredPath.trim()) {
        const p = configuredPath.trim();
        list.push({ path: p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p, source: 'configured' });
    }
    for (const dir of (pathVar ?? '').split(path.delimiter)) {
        if (dir) {
            list.push({ path: path.join(dir, 'sandy'), source: 'PATH' });
        }
    }
    for (const dir of [path.join(home, '.local', 'bin'), '/usr/local/bin', '/opt/homebrew/bin', path.join(home, 'bin')]) {
        list.push({ path: path.join(dir, 'sandy'), source: 'fallback' });
    }
    return list;
}

/**
 * The first place sandy is looked for that holds an executable file, found without running anything
 * (undefined: none). Only a start-up guess — "is sandy installed at all?" — for a host that must not
 * spawn sandy before a window shows sandy state; {@link locateSandy} is the real search.
 */
export async function sandyInstalledAt(configuredPath: string | undefined, pathVar: string | undefined, home: string): Promise<string | undefined> {
    for (const { path: file } of sandyCandidatePaths(configuredPath, pathVar, home)) {
        if (path.isAbsolute(file) && await examineExecutable(file) === 'ok') {
            return file;
        }
    }
    return undefined;
}

/** Checks one path without running it. */
export async function examineExecutable(file: string): Promise<'ok' | 'missing' | 'not-executable' | 'directory'> {
    let stat: fs.Stats;
    try {
        stat = await fs.promises.stat(file);
    } catch {
        return 'missing'; // includes a dangling symlink
    }
    if (stat.isDirectory()) {
        return 'directory';
    }
    try {
        await fs.promises.access(file, fs.constants.X_OK);
    } catch {
        return 'not-executable';
    }
    return stat.isFile() ? 'ok' : 'not-executable';
}

/**
 * Finds sandy and asks its version. `--version` is the first thing run, being the one probe every
 * sandy answers; `--print-version` follows only on ≥ 1.7.0, because an older sandy forwards unknown
 * flags to the agent and starts a launch (CONTRACT §2.1, SPEC_INTROSPECTION.md:79-81). A pre-release
 * of 1.7.0 (`1.7.0-dev`) is not asked: the flag arrived part-way through 1.7.0-dev (rappdw/sandy 8af8b70).
 */
export async function locateSandy(options: LocateOptions = {}): Promise<LocatedSandy> {
    const processEnv = options.processEnv ?? process.env;
    const home = options.home ?? processEnv.HOME ?? os.homedir();
    const runnerFor = options.runnerFor
        ?? ((sandyPath: string) => new ProcessSandyRunner({ sandyPath, processEnv, envOptions: options.envOptions }));
    const candidates: SandyCandidate[] = [];
    const seen = new Set<string>();

    for (const { path: file, source } of sandyCandidatePaths(options.configuredPath, processEnv.PATH, home)) {
        const reject = (verdict: SandyCandidateVerdict, detail?: string): void => {
            candidates.push(detail === undefined ? { path: file, source, verdict } : { path: file, source, verdict, detail });
        };
        if (!path.isAbsolute(file)) {
            reject('not-absolute');
            continue;
        }
        const key = path.normalize(file);
        if (seen.has(key)) {
            reject('duplicate');
            continue;
        }
        seen.add(key);
        const verdict = await examineExecutable(file);
        if (verdict !== 'ok') {
            reject(verdict);
            continue;
        }

        const runner = runnerFor(file);
        let fullVersion: string;
        try {
            const cmd = versionCommand();
            fullVersion = cmd.parse(await runner.run(cmd.args, { timeoutMs: cmd.timeoutMs }));
        } catch (e) {
            const invalid = isSandyError(e) && e.code === 'invalid-output';
            reject(invalid ? 'not-sandy' : 'probe-failed', e instanceof Error ? e.message : String(e));
            continue;
        }

        let stat: fs.Stats;
        try {
            stat = await fs.promises.stat(file);
        } catch {
            reject('missing'); // removed while we probed it
            continue;
        }
        const found: LocatedSandy = { path: file, fullVersion, mtimeMs: stat.mtimeMs, size: stat.size, candidates };
        if (supportsPrintVersion(fullVersion)) {
            try {
                const cmd = printVersionCommand();
                found.printVersion = cmd.parse(await runner.run(cmd.args, { timeoutMs: cmd.timeoutMs }));
            } catch (e) {
                found.printVersionError = e instanceof Error ? e.message : String(e);
            }
        }
        candidates.push({ path: file, source, verdict: 'selected' });
        return found;
    }

    throw new SandyNotFoundError(notFoundMessage(candidates), candidates);
}

function notFoundMessage(candidates: SandyCandidate[]): string {
    const interesting = candidates.filter(c => c.verdict !== 'missing' && c.verdict !== 'duplicate');
    const configured = candidates.find(c => c.source === 'configured');
    const parts: string[] = [];
    if (configured) {
        parts.push(`the configured path ${configured.path} is ${describe(configured)}`);
    }
    for (const c of interesting.filter(c => c !== configured).slice(0, 3)) {
        parts.push(`${c.path} is ${describe(c)}`);
    }
    const searched = candidates.filter(c => c.source !== 'configured' && c.verdict !== 'duplicate').length;
    return `sandy was not found (searched ${searched} location${searched === 1 ? '' : 's'} on PATH and in the usual install folders${parts.length ? `; ${parts.join('; ')}` : ''}).`;
}

function describe(c: SandyCandidate): string {
    switch (c.verdict) {
        case 'missing': return 'missing';
        case 'not-executable': return 'not executable';
        case 'directory': return 'a directory';
        case 'not-absolute': return 'not an absolute path';
        case 'not-sandy': return 'not sandy';
        case 'probe-failed': return `not answering \`--version\`${c.detail ? ` (${c.detail})` : ''}`;
        default: return c.verdict;
    }
}
