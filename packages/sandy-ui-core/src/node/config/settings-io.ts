import { isSecretKey } from '../../common/sandy/contract';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { withGitSafety } from '../host/git-safety';
import type { SandySchema } from '../../common/sandy/contract';
import { findEntries, getEffectiveValues, parseConfigFile } from '../../common/config/config-file';
import type {
    SettingsEdits, SettingsGitignoreWarning, SettingsMisplacedKey, SettingsModeFix, SettingsProblem, SettingsScope, SettingsScopeData
} from '../../common/settings/settings-dto';
import { ConfigIoError, ensurePrivateMode, readConfigFile, saveConfigEdits, sweepInterruptedWrites, writeFileAtomic, withFileLock } from './config-io';

/** The two files of a settings scope. */
export interface ScopePaths {
    config: string;
    secrets: string;
}

/** Project = `<ws>/.sandy/{config,.secrets}`; Global = `$SANDY_HOME/{config,.secrets}` (default `~/.sandy`). */
export function scopePaths(scope: SettingsScope, where: { workspace?: string; sandyHome: string }): ScopePaths {
    const dir = scope === 'project' ? path.join(where.workspace ?? '', '.sandy') : where.sandyHome;
    if (scope === 'project' && !where.workspace) {
        throw new Error('The project scope needs a workspace folder.');
    }
    return { config: path.join(dir, 'config'), secrets: path.join(dir, '.secrets') };
}

/**
 * One scope's files as the settings form sees them: non-secret values (`.secrets` over `config`, as
 * sandy loads them), which secrets are set — never their values — unknown and misplaced keys, and
 * files sandy cannot read properly.
 */
export async function readSettingsScope(paths: ScopePaths, schema: SandySchema): Promise<SettingsScopeData> {
    const keys = [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys];
    const byName = new Map(keys.map(k => [k.name, k]));
    const problems: SettingsProblem[] = [];
    const read = async (file: string) => {
        try {
            const r = await readConfigFile(file);
            if (r.invalidUtf8) {
                problems.push({ message: `${file} is not valid UTF-8; sandy stops reading it at the first bad line.`, hint: 'Re-save it as UTF-8 (Open in editor).' });
            }
            const doc = parseConfigFile(r.text);
            if (doc.binary) {
                problems.push({ message: `${file} contains a NUL byte, so sandy reads nothing from it.`, hint: 'Open it in the editor and remove the binary content.' });
            }
            return { exists: r.exists, doc };
        } catch (e) {
            // Refused (a symlink, a FIFO, over the cap) or unreadable: said once, shown as empty, never saved over.
            const message = e instanceof Error ? e.message : String(e);
            if (!problems.some(p => p.message === message)) {
                problems.push({ message, hint: (e as { hint?: string }).hint });
            }
            return { exists: false, doc: parseConfigFile('') };
        }
    };
    const config = await read(paths.config);
    const secrets = await read(paths.secrets);
    const configValues = getEffectiveValues(config.doc);
    const secretValues = getEffectiveValues(secrets.doc);
    const values: Record<string, string> = {};
    const secretsSet: Record<string, boolean> = {};
    const unknown = new Set<string>();
    const misplaced: SettingsMisplacedKey[] = [];
    const lastLine = (doc: typeof config.doc, key: string) => {
        const found = findEntries(doc, key);
        return found.length ? found[found.length - 1].lineNumber : undefined;
    };
    for (const [key, value] of [...Object.entries(configValues), ...Object.entries(secretValues)]) {
        const def = byName.get(key);
        if (!def) {
            unknown.add(key);
        } else if (isSecretKey(def)) {
            secretsSet[key] = secretsSet[key] || value.length > 0;
        } else {
            // .secrets is loaded after config: its value wins (the loop visits it second).
            values[key] = value;
        }
    }
    for (const key of Object.keys(secretValues)) {
        const def = byName.get(key);
        if (def && !isSecretKey(def)) {
            misplaced.push({ key, file: 'secrets', line: lastLine(secrets.doc, key) });
        }
    }
    for (const key of Object.keys(configValues)) {
        if (isSecretKey(byName.get(key))) {
            misplaced.push({ key, file: 'config', line: lastLine(config.doc, key) });
        }
    }
    return {
        values,
        secretsSet,
        unknownKeys: [...unknown].sort(),
        misplaced,
        filePaths: { ...paths },
        fileExists: { config: config.exists, secrets: secrets.exists },
        problems: problems.length ? problems : undefined
    };
}

