/**
 * Operating System Command parsing for the IDE terminal, as pure functions over the payload that
 * xterm.js's `parser.registerOscHandler(ident, handler)` hands over (the text after `ident;`).
 *
 * What can arrive from inside sandy is little (CONTRACT §7, fx 110): sandy's tmux forwards only
 * DCS-passthrough-wrapped OSC 9/99/777, OSC 52 (rewritten as `52;;<b64>`) and BEL; raw 9/99/777 and
 * (tmux 3.3a) OSC 8 are swallowed. Everything here is still untrusted bytes from an agent, so each
 * parser bounds its input, strips control characters from text meant for the UI, and returns
 * `undefined` for anything malformed instead of throwing.
 */

import { LINK_SCHEMES } from './links';

/** Largest notification text accepted (after decoding, per notification). */
export const MAX_NOTIFICATION_BYTES = 4 * 1024;
/** Largest OSC 52 payload (base64 text) accepted. */
export const MAX_CLIPBOARD_PAYLOAD = 1024 * 1024;
/** Largest OSC 8 URI accepted. */
export const MAX_URI_LENGTH = 8 * 1024;
/** OSC 99 notifications being assembled at once; the oldest is dropped beyond this. */
export const MAX_PENDING_OSC99 = 16;

/** Where a notification came from. */
export type OscNotifySource = 'osc9' | 'osc99' | 'osc777';

/** A desktop-style notification an agent asked for. */
export interface OscNotifyEvent {
    kind: 'notify';
    title?: string;
    body: string;
    source: OscNotifySource;
    /** OSC 99 `i=` identifier, when given. */
    id?: string;
}

/** OSC 52 clipboard write. */
export interface OscClipboardEvent {
    kind: 'clipboard';
    text: string;
    /** Selection targets as sent (`c`, `p`, `s`, `0`-`7`); empty = the terminal's default (tmux sends `52;;…`). */
    targets: string;
}

/** OSC 8 hyperlink start. */
export interface OscHyperlinkEvent {
    kind: 'hyperlink';
    uri: string;
    /** `id=` parameter, grouping cells of one link. */
    id?: string;
}

/** OSC 8 with an empty URI: closes the current hyperlink. */
export interface OscHyperlinkEndEvent {
    kind: 'hyperlink-end';
}

/**
 * A well-formed sequence we deliberately do not act on. The host should report it as handled, so no
 * other handler answers it (an OSC 52 read would hand the user's clipboard to the agent).
 */
export interface OscIgnoredEvent {
    kind: 'ignored';
    reason: 'clipboard-read' | 'link-scheme' | 'osc99-query';
}

export type OscEvent = OscNotifyEvent | OscClipboardEvent | OscHyperlinkEvent | OscHyperlinkEndEvent | OscIgnoredEvent;

/** The OSC numbers handled here, for `registerOscHandler`. */
export const HANDLED_OSC_IDENTS: readonly number[] = [8, 9, 52, 99, 777];

/**
 * OSC numbers the terminal stream may not act on at all: 0/1/2 (icon name and window title — the tab
 * title is the IDE's), 7 (working directory), 1337 (iTerm2: file transfer, badges, user variables).
 * Hosts register a handler that consumes them, so no default or future listener sees the agent's text.
 */
export const SWALLOWED_OSC_IDENTS: readonly number[] = [0, 1, 2, 7, 1337];

// ------------------------------------------------------------------------------------------------
// text hygiene

/**
 * C0 (except LF for bodies), DEL, C1, and bidi embedding/override/isolate controls — the last so a
 * notification cannot visually reorder its own text (Trojan Source, CVE-2021-42574).
 */
const UNSAFE_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes control characters; titles also lose line breaks. Trims the result. */
export function sanitizeText(text: string, allowNewlines: boolean): string {
    let clean = text.replace(UNSAFE_CHARS, '');
    clean = allowNewlines ? clean.replace(/\n{3,}/g, '\n\n') : clean.replace(/\n/g, ' ');
    return clean.trim();
}

function utf8Length(text: string): number {
    return new TextEncoder().encode(text).length;
}

// ------------------------------------------------------------------------------------------------
// base64 (pure: no Buffer in browsers, and atob() yields Latin-1 rather than bytes)

