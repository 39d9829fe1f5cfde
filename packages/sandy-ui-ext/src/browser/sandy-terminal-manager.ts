import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell, WidgetManager } from '@theia/core/lib/browser';
import { Emitter, MessageService, generateUuid } from '@theia/core';
import type { SessionInfo } from '@sandy-ui/core/common';
import { detachedText, notificationText } from '@sandy-ui/core/common';
import { NotificationCoalescer } from '@sandy-ui/core/common';
import type { TerminalNotification } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyTerminalLaunchClearance, SandyTerminalWidget, SandyTerminalWidgetOptions, SANDY_TERMINAL_WIDGET_FACTORY_ID } from './sandy-terminal-widget';
import { SandyPreferences } from './sandy-preferences';
import { SandyServiceClientImpl } from './sandy-state-service';
import { SandyMessages } from './sandy-messages';

/**
 * Finds, opens and reveals sandy terminal tabs, and turns their OSC notifications into Theia
 * notifications with a "Show" action that focuses the tab: coalesced per tab, as plain text.
 */
@injectable()
export class SandyTerminalManager {
    @inject(WidgetManager) protected readonly widgetManager: WidgetManager;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(SandyMessages) protected readonly sandyMessages: SandyMessages;
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyPreferences) protected readonly preferences: SandyPreferences;
    @inject(SandyServiceClientImpl) protected readonly client: SandyServiceClientImpl;

    protected readonly onDidChangeWidgetsEmitter = new Emitter<void>();
    readonly onDidChangeWidgets = this.onDidChangeWidgetsEmitter.event;
    protected readonly wired = new WeakSet<SandyTerminalWidget>();

    @postConstruct()
    protected init(): void {
        // Status changes made elsewhere (Stop from another window, the tree, the status bar) reach the tab.
        this.client.onSession(session => this.findBySession(session.id)?.updateSession(session));
    }

    get widgets(): SandyTerminalWidget[] {
        return this.widgetManager.getWidgets(SANDY_TERMINAL_WIDGET_FACTORY_ID) as SandyTerminalWidget[];
    }

    findBySession(sessionId: string): SandyTerminalWidget | undefined {
        return this.widgets.find(w => w.sessionInfo?.id === sessionId);
    }

    findByWorkspace(workspace: string): SandyTerminalWidget | undefined {
        return this.widgets.find(w => w.workspace === workspace && w.sessionInfo?.status !== 'exited')
            ?? this.widgets.find(w => w.workspace === workspace);
    }

    /** Open a tab that launches sandy for this workspace (or reveal the one already showing it). */
    async openForWorkspace(workspace: string, clearance?: SandyTerminalLaunchClearance): Promise<SandyTerminalWidget> {
        const existing = this.findByWorkspace(workspace);
        if (existing) {
            await this.reveal(existing);
            if (existing.sessionInfo?.status === 'exited' || !existing.sessionInfo) {
                existing.setClearance(clearance);
                await existing.relaunch();
            }
            return existing;
        }
        const widget = await this.widgetManager.getOrCreateWidget<SandyTerminalWidget>(SANDY_TERMINAL_WIDGET_FACTORY_ID, { workspace, instance: generateUuid() });
        widget.setClearance(clearance);
        this.wire(widget);
        await this.reveal(widget);
        return widget;
    }

    /** Open (or reveal) a tab attached to a running session. */
    async attach(session: SessionInfo): Promise<SandyTerminalWidget> {
        const existing = this.findBySession(session.id);
        if (existing) {
            await this.reveal(existing);
            return existing;
        }
        return this.open({ workspace: session.workspace, sessionId: session.id, instance: generateUuid() });
    }

    protected async open(options: SandyTerminalWidgetOptions): Promise<SandyTerminalWidget> {
        const widget = await this.widgetManager.getOrCreateWidget<SandyTerminalWidget>(SANDY_TERMINAL_WIDGET_FACTORY_ID, options);
        this.wire(widget);
        await this.reveal(widget);
        return widget;
    }

    async reveal(widget: SandyTerminalWidget): Promise<void> {
        if (!widget.isAttached) {
            await this.shell.addWidget(widget, { area: 'main' });
        }
        await this.shell.activateWidget(widget.id);
    }

    /** Restored tabs (after a reload) come from the layout restorer, not from open(): wire them too. */
    wire(widget: SandyTerminalWidget): void {
        if (this.wired.has(widget)) {
            return;
        }
        this.wired.add(widget);
        // One session's flood of notifications becomes a toast now and one per window after (core's coalescer).
        const coalescer = new NotificationCoalescer<TerminalNotification>(({ latest, more }) => void this.toast(widget, latest, more));
        widget.onDidNotify(n => {
            if (this.preferences['sandy.notifications'] !== false) {
                coalescer.push(n);
            }
        });
        widget.onDidChangeSession(() => this.onDidChangeWidgetsEmitter.fire());
        widget.disposed.connect(() => {
            coalescer.dispose();
            this.onDidChangeWidgetsEmitter.fire();
            void this.afterClose(widget);
        });
        this.onDidChangeWidgetsEmitter.fire();
    }

    protected async toast(widget: SandyTerminalWidget, n: TerminalNotification, more: number): Promise<void> {
        // Theia renders the message as markdown: core escapes it, so it shows as sent and links nothing.
        const action = await this.messages.info(notificationText(widget.workspace, n, 'markdown', more), 'Show');
        if (action === 'Show' && !widget.isDisposed) {
            await this.reveal(widget);
        }
    }

    /** A closed tab only detaches: say so, and offer the way back (or out). */
    protected async afterClose(widget: SandyTerminalWidget): Promise<void> {
        const session = widget.sessionInfo;
        if (!session) {
            return;
        }
        if (session.status === 'exited') {
            await this.service.forgetSession(session.id);
            return;
        }
        const action = await this.sandyMessages.info(detachedText(session.workspace), 'Reattach', 'Stop');
        if (action === 'Reattach') {
            const live = (await this.service.sessions()).find(s => s.id === session.id && s.status !== 'exited');
            if (live) {
                await this.attach(live);
            }
        } else if (action === 'Stop') {
            await this.service.stop(session.id);
        }
    }

    /** Detach: close the tab, keep the process (spec, MVP pillar 2). */
    async detach(widget: SandyTerminalWidget): Promise<void> {
        widget.close();
    }
}
