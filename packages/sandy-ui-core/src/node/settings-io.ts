import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { SandySchema } from '../common/contract';
import { findEntries, getEffectiveValues, parseConfigFile } from '../common/config-file';
import type {
    SettingsEdits, SettingsGitignoreWarning, SettingsMisplacedKey, SettingsProblem, SettingsScope, SettingsScopeData
} from '../common/settings-form';
import { readConfigFile, saveConfigEdits, writeFileAtomic, withFileLock } from './config-io';

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
            problems.push({ message: e instanceof Error ? e.message : String(e), hint: (e as { hint?: string }).hint });
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
        } else if (def.type === 'secret') {
            secretsSet[key] = secretsSet[key] || value.length > 0;
        } else {
            // .secrets is loaded after config: its value wins (the loop visits it second).
            values[key] = value;
        }
    }
    for (const key of Object.keys(secretValues)) {
        const def = byName.get(key);
        if (def && def.type !== 'secret') {
            misplaced.push({ key, file: 'secrets', line: lastLine(secrets.doc, key) });
        }
    }
    for (const key of Object.keys(configValues)) {
        if (byName.get(key)?.type === 'secret') {
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

/** Write one scope's edits: each file atomically, only the changed keys (see saveConfigEdits). */
export async function saveSettingsScope(paths: ScopePaths, edits: SettingsEdits): Promise<{ written: string[]; mismatches: string[] }> {
    const written: string[] = [];
    const mismatches: string[] = [];
    for (const [file, list] of [[paths.config, edits.config], [paths.secrets, edits.secrets]] as const) {
        if (!list.length) {
            continue;
        }
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        const result = await saveConfigEdits(file, list);
        if (result.written) {
            written.push(file);
        }
        mismatches.push(...result.mismatches.map(m => m.key));
    }
    return { written, mismatches };
}

function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string }> {
    return new Promise(resolve => {
        execFile('git', args, { cwd, timeout: 5000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (err, stdout) => {
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

/** Append `.sandy/.secrets` to the workspace `.gitignore` (created if needed), keeping its newline style. */
export async function addSecretsToGitignore(workspace: string): Promise<void> {
    const file = path.join(workspace, '.gitignore');
    await withFileLock(file, async () => {
        let text = '';
        try {
            text = await fs.promises.readFile(file, 'utf8');
        } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
                throw e;
            }
        }
        if (text.split(/\r?\n/).some(l => l.trim() === '.sandy/.secrets' || l.trim() === '/.sandy/.secrets')) {
            return;
        }
        const eol = text.includes('\r\n') ? '\r\n' : '\n';
        const sep = text.length && !text.endsWith('\n') ? eol : '';
        await writeFileAtomic(file, `${text}${sep}# sandy secrets (API keys): never commit${eol}.sandy/.secrets${eol}`);
    });
}
