/**
 * The one way sandy-ui reads and writes sandy's config files (`.sandy/{config,.secrets}`,
 * `$SANDY_HOME/{config,.secrets}`, the approval list) and its own small state files.
 *
 * A workspace — and the agent, which writes it read-write — controls what these paths are, so both
 * directions are fenced to the folder the file belongs in (its "root": `<workspace>/.sandy` for
 * Project, `$SANDY_HOME` for Global, by default the file's own folder):
 * - Only regular files. The root and every folder below it must be real folders, and the file a
 *   regular file: a symbolic link (to `/dev/zero`, to `~/.ssh/config`, anywhere) is refused for reads
 *   AND writes with a message saying so, as are FIFOs, devices, sockets and folders. sandy itself
 *   tests `[ -f "$file" ]` and reads through symlinks (sandy:5891, `_load_sandy_config`), and skips
 *   FIFOs and devices; sandy-ui deliberately does not follow the link: it would otherwise show (and
 *   approve) bytes from outside the project, or write a key into someone else's file. A pre-flight that
 *   meets a refused file stops with the message rather than treating it as absent, so what the user is
 *   shown is never less than what sandy would load.
 * - Size-capped: at most {@link CONFIG_FILE_MAX_BYTES} + 1 bytes are ever read; a larger file is an
 *   error with a clear message, never a truncated read (and never a save: nothing is lost).
 * - Opened with O_NOFOLLOW | O_NONBLOCK (a FIFO swapped in cannot hang the reader), the opened fd must
 *   be the regular file that was lstat'ed, and on Linux `/proc/self/fd` must show it inside the root
 *   (a folder swapped for a symlink between the checks and the open is caught).
 *
 * Writes follow VS Code's diskFileSystemProvider: write a temp file in the same folder, fsync, rename
 * over the target, delete the temp on any failure, and serialise writers per file with an in-process
 * lock, so a reader (sandy, an editor) sees the old file or the new one, never half of one. In addition:
 * never through a symlink (checked again with lstat right before the rename); the temp folder holds a
 * `.gitignore` of `*` written before anything else, so `git status` never shows it or the key inside;
 * temp folders an interrupted save left behind are removed by the next save in that folder and by
 * {@link sweepInterruptedWrites} at service start; `.secrets` is always 0600 (a looser mode is fixed
 * and reported); folders are created 0700.
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import {
    applyEdits, ConfigDocument, ConfigEdit, getEffectiveValues, parseConfigFile, serializeConfigFile
} from '../../common/config/config-file';
import { isStrictlyInside } from './path-inside';

/** A config file that cannot be read or written; `hint` says what to do. */
export class ConfigIoError extends Error {
    constructor(message: string, readonly hint: string, readonly path: string, override readonly cause?: unknown) {
        super(message);
        this.name = 'ConfigIoError';
    }
}

/**
 * The most sandy-ui reads of one config file: real configs are a few hundred bytes, so 1 MiB is far
 * above any of them and far below anything that could hurt the backend.
 */
export const CONFIG_FILE_MAX_BYTES = 1024 * 1024;

/** Names of the temp folders of an atomic write: `<prefix><pid>-<random hex>`. */
export const TEMP_DIR_PREFIX = '.sandy-ui-write-';

/** A temp folder of another live process younger than this is its save in progress; older is debris. */
const STALE_TEMP_MS = 10 * 60_000;

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;

const locks = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task for the same absolute path has settled (a promise queue per
 * file). Keyed on `path.resolve(file)`.
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

/** Where a file may be: inside `root` (default: the file's own folder), never through a symlink. */
export interface ConfigPathOptions {
    /**
     * The folder the file belongs in: `<workspace>/.sandy` for Project, `$SANDY_HOME` for Global.
     * It and every folder below it down to the file must be real folders (its parents are the user's
     * choice and may be symlinks, e.g. /tmp → /private/tmp).
     */
    readonly root?: string;
}

export interface AtomicWriteOptions extends ConfigPathOptions {
    /**
     * Mode for a NEW file (an existing file keeps its mode). Default: 0644 minus the umask. A file
     * named `.secrets` is always 0600, new or not.
     */
    readonly mode?: number;
    /** Mode for folders that have to be created (the root included). Default 0700. */
    readonly dirMode?: number;
}

