import type { SessionInfo } from '../session/session-types';
import type { ApprovalRequest } from '../approvals/approval-model';
import { launchUntilCleared, LaunchClearance } from '../session/launch-flow';
import { problemText, toProblem } from '../service/service-protocol';
import type { SandyService } from '../service/service-protocol';
import type { HostUi } from '../host/host-ui';
import {
    describeExit, NOT_APPROVED_TEXT, launchFailedText, launchWarningText, notLaunchedText, RESTORED_SESSION_ENDED_TEXT, problemNoticeText,
    SESSION_ENDED_TEXT, SESSION_GONE_TEXT, terminalCaption, terminalTitle, RELAUNCH_LABEL, TERMINAL_ACTIONS, sessionLinkBanner, CLOSED_GATE_TEXT
} from '../host/labels';
import { DisposableLike, EventLike, SimpleEmitter } from '../base/event';
import type { TerminalNotification } from './osc-dispatch';
import type { AreaSizes } from './area-sizes';
import type { SessionTab } from './session-tabs';

/**
 * One sandy terminal tab's life, written once for every host: attach to a session or launch one
 * (through the launch flow's re-approval loop, with the one-shot clearance pre-flight gave), show
 * how it ended and offer Relaunch, mark notifications unread while the tab is not looked at, and
 * restore after a reload without ever launching by itself. The tab only views the session: closing
 * it detaches (the process lives on), Stop is an explicit command.
 *
 * The host supplies the view ({@link TerminalSurface}: the Theia widget with xterm, the VS Code
 * webview panel) and the byte stream ({@link SessionStreams}: Theia's raw channel, the plugin's
 * in-process supervisor); the view hands its input, acknowledgements and resizes to
 * {@link TerminalSession.input}, {@link TerminalSession.acknowledge} and {@link TerminalSession.resize}.
 */

export interface TerminalSize {
    cols: number;
    rows: number;
}

/** What a tab's view does for its controller. */
export interface TerminalSurface {
    /** The view's size, measured now; undefined while it is not laid out (hidden, not yet shown). */
    measure(): TerminalSize | undefined;
    /**
     * The part of the window the tab is in, whose tabs share one size (Theia's shell area, a VS Code
     * editor column); undefined when unknown. With {@link TerminalSessionDeps.sizes}: a tab that is not
     * laid out launches at its area's size ({@link AreaSizes}).
     */
    area?(): string | undefined;
    /** The view takes this size before it is laid out (it launched at its area's size). */
    sizeTo?(size: TerminalSize): void;
    /** Whether the user is looking at the tab (a notification then is read at once). */
    focused(): boolean;
    /** The tab's title and its hover text (a host without captions may log it). */
    setTitle(label: string, caption: string): void;
    /** An empty screen (before a relaunch). */
    clear(): void;
    /** Earlier output on (re)attach: the screen starts clean, then shows it (its OSC side effects muted). */
    replay(data: string): void;
    write(data: string): void;
    /** A line written into the terminal (how the session ended, why nothing runs). */
    exitBanner(text: string): void;
    /**
     * The line above the terminal; undefined hides it. `action`: the label of its one button
     * (Relaunch, Take Back, Attach, Stop); a click calls {@link TerminalSession.bannerAction}.
     */
    banner(text: string | undefined, action?: string): void;
    /** Close the tab (the host then disposes the controller; the session keeps running). */
    close(): void;
}

/** Where a stream delivers a session's output. */
export interface SessionStreamSink {
    replay(data: string): void;
    data(data: string): void;
    exit(info: SessionInfo): void;
}

/** One attached stream of a session: input and acknowledgements go back on it. */
export interface SessionStream extends DisposableLike {
    write(data: string): void;
    /** The view rendered this many characters (back-pressure). */
    acknowledge(chars: number): void;
}

/** The host's byte streams of sessions. */
export interface SessionStreams {
    connect(sessionId: string, sink: SessionStreamSink): SessionStream;
}

/** What a tab needs of the sandy service. */
export type TerminalSessionService = Pick<SandyService, 'launch' | 'sessions' | 'resize' | 'forgetSession' | 'takeBack' | 'stop'>;