const B64_VALUES: Int16Array = (() => {
    const table = new Int16Array(128).fill(-1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (let i = 0; i < alphabet.length; i++) {
        table[alphabet.charCodeAt(i)] = i;
    }
    // URL-safe alphabet too: some emitters use it, and it is unambiguous.
    table['-'.charCodeAt(0)] = 62;
    table['_'.charCodeAt(0)] = 63;
    return table;
})();

/**
 * Decodes standard or URL-safe base64, padding optional. Returns `undefined` for any character
 * outside the alphabet, misplaced padding, or an impossible length.
 */
export function decodeBase64(input: string): Uint8Array | undefined {
    let end = input.length;
    let padding = 0;
    while (end > 0 && input.charCodeAt(end - 1) === 61 /* = */) {
        end--;
        padding++;
    }
    if (padding > 2 || (padding > 0 && input.length % 4 !== 0) || end % 4 === 1) {
        return undefined;
    }
    const out = new Uint8Array(Math.floor(end * 3 / 4));
    let acc = 0;
    let bits = 0;
    let o = 0;
    for (let i = 0; i < end; i++) {
        const code = input.charCodeAt(i);
        const value = code < 128 ? B64_VALUES[code] : -1;
        if (value < 0) {
            return undefined;
        }
        acc = ((acc << 6) | value) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (acc >> bits) & 0xff;
        }
    }
    return out;
}

