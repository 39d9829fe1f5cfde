import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell, WidgetManager } from '@theia/core/lib/browser';
import { MessageService, generateUuid } from '@theia/core';
import { notificationsAllowed, systemNotificationsAllowed, TerminalTabs } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyTerminalWidget, SandyTerminalWidgetOptions, SANDY_TERMINAL_WIDGET_FACTORY_ID } from './sandy-terminal-widget';
import { SandyServiceClientImpl, SandyStateService } from './sandy-state-service';
import { SandyMessages } from './sandy-messages';
import { SandySystemNotifications } from './sandy-system-notifications';

/**
 * The window's sandy terminal tabs: core's {@link TerminalTabs} registry (finding, opening,
 * notifications with Show, the after-close prompt) over Theia's WidgetManager and shell.
 */
@injectable()
export class SandyTerminalManager {
    @inject(WidgetManager) protected readonly widgetManager: WidgetManager;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(SandyMessages) protected readonly sandyMessages: SandyMessages;
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyServiceClientImpl) protected readonly client: SandyServiceClientImpl;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandySystemNotifications) protected readonly desktop: SandySystemNotifications;

    /** The registry, as core's SessionTabs port. */
    tabs: TerminalTabs<SandyTerminalWidget>;

    @postConstruct()
    protected init(): void {
        this.tabs = new TerminalTabs<SandyTerminalWidget>({
            host: {
                createTab: async ({ workspace, sessionId, clearance }) => {
                    // A launch or an attach is the user's own action: the browser may ask about notifications now.
                    if (systemNotificationsAllowed(this.state.window.configuration)) {
                        this.desktop.askOnce();
                    }
                    // The clearance is set on the controller, never in the options the layout stores.
                    const options: SandyTerminalWidgetOptions = { workspace, sessionId, instance: generateUuid() };
                    const widget = await this.widgetManager.getOrCreateWidget<SandyTerminalWidget>(SANDY_TERMINAL_WIDGET_FACTORY_ID, options);
                    widget.terminal.setClearance(clearance);
                    return widget;
                },
                reveal: widget => this.reveal(widget),
                isActive: widget => (this.shell.currentWidget ?? this.shell.activeWidget) === widget,
                // Theia renders the message as markdown: core escapes it, so it shows as sent and links nothing.
                renderer: 'markdown',
                toast: (message, ...actions) => this.messages.info(message, ...actions),
                notificationsEnabled: () => notificationsAllowed(this.state.window.configuration),
                system: {
                    enabled: () => systemNotificationsAllowed(this.state.window.configuration),
                    windowFocused: () => this.desktop.windowFocused(),
                    show: content => this.desktop.show(content)
                }
            },
            service: this.service,
            ui: this.sandyMessages,
            // Status changes made elsewhere (Stop from another window, the tree, the status bar) reach the tab.
            onSession: this.client.onSession,
            // Parsed once in the backend from the session's stream: a replay never notifies again.
            onNotification: this.client.onNotify,
            seen: ids => this.state.window.setSeen(ids)
        });
        // Which tab the user looks at: the shell's focus, and the browser window's.
        const changed = (): void => this.tabs.fireChange();
        this.shell.onDidChangeActiveWidget(changed);
        this.shell.onDidChangeCurrentWidget(changed);
        window.addEventListener('focus', changed);
        window.addEventListener('blur', changed);
        document.addEventListener('visibilitychange', changed);
    }

    async reveal(widget: SandyTerminalWidget): Promise<void> {
        if (!widget.isAttached) {
            await this.shell.addWidget(widget, { area: 'main' });
        }
        await this.shell.activateWidget(widget.id);
    }

    /** Every widget the factory makes, also those the layout restorer recreates after a reload. */
    wire(widget: SandyTerminalWidget): void {
        this.tabs.add(widget);
        // The keyboard entering or leaving the tab changes whether the user is looking at it.
        const changed = (): void => this.tabs.fireChange();
        widget.node.addEventListener('focusin', changed);
        widget.node.addEventListener('focusout', changed);
    }
}
