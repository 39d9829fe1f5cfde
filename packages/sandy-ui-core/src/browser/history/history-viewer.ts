import type { HistoryRecord } from '../../common/session/history-types';
import {
    HISTORY_COPY, HISTORY_COPY_ALL, HISTORY_LOADING_TEXT, HISTORY_RELAUNCH, HISTORY_TRUNCATED_NOTE, historyCutNote, historyDroppedNote,
    historyHeaderParts
} from '../../common/host/labels';
import { TerminalAppearance, TerminalFont, terminalFont } from '../../common/terminal/terminal-appearance';
import { DomFactory, domBuilder } from '../dom';

/**
 * The OSC numbers the viewer answers itself, by swallowing them: titles (0-2), colours (4, 10-12),
 * the working directory (7), hyperlinks (8), notifications (9, 99, 777), the clipboard (52) and
 * iTerm2's (1337). The backend already removed every control string from what it sends
 * (`displayTranscript`); this is the second guard, should one ever get through.
 */
export const HISTORY_VIEWER_SWALLOWED_OSC: readonly number[] = [0, 1, 2, 4, 7, 8, 9, 10, 11, 12, 52, 99, 777, 1337];

/** Lines the viewer keeps above the screen. */
export const HISTORY_VIEWER_SCROLLBACK = 50_000;

/** Most characters "Copy All" puts on the clipboard. */
export const HISTORY_COPY_ALL_MAX_CHARS = 16 * 1024 * 1024;

/** What the viewer needs of a terminal: xterm's `Terminal` in a page, `@xterm/headless` in a spec. */
export interface HistoryTerminal {
    readonly parser: {
        registerOscHandler(ident: number, callback: (data: string) => boolean | Promise<boolean>): { dispose(): void };
        registerCsiHandler(id: { prefix?: string; final: string }, callback: (params: (number | number[])[]) => boolean | Promise<boolean>): { dispose(): void };
    };
    readonly buffer: { readonly active: { readonly length: number; getLine(y: number): { readonly isWrapped: boolean; translateToString(trimRight?: boolean): string } | undefined } };
    write(data: string, callback?: () => void): void;
    getSelection?(): string;
    hasSelection?(): boolean;
    attachCustomKeyEventHandler?(handler: (event: KeyboardEvent) => boolean): void;
    focus?(): void;
    reset(): void;
    dispose(): void;
}

/** The options every history terminal is made with: no input, no window reports, a long scrollback. */
export const HISTORY_TERMINAL_OPTIONS = {
    // Nothing typed (nor any answer xterm would give to DSR / DA queries) goes anywhere: there is no session.
    disableStdin: true,
    cursorBlink: false,
    cursorStyle: 'underline',
    scrollback: HISTORY_VIEWER_SCROLLBACK,
    // Window manipulation (CSI t) reports and actions, all off.
    windowOptions: {},
    allowProposedApi: false,
    convertEol: false
} as const;

export interface HistoryTerminalFactory {
    /**
     * A terminal made with {@link HISTORY_TERMINAL_OPTIONS}, the host's colours and the font core chose
     * ({@link terminalFont}), shown in `element`; `setFont` and `setTheme` draw with another font or colours from then on.
     */
    (element: HTMLElement, options: typeof HISTORY_TERMINAL_OPTIONS & TerminalFont & { theme?: unknown }): {
        terminal: HistoryTerminal; fit?(): void; setFont?(font: TerminalFont): void; setTheme?(theme: unknown): void;
    };
}

/** Where the viewer's side effects go: only ever the clipboard (on the user's copy) and the Relaunch button. */
export interface HistoryViewerHost {
    copy(text: string): void;
    relaunch(): void;
}

export interface HistoryViewerOptions {
    theme?: unknown;
    /** The viewer's family under the user's terminal settings (VS Code's editor font, which a workspace can set: checked). */
    fontFamily?: string;
    /** The user's terminal settings (core's terminalAppearance()): the viewer draws as the sandy tab does. */
    appearance?: TerminalAppearance;
}

/** DEC private modes that switch to the alternate screen (47, 1047, 1049). */
const ALTERNATE_SCREEN_MODES: ReadonlySet<number> = new Set([47, 1047, 1049]);

/**
 * Swallows the OSC numbers of {@link HISTORY_VIEWER_SWALLOWED_OSC} on a terminal (each handler
 * answers "handled", so xterm's own — a title, an OSC 8 link, a colour query's reply — never runs),
 * and keeps everything on the normal screen: a TUI's switch to the alternate screen (DECSET/DECRST
 * 47, 1047, 1049) is ignored, or leaving it at the end would wipe all the agent showed and nothing of
 * it would reach the scrollback.
 */
