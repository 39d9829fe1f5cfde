/**
 * Creates a project's `.sandy/` folder (a starter config, or what a copy plan decided) and reads
 * another project's `.sandy/` as the source of a copy.
 *
 * Both go through the workspace guard first (`checkWorkspace`: the canonical folder, never one that
 * is, contains or lies inside `~/.ssh`, `~/.sandy`, …, however it is reached through symlinks) and
 * both refuse a `.sandy` that is a symbolic link: a repository can ship `.sandy -> ~/.ssh`, and
 * nothing may be read or written through it. Files are read and written by config-io, the one
 * bounded reader and atomic writer (no symlinks, size-capped, `.secrets` 0600, folders 0700).
 *
 * sandy itself never creates a workspace `.sandy/` (it only reads `config`/`.secrets` from it and
 * uses it as the build context of `.sandy/Dockerfile`); the folder is made 0700 like every folder
 * config-io creates, and only when nothing of that name exists: creating never overwrites.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CopySource } from '../../common/config/starter-config';
import { SandyError } from '../../common/sandy/errors';
import { checkWorkspace, WorkspaceGuardOptions } from '../projects/workspace-guard';
import { CONFIG_FILE_MAX_BYTES, ConfigIoError, describeTarget, errnoOf, lstatOrUndefined, readConfigFile, TEMP_DIR_PREFIX, withFileLock, writeFileAtomic } from './config-io';
import { isStrictlyInside } from './path-inside';

/** The folder's name in a workspace. */
export const SANDY_FOLDER = '.sandy';

/** Mode of a created `.sandy/` (config-io's folder mode). */
export const SANDY_FOLDER_MODE = 0o700;

/** At most this many entries of a source `.sandy/` are listed. */
const MAX_LISTED_ENTRIES = 200;

export interface SandyFolderOptions extends WorkspaceGuardOptions {
    /** The HOME the workspace guard judges the workspace against. Default: `os.homedir()`. */
    readonly home?: string;
}

/** What to put in a new `.sandy/`. */
export interface SandyFolderContent {
    /** The text of `.sandy/config` (a starter, or a copy plan's `config`). */
    readonly config: string;
    /** The text of `.sandy/.secrets`, written 0600; no `.secrets` when undefined. */
    readonly secrets?: string;
}

/** A source project's `.sandy/`, as {@link readSandyFolder} found it; pass it to `planCopy`. */
export interface SandyFolderRead extends CopySource {
    /** The source workspace, canonical. */
    readonly workspace: string;
    /** It has a `.sandy/` folder. */
    readonly exists: boolean;
    readonly secretsExists: boolean;
    readonly dockerfile: boolean;
    readonly otherFiles: string[];
    readonly unreadable: { name: string; why: string }[];
}

export interface ReadSandyFolderOptions extends SandyFolderOptions {
    /** Read `.sandy/.secrets` too (only when the user asked to copy secrets). Default: existence only. */
    readonly readSecrets?: boolean;
}

/** A link target for a message: as is when plain, otherwise quoted with escapes, never endless. */
function linkTarget(p: string): string {
    let target: string;
    try {
        target = fs.readlinkSync(p);
    } catch {
        return '?';
    }
    return describeTarget(target);
}

function symlinkRefusal(dir: string, verb: 'create' | 'read'): SandyError {
    return new SandyError('usage',
        `${dir} is a symbolic link to ${linkTarget(dir)}; Sandy does not ${verb === 'create' ? 'write' : 'read'} anything through it, `
        + 'because a project\'s .sandy must be a real folder inside the project. Nothing was changed.',
        'A repository can ship such a link to reach ~/.ssh or ~/.sandy. Look at where it points, remove the link, then try again.');
}

