/**
 * What a session's recorded output (raw PTY bytes: SGR colours, cursor moves, OSC, DCS, everything)
 * becomes when it is read back, as one stateful filter that follows xterm's escape-sequence parser
 * closely enough to know where every control string begins and ends, across chunk boundaries:
 *
 * - `display`: for the read-only history viewer. CSI (colours, cursor) and plain ESC sequences are
 *   kept; every control *string* — OSC, DCS, APC, PM, SOS, by ESC or by C1 introducer — is removed
 *   whole, and so are BEL and the other C1 controls. A replay can then neither notify, ring, write
 *   the clipboard, set a title nor talk to tmux. The output never holds an ESC followed by a string
 *   introducer (`]`, `P`, `X`, `^`, `_`) nor a C1 introducer, whatever was recorded and wherever a
 *   chunk was cut: an ESC is emitted only together with the byte that proves it harmless.
 * - `plain`: for text search. Every escape sequence and control string is removed, CR becomes LF,
 *   other C0/C1 controls and DEL go; what remains is what a person read on the screen.
 *
 * Untrusted bytes from an agent: the filter never throws and keeps O(1) state (a string's payload is
 * skipped, never collected).
 */

export type TranscriptMode = 'display' | 'plain';

/** See `TranscriptFilter.firstRelease`. */
export interface TranscriptRelease {
    at: number;
    after: boolean;
}

const enum S {
    Ground,
    /** After ESC (nothing emitted yet). */
    Esc,
    /** After ESC and intermediates (emitted in display mode). */
    EscIntermediate,
    /** Inside CSI (emitted as it goes in display mode). */
    Csi,
    /** Inside an OSC (BEL or ST ends it). */
    Osc,
    /** Inside DCS / SOS / PM / APC (only ST ends it). */
    StString,
    /** ESC seen inside a control string: `\` makes it ST, anything else ends the string and is an escape. */
    StringEsc
}

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;

export class TranscriptFilter {
    protected state: S = S.Ground;
    /** Where, in the text given to the last `push`, the unfinished sequence began; -1: before it, or none. */
    protected pendingAt = -1;
    protected release: TranscriptRelease | undefined;

    constructor(readonly mode: TranscriptMode) { }

    /**
     * True while a sequence of which nothing was emitted is open: an ESC whose next byte is not seen
     * yet, or a control string whose end is not. (An open CSI is not: it was emitted as it came.)
     */
    get holding(): boolean {
        return this.state === S.Esc || this.state === S.Osc || this.state === S.StString || this.state === S.StringEsc;
    }

    /** Index in the text of the last `push` where the held sequence began (-1: in an earlier push, or none held). */
    get pendingStart(): number {
        return this.holding ? this.pendingAt : -1;
    }

    /**
     * The first place in the text of the last `push` where a sequence held from before that text
     * (a string, or an ESC) let go: just after the string's terminator (`after`: true) or at the ESC
     * or C1 character that ended it and starts what follows (`after`: false). The character at `at`
     * is always ASCII or C1, so a caller can find its byte in the UTF-8 it decoded; `at` is -1 when
     * it is the ESC that ended the previous push's text.
     */
    get firstRelease(): TranscriptRelease | undefined {
        return this.release;
    }