export interface TerminalSessionDeps {
    service: TerminalSessionService;
    ui: Pick<HostUi, 'warn' | 'error'>;
    /** Pre-flight again (the host's approval view) when the files changed since the user approved. */
    clear(workspace: string, request: ApprovalRequest): Promise<LaunchClearance | undefined>;
    surface: TerminalSurface;
    streams: SessionStreams;
    /** The window's sizes by area (one per window); absent: a tab launches only once laid out itself. */
    sizes?: AreaSizes;
}

export interface TerminalSessionOptions {
    /** Canonical workspace folder of the project. */
    workspace: string;
    /** A live session to attach to; absent: launch one when the tab starts. */
    sessionId?: string;
    /** The one-shot clearance of the first launch (never stored, never reused by a relaunch). */
    clearance?: LaunchClearance;
}

/** What a tab keeps across a reload (never a clearance). */
export interface TerminalSessionState {
    workspace: string;
    sessionId?: string;
}

const ignore = (): void => undefined;

export class TerminalSession implements SessionTab, DisposableLike {
    protected currentWorkspace: string;
    /** The session to attach to on start (a tab opened on it, or restored after a reload). */
    protected attachTo: string | undefined;
    protected current: SessionInfo | undefined;
    protected clearance: LaunchClearance | undefined;
    /** Recreated from the saved layout (page reload): reattach if possible, never launch by itself. */
    protected restored = false;
    protected startedFlag = false;
    protected launchingFlag = false;
    protected unread = false;
    protected disposed = false;
    protected stream: SessionStream | undefined;
    /** Identifies the current stream: output of a replaced one is dropped. */
    protected streamToken: object | undefined;
    /** What the banner's button does now. */
    protected action: 'relaunch' | 'take-back' | 'stop' | undefined;
    /** Closed launch gates already said, per session (its id and start: a relaunch is a new session). */
    protected saidGates = new Set<string>();
    /** The end already shown (a stream's exit and a status event may both report it). */
    protected shownExit: string | undefined;
    /** Waiting for a tab of this tab's area to measure its size (this one could not: it is hidden). */
    protected sizeWait: DisposableLike | undefined;

    protected readonly onDidNotifyEmitter = new SimpleEmitter<TerminalNotification>();
    /** A notification (OSC 9 / 99 / 777) from the session, for the registry's toast. */
    readonly onDidNotify: EventLike<TerminalNotification> = this.onDidNotifyEmitter.event;
    protected readonly onDidChangeSessionEmitter = new SimpleEmitter<SessionInfo | undefined>();
    readonly onDidChangeSession: EventLike<SessionInfo | undefined> = this.onDidChangeSessionEmitter.event;
    protected readonly onDidDisposeEmitter = new SimpleEmitter<void>();
    /** The tab closed (the registry then says what became of its session). */
    readonly onDidDispose: EventLike<void> = this.onDidDisposeEmitter.event;

    constructor(options: TerminalSessionOptions, protected readonly deps: TerminalSessionDeps) {
        this.currentWorkspace = options.workspace;
        this.attachTo = options.sessionId;
        this.clearance = options.clearance;
        this.updateTitle();
    }

    get workspace(): string {
        return this.currentWorkspace;
    }

    /** The session the tab shows (undefined before its launch, or when none could be started). */
    get session(): SessionInfo | undefined {
        return this.current;
    }

    /** The id of the session the tab shows, or will attach to once it starts (a restored tab). */
    get sessionId(): string | undefined {
        return this.current?.id ?? this.attachTo;
    }

    get hasUnreadNotification(): boolean {
        return this.unread;
    }

    /** Whether the user sees the session now: the tab is visible and focused in a focused window. */
    get seen(): boolean {
        return !this.disposed && this.deps.surface.focused();
    }

    /** Whether {@link start} ran (a later start does nothing). */
    get started(): boolean {
        return this.startedFlag;
    }

    get launching(): boolean {
        return this.launchingFlag;
    }

    get isDisposed(): boolean {
        return this.disposed;
    }

    /** Pre-flight was settled before the tab (re)launches: the next launch carries this, no later one. */
    setClearance(clearance: LaunchClearance | undefined): void {
        this.clearance = clearance;
    }

