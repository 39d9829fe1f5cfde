import * as React from '@theia/core/shared/react';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ContextMenuRenderer, Message, ReactWidget, codicon } from '@theia/core/lib/browser';
import { MenuPath } from '@theia/core';
import type { DerivedProject } from '@sandy-ui/core/common';
import {
    describeProjectState, projectDescription, projectsBanners, projectStateIcon, projectTooltip, SANDY_INSTALL_COMMAND, SANDY_SEARCHED_TEXT, LOCATING_SANDY_TEXT, sandyViewState
} from '@sandy-ui/core/common';
import type { ProjectsSnapshot } from '@sandy-ui/core/common';
import { SandyStateService } from './sandy-state-service';

export const SANDY_PROJECTS_CONTEXT_MENU: MenuPath = ['sandy-projects-context-menu'];
export const SANDY_PROJECTS_VIEW_ID = 'sandy-projects';

/**
 * The Projects view: one row per project (added workspaces, open folders and sandy's sandboxes) with
 * its state icon, path, agent, model and last launch. Click or Enter launches; the context menu
 * (right click, Shift+F10, the Menu key) holds the lifecycle; arrow keys move the selection.
 * A flat list needs no virtualisation, so this is an accessible `role=tree` list, not a TreeWidget.
 */
@injectable()
export class SandyProjectsWidget extends ReactWidget {
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(ContextMenuRenderer) protected readonly contextMenuRenderer: ContextMenuRenderer;

    protected selectedKey: string | undefined;
    protected readonly listRef = React.createRef<HTMLUListElement>();

    @postConstruct()
    protected init(): void {
        this.id = SANDY_PROJECTS_VIEW_ID;
        this.title.label = 'Projects';
        this.title.caption = 'Sandy Projects';
        this.title.iconClass = codicon('server-environment');
        this.title.closable = true;
        this.addClass('sandy-projects-widget');
        this.node.tabIndex = 0;
        this.toDispose.push(this.state.onDidChange(() => this.update()));
        this.update();
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        const row = this.node.querySelector<HTMLElement>('.sandy-project-row[aria-selected="true"]') ?? this.node.querySelector<HTMLElement>('.sandy-project-row');
        (row ?? this.node).focus();
    }

    protected override onAfterShow(msg: Message): void {
        super.onAfterShow(msg);
        this.state.setVisible(this.id, true);
    }

    protected override onAfterHide(msg: Message): void {
        super.onAfterHide(msg);
        this.state.setVisible(this.id, false);
    }

    protected override onBeforeDetach(msg: Message): void {
        this.state.setVisible(this.id, false);
        super.onBeforeDetach(msg);
    }

    get projects(): DerivedProject[] {
        return this.state.snapshot?.projects ?? [];
    }

    get selectedProject(): DerivedProject | undefined {
        return this.projects.find(p => p.key === this.selectedKey);
    }

    protected select(project: DerivedProject | undefined, focus = false): void {
        this.selectedKey = project?.key;
        this.update();
        if (focus && project) {
            requestAnimationFrame(() => this.node.querySelector<HTMLElement>(`[data-project-key="${CSS.escape(project.key)}"]`)?.focus());
        }
    }

    protected render(): React.ReactNode {
        const snapshot = this.state.snapshot;
        const empty = this.renderEmpty(snapshot);
        if (empty) {
            return empty;
        }
        return <div className='sandy-projects'>
            {this.renderBanners(snapshot!)}
            <ul className='sandy-project-list' role='tree' aria-label='Sandy projects' ref={this.listRef}>
                {this.projects.map(p => this.renderProject(p))}
            </ul>
        </div>;
    }