export function guardHistoryTerminal(terminal: Pick<HistoryTerminal, 'parser'>): Array<{ dispose(): void }> {
    const alternate = (params: (number | number[])[]): boolean => params.some(p => ALTERNATE_SCREEN_MODES.has(Array.isArray(p) ? p[0] : p));
    return [
        ...HISTORY_VIEWER_SWALLOWED_OSC.map(ident => terminal.parser.registerOscHandler(ident, () => true)),
        terminal.parser.registerCsiHandler({ prefix: '?', final: 'h' }, alternate),
        terminal.parser.registerCsiHandler({ prefix: '?', final: 'l' }, alternate)
    ];
}

/** The terminal's whole text (scrollback and screen), wrapped rows joined, trailing blanks dropped; bounded. */
export function terminalText(terminal: Pick<HistoryTerminal, 'buffer'>, maxChars = HISTORY_COPY_ALL_MAX_CHARS): string {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    let total = 0;
    for (let y = 0; y < buffer.length && total < maxChars; y++) {
        const line = buffer.getLine(y);
        if (!line) {
            continue;
        }
        const text = line.translateToString(true);
        if (line.isWrapped && lines.length) {
            lines[lines.length - 1] += text;
        } else {
            lines.push(text);
        }
        total += text.length + 1;
    }
    while (lines.length && lines[lines.length - 1] === '') {
        lines.pop();
    }
    return lines.join('\n').slice(0, maxChars);
}

/**
 * A recorded session, read-only, one implementation for every host: a header (project · agent ·
 * started · ended · exit, and what was dropped or cut), Copy / Copy All / Relaunch buttons, and a
 * terminal that is fed the recorded display text page by page. The terminal takes no input and
 * answers nothing: it is made with `disableStdin`, its `onData` is never listened to, window
 * reports are off, no link is made of its text, and the OSC numbers a replay could act on are
 * swallowed ({@link guardHistoryTerminal}). Ctrl/Cmd+C with a selection copies it through the host.
 */
export class HistoryViewer {
    readonly terminal: HistoryTerminal;
    protected readonly fitTerminal: (() => void) | undefined;
    protected readonly setFont: ((font: TerminalFont) => void) | undefined;
    protected readonly setTerminalTheme: ((theme: unknown) => void) | undefined;
    protected font: TerminalFont;
    protected readonly doc: Document;
    protected readonly h: DomFactory;
    protected readonly header: HTMLElement;
    protected readonly notes: HTMLElement;
    protected readonly status: HTMLElement;
    protected readonly termElement: HTMLElement;
    protected readonly disposables: Array<{ dispose(): void }> = [];
    protected resizeObserver: ResizeObserver | undefined;
    protected record: HistoryRecord | undefined;
    protected disposed = false;

    constructor(readonly container: HTMLElement, protected readonly host: HistoryViewerHost, factory: HistoryTerminalFactory, protected readonly options: HistoryViewerOptions = {}) {
        this.doc = container.ownerDocument;
        const h = this.h = domBuilder(this.doc);
        container.classList.add('sandy-history-viewer');
        this.header = h('div', { class: 'sandy-history-viewer-header' });
        this.notes = h('div', { class: 'sandy-history-viewer-notes', hidden: true });
        this.status = h('div', { class: 'sandy-history-viewer-status', role: 'status' }, HISTORY_LOADING_TEXT);
        const toolbar = h('div', { class: 'sandy-history-viewer-toolbar' },
            h('button', { type: 'button', class: 'sandy-history-copy', on: { click: () => this.copySelection() } }, HISTORY_COPY),
            h('button', { type: 'button', class: 'sandy-history-copy-all', on: { click: () => this.copyAll() } }, HISTORY_COPY_ALL),
            h('button', { type: 'button', class: 'sandy-history-relaunch', on: { click: () => this.host.relaunch() } }, HISTORY_RELAUNCH));
        this.termElement = h('div', { class: 'sandy-history-viewer-terminal' });
        container.replaceChildren(h('div', { class: 'sandy-history-viewer-top' }, this.header, toolbar), this.notes, this.status, this.termElement);
        this.font = terminalFont(options.appearance ?? {}, options);
        const made = factory(this.termElement, { ...HISTORY_TERMINAL_OPTIONS, theme: options.theme, ...this.font });
        this.terminal = made.terminal;
        this.fitTerminal = made.fit;
        this.setFont = made.setFont;
        this.setTerminalTheme = made.setTheme;
        this.disposables.push(...guardHistoryTerminal(this.terminal));
        this.terminal.attachCustomKeyEventHandler?.(event => {
            const copyKey = (event.ctrlKey || event.metaKey) && !event.altKey && (event.key === 'c' || event.key === 'C');
            if (copyKey && event.type === 'keydown' && this.terminal.hasSelection?.()) {
                this.copySelection();
                return false;
            }
            return true;
        });
        if (this.fitTerminal && typeof ResizeObserver !== 'undefined') {
            this.resizeObserver = new ResizeObserver(() => this.fit());
            this.resizeObserver.observe(this.termElement);
        }
    }

