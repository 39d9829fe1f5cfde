import { systemTimers, Timers } from '../base/timers';
import type { DisposableLike, EventLike } from '../base/event';
import type { SandyService } from '../service/service-protocol';
import { problemText, toProblem } from '../service/service-protocol';
import type { SessionTabs } from '../terminal/session-tabs';
import type { SessionInfo } from './session-types';
import type { DashboardSnapshot } from './dashboard-types';
import { dashboardSessionGoneText } from '../host/labels';

/** The dashboard asks the backend again this often while it is visible. */
export const DASHBOARD_REFRESH_MS = 3_000;
/** A burst of session changes becomes one early refresh, this long after the last of them. */
export const DASHBOARD_CHANGE_DEBOUNCE_MS = 300;

/** What the controller needs of the view (core's DashboardView, directly or behind a webview). */
export interface DashboardViewPort {
    show(snapshot: DashboardSnapshot): void;
    /** The backend could not be asked: said on the view, the last tiles kept. */
    showProblem(text: string): void;
}

/** The controller's timers (core's one-shot timers; a spec's fake ones). */
export type DashboardTimers = Timers;

export interface DashboardControllerDeps {
    service: Pick<SandyService, 'dashboard' | 'sessions'>;
    /** The window's sandy tabs: a tile's click shows its session's tab (opened on it when there is none). */
    tabs: Pick<SessionTabs, 'attach'>;
    view: DashboardViewPort;
    /** The window's session changes (an early refresh, debounced). */
    onDidChangeSession?: EventLike<SessionInfo>;
    timers?: DashboardTimers;
    refreshMs?: number;
    debounceMs?: number;
}

/**
 * The Sessions dashboard's decisions, for both hosts: it asks the backend every
 * {@link DASHBOARD_REFRESH_MS} only while the dashboard is visible (nothing while it is hidden), one
 * request at a time; a session change while visible brings the next refresh forward (debounced); a
 * tile's click shows that session's tab.
 */
export class DashboardController implements DisposableLike {
    protected visible = false;
    protected disposed = false;
    protected timer: unknown;
    protected inFlight: Promise<void> | undefined;
    /** A refresh was asked for while one ran: it runs once that one ends. */
    protected again = false;
    /** A session changed while a refresh ran: the next one is early. */
    protected changed = false;
    protected readonly timers: DashboardTimers;
    protected readonly subscription: DisposableLike | undefined;

    constructor(protected readonly deps: DashboardControllerDeps) {
        this.timers = deps.timers ?? systemTimers;
        this.subscription = deps.onDidChangeSession?.(() => this.sessionChanged());
    }

    get isVisible(): boolean {
        return this.visible;
    }

    /** The dashboard became visible (refresh now, then every few seconds) or hidden (stop asking). */
    setVisible(visible: boolean): void {
        if (this.disposed || visible === this.visible) {
            return;
        }
        this.visible = visible;
        this.cancelTimer();
        if (visible) {
            void this.refresh();
        }
    }

    /** A session changed: while visible, refresh soon (a burst of changes is one refresh). */
    sessionChanged(): void {
        if (!this.visible || this.disposed) {
            return;
        }
        if (this.inFlight) {
            // What it answers may predate the change: the next one comes early.
            this.changed = true;
            return;
        }
        this.schedule(this.deps.debounceMs ?? DASHBOARD_CHANGE_DEBOUNCE_MS);
    }

    /** Ask the backend now and show the answer; then the next refresh is scheduled (while visible). */
    refresh(): Promise<void> {
        if (this.inFlight) {
            this.again = true;
            return this.inFlight;
        }
        this.cancelTimer();
        this.inFlight = (async () => {
            try {
                const snapshot = await this.deps.service.dashboard();
                if (!this.disposed) {
                    this.deps.view.show(snapshot);
                }
            } catch (e) {
                if (!this.disposed) {
                    this.deps.view.showProblem(problemText(toProblem(e)));
                }
            } finally {
                this.inFlight = undefined;
            }
            if (this.again && this.visible && !this.disposed) {
                this.again = false;
                await this.refresh();
            } else {
                const early = this.changed;
                this.again = false;
                this.changed = false;
                this.schedule(early ? this.deps.debounceMs ?? DASHBOARD_CHANGE_DEBOUNCE_MS : this.deps.refreshMs ?? DASHBOARD_REFRESH_MS);
            }
        })();
        return this.inFlight;
    }

    /** A tile was clicked (or Enter on it): its session's tab, revealed or opened on it. */
    async open(sessionId: string): Promise<void> {
        if (typeof sessionId !== 'string') {
            return;
        }
        const session = (await this.deps.service.sessions()).find(s => s.id === sessionId);
        if (!session) {
            this.deps.view.showProblem(dashboardSessionGoneText());
            void this.refresh();
            return;
        }
        await this.deps.tabs.attach(session);
    }

    dispose(): void {
        this.disposed = true;
        this.visible = false;
        this.cancelTimer();
        this.subscription?.dispose();
    }

    protected schedule(ms: number): void {
        if (!this.visible || this.disposed || this.inFlight) {
            return;
        }
        this.cancelTimer();
        this.timer = this.timers.setTimeout(() => {
            this.timer = undefined;
            if (this.visible && !this.disposed) {
                void this.refresh();
            }
        }, ms);
    }

    protected cancelTimer(): void {
        if (this.timer !== undefined) {
            this.timers.clearTimeout(this.timer);
            this.timer = undefined;
        }
    }
}
