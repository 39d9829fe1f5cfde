import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { OscDispatcher } from '../../common/terminal/osc-dispatch';
import type { TerminalNotification } from '../../common/terminal/osc-dispatch';
import { sandyPanes } from '../../common/session/tmux-panes';
import type { PaneScreen, ScreenGrid } from '../../common/session/tmux-panes';
import { catchUpFrame } from './screen-frame';
import { CarriedSequence, CarriedSequences } from './carried-sequences';

/** A catch-up frame (screen-frame.ts) and the last chunk it stands for. */
export interface ScreenFrame {
    /** {@link ScreenEngine.write}'s number of the last chunk drawn in it. */
    seq: number;
    /**
     * The first chunk of the run of chunks up to {@link seq} during all of which the alternate screen was
     * shown: the frame stands for these only (earlier ones wrote on the normal screen, whose lines the view
     * must get).
     */
    alternateSince: number;
    data: string;
    /**
     * What the view must still act on in the output up to {@link seq} (carried-sequences.ts), as the parse
     * had it when the frame was made: `carriedBetween(frame.carried, from, frame.seq)` picks a view's part.
     */
    carried: CarriedSequence[];
}

/** What an engine tells its owner (screen-state.ts) as it parses. */
export interface ScreenEngineEvents {
    /** A notification (OSC 9/99/777) or the bell, parsed once, here. */
    notify(n: TerminalNotification): void;
    /** Chunk `seq`, of `chars` characters, is parsed (in the order written). */
    parsed(seq: number, chars: number): void;
}

/** Lines of scrollback a reattaching view gets back above the screen. */
export const REPLAY_SCROLLBACK_LINES = 1000;
/**
 * A replay larger than this (characters) is made again with less scrollback, then with the screen
 * only: an agent that fills every cell with its own colours must not make each attach megabytes.
 */
export const MAX_REPLAY_CHARS = 1_000_000;
/** How long a frame waits for the rest of a sequence its output ended inside of before there is none. */
export const FRAME_MID_SEQUENCE_WAIT_MS = 100;

/**
 * A session's terminal as the backend keeps it: a headless xterm fed every byte of the session's
 * output. A view that (re)attaches gets {@link serialize}: the current screen, modes and recent
 * scrollback as plain drawing commands. No OSC survives serialisation, so a replay can never fire a
 * notification again, write the clipboard or set a title: those happened once, here, where the
 * stream is parsed ({@link ScreenEngineEvents.notify}), whether or not a tab is open.
 *
 * It runs where screen-thread.ts puts it (the backend's screen worker, off the thread that reads the
 * PTYs); the session holds a {@link ScreenState}, which speaks to it in messages.
 */
export class ScreenEngine {
    protected readonly terminal: Terminal;
    protected readonly serializer = new SerializeAddon();
    protected readonly dispatcher: OscDispatcher;
    protected readonly carried: CarriedSequences;
    protected disposed = false;
    /** Chunks written, and parsed, so far (a frame stands for every chunk up to its own). */
    protected written = 0;
    protected parsed = 0;
    protected frameWaiters: Array<{ notBefore: number; carriedFrom: number; resolve: (frame: ScreenFrame | undefined) => void }> = [];
    protected midSequenceTimer: ReturnType<typeof setTimeout> | undefined;
    /** The last chunk during which the normal screen was shown at any moment. */
    protected normalSeq = 0;

    /**
     * `startSeq`: the chunks written before this engine existed (a screen opened again after its worker
     * ended): numbering goes on from there, and they count as parsed on the normal screen, so no frame
     * stands for them.
     */
    constructor(cols: number, rows: number, protected readonly events: ScreenEngineEvents, startSeq = 0) {
        this.written = this.parsed = this.normalSeq = startSeq;
        const onNotify = (n: TerminalNotification) => events.notify(n);
        this.terminal = new Terminal({ cols, rows, scrollback: REPLAY_SCROLLBACK_LINES, allowProposedApi: true });
        this.terminal.loadAddon(this.serializer);
        // A switch of screens inside a chunk: the normal one was shown during it (before or after).
        this.terminal.buffer.onBufferChange(() => this.normalSeq = this.parsed + 1);
        // Notifications only: the clipboard and links belong to the view that shows the live stream.
        this.dispatcher = new OscDispatcher({ notify: onNotify, clipboard: () => undefined });
        for (const ident of [9, 99, 777]) {
            this.terminal.parser.registerOscHandler(ident, payload => this.dispatcher.handle(ident, payload));
        }
        // sandy's tmux forwards a bell (CONTRACT §7): the one attention signal that gets through unwrapped.
        this.terminal.onBell(() => onNotify({ body: 'The session rang the bell.', source: 'bell' }));
        // (A handler runs while its chunk is parsed: the chunks before it have called back.)
        this.carried = new CarriedSequences(this.terminal, () => this.parsed + 1);
    }

    /** Parse `data` as chunk `seq` (numbered from 1 by the writer, in the order written). */
    write(seq: number, data: string): void {
        if (this.disposed) {
            return;
        }
        this.written = seq;
        this.terminal.write(data, () => {
            this.parsed = seq;
            if (this.terminal.buffer.active.type === 'normal') {
                this.normalSeq = seq;
            }
            this.serveFrames();
            this.events.parsed(seq, data.length);
        });
    }

    /** Whether the screen, as parsed so far, is the alternate one (where a view may be caught up by frames). */
    get alternate(): boolean {
        return !this.disposed && this.terminal.buffer.active.type === 'alternate';
    }

