/**
 * Session history (issue 11): what the backend keeps of every session's output, as the serialisable
 * shapes a window sees. The store is `node/history/session-history.ts`; these are its DTOs and the
 * pure rules a list is filtered by.
 */

/** One recorded session: its `<id>.json` beside its `<id>.log`. */
export interface HistoryRecord {
    /** The log's base name, `YYYY-MM-DD-<sandbox>` (local date of the start) with `-2`, `-3`… for a later session that day. */
    id: string;
    /** The project's workspace folder (absolute). */
    workspace: string;
    /** The project's display name. */
    project: string;
    /** Sandy's sandbox name. */
    sandbox: string;
    agent?: string;
    model?: string;
    /** `headless`: a one-shot `sandy -p` run (its answer and sandy's lines). */
    mode: 'daemon' | 'foreground' | 'headless';
    /** Epoch milliseconds. */
    startedAt: number;
    /** Epoch milliseconds; absent while it runs (or if the IDE died before it ended). */
    endedAt?: number;
    exitCode?: number;
    signal?: number;
    endReason?: string;
    /** Bytes of output recorded over the session's life (including what rolling truncation dropped since). */
    bytes: number;
    /** Rolling truncation dropped the start: the log holds only the most recent part. */
    truncated: boolean;
    /** Bytes of output never recorded because the disk could not keep up (a marker line stands where they were). */
    dropped?: number;
}

export interface HistoryQuery {
    /** Only sessions of this project (display name, exact). */
    project?: string;
    /** Only sessions whose output holds this text (case-insensitive, in the plain text, escapes removed). */
    text?: string;
    /** At most this many records (default and ceiling: `MAX_HISTORY_LIST`). */
    limit?: number;
}

/** A page of a recorded session's output for the read-only viewer. */
export interface HistoryChunk {
    record: HistoryRecord;
    /** The raw output with OSC/DCS/APC/PM/SOS strings, BEL and C1 controls removed; CSI/SGR kept (see `displayTranscript`). */
    text: string;
    /** Byte offset (into the retained log) this page starts at. */
    offset: number;
    /** Where the next page starts; absent at the end of what is recorded. */
    nextOffset?: number;
    /** Bytes the retained log holds now. */
    size: number;
}

/** Most records one `list` returns. */
export const MAX_HISTORY_LIST = 500;
/** Longest search text accepted (longer is cut to it). */
export const MAX_HISTORY_QUERY_TEXT = 1000;

/**
 * The name every history file is called by: a date, then the sandbox part (letters, digits, `_` and
 * `-`; at most 100 characters). The store makes only such names and opens only such names, so no id
 * can name a path elsewhere or another of its files (no `/`, `\`, `.`, NUL or newline can match).
 */
export const HISTORY_ID_PATTERN = /^\d{4}-\d{2}-\d{2}-[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;

export function isHistoryId(id: unknown): id is string {
    return typeof id === 'string' && HISTORY_ID_PATTERN.test(id);
}

/**
 * A sandbox name as the part of a history file name: anything but letters, digits, `_` and `-`
 * becomes `_`, a leading dash too; cut to 90 characters (room for a `-NNNN` suffix). Empty becomes `session`.
 */
export function historyNamePart(sandbox: string): string {
    const s = String(sandbox).replace(/[^A-Za-z0-9_-]/g, '_').replace(/^-/, '_').slice(0, 90);
    return s === '' ? 'session' : s;
}

/** `YYYY-MM-DD` of the local date at `epochMs`. */
export function localDateStamp(epochMs: number): string {
    const d = new Date(Number.isFinite(epochMs) ? epochMs : 0);
    const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
    return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The record passes the query's project filter (the text filter needs the log; the store applies it). */
export function historyMatches(record: HistoryRecord, query: HistoryQuery | undefined): boolean {
    return query?.project === undefined || record.project === query.project;
}

/** Newest first; equal starts by id, later suffix first. */
export function compareHistory(a: HistoryRecord, b: HistoryRecord): number {
    return b.startedAt - a.startedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * A record read back from disk, or undefined if it is not one this store wrote: every field of the
 * right type and bounded, `id` a history id. Unknown fields are dropped.
 */
export function parseHistoryRecord(value: unknown): HistoryRecord | undefined {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
        return undefined;
    }
    const v = value as Record<string, unknown>;
    const str = (x: unknown, max = 4096): x is string => typeof x === 'string' && x.length <= max;
    const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
    const optStr = (x: unknown): boolean => x === undefined || str(x, 1024);
    const optNum = (x: unknown): boolean => x === undefined || num(x);
    if (!isHistoryId(v.id) || !str(v.workspace) || !str(v.project, 1024) || !str(v.sandbox, 1024)
        || !optStr(v.agent) || !optStr(v.model) || (v.mode !== 'daemon' && v.mode !== 'foreground' && v.mode !== 'headless')
        || !num(v.startedAt) || !optNum(v.endedAt) || !optNum(v.exitCode) || !optNum(v.signal) || !optStr(v.endReason)
        || !num(v.bytes) || v.bytes < 0 || typeof v.truncated !== 'boolean' || !optNum(v.dropped)) {
        return undefined;
    }
    const record: HistoryRecord = {
        id: v.id, workspace: v.workspace, project: v.project, sandbox: v.sandbox, mode: v.mode,
        startedAt: v.startedAt, bytes: v.bytes, truncated: v.truncated
    };
    for (const key of ['agent', 'model', 'endReason'] as const) {
        if (v[key] !== undefined) {
            record[key] = v[key] as string;
        }
    }
    for (const key of ['endedAt', 'exitCode', 'signal', 'dropped'] as const) {
        if (v[key] !== undefined) {
            record[key] = v[key] as number;
        }
    }
    return record;
}
