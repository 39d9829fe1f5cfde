import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { StringDecoder } from 'string_decoder';
import {
    compareHistory, historyMatches, historyNamePart, HistoryChunk, HistoryQuery, HistoryRecord, isHistoryId, localDateStamp,
    MAX_HISTORY_LIST, MAX_HISTORY_QUERY_TEXT, parseHistoryRecord
} from '../../common/session/history-types';
import { TranscriptFilter } from '../../common/session/transcript-filter';
import { openPrivateFile, readPrivateFileAsync } from '../host/private-file';

/**
 * Session history (issue 11): every session's raw output kept on the host, in `dir` only
 * (`<dataDir>/history`, 0700) — never in a workspace or a sandbox.
 *
 * Files of a session `<id>` (`YYYY-MM-DD-<sandbox>`, `-2`, `-3`… for later sessions of that sandbox that day):
 * - `<id>.json`: its `HistoryRecord`, written whole (temp file + rename, 0600) at the start, at most
 *   every `recordIntervalMs` while output comes, when truncation begins, and at the end.
 * - `<id>.log` and `<id>.log.1`: the output, raw, in two segments. **Rolling truncation**: the current
 *   segment `<id>.log` takes at most `capBytes / 2`; when full it is renamed to `<id>.log.1` (replacing
 *   the older one, whose bytes are then gone: `truncated: true`) and a fresh `<id>.log` begins. The log
 *   is `<id>.log.1` followed by `<id>.log`: always the most recent output, between `capBytes / 2` and
 *   `capBytes` of it once truncated, and never more than `capBytes` (writes are split at the segment edge).
 *
 * Writing never blocks the event loop: `write` queues and returns; one asynchronous write at a time
 * drains the queue in batches. If the disk falls behind by more than `maxPendingBytes`, new output is
 * dropped (counted in `dropped`) and a marker line stands in the log where it was — memory stays bounded.
 *
 * Reading trusts nothing in `dir`: only names matching `HISTORY_ID_PATTERN` are opened, with
 * O_NOFOLLOW|O_NONBLOCK, checked on the descriptor to be regular files (a planted link, FIFO or device
 * is never read), and read in bounded pieces.
 */

export interface SessionHistoryOptions {
    /** Largest log kept per session (default 50 MiB). */
    capBytes?: number;
    /** Epoch milliseconds (default `Date.now`). */
    clock?: () => number;
    /** Output waiting for the disk beyond which new output is dropped (default 8 MiB, at least 64 KiB). */
    maxPendingBytes?: number;
    /** Least time between two rewrites of a running session's record (default 2000 ms). */
    recordIntervalMs?: number;
}

export interface HistoryBeginMeta {
    workspace: string;
    project: string;
    sandbox: string;
    agent?: string;
    model?: string;
    mode: 'daemon' | 'foreground' | 'headless';
    startedAt: number;
}

export interface HistoryEndInfo {
    endedAt: number;
    exitCode?: number;
    signal?: number;
    endReason?: string;
}

export const DEFAULT_HISTORY_CAP = 50 * 1024 * 1024;
/** Largest page `read` returns, and its default. */
export const MAX_HISTORY_READ = 1024 * 1024;
/** Largest record file read back. */
export const MAX_HISTORY_RECORD_BYTES = 64 * 1024;
/** Record files looked at per `list` (the newest names first). */
export const MAX_HISTORY_SCANNED = 5000;

const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW } = fs.constants;
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW;
const BATCH_BYTES = 256 * 1024;
const SEARCH_CHUNK = 1024 * 1024;
/** A page that opens with a control string is skipped to the string's end if it is within this; else to here. */
const SCAN_AHEAD_BYTES = 16 * 1024 * 1024;
const MARKER_COST = 64;

type Pending = Buffer | { dropped: number };

