import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { SessionRecordsView } from '../../common/session/session-discovery';
import { readPrivateFile } from '../host/private-file';

/**
 * What this IDE started, kept on disk so the next IDE process knows its own sessions from a shell's:
 * the container of each daemon session (a restarted IDE attaches to its own again at once, and shows
 * a shell's as "started outside the IDE"), and the pid of each foreground sandy (one still holding
 * its lock after the IDE died is an orphan the user may stop). Small, written whole on each change
 * (temp file + rename); a missing or unreadable file is an empty memory, never an error.
 */
const MAX_RECORDS_BYTES = 1024 * 1024;

export class SessionRecords implements SessionRecordsView {
    daemons: Record<string, string> = {};
    foreground: Record<string, { pid: number; start?: string }> = {};

    constructor(readonly file: string) {
        try {
            // Only a small regular file: never a link, a FIFO (it would hang the start) or a device.
            const text = readPrivateFile(file, MAX_RECORDS_BYTES);
            if (text === undefined) {
                return;
            }
            const raw = JSON.parse(text) as Partial<SessionRecordsView>;
            this.daemons = pick(raw.daemons, v => typeof v === 'string' && /^[0-9a-z]{12}$/.test(v)) as Record<string, string>;
            this.foreground = pick(raw.foreground, v => !!v && typeof v === 'object' && Number.isSafeInteger((v as { pid: unknown }).pid)
                && (v as { pid: number }).pid > 1 && typeof (v as { start: unknown }).start === 'string') as Record<string, { pid: number; start: string }>;
        } catch {
            // None yet, or unreadable: nothing remembered.
        }
    }

    remember(workspace: string, started: { containerId: string } | { pid: number; start?: string }): void {
        if ('containerId' in started) {
            this.daemons[workspace] = started.containerId;
        } else {
            this.foreground[workspace] = { pid: started.pid, start: started.start };
        }
        this.save();
    }

    forget(workspace: string, mode: 'daemon' | 'foreground'): void {
        const table = mode === 'daemon' ? this.daemons : this.foreground;
        if (workspace in table) {
            delete table[workspace];
            this.save();
        }
    }

    protected save(): void {
        try {
            fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
            // A fresh name created here ('wx' never follows a link planted at it), then renamed over the file.
            const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
            fs.writeFileSync(tmp, JSON.stringify({ version: 1, daemons: this.daemons, foreground: this.foreground }), { mode: 0o600, flag: 'wx' });
            fs.renameSync(tmp, this.file);
        } catch {
            // A read-only data folder: the memory lasts as long as this process.
        }
    }
}

function pick(value: unknown, valid: (v: unknown) => boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
            if (k.startsWith('/') && valid(v)) {
                out[k] = v;
            }
        }
    }
    return out;
}
