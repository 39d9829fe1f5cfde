import { systemTimers, Timers } from '../base/timers';
import type { DisposableLike, EventLike } from '../base/event';
import type { SandyService } from '../service/service-protocol';
import { toProblem } from '../service/service-protocol';
import type { HostUi } from '../host/host-ui';
import type { DerivedProject } from '../projects/project-state';
import type { SessionInfo } from './session-types';
import type { HistoryChunk, HistoryRecord } from './history-types';
import { isHistoryId, MAX_HISTORY_QUERY_TEXT } from './history-types';
import {
    HISTORY_DELETE_RUNNING_TEXT, HISTORY_RECORD_GONE_TEXT, historyDeleteConfirm, historyFailedText, historyProjectGoneText
} from '../host/labels';

/** The search box waits this long after the last key before it asks the backend. */
export const HISTORY_SEARCH_DEBOUNCE_MS = 250;
/** A session ending becomes one refresh, this long after the last of a burst. */
export const HISTORY_CHANGE_DEBOUNCE_MS = 500;
/** The viewer reads at most this many pages of a record (each at most 1 MiB); past that it says it stopped. */
export const HISTORY_MAX_PAGES = 64;

/** What the list's view shows (core's HistoryListView, directly or behind a webview). */
export interface HistoryListState {
    records: HistoryRecord[];
    /** The projects of the records, for the filter (the chosen one always among them). */
    projects: string[];
    /** The chosen project; undefined: all. */
    project?: string;
    /** The search text the records answer. */
    text: string;
}

export interface HistoryListViewPort {
    show(state: HistoryListState): void;
    /** The backend could not be asked: said on the view, the last rows kept. */
    showProblem(text: string): void;
}

/** The controller's timers (core's one-shot timers; a spec's fake ones). */
export type HistoryTimers = Timers;

export interface HistoryControllerDeps {
    service: Pick<SandyService, 'listHistory' | 'removeHistory'>;
    ui: Pick<HostUi, 'confirm' | 'error'>;
    view: HistoryListViewPort;
    /** The window's projects (the window state's), where a relaunch finds the record's project. */
    projects: () => readonly DerivedProject[];
    /** Launch a project: the host's `sandy.launch` (core's ProjectCommands.launch). */
    launch: (project: DerivedProject) => Promise<void>;
    /** Show a record in the read-only viewer (the host's tab for it, one per record). */
    openViewer: (record: HistoryRecord) => void | Promise<void>;
    /** The window's session changes: a session that ended is a new record's end (a refresh, debounced). */
    onDidChangeSession?: EventLike<SessionInfo>;
    timers?: HistoryTimers;
    searchDebounceMs?: number;
    changeDebounceMs?: number;
}

/**
 * The History view's decisions, for both hosts: the list asks the backend when the view becomes
 * visible, when the search text settles (debounced, at most {@link MAX_HISTORY_QUERY_TEXT}
 * characters) or the project filter changes, and when a session ends while it is visible; nothing
 * while it is hidden. One request at a time; a newer query than the one in flight runs after it,
 * and only the answer to the latest query is shown. A record opens in the viewer, relaunches its
 * project (found in the window's projects by its workspace), or — finished, and confirmed — is deleted.
 */
export class HistoryController implements DisposableLike {
    protected visible = false;
    protected disposed = false;
    protected text = '';
    protected project: string | undefined;
    protected records: HistoryRecord[] = [];
    protected searchTimer: unknown;
    protected changeTimer: unknown;
    protected inFlight: Promise<void> | undefined;
    protected again = false;
    protected readonly timers: HistoryTimers;
    protected readonly subscription: DisposableLike | undefined;

    constructor(protected readonly deps: HistoryControllerDeps) {
        this.timers = deps.timers ?? systemTimers;
        this.subscription = deps.onDidChangeSession?.(session => {
            if (session?.status === 'exited') {
                this.sessionEnded();
            }
        });
    }

    get isVisible(): boolean {
        return this.visible;
    }

    get query(): { text: string; project?: string } {
        return { text: this.text, project: this.project };
    }

