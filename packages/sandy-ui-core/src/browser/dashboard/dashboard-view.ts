import type { DashboardSnapshot, DashboardTile } from '../../common/session/dashboard-types';
import { boundedThumbnail } from '../../common/session/dashboard-types';
import { compareAttention } from '../../common/session/session-attention';
import {
    DASHBOARD_EMPTY_TEXT, DASHBOARD_STATE_LABELS, DASHBOARD_TILE_HINT, dashboardCpuText, dashboardDockerUnreachableText,
    dashboardElapsedText, dashboardLastActivityText, dashboardMemoryText, dashboardTileLabel, paneAttentionText
} from '../../common/host/labels';
import { DomFactory, domBuilder } from '../dom';

/** What the dashboard view asks of its host (the Theia widget's controller, or the webview's bridge to the plugin's). */
export interface DashboardViewHost {
    /** Show that session's tab. */
    open(sessionId: string): void;
}

/**
 * The Sessions dashboard, one implementation for every host: a grid of tiles in the attention
 * queue's order (needs-you first), each a focusable button (Tab, the arrow keys, Home/End move
 * between them; Enter or a click asks the host for that session's tab) with its project, agent,
 * state badge, elapsed time, last activity, CPU and memory, and its screen's thumbnail in a `<pre>`.
 * Everything an agent or Docker said is text (the DOM helper makes no markup).
 */
export class DashboardView {
    protected readonly doc: Document;
    protected readonly h: DomFactory;
    protected readonly banner: HTMLElement;
    protected readonly problem: HTMLElement;
    protected readonly grid: HTMLElement;
    protected snapshot: DashboardSnapshot | undefined;

    constructor(readonly container: HTMLElement, protected readonly host: DashboardViewHost) {
        this.doc = container.ownerDocument;
        this.h = domBuilder(this.doc);
        container.classList.add('sandy-dashboard');
        this.banner = this.h('div', { class: 'sandy-dashboard-docker', role: 'status', hidden: true });
        this.problem = this.h('div', { class: 'sandy-dashboard-problem', role: 'alert', hidden: true });
        this.grid = this.h('div', { class: 'sandy-dashboard-grid', role: 'list', on: { keydown: e => this.onKey(e) } });
        container.replaceChildren(this.banner, this.problem, this.grid);
    }

    /**
     * Shows a snapshot; the focused tile keeps its focus across the redraw. Ages are counted to when
     * the backend made it (its clock, the one the sessions' times are on).
     */
    render(snapshot: DashboardSnapshot, now = snapshot.at): void {
        this.snapshot = snapshot;
        const h = this.h;
        const focused = (this.doc.activeElement as HTMLElement | null)?.closest?.<HTMLElement>('.sandy-dashboard-tile')?.dataset.sessionId;
        const docker = snapshot.docker;
        this.banner.hidden = docker.state !== 'unreachable';
        this.banner.textContent = docker.state === 'unreachable' ? dashboardDockerUnreachableText(String(docker.reason)) : '';
        this.problem.hidden = true;
        this.problem.textContent = '';
        const tiles = [...snapshot.tiles].sort((a, b) => compareAttention(a.attention, b.attention));
        if (!tiles.length) {
            this.grid.replaceChildren(h('p', { class: 'sandy-dashboard-empty' }, DASHBOARD_EMPTY_TEXT));
            return;
        }
        this.grid.replaceChildren(...tiles.map((tile, i) => this.renderTile(tile, now, focused === undefined ? i === 0 : tile.sessionId === focused)));
        if (focused !== undefined) {
            this.tiles().find(t => t.dataset.sessionId === focused)?.focus();
        }
    }

    /** The backend could not be asked: said above the tiles, which stay as they were. */
    showProblem(text: string): void {
        this.problem.textContent = text;
        this.problem.hidden = false;
    }

    /** Moves the focus to the first tile (the host does it when the dashboard is activated). */
    focus(): void {
        (this.tiles()[0] ?? this.container).focus();
    }

