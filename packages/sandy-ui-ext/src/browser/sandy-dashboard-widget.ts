import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell, codicon, WidgetManager } from '@theia/core/lib/browser';
import { openPageWidget, SandyPageWidget } from './sandy-page-widget';
import { DashboardView } from '@sandy-ui/core/browser/dashboard';
import { DASHBOARD_CAPTION, DASHBOARD_TITLE, DashboardController } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalManager } from './sandy-terminal-manager';

export const SANDY_DASHBOARD_WIDGET_ID = 'sandy-dashboard';

/**
 * The Sessions dashboard in an editor tab: core's DashboardView driven by core's DashboardController
 * (asks the backend only while this tab is visible and the page is shown; a tile opens its session's
 * tab through the window's terminal registry).
 */
@injectable()
export class SandyDashboardWidget extends SandyPageWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyTerminalManager) protected readonly terminals: SandyTerminalManager;

    protected view: DashboardView;
    protected controller: DashboardController;

    protected get pageController() {
        return this.controller;
    }

    protected get pageView() {
        return this.view;
    }

    @postConstruct()
    protected init(): void {
        this.id = SANDY_DASHBOARD_WIDGET_ID;
        this.addClass('sandy-dashboard-widget');
        this.title.label = DASHBOARD_TITLE;
        this.title.caption = DASHBOARD_CAPTION;
        this.title.closable = true;
        this.title.iconClass = codicon('dashboard');
        this.node.tabIndex = -1;
        this.view = new DashboardView(this.node, { open: sessionId => void this.controller.open(sessionId) });
        this.controller = new DashboardController({
            service: this.service,
            tabs: { attach: session => this.terminals.tabs.attach(session) },
            view: { show: snapshot => this.view.render(snapshot), showProblem: text => this.view.showProblem(text) },
            onDidChangeSession: listener => this.state.window.onDidChangeSession(listener)
        });
        this.watchPage();
    }
}

/** Opens (or reveals) the window's one dashboard tab. */
export function openSandyDashboard(widgets: WidgetManager, shell: ApplicationShell): Promise<void> {
    return openPageWidget(widgets, shell, SANDY_DASHBOARD_WIDGET_ID);
}
