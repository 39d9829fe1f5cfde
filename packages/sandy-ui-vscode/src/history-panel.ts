import * as vscode from 'vscode';
import {
    HISTORY_CAPTION, HISTORY_RECORD_GONE_TEXT, HISTORY_TITLE, HistoryController, historyFailedText, historyViewerTitle, isHistoryId,
    loadHistoryTranscript, relaunchRecord, toProblem
} from '@sandy-ui/core/common';
import type { DerivedProject, EventLike, HistoryRecord, HostUi, Messenger, SandyService, SessionInfo } from '@sandy-ui/core/common';
import {
    historyListProtocol, historyListToHost, historyListToView, historyViewerProtocol, historyViewerToHost, historyViewerToView,
    HISTORY_VIEW_TYPE, HISTORY_VIEWER_VIEW_TYPE
} from './webview/history-protocol';
import { hostMessenger, webviewHtml, webviewOptions } from './webview-html';
import { SandyLog } from './logger';
import { onDidChangeTerminalAppearance, PageAppearance } from './terminal-appearance';

export interface HistoryPanelDeps {
    service: Pick<SandyService, 'listHistory' | 'readHistory' | 'removeHistory'>;
    ui: Pick<HostUi, 'confirm' | 'error' | 'writeClipboard'>;
    /** The window's projects (where a relaunch finds the record's project). */
    projects: () => readonly DerivedProject[];
    /** sandy.launch's handler (core's ProjectCommands.launch). */
    launch: (project: DerivedProject) => Promise<void>;
    onDidChangeSession: EventLike<SessionInfo>;
    log: SandyLog;
    extensionUri: vscode.Uri;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The window's History list (one webview panel, core's HistoryListView driven by core's
 * HistoryController here: it asks core only while the panel is visible and its page is ready) and
 * a read-only viewer panel per record (core's HistoryViewer, fed the record's pages one at a time,
 * each answered once the page's terminal parsed it).
 */
export class HistoryPanels implements vscode.Disposable {
    protected list: vscode.WebviewPanel | undefined;
    protected readonly viewers = new Map<string, vscode.WebviewPanel>();

    constructor(protected readonly deps: HistoryPanelDeps) { }

    show(): void {
        if (this.list) {
            this.list.reveal(vscode.ViewColumn.Active, false);
            return;
        }
        const { log, extensionUri } = this.deps;
        const panel = vscode.window.createWebviewPanel(HISTORY_VIEW_TYPE, HISTORY_TITLE, vscode.ViewColumn.Active, webviewOptions(extensionUri, false));
        this.list = panel;
        panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'sandy.svg');
        panel.webview.html = webviewHtml(panel.webview, extensionUri, 'history', HISTORY_CAPTION);
        const channel = hostMessenger(panel.webview, historyListProtocol, log);
        const page: Messenger<typeof historyListToView, typeof historyListToHost> = channel.messenger;
        let ready = false;
        const controller = new HistoryController({
            service: this.deps.service,
            ui: this.deps.ui,
            view: {
                show: state => page.notify('render', { state }),
                showProblem: text => page.notify('problem', { text: text.slice(0, 4096) })
            },
            projects: this.deps.projects,
            launch: this.deps.launch,
            openViewer: record => this.openViewer(record),
            onDidChangeSession: this.deps.onDidChangeSession
        });
        const sync = (): void => controller.setVisible(ready && panel.visible);
        const fail = (doing: string) => (e: unknown) => log.error(`sandy history: ${doing} failed: ${errorText(e)}`);
        page.onNotification('ready', () => {
            ready = true;
            // A reloaded page has nothing on screen: ask again at once.
            controller.setVisible(false);
            sync();
        });
        page.onNotification('search', ({ text }) => controller.setSearch(text));
        page.onNotification('filter', ({ project }) => controller.setProject(project));
        page.onNotification('open', ({ id }) => controller.open(id).catch(fail('opening a record')));
        page.onNotification('relaunch', ({ id }) => controller.relaunch(id).catch(fail('relaunching')));
        page.onNotification('remove', ({ id }) => controller.remove(id).catch(fail('deleting a record')));
        const viewState = panel.onDidChangeViewState(() => sync());
        panel.onDidDispose(() => {
            viewState.dispose();
            controller.dispose();
            channel.dispose();
            if (this.list === panel) {
                this.list = undefined;
            }
        });
    }

    /** The viewer of one record: revealed if open, else a new panel that reads the record's pages in. */
    openViewer(record: HistoryRecord): void {
        if (!isHistoryId(record.id)) {
            return;
        }
        const open = this.viewers.get(record.id);
        if (open) {
            open.reveal(vscode.ViewColumn.Active, false);
            return;
        }
        const { log, extensionUri, ui } = this.deps;
        const id = record.id;
        const title = historyViewerTitle(record);
        const panel = vscode.window.createWebviewPanel(HISTORY_VIEWER_VIEW_TYPE, title, vscode.ViewColumn.Active, webviewOptions(extensionUri, true));
        this.viewers.set(id, panel);
        panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'sandy.svg');
        panel.webview.html = webviewHtml(panel.webview, extensionUri, 'history-viewer', title);
        const channel = hostMessenger(panel.webview, historyViewerProtocol, log);
        const page: Messenger<typeof historyViewerToView, typeof historyViewerToHost> = channel.messenger;
        let disposed = false;
        let shown: HistoryRecord = record;
        const appearance = new PageAppearance(a => page.notify('appearance', a));
        const sendAppearance = (): void => appearance.update();
        // The user's terminal font and the colour theme, followed while the viewer is open.
        const changes = [onDidChangeTerminalAppearance(sendAppearance), vscode.window.onDidChangeActiveColorTheme(() => page.notify('theme'))];
        page.onNotification('ready', () => {
            // The user's terminal font, as in the sandy tab (and again whenever they change it); a (re)loaded page has none yet.
            appearance.reset();
            sendAppearance();
            page.notify('clear');
            loadHistoryTranscript(this.deps.service, id, {
                record: r => {
                    shown = r;
                    page.notify('record', { record: r });
                },
                write: async text => {
                    await page.request('write', { text });
                },
                done: result => page.notify('done', { cut: result.cut })
            }, { isCancelled: () => disposed }).then(found => {
                if (!found && !disposed) {
                    page.notify('problem', { text: HISTORY_RECORD_GONE_TEXT });
                }
            }, e => {
                if (!disposed) {
                    page.notify('problem', { text: historyFailedText('reading the session history', toProblem(e)).slice(0, 4096) });
                }
            });
        });
        page.onNotification('copy', ({ text }) => {
            ui.writeClipboard(text).catch(fail => log.error(`sandy history: copying failed: ${errorText(fail)}`));
        });
        page.onNotification('relaunch', () => {
            relaunchRecord(shown, { projects: this.deps.projects, launch: this.deps.launch, ui }).catch(e => log.error(`sandy history: relaunching failed: ${errorText(e)}`));
        });
        panel.onDidDispose(() => {
            disposed = true;
            changes.forEach(c => c.dispose());
            channel.dispose();
            if (this.viewers.get(id) === panel) {
                this.viewers.delete(id);
            }
        });
    }

    dispose(): void {
        this.list?.dispose();
        for (const panel of [...this.viewers.values()]) {
            panel.dispose();
        }
    }
}
