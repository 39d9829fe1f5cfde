import * as path from 'path';
import * as vscode from 'vscode';
import { onDidChangeTerminalAppearance, PageAppearance } from './terminal-appearance';
import { AreaSizes, DEFAULT_IDE_KEYS, type Messenger, notificationsAllowed, parseMessage, problemText, toProblem, terminalCaption, TerminalSession, TerminalTabs, terminalTitle, workspaceLabel } from '@sandy-ui/core/common';
import type {
    ApprovalRequest, HostUi, LaunchClearance, SessionInfo, SessionStream, SessionStreamSink, TerminalSize, TerminalTab, TerminalTabOptions
} from '@sandy-ui/core/common';
import { attachmentStream, daemonSessionId } from '@sandy-ui/core/node';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { TERMINAL_VIEW_TYPE, terminalProtocol, terminalTabState, terminalToHost, terminalToView } from './webview/terminal-protocol';
import type { TerminalTabState } from './webview/terminal-protocol';
import { hostMessenger, webviewHtml, webviewOptions } from './webview-html';
import { openTerminalLink } from './links';
import { SandyState } from './sandy-state';
import { SandyLog } from './logger';
import { showInfo, showWarning, showError } from './messages';
import type { IdeKeyRelay } from './key-relay';

export { TERMINAL_VIEW_TYPE };

/** How long a new tab waits for the previous new tab's page to load before it opens anyway. */
export const PAGE_LOAD_WAIT_MS = 5_000;

/** The workspace-state key under which the window's sandy tabs are remembered ({@link TerminalPanels.reopenLostTabs}). */
export const REMEMBERED_TABS_KEY = 'sandy.terminalTabs';

export interface TerminalPanelsDeps {
    core: SandyServiceCore;
    state: SandyState;
    log: SandyLog;
    extensionUri: vscode.Uri;
    /** Pre-flight again (the approval webview) when the files changed since the user approved. */
    clearForLaunch(workspace: string, request: ApprovalRequest): Promise<LaunchClearance | undefined>;
    /** Where the window's sandy tabs are remembered (the extension's workspace state); none: not remembered. */
    memento?: vscode.Memento;
    /** Runs the Sandy command of an IDE key the browser keeps from VS Code (none: such keys do nothing). */
    keys?: IdeKeyRelay;
}

/** The plugin's messages as core's HostUi needs them (text only: messages.ts neutralises). */
const messagesUi: Pick<HostUi, 'info' | 'warn' | 'error'> = {
    info: async (message, ...actions) => showInfo(message, ...actions),
    warn: async (message, ...actions) => showWarning(message, ...actions),
    error: async (message, ...actions) => showError(message, ...actions)
};

const NO_STREAM: SessionStream = { write: () => undefined, acknowledge: () => undefined, dispose: () => undefined };

/**
 * sandy's TUI in a webview editor tab (core's SandyTerminalView in the page, the PTY in the
 * extension host's shared supervisor). Core's {@link TerminalSession} drives it; the panel is its
 * surface (messages to the page) and its stream (an attachment to the supervisor).
 */
export class SandyTerminalPanel implements TerminalTab, vscode.Disposable {
    readonly panel: vscode.WebviewPanel;
    readonly terminal: TerminalSession;
    /** The page, through the terminal protocol (core's messenger). */
    protected readonly page: Messenger<typeof terminalToView, typeof terminalToHost>;
    /** The page's last measured size (undefined until it is laid out). */
    protected size: TerminalSize | undefined;
    /** The page said `ready` (it is loaded and laid out). */
    protected pageReady = false;
    /** Settled once the page has said anything (its script runs), or the tab closed. */
    protected pageLoaded!: () => void;
    readonly whenPageLoaded = new Promise<void>(resolve => this.pageLoaded = resolve);
    /** VS Code brought the tab back after a window reload: it only reattaches ({@link startRestored}). */
    protected readonly restoredTab: boolean;
    protected caption: string;
    protected disposed = false;
    /** The state the page last saved (JSON), so an unchanged one is not sent again. */
    protected savedState: string | undefined;
    /** The ideKeys last sent to the page (a reloaded page is sent them again). */
    protected sentIdeKeys: string | undefined;
    /** The appearance as the page has it (a page that says `hello` is sent it again). */
    protected readonly appearance = new PageAppearance(a => this.page.notify('appearance', a));
    /** The page said `hello`: its script listens. */
    protected pageListening = false;
    protected readonly toDispose: vscode.Disposable[] = [];

