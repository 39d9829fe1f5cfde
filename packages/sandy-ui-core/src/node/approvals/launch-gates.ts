/**
 * Node side of sandy's launch gates: the `.sandy/Dockerfile` build-context hash and the symlinks
 * that escape the workspace, computed the way sandy 1.7.1 computes them (sandy:7966-8048 and
 * 9089-9202; CONTRACT §4.2-4.3), so the approval view shows what sandy will ask and the sandy tab
 * can check, at sandy's prompt, that the files still are what the user approved.
 */
import { createHash } from 'crypto';
import { constants as fsConstants, promises as fs } from 'fs';
import * as path from 'path';
import { SandyError } from '../../common/sandy/errors';
import { CONTROL_CHARS, DockerfileGate, dockerfileShownLines, SymlinkGate } from '../../common/approvals/launch-gates';
import { readConfigFile } from '../config/config-io';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';
/** sandy's `find -maxdepth 8`. */
const SYMLINK_MAX_DEPTH = 8;
/** A walk bigger than this is abandoned (sandy then asks on the terminal and the user answers there). */
const MAX_WALK_ENTRIES = 200_000;

function sha256(data: string | Uint8Array): string {
    return createHash('sha256').update(data).digest('hex');
}

function compareBytes(a: string, b: string): number {
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function refuse(message: string, hint: string): SandyError {
    return new SandyError('usage', message, hint);
}

/**
 * Every regular file under `dir` (no symlinks followed, as `find -P -type f`), byte-sorted full paths.
 * A name that is not UTF-8 or holds a control character is refused: sandy reads `find`'s output line
 * by line, so its hash of such a context is not the one computed here, and the tab could not check it.
 */
async function regularFilesUnder(dir: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (d: string): Promise<void> => {
        for (const entry of await fs.readdir(d, { withFileTypes: true, encoding: 'buffer' })) {
            const name = entry.name.toString('utf8');
            if (!Buffer.from(name, 'utf8').equals(entry.name) || CONTROL_CHARS.test(name)) {
                throw refuse(`A file name in ${dir} is not plain text: ${JSON.stringify(`${d.slice(dir.length + 1)}${d === dir ? '' : '/'}${name}`)}.`,
                    'Rename or delete it (.sandy/ is the Dockerfile\'s build context), then launch again.');
            }
            const full = `${d}/${name}`;
            if (entry.isDirectory()) {
                await walk(full);
            } else if (entry.isFile()) {
                out.push(full);
            }
        }
    };
    await walk(dir);
    return out.sort(compareBytes);
}

/** sha256 of a file's bytes, read through a no-follow descriptor that must be a regular file. */
async function hashFile(file: string): Promise<string> {
    const handle = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
    try {
        const stat = await handle.stat();
        if (!stat.isFile()) {
            throw refuse(`${file} is not a regular file.`, 'Remove it from .sandy/ (it is part of the Dockerfile build context).');
        }
        const hash = createHash('sha256');
        const chunk = Buffer.alloc(64 * 1024);
        for (;;) {
            const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
            if (!bytesRead) {
                break;
            }
            hash.update(chunk.subarray(0, bytesRead));
        }
        return hash.digest('hex');
    } finally {
        await handle.close();
    }
}

/**
 * `_sandy_context_hash "$WORK_DIR/.sandy"`: for each regular file except those named `config` or
 * `.secrets`, in byte order, `<sha256>  <relative path>\n`; then the sha256 of all of it.
 */
export async function sandyContextHash(sandyDir: string): Promise<{ hash: string; files: string[]; unhashed: string[] }> {
    const all = await regularFilesUnder(sandyDir);
    const skipped = (f: string) => ['config', '.secrets'].includes(path.posix.basename(f));
    const files = all.filter(f => !skipped(f));
    // sandy skips these names at ANY depth, though Docker still sends them in the build context.
    const unhashed = all.filter(f => skipped(f) && path.posix.dirname(f) !== sandyDir).map(f => f.slice(sandyDir.length + 1));
    let acc = '';
    for (const f of files) {
        acc += `${await hashFile(f)}  ${f.slice(sandyDir.length + 1)}\n`;
    }
    return { hash: sha256(acc), files: files.map(f => f.slice(sandyDir.length + 1)), unhashed };
}

/** `$SANDY_HOME/approvals/dockerfile-<sha256(WORK_DIR)[0:16]>.list`. */
export function dockerfileApprovalPath(sandyHome: string, workspace: string): string {
    return `${sandyHome}/approvals/dockerfile-${sha256(workspace).slice(0, 16)}.list`;
}

/** A file of sandy's under `$SANDY_HOME`, through the one bounded reader; undefined when absent or refused (a symlink, an oversized file). */
export async function readSandyRecord(file: string, sandyHome: string): Promise<string | undefined> {
    try {
        const read = await readConfigFile(file, { root: sandyHome });
        return read.exists ? read.text : undefined;
    } catch {
        // Not a plain file: as good as no record, so the gate is shown again.
        return undefined;
    }
}

/**
 * The Dockerfile gate sandy will raise for `workspace` (canonical), or undefined when it will not ask
 * (no Dockerfile, or its build context is approved unchanged). A Dockerfile that is not a plain file
 * inside a plain `.sandy/` folder is refused: the IDE shows the user exactly what sandy builds, and a
 * symlink or device would make that uncertain.
 */
export async function dockerfileGate(workspace: string, sandyHome: string, previousText?: string): Promise<DockerfileGate | undefined> {
    const sandyDir = `${workspace}/.sandy`;
    const file = `${sandyDir}/Dockerfile`;
    // config-io's reader: a symlinked .sandy or Dockerfile, a device or an oversized file is refused
    // with its message, so what the view shows is what sandy builds.
    const read = await readConfigFile(file, { root: sandyDir });
    if (!read.exists) {
        return undefined;
    }
    const text = read.text;
    const { hash, files, unhashed } = await sandyContextHash(sandyDir);
    const approvalFilePath = dockerfileApprovalPath(sandyHome, workspace);
    const approvedHash = (await readSandyRecord(approvalFilePath, sandyHome))?.split('\n')[0];
    if (approvedHash === hash) {
        return undefined;
    }
    const shown = dockerfileShownLines(text);
    return {
        path: file,
        text,
        shownLines: shown.lines,
        truncated: shown.truncated,
        contextFiles: files.filter(f => path.posix.basename(f) !== 'Dockerfile'),
        unhashedFiles: unhashed,
        hash,
        approvalFilePath,
        approvedHash,
        previousText: previousText !== undefined && previousText !== text ? previousText : undefined
    };
}

/** `<sandbox>/.sandy-approved-symlinks.list` of a (canonical) workspace. */
export function symlinkApprovalPath(sandyHome: string, workspace: string): string {
    return `${sandyHome}/sandboxes/${sandboxNameForWorkspace(workspace)}/.sandy-approved-symlinks.list`;
}

/** GNU `readlink -f`: every component resolved; only the last may be missing. */
async function readlinkF(link: string): Promise<string | undefined> {
    try {
        return await fs.realpath(link);
    } catch {
        try {
            const raw = await fs.readlink(link);
            const abs = path.resolve(path.dirname(link), raw);
            return path.join(await fs.realpath(path.dirname(abs)), path.basename(abs));
        } catch {
            return undefined;
        }
    }
}

/** `find "$WORK_DIR" -maxdepth 8 -type l -not -path '*\/node_modules/*' -not -path '*\/.venv*\/*' -not -path '*\/.git/*'`. */
function excludedByFind(fullPath: string): boolean {
    return fullPath.includes('/node_modules/') || /\/\.venv.*\//.test(fullPath) || fullPath.includes('/.git/');
}

/**
 * The symlinks sandy will warn about (target outside the canonical workspace by string prefix, as
 * sandy compares, and under `$HOME/`), as `link -> target` lines sorted like sandy's list. Throws a
 * refusal where sandy itself would fail the launch (a new link after an earlier approval), or where a
 * link's name or target carries control characters (they would forge lines in sandy's prompt).
 */
export async function symlinkGate(workspace: string, home: string, sandyHome: string): Promise<SymlinkGate | undefined> {
    const entries: string[] = [];
    let visited = 0;
    const walk = async (dir: string, depth: number): Promise<void> => {
        let list;
        try {
            // Names as bytes: sandy's find sees every name, so a name that is not UTF-8 must not vanish here.
            list = await fs.readdir(dir, { withFileTypes: true, encoding: 'buffer' });
        } catch (e) {
            if (dir === workspace) {
                throw refuse(`The workspace ${workspace} cannot be listed (${(e as NodeJS.ErrnoException).code ?? 'error'}).`,
                    'Check its permissions, then launch again.');
            }
            throw refuse(`A folder in the workspace cannot be listed: ${JSON.stringify(dir.slice(workspace.length + 1))}.`,
                'sandy would still look inside it for symlinks; fix its permissions (or remove it), then launch again.');
        }
        for (const entry of list) {
            if (++visited > MAX_WALK_ENTRIES) {
                throw new Error('walk too large');
            }
            const name = entry.name.toString('utf8');
            if (!Buffer.from(name, 'utf8').equals(entry.name)) {
                throw refuse(`A name in the workspace is not valid UTF-8 (in ${JSON.stringify(dir.slice(workspace.length + 1) || '.')}: ${JSON.stringify(name)}).`,
                    'Rename it: the IDE could not show sandy\'s symlink check for it faithfully.');
            }
            const full = `${dir}/${name}`;
            if (entry.isSymbolicLink()) {
                if (excludedByFind(full)) {
                    continue;
                }
                const target = await readlinkF(full);
                if (!target || target.startsWith(workspace) || !target.startsWith(`${home}/`)) {
                    continue;
                }
                const rel = full.slice(workspace.length + 1);
                // sandy prints each entry with `echo -e`: a backslash would become a newline, an escape or `\c`.
                if (CONTROL_CHARS.test(rel) || CONTROL_CHARS.test(target) || rel.includes('\\') || target.includes('\\')) {
                    throw refuse(`A symlink in the workspace has control characters or backslashes in its name or target (${JSON.stringify(rel)}).`,
                        'Rename or delete it, then launch again: sandy would print it as part of its own prompt.');
                }
                entries.push(`${rel} -> ${target}`);
            } else if (entry.isDirectory() && depth < SYMLINK_MAX_DEPTH && !excludedByFind(`${full}/`)) {
                await walk(full, depth + 1);
            }
        }
    };
    try {
        await walk(workspace, 1);
    } catch (e) {
        if (e instanceof SandyError) {
            throw e;
        }
        // Too big to check here: sandy still asks on the terminal, and the user answers there.
        return undefined;
    }
    if (!entries.length) {
        return undefined;
    }
    const unique = [...new Set(entries)].sort(compareBytes);
    const approvedListPath = symlinkApprovalPath(sandyHome, workspace);
    const approvedText = await readSandyRecord(approvedListPath, sandyHome);
    if (approvedText !== undefined) {
        const approved = new Set(approvedText.split('\n').filter(Boolean));
        const added = unique.filter(e => !approved.has(e));
        if (added.length) {
            throw refuse(`sandy will refuse this launch: a symlink escaping the workspace appeared since you approved the others: ${added.join('; ')}.`,
                `Delete the symlink, or clear sandy's approved list (rm '${approvedListPath}') and launch again to review them all.`);
        }
        return undefined;
    }
    return { entries: unique, approvedListPath };
}
