import type { SessionInfo } from '../session/session-types';
import type { LaunchClearance } from '../session/launch-flow';
import { toProblem } from '../service/service-protocol';
import type { SandyService, SessionNotification } from '../service/service-protocol';
import type { HostUi } from '../host/host-ui';
import { detachedText, notificationText, problemNoticeText, systemNotificationContent, TERMINAL_ACTIONS } from '../host/labels';
import { DisposableLike, EventLike, SimpleEmitter } from '../base/event';
import type { NotificationRenderer } from './notification-text';
import { NotificationCoalescer, NotificationCoalescerOptions } from './notification-coalescer';
import type { TerminalNotification } from './osc-dispatch';
import type { SessionTab, SessionTabs } from './session-tabs';
import type { TerminalSession } from './terminal-session';

/**
 * A window's sandy terminal tabs, written once for every host: find them by session or workspace,
 * open or reveal one, turn each tab's OSC notifications into toasts with a Show action (coalesced
 * per tab, as plain text, when `sandy.notifications` allows), and after a tab on a live session
 * closed say that it only detached, offering Reattach or Stop. The host creates, reveals and
 * closes the tabs ({@link TerminalTabsHost}); each tab carries its {@link TerminalSession}.
 */

/** A host's terminal tab (a widget, a webview panel): its controller is the {@link SessionTab} the commands see. */
export interface TerminalTab {
    readonly terminal: TerminalSession;
}

export interface TerminalTabOptions {
    workspace: string;
    /** Attach to this session; absent: the tab launches one. */
    sessionId?: string;
    /** The one-shot clearance of the tab's first launch (the host must never store it). */
    clearance?: LaunchClearance;
}

/** What the host does with tabs. */
export interface TerminalTabsHost<T extends TerminalTab> {
    /** A new tab (its controller starts once the view is laid out); the registry then reveals it. */
    createTab(options: TerminalTabOptions): Promise<T>;
    /** Show the tab and focus it. */
    reveal(tab: T): Promise<void>;
    /** Whether this is the tab the user is looking at (the window's current editor). */
    isActive(tab: T): boolean;
    /** How the host renders a notification message (Theia: 'markdown', VS Code: 'linked-text'). */
    readonly renderer: NotificationRenderer;
    /** A toast of a message already made safe for {@link renderer}; resolves with the action clicked. */
    toast(message: string, ...actions: string[]): Promise<string | undefined>;
    /** The `sandy.notifications` setting, read at each notification. */
    notificationsEnabled(): boolean;
    /** The desktop's notifications, where the host has them (the Sandy IDE; VS Code has no API for them). */
    readonly system?: SystemNotifications;
}

/**
 * System notifications: a toast is also shown on the desktop while the IDE's window does not have the
 * focus (the user is in another program) — at most one per session until the window has the focus
 * again — and a click on it shows the session as the toast's Show does.
 */
export interface SystemNotifications {
    /** `sandy.systemNotifications` within the notification settings (core's `systemNotificationsAllowed`), read at each notification. */
    enabled(): boolean;
    /** Whether the IDE's window has the focus now (then the toast is enough). */
    windowFocused(): boolean;
    /**
     * Shows one, text only ({@link systemNotificationContent}); a later one with the same `tag` (the
     * session's workspace) replaces it, from whichever window. Resolves true when the user clicked it,
     * false when it went away otherwise.
     */
    show(content: { title: string; body: string; tag: string }): Promise<boolean>;
}

export interface TerminalTabsDeps<T extends TerminalTab> {
    host: TerminalTabsHost<T>;
    service: Pick<SandyService, 'sessions' | 'stop' | 'forgetSession'>;
    ui: Pick<HostUi, 'info' | 'error'>;
    /** Session status changes from the service (another window's Stop, the tree, the status bar). */
    onSession?: EventLike<SessionInfo>;
    /**
     * Notifications the service parsed from a session's stream (never from a tab's replay): to the
     * session's tab when it has one (unread mark, then a toast), else a toast whose Show opens a tab.
     */
    onNotification?: EventLike<SessionNotification>;
    /** The notification coalescer's window and clock (tests). */
    coalescer?: NotificationCoalescerOptions;
    /**
     * The sessions this window shows to the user now, told on every change of the tabs or their
     * focus (the window state sends it on: seeing a session ends its wait in the attention queue).
     */
    seen?(sessionIds: string[]): void;
}

interface Entry {
    coalescer: NotificationCoalescer<TerminalNotification>;
    subscriptions: DisposableLike[];
}