/** What a write changed besides the content. */
export interface AtomicWriteResult {
    /** The file's mode was not what it must be (a `.secrets` readable by others) and was set to `to`. */
    readonly modeFixed?: { readonly from: number; readonly to: number };
}

/** Whether `file` holds credentials and must be private (sandy's `.secrets`). */
export function isSecretsFile(file: string): boolean {
    return path.basename(file) === '.secrets';
}

// ---- the path policy ------------------------------------------------------------------------

/**
 * A path or symlink target for a message: as is when plain, otherwise quoted with escapes (control,
 * line-separator and bidi characters cannot reshape the message), never endless.
 */
export function describeTarget(target: string): string {
    const short = target.length > 200 ? `${target.slice(0, 200)}…` : target;
    return /^[^\u0000-\u001f\u007f-\u009f"\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/.test(short) ? short : JSON.stringify(short);
}

function symlinkError(p: string, kind: 'file' | 'folder'): ConfigIoError {
    let target = '?';
    try {
        target = describeTarget(fs.readlinkSync(p));
    } catch {
        // Gone or unreadable: the message still names the link.
    }
    return new ConfigIoError(
        `${p} is a symbolic link to ${target}; sandy-ui does not follow it. Replace it with a regular ${kind}.`,
        `sandy reads config files through symbolic links; sandy-ui reads and writes only regular files in their own folder, so a link `
        + `cannot make it read or overwrite anything else. Copy what the link points to into a regular ${kind} at ${p} (or remove it), then try again. `
        + 'Nothing was changed.',
        p
    );
}

function kindOf(stat: fs.Stats): string {
    return stat.isDirectory() ? 'a folder'
        : stat.isFIFO() ? 'a named pipe (FIFO)'
            : stat.isCharacterDevice() ? 'a character device'
                : stat.isBlockDevice() ? 'a block device'
                    : stat.isSocket() ? 'a socket'
                        : 'not a regular file';
}

function notRegularError(p: string, what: string): ConfigIoError {
    return new ConfigIoError(
        `${p} is ${what}, not a regular file; sandy-ui reads and writes only regular files. Replace it with a regular file or remove it.`,
        'sandy skips such a file; sandy-ui refuses it so that nothing can make it block or read without end. Nothing was changed.',
        p
    );
}

function tooLargeError(p: string, size: number | undefined): ConfigIoError {
    const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
    return new ConfigIoError(
        `${p} is ${size === undefined ? 'larger than 1 MiB' : mib(size)}; sandy-ui reads config files of up to ${mib(CONFIG_FILE_MAX_BYTES)}. `
        + 'Shorten it (a sandy config holds a few KEY=value lines) or remove it.',
        'Open it in an editor and remove what does not belong there. Nothing was changed.',
        p
    );
}

function changedError(p: string): ConfigIoError {
    return new ConfigIoError(
        `${p} changed while sandy-ui was opening it (a folder or file was swapped); it was not used.`,
        'Check what is replacing files in that folder, then try again. Nothing was changed.',
        p
    );
}

function ioError(p: string, verb: 'read' | 'write', e: unknown): ConfigIoError {
    return new ConfigIoError(
        `Could not ${verb} ${p}: ${(e as Error).message}.`,
        verb === 'read' ? 'Check the file\'s permissions, then try again.'
            : 'Check that the folder is writable and the path is not a folder, then save again. The file was not changed.',
        p, e
    );
}

/** A Node error's code (`ENOENT`…), undefined for anything else. */
export function errnoOf(e: unknown): string | undefined {
    return (e as NodeJS.ErrnoException | undefined)?.code;
}

/** `lstat`, undefined when nothing is there (or a parent is not a folder). */
export function lstatOrUndefined(p: string): fs.Stats | undefined {
    try {
        return fs.lstatSync(p);
    } catch (e) {
        if (errnoOf(e) === 'ENOENT' || errnoOf(e) === 'ENOTDIR') {
            return undefined;
        }
        throw e;
    }
}

interface CheckedFolder {
    readonly dir: string;
    readonly dev: number;
    readonly ino: number;
}

interface ResolvedPath {
    readonly file: string;
    readonly root: string;
    /** Folders from the root down to the file's folder. */
    readonly folders: string[];
    /** Where the file really is (the root's parent canonicalised): what /proc/self/fd must show. */
    readonly canonical: string;
}

function resolvePath(file: string, options: ConfigPathOptions): ResolvedPath {
    const abs = path.resolve(file);
    const root = path.resolve(options.root ?? path.dirname(abs));
    if (!isStrictlyInside(abs, root)) {
        throw new Error(`${abs} is not inside ${root}.`);
    }
    const rel = path.relative(root, abs);
    const folders = [root];
    for (const part of path.dirname(rel).split(path.sep).filter(p => p && p !== '.')) {
        folders.push(path.join(folders[folders.length - 1], part));
    }
    let parent = path.dirname(root);
    try {
        parent = fs.realpathSync(parent);
    } catch {
        // A missing parent: nothing below it exists either.
    }
    return { file: abs, root, folders, canonical: path.join(parent, path.basename(root), rel) };
}

/**
 * lstat's every folder from the root down: undefined when one is missing (so is the file), an error
 * for a symlink. `create`: missing folders are made (with that mode) instead.
 */
function checkFolders(resolved: ResolvedPath, create?: { mode: number }): CheckedFolder[] | undefined {
    const checked: CheckedFolder[] = [];
    for (const dir of resolved.folders) {
        let stat = lstatOrUndefined(dir);
        if (!stat && create) {
            try {
                // The root's own parents too (a first save creates `~/.sandy`); below the root one at a time.
                fs.mkdirSync(dir, { recursive: dir === resolved.root, mode: create.mode });
            } catch (e) {
                if (errnoOf(e) !== 'EEXIST') {
                    throw ioError(resolved.file, 'write', e);
                }
            }
            stat = lstatOrUndefined(dir);
        }
        if (!stat) {
            return undefined;
        }
        if (stat.isSymbolicLink()) {
            throw symlinkError(dir, 'folder');
        }
        if (!stat.isDirectory()) {
            if (create) {
                throw ioError(resolved.file, 'write', new Error(`${dir} is not a folder`));
            }
            // As sandy's `[ -f ]` finds it: nothing is there.
            return undefined;
        }
        checked.push({ dir, dev: stat.dev, ino: stat.ino });
    }
    return checked;
}

/** The folders are still the ones checked (not swapped for a symlink or another folder since). */
function recheckFolders(file: string, folders: readonly CheckedFolder[]): void {
    for (const folder of folders) {
        const stat = lstatOrUndefined(folder.dir);
        if (stat?.isSymbolicLink()) {
            throw symlinkError(folder.dir, 'folder');
        }
        if (!stat || !stat.isDirectory() || stat.dev !== folder.dev || stat.ino !== folder.ino) {
            throw changedError(file);
        }
    }
}

/** On Linux, where the opened fd really is must be where the file should be. */
function checkOpenedPath(fd: number, resolved: ResolvedPath): void {
    let actual: string;
    try {
        actual = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
        // No /proc (macOS): the lstat and fstat checks stand alone.
        return;
    }
    if (actual !== resolved.canonical) {
        throw changedError(resolved.file);
    }
}

/** Reads at most `max + 1` bytes from `fd`, growing the buffer as needed. */
function readBounded(fd: number, sizeHint: number, max: number): Buffer {
    let buffer = Buffer.allocUnsafe(Math.min(Math.max(sizeHint + 1, 4096), max + 1));
    let total = 0;
    for (;;) {
        if (total === buffer.length) {
            if (buffer.length > max) {
                break;
            }
            const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, max + 1));
            buffer.copy(bigger, 0, 0, total);
            buffer = bigger;
        }
        const n = fs.readSync(fd, buffer, total, buffer.length - total, null);
        if (n === 0) {
            break;
        }
        total += n;
    }
    return buffer.subarray(0, total);
}