    /** The record this viewer shows: its header. */
    setRecord(record: HistoryRecord): void {
        this.record = record;
        const h = this.h;
        const parts = historyHeaderParts(record).map(p => String(p).slice(0, 300));
        this.header.replaceChildren(...parts.map((p, i) => h('span', { class: `sandy-history-viewer-part sandy-history-viewer-part-${i}` }, p)));
        this.header.title = String(record.workspace);
        const notes = [record.truncated ? HISTORY_TRUNCATED_NOTE : undefined, record.dropped ? historyDroppedNote(record.dropped) : undefined];
        this.setNotes(notes);
    }

    /** Starts again (a reload): the screen cleared, the header kept. */
    clear(): void {
        this.terminal.reset();
        this.status.textContent = HISTORY_LOADING_TEXT;
        this.status.hidden = false;
    }

    /** One page of display text; resolves once the terminal parsed it. */
    write(text: string): Promise<void> {
        if (this.disposed || typeof text !== 'string' || !text) {
            return Promise.resolve();
        }
        return new Promise(resolve => this.terminal.write(text, resolve));
    }

    /** Everything was read (`cut`: the page bound stopped it after that many bytes). */
    done(result: { cut?: number } = {}): void {
        this.status.hidden = true;
        this.status.textContent = '';
        if (result.cut !== undefined && this.record) {
            this.setNotes([this.record.truncated ? HISTORY_TRUNCATED_NOTE : undefined, this.record.dropped ? historyDroppedNote(this.record.dropped) : undefined, historyCutNote(result.cut)]);
        }
    }

    showProblem(text: string): void {
        this.status.textContent = text;
        this.status.hidden = false;
        this.status.classList.add('sandy-history-viewer-problem');
    }

    /** The selected text to the clipboard (nothing selected: nothing copied). */
    copySelection(): void {
        const selection = this.terminal.getSelection?.() ?? '';
        if (selection) {
            this.host.copy(selection);
        }
    }

    /** The whole recorded text as shown (scrollback and screen) to the clipboard. */
    copyAll(): void {
        const text = terminalText(this.terminal);
        if (text) {
            this.host.copy(text);
        }
    }

    focus(): void {
        this.terminal.focus?.();
    }

    /** The host's colour theme changed: the recorded text is drawn in the new terminal colours. */
    setTheme(theme: unknown): void {
        if (!this.disposed) {
            this.setTerminalTheme?.(theme);
        }
    }

    /** The user changed their terminal settings: the recorded text is drawn with the new font, refitted. */
    setAppearance(appearance: TerminalAppearance): void {
        const font = terminalFont(appearance, this.options);
        if (this.disposed || (font.fontSize === this.font.fontSize && font.fontFamily === this.font.fontFamily && font.lineHeight === this.font.lineHeight)) {
            return;
        }
        this.font = font;
        this.setFont?.(font);
        this.fit();
    }

    fit(): void {
        if (this.disposed || !this.termElement.isConnected || this.termElement.clientWidth === 0 || this.termElement.clientHeight === 0) {
            return;
        }
        try {
            this.fitTerminal?.();
        } catch {
            // Not laid out yet.
        }
    }

    dispose(): void {
        if (this.disposed) {
            return;
        }
        this.disposed = true;
        this.resizeObserver?.disconnect();
        for (const d of this.disposables) {
            d.dispose();
        }
        this.terminal.dispose();
    }

    protected setNotes(notes: Array<string | undefined>): void {
        const present = notes.filter((n): n is string => !!n);
        this.notes.replaceChildren(...present.map(n => this.h('p', { class: 'sandy-history-viewer-note' }, n)));
        this.notes.hidden = present.length === 0;
    }
}
