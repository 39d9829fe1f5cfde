import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { BaseWidget, Message, StatefulWidget, codicon, Widget } from '@theia/core/lib/browser';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { Channel, DisposableCollection, Disposable, Emitter, ILogger } from '@theia/core';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import { FrontendApplicationStateService } from '@theia/core/lib/browser/frontend-application-state';
import { SandyTerminalView } from '@sandy-ui/core/browser/terminal';
import { TerminalBanner } from '@sandy-ui/core/browser/terminal';
import type { TerminalNotification } from '@sandy-ui/core/common';
import type { SessionInfo } from '@sandy-ui/core/common';
import { SandyService, SANDY_TERMINAL_PATH, TerminalFrame } from '@sandy-ui/backend/lib/common';
import { SandyLinkOpener } from './sandy-link-opener';
import { SandyTerminalTheme } from './sandy-terminal-theme';
import { describeExit, terminalCaption, terminalTitle, workspaceLabel } from '@sandy-ui/core/common';
import { launchUntilCleared, LaunchClearance, NOT_APPROVED_TEXT } from '@sandy-ui/core/common';
import { SandyApprovalService } from './sandy-approval';
import { isOfferedLink } from '@sandy-ui/core/common';
import { SandyMessages } from './sandy-messages';

export const SANDY_TERMINAL_WIDGET_FACTORY_ID = 'sandy-terminal';

export interface SandyTerminalWidgetOptions {
    /** Canonical workspace folder of the project. */
    workspace: string;
    /** A live session to attach to; absent = launch one when the widget is first shown. */
    sessionId?: string;
    /** Distinguishes several tabs of one workspace over time. */
    instance: string;
}

/** One-shot launch clearance from pre-flight; never stored, never reused by a relaunch. */
export type SandyTerminalLaunchClearance = LaunchClearance;

interface StoredState {
    workspace: string;
    sessionId?: string;
}

/**
 * sandy's TUI as an editor-area tab. The tab only views the session: closing it detaches (the
 * process lives on in the backend), a page reload or a second window reattaches to the same
 * process, and Stop is an explicit command (as Theia's terminal widget kills only on explicit close).
 */
