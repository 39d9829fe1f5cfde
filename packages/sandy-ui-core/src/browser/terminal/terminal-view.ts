import { Terminal, ITerminalOptions, ITheme } from '@xterm/xterm';
import { ideKeyChords, isIdeKey, KeyChord } from '../../common/terminal/ide-keys';
import { FitAddon } from '@xterm/addon-fit';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { WebglAddon } from '@xterm/addon-webgl';
import { chooseTerminalRenderer, GpuAcceleration, TerminalRenderer } from '../../common/terminal/terminal-renderer';
import { acquireWebglView, loseContexts, noteWebglLost, probeWebgl, releaseWebglView, webglContextsOf, webglLostInPage } from './webgl-probe';
import { OscDispatcher } from '../../common/terminal/osc-dispatch';
import { AckBatcher } from '../../common/terminal/ack-batcher';
import { DEFAULT_TERMINAL_APPEARANCE, TerminalAppearance, terminalFont } from '../../common/terminal/terminal-appearance';

/** Characters per acknowledged write (well below the backend's 5 000-character resume mark × a few). */
const ACK_SLICE = 4096;
/**
 * A flood: more than this many characters within {@link FLOOD_WINDOW_MS}. Then output is handed to xterm
 * at most once per {@link FLOOD_FRAME_MS} instead of as it comes: xterm draws once per animation frame that follows
 * new output, and with its DOM renderer each such frame repaints the whole screen (most of the page's CPU
 * in a flood, measured by `npm run bench`), so fewer, larger writes draw fewer frames of the same bytes.
 * Typing and a TUI's redraws stay below it and are written at once (echo latency unchanged).
 */
const FLOOD_CHARS = 32 * 1024;
const FLOOD_WINDOW_MS = 100;
const FLOOD_FRAME_MS = 50;
/**
 * Pixels of glyph atlas (all its pages) past which a WebGL view gives way to the DOM renderer. xterm's WebGL
 * renderer keeps every glyph it drew, in each colour pair, for ever: an agent that prints screens of cells each in
 * its own colours grows the atlas by a 512² page for about every screen drawn (measured: 14 pages after 60 such
 * screens), and the pages are the page's memory and the GPU's (xterm.js reports renderers that stop drawing once
 * they run out: xtermjs/xterm.js#6038, #6074). Ordinary output, a few colours of a few hundred glyphs, stays
 * within one or two pages; this is sixteen.
 */
const ATLAS_BUDGET_PIXELS = 2048 * 2048;

/** Where the view's side effects go; the Theia widget and the VS Code webview each implement it. */
export interface TerminalViewHost {
    /**
     * One of the IDE's keys was pressed in the terminal; it goes on to the host as an unhandled key.
     * Absent: nothing more to do (Theia sees the key first; VS Code's webview host forwards it).
     */
    ideKeyPressed?(event: KeyboardEvent): void;
    /** OSC 52 clipboard write (reads are never answered). */
    writeClipboard(text: string): void;
    /** OSC 8 hyperlinks and plain URLs the user activated (the host applies links.ts `classifyLink` again). */
    openLink(uri: string): void;
    /**
     * Whether an OSC 8 link is offered as a link at all: links.ts `isOfferedLink(uri, workspace)`.
     * Absent: http, https and file links are (other schemes never are).
     */
    acceptsLink?(uri: string): boolean;
}

/** The PTY side as the view sees it. */
export interface TerminalTransport {
    write(data: string): void;
    resize(cols: number, rows: number): void;
    /** Characters the view has rendered, for back-pressure. */
    acknowledge(chars: number): void;
}

export interface TerminalViewOptions {
    theme?: ITheme;
    fontFamily?: string;
    fontSize?: number;
    scrollback?: number;
    /** The host's terminal settings (common/terminal/terminal-appearance.ts); fontFamily/fontSize above are the defaults under them. */
    appearance?: TerminalAppearance;
}

/**
 * sandy's TUI in xterm.js: one implementation hosted by the Theia editor tab and the VS Code webview.
 * Sizing follows the container through a ResizeObserver (not window resize, which misses layout
 * settling), the first fit gives the PTY its initial size, and output is acknowledged only once
 * xterm has parsed it, so a flood cannot outrun the renderer.
 */