    /**
     * A new tab, or (`restored`) the tab VS Code brought back after a window reload, with the state
     * its page saved — already checked by {@link TerminalPanels.restore}: it only reattaches.
     */
    constructor(
        protected readonly manager: TerminalPanels, protected readonly deps: TerminalPanelsDeps, options: TerminalTabOptions,
        restored?: { panel: vscode.WebviewPanel; state: TerminalTabState }
    ) {
        const opts = webviewOptions(deps.extensionUri, true);
        this.restoredTab = !!restored;
        if (restored) {
            this.panel = restored.panel;
            // A revived panel keeps its options from before the reload; they are ours to give again.
            this.panel.webview.options = opts;
        } else {
            this.panel = vscode.window.createWebviewPanel(TERMINAL_VIEW_TYPE, terminalTitle(options.workspace, undefined, false),
                { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, opts);
        }
        this.panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'sandy.svg');
        this.panel.webview.html = webviewHtml(this.panel.webview, deps.extensionUri, 'terminal', `sandy: ${workspaceLabel(options.workspace)}`);
        this.caption = terminalCaption(options.workspace, undefined);
        this.terminal = new TerminalSession(options, {
            service: deps.core,
            ui: messagesUi,
            clear: (workspace, request) => deps.clearForLaunch(workspace, request),
            surface: {
                measure: () => this.size,
                area: () => this.disposed ? undefined : `column ${this.panel.viewColumn ?? 'none'}`,
                focused: () => this.active && vscode.window.state.focused,
                setTitle: (label, caption) => this.setTitle(label, caption),
                clear: () => this.page.notify('clear'),
                replay: data => this.page.notify('replay', { data }),
                write: data => this.page.notify('data', { data }),
                exitBanner: text => this.page.notify('exitBanner', { text }),
                banner: (text, action) => this.page.notify('banner', text === undefined ? {} : { text, action }),
                // The window is going away (reload, close): the tab stays for VS Code to restore; only its controller ends.
                close: () => this.manager.windowClosing ? this.onClosed() : this.panel.dispose()
            },
            streams: { connect: (sessionId, sink) => this.connect(sessionId, sink) },
            sizes: manager.sizes
        });
        if (restored) {
            this.terminal.restoreState(restored.state);
        }
        const channel = hostMessenger(this.panel.webview, terminalProtocol, deps.log);
        this.page = channel.messenger;
        this.toDispose.push(channel);
        this.listen();
        this.toDispose.push(this.panel.onDidChangeViewState(() => {
            if (this.panel.active) {
                this.terminal.clearUnread();
            }
            this.manager.tabs.fireChange();
            this.startUnshown();
        }));
        this.toDispose.push(this.panel.onDidDispose(() => this.onClosed()));
        this.toDispose.push({ dispose: () => this.pageLoaded() });
        this.toDispose.push(vscode.window.onDidChangeActiveColorTheme(() => this.page.notify('theme')));
        this.toDispose.push(this.terminal.onDidChangeSession(() => this.saveState()));
        const configuration = deps.state.onDidChange(() => this.sendIdeKeys());
        this.toDispose.push({ dispose: () => configuration.dispose() });
        this.toDispose.push(onDidChangeTerminalAppearance(() => this.sendAppearance()));
    }

