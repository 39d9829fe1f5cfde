import type { HistoryRecord } from '../../common/session/history-types';
import { MAX_HISTORY_QUERY_TEXT } from '../../common/session/history-types';
import type { HistoryListState } from '../../common/session/history-controller';
import {
    HISTORY_ALL_PROJECTS, HISTORY_DELETE, HISTORY_EMPTY_TEXT, HISTORY_NO_MATCH_TEXT, HISTORY_PROJECT_FILTER_LABEL, HISTORY_RELAUNCH,
    HISTORY_ROW_HINT, HISTORY_SEARCH_LABEL, HISTORY_SEARCH_PLACEHOLDER, historyDurationText, historyExitText, historyRowLabel,
    historySizeText, historyStartText
} from '../../common/host/labels';
import { DomFactory, domBuilder } from '../dom';

/** What the History list asks of its host (the Theia widget's controller, or the webview's bridge to the plugin's). */
export interface HistoryListHost {
    search(text: string): void;
    /** undefined: all projects. */
    filter(project: string | undefined): void;
    open(id: string): void;
    relaunch(id: string): void;
    remove(id: string): void;
}

/** Longest project name a row or the filter shows (a record's name is the workspace's, bounded again here). */
const MAX_NAME = 200;
/** Most rows drawn (the backend lists at most 500). */
const MAX_ROWS = 500;

/**
 * The History list, one implementation for every host: a search box (the host debounces), a project
 * filter, and a row per recorded session — project, start, duration, exit, size — whose main button
 * opens it (click or Enter), with Relaunch and Delete beside it (Delete only for a finished one).
 * Everything a record says is text (the DOM helper makes no markup).
 */
export class HistoryListView {
    protected readonly doc: Document;
    protected readonly h: DomFactory;
    protected readonly search: HTMLInputElement;
    protected readonly projectFilter: HTMLSelectElement;
    protected readonly problem: HTMLElement;
    protected readonly list: HTMLElement;
    protected rendered = false;

    constructor(readonly container: HTMLElement, protected readonly host: HistoryListHost) {
        this.doc = container.ownerDocument;
        const h = this.h = domBuilder(this.doc);
        container.classList.add('sandy-history');
        this.search = h('input', {
            type: 'search', class: 'sandy-history-search', placeholder: HISTORY_SEARCH_PLACEHOLDER, 'aria-label': HISTORY_SEARCH_LABEL,
            maxlength: MAX_HISTORY_QUERY_TEXT, spellcheck: 'false',
            on: { input: () => this.host.search(this.search.value.slice(0, MAX_HISTORY_QUERY_TEXT)) }
        });
        this.projectFilter = h('select', {
            class: 'sandy-history-project', 'aria-label': HISTORY_PROJECT_FILTER_LABEL,
            on: { change: () => this.host.filter(this.projectFilter.value === '' ? undefined : this.projectFilter.value) }
        }, h('option', { value: '' }, HISTORY_ALL_PROJECTS));
        this.problem = h('div', { class: 'sandy-history-problem', role: 'alert', hidden: true });
        this.list = h('div', { class: 'sandy-history-list', role: 'list', on: { keydown: e => this.onKey(e) } });
        container.replaceChildren(h('div', { class: 'sandy-history-toolbar' }, this.search, this.projectFilter), this.problem, this.list);
    }

    render(state: HistoryListState, now = Date.now()): void {
        const h = this.h;
        this.problem.hidden = true;
        this.problem.textContent = '';
        // The box shows the controller's text: always on the first render (a reloaded page), later only while the user is not typing in it.
        if ((!this.rendered || this.doc.activeElement !== this.search) && this.search.value !== state.text) {
            this.search.value = String(state.text ?? '').slice(0, MAX_HISTORY_QUERY_TEXT);
        }
        const projects = (Array.isArray(state.projects) ? state.projects : []).slice(0, MAX_ROWS).map(p => String(p));
        this.projectFilter.replaceChildren(
            h('option', { value: '' }, HISTORY_ALL_PROJECTS),
            ...projects.map(p => h('option', { value: p }, p.slice(0, MAX_NAME))));
        this.projectFilter.value = state.project !== undefined && projects.includes(state.project) ? state.project : '';
        this.rendered = true;
        const focused = (this.doc.activeElement as HTMLElement | null)?.closest?.<HTMLElement>('.sandy-history-row')?.dataset.historyId;
        const focusedAction = (this.doc.activeElement as HTMLElement | null)?.dataset?.action;
        const records = (Array.isArray(state.records) ? state.records : []).slice(0, MAX_ROWS);
        if (!records.length) {
            this.list.replaceChildren(h('p', { class: 'sandy-history-empty' }, state.text || state.project ? HISTORY_NO_MATCH_TEXT : HISTORY_EMPTY_TEXT));
            return;
        }
        this.list.replaceChildren(...records.map(r => this.renderRow(r, now)));
        if (focused !== undefined) {
            const row = this.rows().find(r => r.dataset.historyId === focused);
            row?.querySelector<HTMLElement>(`[data-action="${focusedAction === 'relaunch' || focusedAction === 'remove' ? focusedAction : 'open'}"]`)?.focus();
        }
    }

    /** The backend could not be asked: said above the rows, which stay as they were. */
    showProblem(text: string): void {
        this.problem.textContent = text;
        this.problem.hidden = false;
    }

    /** The search box gets the focus (the host does it when the view is activated). */
    focus(): void {
        this.search.focus();
    }

    protected renderRow(record: HistoryRecord, now: number): HTMLElement {
        const h = this.h;
        const id = String(record.id);
        const running = record.endedAt === undefined;
        const failed = record.exitCode !== undefined && record.exitCode !== 0;
        return h('div', { class: ['sandy-history-row', running && 'sandy-history-row-running'], role: 'listitem', dataset: { historyId: id } },
            h('button', {
                type: 'button', class: 'sandy-history-open', dataset: { action: 'open' },
                'aria-label': historyRowLabel(record), title: `${String(record.workspace)}\n${HISTORY_ROW_HINT}`,
                on: { click: () => this.host.open(id) }
            },
            h('span', { class: 'sandy-history-project-name' }, String(record.project).slice(0, MAX_NAME)),
            h('span', { class: 'sandy-history-started' }, historyStartText(record.startedAt)),
            h('span', { class: 'sandy-history-duration' }, historyDurationText(record, now)),
            h('span', { class: ['sandy-history-exit', failed && 'sandy-history-exit-failed'] }, historyExitText(record)),
            h('span', { class: 'sandy-history-size' }, historySizeText(record.bytes))),
            h('button', { type: 'button', class: 'sandy-history-action', dataset: { action: 'relaunch' }, on: { click: () => this.host.relaunch(id) } }, HISTORY_RELAUNCH),
            h('button', {
                type: 'button', class: 'sandy-history-action', dataset: { action: 'remove' }, disabled: running,
                on: { click: () => this.host.remove(id) }
            }, HISTORY_DELETE));
    }

    protected rows(): HTMLElement[] {
        return [...this.list.querySelectorAll<HTMLElement>('.sandy-history-row')];
    }

    /** Up and Down move between the rows' open buttons. */
    protected onKey(event: KeyboardEvent): void {
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') {
            return;
        }
        const opens = [...this.list.querySelectorAll<HTMLElement>('.sandy-history-open')];
        const current = opens.indexOf(event.target as HTMLElement);
        if (current < 0) {
            return;
        }
        event.preventDefault();
        opens[Math.max(0, Math.min(opens.length - 1, current + (event.key === 'ArrowDown' ? 1 : -1)))].focus();
    }
}