export class SandyTerminalView {
    readonly term: Terminal;
    protected readonly fitAddon = new FitAddon();
    protected readonly osc: OscDispatcher;
    protected transport: TerminalTransport | undefined;
    protected readonly resizeObserver: ResizeObserver;
    protected lastSize: { cols: number; rows: number } | undefined;
    protected resizeTimer: ReturnType<typeof setTimeout> | undefined;
    protected disposed = false;
    /** The keys left to the IDE (see common/terminal/ide-keys.ts); the default list until the host says. */
    protected ideKeys: KeyChord[] = ideKeyChords(undefined, isMacPlatform());
    /** Replays still being parsed (their OSC side effects are muted). */
    protected replaying = 0;
    protected readonly disposables: Array<{ dispose(): void }> = [];
    /** Output held back during a flood (see FLOOD_CHARS), written together at the next flood frame. */
    protected pending: Array<{ data: string; parsed?: () => void }> = [];
    protected pendingTimer: ReturnType<typeof setTimeout> | undefined;
    protected recent = { since: -Infinity, chars: 0 };
    protected floodUntil = -Infinity;
    /** When output was last handed to xterm. */
    protected writtenAt = -Infinity;
    /** xterm's WebGL renderer while it draws (common/terminal/terminal-renderer.ts); undefined: its DOM renderer. */
    protected webgl: WebglAddon | undefined;
    protected gpuAcceleration: GpuAcceleration;
    /** The canvases the WebGL renderer added to the view (whose contexts are freed when it is dropped). */
    protected webglCanvases: HTMLCanvasElement[] = [];
    /** This view's WebGL renderer outgrew {@link ATLAS_BUDGET_PIXELS}: it draws with the DOM for the rest of its life. */
    protected atlasOverrun = false;

    constructor(readonly container: HTMLElement, protected readonly host: TerminalViewHost, protected readonly options: TerminalViewOptions = {}) {
        const termOptions: ITerminalOptions = {
            allowProposedApi: true,
            ...this.appearanceOptions(options.appearance ?? DEFAULT_TERMINAL_APPEARANCE),
            scrollback: options.scrollback ?? 10000,
            theme: options.theme,
            // OSC 8 hyperlinks: xterm parses them itself, after the dispatcher let only the offered ones through
            // (http, https, and file inside the workspace; every other scheme is swallowed), so xterm's own
            // http-only filter would only hide the file links. Activation is a click, and the host decides.
            linkHandler: {
                activate: (_event, uri) => this.host.openLink(uri),
                allowNonHttpProtocols: true
            }
        };
        this.term = new Terminal(termOptions);
        this.term.loadAddon(this.fitAddon);
        // Plain-text URLs: the addon matches http(s) only, and acts on a click only; the host classifies again.
        this.term.loadAddon(new WebLinksAddon((_event, uri) => this.host.openLink(uri)));
        this.osc = new OscDispatcher({
            // Notifications are the backend's: it parses the session's stream once, tab or no tab
            // (node/terminal/screen-state.ts); the view only swallows them.
            notify: () => undefined,
            clipboard: text => this.host.writeClipboard(text),
            acceptsLink: host.acceptsLink ? uri => host.acceptsLink!(uri) : undefined
        });
        for (const ident of OscDispatcher.IDENTS) {
            this.disposables.push(this.term.parser.registerOscHandler(ident, payload => this.osc.handle(ident, payload)));
        }
        // The IDE's keys (the user's `sandy.terminal.ideKeys`) are not the agent's: xterm leaves them alone
        // and they go on to the host (VS Code dispatches a webview's unhandled keys; Theia sees them first).
        this.term.attachCustomKeyEventHandler(event => {
            if (!isIdeKey(event, this.ideKeys)) {
                return true;
            }
            if (event.type === 'keydown') {
                this.host.ideKeyPressed?.(event);
            }
            return false;
        });
        this.disposables.push(this.term.onData(data => this.transport?.write(data)));
        this.disposables.push(this.term.onBinary(data => this.transport?.write(data)));
        this.term.open(container);
        // Until the host says what the user chose, no WebGL (a user who turned it off must get no context at all).
        this.gpuAcceleration = options.appearance?.gpuAcceleration ?? 'off';
        this.applyRenderer();
        this.resizeObserver = new ResizeObserver(() => this.scheduleFit());
        this.resizeObserver.observe(container);
    }

