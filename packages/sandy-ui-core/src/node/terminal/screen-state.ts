import type { TerminalNotification } from '../../common/terminal/osc-dispatch';
import type { PaneScreen } from '../../common/session/tmux-panes';
import type { ScreenFrame } from './screen-engine';
import type { ScreenEvent, ScreenRequest } from './screen-protocol';
import { ScreenClient, ScreenThread } from './screen-thread';

export { MAX_REPLAY_CHARS, REPLAY_SCROLLBACK_LINES, FRAME_MID_SEQUENCE_WAIT_MS } from './screen-engine';

/**
 * The most a screen may have waiting for its parse (characters). Flow control keeps a running session far
 * below it (CATCH_UP.maxUnparsedChars); a session being stopped is read whatever its views or its screen
 * (its agent must finish), and what comes past this is not parsed: the screen starts again after it
 * (xterm refuses to hold more than 50 MB, and a parse that far behind would be out of date anyway).
 */
export const MAX_SCREEN_BACKLOG_CHARS = 16 * 1024 * 1024;
export type { ScreenFrame } from './screen-engine';

type Asked = Extract<ScreenRequest, { req: number }>;
type Question = Asked extends infer R ? R extends Asked ? Omit<R, 'id' | 'req'> : never : never;

/**
 * A session's screen as the session holds it (hosted-session.ts): the backend's headless xterm of the
 * session (screen-engine.ts) runs on the screen thread (screen-thread.ts: a worker), and this is its
 * side on the thread that reads the PTY. What flow control and the catch-up frames must know at once is
 * kept here as the engine reports it: the chunks written, the characters not parsed yet, whether the
 * screen shown, as parsed so far, is the alternate one. Everything read off the screen is asked for and
 * comes back in order: an answer is about every chunk written before the question.
 */
export class ScreenState implements ScreenClient {
    protected readonly id: number;
    protected disposed = false;
    protected written = 0;
    protected unparsed = 0;
    protected shownAlternate = false;
    protected nextReq = 1;
    protected readonly pending = new Map<number, { empty: unknown; resolve: (value: unknown) => void }>();
    /** Whether it waits for the thread (output not parsed yet, a question not answered): see {@link ScreenThread.hold}. */
    protected waiting = false;
    /** Output past {@link MAX_SCREEN_BACKLOG_CHARS} was not parsed: the screen starts again once the backlog is down. */
    protected overrun = false;
    /** Called after chunks are parsed (the session's flow control watches {@link unparsedChars}). */
    onParsed: (() => void) | undefined;

    constructor(cols: number, rows: number, protected readonly onNotify: (n: TerminalNotification) => void, protected readonly thread = ScreenThread.shared()) {
        this.id = thread.open(this, cols, rows);
    }

    /** Parse `data` (in the order written); returns its chunk number. */
    write(data: string): number {
        if (this.disposed) {
            return this.written;
        }
        const seq = ++this.written;
        if (this.unparsed + data.length > MAX_SCREEN_BACKLOG_CHARS) {
            this.overrun = true;
            // Its number still reaches the engine (frames count chunks), its text does not.
            this.thread.post({ op: 'write', id: this.id, seq, data: '' });
            return seq;
        }
        if (this.overrun && this.unparsed <= MAX_SCREEN_BACKLOG_CHARS / 2) {
            this.overrun = false;
            this.thread.post({ op: 'reset', id: this.id });
        }
        this.unparsed += data.length;
        this.thread.post({ op: 'write', id: this.id, seq, data });
        this.updateWaiting();
        return seq;
    }

    /** Chunks written so far: output from the next one on is not in a replay made now. */
    get chunksWritten(): number {
        return this.written;
    }

    /** Characters written but not parsed yet. */
    get unparsedChars(): number {
        return this.unparsed;
    }

    /** Whether the screen, as parsed so far, is the alternate one (where a view may be caught up by frames). */
    get alternate(): boolean {
        return !this.disposed && this.shownAlternate;
    }

