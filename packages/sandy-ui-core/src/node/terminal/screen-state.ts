import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { OscDispatcher } from '../../common/terminal/osc-dispatch';
import type { TerminalNotification } from '../../common/terminal/osc-dispatch';
import { sandyPanes } from '../../common/session/tmux-panes';
import type { PaneScreen, ScreenGrid } from '../../common/session/tmux-panes';

/** Lines of scrollback a reattaching view gets back above the screen. */
export const REPLAY_SCROLLBACK_LINES = 1000;
/**
 * A replay larger than this (characters) is made again with less scrollback, then with the screen
 * only: an agent that fills every cell with its own colours must not make each attach megabytes.
 */
export const MAX_REPLAY_CHARS = 1_000_000;

/**
 * A session's terminal as the backend keeps it: a headless xterm fed every byte of the session's
 * output. A view that (re)attaches gets {@link serialize}: the current screen, modes and recent
 * scrollback as plain drawing commands. No OSC survives serialisation, so a replay can never fire a
 * notification again, write the clipboard or set a title: those happened once, here, where the
 * stream is parsed ({@link onNotify}), whether or not a tab is open.
 */
export class ScreenState {
    protected readonly terminal: Terminal;
    protected readonly serializer = new SerializeAddon();
    protected readonly dispatcher: OscDispatcher;
    protected disposed = false;

    constructor(cols: number, rows: number, onNotify: (n: TerminalNotification) => void) {
        this.terminal = new Terminal({ cols, rows, scrollback: REPLAY_SCROLLBACK_LINES, allowProposedApi: true });
        this.terminal.loadAddon(this.serializer);
        // Notifications only: the clipboard and links belong to the view that shows the live stream.
        this.dispatcher = new OscDispatcher({ notify: onNotify, clipboard: () => undefined });
        for (const ident of [9, 99, 777]) {
            this.terminal.parser.registerOscHandler(ident, payload => this.dispatcher.handle(ident, payload));
        }
        // sandy's tmux forwards a bell (CONTRACT §7): the one attention signal that gets through unwrapped.
        this.terminal.onBell(() => onNotify({ body: 'The session rang the bell.', source: 'bell' }));
    }

    write(data: string): void {
        if (!this.disposed) {
            this.terminal.write(data);
        }
    }

    resize(cols: number, rows: number): void {
        if (!this.disposed) {
            this.terminal.resize(cols, rows);
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
            this.terminal.dispose();
        }
    }
}