function decodeUtf8(bytes: Uint8Array): string {
    // Not fatal: a stray invalid byte becomes U+FFFD instead of losing the whole message.
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

// ------------------------------------------------------------------------------------------------
// OSC 9 — iTerm2 / Windows Terminal notification; ConEmu reuses the number for subcommands

/**
 * `ESC ] 9 ; text BEL` → notification. ConEmu's subcommands share the number (`9;1;ms` sleep,
 * `9;2;msg` message box, `9;4;state;progress` progress bar, `9;9;cwd`, …): a payload that starts with a
 * number followed by `;` or end is one of those and is not a notification.
 */
export function parseOsc9(data: string): OscNotifyEvent | undefined {
    if (typeof data !== 'string' || data.length > MAX_NOTIFICATION_BYTES || /^\d+(;|$)/.test(data)) {
        return undefined;
    }
    const body = sanitizeText(data, true);
    if (!body || utf8Length(body) > MAX_NOTIFICATION_BYTES) {
        return undefined;
    }
    return { kind: 'notify', body, source: 'osc9' };
}

// ------------------------------------------------------------------------------------------------
// OSC 777 — urxvt `notify;title;body` (also what sandy's cmux hook prints, CONTRACT §7)

/** `notify;title;body` → notification; the body may itself contain `;`. Other 777 verbs → undefined. */
export function parseOsc777(data: string): OscNotifyEvent | undefined {
    if (typeof data !== 'string' || data.length > 2 * MAX_NOTIFICATION_BYTES) {
        return undefined;
    }
    const parts = data.split(';');
    if (parts[0] !== 'notify' || parts.length < 3) {
        return undefined;
    }
    const title = sanitizeText(parts[1], false);
    const body = sanitizeText(parts.slice(2).join(';'), true);
    if (!body && !title) {
        return undefined;
    }
    if (utf8Length(title) + utf8Length(body) > MAX_NOTIFICATION_BYTES) {
        return undefined;
    }
    return body ? { kind: 'notify', title: title || undefined, body, source: 'osc777' } : { kind: 'notify', body: title, source: 'osc777' };
}

// ------------------------------------------------------------------------------------------------
// OSC 99 — kitty desktop notification protocol

/** One parsed OSC 99 chunk. */
export interface Osc99Chunk {
    /** `i=`: identifier ('' when absent). */
    id: string;
    /** `d=`: 1 (default) = last chunk of this notification. */
    done: boolean;
    /** `p=`: what the payload is (default `title`). */
    payloadType: string;
    /** Decoded payload bytes (`e=1` → base64-decoded). */
    payload: Uint8Array;
}

const OSC99_ID = /^[A-Za-z0-9_\-+.]{0,64}$/;

/** Parses one `metadata;payload` chunk, or `undefined` when malformed. */
export function parseOsc99Chunk(data: string): Osc99Chunk | undefined {
    if (typeof data !== 'string' || data.length > 2 * MAX_NOTIFICATION_BYTES) {
        return undefined;
    }
    const sep = data.indexOf(';');
    if (sep < 0) {
        return undefined;
    }
    const metadata = data.slice(0, sep);
    const raw = data.slice(sep + 1);
    let id = '';
    let done = true;
    let payloadType = 'title';
    let base64 = false;
    if (metadata) {
        for (const item of metadata.split(':')) {
            const eq = item.indexOf('=');
            if (eq <= 0) {
                return undefined;
            }
            const key = item.slice(0, eq);
            const value = item.slice(eq + 1);
            switch (key) {
                case 'i':
                    if (!OSC99_ID.test(value)) {
                        return undefined;
                    }
                    id = value;
                    break;
                case 'd':
                    if (value !== '0' && value !== '1') {
                        return undefined;
                    }
                    done = value === '1';
                    break;
                case 'e':
                    if (value !== '0' && value !== '1') {
                        return undefined;
                    }
                    base64 = value === '1';
                    break;
                case 'p':
                    payloadType = value;
                    break;
                default:
                    // a (actions), o (occasion), u (urgency), c, w, f, t, s, n, g: not used, but legal.
                    break;
            }
        }
    }
    const payload = base64 ? decodeBase64(raw) : new TextEncoder().encode(raw);
    if (!payload) {
        return undefined;
    }
    return { id, done, payloadType, payload };
}

interface PendingOsc99 {
    title: Uint8Array[];
    body: Uint8Array[];
    size: number;
}

/**
 * Assembles kitty notifications sent in several chunks (`d=0` … `d=1`, same `i=`). Title and body
 * may each be split; an oversized notification is dropped whole. Queries (`p=?`) are never answered.
 */
export class Osc99Assembler {
    private readonly pending = new Map<string, PendingOsc99>();

    /** Feeds one OSC 99 payload; returns the notification when it is complete. */
    push(data: string): OscNotifyEvent | OscIgnoredEvent | undefined {
        const chunk = parseOsc99Chunk(data);
        if (!chunk) {
            return undefined;
        }
        if (chunk.payloadType === '?') {
            // Answering would tell the agent what the terminal supports; nothing needs it.
            return { kind: 'ignored', reason: 'osc99-query' };
        }
        let entry = this.pending.get(chunk.id);
        if (chunk.payloadType === 'title' || chunk.payloadType === 'body') {
            if (!entry) {
                entry = { title: [], body: [], size: 0 };
                if (this.pending.size >= MAX_PENDING_OSC99) {
                    const oldest = this.pending.keys().next().value as string;
                    this.pending.delete(oldest);
                }
                this.pending.set(chunk.id, entry);
            }
            entry.size += chunk.payload.length;
            if (entry.size > MAX_NOTIFICATION_BYTES) {
                this.pending.delete(chunk.id);
                return undefined;
            }
            (chunk.payloadType === 'title' ? entry.title : entry.body).push(chunk.payload);
        }
        // close, alive, icon, buttons…: nothing to show, but `d=1` still completes what came before.
        if (!chunk.done) {
            return undefined;
        }
        this.pending.delete(chunk.id);
        if (!entry) {
            return undefined;
        }
        const title = sanitizeText(decodeUtf8(concat(entry.title)), false);
        const body = sanitizeText(decodeUtf8(concat(entry.body)), true);
        const id = chunk.id || undefined;
        if (body) {
            return { kind: 'notify', title: title || undefined, body, source: 'osc99', id };
        }
        // kitty shows a title-only notification; here the body is the one required field.
        return title ? { kind: 'notify', body: title, source: 'osc99', id } : undefined;
    }

    /** Drops half-assembled notifications (e.g. when the terminal is reset). */
    reset(): void {
        this.pending.clear();
    }

    /** Number of notifications waiting for their `d=1` chunk. */
    get pendingCount(): number {
        return this.pending.size;
    }
}

function concat(parts: Uint8Array[]): Uint8Array {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of parts) {
        out.set(part, offset);
        offset += part.length;
    }
    return out;
}

// ------------------------------------------------------------------------------------------------
// OSC 52 — clipboard

const CLIPBOARD_TARGETS = /^[cps0-7]*$/;