// ---- reading --------------------------------------------------------------------------------

export interface ConfigFileRead {
    readonly path: string;
    /** False when the file (or a folder on its way) does not exist. */
    readonly exists: boolean;
    /** '' when missing. A BOM is kept (sandy does not skip it). */
    readonly text: string;
    /** The bytes were not valid UTF-8; `text` then holds U+FFFD replacements and must not be written back. */
    readonly invalidUtf8: boolean;
    /** Permission bits of an existing file. */
    readonly mode?: number;
}

/**
 * Reads a config file as sandy would find it, within the path policy above; throws
 * {@link ConfigIoError} for a symlink, a non-regular file, a file over the cap, or an I/O error.
 * Synchronous on purpose: it reads at most 1 MiB + 1 of a regular file, cannot block on a FIFO
 * (O_NONBLOCK, and FIFOs are refused), and has no await between its checks and its read.
 */
export function readConfigFileSync(file: string, options: ConfigPathOptions = {}): ConfigFileRead {
    const resolved = resolvePath(file, options);
    const absent: ConfigFileRead = { path: file, exists: false, text: '', invalidUtf8: false };
    let bytes: Buffer;
    let mode: number;
    try {
        const folders = checkFolders(resolved);
        const stat = folders && lstatOrUndefined(resolved.file);
        if (!folders || !stat) {
            return absent;
        }
        if (stat.isSymbolicLink()) {
            throw symlinkError(resolved.file, 'file');
        }
        if (!stat.isFile()) {
            // Never opened: opening a device can have effects of its own.
            throw notRegularError(resolved.file, kindOf(stat));
        }
        if (stat.size > CONFIG_FILE_MAX_BYTES) {
            throw tooLargeError(resolved.file, stat.size);
        }
        let fd: number;
        try {
            fd = fs.openSync(resolved.file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
        } catch (e) {
            if (errnoOf(e) === 'ELOOP') {
                throw symlinkError(resolved.file, 'file');
            }
            if (errnoOf(e) === 'ENOENT') {
                return absent;
            }
            if (errnoOf(e) === 'ENXIO') {
                throw notRegularError(resolved.file, 'a socket');
            }
            throw e;
        }
        try {
            const opened = fs.fstatSync(fd);
            if (!opened.isFile()) {
                throw notRegularError(resolved.file, kindOf(opened));
            }
            if (opened.dev !== stat.dev || opened.ino !== stat.ino) {
                throw changedError(resolved.file);
            }
            checkOpenedPath(fd, resolved);
            bytes = readBounded(fd, opened.size, CONFIG_FILE_MAX_BYTES);
            mode = opened.mode & 0o7777;
        } finally {
            fs.closeSync(fd);
        }
        if (bytes.length > CONFIG_FILE_MAX_BYTES) {
            // It grew past the cap while being read.
            throw tooLargeError(resolved.file, undefined);
        }
        recheckFolders(resolved.file, folders);
    } catch (e) {
        throw e instanceof ConfigIoError ? e : ioError(resolved.file, 'read', e);
    }
    try {
        // ignoreBOM keeps a BOM in the text, so the document round-trips byte for byte.
        return { path: file, exists: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), invalidUtf8: false, mode };
    } catch {
        return { path: file, exists: true, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), invalidUtf8: true, mode };
    }
}

