import '../../src/browser/style/sandy.css';
import '@xterm/xterm/css/xterm.css';
import '@sandy-ui/core/css/terminal.css';
import '@sandy-ui/core/css/approval.css';
import '@sandy-ui/core/css/settings.css';
import '@sandy-ui/core/css/wizard.css';
import '@sandy-ui/core/css/dashboard.css';
import '@sandy-ui/core/css/history.css';
import { ContainerModule } from '@theia/core/shared/inversify';
import {
    bindViewContribution, FrontendApplicationContribution, KeybindingContribution, ViewContainer, WidgetFactory, WidgetManager,
    codicon
} from '@theia/core/lib/browser';
import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { TabBarToolbarContribution } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { SandyService, SANDY_SERVICE_PATH } from '@sandy-ui/backend/lib/common';
import { SandyProjectsWidget, SANDY_PROJECTS_VIEW_ID } from './sandy-projects-widget';
import { SandySessionsWidget, SANDY_SESSIONS_VIEW_ID } from './sandy-sessions-widget';
import { SandyServiceClientImpl, SandyStateService } from './sandy-state-service';
import { SandyTerminalWidget, SandyTerminalWidgetOptions, SANDY_TERMINAL_WIDGET_FACTORY_ID } from './sandy-terminal-widget';
import { SandyTerminalManager } from './sandy-terminal-manager';
import { SandySystemNotifications } from './sandy-system-notifications';
import { bindSandyProjectCommands, SandyViewContribution, SANDY_VIEW_CONTAINER_ID } from './sandy-view-contribution';
import { SandyStatusBar } from './sandy-status-bar';
import { SandyLinkOpener } from './sandy-link-opener';
import { SandyTerminalTheme } from './sandy-terminal-theme';
import { SandyTerminalAppearance } from './sandy-terminal-appearance';
import { bindSandyPreferences } from './sandy-preferences';
import { SandyTerminalKeybindings } from './sandy-terminal-keybindings';
import { CommandContribution } from '@theia/core';
import { SandyApprovalService, SandyApprovalWidget, SANDY_APPROVAL_WIDGET_FACTORY_ID } from './sandy-approval';
import { SandySettingsWidget, SandySettingsWidgetOptions, SANDY_SETTINGS_WIDGET_FACTORY_ID } from './sandy-settings-widget';
import { SandyDashboardWidget, SANDY_DASHBOARD_WIDGET_ID } from './sandy-dashboard-widget';
import { SandyWizardWidget, SANDY_WIZARD_WIDGET_ID } from './sandy-wizard-widget';
import { SandyHistoryWidget, SANDY_HISTORY_WIDGET_ID } from './sandy-history-widget';
import { SandyHistoryViewerOptions, SandyHistoryViewerWidget, SANDY_HISTORY_VIEWER_FACTORY_ID } from './sandy-history-viewer-widget';
import { bindSandyBranding } from './branding/sandy-branding';
import { SandyMessages } from './sandy-messages';
import { AreaSizes } from '@sandy-ui/core/common';
import { rebindWorkspacePreferenceProviders } from './sandy-workspace-preferences';