    /** Filters the next piece of the stream. */
    push(text: string): string {
        const display = this.mode === 'display';
        let out = '';
        // Ground-state text is copied in runs, not character by character.
        let runStart = -1;
        // A sequence still open began in an earlier push.
        this.pendingAt = -1;
        this.release = undefined;
        const heldFromBefore = this.holding;
        const released = (at: number, after: boolean): void => {
            if (heldFromBefore && !this.release) {
                this.release = { at, after };
            }
        };
        const flush = (end: number): void => {
            if (runStart >= 0) {
                out += text.slice(runStart, end);
                runStart = -1;
            }
        };
        for (let i = 0; i < text.length; i++) {
            const c = text.charCodeAt(i);
            switch (this.state) {
                case S.Ground: {
                    if (c >= 0x20 && c !== 0x7f && (c < 0x80 || c > 0x9f)) {
                        if (runStart < 0) {
                            runStart = i;
                        }
                        continue;
                    }
                    flush(i);
                    if (c === ESC) {
                        this.begin(S.Esc, i);
                    } else if (c >= 0x80 && c <= 0x9f) {
                        this.c1(c, i);
                    } else if (c === 0x0a || c === 0x09) {
                        out += text[i];
                    } else if (c === 0x0d) {
                        out += display ? '\r' : '\n';
                    } else if (display && c !== BEL && c !== 0x7f) {
                        // Other C0 (BS, SO/SI, …) move the cursor or switch charsets: harmless on replay.
                        out += text[i];
                    }
                    continue;
                }
                case S.Esc: {
                    if (c !== ESC && c !== 0x5d && c !== 0x50 && c !== 0x58 && c !== 0x5e && c !== 0x5f) {
                        // Whatever this byte makes of the ESC, the ESC no longer holds anything back.
                        released(this.pendingAt >= 0 ? this.pendingAt : i - 1, false);
                    }
                    if (c === 0x5b) { // [
                        this.state = S.Csi;
                        if (display) {
                            out += '\x1b[';
                        }
                    } else if (c === 0x5d) { // ]
                        this.state = S.Osc;
                    } else if (c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f) { // P X ^ _
                        this.state = S.StString;
                    } else if (c === ESC) {
                        // ESC ESC: the first is dropped, the second starts over.
                        this.pendingAt = i;
                    } else if (c === CAN || c === SUB) {
                        this.state = S.Ground;
                    } else if (c >= 0x80 && c <= 0x9f) {
                        this.state = S.Ground;
                        this.c1(c, i);
                    } else if (c < 0x20) {
                        // xterm executes a C0 here and stays in the escape; the ESC is dropped (never
                        // emitted apart from its next byte), the control too.
                        this.state = S.Ground;
                    } else if (c >= 0x20 && c <= 0x2f) {
                        this.state = S.EscIntermediate;
                        if (display) {
                            out += '\x1b' + text[i];
                        }
                    } else if (c === 0x5c) { // ESC \ alone: a stray ST, nothing to show
                        this.state = S.Ground;
                    } else if (c > 0x7e) {
                        // Not a sequence: the ESC is dropped and this character is text.
                        this.state = S.Ground;
                        i--;
                    } else {
                        // A final byte (ESC 7, ESC =, ESC c, …): a complete, harmless sequence.
                        this.state = S.Ground;
                        if (display) {
                            out += '\x1b' + text[i];
                        }
                    }
                    continue;
                }
                case S.EscIntermediate:
                case S.Csi: {
                    if (c === ESC) {
                        this.begin(S.Esc, i);
                    } else if (c === CAN || c === SUB) {
                        this.state = S.Ground;
                    } else if (c >= 0x80 && c <= 0x9f) {
                        this.state = S.Ground;
                        this.c1(c, i);
                    } else if (c < 0x20 || c === 0x7f) {
                        // Executed inside the sequence by xterm; dropped here.
                    } else {
                        if (display) {
                            out += text[i];
                        }
                        const final = this.state === S.Csi ? c >= 0x40 && c <= 0x7e : c >= 0x30 && c <= 0x7e;
                        if (final || c > 0x7e) {
                            this.state = S.Ground;
                        }
                    }
                    continue;
                }
                case S.Osc:
                case S.StString: {
                    if (c === ESC) {
                        this.state = S.StringEsc;
                    } else if (c === 0x9c || c === CAN || c === SUB || (c === BEL && this.state === S.Osc)) {
                        this.state = S.Ground;
                        released(i, true);
                    } else if (c >= 0x80 && c <= 0x9f && c !== 0x9c && this.isIntroducer(c)) {
                        // A C1 introducer inside a string starts the next string (xterm: C1 is anywhere).
                        released(i, false);
                        this.state = c === 0x9d ? S.Osc : S.StString;
                        this.pendingAt = i;
                    }
                    continue;
                }
                case S.StringEsc: {
                    if (c === 0x5c) {
                        this.state = S.Ground;
                        released(i, true);
                    } else {
                        // The string ended at that ESC, which starts an escape: handle this byte as its next.
                        released(i - 1, false);
                        this.state = S.Esc;
                        this.pendingAt = i - 1;
                        i--;
                    }
                    continue;
                }
            }
        }
        flush(text.length);
        return out;
    }

    protected begin(state: S, at: number): void {
        this.state = state;
        this.pendingAt = at;
    }

    protected isIntroducer(c: number): boolean {
        return c === 0x90 || c === 0x98 || c === 0x9d || c === 0x9e || c === 0x9f;
    }

    /** A C1 control in ground state: a string introducer opens a string; any other C1 (CSI 0x9b too) is dropped. */
    protected c1(c: number, at: number): void {
        if (this.isIntroducer(c)) {
            this.begin(c === 0x9d ? S.Osc : S.StString, at);
        }
    }
}

/**
 * The raw recording with every OSC, DCS, APC, PM and SOS string removed (and BEL and C1 controls),
 * CSI/SGR kept: what the history viewer may write to its terminal.
 */
export function displayTranscript(raw: string): string {
    return new TranscriptFilter('display').push(raw);
}

/** The recording as plain text (no escape sequences or controls; CR as LF), for searching it. */
export function plainTranscript(raw: string): string {
    return new TranscriptFilter('plain').push(raw);
}