    /**
     * The view is laid out: attach to the tab's session, or launch one. Once only; a tab restored
     * after a reload whose session is gone says so and waits for Relaunch.
     */
    async start(): Promise<void> {
        if (this.startedFlag || this.disposed) {
            return;
        }
        this.startedFlag = true;
        const id = this.attachTo;
        if (id && !this.current) {
            const sessions = await this.deps.service.sessions().catch(() => [] as SessionInfo[]);
            // Its own session, else the live one of its workspace (a foreground sandy of an IDE that
            // crashed comes back as an orphan under another id: the tab shows it, with Stop).
            // Only a session of the tab's own workspace (a restored state names both; they must agree).
            const existing = sessions.find(s => s.id === id && s.workspace === this.workspace)
                ?? sessions.find(s => s.workspace === this.workspace && s.status !== 'exited');
            if (this.disposed) {
                return;
            }
            if (existing) {
                this.setSession(existing);
                this.connect(existing.id);
                return;
            }
            this.attachTo = undefined;
            this.showEnded(SESSION_GONE_TEXT);
            return;
        }
        if (this.current) {
            return;
        }
        if (this.restored) {
            this.showEnded(RESTORED_SESSION_ENDED_TEXT);
            return;
        }
        await this.launch();
    }

    /** The view lost its screen (a webview page reloaded): attach again, the replay refills it. */
    reconnect(): void {
        if (!this.disposed && this.current && this.current.status !== 'exited') {
            this.connect(this.current.id);
        }
    }

    /** Launch again after the session ended (or none was started); nothing while one runs. */
    async relaunch(): Promise<void> {
        if (this.disposed || (this.current && this.current.status !== 'exited')) {
            return;
        }
        if (this.launchingFlag) {
            // The launch under way decides; a clearance given meanwhile is not kept for later.
            this.clearance = undefined;
            return;
        }
        this.restored = false;
        this.attachTo = undefined;
        if (this.current) {
            this.deps.service.forgetSession(this.current.id).catch(ignore);
        }
        this.disconnect();
        if (this.current) {
            this.current = undefined;
            this.updateTitle();
            this.onDidChangeSessionEmitter.fire(undefined);
        }
        this.deps.surface.clear();
        this.startedFlag = true;
        await this.launch();
    }

    protected async launch(): Promise<void> {
        if (this.launchingFlag || this.disposed) {
            return;
        }
        const size = this.launchSize();
        if (!size) {
            // Not laid out yet, nor any tab of its area: the host's next start() launches, or this one
            // once a tab of its area has measured (the spec forbids a default size).
            this.startedFlag = false;
            this.waitForAreaSize();
            return;
        }
        this.launchingFlag = true;
        this.showBanner(undefined);
        const clearance = this.clearance;
        this.clearance = undefined;
        try {
            // The files changed since the user approved, or nothing was approved yet: the flow asks (again).
            const outcome = await launchUntilCleared(this.workspace, clearance, {
                launch: request => this.deps.service.launch(request),
                measure: () => this.deps.surface.measure() ?? size,
                clear: (workspace, request) => this.deps.clear(workspace, request)
            });
            if (this.disposed) {
                // The tab closed meanwhile: a session started lives on (Reattach finds it), unviewed.
                return;
            }
            if (outcome.kind === 'not-approved') {
                this.deps.surface.exitBanner(NOT_APPROVED_TEXT);
                this.showBanner(NOT_APPROVED_TEXT, 'relaunch');
                return;
            }
            if (outcome.kind === 'refused') {
                this.deps.surface.exitBanner(notLaunchedText(outcome.problem.message));
                this.showBanner(problemText(outcome.problem), 'relaunch');
                this.deps.ui.error(problemNoticeText(outcome.problem)).catch(ignore);
                return;
            }
            if (outcome.kind === 'launched') {
                for (const warning of outcome.warnings) {
                    this.deps.ui.warn(launchWarningText(this.workspace, warning)).catch(ignore);
                }
            }
            // Launched, or already running (another window launched it first): show it.
            this.setSession(outcome.session);
            this.connect(outcome.session.id);
        } catch (e) {
            if (!this.disposed) {
                const text = launchFailedText(problemText(toProblem(e)));
                this.deps.surface.exitBanner(text);
                this.showBanner(text, 'relaunch');
            }
        } finally {
            this.launchingFlag = false;
        }
    }