@injectable()
export class SandyTerminalWidget extends BaseWidget implements StatefulWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(RemoteConnectionProvider) protected readonly connectionProvider: ServiceConnectionProvider;
    @inject(SandyMessages) protected readonly messages: SandyMessages;
    @inject(ClipboardService) protected readonly clipboard: ClipboardService;
    @inject(SandyLinkOpener) protected readonly linkOpener: SandyLinkOpener;
    @inject(SandyTerminalTheme) protected readonly themeService: SandyTerminalTheme;
    @inject(ILogger) protected readonly logger: ILogger;
    @inject(SandyApprovalService) protected readonly approvals: SandyApprovalService;
    @inject(FrontendApplicationStateService) protected readonly appState: FrontendApplicationStateService;

    protected options: SandyTerminalWidgetOptions;
    protected view: SandyTerminalView | undefined;
    protected termNode: HTMLElement;
    protected banner: TerminalBanner;
    protected channel: Channel | undefined;
    protected readonly toDisposeOnChannel = new DisposableCollection();
    protected session: SessionInfo | undefined;
    protected launching = false;
    protected unread = false;
    protected clearance: SandyTerminalLaunchClearance | undefined;
    /** Recreated from the saved layout (page reload): reattach if possible, never launch by itself. */
    protected restored = false;

    /** Pre-flight was settled before the tab opened: the first launch carries this, relaunches do not. */
    setClearance(clearance: SandyTerminalLaunchClearance | undefined): void {
        this.clearance = clearance;
    }

    protected readonly onDidNotifyEmitter = new Emitter<TerminalNotification>();
    readonly onDidNotify = this.onDidNotifyEmitter.event;
    protected readonly onDidChangeSessionEmitter = new Emitter<SessionInfo | undefined>();
    readonly onDidChangeSession = this.onDidChangeSessionEmitter.event;

    setOptions(options: SandyTerminalWidgetOptions): void {
        this.options = options;
        this.id = `${SANDY_TERMINAL_WIDGET_FACTORY_ID}:${options.instance}`;
        this.updateTitle();
    }

    @postConstruct()
    protected init(): void {
        this.addClass('sandy-terminal-widget');
        this.title.closable = true;
        this.title.iconClass = codicon('terminal');
        this.node.tabIndex = -1;
        this.banner = new TerminalBanner(document, () => void this.relaunch(), 'theia-button');
        this.termNode = document.createElement('div');
        this.termNode.className = 'sandy-terminal-xterm';
        this.node.appendChild(this.banner.node);
        this.node.appendChild(this.termNode);
        this.toDispose.push(this.onDidNotifyEmitter);
        this.toDispose.push(this.onDidChangeSessionEmitter);
        this.toDispose.push(this.toDisposeOnChannel);
        this.toDispose.push(this.themeService.onDidChange(theme => this.view?.setTheme(theme)));
    }

    get workspace(): string {
        return this.options.workspace;
    }

    get sessionInfo(): SessionInfo | undefined {
        return this.session;
    }

    get hasUnreadNotification(): boolean {
        return this.unread;
    }

    protected override onAfterAttach(msg: Message): void {
        super.onAfterAttach(msg);
        if (!this.view) {
            this.view = new SandyTerminalView(this.termNode, {
                notify: n => this.handleNotification(n),
                writeClipboard: text => this.clipboard.writeText(text),
                openLink: uri => this.linkOpener.open(uri, this.options.workspace),
                acceptsLink: uri => isOfferedLink(uri, this.options.workspace)
            }, { theme: this.themeService.theme });
            this.toDispose.push(Disposable.create(() => this.view?.dispose()));
        }
        // Wait for the layout so the first fit measures the real tab, never a default size. A tab restored
        // after a reload is attached while the shell is still hidden behind the preload screen, without its
        // menu and status bars: fitting then would resize the PTY twice and make sandy redraw, wiping the replay.
        void this.appState.reachedState('ready').then(() => requestAnimationFrame(() => this.start()));
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        this.clearUnread();
        this.view?.focus();
    }

    protected override onResize(msg: Widget.ResizeMessage): void {
        super.onResize(msg);
        // The ResizeObserver in the view does the fitting; nothing to do here.
    }

    /** Relaunch after exit, or launch the first time. */
    async start(): Promise<void> {
        if (!this.view || this.launching || this.isDisposed) {
            return;
        }
        if (this.options.sessionId && !this.session) {
            const existing = (await this.service.sessions()).find(s => s.id === this.options.sessionId);
            if (existing) {
                this.setSession(existing);
                this.connect(existing.id);
                return;
            }
            this.options = { ...this.options, sessionId: undefined };
            this.view.writeExitBanner('The sandy session this tab showed is no longer running.');
            this.showBanner('This session has ended.', true);
            return;
        }
        if (this.session) {
            return;
        }
        if (this.restored) {
            this.view.writeExitBanner('This tab showed a sandy session that has ended.');
            this.showBanner('This session has ended.', true);
            return;
        }
        await this.launch();
    }

    async relaunch(): Promise<void> {
        if (this.session && this.session.status !== 'exited') {
            return;
        }
        this.restored = false;
        if (this.session) {
            void this.service.forgetSession(this.session.id);
        }
        this.session = undefined;
        this.options = { ...this.options, sessionId: undefined };
        this.view?.clear();
        await this.launch();
    }

    protected async launch(): Promise<void> {
        const view = this.view;
        if (!view) {
            return;
        }
        this.launching = true;
        this.showBanner(undefined);
        try {
            const clearance = this.clearance;
            this.clearance = undefined;
            // The files changed since the user approved, or nothing was approved yet: the flow asks (again).
            const outcome = await launchUntilCleared(this.options.workspace, clearance, {
                launch: request => this.service.launch(request),
                measure: () => view.measure(),
                clear: (workspace, request) => this.approvals.clearForLaunch(workspace, request)
            });
            if (outcome.kind === 'not-approved') {
                view.writeExitBanner(NOT_APPROVED_TEXT);
                this.showBanner(NOT_APPROVED_TEXT, true);
                return;
            }
            if (outcome.kind === 'refused') {
                view.writeExitBanner(`Not launched: ${outcome.problem.message}`);
                this.showBanner(`${outcome.problem.message} ${outcome.problem.hint}`, true);
                this.messages.error(`Sandy: ${outcome.problem.message} ${outcome.problem.hint}`);
                return;
            }
            if (outcome.kind === 'launched') {
                for (const w of outcome.warnings) {
                    this.messages.warn(`Sandy (${workspaceLabel(this.options.workspace)}): ${w}`);
                }
            }
            this.setSession(outcome.session);
            this.options = { ...this.options, sessionId: outcome.session.id };
            this.connect(outcome.session.id);
        } catch (e) {
            const message = e instanceof Error ? e.message : String(e);
            view.writeExitBanner(`Launch failed: ${message}`);
            this.showBanner(`Launch failed: ${message}`, true);
        } finally {
            this.launching = false;
        }
    }

    protected connect(sessionId: string): void {
        this.toDisposeOnChannel.dispose();
        const view = this.view!;
        this.connectionProvider.listen(`${SANDY_TERMINAL_PATH}/${sessionId}`, (_path, channel) => {
            this.toDisposeOnChannel.dispose();
            this.channel = channel;
            view.attach({
                write: data => channel.getWriteBuffer().writeUint8(TerminalFrame.Data).writeString(data).commit(),
                resize: (cols, rows) => { void this.service.resize(sessionId, cols, rows); },
                acknowledge: chars => channel.getWriteBuffer().writeUint8(TerminalFrame.Ack).writeNumber(chars).commit()
            });
            this.toDisposeOnChannel.push(channel.onMessage(provider => {
                const buffer = provider();
                const kind = buffer.readUint8();
                if (kind === TerminalFrame.Replay) {
                    // A reconnect replays the recent screen: start clean so nothing shows twice, and do not
                    // notify or copy again what the history holds.
                    view.replay(buffer.readString());
                } else if (kind === TerminalFrame.Data) {
                    view.write(buffer.readString());
                } else if (kind === TerminalFrame.Exit) {
                    this.handleExit(JSON.parse(buffer.readString()) as SessionInfo);
                }
            }));
            this.toDisposeOnChannel.push(Disposable.create(() => {
                view.detach();
                this.channel = undefined;
                channel.close();
            }));
        }, false);
    }

    protected handleExit(info: SessionInfo): void {
        this.setSession(info);
        this.view?.writeExitBanner(describeExit(info));
        this.showBanner(describeExit(info), true);
    }

    protected handleNotification(n: TerminalNotification): void {
        if (!this.isVisible || !this.node.contains(document.activeElement)) {
            this.unread = true;
            this.updateTitle();
        }
        this.onDidNotifyEmitter.fire(n);
    }

    /** Selected text in the terminal ('' when none). */
    get selection(): string {
        return this.view?.selection ?? '';
    }

    paste(text: string): void {
        this.view?.paste(text);
    }

    clearUnread(): void {
        if (this.unread) {
            this.unread = false;
            this.updateTitle();
        }
    }

    protected setSession(info: SessionInfo): void {
        this.session = info;
        this.updateTitle();
        this.onDidChangeSessionEmitter.fire(info);
    }

    /** Keep our view of the session current (status changes come through the service client). */
    updateSession(info: SessionInfo): void {
        if (this.session?.id === info.id) {
            this.setSession(info);
        }
    }

    protected updateTitle(): void {
        this.title.label = terminalTitle(this.options.workspace, this.session, this.unread);
        this.title.caption = terminalCaption(this.options.workspace, this.session);
    }

    protected showBanner(text: string | undefined, offerRelaunch = false): void {
        this.banner.show(text, offerRelaunch);
    }

    storeState(): StoredState {
        return { workspace: this.options.workspace, sessionId: this.session?.status !== 'exited' ? this.session?.id : undefined };
    }

    restoreState(state: StoredState): void {
        if (state?.workspace) {
            this.restored = true;
            this.options = { ...this.options, workspace: state.workspace, sessionId: state.sessionId };
            this.updateTitle();
        }
    }
}