/** {@link readConfigFileSync} for async callers: the single reader of every config file. */
export async function readConfigFile(file: string, options: ConfigPathOptions = {}): Promise<ConfigFileRead> {
    return readConfigFileSync(file, options);
}

// ---- writing --------------------------------------------------------------------------------

/** Temp folders of writes in progress in this process (never swept). */
const inFlight = new Set<string>();

function pidAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (e) {
        return errnoOf(e) === 'EPERM';
    }
}

/**
 * Removes the temp folders interrupted writes (a SIGKILL, a power cut) left in `dirs`: everything
 * named `.sandy-ui-write-*` that is a real folder, except writes in progress (this process's, and
 * another live process's younger than ten minutes). A folder that is a symlink is not entered.
 * Returns the folders removed.
 */
export async function sweepInterruptedWrites(dirs: Iterable<string>): Promise<string[]> {
    const removed: string[] = [];
    for (const dir of new Set([...dirs].map(d => path.resolve(d)))) {
        let names: string[];
        try {
            if (!fs.lstatSync(dir).isDirectory()) {
                continue;
            }
            names = fs.readdirSync(dir).filter(n => n.startsWith(TEMP_DIR_PREFIX));
        } catch {
            continue;
        }
        for (const name of names) {
            const temp = path.join(dir, name);
            if (inFlight.has(temp)) {
                continue;
            }
            const stat = lstatOrUndefined(temp);
            if (!stat?.isDirectory()) {
                continue;
            }
            const pid = Number(new RegExp(`^${TEMP_DIR_PREFIX.replace(/[.]/g, '\\.')}(\\d+)-`).exec(name)?.[1]);
            if (pid && pid !== process.pid && pidAlive(pid) && Date.now() - stat.mtimeMs < STALE_TEMP_MS) {
                continue;
            }
            try {
                await fs.promises.rm(temp, { recursive: true, force: true });
                removed.push(temp);
            } catch {
                // Not ours to fight over; the next sweep tries again.
            }
        }
    }
    return removed;
}