export default new ContainerModule((bind, _unbind, _isBound, rebind) => {
    rebindWorkspacePreferenceProviders(bind, rebind);
    bindSandyPreferences(bind);

    bind(SandyServiceClientImpl).toSelf().inSingletonScope();
    bind(SandyService).toDynamicValue(ctx =>
        ServiceConnectionProvider.createProxy<SandyService>(ctx.container, SANDY_SERVICE_PATH, ctx.container.get(SandyServiceClientImpl))
    ).inSingletonScope();

    bind(SandyMessages).toSelf().inSingletonScope();
    bind(SandyStateService).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(SandyStateService);
    bind(SandyTerminalManager).toSelf().inSingletonScope();
    bind(SandySystemNotifications).toSelf().inSingletonScope();
    bind(SandyLinkOpener).toSelf().inSingletonScope();
    bind(SandyTerminalTheme).toSelf().inSingletonScope();
    bind(SandyTerminalAppearance).toSelf().inSingletonScope();

    // One per window: the size its sandy tabs last measured in each shell area.
    bind(AreaSizes).toConstantValue(new AreaSizes());
    bind(SandyTerminalWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_TERMINAL_WIDGET_FACTORY_ID,
        createWidget: (options: SandyTerminalWidgetOptions) => {
            const child = ctx.container.createChild();
            const widget = child.get(SandyTerminalWidget);
            widget.setOptions(options);
            // Tabs restored after a reload are created here too: the manager must hear their notifications.
            ctx.container.get(SandyTerminalManager).wire(widget);
            return widget;
        }
    })).inSingletonScope();

    bind(SandyApprovalService).toSelf().inSingletonScope();
    bind(SandyApprovalWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_APPROVAL_WIDGET_FACTORY_ID,
        createWidget: (options: { workspace: string }) => {
            const widget = ctx.container.createChild().get(SandyApprovalWidget);
            widget.setWorkspace(options.workspace);
            return widget;
        }
    })).inSingletonScope();

    bind(SandySettingsWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_SETTINGS_WIDGET_FACTORY_ID,
        createWidget: (options: SandySettingsWidgetOptions) => {
            const widget = ctx.container.createChild().get(SandySettingsWidget);
            widget.setOptions(options ?? {});
            return widget;
        }
    })).inSingletonScope();

    // One dashboard per window (its tab is closed and opened again, the widget made anew).
    bind(SandyDashboardWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_DASHBOARD_WIDGET_ID,
        createWidget: () => ctx.container.createChild().get(SandyDashboardWidget)
    })).inSingletonScope();

    // One Get Started wizard per window.
    bind(SandyWizardWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_WIZARD_WIDGET_ID,
        createWidget: () => ctx.container.createChild().get(SandyWizardWidget)
    })).inSingletonScope();

    // One History list per window; a viewer tab per record (opened again on the same record: revealed).
    bind(SandyHistoryWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_HISTORY_WIDGET_ID,
        createWidget: () => ctx.container.createChild().get(SandyHistoryWidget)
    })).inSingletonScope();
    bind(SandyHistoryViewerWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_HISTORY_VIEWER_FACTORY_ID,
        createWidget: (options: SandyHistoryViewerOptions) => {
            const widget = ctx.container.createChild().get(SandyHistoryViewerWidget);
            widget.setOptions(options);
            return widget;
        }
    })).inSingletonScope();

    bind(SandyProjectsWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_PROJECTS_VIEW_ID,
        createWidget: () => ctx.container.get(SandyProjectsWidget)
    })).inSingletonScope();

    bind(SandySessionsWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_SESSIONS_VIEW_ID,
        createWidget: () => ctx.container.get(SandySessionsWidget)
    })).inSingletonScope();

    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: SANDY_VIEW_CONTAINER_ID,
        createWidget: async () => {
            const container = ctx.container.get<ViewContainer.Factory>(ViewContainer.Factory)({ id: SANDY_VIEW_CONTAINER_ID });
            container.setTitleOptions({ label: 'Sandy', iconClass: codicon('server-environment'), closeable: true });
            const projects = await ctx.container.get(WidgetManager).getOrCreateWidget(SANDY_PROJECTS_VIEW_ID);
            container.addWidget(projects, { canHide: false, initiallyCollapsed: false, weight: 3 });
            // The attention queue below the projects (a quarter of the height to start with): its "Needs you" group leads it.
            const sessions = await ctx.container.get(WidgetManager).getOrCreateWidget(SANDY_SESSIONS_VIEW_ID);
            container.addWidget(sessions, { canHide: true, initiallyCollapsed: false, weight: 1 });
            return container;
        }
    })).inSingletonScope();

    bindSandyProjectCommands(bind);
    bindViewContribution(bind, SandyViewContribution);
    bind(FrontendApplicationContribution).toService(SandyViewContribution);
    bind(TabBarToolbarContribution).toService(SandyViewContribution);

    bind(SandyStatusBar).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(SandyStatusBar);

    bind(SandyTerminalKeybindings).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(SandyTerminalKeybindings);
    bind(KeybindingContribution).toService(SandyTerminalKeybindings);
    bind(CommandContribution).toService(SandyTerminalKeybindings);

    bindSandyBranding(bind, rebind);
});
