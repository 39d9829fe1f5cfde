import * as vscode from 'vscode';
import type { SessionInfo } from '@sandy-ui/core/common';
import type { SessionAttachment } from '@sandy-ui/core/node';
import { OutputBatcher } from '@sandy-ui/core/common';
import { NotificationCoalescer } from '@sandy-ui/core/common';
import { describeExit, detachedText, notificationText, terminalCaption, terminalTitle, workspaceLabel } from '@sandy-ui/core/common';
import { launchUntilCleared, LaunchClearance, NOT_APPROVED_TEXT } from '@sandy-ui/core/common';
import type { ApprovalRequest } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { validate } from './webview/messages';
import { checkTerminalToHost, TerminalToHost, TerminalToWebview } from './webview/terminal-protocol';
import { webviewHtml, webviewOptions } from './webview-html';
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

/**
 * sandy's TUI in a webview editor tab (core's SandyTerminalView in the page, the PTY in the
 * extension host's shared supervisor). The tab only views the session: closing it detaches, the
 * process lives on, Reattach opens a new tab on it, and Stop is an explicit command.
 */
export class SandyTerminalPanel implements vscode.Disposable {
    readonly panel: vscode.WebviewPanel;
    protected session: SessionInfo | undefined;
    protected attachment: SessionAttachment | undefined;
    protected batcher: OutputBatcher | undefined;
    protected size: { cols: number; rows: number } | undefined;
    protected started = false;
    protected launching = false;
    protected unread = false;
    protected disposed = false;
    protected readonly toDispose: vscode.Disposable[] = [];
    /** This session's flood of notifications becomes a toast now and one per window after (core's coalescer). */
    protected readonly notifications = new NotificationCoalescer<{ title?: string; body: string }>(({ latest, more }) => this.toast(latest, more));

    constructor(
        protected readonly manager: TerminalPanels,
        protected readonly deps: TerminalPanelsDeps,
        readonly workspace: string,
        protected attachTo: string | undefined,
        protected clearance: LaunchClearance | undefined
    ) {
        this.panel = vscode.window.createWebviewPanel(TERMINAL_VIEW_TYPE, terminalTitle(workspace, undefined, false),
            { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(deps.extensionUri, true));
        this.panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'sandy.svg');
        this.panel.webview.html = webviewHtml(this.panel.webview, deps.extensionUri, 'terminal', `sandy: ${workspaceLabel(workspace)}`);
        this.toDispose.push(this.panel.webview.onDidReceiveMessage(raw => this.onMessage(raw)));
        this.toDispose.push(this.panel.onDidChangeViewState(() => {
            if (this.panel.active) {
                this.clearUnread();
            }
            this.manager.fireChange();
        }));
        this.toDispose.push(this.panel.onDidDispose(() => this.onClosed()));
        this.toDispose.push(vscode.window.onDidChangeActiveColorTheme(() => this.post({ type: 'theme' })));
    }

    get sessionInfo(): SessionInfo | undefined {
        return this.session;
    }

    get active(): boolean {
        return !this.disposed && this.panel.active;
    }

    get hasUnreadNotification(): boolean {
        return this.unread;
    }

    /** The title as the user sees it (tests read it; `● ` marks an unread notification). */
    get title(): string {
        return this.panel.title;
    }

    reveal(): void {
        this.panel.reveal(undefined, false);
        this.post({ type: 'focus' });
    }

    setClearance(clearance: LaunchClearance | undefined): void {
        this.clearance = clearance;
    }

    protected post(message: TerminalToWebview): void {
        if (!this.disposed) {
            void this.panel.webview.postMessage(message);
        }
    }

    protected onMessage(raw: unknown): void {
        const checked = validate(checkTerminalToHost, raw);
        if (!checked.ok) {
            this.deps.log.warn(`sandy terminal: refused a webview message: ${checked.error}`);
            return;
        }
        this.handle(checked.message);
    }

    protected handle(message: TerminalToHost): void {
        switch (message.type) {
            case 'ready':
                this.size = { cols: message.cols, rows: message.rows };
                // Before any output: which file links are links is the session's workspace's business.
                this.post({ type: 'links', workspace: this.workspace });
                if (!this.started) {
                    this.started = true;
                    void this.start();
                } else if (this.session && this.session.status !== 'exited') {
                    // The page was reloaded: attach again (the replay refills the screen).
                    this.connect(this.session.id);
                }
                break;
            case 'input':
                this.attachment?.write(message.data);
                break;
            case 'ack':
                this.attachment?.acknowledge(message.chars);
                break;
            case 'resize':
                this.size = { cols: message.cols, rows: message.rows };
                if (this.session && this.session.status !== 'exited') {
                    this.deps.core.resize(this.session.id, message.cols, message.rows);
                }
                break;
            case 'notify':
                this.notify(message);
                break;
            case 'clipboard':
                void vscode.env.clipboard.writeText(message.text);
                break;
            case 'openLink':
                void openTerminalLink(message.uri, this.workspace);
                break;
            case 'relaunch':
                void this.relaunch();
                break;
        }
    }

