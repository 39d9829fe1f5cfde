import * as React from '@theia/core/shared/react';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { Message, ReactWidget, codicon } from '@theia/core/lib/browser';
import type { SessionGroup, SessionRow } from '@sandy-ui/core/common';
import { NO_SESSIONS_VIEW_TEXT, sessionGroups } from '@sandy-ui/core/common';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalManager } from './sandy-terminal-manager';

export const SANDY_SESSIONS_VIEW_ID = 'sandy-sessions';

/** How often the rows' ages ("asked 3 min ago") are redrawn while the view shows. */
const AGE_REFRESH_MS = 15_000;

/**
 * The Sessions view: every session grouped by where it stands for the user (core's sessionGroups):
 * "Needs you" first, the longest wait first, then working, idle and ended. Click or Enter shows the
 * session's tab (opening one on it if this window has none). A list, like the Projects view.
 */
@injectable()
export class SandySessionsWidget extends ReactWidget {
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyTerminalManager) protected readonly terminals: SandyTerminalManager;

    protected selectedId: string | undefined;
    protected ages: ReturnType<typeof setInterval> | undefined;

    @postConstruct()
    protected init(): void {
        this.id = SANDY_SESSIONS_VIEW_ID;
        this.title.label = 'Sessions';
        this.title.caption = 'Sandy Sessions';
        this.title.iconClass = codicon('bell');
        this.title.closable = true;
        this.addClass('sandy-sessions-widget');
        this.node.tabIndex = 0;
        this.toDispose.push(this.state.onDidChange(() => this.update()));
        this.toDispose.push(this.state.window.onDidChangeSession(() => this.update()));
        this.toDispose.push({ dispose: () => this.stopAges() });
        this.update();
    }

    protected override onAfterShow(msg: Message): void {
        super.onAfterShow(msg);
        this.state.setVisible(this.id, true);
        this.stopAges();
        this.ages = setInterval(() => this.update(), AGE_REFRESH_MS);
        this.update();
    }

    protected override onAfterHide(msg: Message): void {
        super.onAfterHide(msg);
        this.state.setVisible(this.id, false);
        this.stopAges();
    }

    protected override onBeforeDetach(msg: Message): void {
        this.state.setVisible(this.id, false);
        this.stopAges();
        super.onBeforeDetach(msg);
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        (this.node.querySelector<HTMLElement>('.sandy-session-row[tabindex="0"]') ?? this.node).focus();
    }

    protected stopAges(): void {
        if (this.ages !== undefined) {
            clearInterval(this.ages);
            this.ages = undefined;
        }
    }

    get groups(): SessionGroup[] {
        const projects = this.state.window.projects;
        return sessionGroups(this.state.window.sessions, Date.now(), workspace => projects.find(p => p.workspacePath === workspace)?.displayName);
    }

    protected render(): React.ReactNode {
        const groups = this.groups;
        if (!groups.length) {
            return <div className='theia-widget-noInfo sandy-empty sandy-sessions-empty'>{NO_SESSIONS_VIEW_TEXT}</div>;
        }
        const rows = groups.flatMap(g => g.rows);
        const focusable = rows.find(r => r.sessionId === this.selectedId) ?? rows[0];
        return <ul className='sandy-session-list' role='tree' aria-label='Sandy sessions'>
            {groups.map(g => <li key={g.id} role='treeitem' aria-expanded={true} className={`sandy-session-group sandy-session-group-${g.id}`} data-group={g.id}>
                <div className='sandy-session-group-label'>{g.label}</div>
                <ul role='group'>{g.rows.map(r => this.renderRow(r, rows, r === focusable))}</ul>
            </li>)}
        </ul>;
    }

    protected renderRow(r: SessionRow, rows: SessionRow[], focusable: boolean): React.ReactNode {
        return <li key={r.sessionId}
            className={`sandy-session-row sandy-attention-${r.state}${r.sessionId === this.selectedId ? ' selected' : ''}`}
            role='treeitem'
            aria-selected={r.sessionId === this.selectedId}
            aria-label={`${r.label} session: ${r.description}`}
            tabIndex={focusable ? 0 : -1}
            title={r.tooltip}
            data-session-id={r.sessionId}
            data-state={r.state}
            onClick={() => this.open(r)}
            onKeyDown={e => this.onKey(r, rows, e)}>
            <span className={`${codicon(r.icon)} sandy-state-icon`} aria-hidden='true' />
            <span className='sandy-project-name'>{r.label}</span>
            <span className='sandy-project-description'>{r.description}</span>
        </li>;
    }

    protected onKey(r: SessionRow, rows: SessionRow[], e: React.KeyboardEvent<HTMLElement>): void {
        const idx = rows.indexOf(r);
        const move = (to: SessionRow | undefined) => {
            if (to) {
                this.selectedId = to.sessionId;
                this.update();
                requestAnimationFrame(() => this.node.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(to.sessionId)}"]`)?.focus());
            }
        };
        switch (e.key) {
            case 'ArrowDown': move(rows[Math.min(idx + 1, rows.length - 1)]); break;
            case 'ArrowUp': move(rows[Math.max(idx - 1, 0)]); break;
            case 'Home': move(rows[0]); break;
            case 'End': move(rows[rows.length - 1]); break;
            case 'Enter':
            case ' ':
                this.open(r);
                break;
            default:
                return;
        }
        e.preventDefault();
        e.stopPropagation();
    }

    /** Show the session's tab: reveal it, or open one on the session. */
    protected open(r: SessionRow): void {
        this.selectedId = r.sessionId;
        this.update();
        const session = this.state.window.sessions.find(s => s.id === r.sessionId);
        if (session) {
            void this.terminals.tabs.attach(session);
        }
    }
}
