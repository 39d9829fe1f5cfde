import { inject, injectable } from '@theia/core/shared/inversify';
import { ApplicationShell, BaseWidget, codicon, Message, WidgetManager } from '@theia/core/lib/browser';
import { createHistoryViewer, HistoryViewer } from '@sandy-ui/core/browser/history';
import { HISTORY_RECORD_GONE_TEXT, historyFailedText, historyViewerTitle, isHistoryId, loadHistoryTranscript, relaunchRecord, toProblem } from '@sandy-ui/core/common';
import type { HistoryRecord } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyStateService } from './sandy-state-service';
import { SandyHostUi } from './sandy-host-ui';
import { SandyProjectCommands } from './sandy-project-commands';
import { SandyTerminalTheme } from './sandy-terminal-theme';
import { SandyTerminalAppearance } from './sandy-terminal-appearance';

export const SANDY_HISTORY_VIEWER_FACTORY_ID = 'sandy-history-viewer';

export interface SandyHistoryViewerOptions {
    id: string;
}

/**
 * One recorded session, read-only, in an editor tab: core's HistoryViewer (an xterm that takes no
 * input and answers nothing) fed the record's pages from the backend in order. Copy goes to the
 * clipboard through the host; Relaunch is sandy.launch's handler for the record's project.
 */
@injectable()
export class SandyHistoryViewerWidget extends BaseWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyHostUi) protected readonly ui: SandyHostUi;
    @inject(SandyProjectCommands) protected readonly projects: SandyProjectCommands;
    @inject(SandyTerminalTheme) protected readonly theme: SandyTerminalTheme;
    @inject(SandyTerminalAppearance) protected readonly appearance: SandyTerminalAppearance;

    protected viewer: HistoryViewer | undefined;
    protected record: HistoryRecord | undefined;
    protected recordId = '';

    setOptions(options: SandyHistoryViewerOptions): void {
        this.recordId = isHistoryId(options?.id) ? options.id : '';
        this.id = `${SANDY_HISTORY_VIEWER_FACTORY_ID}:${this.recordId}`;
        this.addClass('sandy-history-viewer-widget');
        this.title.label = this.recordId;
        this.title.closable = true;
        this.title.iconClass = codicon('history');
        this.node.tabIndex = -1;
        this.viewer = createHistoryViewer(this.node, {
            copy: text => void this.ui.writeClipboard(text),
            relaunch: () => {
                if (this.record) {
                    void relaunchRecord(this.record, { projects: () => this.state.window.projects, launch: p => this.projects.launch(p), ui: this.ui });
                }
            }
        }, { theme: this.theme.theme, appearance: this.appearance.appearance });
        this.toDispose.push({ dispose: () => this.viewer?.dispose() });
        // The user's terminal font, as in the sandy tab, and the colour theme, followed when they change.
        this.toDispose.push(this.appearance.onDidChange(appearance => this.viewer?.setAppearance(appearance)));
        this.toDispose.push(this.theme.onDidChange(theme => this.viewer?.setTheme(theme)));
        void this.load();
    }

    protected async load(): Promise<void> {
        const viewer = this.viewer!;
        try {
            const found = await loadHistoryTranscript(this.service, this.recordId, {
                record: record => {
                    this.record = record;
                    this.title.label = historyViewerTitle(record);
                    this.title.caption = record.workspace;
                    viewer.setRecord(record);
                },
                write: text => viewer.write(text),
                done: result => viewer.done(result)
            }, { isCancelled: () => this.isDisposed });
            if (!found && !this.isDisposed) {
                viewer.showProblem(HISTORY_RECORD_GONE_TEXT);
            }
        } catch (e) {
            if (!this.isDisposed) {
                viewer.showProblem(historyFailedText('reading the session history', toProblem(e)));
            }
        }
    }

    protected override onAfterShow(msg: Message): void {
        super.onAfterShow(msg);
        this.viewer?.fit();
    }

    protected override onResize(msg: Parameters<BaseWidget['onResize']>[0]): void {
        super.onResize(msg);
        this.viewer?.fit();
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        this.viewer?.focus();
        if (!this.node.contains(document.activeElement)) {
            this.node.focus();
        }
    }
}

/** Opens (or reveals) the viewer tab of one record. */
export async function openSandyHistoryViewer(widgets: WidgetManager, shell: ApplicationShell, id: string): Promise<void> {
    const widget = await widgets.getOrCreateWidget<SandyHistoryViewerWidget>(SANDY_HISTORY_VIEWER_FACTORY_ID, { id });
    if (!widget.isAttached) {
        await shell.addWidget(widget, { area: 'main' });
    }
    await shell.activateWidget(widget.id);
}
