import * as vscode from 'vscode';
import { DASHBOARD_CAPTION, DASHBOARD_TITLE, DashboardController } from '@sandy-ui/core/common';
import type { EventLike, Messenger, SandyService, SessionInfo, SessionTabs } from '@sandy-ui/core/common';
import { dashboardProtocol, dashboardToHost, dashboardToView, DASHBOARD_VIEW_TYPE } from './webview/dashboard-protocol';
import { hostMessenger, webviewHtml, webviewOptions } from './webview-html';
import { SandyLog } from './logger';

export interface DashboardPanelDeps {
    service: Pick<SandyService, 'dashboard' | 'sessions'>;
    tabs: Pick<SessionTabs, 'attach'>;
    onDidChangeSession: EventLike<SessionInfo>;
    log: SandyLog;
    extensionUri: vscode.Uri;
}

/**
 * The window's one Sessions dashboard: core's DashboardView in a webview, driven by core's
 * DashboardController here (it asks core only while the panel is visible; a tile opens its
 * session's tab through the window's TerminalPanels).
 */
export class DashboardPanels implements vscode.Disposable {
    protected panel: vscode.WebviewPanel | undefined;

    constructor(protected readonly deps: DashboardPanelDeps) { }

    show(): void {
        if (this.panel) {
            this.panel.reveal(vscode.ViewColumn.Active, false);
            return;
        }
        const { log, extensionUri } = this.deps;
        const panel = vscode.window.createWebviewPanel(DASHBOARD_VIEW_TYPE, DASHBOARD_TITLE, vscode.ViewColumn.Active, webviewOptions(extensionUri, false));
        this.panel = panel;
        panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'sandy.svg');
        panel.webview.html = webviewHtml(panel.webview, extensionUri, 'dashboard', DASHBOARD_CAPTION);
        const channel = hostMessenger(panel.webview, dashboardProtocol, log);
        const page: Messenger<typeof dashboardToView, typeof dashboardToHost> = channel.messenger;
        let ready = false;
        const controller = new DashboardController({
            service: this.deps.service,
            tabs: this.deps.tabs,
            view: {
                show: snapshot => page.notify('render', { snapshot }),
                showProblem: text => page.notify('problem', { text: text.slice(0, 4096) })
            },
            onDidChangeSession: this.deps.onDidChangeSession
        });
        // Hidden (another tab in front, or the page not loaded yet): nothing is asked.
        const sync = (): void => controller.setVisible(ready && panel.visible);
        page.onNotification('ready', () => {
            ready = true;
            // A reloaded page has nothing on screen: show it at once.
            controller.setVisible(false);
            sync();
        });
        page.onNotification('open', ({ sessionId }) => {
            controller.open(sessionId).catch(e => log.error(`sandy dashboard: showing the session's tab failed: ${e instanceof Error ? e.message : String(e)}`));
        });
        const viewState = panel.onDidChangeViewState(() => sync());
        panel.onDidDispose(() => {
            viewState.dispose();
            controller.dispose();
            channel.dispose();
            if (this.panel === panel) {
                this.panel = undefined;
            }
        });
    }

    dispose(): void {
        this.panel?.dispose();
    }
}
