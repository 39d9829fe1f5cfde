import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell, BaseWidget, Message, StatefulWidget, codicon } from '@theia/core/lib/browser';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { Channel, DisposableCollection, Disposable, ILogger } from '@theia/core';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import { FrontendApplicationStateService } from '@theia/core/lib/browser/frontend-application-state';
import { SandyTerminalView, TerminalBanner } from '@sandy-ui/core/browser/terminal';
import { AreaSizes, HeldInput, isOfferedLink, TerminalSession } from '@sandy-ui/core/common';
import type { SessionInfo, SessionStream, SessionStreamSink, TerminalSurface } from '@sandy-ui/core/common';
import { SandyService, SANDY_TERMINAL_PATH, TerminalFrame } from '@sandy-ui/backend/lib/common';
import { SandyLinkOpener } from './sandy-link-opener';
import { SandyTerminalTheme } from './sandy-terminal-theme';
import { SandyTerminalAppearance } from './sandy-terminal-appearance';
import { SandyStateService } from './sandy-state-service';
import { SandyApprovalService } from './sandy-approval';
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

/**
 * sandy's TUI as an editor-area tab: core's {@link TerminalSession} drives it (attach, launch,
 * relaunch, exit, unread, restore); this widget is its {@link TerminalSurface} (xterm and the
 * banner) and its stream (the session's raw Theia channel). The tab only views the session: closing
 * it detaches, a reload or a second window reattaches, Stop is an explicit command.
 */