    protected renderTile(tile: DashboardTile, now: number, tabStop: boolean): HTMLElement {
        const h = this.h;
        const state = tile.attention.state;
        const thumbnail = tile.thumbnail ? boundedThumbnail(tile.thumbnail.lines, tile.thumbnail.cols, tile.thumbnail.rows) : undefined;
        return h('div', { class: 'sandy-dashboard-cell', role: 'listitem' },
            h('button', {
                type: 'button',
                class: ['sandy-dashboard-tile', `sandy-dashboard-tile-${state}`],
                dataset: { sessionId: tile.sessionId, state },
                // One tab stop for the grid; the arrow keys move within it.
                tabindex: tabStop ? 0 : -1,
                'aria-label': dashboardTileLabel(tile),
                title: `${tile.workspace}\n${DASHBOARD_TILE_HINT}`,
                on: { click: () => this.host.open(tile.sessionId) }
            },
            h('div', { class: 'sandy-dashboard-tile-head' },
                h('span', { class: 'sandy-dashboard-project' }, tile.project),
                h('span', { class: ['sandy-dashboard-badge', `sandy-dashboard-badge-${state}`] }, DASHBOARD_STATE_LABELS[state] ?? String(state))),
            h('div', { class: 'sandy-dashboard-meta' },
                tile.agent ? h('span', { class: 'sandy-dashboard-agent' }, tile.agent) : undefined,
                h('span', { class: 'sandy-dashboard-elapsed' }, dashboardElapsedText(tile.startedAt, tile.endedAt, now)),
                h('span', { class: 'sandy-dashboard-activity' }, dashboardLastActivityText(tile.lastOutputAt, now))),
            tile.attention.panes?.length
                ? h('div', { class: 'sandy-dashboard-panes' }, ...tile.attention.panes.map(p =>
                    h('span', { class: ['sandy-dashboard-pane', `sandy-dashboard-pane-${p.state}`] }, paneAttentionText([p]))))
                : undefined,
            h('div', { class: 'sandy-dashboard-figures' },
                h('span', { class: 'sandy-dashboard-cpu' }, dashboardCpuText(tile.cpuPercent)),
                h('span', { class: 'sandy-dashboard-memory' }, dashboardMemoryText(tile.memoryBytes, tile.memoryLimit))),
            h('pre', { class: 'sandy-dashboard-thumbnail', 'aria-hidden': 'true' }, thumbnail ? thumbnail.lines.join('\n') : '')));
    }

    protected tiles(): HTMLElement[] {
        return [...this.grid.querySelectorAll<HTMLElement>('.sandy-dashboard-tile')];
    }

    /** Arrow keys, Home and End move the focus between tiles (in reading order, the grid's columns as laid out). */
    protected onKey(event: KeyboardEvent): void {
        const tiles = this.tiles();
        const current = tiles.indexOf(event.target as HTMLElement);
        if (current < 0) {
            return;
        }
        const columns = this.columns(tiles);
        const next = {
            ArrowRight: current + 1, ArrowLeft: current - 1, ArrowDown: current + columns, ArrowUp: current - columns,
            Home: 0, End: tiles.length - 1
        }[event.key];
        if (next === undefined) {
            return;
        }
        event.preventDefault();
        const target = tiles[Math.max(0, Math.min(tiles.length - 1, next))];
        for (const tile of tiles) {
            tile.tabIndex = tile === target ? 0 : -1;
        }
        target.focus();
    }

    /** Tiles in the first row (same top as the first); 1 where there is no layout (a spec's DOM). */
    protected columns(tiles: HTMLElement[]): number {
        if (!tiles.length || tiles.every(t => t.getBoundingClientRect().width === 0)) {
            return 1;
        }
        const top = tiles[0].getBoundingClientRect().top;
        return Math.max(1, tiles.filter(t => t.getBoundingClientRect().top === top).length);
    }
}
