/**
 * Gathers the facts `common/onboarding/credentials.ts` decides on: which credential variables are set,
 * which of sandy's host credential files are there.
 *
 * Nothing here opens a credential file: host files are only looked at with lstat, realpath and
 * access(R_OK) (existence, kind, size > 0, readable). A path that leads outside the home folder
 * through a symbolic link is not followed (its target is never stat'ed). The only files read are
 * `$SANDY_HOME/config` and `.secrets`, through the one bounded config reader (`config/config-io.ts`),
 * and only the NAMES of their non-empty keys leave this module, never a value.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
    AgentCredentialInfo, credentialFilesToCheck, CredentialFacts, credentialVariablesToCheck, HostFileState
} from '../../common/onboarding/credentials';
import { getEffectiveValues, parseConfigFile } from '../../common/config/config-file';
import { readConfigFileSync } from '../config/config-io';
import { isStrictlyInside } from '../config/path-inside';

export interface CredentialProbeOptions {
    /** The user's home folder (sandy's `$HOME`). */
    readonly home: string;
    /** sandy-ui's own environment (the service's `processEnv`), or the environment sandy is started with. */
    readonly env: NodeJS.ProcessEnv;
    /** `$SANDY_HOME` as the launched sandy sees it (`SandyDiscovery.launchSandyHome`). */
    readonly sandyHome: string;
    /**
     * The variables sandy-ui passes to sandy (`sandy.passEnvironment`). A variable set in `env` but not
     * named here is reported as not passed. Omit when `env` already is sandy's environment (`baseEnv()`).
     */
    readonly passEnvironment?: readonly string[];
    /** Default: `process.platform`. */
    readonly platform?: NodeJS.Platform;
}

/** `~/…` for a path inside home, else the path itself. */
function displayPath(file: string, home: string): string {
    const abs = path.resolve(file);
    return isStrictlyInside(abs, path.resolve(home)) ? `~/${path.relative(path.resolve(home), abs).split(path.sep).join('/')}` : abs;
}

function errnoOf(e: unknown): string | undefined {
    return (e as NodeJS.ErrnoException | undefined)?.code;
}

async function realHomeOf(home: string): Promise<string> {
    try {
        return await fs.promises.realpath(home);
    } catch {
        return path.resolve(home);
    }
}

/** One host file's state; `file` is `~/…`. Never opens it. */
async function hostFileState(home: string, realHome: string, file: string): Promise<HostFileState> {
    const abs = path.join(home, ...file.slice(2).split('/'));
    let real: string;
    try {
        // realpath resolves links in the path only (lstat per component); it reads no file.
        real = await fs.promises.realpath(abs);
    } catch (e) {
        const code = errnoOf(e);
        // ENOENT also for a dangling link, which sandy's `[ -f ]` does not take either.
        return code === 'EACCES' || code === 'EPERM' ? 'unreadable' : code === 'ELOOP' ? 'not a file' : 'absent';
    }
    if (!isStrictlyInside(real, realHome)) {
        return 'outside home';
    }
    let stat: fs.Stats;
    try {
        // `real` holds no link any more, so lstat sees the file itself.
        stat = await fs.promises.lstat(real);
    } catch (e) {
        return errnoOf(e) === 'EACCES' || errnoOf(e) === 'EPERM' ? 'unreadable' : 'absent';
    }
    if (!stat.isFile()) {
        return 'not a file';
    }
    if (stat.size === 0) {
        return 'empty';
    }
    try {
        await fs.promises.access(real, fs.constants.R_OK);
    } catch {
        return 'unreadable';
    }
    return 'present';
}

/** Names of the keys `wanted` set non-empty in one of sandy's files; a refused file is a problem, not an error. */
function keysSetIn(file: string, root: string, wanted: ReadonlySet<string>, home: string, problems: { path: string; message: string }[]): string[] {
    try {
        const read = readConfigFileSync(file, { root });
        if (!read.exists) {
            return [];
        }
        const values = getEffectiveValues(parseConfigFile(read.text));
        return Object.keys(values).filter(key => wanted.has(key) && values[key] !== '');
    } catch (e) {
        problems.push({ path: displayPath(file, home), message: (e as Error).message });
        return [];
    }
}

/** Gathers the facts for {@link decideCredentials} (common/onboarding/credentials.ts). Never throws for a file. */
export async function probeCredentials(opts: CredentialProbeOptions, agents: readonly AgentCredentialInfo[]): Promise<CredentialFacts> {
    const variables = credentialVariablesToCheck(agents);
    const wanted = new Set(variables);
    const setInEnv = variables.filter(name => {
        const value = opts.env[name];
        return typeof value === 'string' && value !== '';
    });
    const passed = opts.passEnvironment;
    const env = passed ? setInEnv.filter(name => passed.includes(name)) : setInEnv;
    const envNotPassed = passed ? setInEnv.filter(name => !passed.includes(name)) : [];

    const problems: { path: string; message: string }[] = [];
    const configFile = path.join(opts.sandyHome, 'config');
    const secretsFile = path.join(opts.sandyHome, '.secrets');
    const sandyConfig = keysSetIn(configFile, opts.sandyHome, wanted, opts.home, problems);
    const sandySecrets = keysSetIn(secretsFile, opts.sandyHome, wanted, opts.home, problems);

    const realHome = await realHomeOf(opts.home);
    const files: Record<string, HostFileState> = {};
    for (const file of credentialFilesToCheck(agents)) {
        files[file] = await hostFileState(opts.home, realHome, file);
    }
    return {
        env,
        envNotPassed,
        sandyConfig,
        sandySecrets,
        files,
        sandyConfigPath: displayPath(configFile, opts.home),
        sandySecretsPath: displayPath(secretsFile, opts.home),
        platform: opts.platform ?? process.platform,
        problems
    };
}
