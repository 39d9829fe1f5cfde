import * as vscode from 'vscode';
import { type Messenger, OutputBatcher, terminalCaption, TerminalSession, TerminalTabs, terminalTitle, workspaceLabel } from '@sandy-ui/core/common';
import type {
    ApprovalRequest, HostUi, LaunchClearance, SessionInfo, SessionStream, SessionStreamSink, TerminalSize, TerminalTab, TerminalTabOptions
} from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { terminalProtocol, terminalToHost, terminalToView } from './webview/terminal-protocol';
import { hostMessenger, webviewHtml, webviewOptions } from './webview-html';
import { openTerminalLink } from './links';
import { readSettings, SandyState } from './sandy-state';
import { SandyLog } from './logger';
import { showInfo, showWarning, showError } from './messages';

export const TERMINAL_VIEW_TYPE = 'sandy.terminal';

export interface TerminalPanelsDeps {
    core: SandyServiceCore;
    state: SandyState;
    log: SandyLog;
    extensionUri: vscode.Uri;
    /** Pre-flight again (the approval webview) when the files changed since the user approved. */
    clearForLaunch(workspace: string, request: ApprovalRequest): Promise<LaunchClearance | undefined>;
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
    protected caption: string;
    protected disposed = false;
    protected readonly toDispose: vscode.Disposable[] = [];

    constructor(protected readonly manager: TerminalPanels, protected readonly deps: TerminalPanelsDeps, options: TerminalTabOptions) {
        this.panel = vscode.window.createWebviewPanel(TERMINAL_VIEW_TYPE, terminalTitle(options.workspace, undefined, false),
            { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(deps.extensionUri, true));
        this.panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'sandy.svg');
        this.panel.webview.html = webviewHtml(this.panel.webview, deps.extensionUri, 'terminal', `sandy: ${workspaceLabel(options.workspace)}`);
        this.caption = terminalCaption(options.workspace, undefined);
        this.terminal = new TerminalSession(options, {
            service: deps.core,
            ui: messagesUi,
            clear: (workspace, request) => deps.clearForLaunch(workspace, request),
            surface: {
                measure: () => this.size,
                focused: () => this.active,
                setTitle: (label, caption) => this.setTitle(label, caption),
                clear: () => this.page.notify('clear'),
                replay: data => this.page.notify('replay', { data }),
                write: data => this.page.notify('data', { data }),
                exitBanner: text => this.page.notify('exitBanner', { text }),
                banner: (text, relaunch) => this.page.notify('banner', text === undefined ? {} : { text, relaunch }),
                close: () => this.panel.dispose()
            },
            streams: { connect: (sessionId, sink) => this.connect(sessionId, sink) }
        });
        const channel = hostMessenger(this.panel.webview, terminalProtocol, deps.log);
        this.page = channel.messenger;
        this.toDispose.push(channel);
        this.listen();
        this.toDispose.push(this.panel.onDidChangeViewState(() => {
            if (this.panel.active) {
                this.terminal.clearUnread();
            }
            this.manager.tabs.fireChange();
        }));
        this.toDispose.push(this.panel.onDidDispose(() => this.onClosed()));
        this.toDispose.push(vscode.window.onDidChangeActiveColorTheme(() => this.page.notify('theme')));
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

    /** What the page says: already parsed against the terminal protocol (refusals are logged, never thrown). */
    protected listen(): void {
        this.page.onNotification('ready', ({ cols, rows }) => {
            this.size = { cols, rows };
            // Before any output: which file links are links is the session's workspace's business.
            this.page.notify('links', { workspace: this.terminal.workspace });
            if (!this.terminal.started) {
                void this.terminal.start();
            } else {
                // The page was reloaded: attach again (the replay refills the screen).
                this.terminal.reconnect();
            }
        });
        this.page.onNotification('input', ({ data }) => this.terminal.input(data));
        this.page.onNotification('ack', ({ chars }) => this.terminal.acknowledge(chars));
        this.page.onNotification('resize', ({ cols, rows }) => {
            this.size = { cols, rows };
            this.terminal.resize(cols, rows);
        });
        this.page.onNotification('notify', ({ title, body, source }) => this.terminal.notify({ title, body, source }));
        this.page.onNotification('clipboard', ({ text }) => void vscode.env.clipboard.writeText(text));
        this.page.onNotification('openLink', ({ uri }) => void openTerminalLink(uri, this.terminal.workspace));
        this.page.onNotification('relaunch', () => void this.terminal.relaunch());
    }

    /** The session's stream: an attachment to the in-process supervisor, its output batched for the page. */
    protected connect(sessionId: string, sink: SessionStreamSink): SessionStream {
        const supervisor = this.deps.core.supervisor;
        if (!supervisor.get(sessionId)) {
            return NO_STREAM;
        }
        const attachment = supervisor.attach(sessionId);
        sink.replay(attachment.replay);
        const batcher = new OutputBatcher(chunk => sink.data(chunk));
        const subscriptions = [
            attachment.onData(data => batcher.push(data)),
            attachment.onExit(info => {
                batcher.flush();
                sink.exit(info);
            })
        ];
        const now = supervisor.get(sessionId);
        if (now?.status === 'exited') {
            sink.exit(now);
        }
        return {
            write: data => attachment.write(data),
            acknowledge: chars => attachment.acknowledge(chars),
            dispose: () => {
                batcher.flush();
                batcher.dispose();
                for (const s of subscriptions) {
                    s.dispose();
                }
                attachment.dispose();
            }
        };
    }

    protected onClosed(): void {
        if (this.disposed) {
            return;
        }
        this.disposed = true;
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        // The registry hears it, and says what became of the session.
        this.terminal.dispose();
    }
}

/** The window's sandy terminal tabs: core's {@link TerminalTabs} registry over webview panels. */
export class TerminalPanels implements vscode.Disposable {
    /** The registry, as core's SessionTabs port. */
    readonly tabs: TerminalTabs<SandyTerminalPanel>;

    constructor(protected readonly deps: TerminalPanelsDeps) {
        this.tabs = new TerminalTabs<SandyTerminalPanel>({
            host: {
                createTab: async options => new SandyTerminalPanel(this, deps, options),
                reveal: async panel => panel.reveal(),
                isActive: panel => panel.active,
                // VS Code renders `[label](command:…)` as a link: core breaks every such token, the text shows as sent.
                renderer: 'linked-text',
                toast: async (message, ...actions) => showInfo(message, ...actions),
                notificationsEnabled: () => !!readSettings().notifications
            },
            service: deps.core,
            ui: messagesUi,
            // Status changes made elsewhere (Stop from the tree, the status bar) reach the tab.
            onSession: deps.state.onDidChangeSession
        });
    }

    dispose(): void {
        this.tabs.dispose();
    }
}