    /**
     * A restored tab reattaches at once, before its page is shown: VS Code loads a background tab's
     * page only when the user shows it, and until then its title, the tree and a second Reattach must
     * already see it on its session. Attaching needs no size; the page's `ready` then replays the screen.
     */
    startRestored(): void {
        void this.terminal.start().then(() => this.saveState());
    }

    /**
     * A new tab covered by another before its page was laid out (ten quick clicks down the Projects
     * list, or the user clicking elsewhere while the page loads) gets no animation frame from Chromium
     * while it is hidden, so its page does not say `ready`. It starts anyway: core launches it at the
     * size of the sandy tabs of its editor column ({@link AreaSizes}; never a default size), or once
     * one of them has measured. Its page, once shown, attaches again and the replay fills it.
     */
    protected startUnshown(): void {
        if (!this.disposed && !this.restoredTab && !this.pageReady && !this.terminal.started && !this.panel.visible) {
            void this.terminal.start().then(() => this.saveState());
        }
    }

    /** The page keeps the tab's state (workspace, live session) for VS Code to hand back after a window reload. */
    protected saveState(): void {
        if (this.disposed) {
            return;
        }
        const state = this.terminal.storeState();
        this.manager.remember(state);
        const json = JSON.stringify(state);
        if (json !== this.savedState) {
            this.savedState = json;
            this.page.notify('state', state);
        }
    }

    get sessionInfo(): SessionInfo | undefined {
        return this.terminal.session;
    }

    get active(): boolean {
        return !this.disposed && this.panel.active;
    }

    get hasUnreadNotification(): boolean {
        return this.terminal.hasUnreadNotification;
    }

    /** The title as the user sees it (tests read it; `● ` marks an unread notification). */
    get title(): string {
        return this.panel.title;
    }

    reveal(): void {
        this.panel.reveal(undefined, false);
        this.page.notify('focus');
    }

    /** Detach: close the tab, keep the process. */
    dispose(): void {
        this.panel.dispose();
    }

    protected setTitle(label: string, caption: string): void {
        if (this.disposed) {
            return;
        }
        this.panel.title = label;
        if (caption !== this.caption) {
            // Webview panels have no caption: the log keeps the pid findable.
            this.caption = caption;
            this.deps.log.info(`sandy terminal: ${caption}`);
        }
    }

    /** The user's `sandy.terminal.ideKeys` to the page (on load, and when the user changes them). */
    protected sendIdeKeys(): void {
        const keys = this.deps.state.configuration?.ideKeys;
        const text = JSON.stringify(keys ?? null);
        if (this.pageReady && text !== this.sentIdeKeys) {
            this.sentIdeKeys = text;
            this.page.notify('ideKeys', { keys: keys ?? [...DEFAULT_IDE_KEYS], relay: this.deps.keys?.relayBindings() ?? [] });
        }
    }

    /** VS Code's terminal settings (font, cursor), read and checked by core, when they differ from what the page has. */
    protected sendAppearance(): void {
        if (this.pageListening || this.pageReady) {
            this.appearance.update();
        }
    }