    /** The view became visible (ask now) or hidden (ask nothing until shown again). */
    setVisible(visible: boolean): void {
        if (this.disposed || visible === this.visible) {
            return;
        }
        this.visible = visible;
        if (visible) {
            void this.refresh();
        } else {
            this.cancel('searchTimer');
            this.cancel('changeTimer');
        }
    }

    /** The search box changed: asks once the typing settles. Longer text is cut to the bound. */
    setSearch(text: unknown): void {
        if (this.disposed) {
            return;
        }
        const next = (typeof text === 'string' ? text : '').slice(0, MAX_HISTORY_QUERY_TEXT);
        if (next === this.text) {
            return;
        }
        this.text = next;
        this.cancel('searchTimer');
        if (!this.visible) {
            return;
        }
        this.searchTimer = this.timers.setTimeout(() => {
            this.searchTimer = undefined;
            void this.refresh();
        }, this.deps.searchDebounceMs ?? HISTORY_SEARCH_DEBOUNCE_MS);
    }

    /** The project filter changed (undefined or '': all projects): asks at once. */
    setProject(project: unknown): void {
        if (this.disposed) {
            return;
        }
        const next = typeof project === 'string' && project !== '' ? project.slice(0, 1024) : undefined;
        if (next === this.project) {
            return;
        }
        this.project = next;
        this.show();
        if (this.visible) {
            void this.refresh();
        }
    }

    /** Ask the backend for the records answering the current search and show them (while visible). */
    refresh(): Promise<void> {
        if (this.disposed || !this.visible) {
            return Promise.resolve();
        }
        if (this.inFlight) {
            this.again = true;
            return this.inFlight;
        }
        this.cancel('searchTimer');
        this.cancel('changeTimer');
        this.inFlight = (async () => {
            const text = this.text;
            try {
                // Every project's records for this text: the filter's choices come from them, the chosen project filters here.
                const records = await this.deps.service.listHistory(text ? { text } : undefined);
                if (!this.disposed && text === this.text) {
                    this.records = Array.isArray(records) ? records : [];
                    this.show();
                } else if (!this.disposed) {
                    this.again = true;
                }
            } catch (e) {
                if (!this.disposed) {
                    this.deps.view.showProblem(historyFailedText('reading the session history', toProblem(e)));
                }
            } finally {
                this.inFlight = undefined;
            }
            if (this.again && this.visible && !this.disposed) {
                this.again = false;
                await this.refresh();
            }
            this.again = false;
        })();
        return this.inFlight;
    }

    /** Opens a record in the viewer (the record as last listed; one that is gone is said and the list asked again). */
    async open(id: unknown): Promise<void> {
        const record = this.recordOf(id);
        if (!record) {
            return this.gone();
        }
        await this.deps.openViewer(record);
    }

    /** Relaunches the record's project (from the list or the viewer). */
    async relaunch(id: unknown): Promise<void> {
        const record = this.recordOf(id);
        if (!record) {
            return this.gone();
        }
        await relaunchRecord(record, this.deps);
    }

    /** Deletes a finished record after the user confirmed it; a running one is refused. */
    async remove(id: unknown): Promise<void> {
        const record = this.recordOf(id);
        if (!record) {
            return this.gone();
        }
        if (record.endedAt === undefined) {
            void this.deps.ui.error(HISTORY_DELETE_RUNNING_TEXT);
            return;
        }
        if (!await this.deps.ui.confirm(historyDeleteConfirm(record))) {
            return;
        }
        try {
            const removed = await this.deps.service.removeHistory(record.id);
            if (!removed) {
                void this.deps.ui.error(HISTORY_RECORD_GONE_TEXT);
            }
        } catch (e) {
            void this.deps.ui.error(historyFailedText('deleting the session history', toProblem(e)));
        }
        this.records = this.records.filter(r => r.id !== record.id);
        this.show();
        await this.refresh();
    }