    /**
     * A catch-up frame (screen-frame.ts) standing for everything written so far, made once it is parsed
     * (at the first chunk boundary after it outside any sequence); undefined when none can stand for it
     * (the normal screen, a character set in use) — the output is then sent as it is. `carriedFrom`: the
     * first chunk whose carried sequences the view may need (it was sent those of the chunks before).
     */
    frame(carriedFrom = 0): Promise<ScreenFrame | undefined> {
        return this.ask({ op: 'frame', notBefore: this.written, carriedFrom }, undefined);
    }

    /**
     * The screen once everything written so far is parsed (no OSC in it: replaying it has no side
     * effects; at most MAX_REPLAY_CHARS). Output written after this call is not in it.
     */
    serialize(): Promise<string> {
        return this.ask({ op: 'serialize' }, '');
    }

    /**
     * The visible screen as plain text, once everything written so far is parsed: one string per row
     * (trailing blanks trimmed, no escapes), at most the bottom `maxRows` rows. The dashboard's thumbnail
     * bounds and cleans it further.
     */
    visibleText(maxRows = 200): Promise<{ cols: number; rows: number; lines: string[] }> {
        return this.ask({ op: 'text', maxRows }, { cols: 0, rows: 0, lines: [] });
    }

    /** The panes of sandy's multi-agent window on the visible screen (tmux-panes.ts), once everything written so far is parsed. */
    panes(agents: readonly string[]): Promise<PaneScreen[] | undefined> {
        return agents.length < 2 ? Promise.resolve(undefined) : this.ask({ op: 'panes', agents: [...agents] }, undefined);
    }

    resize(cols: number, rows: number): void {
        if (!this.disposed) {
            this.thread.post({ op: 'resize', id: this.id, cols, rows });
        }
    }

    /** A new screen from here on (a daemon session's attach client redraws it all). */
    reset(): void {
        if (!this.disposed) {
            this.thread.post({ op: 'reset', id: this.id });
        }
    }

    dispose(): void {
        if (!this.disposed) {
            this.disposed = true;
            this.thread.close(this.id);
            this.lost();
        }
    }

    /** (ScreenClient) What the engine says. */
    event(e: ScreenEvent): void {
        if (this.disposed) {
            return;
        }
        if (e.op === 'parsed') {
            this.unparsed = Math.max(0, this.unparsed - e.chars);
            this.shownAlternate = e.alternate;
            this.updateWaiting();
            this.onParsed?.();
        } else if (e.op === 'notify') {
            this.onNotify(e.notification);
        } else if (e.op === 'lost') {
            // Its engine failed on the agent's output: this screen (only) starts again, empty.
            this.lost();
            this.overrun = false;
            this.thread.reopen(this.id);
        } else {
            const p = this.pending.get(e.req);
            this.pending.delete(e.req);
            this.updateWaiting();
            p?.resolve(e.value ?? p.empty);
        }
    }

    /** (ScreenClient) The engine is gone (its worker ended, or this screen was disposed): what was asked comes back empty, nothing waits for its parse. */
    lost(): void {
        this.unparsed = 0;
        this.shownAlternate = false;
        for (const p of [...this.pending.values()]) {
            p.resolve(p.empty);
        }
        this.pending.clear();
        this.updateWaiting();
        if (!this.disposed) {
            this.onParsed?.();
        }
    }

    protected ask<T>(question: Question, empty: T): Promise<T> {
        if (this.disposed) {
            return Promise.resolve(empty);
        }
        const req = this.nextReq++;
        return new Promise<T>(resolve => {
            this.pending.set(req, { empty, resolve: resolve as (value: unknown) => void });
            this.thread.post({ ...question, id: this.id, req } as ScreenRequest);
            this.updateWaiting();
        });
    }

    protected updateWaiting(): void {
        const waiting = !this.disposed && (this.unparsed > 0 || this.pending.size > 0);
        if (waiting !== this.waiting) {
            this.waiting = waiting;
            if (waiting) {
                this.thread.hold();
            } else {
                this.thread.release();
            }
        }
    }
}