    protected async start(): Promise<void> {
        if (this.attachTo) {
            const existing = this.deps.core.supervisor.list().find(s => s.id === this.attachTo);
            this.attachTo = undefined;
            if (existing) {
                this.setSession(existing);
                this.connect(existing.id);
                return;
            }
            this.post({ type: 'exitBanner', text: 'The sandy session this tab showed is no longer running.' });
            this.post({ type: 'banner', text: 'This session has ended.', relaunch: true });
            return;
        }
        await this.launch();
    }

    async relaunch(): Promise<void> {
        if (this.session && this.session.status !== 'exited') {
            return;
        }
        if (this.session) {
            this.deps.core.forgetSession(this.session.id);
        }
        this.disconnect();
        this.session = undefined;
        this.updateTitle();
        this.post({ type: 'clear' });
        if (this.size) {
            await this.launch();
        } else {
            // Not laid out yet: the page's `ready` starts it.
            this.started = false;
        }
    }

    protected async launch(): Promise<void> {
        if (this.launching || this.disposed || !this.size) {
            return;
        }
        this.launching = true;
        this.post({ type: 'banner' });
        try {
            const clearance = this.clearance;
            this.clearance = undefined;
            const outcome = await launchUntilCleared(this.workspace, clearance, {
                launch: request => this.deps.core.launch(request),
                measure: () => this.size!,
                clear: (workspace, request) => this.deps.clearForLaunch(workspace, request)
            });
            if (outcome.kind === 'not-approved') {
                this.post({ type: 'exitBanner', text: NOT_APPROVED_TEXT });
                this.post({ type: 'banner', text: NOT_APPROVED_TEXT, relaunch: true });
                return;
            }
            if (outcome.kind === 'refused') {
                this.post({ type: 'exitBanner', text: `Not launched: ${outcome.problem.message}` });
                this.post({ type: 'banner', text: `${outcome.problem.message} ${outcome.problem.hint}`, relaunch: true });
                void showError(`Sandy: ${outcome.problem.message} ${outcome.problem.hint}`);
                return;
            }
            if (outcome.kind === 'launched') {
                for (const w of outcome.warnings) {
                    void showWarning(`Sandy (${workspaceLabel(this.workspace)}): ${w}`);
                }
            }
            this.setSession(outcome.session);
            this.connect(outcome.session.id);
        } catch (e) {
            const message = e instanceof Error ? e.message : String(e);
            this.post({ type: 'exitBanner', text: `Launch failed: ${message}` });
            this.post({ type: 'banner', text: `Launch failed: ${message}`, relaunch: true });
        } finally {
            this.launching = false;
        }
    }

    protected connect(sessionId: string): void {
        this.disconnect();
        const supervisor = this.deps.core.supervisor;
        if (!supervisor.get(sessionId)) {
            return;
        }
        const attachment = supervisor.attach(sessionId);
        this.attachment = attachment;
        this.post({ type: 'replay', data: attachment.replay });
        const batcher = new OutputBatcher(chunk => this.post({ type: 'data', data: chunk }));
        this.batcher = batcher;
        attachment.onData(data => batcher.push(data));
        attachment.onExit(info => {
            batcher.flush();
            this.handleExit(info);
        });
        const now = supervisor.get(sessionId);
        if (now?.status === 'exited') {
            this.handleExit(now);
        } else if (this.size) {
            this.deps.core.resize(sessionId, this.size.cols, this.size.rows);
        }
    }

    protected disconnect(): void {
        this.batcher?.flush();
        this.batcher?.dispose();
        this.batcher = undefined;
        this.attachment?.dispose();
        this.attachment = undefined;
    }

    protected handleExit(info: SessionInfo): void {
        this.setSession(info);
        this.post({ type: 'exitBanner', text: describeExit(info) });
        this.post({ type: 'banner', text: describeExit(info), relaunch: true });
    }

    protected notify(n: { title?: string; body: string }): void {
        if (!this.panel.active) {
            this.unread = true;
            this.updateTitle();
        }
        if (!readSettings().notifications) {
            return;
        }
        this.notifications.push(n);
    }