    /**
     * Measure the container and return the size the PTY must be spawned with. Call once the
     * container is laid out; the spec forbids a hard-coded default (sandy would draw into a corner).
     */
    measure(): { cols: number; rows: number } {
        this.fitNow(false);
        return { cols: this.term.cols, rows: this.term.rows };
    }

    /**
     * Take a size before the container is laid out (a hidden tab launched at the size of its area's
     * tabs), so what sandy draws meanwhile is parsed at the PTY's size; the first fit once shown
     * corrects it if the tab is not that size after all.
     */
    sizeTo(cols: number, rows: number): void {
        if (!this.disposed && cols > 0 && rows > 0 && (cols !== this.term.cols || rows !== this.term.rows)) {
            this.term.resize(cols, rows);
        }
    }

    /** The user's `sandy.terminal.ideKeys` (undefined: the default list). */
    setIdeKeys(keys: readonly string[] | undefined): void {
        this.ideKeys = ideKeyChords(keys, isMacPlatform());
    }

    attach(transport: TerminalTransport): void {
        this.transport = transport;
        this.lastSize = undefined;
        this.fitNow(true);
    }

    detach(): void {
        this.acks.pay();
        this.transport = undefined;
    }

    /** Output from the PTY; acknowledged when xterm has processed it. */
    write(data: string, parsed?: () => void): void {
        if (this.disposed || !data) {
            parsed?.();
            return;
        }
        const now = performance.now(); // monotonic: a clock set back must not hold output
        if (now - this.recent.since > FLOOD_WINDOW_MS) {
            this.recent = { since: now, chars: 0 };
        }
        this.recent.chars += data.length;
        if (this.recent.chars > FLOOD_CHARS) {
            // A flood lasts until a window passes without one: a small write within it (a catch-up
            // frame, node/terminal/screen-frame.ts) is throttled with the rest.
            this.floodUntil = now + FLOOD_WINDOW_MS;
        }
        // In a flood, output goes to xterm at most once per FLOOD_FRAME_MS: at once when the last write
        // is that long ago (a catch-up frame after a pause in the flood, the screen a flood ends on), else
        // with what else comes until then.
        const wait = now < this.floodUntil ? this.writtenAt + FLOOD_FRAME_MS - now : 0;
        if (this.pending.length || wait > 0) {
            this.pending.push({ data, parsed });
            this.pendingTimer ??= setTimeout(() => this.flushPending(), Math.max(wait, 0));
            return;
        }
        this.writeNow(data, parsed);
    }

    /** What a flood held back, now (before anything else is written, so nothing overtakes it). */
    protected flushPending(): void {
        if (this.pendingTimer) {
            clearTimeout(this.pendingTimer);
            this.pendingTimer = undefined;
        }
        if (!this.pending.length) {
            return;
        }
        const held = this.pending;
        this.pending = [];
        const callbacks = held.map(h => h.parsed).filter((f): f is () => void => !!f);
        this.writeNow(held.map(h => h.data).join(''), callbacks.length ? () => callbacks.forEach(f => f()) : undefined);
    }

    protected writeNow(data: string, parsed?: () => void): void {
        this.writtenAt = performance.now();
        // Acknowledge in slices as xterm parses them: one acknowledgement per large batch would let the
        // backend's unacknowledged count sit above the resume mark until the whole batch is drawn, so
        // the PTY would stall once per batch (measured by `npm run bench`).
        for (let offset = 0; offset < data.length; offset += ACK_SLICE) {
            const slice = data.slice(offset, offset + ACK_SLICE);
            const last = offset + ACK_SLICE >= data.length;
            this.term.write(slice, () => {
                this.acks.owe(slice.length);
                if (last) {
                    parsed?.();
                }
            });
        }
    }