/**
 * Write one scope's edits: each file atomically, only the changed keys (see saveConfigEdits), never
 * through a symlink; the scope's folder is created 0700. The scope's `.secrets` ends up 0600 even when
 * only `config` was edited, and every mode that was fixed is reported, for the user to be told.
 */
export async function saveSettingsScope(paths: ScopePaths, edits: SettingsEdits): Promise<{ written: string[]; mismatches: string[]; modeFixes: SettingsModeFix[] }> {
    const written: string[] = [];
    const mismatches: string[] = [];
    const modeFixes: SettingsModeFix[] = [];
    for (const [file, list] of [[paths.config, edits.config], [paths.secrets, edits.secrets]] as const) {
        if (!list.length) {
            continue;
        }
        const result = await saveConfigEdits(file, list);
        if (result.written) {
            written.push(file);
        }
        if (result.modeFixed) {
            modeFixes.push({ path: file, ...result.modeFixed });
        }
        mismatches.push(...result.mismatches.map(m => m.key));
    }
    if (!modeFixes.some(f => f.path === paths.secrets)) {
        const { modeFixed } = await withFileLock(paths.secrets, async () => ensurePrivateMode(paths.secrets));
        if (modeFixed) {
            modeFixes.push({ path: paths.secrets, ...modeFixed });
        }
    }
    return { written, mismatches, modeFixes };
}

/**
 * Removes what interrupted saves left behind (see sweepInterruptedWrites) in every folder sandy-ui
 * writes config into: `$SANDY_HOME`, its own data folder, and each project's folder and `.sandy/`.
 */
export function sweepInterruptedSaves(where: { sandyHome: string; dataDir: string; workspaces: readonly string[] }): Promise<string[]> {
    return sweepInterruptedWrites([where.sandyHome, where.dataDir, ...where.workspaces.flatMap(ws => [ws, path.join(ws, '.sandy')])]);
}

function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string }> {
    return new Promise(resolve => {
        execFile('git', args, { cwd, timeout: 5000, env: { ...withGitSafety(process.env), GIT_OPTIONAL_LOCKS: '0' } }, (err, stdout) => {
            const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
            resolve({ code, stdout: String(stdout) });
        });
    });
}

/**
 * A workspace `.sandy/.secrets` that git does not ignore (spec: warn before damage). undefined when
 * the folder is not a git work tree, git is missing, or the file is ignored.
 */
export async function gitignoreWarning(workspace: string): Promise<SettingsGitignoreWarning | undefined> {
    const secrets = path.join(workspace, '.sandy', '.secrets');
    const inside = await git(workspace, ['rev-parse', '--is-inside-work-tree']);
    if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
        return undefined;
    }
    const tracked = (await git(workspace, ['ls-files', '--error-unmatch', '--', '.sandy/.secrets'])).code === 0;
    // check-ignore: 0 = ignored, 1 = not ignored; --no-index also answers for tracked files.
    const ignored = (await git(workspace, ['check-ignore', '-q', '--no-index', '--', '.sandy/.secrets'])).code === 0;
    if (ignored && !tracked) {
        return undefined;
    }
    return { path: secrets, exists: fs.existsSync(secrets), tracked };
}

/**
 * Append `.sandy/.secrets` to the workspace `.gitignore` (created if needed), keeping its newline style.
 * Read and written like a config file: a `.gitignore` that is a symlink (to `~/.bashrc`…) is refused.
 */
export async function addSecretsToGitignore(workspace: string): Promise<void> {
    const file = path.join(workspace, '.gitignore');
    await withFileLock(file, async () => {
        const read = await readConfigFile(file);
        if (read.invalidUtf8) {
            throw new ConfigIoError(`${file} is not valid UTF-8, so sandy-ui will not rewrite it.`,
                'Add the line .sandy/.secrets to it in a text editor.', file);
        }
        const text = read.text;
        if (text.split(/\r?\n/).some(l => l.trim() === '.sandy/.secrets' || l.trim() === '/.sandy/.secrets')) {
            return;
        }
        const eol = text.includes('\r\n') ? '\r\n' : '\n';
        const sep = text.length && !text.endsWith('\n') ? eol : '';
        await writeFileAtomic(file, `${text}${sep}# sandy secrets (API keys): never commit${eol}.sandy/.secrets${eol}`);
    });
}