    /** A session ended: its record is complete now (while visible: a refresh soon; a burst is one). */
    sessionEnded(): void {
        if (!this.visible || this.disposed) {
            return;
        }
        this.cancel('changeTimer');
        this.changeTimer = this.timers.setTimeout(() => {
            this.changeTimer = undefined;
            void this.refresh();
        }, this.deps.changeDebounceMs ?? HISTORY_CHANGE_DEBOUNCE_MS);
    }

    dispose(): void {
        this.disposed = true;
        this.visible = false;
        this.cancel('searchTimer');
        this.cancel('changeTimer');
        this.subscription?.dispose();
    }

    protected recordOf(id: unknown): HistoryRecord | undefined {
        return isHistoryId(id) ? this.records.find(r => r.id === id) : undefined;
    }

    protected async gone(): Promise<void> {
        void this.deps.ui.error(HISTORY_RECORD_GONE_TEXT);
        await this.refresh();
    }

    protected show(): void {
        if (this.disposed) {
            return;
        }
        const projects = [...new Set([...this.records.map(r => r.project), ...this.project !== undefined ? [this.project] : []])]
            .sort((a, b) => a.localeCompare(b));
        const records = this.project === undefined ? this.records : this.records.filter(r => r.project === this.project);
        this.deps.view.show({ records, projects, project: this.project, text: this.text });
    }

    protected cancel(which: 'searchTimer' | 'changeTimer'): void {
        if (this[which] !== undefined) {
            this.timers.clearTimeout(this[which]);
            this[which] = undefined;
        }
    }
}

/**
 * Relaunch a record's project: the window's project of that workspace, launched as `sandy.launch`
 * does (pre-flight first; an already running session is shown instead). A project no longer listed
 * is said, never guessed at from the record.
 */
export async function relaunchRecord(
    record: Pick<HistoryRecord, 'workspace' | 'project'>,
    deps: Pick<HistoryControllerDeps, 'projects' | 'launch' | 'ui'>
): Promise<void> {
    const project = deps.projects().find(p => p.workspacePath === record.workspace);
    if (!project) {
        void deps.ui.error(historyProjectGoneText(record.project, record.workspace));
        return;
    }
    await deps.launch(project);
}

/** Where the viewer's pages go. */
export interface HistoryTranscriptSink {
    /** The record, before any text (its header). */
    record(record: HistoryRecord): void;
    /** One page of display text (no OSC/DCS/APC/PM/SOS, BEL or C1; CSI kept), in order; resolves once shown. */
    write(text: string): void | Promise<void>;
    /** All pages read, or the bound hit (`cut`: bytes shown before it stopped). */
    done(result: { cut?: number }): void;
}

/**
 * Reads a record's output page after page into `sink`, in order, while the backend says there is
 * more (`nextOffset`), at most `maxPages` pages; an offset that does not advance ends it. Returns
 * false when there is no such record. A sink that is gone (`isCancelled`) stops it between pages.
 */
export async function loadHistoryTranscript(
    service: Pick<SandyService, 'readHistory'>,
    id: string,
    sink: HistoryTranscriptSink,
    options: { maxPages?: number; isCancelled?: () => boolean } = {}
): Promise<boolean> {
    if (!isHistoryId(id)) {
        return false;
    }
    const maxPages = Math.max(1, Math.min(HISTORY_MAX_PAGES, Math.floor(options.maxPages ?? HISTORY_MAX_PAGES)));
    let chunk: HistoryChunk | undefined = await service.readHistory(id, 0);
    if (!chunk || options.isCancelled?.()) {
        return !!chunk;
    }
    sink.record(chunk.record);
    let pages = 0;
    for (;;) {
        pages++;
        if (typeof chunk.text === 'string' && chunk.text) {
            await sink.write(chunk.text);
        }
        const next: number | undefined = chunk.nextOffset;
        if (next === undefined || !(next > chunk.offset) || options.isCancelled?.()) {
            sink.done({});
            return true;
        }
        if (pages >= maxPages) {
            sink.done({ cut: next });
            return true;
        }
        chunk = await service.readHistory(id, next);
        if (!chunk || options.isCancelled?.()) {
            sink.done({});
            return true;
        }
    }
}
