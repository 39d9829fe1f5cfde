import * as fs from 'fs';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;

/**
 * A small file the IDE keeps for itself in its data folder (`sessions.json`, the connection token),
 * read only if it is what the IDE wrote: a regular file, not a link, at most `maxBytes`; with
 * `ownerOnly`, of this user and readable by no one else. The checks are made on the descriptor that
 * is read, never on the name before opening it, so a file swapped in between (a link to someone
 * else's file, a FIFO that would hang the read, /dev/zero) is never read. Undefined: absent or refused.
 */
/** How every private file is opened: never through a link, never blocking on a FIFO, never a controlling terminal. */
export const PRIVATE_READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

export interface PrivateFileOptions {
    /** Of this user and readable by no one else. */
    ownerOnly?: boolean;
    /** Of this user (any mode). */
    sameUser?: boolean;
}

/** Whether what the descriptor is may be read as a private file (a regular file, of the user when asked). */
function acceptable(stat: fs.Stats, options: PrivateFileOptions): boolean {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!stat.isFile()) {
        return false;
    }
    if ((options.ownerOnly || options.sameUser) && uid !== undefined && stat.uid !== uid) {
        return false;
    }
    return !options.ownerOnly || (stat.mode & 0o077) === 0;
}

/** A private file opened for reading, checked on its descriptor ({@link readPrivateFile}'s rule); undefined: absent or refused. */
export async function openPrivateFile(file: string, options: PrivateFileOptions = {}): Promise<{ handle: fs.promises.FileHandle; stat: fs.Stats } | undefined> {
    let handle: fs.promises.FileHandle;
    try {
        handle = await fs.promises.open(file, PRIVATE_READ_FLAGS);
    } catch {
        return undefined;
    }
    try {
        const stat = await handle.stat();
        if (acceptable(stat, options)) {
            return { handle, stat };
        }
    } catch {
        // Refused below.
    }
    await handle.close().catch(() => undefined);
    return undefined;
}

/** {@link readPrivateFile} without blocking the event loop (the history's many records). */
export async function readPrivateFileAsync(file: string, maxBytes: number, options: PrivateFileOptions = {}): Promise<string | undefined> {
    const open = await openPrivateFile(file, options);
    if (!open) {
        return undefined;
    }
    try {
        if (open.stat.size > maxBytes) {
            return undefined;
        }
        // One byte more than allowed tells a file that grew meanwhile.
        const buffer = Buffer.alloc(maxBytes + 1);
        let length = 0;
        for (;;) {
            const { bytesRead } = await open.handle.read(buffer, length, buffer.length - length, length);
            if (bytesRead === 0) {
                break;
            }
            length += bytesRead;
            if (length > maxBytes) {
                return undefined;
            }
        }
        return buffer.subarray(0, length).toString('utf8');
    } catch {
        return undefined;
    } finally {
        await open.handle.close().catch(() => undefined);
    }
}

export function readPrivateFile(file: string, maxBytes: number, options: PrivateFileOptions = {}): string | undefined {
    let fd: number;
    try {
        fd = fs.openSync(file, PRIVATE_READ_FLAGS);
    } catch {
        return undefined;
    }
    try {
        const stat = fs.fstatSync(fd);
        if (!acceptable(stat, options) || stat.size > maxBytes) {
            return undefined;
        }
        // One byte more than allowed tells a file that grew meanwhile.
        const buffer = Buffer.alloc(maxBytes + 1);
        let length = 0;
        for (;;) {
            const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
            if (n === 0) {
                break;
            }
            length += n;
            if (length > maxBytes) {
                return undefined;
            }
        }
        return buffer.subarray(0, length).toString('utf8');
    } catch {
        return undefined;
    } finally {
        fs.closeSync(fd);
    }
}