export class TerminalTabs<T extends TerminalTab> implements SessionTabs, DisposableLike {
    protected readonly entries = new Map<T, Entry>();
    protected readonly onDidChangeEmitter = new SimpleEmitter<void>();
    /** A tab was added or closed, or its session changed. */
    readonly onDidChange: EventLike<void> = this.onDidChangeEmitter.event;
    protected readonly toDispose: DisposableLike[] = [];
    protected disposing = false;
    /** Toasts of sessions no tab of this window shows, coalesced per session. */
    protected readonly untabbed = new Map<string, NotificationCoalescer<TerminalNotification>>();
    /** The workspaces said on the desktop since the window last had the focus: one each until it has it again. */
    protected readonly onDesktop = new Set<string>();

    constructor(protected readonly deps: TerminalTabsDeps<T>) {
        if (deps.onSession) {
            this.toDispose.push(deps.onSession(session => {
                this.tabBySession(session.id)?.terminal.updateSession(session);
                if (session.status === 'exited') {
                    this.untabbed.get(session.id)?.dispose();
                    this.untabbed.delete(session.id);
                }
            }));
        }
        if (deps.onNotification) {
            this.toDispose.push(deps.onNotification(event => this.sessionNotified(event)));
        }
    }

    protected sessionNotified({ session, notification }: SessionNotification): void {
        const tab = this.tabBySession(session.id);
        // The user is looking at the session (in this window or another): the tab shows it, no toast.
        const seen = session.attention !== undefined && session.attention.state !== 'needs-you';
        if (tab) {
            tab.terminal.notify(notification);
            if (this.deps.host.notificationsEnabled() && !seen && !tab.terminal.seen) {
                this.entries.get(tab)?.coalescer.push(notification, notification.folded);
            }
            return;
        }
        // A session another window shows is that window's to say (its Show focuses the right tab);
        // one no window shows is said by every window, and Show opens it where it was clicked.
        if (!this.deps.host.notificationsEnabled() || session.attachedViews > 0 || seen) {
            return;
        }
        let coalescer = this.untabbed.get(session.id);
        if (!coalescer) {
            coalescer = new NotificationCoalescer<TerminalNotification>(({ latest, more }) => void this.toastUntabbed(session, latest, more), this.deps.coalescer);
            this.untabbed.set(session.id, coalescer);
        }
        coalescer.push(notification, notification.folded);
    }

    protected async toastUntabbed(session: SessionInfo, n: TerminalNotification, more: number): Promise<void> {
        const show = async (): Promise<void> => {
            if (!this.disposing) {
                const live = (await this.deps.service.sessions()).find(s => s.id === session.id && s.status !== 'exited');
                if (live) {
                    await this.attachTab(live);
                }
            }
        };
        const toast = this.deps.host.toast(notificationText(session.workspace, n, this.deps.host.renderer, more), TERMINAL_ACTIONS.show);
        this.toDesktop(session.workspace, n, more, show);
        if (await toast === TERMINAL_ACTIONS.show) {
            await show();
        }
    }

    /**
     * The toast's twin on the desktop, while the window has no focus, once per session until the window
     * has it again; its click does what the toast's Show does. Whatever the host's side does, the toast stands.
     */
    protected toDesktop(workspace: string, n: TerminalNotification, more: number, show: () => Promise<void>): void {
        const system = this.deps.host.system;
        try {
            if (!system || this.onDesktop.has(workspace) || !system.enabled() || system.windowFocused()) {
                return;
            }
            this.onDesktop.add(workspace);
            system.show({ ...systemNotificationContent(workspace, n, more), tag: `sandy:${workspace}` })
                .then(clicked => clicked ? show() : undefined)
                .catch(e => this.deps.ui.error(problemNoticeText(toProblem(e))));
        } catch (e) {
            this.deps.ui.error(problemNoticeText(toProblem(e)));
        }
    }

    get all(): T[] {
        return [...this.entries.keys()];
    }

    /** The tab the user is looking at. */
    get activeTab(): T | undefined {
        return this.all.find(tab => this.deps.host.isActive(tab));
    }

    get active(): SessionTab | undefined {
        return this.activeTab?.terminal;
    }

    /** Also a restored tab that has not attached yet: a second tab on the same session would be a duplicate. */
    tabBySession(sessionId: string): T | undefined {
        return this.all.find(tab => tab.terminal.sessionId === sessionId);
    }

    /** The workspace's tab on a live session, else its ended one. */
    tabByWorkspace(workspace: string): T | undefined {
        return this.all.find(tab => tab.terminal.workspace === workspace && tab.terminal.session?.status !== 'exited')
            ?? this.all.find(tab => tab.terminal.workspace === workspace);
    }

    findByWorkspace(workspace: string): SessionTab | undefined {
        return this.tabByWorkspace(workspace)?.terminal;
    }

    async openForWorkspace(workspace: string, clearance?: LaunchClearance): Promise<void> {
        await this.openTab(workspace, clearance);
    }

