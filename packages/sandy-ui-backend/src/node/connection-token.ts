import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { BrowserConnectionToken } from '@theia/core/lib/node/hosting/browser-connection-token';
import { readPrivateFile } from '@sandy-ui/core/node';

/** The file in the IDE's data folder that keeps Theia's browser connection token across restarts. */
export const CONNECTION_TOKEN_FILE = 'browser-connection-token';

const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Theia's connection token (the `theia-connection-token` cookie that every WebSocket upgrade must
 * carry) is new in every backend process, so a page that was open when the backend crashed or was
 * killed never comes back online: its reconnects carry the old cookie and are refused until the
 * user reloads. Daemon sessions outlive the backend, and the page should too: the token is kept in
 * the IDE's data folder (a regular file of this user, mode 0600) and reused by the next backend.
 * Anything wrong with the file (missing, not ours, readable by others, not a token) gives a fresh
 * token written anew; when the folder cannot be written, the token only lives as long as the
 * process, as Theia's own.
 */
export function persistentConnectionToken(dataDir: string): BrowserConnectionToken {
    const file = path.join(dataDir, CONNECTION_TOKEN_FILE);
    const kept = readToken(file);
    if (kept) {
        return { value: kept };
    }
    const value = crypto.randomBytes(32).toString('hex');
    try {
        fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        // A fresh name, then a rename over the old one: never written through a link someone placed.
        const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
        fs.writeFileSync(tmp, value + '\n', { mode: 0o600, flag: 'wx' });
        fs.renameSync(tmp, file);
    } catch {
        // Not kept: this process's token only.
    }
    return { value };
}

function readToken(file: string): string | undefined {
    const value = readPrivateFile(file, 128, { ownerOnly: true })?.trim();
    return value !== undefined && TOKEN_PATTERN.test(value) ? value : undefined;
}