    protected renderProject(p: DerivedProject): React.ReactNode {
        const selected = p.key === this.selectedKey;
        const stateText = describeProjectState(p);
        return <li key={p.key}
            className={`sandy-project-row${selected ? ' selected' : ''}`}
            role='treeitem'
            aria-selected={selected}
            aria-label={`${p.displayName}, ${stateText}`}
            tabIndex={selected || (!this.selectedKey && p === this.projects[0]) ? 0 : -1}
            title={projectTooltip(p)}
            data-project-key={p.key}
            data-state={p.state}
            onClick={e => this.onRowClick(p, e)}
            onContextMenu={e => this.openContextMenu(p, e)}
            onKeyDown={e => this.onRowKey(p, e)}>
            <span className={`${codicon(projectStateIcon(p.state))} sandy-state-icon sandy-state-${p.state}`} aria-hidden='true' />
            <span className='sandy-project-name'>{p.displayName}</span>
            <span className='sandy-project-description'>{projectDescription(p)}</span>
        </li>;
    }

    protected onRowClick(p: DerivedProject, e: React.MouseEvent): void {
        this.select(p);
        if (e.detail <= 1 && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
            // Single click launches (spec, MVP pillar 1); the second click of a double click does not launch again.
            this.state.requestLaunch(p);
        }
    }

    protected onRowKey(p: DerivedProject, e: React.KeyboardEvent<HTMLElement>): void {
        const idx = this.projects.indexOf(p);
        switch (e.key) {
            case 'ArrowDown': this.select(this.projects[Math.min(idx + 1, this.projects.length - 1)], true); break;
            case 'ArrowUp': this.select(this.projects[Math.max(idx - 1, 0)], true); break;
            case 'Home': this.select(this.projects[0], true); break;
            case 'End': this.select(this.projects[this.projects.length - 1], true); break;
            case 'Enter':
            case ' ':
                this.select(p);
                this.state.requestLaunch(p);
                break;
            case 'ContextMenu':
                this.openContextMenu(p, e);
                break;
            case 'F10':
                if (e.shiftKey) {
                    this.openContextMenu(p, e);
                    break;
                }
                return;
            default:
                return;
        }
        e.preventDefault();
        e.stopPropagation();
    }

    protected openContextMenu(p: DerivedProject, e: React.MouseEvent | React.KeyboardEvent<HTMLElement>): void {
        e.preventDefault();
        e.stopPropagation();
        this.select(p);
        const target = e.currentTarget as HTMLElement;
        const rect = target.getBoundingClientRect();
        const anchor = 'clientX' in e && (e.clientX || e.clientY) ? { x: e.clientX, y: e.clientY } : { x: rect.left + 16, y: rect.bottom };
        this.contextMenuRenderer.render({ menuPath: SANDY_PROJECTS_CONTEXT_MENU, anchor, args: [p], context: target });
    }

    protected renderBanners(snapshot: ProjectsSnapshot): React.ReactNode {
        return projectsBanners(snapshot).map(b => <div key={b.kind} role={b.kind === 'state' ? 'alert' : 'status'}
            className={`sandy-banner sandy-banner-${b.severity}${b.kind === 'docker' ? ' sandy-docker-unreachable' : ''}`}>{b.text}</div>);
    }

    protected renderEmpty(snapshot: ProjectsSnapshot | undefined): React.ReactNode {
        const viewState = sandyViewState(snapshot);
        if (!snapshot || viewState === 'locating') {
            return <div className='theia-widget-noInfo sandy-empty sandy-locating'>{LOCATING_SANDY_TEXT}</div>;
        }
        const status = snapshot.status;
        if (!status.found) {
            return <div className='theia-widget-noInfo sandy-empty sandy-not-found'>
                <p><strong>sandy was not found.</strong></p>
                <p>{status.problem?.message ?? SANDY_SEARCHED_TEXT}</p>
                <p>Install it:</p>
                <pre className='sandy-install-command'>{SANDY_INSTALL_COMMAND}</pre>
                <p>or set <code>sandy.path</code> in Preferences, then press Refresh.</p>
            </div>;
        }
        if (snapshot.projects.length === 0) {
            return <div className='sandy-projects sandy-empty'>
                {this.renderBanners(snapshot)}
                <p>No projects yet.</p>
                <p>Use <strong>Add Project</strong> (the + above) to pick a project folder, then click it to launch sandy.</p>
            </div>;
        }
        return undefined;
    }
}
