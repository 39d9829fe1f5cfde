/**
 * Reading and atomically writing sandy's config files (and sandy-ui's own small state files).
 *
 * Writes follow VS Code's diskFileSystemProvider: write a temp file in the same folder, fsync, rename
 * over the target, delete the temp on any failure, and serialise writers per file with an in-process
 * lock. A reader (sandy, an editor) therefore sees the old file or the new one, never half of one.
 */
import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';
import {
    applyEdits, ConfigDocument, ConfigEdit, getEffectiveValues, parseConfigFile, serializeConfigFile
} from '../common/config-file';

/** A config file that cannot be read or written; `hint` says what to do. */
export class ConfigIoError extends Error {
    constructor(message: string, readonly hint: string, readonly path: string, override readonly cause?: unknown) {
        super(message);
        this.name = 'ConfigIoError';
    }
}

const locks = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task for the same absolute path has settled (a promise queue per
 * file). Keyed on `path.resolve(file)`; two different symlinks to one file are two locks.
 */
export function withFileLock<T>(file: string, task: () => Promise<T>): Promise<T> {
    const key = path.resolve(file);
    const previous = locks.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    // The queue holds a settled-never-rejecting tail, so one failed write does not fail the next.
    const tail = run.then(() => undefined, () => undefined);
    locks.set(key, tail);
    void tail.then(() => {
        if (locks.get(key) === tail) {
            locks.delete(key);
        }
    });
    return run;
}

export interface AtomicWriteOptions {
    /**
     * Mode for a NEW file (an existing file keeps its mode). Default: 0600 for a file named `.secrets`,
     * otherwise 0666 minus the umask.
     */
    readonly mode?: number;
    /** Mode for folders that have to be created. Default: 0700 for `.secrets`, otherwise 0777 minus the umask. */
    readonly dirMode?: number;
}

/** Whether `file` holds credentials and must be private (sandy's `.secrets`). */
export function isSecretsFile(file: string): boolean {
    return path.basename(file) === '.secrets';
}

/**
 * Replaces `file` with `data` atomically. Not locked by itself: wrap in {@link withFileLock} when
 * the content depends on what was read before (as {@link saveConfigEdits} does).
 *
 * The temp file is `<dir>/.sandy-ui-write-<random>/<basename>`: a temp folder holding a file with the
 * target's own name, because sandy's `.sandy/Dockerfile` approval hashes every file in `.sandy/`
 * except ones NAMED `config` or `.secrets` (sandy:7966-7975); a temp file with any other name would
 * change that hash while it exists (or forever, if a crash left it behind) and re-prompt.
 * A symlinked target (dotfiles) is written through: the link stays, its target is replaced.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
    const target = await resolveSymlink(path.resolve(file));
    const dir = path.dirname(target);
    const secret = isSecretsFile(target);
    const existing = await fs.stat(target).catch(() => undefined);
    const mode = existing ? existing.mode & 0o7777 : options.mode ?? (secret ? 0o600 : undefined);
    const tempDir = path.join(dir, `.sandy-ui-write-${randomBytes(6).toString('hex')}`);
    const temp = path.join(tempDir, path.basename(target));
    try {
        if (!existing) {
            await fs.mkdir(dir, { recursive: true, mode: options.dirMode ?? (secret ? 0o700 : 0o777) });
        }
        await fs.mkdir(tempDir, { mode: 0o700 });
        const handle = await fs.open(temp, 'wx', mode ?? 0o666);
        try {
            if (mode !== undefined) {
                // open()'s mode is filtered by the umask; chmod is not, so an existing 0640 stays 0640.
                await handle.chmod(mode);
            }
            await handle.writeFile(data);
            await handle.sync();
        } finally {
            await handle.close();
        }
        await fs.rename(temp, target);
    } catch (e) {
        throw new ConfigIoError(
            `Could not write ${target}: ${(e as Error).message}.`,
            'Check that the folder is writable and the path is not a folder, then save again. The file was not changed.',
            target, e
        );
    } finally {
        await fs.rm(tempDir, { recursive: true, force: true }).catch(() => undefined);
    }
    await syncDir(dir);
}

async function resolveSymlink(file: string): Promise<string> {
    try {
        const stat = await fs.lstat(file);
        return stat.isSymbolicLink() ? await fs.realpath(file) : file;
    } catch {
        return file;
    }
}

/** Makes the rename durable; not every platform can fsync a folder, and that is not worth failing a save. */
async function syncDir(dir: string): Promise<void> {
    try {
        const handle = await fs.open(dir, 'r');
        try {
            await handle.sync();
        } finally {
            await handle.close();
        }
    } catch {
        // best effort
    }
}