/** Creates `file` (which must not exist) with `data`, refusing to follow a symlink. */
async function createExclusive(file: string, data: string, mode: number): Promise<void> {
    const handle = await fs.promises.open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    try {
        await handle.writeFile(data);
    } finally {
        await handle.close();
    }
}

/**
 * Replaces `file` with `data` atomically, within the path policy above (never through a symlink).
 * Not locked by itself: wrap in {@link withFileLock} when the content depends on what was read before
 * (as {@link saveConfigEdits} does).
 *
 * The temp file is `<dir>/.sandy-ui-write-<pid>-<random>/<basename>`: a temp folder holding a file with
 * the target's own name, because sandy's `.sandy/Dockerfile` approval hashes every file in `.sandy/`
 * except ones NAMED `config` or `.secrets` (sandy:7966-7975), so the content never shows up in that
 * hash. The folder also holds a `.gitignore` of `*`, written first, so git never lists the folder or
 * the key in it; that one file is in sandy's hash for the milliseconds of a save (or, after a crash,
 * until the next save or service start removes it; sandy then asks about the Dockerfile again, which
 * fails safe).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
    const resolved = resolvePath(file, options);
    const target = resolved.file;
    const dir = path.dirname(target);
    const secret = isSecretsFile(target);
    let tempDir: string | undefined;
    let result: AtomicWriteResult = {};
    try {
        const folders = checkFolders(resolved, { mode: options.dirMode ?? 0o700 })!;
        const existing = lstatOrUndefined(target);
        if (existing?.isSymbolicLink()) {
            throw symlinkError(target, 'file');
        }
        if (existing && !existing.isFile()) {
            throw notRegularError(target, kindOf(existing));
        }
        const oldMode = existing ? existing.mode & 0o7777 : undefined;
        // undefined: a new file gets 0644 minus the umask (never looser than the user's umask allows).
        const mode = secret ? 0o600 : oldMode ?? options.mode;
        if (secret && oldMode !== undefined && oldMode !== 0o600) {
            result = { modeFixed: { from: oldMode, to: 0o600 } };
        }
        await sweepInterruptedWrites([dir]);
        tempDir = path.join(dir, `${TEMP_DIR_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
        inFlight.add(tempDir);
        await fs.promises.mkdir(tempDir, { mode: 0o700 });
        // Made where it should be, not through a folder swapped for a symlink since the checks.
        if (fs.realpathSync(tempDir) !== path.join(path.dirname(resolved.canonical), path.basename(tempDir))) {
            throw changedError(target);
        }
        await createExclusive(path.join(tempDir, '.gitignore'), '*\n', 0o600);
        // The target's own name (see above), unless that is the ignore file itself.
        const temp = path.join(tempDir, path.basename(target) === '.gitignore' ? 'gitignore.new' : path.basename(target));
        const handle = await fs.promises.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o644);
        let written: fs.Stats;
        try {
            if (mode !== undefined) {
                // open()'s mode is filtered by the umask; chmod is not, so an existing 0640 stays 0640.
                await handle.chmod(mode);
            }
            await handle.writeFile(data);
            await handle.sync();
            written = await handle.stat();
        } finally {
            await handle.close();
        }
        // The last look before the rename: the folders are the ones checked, the target is no symlink
        // (rename would replace the link itself, but a link appearing now is an attack to report), and
        // the temp file is the one just written.
        recheckFolders(target, folders);
        const now = lstatOrUndefined(target);
        if (now?.isSymbolicLink()) {
            throw symlinkError(target, 'file');
        }
        if (now && !now.isFile()) {
            throw notRegularError(target, kindOf(now));
        }
        const tempNow = lstatOrUndefined(temp);
        if (!tempNow || tempNow.ino !== written.ino || tempNow.dev !== written.dev) {
            throw changedError(target);
        }
        await fs.promises.rename(temp, target);
    } catch (e) {
        throw e instanceof ConfigIoError ? e : ioError(target, 'write', e);
    } finally {
        if (tempDir) {
            await fs.promises.rm(tempDir, { recursive: true, force: true }).catch(() => undefined);
            inFlight.delete(tempDir);
        }
    }
    await syncDir(dir);
    return result;
}

/**
 * Sets an existing `.secrets` (a regular file, not a symlink, inside its root) to 0600 when it is
 * anything else. Returns what was fixed; a missing or refused file is left alone (its read says why).
 */