    /**
     * The size to launch at: the view's own (noted as its area's), else, for a view that is not laid
     * out (opened, then covered by the next tab before it was drawn), that of the tabs of its area.
     */
    protected launchSize(): TerminalSize | undefined {
        const surface = this.deps.surface;
        const measured = surface.measure();
        const area = surface.area?.();
        if (measured) {
            if (area !== undefined) {
                this.deps.sizes?.note(area, measured);
            }
            return measured;
        }
        const borrowed = area !== undefined ? this.deps.sizes?.get(area) : undefined;
        if (borrowed) {
            surface.sizeTo?.(borrowed);
        }
        return borrowed;
    }

    protected waitForAreaSize(): void {
        const sizes = this.deps.sizes;
        if (!sizes || this.sizeWait || this.disposed) {
            return;
        }
        this.sizeWait = sizes.onDidMeasure(() => {
            this.sizeWait?.dispose();
            this.sizeWait = undefined;
            void this.start();
        });
    }

    protected connect(sessionId: string): void {
        this.disconnect();
        const token = {};
        this.streamToken = token;
        const live = (): boolean => this.streamToken === token && !this.disposed;
        const surface = this.deps.surface;
        const stream = this.deps.streams.connect(sessionId, {
            // A reconnect replays the recent screen: the view starts clean, so nothing shows twice.
            replay: data => {
                if (live()) {
                    surface.replay(data);
                }
            },
            data: data => {
                if (live()) {
                    surface.write(data);
                }
            },
            exit: info => {
                if (live()) {
                    this.handleExit(info);
                }
            }
        });
        if (!live()) {
            stream.dispose();
            return;
        }
        this.stream = stream;
        // The PTY follows this view (another window may have sized it): only when it is laid out.
        const size = surface.measure();
        if (size && this.current?.id === sessionId && this.current.status !== 'exited') {
            this.deps.service.resize(sessionId, size.cols, size.rows).catch(ignore);
        }
    }

    protected disconnect(): void {
        const stream = this.stream;
        this.stream = undefined;
        this.streamToken = undefined;
        stream?.dispose();
    }

    protected handleExit(info: SessionInfo): void {
        const key = `${info.id}:${info.startedAt}:${info.endedAt}`;
        this.setSession(info);
        if (this.shownExit === key) {
            return;
        }
        this.shownExit = key;
        const text = describeExit(info);
        this.deps.surface.exitBanner(text);
        this.showBanner(text, 'relaunch');
    }

    protected showEnded(line: string): void {
        this.deps.surface.exitBanner(line);
        this.showBanner(SESSION_ENDED_TEXT, 'relaunch');
    }

    protected showBanner(text: string | undefined, action?: 'relaunch' | 'take-back' | 'stop'): void {
        this.action = text ? action : undefined;
        const attachOnly = this.current?.link === 'detached';
        const label = action === 'relaunch' ? RELAUNCH_LABEL
            : action === 'take-back' ? (attachOnly ? TERMINAL_ACTIONS.attach : TERMINAL_ACTIONS.takeBack)
                : action === 'stop' ? TERMINAL_ACTIONS.stop : undefined;
        this.deps.surface.banner(text, text ? label : undefined);
    }

    /** The banner's button was clicked: Relaunch, Take Back (or Attach) the daemon session, or Stop an orphan. */
    async bannerAction(): Promise<void> {
        const session = this.current;
        switch (this.action) {
            case 'relaunch':
                return this.relaunch();
            case 'take-back':
                if (session) {
                    const info = await this.deps.service.takeBack(session.id).catch(e => {
                        this.deps.ui.error(problemNoticeText(toProblem(e))).catch(ignore);
                        return undefined;
                    });
                    if (info) {
                        this.setSession(info);
                    }
                }
                return;
            case 'stop':
                if (session) {
                    await this.deps.service.stop(session.id).catch(e => this.deps.ui.error(problemNoticeText(toProblem(e))).catch(ignore));
                }
                return;
            default:
                return;
        }
    }

