import type { SessionInfo } from '../session/session-types';
import type { ApprovalRequest } from '../approvals/approval-model';
import { launchUntilCleared, LaunchClearance } from '../session/launch-flow';
import { problemText, toProblem } from '../service/service-protocol';
import type { SandyService } from '../service/service-protocol';
import type { HostUi } from '../host/host-ui';
import {
    describeExit, NOT_APPROVED_TEXT, launchFailedText, launchWarningText, notLaunchedText, RESTORED_SESSION_ENDED_TEXT, problemNoticeText,
    SESSION_ENDED_TEXT, SESSION_GONE_TEXT, terminalCaption, terminalTitle
} from '../host/labels';
import { DisposableLike, EventLike, SimpleEmitter } from '../base/event';
import type { TerminalNotification } from './osc-dispatch';
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
    /** The line above the terminal; undefined hides it. `relaunch` offers the Relaunch button. */
    banner(text: string | undefined, relaunch: boolean): void;
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
export type TerminalSessionService = Pick<SandyService, 'launch' | 'sessions' | 'resize' | 'forgetSession'>;

export interface TerminalSessionDeps {
    service: TerminalSessionService;
    ui: Pick<HostUi, 'warn' | 'error'>;
    /** Pre-flight again (the host's approval view) when the files changed since the user approved. */
    clear(workspace: string, request: ApprovalRequest): Promise<LaunchClearance | undefined>;
    surface: TerminalSurface;
    streams: SessionStreams;
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

    get hasUnreadNotification(): boolean {
        return this.unread;
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
            const existing = (await this.deps.service.sessions().catch(() => [] as SessionInfo[])).find(s => s.id === id);
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
        const size = this.deps.surface.measure();
        if (!size) {
            // Not laid out yet: the host's next start() launches (the spec forbids a default size).
            this.startedFlag = false;
            return;
        }
        this.launchingFlag = true;
        this.deps.surface.banner(undefined, false);
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
                this.deps.surface.banner(NOT_APPROVED_TEXT, true);
                return;
            }
            if (outcome.kind === 'refused') {
                this.deps.surface.exitBanner(notLaunchedText(outcome.problem.message));
                this.deps.surface.banner(problemText(outcome.problem), true);
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
                this.deps.surface.banner(text, true);
            }
        } finally {
            this.launchingFlag = false;
        }
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
        this.setSession(info);
        const text = describeExit(info);
        this.deps.surface.exitBanner(text);
        this.deps.surface.banner(text, true);
    }

    protected showEnded(line: string): void {
        this.deps.surface.exitBanner(line);
        this.deps.surface.banner(SESSION_ENDED_TEXT, true);
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
        if (this.current?.id === info.id) {
            this.setSession(info);
        }
    }

    protected setSession(info: SessionInfo): void {
        this.current = info;
        this.updateTitle();
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
        this.disconnect();
        this.onDidDisposeEmitter.fire();
        this.onDidNotifyEmitter.dispose();
        this.onDidChangeSessionEmitter.dispose();
        this.onDidDisposeEmitter.dispose();
    }
}