export function ensurePrivateMode(file: string, options: ConfigPathOptions = {}): AtomicWriteResult {
    try {
        const resolved = resolvePath(file, options);
        if (!checkFolders(resolved)) {
            return {};
        }
        const stat = lstatOrUndefined(resolved.file);
        if (!stat?.isFile() || (stat.mode & 0o7777) === 0o600) {
            return {};
        }
        const fd = fs.openSync(resolved.file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
        try {
            const opened = fs.fstatSync(fd);
            if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev) {
                return {};
            }
            checkOpenedPath(fd, resolved);
            fs.fchmodSync(fd, 0o600);
            return { modeFixed: { from: opened.mode & 0o7777, to: 0o600 } };
        } finally {
            fs.closeSync(fd);
        }
    } catch {
        return {};
    }
}

/** Makes the rename durable; not every platform can fsync a folder, and that is not worth failing a save. */
async function syncDir(dir: string): Promise<void> {
    try {
        const handle = await fs.promises.open(dir, 'r');
        try {
            await handle.sync();
        } finally {
            await handle.close();
        }
    } catch {
        // best effort
    }
}

// ---- config edits ---------------------------------------------------------------------------

export interface SaveConfigResult {
    /** False when every edit already matched the file (nothing was written). */
    readonly written: boolean;
    /** Keys whose lines changed. */
    readonly changedKeys: readonly string[];
    /** Keys that do not read back as intended after the write (someone else wrote in between, or a bug). */
    readonly mismatches: readonly { key: string; expected: string | undefined; actual: string | undefined }[];
    /** The file's mode was fixed (a `.secrets` that was not 0600). */
    readonly modeFixed?: AtomicWriteResult['modeFixed'];
}

/**
 * Applies `edits` to the config file at `file`: read (missing → empty), apply, write atomically,
 * read back and compare sandy's effective values with what was asked for. Serialised per file.
 * Throws {@link ConfigIoError} for refused, unreadable or non-UTF-8 files and `ConfigEditError` for
 * values sandy cannot represent (nothing is written then).
 */
export function saveConfigEdits(file: string, edits: readonly ConfigEdit[], options: AtomicWriteOptions = {}): Promise<SaveConfigResult> {
    return withFileLock(file, async () => {
        const before = readConfigFileSync(file, options);
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
        const { modeFixed } = await writeFileAtomic(file, serializeConfigFile(result.document), options);
        const after = readConfigFileSync(file, options);
        const actual = getEffectiveValues(parseConfigFile(after.text));
        const wanted = new Map(edits.map(e => [e.key, e.value] as const));
        const mismatches = [...wanted]
            .filter(([key, value]) => actual[key] !== value)
            .map(([key, expected]) => ({ key, expected, actual: actual[key] }));
        return { written: true, changedKeys: result.changedKeys, mismatches, ...(modeFixed ? { modeFixed } : {}) };
    });
}

/** Reads and parses a config file; a missing file is an empty document. */
export async function loadConfigDocument(file: string, options: ConfigPathOptions = {}): Promise<{ read: ConfigFileRead; document: ConfigDocument }> {
    const read = readConfigFileSync(file, options);
    return { read, document: parseConfigFile(read.text) };
}