    /** A live session's line above the terminal: how it is linked (daemon), what sandy closed, an orphan. */
    protected showLiveBanner(info: SessionInfo): void {
        for (const gate of info.closedGates ?? []) {
            const said = `${info.id}:${info.startedAt}:${gate}`;
            if (!this.saidGates.has(said)) {
                this.saidGates.add(said);
                this.deps.ui.warn(launchWarningText(this.workspace, CLOSED_GATE_TEXT[gate])).catch(ignore);
            }
        }
        const text = sessionLinkBanner(info) ?? (info.closedGates?.length ? CLOSED_GATE_TEXT[info.closedGates[0]] : undefined);
        const action = info.origin === 'orphan' ? 'stop'
            : info.mode === 'daemon' && info.status === 'running' && (info.link === 'elsewhere' || (info.link === 'detached' && !!text)) ? 'take-back'
                : undefined;
        this.showBanner(text, action);
    }

    /** Typed or pasted input from the view. */
    input(data: string): void {
        this.stream?.write(data);
    }

    /** The view rendered this many characters. */
    acknowledge(chars: number): void {
        this.stream?.acknowledge(chars);
    }

    /** The view was fitted to a new size: the running session's PTY follows. */
    resize(cols: number, rows: number): void {
        const area = this.deps.surface.area?.();
        if (area !== undefined && cols > 0 && rows > 0) {
            this.deps.sizes?.note(area, { cols, rows });
        }
        if (this.stream && this.current && this.current.status !== 'exited') {
            this.deps.service.resize(this.current.id, cols, rows).catch(ignore);
        }
    }

    /** A notification from the session's output (the view parsed it). */
    notify(notification: TerminalNotification): void {
        if (this.disposed) {
            return;
        }
        if (!this.deps.surface.focused()) {
            this.unread = true;
            this.updateTitle();
        }
        this.onDidNotifyEmitter.fire(notification);
    }

    /** The user looks at the tab (it was focused or activated). */
    clearUnread(): void {
        if (this.unread) {
            this.unread = false;
            this.updateTitle();
        }
    }

    /** Status changes made elsewhere (Stop from another window, the tree, the status bar) reach the tab. */
    updateSession(info: SessionInfo): void {
        if (this.current?.id !== info.id) {
            return;
        }
        const revived = this.current.status === 'exited' && info.status !== 'exited';
        if (this.current.status !== 'exited' && info.status === 'exited') {
            // Ended elsewhere (Stop from the tree, another window): its banner and Relaunch, as on a stream's exit.
            this.handleExit(info);
            return;
        }
        this.setSession(info);
        if (revived && !this.disposed) {
            // A daemon session's id is its workspace's: another window launched it again, so this tab shows it again.
            this.deps.surface.clear();
            this.connect(info.id);
        }
    }

    protected setSession(info: SessionInfo): void {
        this.current = info;
        this.updateTitle();
        if (info.status !== 'exited') {
            this.showLiveBanner(info);
        }
        this.onDidChangeSessionEmitter.fire(info);
    }

    protected updateTitle(): void {
        if (!this.disposed) {
            this.deps.surface.setTitle(terminalTitle(this.workspace, this.current, this.unread), terminalCaption(this.workspace, this.current));
        }
    }

    storeState(): TerminalSessionState {
        const sessionId = this.current ? (this.current.status !== 'exited' ? this.current.id : undefined) : this.attachTo;
        return sessionId ? { workspace: this.workspace, sessionId } : { workspace: this.workspace };
    }

    /** A tab recreated from the saved layout: it reattaches to its session if that still runs, never launches by itself. */
    restoreState(state: unknown): void {
        const stored = state as Partial<TerminalSessionState> | undefined;
        if (!stored || typeof stored.workspace !== 'string' || !stored.workspace) {
            return;
        }
        this.restored = true;
        this.currentWorkspace = stored.workspace;
        this.attachTo = typeof stored.sessionId === 'string' && stored.sessionId ? stored.sessionId : undefined;
        this.updateTitle();
    }

    /** Close the tab; a live session keeps running. */
    detach(): void {
        if (!this.disposed) {
            this.deps.surface.close();
        }
    }

    /** The tab closed: stop viewing (the session lives on). */
    dispose(): void {
        if (this.disposed) {
            return;
        }
        this.disposed = true;
        this.sizeWait?.dispose();
        this.sizeWait = undefined;
        this.disconnect();
        this.onDidDisposeEmitter.fire();
        this.onDidNotifyEmitter.dispose();
        this.onDidChangeSessionEmitter.dispose();
        this.onDidDisposeEmitter.dispose();
    }
}