    protected toast(n: { title?: string; body: string }, more: number): void {
        // VS Code renders `[label](command:…)` as a link: core breaks every such token, the text shows as sent.
        void showInfo(notificationText(this.workspace, n, 'linked-text', more), 'Show').then(action => {
            if (action === 'Show' && !this.disposed) {
                this.reveal();
            }
        });
    }

    protected clearUnread(): void {
        if (this.unread) {
            this.unread = false;
            this.updateTitle();
        }
    }

    protected setSession(info: SessionInfo): void {
        if (this.session?.status !== info.status || this.session?.id !== info.id) {
            // Webview panels have no caption: the log keeps the pid findable.
            this.deps.log.info(`sandy terminal: ${terminalCaption(this.workspace, info)}`);
        }
        this.session = info;
        this.updateTitle();
        this.manager.fireChange();
    }

    /** Status changes made elsewhere (Stop from the tree, the status bar) reach the tab. */
    updateSession(info: SessionInfo): void {
        if (this.session?.id === info.id) {
            this.setSession(info);
        }
    }

    protected updateTitle(): void {
        if (!this.disposed) {
            this.panel.title = terminalTitle(this.workspace, this.session, this.unread);
        }
    }

    /** Detach: close the tab, keep the process. */
    dispose(): void {
        this.panel.dispose();
    }

    protected onClosed(): void {
        if (this.disposed) {
            return;
        }
        this.disposed = true;
        this.notifications.dispose();
        this.disconnect();
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        this.manager.remove(this);
        void this.afterClose();
    }

    /** A closed tab only detaches: say so, and offer the way back (or out). */
    protected async afterClose(): Promise<void> {
        const session = this.session;
        if (!session || this.manager.disposing) {
            return;
        }
        if (session.status === 'exited') {
            this.deps.core.forgetSession(session.id);
            return;
        }
        const action = await showInfo(detachedText(session.workspace), 'Reattach', 'Stop');
        if (action === 'Reattach') {
            const live = this.deps.core.supervisor.list().find(s => s.id === session.id && s.status !== 'exited');
            if (live) {
                this.manager.attach(live);
            }
        } else if (action === 'Stop') {
            await this.deps.core.stop(session.id);
        }
    }
}

/** Finds, opens and reveals sandy terminal tabs. */
export class TerminalPanels implements vscode.Disposable {
    protected readonly panels = new Set<SandyTerminalPanel>();
    protected readonly onDidChangeEmitter = new vscode.EventEmitter<void>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    disposing = false;
    protected readonly toDispose: vscode.Disposable[] = [this.onDidChangeEmitter];

    constructor(protected readonly deps: TerminalPanelsDeps) {
        this.toDispose.push(deps.state.onDidChangeSession(session => this.findBySession(session.id)?.updateSession(session)));
    }

    get all(): SandyTerminalPanel[] {
        return [...this.panels];
    }

    get activePanel(): SandyTerminalPanel | undefined {
        return this.all.find(p => p.active);
    }

    fireChange(): void {
        this.onDidChangeEmitter.fire();
    }

    findBySession(sessionId: string): SandyTerminalPanel | undefined {
        return this.all.find(p => p.sessionInfo?.id === sessionId);
    }

    findByWorkspace(workspace: string): SandyTerminalPanel | undefined {
        return this.all.find(p => p.workspace === workspace && p.sessionInfo?.status !== 'exited')
            ?? this.all.find(p => p.workspace === workspace);
    }

    /** Open a tab that launches sandy for this workspace (or reveal the one already showing it). */
    openForWorkspace(workspace: string, clearance?: LaunchClearance): SandyTerminalPanel {
        const existing = this.findByWorkspace(workspace);
        if (existing) {
            existing.reveal();
            if (!existing.sessionInfo || existing.sessionInfo.status === 'exited') {
                existing.setClearance(clearance);
                void existing.relaunch();
            }
            return existing;
        }
        return this.add(new SandyTerminalPanel(this, this.deps, workspace, undefined, clearance));
    }

    /** Open (or reveal) a tab attached to a running session. */
    attach(session: SessionInfo): SandyTerminalPanel {
        const existing = this.findBySession(session.id);
        if (existing) {
            existing.reveal();
            return existing;
        }
        return this.add(new SandyTerminalPanel(this, this.deps, session.workspace, session.id, undefined));
    }

    protected add(panel: SandyTerminalPanel): SandyTerminalPanel {
        this.panels.add(panel);
        this.fireChange();
        return panel;
    }

    remove(panel: SandyTerminalPanel): void {
        if (this.panels.delete(panel)) {
            this.fireChange();
        }
    }

    dispose(): void {
        this.disposing = true;
        for (const panel of this.all) {
            panel.dispose();
        }
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