    /** What the page says: already parsed against the terminal protocol (refusals are logged, never thrown). */
    protected listen(): void {
        // A (re)loaded page: it measures once it has the appearance (the font decides its size).
        this.page.onNotification('hello', () => {
            this.pageListening = true;
            this.pageLoaded();
            this.appearance.reset();
            this.sendAppearance();
        });
        this.page.onNotification('ready', ({ cols, rows }) => {
            this.size = { cols, rows };
            this.pageReady = true;
            this.sentIdeKeys = undefined;
            this.pageLoaded();
            this.sendAppearance();
            // Before any output: which file links are links is the session's workspace's business.
            this.page.notify('links', { workspace: this.terminal.workspace });
            this.sendIdeKeys();
            // A (re)loaded page may have missed what was sent before it listened.
            this.savedState = undefined;
            this.saveState();
            if (!this.terminal.started) {
                // What the page saves follows the session the start found or launched (none if it ended).
                void this.terminal.start().then(() => this.saveState());
            } else {
                // The page was reloaded, or is shown for the first time after its tab launched hidden:
                // the PTY takes the page's size, and attaching again replays the screen into it.
                this.terminal.resize(cols, rows);
                this.terminal.reconnect();
            }
        });
        this.page.onNotification('input', ({ data }) => this.terminal.input(data));
        this.page.onNotification('ack', ({ chars }) => this.terminal.acknowledge(chars));
        this.page.onNotification('resize', ({ cols, rows }) => {
            this.size = { cols, rows };
            this.pageLoaded();
            this.terminal.resize(cols, rows);
        });
        this.page.onNotification('clipboard', ({ text }) => void vscode.env.clipboard.writeText(text));
        this.page.onNotification('openLink', ({ uri }) => void openTerminalLink(uri, this.terminal.workspace));
        this.page.onNotification('bannerAction', () => void this.terminal.bannerAction());
        this.page.onNotification('ideKey', ({ mac, ...chord }) => {
            const command = this.deps.keys?.pressed(chord, mac, { active: this.panel.active, ideKeys: this.deps.state.configuration?.ideKeys });
            if (command) {
                this.deps.log.info(`sandy terminal: ${command} by its key (VS Code in a browser does not pass it on from a webview)`);
            }
        });
    }

    /** The session's stream: an attachment to the in-process supervisor (core's attachmentStream), its output batched for the page. */
    protected connect(sessionId: string, sink: SessionStreamSink): SessionStream {
        const supervisor = this.deps.core.supervisor;
        if (!supervisor.get(sessionId)) {
            return NO_STREAM;
        }
        return attachmentStream(() => supervisor.attach(sessionId), sink, {
            warn: line => this.deps.log.warn(line),
            session: () => supervisor.get(sessionId)
        });
    }

    protected onClosed(): void {
        if (this.disposed) {
            return;
        }
        this.disposed = true;
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        if (!this.manager.windowClosing) {
            // The user closed it: a later window does not bring it back.
            this.manager.forget(this.terminal.workspace);
        }
        // The registry hears it, and says what became of the session.
        this.terminal.dispose();
    }
}

/** The window's sandy terminal tabs: core's {@link TerminalTabs} registry over webview panels. */
export class TerminalPanels implements vscode.Disposable {
    /** The registry, as core's SessionTabs port. */
    readonly tabs: TerminalTabs<SandyTerminalPanel>;
    /** Set when the extension deactivates (window reload or close): tabs are left for VS Code to restore. */
    windowClosing = false;
    /** The size the sandy tabs of each editor column last measured (a tab covered before its page loaded launches at it). */
    readonly sizes = new AreaSizes();
    /** Settles when the last new tab's page has loaded (or closed, or {@link PAGE_LOAD_WAIT_MS} passed). */
    protected lastPageLoaded: Promise<void> = Promise.resolve();
    /** New tabs not yet created, by workspace. */
    protected readonly pending = new Map<string, Promise<SandyTerminalPanel>>();
    /** The window's sandy tabs and their sessions, by workspace, as the workspace state keeps them. */
    protected readonly remembered = new Map<string, TerminalTabState>();
    /** What the workspace state held when the window opened (checked before use: {@link reopenLostTabs}). */
    protected readonly rememberedAtStart: unknown[];
    protected readonly windowFocus: vscode.Disposable;

