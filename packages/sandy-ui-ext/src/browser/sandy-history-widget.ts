import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell, codicon, WidgetManager } from '@theia/core/lib/browser';
import { openPageWidget, SandyPageWidget } from './sandy-page-widget';
import { HistoryListView } from '@sandy-ui/core/browser/history';
import { HISTORY_CAPTION, HISTORY_TITLE, HistoryController } from '@sandy-ui/core/common';
import type { HistoryRecord } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyStateService } from './sandy-state-service';
import { SandyHostUi } from './sandy-host-ui';
import { SandyProjectCommands } from './sandy-project-commands';
import { openSandyHistoryViewer } from './sandy-history-viewer-widget';

export const SANDY_HISTORY_WIDGET_ID = 'sandy-history';

/**
 * The History view in an editor tab: core's HistoryListView driven by core's HistoryController
 * (asks the backend only while this tab is visible and the page is shown; a row opens its record
 * in a viewer tab of its own, relaunches its project through sandy.launch's handler).
 */
@injectable()
export class SandyHistoryWidget extends SandyPageWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyHostUi) protected readonly ui: SandyHostUi;
    @inject(SandyProjectCommands) protected readonly projects: SandyProjectCommands;
    @inject(WidgetManager) protected readonly widgets: WidgetManager;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;

    protected view: HistoryListView;
    protected controller: HistoryController;

    protected get pageController() {
        return this.controller;
    }

    protected get pageView() {
        return this.view;
    }

    @postConstruct()
    protected init(): void {
        this.id = SANDY_HISTORY_WIDGET_ID;
        this.addClass('sandy-history-widget');
        this.title.label = HISTORY_TITLE;
        this.title.caption = HISTORY_CAPTION;
        this.title.closable = true;
        this.title.iconClass = codicon('history');
        this.node.tabIndex = -1;
        this.view = new HistoryListView(this.node, {
            search: text => this.controller.setSearch(text),
            filter: project => this.controller.setProject(project),
            open: id => void this.controller.open(id),
            relaunch: id => void this.controller.relaunch(id),
            remove: id => void this.controller.remove(id)
        });
        this.controller = new HistoryController({
            service: this.service,
            ui: this.ui,
            view: { show: state => this.view.render(state), showProblem: text => this.view.showProblem(text) },
            projects: () => this.state.window.projects,
            launch: project => this.projects.launch(project),
            openViewer: (record: HistoryRecord) => openSandyHistoryViewer(this.widgets, this.shell, record.id),
            onDidChangeSession: listener => this.state.window.onDidChangeSession(listener)
        });
        this.watchPage();
    }
}

/** Opens (or reveals) the window's one History tab. */
export function openSandyHistory(widgets: WidgetManager, shell: ApplicationShell): Promise<void> {
    return openPageWidget(widgets, shell, SANDY_HISTORY_WIDGET_ID);
}