    /**
     * Earlier output, shown to a window that (re)attaches: the screen starts clean and shows it, but
     * its notifications and clipboard writes are not acted on again — they were, in the windows that
     * were there (and a flood of them in the history must not greet every new window).
     */
    replay(data: string): void {
        this.clear();
        this.replaying++;
        this.osc.muted = true;
        this.write(data, () => {
            if (--this.replaying === 0) {
                this.osc.muted = false;
            }
        });
    }

    /** Keep the final screen and say how the session ended. */
    writeExitBanner(text: string): void {
        this.flushPending();
        this.term.write(`\r\n\x1b[0m\x1b[2m${text.replace(/[\x00-\x1f\x7f]/g, '')}\x1b[0m\r\n`);
    }

    focus(): void {
        this.term.focus();
    }

    /** The selected text ('' when nothing is selected). */
    get selection(): string {
        return this.term.getSelection();
    }

    /** Paste as a terminal does (bracketed paste when the TUI asked for it). */
    paste(text: string): void {
        if (text) {
            this.term.paste(text);
        }
    }

    clear(): void {
        this.flushPending();
        this.term.reset();
    }

    setTheme(theme: ITheme): void {
        this.term.options.theme = theme;
    }

    /**
     * The host's terminal settings, now (they changed, or arrived after the view was made). Only what
     * differs is set; a new font or line height changes how many cells fit, so the view fits again and
     * the PTY takes the new size (a hidden view fits when it is shown).
     */
    setAppearance(appearance: TerminalAppearance): void {
        if (this.disposed) {
            return;
        }
        const next = this.appearanceOptions(appearance);
        const current = this.term.options as Record<string, unknown>;
        const changed = (Object.keys(next) as Array<keyof typeof next>).filter(key => current[key] !== next[key]);
        for (const key of changed) {
            current[key] = next[key];
        }
        if (appearance.gpuAcceleration !== this.gpuAcceleration) {
            this.gpuAcceleration = appearance.gpuAcceleration;
            this.applyRenderer();
        }
        if (changed.some(key => key === 'fontSize' || key === 'fontFamily' || key === 'lineHeight')) {
            // At once: a host that sends the appearance as the view says it is ready launches at the size fitted now.
            this.fitNow(true);
        }
    }

    /** The renderer drawing now (also the container's `data-sandy-renderer`). */
    get renderer(): TerminalRenderer {
        return this.webgl ? 'webgl' : 'dom';
    }

    /**
     * WebGL or the DOM, as the user's `terminal.integrated.gpuAcceleration` and the page's GPU decide. A WebGL
     * renderer that cannot start, whose context is lost, or whose glyph atlas outgrows its budget gives way to the
     * DOM renderer (xterm draws the same cells with it at once); after a lost context `auto` keeps the DOM in this page.
     */
    protected applyRenderer(): void {
        const wanted = this.atlasOverrun ? 'dom' : chooseTerminalRenderer(this.gpuAcceleration, probeWebgl, webglLostInPage());
        if (wanted === 'webgl' && !this.webgl && acquireWebglView()) {
            const before = new Set(this.container.querySelectorAll<HTMLCanvasElement>('canvas'));
            const made = () => [...this.container.querySelectorAll<HTMLCanvasElement>('canvas')].filter(c => !before.has(c));
            let addon: WebglAddon | undefined;
            try {
                addon = new WebglAddon();
                this.term.loadAddon(addon);
            } catch {
                // Half made (a context that could not compile its shaders): dropped as any renderer is, and any canvas it left goes too.
                const left = made();
                if (addon) {
                    this.webgl = addon;
                    this.webglCanvases = left;
                    this.dropWebgl();
                } else {
                    releaseWebglView();
                }
                left.forEach(c => c.remove());
                noteWebglLost();
                return;
            }
            const webgl = addon;
            this.webgl = webgl;
            // Its canvases, now: dropping it frees their contexts (and only theirs).
            this.webglCanvases = made();
            webgl.onContextLoss(() => {
                noteWebglLost();
                this.dropWebgl();
            });
            this.watchAtlas(webgl);
        } else if (wanted === 'dom') {
            this.dropWebgl();
        }
        this.container.dataset.sandyRenderer = this.renderer;
    }