    /**
     * A catch-up frame (screen-frame.ts) standing for every chunk up to `notBefore` at least, made once
     * they are parsed (at the first chunk boundary after them outside any sequence); undefined when none
     * can stand for them (the normal screen, a character set in use) — the output is then sent as it is.
     * It carries the sequences parsed from chunk `carriedFrom` on (what the asking view was not sent).
     */
    frame(notBefore: number, carriedFrom = 0): Promise<ScreenFrame | undefined> {
        if (this.disposed) {
            return Promise.resolve(undefined);
        }
        return new Promise(resolve => {
            // (Never for a chunk this engine was not given: it would wait for ever.)
            this.frameWaiters.push({ notBefore: Math.min(notBefore, this.written), carriedFrom, resolve });
            if (this.parsed === this.written) {
                this.serveFrames();
            }
        });
    }

    protected serveFrames(timedOut = false): void {
        const due = this.frameWaiters.filter(w => w.notBefore <= this.parsed);
        if (!due.length) {
            return;
        }
        const result = catchUpFrame(this.terminal);
        if (result.kind === 'mid-sequence' && !timedOut) {
            // The next chunk boundary (the rest of the sequence is on its way); a stream that stops
            // inside a sequence gets no frame.
            if (this.parsed === this.written) {
                this.midSequenceTimer ??= setTimeout(() => {
                    this.midSequenceTimer = undefined;
                    this.serveFrames(this.parsed === this.written);
                }, FRAME_MID_SEQUENCE_WAIT_MS);
            }
            return;
        }
        this.frameWaiters = this.frameWaiters.filter(w => !due.includes(w));
        const alternateSince = this.normalSeq + 1;
        const made = result.kind === 'frame' && alternateSince <= this.parsed ? result.data : undefined;
        const carried = made === undefined ? [] : this.carried.snapshot();
        due.forEach(w => w.resolve(made === undefined ? undefined
            : { seq: this.parsed, alternateSince, data: made, carried: carried.filter(c => c.seq >= Math.max(w.carriedFrom, alternateSince)) }));
    }

    /**
     * What a frame standing for chunks `from` to `to` must be followed by (carried-sequences.ts): the
     * clipboard write and the queries and colour changes the agent wrote in them, re-encoded.
     */
    carriedBetween(from: number, to: number): string {
        return this.disposed ? '' : this.carried.between(from, to);
    }

    /** From the next chunk on: what was written before is parsed at the size it was written for. */
    resize(cols: number, rows: number): void {
        if (!this.disposed) {
            this.terminal.write('', () => {
                if (!this.disposed) {
                    this.terminal.resize(cols, rows);
                }
            });
        }
    }

    /**
     * The screen once everything written so far is parsed. Output written after this call is not in
     * it (the callback runs right after the marker's chunk, before later chunks are parsed).
     */
    serialize(): Promise<string> {
        if (this.disposed) {
            return Promise.resolve('');
        }
        return new Promise(resolve => this.terminal.write('', () => {
            let replay = '';
            for (const scrollback of [REPLAY_SCROLLBACK_LINES, 100, 0]) {
                replay = this.serializer.serialize({ scrollback });
                if (replay.length <= MAX_REPLAY_CHARS) {
                    break;
                }
            }
            resolve(replay);
        }));
    }

    /**
     * The visible screen as plain text, once everything written so far is parsed: one string per row
     * (xterm's cells, trailing blanks trimmed; no escapes: those were parsed into the cells), at most
     * the bottom `maxRows` rows. The dashboard's thumbnail bounds and cleans it further.
     */
    visibleText(maxRows = 200): Promise<{ cols: number; rows: number; lines: string[] }> {
        if (this.disposed) {
            return Promise.resolve({ cols: 0, rows: 0, lines: [] });
        }
        return new Promise(resolve => this.terminal.write('', () => {
            const buffer = this.terminal.buffer.active;
            const lines: string[] = [];
            for (let i = Math.max(0, this.terminal.rows - maxRows); i < this.terminal.rows; i++) {
                lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
            }
            resolve({ cols: this.terminal.cols, rows: this.terminal.rows, lines });
        }));
    }

    /**
     * The panes of sandy's multi-agent window on the visible screen, once everything written so far is
     * parsed (tmux-panes.ts; undefined when the screen is not that layout). Read by cell, so a wide
     * character in one pane never shifts another.
     */
    panes(agents: readonly string[]): Promise<PaneScreen[] | undefined> {
        if (this.disposed || agents.length < 2) {
            return Promise.resolve(undefined);
        }
        return new Promise(resolve => this.terminal.write('', () => {
            const buffer = this.terminal.buffer.active;
            const line = (y: number) => buffer.getLine(buffer.viewportY + y);
            const grid: ScreenGrid = {
                cols: this.terminal.cols,
                rows: this.terminal.rows,
                cell: (x, y) => line(y)?.getCell(x)?.getChars() ?? '',
                text: (y, x0, x1) => line(y)?.translateToString(true, x0, x1) ?? '',
                width: (x, y) => line(y)?.getCell(x)?.getWidth() ?? 1
            };
            resolve(sandyPanes(grid, agents));
        }));
    }

    /** A new screen from here on (a daemon session's attach client redraws it all). */
    reset(): void {
        if (!this.disposed) {
            this.terminal.reset();
        }
    }

    dispose(): void {
        if (!this.disposed) {
            this.disposed = true;
            clearTimeout(this.midSequenceTimer);
            this.frameWaiters.splice(0).forEach(w => w.resolve(undefined));
            this.carried.dispose();
            this.terminal.dispose();
        }
    }
}