    constructor(protected readonly deps: TerminalPanelsDeps) {
        const saved = deps.memento?.get<unknown>(REMEMBERED_TABS_KEY);
        this.rememberedAtStart = Array.isArray(saved) ? saved.slice(0, 64) : [];
        this.tabs = new TerminalTabs<SandyTerminalPanel>({
            host: {
                createTab: options => this.createTab(options),
                reveal: async panel => panel.reveal(),
                isActive: panel => panel.active,
                // VS Code renders `[label](command:…)` as a link: core breaks every such token, the text shows as sent.
                renderer: 'linked-text',
                toast: async (message, ...actions) => showInfo(message, ...actions),
                notificationsEnabled: () => notificationsAllowed(deps.state.configuration)
            },
            service: deps.core,
            ui: messagesUi,
            // Status changes made elsewhere (Stop from the tree, the status bar) reach the tab.
            onSession: deps.state.onDidChangeSession,
            // Parsed once by core's supervisor from the session's stream: a replay never notifies again.
            onNotification: deps.state.onDidNotify,
            seen: ids => deps.state.setSeen(ids)
        });
        // Which tab the user looks at: the panels' view states (each panel says), and the window's focus.
        this.windowFocus = vscode.window.onDidChangeWindowState(() => this.tabs.fireChange());
    }

    /**
     * A new tab opens once the previous new tab's page has loaded. In the browser (code-server,
     * vscode.dev) each webview that opens registers VS Code's webview service worker again, and
     * webviews opened within the same moment race each other's registration: ten quick launches left
     * tabs whose webview never got its page (blank for good, nothing to click; microsoft/vscode#326544
     * is the same worker losing its pages). One page at a time does not race; a page that does not
     * load holds the next tab back for {@link PAGE_LOAD_WAIT_MS} at most. A second request for a
     * workspace whose tab is still waiting gets that tab.
     */
    protected createTab(options: TerminalTabOptions): Promise<SandyTerminalPanel> {
        const waiting = this.pending.get(options.workspace);
        if (waiting) {
            return waiting;
        }
        const created = this.lastPageLoaded.then(() => {
            if (this.windowClosing) {
                throw new Error('the window is closing');
            }
            return new SandyTerminalPanel(this, this.deps, options);
        });
        this.pending.set(options.workspace, created);
        this.lastPageLoaded = created.then(tab => Promise.race([tab.whenPageLoaded, new Promise<void>(r => setTimeout(r, PAGE_LOAD_WAIT_MS))]), () => undefined);
        // Forgotten after the registry took the tab (core's TerminalTabs adds it once this resolves).
        void created.finally(() => setTimeout(() => this.pending.delete(options.workspace), 0)).catch(() => undefined);
        return created;
    }

    /** A tab's state changed: remembered while it names a session (a tab on no session is not brought back). */
    remember(state: TerminalTabState): void {
        if (this.windowClosing || !this.deps.memento) {
            return;
        }
        const before = JSON.stringify(this.remembered.get(state.workspace));
        if (state.sessionId) {
            this.remembered.set(state.workspace, { workspace: state.workspace, sessionId: state.sessionId });
        } else {
            this.remembered.delete(state.workspace);
        }
        if (JSON.stringify(this.remembered.get(state.workspace)) !== before) {
            this.persistRemembered();
        }
    }

    forget(workspace: string): void {
        if (this.remembered.delete(workspace)) {
            this.persistRemembered();
        }
    }

    protected persistRemembered(): void {
        void Promise.resolve(this.deps.memento?.update(REMEMBERED_TABS_KEY, [...this.remembered.values()])).catch(e =>
            this.deps.log.warn(`sandy terminal: could not remember the open tabs: ${e instanceof Error ? e.message : String(e)}`));
    }

    /** Whether the window had sandy tabs when it last closed (then it shows sandy state from the start). */
    get hadTabs(): boolean {
        return this.rememberedAtStart.length > 0;
    }

