import type { Attention } from './session-attention';
import type { SessionMode, SessionOrigin } from './session-types';

/**
 * The Sessions dashboard's data (issue 11): one tile per session the backend hosts, with its
 * resource figures from the Docker API and a plain-text thumbnail of its screen. Serialisable: the
 * same shapes cross Theia's JSON-RPC and the plugin's webview messages.
 */

/** A thumbnail shows at most this many lines of the screen… */
export const THUMBNAIL_MAX_LINES = 60;
/** …each at most this many characters (code points). */
export const THUMBNAIL_MAX_COLS = 240;

/** The visible screen of a session as plain text: no escapes, no control or bidi characters, bounded. */
export interface DashboardThumbnail {
    cols: number;
    rows: number;
    lines: string[];
}

export interface DashboardTile {
    sessionId: string;
    workspace: string;
    /** The project's display name (its folder's name, or the sandbox's). */
    project: string;
    agent?: string;
    mode: SessionMode;
    origin: SessionOrigin;
    attention: Attention;
    startedAt: number;
    endedAt?: number;
    lastOutputAt?: number;
    /** `docker stats`'s CPU % of the session's container (100 = one CPU); absent: not known. */
    cpuPercent?: number;
    /** Bytes, page cache excluded. */
    memoryBytes?: number;
    memoryLimit?: number;
    thumbnail?: DashboardThumbnail;
}

/** Whether the Docker API answered; its failure is shown to the user as it came (as text). */
export type DashboardDocker = { state: 'ok' } | { state: 'unreachable'; reason: string };

export interface DashboardSnapshot {
    /** Sorted by the attention queue's order (needs-you first, oldest wait first). */
    tiles: DashboardTile[];
    docker: DashboardDocker;
    /** When the backend made it (ms since the epoch). */
    at: number;
}

/*
 * What a thumbnail line may not contain: C0 and C1 controls (ESC included) and DEL; the bidi
 * embeddings, overrides, isolates and marks (a line that reorders what follows it, "Trojan Source");
 * line and paragraph separators; zero-width and BOM characters; lone surrogates.
 */
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;
/** A lone surrogate, once the line is split into code points. */
const SURROGATE = /^[\ud800-\udfff]$/;

/**
 * One line of a thumbnail as it may be shown: unsafe characters become spaces (the columns stay
 * where they were), trailing blanks go, at most {@link THUMBNAIL_MAX_COLS} code points. Bounded
 * before it is scanned: a 10 MB line costs what its first few hundred characters cost.
 */
export function thumbnailLine(text: unknown, maxCols = THUMBNAIL_MAX_COLS): string {
    if (typeof text !== 'string') {
        return '';
    }
    // Up to two UTF-16 units per code point: cut first, then count code points.
    const head = text.slice(0, maxCols * 2).replace(UNSAFE_CHARS, ' ');
    return Array.from(head).slice(0, maxCols).map(ch => (SURROGATE.test(ch) ? ' ' : ch)).join('').replace(/\s+$/, '');
}

/**
 * A thumbnail bounded and cleaned line by line (also on the view's side: what crossed a boundary is
 * checked again): blank rows at the bottom dropped, then the last {@link THUMBNAIL_MAX_LINES} rows
 * (an agent's prompt is at the bottom of its screen).
 */
export function boundedThumbnail(lines: readonly unknown[], cols: number, rows: number): DashboardThumbnail {
    const kept = (Array.isArray(lines) ? lines : []).slice(0, 1000).map(line => thumbnailLine(line));
    while (kept.length && kept[kept.length - 1] === '') {
        kept.pop();
    }
    kept.splice(0, Math.max(0, kept.length - THUMBNAIL_MAX_LINES));
    const clamp = (n: number, max: number): number => (Number.isFinite(n) ? Math.max(0, Math.min(max, Math.floor(n))) : 0);
    return { cols: clamp(cols, THUMBNAIL_MAX_COLS), rows: clamp(rows, THUMBNAIL_MAX_LINES), lines: kept };
}