export interface ConfigFileRead {
    readonly path: string;
    /** False when the file does not exist (or is not a regular file, which sandy's `[ -f ]` skips too). */
    readonly exists: boolean;
    /** '' when missing. A BOM is kept (sandy does not skip it). */
    readonly text: string;
    /** The bytes were not valid UTF-8; `text` then holds U+FFFD replacements and must not be written back. */
    readonly invalidUtf8: boolean;
}

/** Reads a config file as sandy would find it. */
export async function readConfigFile(file: string): Promise<ConfigFileRead> {
    let bytes: Buffer;
    try {
        const stat = await fs.stat(file);
        if (!stat.isFile()) {
            return { path: file, exists: false, text: '', invalidUtf8: false };
        }
        bytes = await fs.readFile(file);
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') {
            return { path: file, exists: false, text: '', invalidUtf8: false };
        }
        throw new ConfigIoError(
            `Could not read ${file}: ${(e as Error).message}.`,
            'Check the file\'s permissions, then try again.', file, e
        );
    }
    try {
        // ignoreBOM keeps a BOM in the text, so the document round-trips byte for byte.
        return { path: file, exists: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), invalidUtf8: false };
    } catch {
        return { path: file, exists: true, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), invalidUtf8: true };
    }
}

export interface SaveConfigResult {
    /** False when every edit already matched the file (nothing was written). */
    readonly written: boolean;
    /** Keys whose lines changed. */
    readonly changedKeys: readonly string[];
    /** Keys that do not read back as intended after the write (someone else wrote in between, or a bug). */
    readonly mismatches: readonly { key: string; expected: string | undefined; actual: string | undefined }[];
}

/**
 * Applies `edits` to the config file at `file`: read (missing → empty), apply, write atomically,
 * read back and compare sandy's effective values with what was asked for. Serialised per file.
 * Throws {@link ConfigIoError} for unreadable / non-UTF-8 files and `ConfigEditError` for values
 * sandy cannot represent (nothing is written then).
 */
export function saveConfigEdits(file: string, edits: readonly ConfigEdit[], options: AtomicWriteOptions = {}): Promise<SaveConfigResult> {
    return withFileLock(file, async () => {
        const before = await readConfigFile(file);
        if (before.invalidUtf8) {
            throw new ConfigIoError(
                `${file} is not valid UTF-8, so sandy-ui will not rewrite it.`,
                'Re-save the file as UTF-8 in a text editor, then edit the settings again.', file
            );
        }
        const result = applyEdits(parseConfigFile(before.text), edits);
        if (!result.changed) {
            return { written: false, changedKeys: [], mismatches: [] };
        }
        await writeFileAtomic(file, serializeConfigFile(result.document), options);
        const after = await readConfigFile(file);
        const actual = getEffectiveValues(parseConfigFile(after.text));
        const wanted = new Map(edits.map(e => [e.key, e.value] as const));
        const mismatches = [...wanted]
            .filter(([key, value]) => actual[key] !== value)
            .map(([key, expected]) => ({ key, expected, actual: actual[key] }));
        return { written: true, changedKeys: result.changedKeys, mismatches };
    });
}

/** Reads and parses a config file; a missing file is an empty document. */
export async function loadConfigDocument(file: string): Promise<{ read: ConfigFileRead; document: ConfigDocument }> {
    const read = await readConfigFile(file);
    return { read, document: parseConfigFile(read.text) };
}