function existsRefusal(dir: string, stat: fs.Stats): SandyError {
    const what = stat.isDirectory() ? 'a .sandy folder' : 'something named .sandy that is not a folder';
    return new SandyError('usage',
        `${path.dirname(dir)} already has ${what}; Sandy creates .sandy only where there is none. Nothing was changed.`,
        stat.isDirectory()
            ? 'Edit its settings instead (Sandy: Open Settings), or remove the folder yourself if you want a fresh one.'
            : `Remove or rename ${dir}, then try again.`);
}

/** A config-io failure as a SandyError: its refusals stay `usage`, I/O failures are `failed`. */
function fromConfigIo(e: unknown): unknown {
    if (e instanceof ConfigIoError) {
        return new SandyError(e.cause === undefined ? 'usage' : 'failed', e.message, e.hint);
    }
    return e;
}

function checkContent(content: SandyFolderContent): void {
    const texts: [string, unknown][] = [['config', content?.config], ['.secrets', content?.secrets]];
    for (const [name, text] of texts) {
        if (name === '.secrets' && text === undefined) {
            continue;
        }
        if (typeof text !== 'string') {
            throw new SandyError('usage', `No text was given for .sandy/${name}.`, 'Pass the file\'s text (an empty string for an empty file).');
        }
        if (Buffer.byteLength(text, 'utf8') > CONFIG_FILE_MAX_BYTES) {
            throw new SandyError('usage', `The .sandy/${name} to write is larger than 1 MiB; a sandy config holds a few KEY=value lines.`,
                'Shorten it, then try again. Nothing was changed.');
        }
    }
}

/**
 * Creates `<workspace>/.sandy/` (0700) with `config` and, when given, `.secrets` (0600). Refuses, with
 * a {@link SandyError} and nothing written, when the workspace fails the workspace guard (it is, or
 * through a symlink lies in, a folder such as `~/.ssh`), when `.sandy` already exists in any form
 * (folder, file, or a symlink — dangling or not), or when the folder made is not where it should be.
 * A failure after the folder was made removes what this call created. Returns the created paths
 * (canonical): the folder, then each file.
 */
export async function createSandyFolder(workspace: string, content: SandyFolderContent, options: SandyFolderOptions = {}): Promise<{ created: string[] }> {
    checkContent(content);
    const canonical = await checkWorkspace(workspace, options.home ?? os.homedir(), options);
    const dir = path.join(canonical, SANDY_FOLDER);
    const refuseExisting = (stat: fs.Stats): never => {
        throw stat.isSymbolicLink() ? symlinkRefusal(dir, 'create') : existsRefusal(dir, stat);
    };
    const before = lstatOrUndefined(dir);
    if (before) {
        refuseExisting(before);
    }
    try {
        // Not recursive: the workspace exists (the guard said so); EEXIST if anything, a link included, appeared since.
        await fs.promises.mkdir(dir, { mode: SANDY_FOLDER_MODE });
    } catch (e) {
        const now = errnoOf(e) === 'EEXIST' ? lstatOrUndefined(dir) : undefined;
        if (now) {
            refuseExisting(now);
        }
        throw new SandyError('failed', `Could not create ${dir}: ${(e as Error).message}.`, 'Check that the project folder is writable, then try again.');
    }
    const made = lstatOrUndefined(dir);
    const created = [dir];
    try {
        if (!made?.isDirectory() || !isStrictlyInside(fs.realpathSync(dir), canonical) || path.dirname(fs.realpathSync(dir)) !== canonical) {
            throw new SandyError('usage', `${dir} changed while Sandy was creating it (it was replaced); nothing was written into it.`,
                'Check what is changing files in the project folder, then try again.');
        }
        const files: [string, string | undefined][] = [['config', content.config], ['.secrets', content.secrets]];
        for (const [name, text] of files) {
            if (text === undefined) {
                continue;
            }
            const file = path.join(dir, name);
            await withFileLock(file, () => writeFileAtomic(file, text, { root: dir }));
            created.push(file);
        }
        return { created };
    } catch (e) {
        rollBack(created, made);
        throw fromConfigIo(e);
    }
}