@injectable()
export class SandyTerminalWidget extends BaseWidget implements StatefulWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(RemoteConnectionProvider) protected readonly connectionProvider: ServiceConnectionProvider;
    @inject(SandyMessages) protected readonly messages: SandyMessages;
    @inject(ClipboardService) protected readonly clipboard: ClipboardService;
    @inject(SandyLinkOpener) protected readonly linkOpener: SandyLinkOpener;
    @inject(SandyTerminalTheme) protected readonly themeService: SandyTerminalTheme;
    @inject(SandyTerminalAppearance) protected readonly appearance: SandyTerminalAppearance;
    @inject(SandyApprovalService) protected readonly approvals: SandyApprovalService;
    @inject(FrontendApplicationStateService) protected readonly appState: FrontendApplicationStateService;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(ILogger) protected readonly logger: ILogger;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    /** The window's sandy tab sizes by shell area (a tab covered before it was drawn launches at its area's). */
    @inject(AreaSizes) protected readonly sizes: AreaSizes;

    protected view: SandyTerminalView | undefined;
    protected termNode: HTMLElement;
    protected banner: TerminalBanner;
    /** The tab's controller (core); set by {@link setOptions}, which the widget factory calls first. */
    terminal: TerminalSession;

    setOptions(options: SandyTerminalWidgetOptions): void {
        this.id = `${SANDY_TERMINAL_WIDGET_FACTORY_ID}:${options.instance}`;
        this.terminal = new TerminalSession({ workspace: options.workspace, sessionId: options.sessionId }, {
            service: this.service,
            ui: this.messages,
            clear: (workspace, request) => this.approvals.clearForLaunch(workspace, request),
            surface: this.surface(),
            streams: { connect: (sessionId, sink) => this.connect(sessionId, sink) },
            sizes: this.sizes
        });
        this.toDispose.push(this.terminal);
    }

    @postConstruct()
    protected init(): void {
        this.addClass('sandy-terminal-widget');
        this.title.closable = true;
        this.title.iconClass = codicon('terminal');
        this.node.tabIndex = -1;
        this.banner = new TerminalBanner(document, () => void this.terminal.bannerAction(), 'theia-button');
        this.termNode = document.createElement('div');
        this.termNode.className = 'sandy-terminal-xterm';
        this.node.appendChild(this.banner.node);
        this.node.appendChild(this.termNode);
        this.toDispose.push(this.themeService.onDidChange(theme => this.view?.setTheme(theme)));
        this.toDispose.push(this.appearance.onDidChange(appearance => this.view?.setAppearance(appearance)));
        // The user's sandy.terminal.ideKeys (Theia sees those keys first anyway; xterm must not take them either).
        const ideKeys = this.state.window.onDidChange(() => this.view?.setIdeKeys(this.state.window.configuration?.ideKeys));
        this.toDispose.push(Disposable.create(() => ideKeys.dispose()));
    }

    get workspace(): string {
        return this.terminal.workspace;
    }

    get sessionInfo(): SessionInfo | undefined {
        return this.terminal.session;
    }

    protected override onAfterAttach(msg: Message): void {
        super.onAfterAttach(msg);
        if (!this.view) {
            this.view = new SandyTerminalView(this.termNode, {
                writeClipboard: text => this.clipboard.writeText(text),
                openLink: uri => this.linkOpener.open(uri, this.terminal.workspace),
                acceptsLink: uri => isOfferedLink(uri, this.terminal.workspace)
            }, { theme: this.themeService.theme, appearance: this.appearance.appearance });
            this.view.setIdeKeys(this.state.window.configuration?.ideKeys);
            this.view.attach({
                write: data => this.terminal.input(data),
                resize: (cols, rows) => this.terminal.resize(cols, rows),
                acknowledge: chars => this.terminal.acknowledge(chars)
            });
            this.toDispose.push(Disposable.create(() => this.view?.dispose()));
        }
        this.startWhenLaidOut();
    }

    protected override onAfterShow(msg: Message): void {
        super.onAfterShow(msg);
        this.startWhenLaidOut();
    }

    /**
     * Wait for the layout so the first fit measures the real tab, never a default size. A tab restored
     * after a reload is attached while the shell is still hidden behind the preload screen, without its
     * menu and status bars: fitting then would resize the PTY twice and make sandy redraw, wiping the replay.
     */
    protected startWhenLaidOut(): void {
        if (this.terminal.started) {
            return;
        }
        void this.appState.reachedState('ready').then(() => requestAnimationFrame(() => {
            if (!this.isDisposed) {
                void this.terminal.start();
            }
        }));
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        this.terminal.clearUnread();
        this.view?.focus();
    }

    /** Selected text in the terminal ('' when none). */
    get selection(): string {
        return this.view?.selection ?? '';
    }

    paste(text: string): void {
        this.view?.paste(text);
    }

    clearUnread(): void {
        this.terminal.clearUnread();
    }

    /** What the controller does to this tab (core's TerminalSurface). */
    protected surface(): TerminalSurface {
        return {
            measure: () => {
                const node = this.termNode;
                return this.view && node.isConnected && node.clientWidth > 0 && node.clientHeight > 0 ? this.view.measure() : undefined;
            },
            area: () => this.shell.getAreaFor(this),
            sizeTo: size => this.view?.sizeTo(size.cols, size.rows),
            focused: () => this.isVisible && document.visibilityState === 'visible' && document.hasFocus() && this.node.contains(document.activeElement),
            setTitle: (label, caption) => {
                this.title.label = label;
                this.title.caption = caption;
            },
            clear: () => this.view?.clear(),
            replay: data => this.view?.replay(data),
            write: data => this.view?.write(data),
            exitBanner: text => this.view?.writeExitBanner(text),
            banner: (text, action) => this.banner.show(text, action),
            close: () => this.close()
        };
    }

    // ---- the session's stream: its raw channel, framed as TerminalFrame ----------------------

    protected connect(sessionId: string, sink: SessionStreamSink): SessionStream {
        let channel: Channel | undefined;
        let closed = false;
        const toDispose = new DisposableCollection();
        // Keys typed before the channel opens (the view shows the screen it had) go once it has.
        const input = HeldInput.logging(line => this.logger.warn(line));
        toDispose.push(Disposable.create(() => input.dispose()));
        this.connectionProvider.listen(`${SANDY_TERMINAL_PATH}/${sessionId}`, (_path, opened) => {
            if (closed) {
                opened.close();
                return;
            }
            // A reconnect (the backend restarted: daemon sessions outlive it) brings a new channel,
            // whose first frame is the session's screen again.
            channel = opened;
            toDispose.push(opened.onMessage(provider => {
                const buffer = provider();
                const kind = buffer.readUint8();
                if (kind === TerminalFrame.Replay) {
                    sink.replay(buffer.readString());
                } else if (kind === TerminalFrame.Data) {
                    sink.data(buffer.readString());
                } else if (kind === TerminalFrame.Exit) {
                    sink.exit(JSON.parse(buffer.readString()) as SessionInfo);
                }
            }));
            input.open(data => channel?.getWriteBuffer().writeUint8(TerminalFrame.Data).writeString(data).commit());
        }, true);
        return {
            write: data => input.write(data),
            acknowledge: chars => channel?.getWriteBuffer().writeUint8(TerminalFrame.Ack).writeNumber(chars).commit(),
            dispose: () => {
                closed = true;
                toDispose.dispose();
                channel?.close();
                channel = undefined;
            }
        };
    }

    storeState(): object {
        return this.terminal.storeState();
    }

    restoreState(state: object): void {
        this.terminal.restoreState(state);
    }
}