    /**
     * The live pages of the renderer's glyph atlas (a new atlas — another font, theme or zoom — starts the count
     * again); past {@link ATLAS_BUDGET_PIXELS} this view draws with the DOM for the rest of its life. The pages are
     * not cleared: other WebGL views with the same font share them, and the last view to drop the atlas frees it.
     */
    protected watchAtlas(webgl: WebglAddon): void {
        const pages = new Set<HTMLCanvasElement>();
        const check = () => {
            let pixels = 0;
            pages.forEach(c => pixels += c.width * c.height);
            if (pixels > ATLAS_BUDGET_PIXELS && !this.atlasOverrun) {
                this.atlasOverrun = true;
                // After the frame being drawn (the renderer is inside it now).
                setTimeout(() => {
                    if (this.webgl === webgl) {
                        this.dropWebgl();
                    }
                });
            }
        };
        webgl.onChangeTextureAtlas(canvas => {
            pages.clear();
            pages.add(canvas);
            check();
        });
        webgl.onAddTextureAtlasCanvas(canvas => {
            pages.add(canvas);
            check();
        });
        // In the addon, not in its typings (0.18): a page merged into a larger one.
        (webgl as unknown as { onRemoveTextureAtlasCanvas?: (listener: (canvas: HTMLCanvasElement) => void) => unknown })
            .onRemoveTextureAtlasCanvas?.(canvas => pages.delete(canvas));
    }

    protected dropWebgl(): void {
        const addon = this.webgl;
        if (!addon) {
            return;
        }
        this.webgl = undefined;
        // Taken while its canvases are still in the view: disposing removes them but leaves their contexts live until collected.
        const contexts = webglContextsOf(this.webglCanvases);
        this.webglCanvases = [];
        try {
            addon.dispose();
        } catch {
            // Gone with its context either way.
        }
        loseContexts(contexts);
        releaseWebglView();
        this.container.dataset.sandyRenderer = this.renderer;
    }

    protected appearanceOptions(a: TerminalAppearance): Required<Pick<ITerminalOptions, 'cursorBlink' | 'cursorStyle' | 'fontSize' | 'fontFamily' | 'lineHeight'>> {
        return {
            cursorBlink: a.cursorBlink,
            cursorStyle: a.cursorStyle,
            // The family checked here, the one way into xterm in both hosts (the host's fallback too: VS Code's editor
            // font, which a workspace can set): xterm writes it into a <style> element's text.
            ...terminalFont(a, this.options)
        };
    }

    protected scheduleFit(): void {
        if (this.resizeTimer) {
            clearTimeout(this.resizeTimer);
        }
        this.resizeTimer = setTimeout(() => this.fitNow(true), 30);
    }

    protected fitNow(notify: boolean): void {
        if (this.disposed || !this.container.isConnected || this.container.clientWidth === 0 || this.container.clientHeight === 0) {
            // Hidden (a background tab): keep the last size rather than collapsing the PTY.
            return;
        }
        try {
            this.fitAddon.fit();
        } catch {
            return;
        }
        const size = { cols: this.term.cols, rows: this.term.rows };
        if (notify && this.transport && (!this.lastSize || this.lastSize.cols !== size.cols || this.lastSize.rows !== size.rows)) {
            this.lastSize = size;
            this.transport.resize(size.cols, size.rows);
        }
    }

    /** Parsed output goes back to the backend as acknowledgements in batches. */
    protected readonly acks = new AckBatcher(chars => this.transport?.acknowledge(chars));

    dispose(): void {
        if (this.disposed) {
            return;
        }
        this.acks.dispose();
        this.disposed = true;
        if (this.pendingTimer) {
            clearTimeout(this.pendingTimer);
        }
        this.pending.splice(0).forEach(h => h.parsed?.());
        this.resizeObserver.disconnect();
        if (this.resizeTimer) {
            clearTimeout(this.resizeTimer);
        }
        for (const d of this.disposables) {
            d.dispose();
        }
        this.dropWebgl();
        this.term.dispose();
    }
}

/** Whether the page runs on macOS (its IDE keys are spelt with Cmd). */
export function isMacPlatform(): boolean {
    return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}