export class SessionHistory {
    readonly capBytes: number;
    protected readonly clock: () => number;
    protected readonly maxPendingBytes: number;
    protected readonly recordIntervalMs: number;
    protected readonly live = new Map<string, HistoryRecorder>();

    constructor(readonly dir: string, options: SessionHistoryOptions = {}) {
        this.capBytes = Math.max(2, Math.floor(options.capBytes ?? DEFAULT_HISTORY_CAP));
        this.clock = options.clock ?? Date.now;
        this.maxPendingBytes = Math.max(64 * 1024, Math.floor(options.maxPendingBytes ?? 8 * 1024 * 1024));
        this.recordIntervalMs = Math.max(0, options.recordIntervalMs ?? 2000);
    }

    /**
     * Starts recording a session. Never throws: if nothing can be written (the folder refused, no
     * free name), the recorder is inactive and every call on it does nothing.
     */
    begin(meta: HistoryBeginMeta): HistoryRecorder {
        const startedAt = Number.isFinite(meta.startedAt) ? meta.startedAt : this.clock();
        const base = `${localDateStamp(startedAt)}-${historyNamePart(meta.sandbox)}`;
        const record: HistoryRecord = {
            id: base,
            workspace: bounded(meta.workspace, 4096),
            project: bounded(meta.project, 1024),
            sandbox: bounded(meta.sandbox, 1024),
            mode: meta.mode === 'foreground' || meta.mode === 'headless' ? meta.mode : 'daemon',
            startedAt,
            bytes: 0,
            truncated: false
        };
        if (meta.agent !== undefined) {
            record.agent = bounded(meta.agent, 1024);
        }
        if (meta.model !== undefined) {
            record.model = bounded(meta.model, 1024);
        }
        let fd: number | undefined;
        if (this.ensureDir()) {
            for (let n = 1; n <= 9999 && fd === undefined; n++) {
                const id = n === 1 ? base : `${base}-${n}`;
                if (!isHistoryId(id) || this.live.has(id) || exists(this.file(id, '.json')) || exists(this.file(id, '.log.1'))) {
                    continue;
                }
                try {
                    // O_EXCL claims the name (two sessions the same day cannot share it) and never follows a link.
                    fd = fs.openSync(this.file(id, '.log'), CREATE_FLAGS, 0o600);
                    record.id = id;
                } catch (e) {
                    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
                        break;
                    }
                }
            }
        }
        const recorder = new HistoryRecorder(this, record, fd, { segmentBytes: Math.max(1, Math.floor(this.capBytes / 2)),
            maxPendingBytes: this.maxPendingBytes, recordIntervalMs: this.recordIntervalMs });
        if (fd !== undefined) {
            this.live.set(record.id, recorder);
            this.saveRecordSync(record);
        }
        return recorder;
    }

    /** Past and running sessions, newest first, filtered by `query`; unreadable records are skipped. */
    async list(query: HistoryQuery = {}): Promise<HistoryRecord[]> {
        const limit = Math.max(1, Math.min(MAX_HISTORY_LIST, Math.floor(Number(query.limit) || MAX_HISTORY_LIST)));
        let names: string[];
        try {
            names = await fs.promises.readdir(this.dir);
        } catch {
            return [];
        }
        const ids = names.filter(n => n.endsWith('.json')).map(n => n.slice(0, -5)).filter(isHistoryId)
            .sort().reverse().slice(0, MAX_HISTORY_SCANNED);
        const records: HistoryRecord[] = [];
        for (const id of ids) {
            const record = await this.record(id);
            if (record && historyMatches(record, query)) {
                records.push(record);
            }
        }
        records.sort(compareHistory);
        const needle = typeof query.text === 'string'
            ? new TranscriptFilter('plain').push(query.text.slice(0, MAX_HISTORY_QUERY_TEXT)).toLowerCase() : '';
        if (needle === '') {
            return records.slice(0, limit);
        }
        const found: HistoryRecord[] = [];
        for (const record of records) {
            if (found.length >= limit) {
                break;
            }
            if (await this.logContains(record.id, needle)) {
                found.push(record);
            }
        }
        return found;
    }

    /**
     * A page of a session's output for the read-only viewer: at most `maxChars` bytes of the log from
     * byte `offset` (default 0; `maxChars` default and ceiling `MAX_HISTORY_READ`), as display text
     * (`displayTranscript`: no OSC/DCS/APC/PM/SOS, BEL or C1; CSI kept). Pages end on a character
     * boundary and before a control string that does not end within them, so each page is filtered
     * whole; a page may be empty (a long control string skipped) — keep reading while `nextOffset`
     * is set. Undefined: not a history id, or no record.
     */
    async read(id: string, offset = 0, maxChars = MAX_HISTORY_READ): Promise<HistoryChunk | undefined> {
        if (!isHistoryId(id)) {
            return undefined;
        }
        const record = await this.record(id);
        if (!record) {
            return undefined;
        }
        const max = Math.max(16, Math.min(MAX_HISTORY_READ, Math.floor(Number(maxChars)) || MAX_HISTORY_READ));
        const start = Math.max(0, Math.floor(Number(offset)) || 0);
        const log = await this.openLog(id);
        try {
            const size = log.size;
            if (start >= size) {
                return { record, text: '', offset: Math.min(start, size), size };
            }
            const end = Math.min(size, start + max);
            let bytes = await log.read(start, end - start);
            let cut = end === size ? bytes.length : utf8Boundary(bytes);
            if (cut === 0) {
                cut = bytes.length;
            }
            bytes = bytes.subarray(0, cut);
            const raw = bytes.toString('utf8');
            const filter = new TranscriptFilter('display');
            const text = filter.push(raw);
            const pageEnd = start + cut;
            if (!filter.holding) {
                return { record, text, offset: start, nextOffset: pageEnd < size ? pageEnd : undefined, size };
            }
            const held = filter.pendingStart;
            if (held > 0) {
                // A control string (or ESC) starts in this page and does not end in it: the page ends before it.
                const at = start + byteOffsetOf(raw, bytes, held, false);
                return { record, text, offset: start, nextOffset: Math.max(at, start + 1), size };
            }
            // The page is one unfinished control string: skip to where it ends (bounded), showing nothing.
            let pos = pageEnd;
            while (pos < size && pos - pageEnd < SCAN_AHEAD_BYTES) {
                const next = Math.min(size, pos + SEARCH_CHUNK);
                let more = await log.read(pos, next - pos);
                let moreCut = next === size ? more.length : utf8Boundary(more);
                if (moreCut === 0) {
                    moreCut = more.length;
                }
                more = more.subarray(0, moreCut);
                const moreText = more.toString('utf8');
                filter.push(moreText);
                const release = filter.firstRelease;
                if (release) {
                    const at = release.at < 0 ? pos - 1 : pos + byteOffsetOf(moreText, more, release.at, release.after);
                    return { record, text, offset: start, nextOffset: Math.max(at, start + 1), size };
                }
                pos += moreCut;
            }
            return { record, text, offset: start, nextOffset: pos < size ? pos : undefined, size };
        } finally {
            await log.close();
        }
    }

    /** Deletes a finished session's files (a running one's are kept). False: not a history id, running, or nothing there. */
    async remove(id: string): Promise<boolean> {
        if (!isHistoryId(id) || this.live.has(id)) {
            return false;
        }
        let removed = false;
        for (const ext of ['.log', '.log.1', '.json'] as const) {
            // unlink removes a planted link itself, never what it points at.
            removed = await fs.promises.unlink(this.file(id, ext)).then(() => true, () => false) || removed;
        }
        return removed;
    }

    // --------------------------------------------------------------------------------------------
    // for the recorder

    /** @internal */
    file(id: string, ext: '.json' | '.log' | '.log.1'): string {
        return path.join(this.dir, id + ext);
    }

    /** @internal */
    ended(id: string, recorder: HistoryRecorder): void {
        if (this.live.get(id) === recorder) {
            this.live.delete(id);
        }
    }

    /** @internal */
    now(): number {
        return this.clock();
    }

    /** @internal Writes the record whole: a fresh temp name (`wx`, never a link), then renamed over it. */
    async saveRecord(record: HistoryRecord): Promise<void> {
        const tmp = this.tempName(record.id);
        try {
            await fs.promises.writeFile(tmp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
            await fs.promises.rename(tmp, this.file(record.id, '.json'));
        } catch {
            await fs.promises.unlink(tmp).catch(() => undefined);
        }
    }

    protected saveRecordSync(record: HistoryRecord): void {
        const tmp = this.tempName(record.id);
        try {
            fs.writeFileSync(tmp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
            fs.renameSync(tmp, this.file(record.id, '.json'));
        } catch {
            try {
                fs.unlinkSync(tmp);
            } catch {
                // never created
            }
        }
    }

    protected tempName(id: string): string {
        // A leading dot and the .tmp end: no temp file is ever taken for a record.
        return path.join(this.dir, `.${id}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    }

    /** The folder exists (made 0700), is a real directory (not a link) and is ours. */
    protected ensureDir(): boolean {
        try {
            fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
            const stat = fs.lstatSync(this.dir);
            return stat.isDirectory() && (typeof process.getuid !== 'function' || stat.uid === process.getuid());
        } catch {
            return false;
        }
    }

    protected async record(id: string): Promise<HistoryRecord | undefined> {
        const live = this.live.get(id);
        if (live) {
            return live.record;
        }
        const text = await readPrivateFileAsync(this.file(id, '.json'), MAX_HISTORY_RECORD_BYTES, { sameUser: true });
        if (text === undefined) {
            return undefined;
        }
        try {
            const record = parseHistoryRecord(JSON.parse(text));
            return record && record.id === id ? record : undefined;
        } catch {
            return undefined;
        }
    }

    protected async openLog(id: string): Promise<LogReader> {
        for (let attempt = 0; ; attempt++) {
            // Current segment first: a rotation in between shows as both being one file; then again.
            const current = await openPrivateFile(this.file(id, '.log'), { sameUser: true });
            const older = await openPrivateFile(this.file(id, '.log.1'), { sameUser: true });
            if (current && older && current.stat.ino === older.stat.ino && current.stat.dev === older.stat.dev && attempt < 3) {
                await current.handle.close();
                await older.handle.close();
                continue;
            }
            return new LogReader([older, current].filter((s): s is OpenFile => !!s), this.capBytes);
        }
    }

    protected async logContains(id: string, needle: string): Promise<boolean> {
        const log = await this.openLog(id);
        try {
            const decoder = new StringDecoder('utf8');
            const filter = new TranscriptFilter('plain');
            let carry = '';
            for (let pos = 0; pos < log.size; pos += SEARCH_CHUNK) {
                const bytes = await log.read(pos, Math.min(SEARCH_CHUNK, log.size - pos));
                if (bytes.length === 0) {
                    break;
                }
                const hay = carry + filter.push(decoder.write(bytes)).toLowerCase();
                if (hay.includes(needle)) {
                    return true;
                }
                carry = hay.slice(Math.max(0, hay.length - needle.length + 1));
            }
            return (carry + filter.push(decoder.end()).toLowerCase()).includes(needle);
        } finally {
            await log.close();
        }
    }
}

/** What records one session's output; from `SessionHistory.begin`. */
export class HistoryRecorder {
    protected current: HistoryRecord;
    protected queue: Pending[] = [];
    protected queued = 0;
    protected pumping = false;
    protected segmentSize = 0;
    protected rotations = 0;
    protected closing: Promise<void> | undefined;
    protected stopped = false;
    protected readonly recording: boolean;
    protected idleWaiters: Array<() => void> = [];
    protected recordTimer: ReturnType<typeof setTimeout> | undefined;
    protected lastSaved = 0;
    protected saving: Promise<void> = Promise.resolve();
    /** Most bytes ever waiting for the disk at once (for the memory bound's test). */
    peakPending = 0;

    /** @internal */
    constructor(protected readonly history: SessionHistory, record: HistoryRecord, protected fd: number | undefined,
        protected readonly limits: { segmentBytes: number; maxPendingBytes: number; recordIntervalMs: number }) {
        this.current = record;
        this.recording = fd !== undefined;
        this.lastSaved = history.now();
    }

    get id(): string {
        return this.current.id;
    }

    /** False when nothing could be opened: the session is not recorded. */
    get active(): boolean {
        return this.recording && !this.stopped;
    }

    /** A copy of the record as it stands. */
    get record(): HistoryRecord {
        return { ...this.current };
    }

    /** Bytes waiting for the disk. */
    get pendingBytes(): number {
        return this.queued;
    }

    /** Appends raw output (queued; written asynchronously). */
    write(data: string): void {
        if (!this.active || this.closing || typeof data !== 'string' || data.length === 0) {
            return;
        }
        const length = Buffer.byteLength(data, 'utf8');
        // Room is kept for the marker a drop adds, so the queue never holds more than the bound.
        if (this.queued + length > this.limits.maxPendingBytes - MARKER_COST) {
            // The disk is behind: this output is not kept (counted, and marked in the log), nothing grows.
            this.drop(length);
            return;
        }
        const buffer = Buffer.from(data, 'utf8');
        this.queue.push(buffer);
        this.queued += buffer.length;
        this.peakPending = Math.max(this.peakPending, this.queued);
        this.kick();
    }

    /** Resolves once everything written so far is on disk (or dropped). */
    flushed(): Promise<void> {
        if (!this.pumping && this.queue.length === 0) {
            return Promise.resolve();
        }
        return new Promise(resolve => this.idleWaiters.push(resolve));
    }

    /** Ends the session's record (end time, exit code…), writes out what is queued, closes the log. */
    end(info: HistoryEndInfo): Promise<void> {
        if (!this.closing && this.recording) {
            this.current.endedAt = Number.isFinite(info.endedAt) ? info.endedAt : this.history.now();
            if (info.exitCode !== undefined && Number.isFinite(info.exitCode)) {
                this.current.exitCode = info.exitCode;
            }
            if (info.signal !== undefined && Number.isFinite(info.signal)) {
                this.current.signal = info.signal;
            }
            if (typeof info.endReason === 'string') {
                this.current.endReason = bounded(info.endReason, 1024);
            }
        }
        return this.dispose();
    }

    /** Stops recording without ending the record (the IDE going away): what is queued is still written. */
    dispose(): Promise<void> {
        if (!this.closing) {
            this.closing = this.close();
        }
        return this.closing;
    }

    protected async close(): Promise<void> {
        if (!this.recording) {
            return;
        }
        await this.flushed();
        this.stopped = true;
        if (this.recordTimer) {
            clearTimeout(this.recordTimer);
            this.recordTimer = undefined;
        }
        const fd = this.fd;
        this.fd = undefined;
        if (fd !== undefined) {
            await new Promise<void>(resolve => fs.close(fd, () => resolve()));
        }
        await this.save();
        this.history.ended(this.current.id, this);
    }

    protected drop(length: number): void {
        this.current.dropped = (this.current.dropped ?? 0) + length;
        const last = this.queue[this.queue.length - 1];
        if (last && !Buffer.isBuffer(last)) {
            last.dropped += length;
        } else {
            this.queue.push({ dropped: length });
            this.queued += MARKER_COST;
            this.peakPending = Math.max(this.peakPending, this.queued);
            this.kick();
        }
    }

    protected kick(): void {
        if (!this.pumping) {
            this.pumping = true;
            setImmediate(() => void this.pump());
        }
    }

    protected async pump(): Promise<void> {
        try {
            while (this.queue.length > 0 && !this.stopped) {
                const parts: Buffer[] = [];
                let length = 0;
                while (this.queue.length > 0 && length < BATCH_BYTES) {
                    const next = this.queue.shift()!;
                    const part = Buffer.isBuffer(next) ? next
                        : Buffer.from(`\r\n[sandy-ui: ${next.dropped} bytes of output not recorded: the disk did not keep up]\r\n`);
                    this.queued -= Buffer.isBuffer(next) ? next.length : MARKER_COST;
                    parts.push(part);
                    length += part.length;
                }
                let batch = parts.length === 1 ? parts[0] : Buffer.concat(parts, length);
                const cap = this.limits.segmentBytes * 2;
                if (batch.length > cap) {
                    // More than the whole log keeps: only its end would survive the rotations.
                    this.current.bytes += batch.length - cap;
                    batch = batch.subarray(batch.length - cap);
                    this.markTruncated();
                }
                while (batch.length > 0 && !this.stopped) {
                    if (this.segmentSize >= this.limits.segmentBytes) {
                        await this.rotate();
                        continue;
                    }
                    if (this.fd === undefined) {
                        throw new Error('log not open');
                    }
                    const part = batch.subarray(0, this.limits.segmentBytes - this.segmentSize);
                    await writeAll(this.fd, part);
                    this.segmentSize += part.length;
                    this.current.bytes += part.length;
                    batch = batch.subarray(part.length);
                }
                this.scheduleSave();
            }
        } catch {
            // The disk refused (full, gone): recording stops here; the record says what was lost.
            this.stopped = true;
            let lost = 0;
            for (const p of this.queue) {
                lost += Buffer.isBuffer(p) ? p.length : 0;
            }
            this.current.dropped = (this.current.dropped ?? 0) + lost;
            this.queue = [];
            this.queued = 0;
            this.scheduleSave(true);
        } finally {
            this.pumping = false;
            if (this.queue.length > 0 && !this.stopped) {
                this.kick();
            } else {
                const waiters = this.idleWaiters;
                this.idleWaiters = [];
                waiters.forEach(w => w());
            }
        }
    }

    /** `<id>.log` becomes `<id>.log.1` (the older one's bytes go) and a fresh `<id>.log` begins. */
    protected async rotate(): Promise<void> {
        const fd = this.fd!;
        this.fd = undefined;
        await new Promise<void>(resolve => fs.close(fd, () => resolve()));
        const log = this.history.file(this.current.id, '.log');
        await fs.promises.rename(log, this.history.file(this.current.id, '.log.1'));
        this.rotations++;
        if (this.rotations >= 2) {
            this.markTruncated();
        }
        this.fd = await new Promise<number>((resolve, reject) =>
            fs.open(log, CREATE_FLAGS, 0o600, (err, newFd) => err ? reject(err) : resolve(newFd)));
        this.segmentSize = 0;
    }

    protected markTruncated(): void {
        if (!this.current.truncated) {
            this.current.truncated = true;
            this.scheduleSave(true);
        }
    }

    protected scheduleSave(now = false): void {
        if (this.closing && !now) {
            return;
        }
        const wait = now ? 0 : Math.max(0, this.lastSaved + this.limits.recordIntervalMs - this.history.now());
        if (wait === 0) {
            if (this.recordTimer) {
                clearTimeout(this.recordTimer);
                this.recordTimer = undefined;
            }
            void this.save();
        } else if (!this.recordTimer) {
            this.recordTimer = setTimeout(() => {
                this.recordTimer = undefined;
                void this.save();
            }, wait);
            this.recordTimer.unref?.();
        }
    }

    protected save(): Promise<void> {
        this.lastSaved = this.history.now();
        const snapshot = this.record;
        this.saving = this.saving.then(() => this.history.saveRecord(snapshot));
        return this.saving;
    }
}

interface OpenFile {
    handle: fs.promises.FileHandle;
    stat: fs.Stats;
}

/** The two segments read as one log, up to its size when opened, never more than the cap (plus one batch). */
class LogReader {
    readonly size: number;

    constructor(protected readonly segments: OpenFile[], cap: number) {
        const total = segments.reduce((n, s) => n + s.stat.size, 0);
        // A log can only exceed the cap if something else wrote it: read no more than the cap's worth, from its end.
        this.skip = Math.max(0, total - cap - BATCH_BYTES);
        this.size = total - this.skip;
    }

    protected readonly skip: number;

    async read(offset: number, length: number): Promise<Buffer> {
        const out = Buffer.alloc(Math.max(0, Math.min(length, this.size - offset)));
        let filled = 0;
        let base = 0;
        const from = offset + this.skip;
        for (const segment of this.segments) {
            const segEnd = base + segment.stat.size;
            while (filled < out.length && from + filled >= base && from + filled < segEnd) {
                const { bytesRead } = await segment.handle.read(out, filled, Math.min(out.length - filled, segEnd - (from + filled)),
                    from + filled - base);
                if (bytesRead === 0) {
                    // Shorter than it was (replaced meanwhile): what is there is all there is.
                    return out.subarray(0, filled);
                }
                filled += bytesRead;
            }
            base = segEnd;
        }
        return out.subarray(0, filled);
    }

    async close(): Promise<void> {
        for (const s of this.segments) {
            await s.handle.close().catch(() => undefined);
        }
    }
}

/** Opens a regular file that is not a link (checked on the descriptor); undefined for anything else. */
function writeAll(fd: number, buffer: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
        const step = (offset: number): void => {
            fs.write(fd, buffer, offset, buffer.length - offset, null, (err, written) => {
                if (err) {
                    reject(err);
                } else if (offset + written < buffer.length) {
                    step(offset + written);
                } else {
                    resolve();
                }
            });
        };
        step(0);
    });
}

function exists(file: string): boolean {
    try {
        fs.lstatSync(file);
        return true;
    } catch {
        return false;
    }
}

function bounded(value: unknown, max: number): string {
    return String(value ?? '').slice(0, max);
}

/** Length of `bytes` without a UTF-8 sequence cut off at its end. */
function utf8Boundary(bytes: Buffer): number {
    let i = bytes.length - 1;
    // Back over at most three continuation bytes to the lead byte.
    while (i >= 0 && i > bytes.length - 4 && (bytes[i] & 0xc0) === 0x80) {
        i--;
    }
    if (i < 0) {
        return bytes.length;
    }
    const lead = bytes[i];
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    return bytes.length - i < need ? i : bytes.length;
}

/**
 * The byte offset, in `bytes`, of the character at `index` of `text` (its decoding), or just after it
 * (`after`). That character is ASCII or C1 (the filter says so): ASCII bytes always decode to
 * themselves and C1 characters only from their two-byte form, so it is the same-numbered
 * occurrence of that byte pattern.
 */
function byteOffsetOf(text: string, bytes: Buffer, index: number, after: boolean): number {
    if (index >= text.length) {
        return bytes.length;
    }
    const c = text.charCodeAt(index);
    let nth = 0;
    for (let i = text.indexOf(text[index]); i >= 0 && i < index; i = text.indexOf(text[index], i + 1)) {
        nth++;
    }
    const pattern = c < 0x80 ? Buffer.from([c]) : Buffer.from([0xc2, c]);
    let at = -1;
    for (let k = 0; k <= nth; k++) {
        at = bytes.indexOf(pattern, at + 1);
        if (at < 0) {
            return bytes.length;
        }
    }
    return at + (after ? pattern.length : 0);
}