    /**
     * VS Code keeps a webview tab over a window reload only while the extension host that made it is
     * alive: after code-server (or the extension host) was killed, the Reload Window that VS Code then
     * offers drops every sandy tab, while their daemon sessions run on. So the window remembers its tabs
     * itself (workspace state), and when it opens with none of VS Code's restored, it opens a tab again
     * for each remembered session that this window's own attach client holds again (core re-attaches the
     * IDE's own daemon sessions that no one else is attached to: never another window's). Each remembered
     * entry passes the checks of a restored tab's state first ({@link restorableState}), and such a tab
     * only attaches.
     */
    async reopenLostTabs(): Promise<void> {
        if (!this.rememberedAtStart.length) {
            return;
        }
        const sessions = await this.deps.core.sessions();
        const restoredByVsCode = vscode.window.tabGroups.all.some(group => group.tabs.some(tab =>
            tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(TERMINAL_VIEW_TYPE)));
        if (this.windowClosing || restoredByVsCode) {
            return;
        }
        for (const raw of this.rememberedAtStart) {
            const state = await this.restorableState(raw);
            const session = state?.sessionId && sessions.find(s => s.id === state.sessionId && s.workspace === state.workspace
                && s.mode === 'daemon' && s.origin === 'ide' && s.link === 'attached' && s.status !== 'exited');
            if (!session || this.windowClosing || this.tabs.tabBySession(session.id) || this.tabs.tabByWorkspace(session.workspace)) {
                continue;
            }
            this.deps.log.info(`sandy terminal: reopened the tab of ${session.workspace} (session ${session.id}): VS Code did not restore it`);
            await this.tabs.attach(session);
        }
    }

    /**
     * VS Code brought a sandy tab back after a window reload (the panel serializer, extension.ts),
     * with the state its page saved. That state came from the webview: it must have the shape of
     * {@link terminalTabState} and name an absolute, canonical workspace that the workspace guard
     * accepts; a session it names is attached to only if it is that workspace's daemon session. The tab
     * only ever reattaches (core's restoreState: a session that ended is said, never relaunched by
     * itself). A state that fails a check closes the tab, and the log says why.
     */
    async restore(panel: vscode.WebviewPanel, raw: unknown): Promise<SandyTerminalPanel | undefined> {
        const state = await this.restorableState(raw);
        if (!state || this.windowClosing) {
            panel.dispose();
            return undefined;
        }
        const tab = new SandyTerminalPanel(this, this.deps, { workspace: state.workspace }, { panel, state });
        this.tabs.add(tab);
        tab.startRestored();
        this.deps.log.info(`sandy terminal: restored the tab of ${state.workspace}${state.sessionId ? ` (session ${state.sessionId})` : ''}`);
        return tab;
    }

    protected async restorableState(raw: unknown): Promise<TerminalTabState | undefined> {
        const refuse = (why: string): undefined => {
            this.deps.log.warn(`sandy terminal: not restoring a sandy tab after the reload: ${why}`);
            return undefined;
        };
        if (raw === undefined || raw === null) {
            return refuse('it saved no state');
        }
        const parsed = parseMessage(terminalTabState, raw);
        if (!parsed.ok) {
            return refuse(`its saved state was refused (${parsed.error.replace(/^message/, 'state')})`);
        }
        const { workspace, sessionId } = parsed.message;
        if (!path.isAbsolute(workspace) || path.normalize(workspace) !== workspace) {
            return refuse('its workspace is not an absolute path');
        }
        let canonical: string;
        try {
            canonical = await this.deps.core.canonicalWorkspace(workspace);
        } catch (e) {
            return refuse(problemText(toProblem(e)));
        }
        if (canonical !== workspace) {
            return refuse(`its workspace ${workspace} is not canonical (it is ${canonical})`);
        }
        // Only a daemon session outlives the extension host, and its id is its workspace's: any other id
        // (a foreground session's, gone with the old host, or another workspace's) is not attached to.
        if (sessionId && sessionId !== daemonSessionId(workspace)) {
            if (/^(daemon|orphan)-/.test(sessionId)) {
                this.deps.log.warn(`sandy terminal: the restored tab of ${workspace} named session ${sessionId}, which is not its workspace's; it is not attached`);
            }
            return { workspace };
        }
        return sessionId ? { workspace, sessionId } : { workspace };
    }

    dispose(): void {
        this.windowClosing = true;
        this.windowFocus.dispose();
        this.tabs.dispose();
        this.sizes.dispose();
    }
}