    /**
     * Reveal the workspace's tab, relaunching it with `clearance` if its session ended (or none was
     * started), or open a tab that launches with it.
     */
    async openTab(workspace: string, clearance?: LaunchClearance): Promise<T> {
        const existing = this.tabByWorkspace(workspace);
        if (!existing) {
            return this.create({ workspace, clearance });
        }
        await this.deps.host.reveal(existing);
        const session = existing.terminal.session;
        if (!session || session.status === 'exited') {
            existing.terminal.setClearance(clearance);
            void existing.terminal.relaunch();
        }
        return existing;
    }

    async attach(session: SessionInfo): Promise<void> {
        await this.attachTab(session);
    }

    /** Reveal the tab attached to this session, or open one on it. */
    async attachTab(session: SessionInfo): Promise<T> {
        const existing = this.tabBySession(session.id);
        if (!existing) {
            return this.create({ workspace: session.workspace, sessionId: session.id });
        }
        await this.deps.host.reveal(existing);
        return existing;
    }

    async reveal(tab: T): Promise<void> {
        await this.deps.host.reveal(tab);
    }

    /** Close the tab; its session keeps running. */
    detach(tab: T): void {
        tab.terminal.detach();
    }

    protected async create(options: TerminalTabOptions): Promise<T> {
        const tab = await this.deps.host.createTab(options);
        this.add(tab);
        await this.deps.host.reveal(tab);
        return tab;
    }

    /**
     * Take a tab into the registry: every tab the host creates, also those it restores after a
     * reload (they do not come through {@link openTab}). Idempotent.
     */
    add(tab: T): void {
        if (this.entries.has(tab) || tab.terminal.isDisposed) {
            return;
        }
        // One session's flood of notifications becomes a toast now and one per window after (core's coalescer).
        const coalescer = new NotificationCoalescer<TerminalNotification>(({ latest, more }) => void this.toast(tab, latest, more), this.deps.coalescer);
        const subscriptions = [
            tab.terminal.onDidChangeSession(() => this.fireChange()),
            tab.terminal.onDidDispose(() => this.closed(tab))
        ];
        this.entries.set(tab, { coalescer, subscriptions });
        this.fireChange();
    }

    /** Tell the listeners (the host calls it when the active tab, or the window's focus, changed). */
    fireChange(): void {
        // The user is back in this window: the next request of a session may reach the desktop again.
        try {
            if (this.onDesktop.size && this.deps.host.system?.windowFocused()) {
                this.onDesktop.clear();
            }
        } catch {
            // The host could not say: keep what was said.
        }
        this.deps.seen?.(this.all.filter(tab => tab.terminal.seen).flatMap(tab => tab.terminal.sessionId ?? []));
        this.onDidChangeEmitter.fire();
    }

    protected async toast(tab: T, n: TerminalNotification, more: number): Promise<void> {
        // The message is escaped for the host's renderer: it shows as sent and links nothing.
        const toast = this.deps.host.toast(notificationText(tab.terminal.workspace, n, this.deps.host.renderer, more), TERMINAL_ACTIONS.show);
        this.toDesktop(tab.terminal.workspace, n, more, async () => {
            if (this.entries.has(tab)) {
                await this.deps.host.reveal(tab);
            }
        });
        if (await toast === TERMINAL_ACTIONS.show && this.entries.has(tab)) {
            await this.deps.host.reveal(tab);
        }
    }

    protected closed(tab: T): void {
        const entry = this.entries.get(tab);
        if (!entry) {
            return;
        }
        this.entries.delete(tab);
        entry.coalescer.dispose();
        for (const s of entry.subscriptions) {
            s.dispose();
        }
        this.fireChange();
        if (!this.disposing) {
            this.afterClose(tab.terminal.session).catch(e => this.deps.ui.error(problemNoticeText(toProblem(e))));
        }
    }

    /** A closed tab only detaches: say so, and offer the way back (or out). An ended session is forgotten. */
    protected async afterClose(session: SessionInfo | undefined): Promise<void> {
        if (!session) {
            return;
        }
        if (session.status === 'exited') {
            await this.deps.service.forgetSession(session.id);
            return;
        }
        const action = await this.deps.ui.info(detachedText(session.workspace), TERMINAL_ACTIONS.reattach, TERMINAL_ACTIONS.stop);
        if (action === TERMINAL_ACTIONS.reattach) {
            const live = (await this.deps.service.sessions()).find(s => s.id === session.id && s.status !== 'exited');
            if (live) {
                await this.attachTab(live);
            }
        } else if (action === TERMINAL_ACTIONS.stop) {
            await this.deps.service.stop(session.id);
        }
    }

    /** The window goes away: close every tab, without asking about their sessions. */
    dispose(): void {
        if (this.disposing) {
            return;
        }
        this.disposing = true;
        for (const tab of this.all) {
            tab.terminal.detach();
        }
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        for (const c of this.untabbed.values()) {
            c.dispose();
        }
        this.untabbed.clear();
        this.onDidChangeEmitter.dispose();
    }
}