/** Removes what a failed create made: its regular files, then the folder if it is still the one made (and empty). */
function rollBack(created: readonly string[], made: fs.Stats | undefined): void {
    const [dir, ...files] = created;
    for (const file of files.reverse()) {
        try {
            if (lstatOrUndefined(file)?.isFile()) {
                fs.unlinkSync(file);
            }
        } catch {
            // Best effort: the error being thrown says what went wrong.
        }
    }
    try {
        const now = lstatOrUndefined(dir);
        if (made && now?.isDirectory() && now.dev === made.dev && now.ino === made.ino) {
            fs.rmdirSync(dir);
        }
    } catch {
        // Not empty (someone else wrote there) or gone: left as it is.
    }
}

/**
 * Reads a source project's `.sandy/` for a copy: `config` (bounded, no symlink), whether `.secrets`
 * exists (its text only with `readSecrets`), whether a `Dockerfile` exists, and the names of the
 * other entries. The workspace passes the workspace guard first; a `.sandy` that is a symbolic link
 * is refused with a {@link SandyError} (nothing is read through it). A file config-io refuses (a
 * symlink, a FIFO, over 1 MiB) or that is not UTF-8 is listed in `unreadable` instead of read.
 */
export async function readSandyFolder(workspace: string, options: ReadSandyFolderOptions = {}): Promise<SandyFolderRead> {
    const canonical = await checkWorkspace(workspace, options.home ?? os.homedir(), options);
    const dir = path.join(canonical, SANDY_FOLDER);
    const empty: SandyFolderRead = { workspace: canonical, exists: false, secretsExists: false, dockerfile: false, otherFiles: [], unreadable: [] };
    const stat = lstatOrUndefined(dir);
    if (!stat) {
        return empty;
    }
    if (stat.isSymbolicLink()) {
        throw symlinkRefusal(dir, 'read');
    }
    if (!stat.isDirectory()) {
        return { ...empty, unreadable: [{ name: SANDY_FOLDER, why: 'it is not a folder, so sandy reads nothing from it' }] };
    }
    const unreadable: { name: string; why: string }[] = [];
    const read = async (name: string): Promise<string | undefined> => {
        try {
            const r = await readConfigFile(path.join(dir, name), { root: dir });
            if (r.invalidUtf8) {
                unreadable.push({ name, why: 'it is not valid UTF-8, so it cannot be copied line for line; copy it yourself in a text editor' });
                return undefined;
            }
            return r.exists ? r.text : undefined;
        } catch (e) {
            if (e instanceof ConfigIoError) {
                unreadable.push({ name, why: e.message });
                return undefined;
            }
            throw e;
        }
    };
    const otherFiles: string[] = [];
    const names = new Set<string>();
    const handle = await fs.promises.opendir(dir);
    try {
        for await (const entry of handle) {
            names.add(entry.name);
            if (!['config', '.secrets', 'Dockerfile'].includes(entry.name) && !entry.name.startsWith(TEMP_DIR_PREFIX)) {
                otherFiles.push(entry.name);
            }
            if (names.size >= MAX_LISTED_ENTRIES) {
                break;
            }
        }
    } finally {
        // A `break` out of for-await has already closed it.
        try {
            await handle.close();
        } catch {
            // ERR_DIR_CLOSED
        }
    }
    const config = await read('config');
    const secretsExists = names.has('.secrets') || lstatOrUndefined(path.join(dir, '.secrets')) !== undefined;
    const secrets = options.readSecrets && secretsExists ? await read('.secrets') : undefined;
    const dockerfile = names.has('Dockerfile') || lstatOrUndefined(path.join(dir, 'Dockerfile')) !== undefined;
    return {
        workspace: canonical,
        exists: true,
        ...(config !== undefined ? { config } : {}),
        ...(secrets !== undefined ? { secrets } : {}),
        secretsExists,
        dockerfile,
        otherFiles: otherFiles.sort(),
        unreadable
    };
}