/**
 * `targets;base64` → clipboard write. A `?` read request is reported as ignored and must never be
 * answered: it would send the user's clipboard to whatever runs in the sandbox. An empty payload
 * (xterm's "clear") is not acted on either.
 */
export function parseOsc52(data: string): OscClipboardEvent | OscIgnoredEvent | undefined {
    if (typeof data !== 'string' || data.length > MAX_CLIPBOARD_PAYLOAD + 16) {
        return undefined;
    }
    const sep = data.indexOf(';');
    if (sep < 0) {
        return undefined;
    }
    const targets = data.slice(0, sep);
    const payload = data.slice(sep + 1);
    if (!CLIPBOARD_TARGETS.test(targets) || payload.length > MAX_CLIPBOARD_PAYLOAD) {
        return undefined;
    }
    if (payload === '?') {
        return { kind: 'ignored', reason: 'clipboard-read' };
    }
    if (!payload) {
        return undefined;
    }
    const bytes = decodeBase64(payload);
    if (!bytes) {
        return undefined;
    }
    return { kind: 'clipboard', text: decodeUtf8(bytes), targets };
}

// ------------------------------------------------------------------------------------------------
// OSC 8 — hyperlinks

/**
 * URI schemes an OSC 8 link may have (links.ts decides the rest, e.g. whether a file is inside the
 * workspace). Anything else (command:, vscode:, theia:, javascript:, data:, mailto:…) is no link.
 */
export const ALLOWED_LINK_SCHEMES: readonly string[] = LINK_SCHEMES;

/** `params;uri` → hyperlink; empty URI → hyperlink end; other schemes → ignored. */
export function parseOsc8(data: string): OscHyperlinkEvent | OscHyperlinkEndEvent | OscIgnoredEvent | undefined {
    if (typeof data !== 'string' || data.length > MAX_URI_LENGTH + 256) {
        return undefined;
    }
    const sep = data.indexOf(';');
    if (sep < 0) {
        return undefined;
    }
    const params = data.slice(0, sep);
    const uri = data.slice(sep + 1);
    if (!uri) {
        return { kind: 'hyperlink-end' };
    }
    // The spec restricts URIs to printable ASCII 32-126; anything else is malformed.
    if (uri.length > MAX_URI_LENGTH || !/^[\x21-\x7e]+$/.test(uri)) {
        return undefined;
    }
    let id: string | undefined;
    if (params) {
        for (const item of params.split(':')) {
            const eq = item.indexOf('=');
            if (eq <= 0) {
                return undefined;
            }
            if (item.slice(0, eq) === 'id') {
                id = item.slice(eq + 1);
            }
        }
    }
    let scheme: string;
    try {
        scheme = new URL(uri).protocol.toLowerCase();
    } catch {
        return undefined;
    }
    if (!ALLOWED_LINK_SCHEMES.includes(scheme)) {
        return { kind: 'ignored', reason: 'link-scheme' };
    }
    return id ? { kind: 'hyperlink', uri, id } : { kind: 'hyperlink', uri };
}

// ------------------------------------------------------------------------------------------------
// dispatch

/**
 * One terminal's OSC state (only OSC 99 needs any). Hosts call {@link OscEventParser.parse} from each
 * `registerOscHandler(ident, data => …)` for the idents in {@link HANDLED_OSC_IDENTS}.
 */
export class OscEventParser {
    private readonly osc99 = new Osc99Assembler();

    parse(ident: number, data: string): OscEvent | undefined {
        try {
            switch (ident) {
                case 9: return parseOsc9(data);
                case 99: return this.osc99.push(data);
                case 777: return parseOsc777(data);
                case 52: return parseOsc52(data);
                case 8: return parseOsc8(data);
                default: return undefined;
            }
        } catch {
            // Defensive: a parser bug must never break the terminal's byte stream.
            return undefined;
        }
    }

    /** Parses `ident;data` as one string (the OSC body between `ESC ]` and the terminator). */
    parseSequence(sequence: string): OscEvent | undefined {
        const match = /^(\d{1,4});/.exec(sequence);
        return match ? this.parse(Number(match[1]), sequence.slice(match[0].length)) : undefined;
    }

    reset(): void {
        this.osc99.reset();
    }
}
