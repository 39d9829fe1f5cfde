import * as React from '@theia/core/shared/react';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import {
    CompositeTreeNode, ContextMenuRenderer, NodeProps, SelectableTreeNode, TreeModel, TreeNode, TreeProps, TreeWidget, codicon
} from '@theia/core/lib/browser';
import { MenuPath } from '@theia/core';
import type { DerivedProject } from '@sandy-ui/core';
import { ProjectsSnapshot } from '@sandy-ui/backend/lib/common';
import { SandyStateService } from './sandy-state-service';
import { describeProjectState, projectDescription, projectTooltip } from '@sandy-ui/core/lib/common/project-labels';

export const SANDY_PROJECTS_CONTEXT_MENU: MenuPath = ['sandy-projects-context-menu'];
export const SANDY_PROJECTS_VIEW_ID = 'sandy-projects';

export interface ProjectNode extends SelectableTreeNode {
    project: DerivedProject;
}
export namespace ProjectNode {
    export function is(node: unknown): node is ProjectNode {
        return SelectableTreeNode.is(node as TreeNode) && 'project' in (node as object);
    }
}

const STATE_ICONS: Record<string, string> = {
    fresh: 'circle-large-outline',
    current: 'pass',
    stale: 'history',
    locked: 'lock',
    running: 'debug-start'
};

/**
 * The Projects tree: one node per project (added workspaces and sandy's sandboxes), with its state
 * icon, path, agent, model and last launch; click launches, the context menu holds the lifecycle.
 */
@injectable()
export class SandyProjectsWidget extends TreeWidget {
    @inject(SandyStateService) protected readonly state: SandyStateService;

    constructor(
        @inject(TreeProps) props: TreeProps,
        @inject(TreeModel) model: TreeModel,
        @inject(ContextMenuRenderer) contextMenuRenderer: ContextMenuRenderer
    ) {
        super(props, model, contextMenuRenderer);
        this.id = SANDY_PROJECTS_VIEW_ID;
        this.title.label = 'Projects';
        this.title.caption = 'Sandy Projects';
        this.title.iconClass = codicon('server-environment');
        this.title.closable = true;
        this.addClass('sandy-projects-widget');
    }

    @postConstruct()
    protected override init(): void {
        super.init();
        const root: CompositeTreeNode = { id: 'sandy-projects-root', name: 'Projects', parent: undefined, children: [], visible: false };
        this.model.root = root;
        this.toDispose.push(this.state.onDidChange(snapshot => this.refreshNodes(snapshot)));
        if (this.state.snapshot) {
            this.refreshNodes(this.state.snapshot);
        }
    }

    protected override onAfterShow(msg: import('@theia/core/lib/browser').Message): void {
        super.onAfterShow(msg);
        this.state.setVisible(this.id, true);
    }

    protected override onAfterHide(msg: import('@theia/core/lib/browser').Message): void {
        super.onAfterHide(msg);
        this.state.setVisible(this.id, false);
    }

    protected refreshNodes(snapshot: ProjectsSnapshot): void {
        const root = this.model.root as CompositeTreeNode;
        const selected = new Set(this.model.selectedNodes.map(n => n.id));
        const children: ProjectNode[] = snapshot.projects.map(project => ({
            id: `sandy-project:${project.key}`,
            name: project.displayName,
            parent: root,
            selected: selected.has(`sandy-project:${project.key}`),
            project
        }));
        root.children = children;
        this.model.refresh(root);
        this.update();
    }

    get selectedProject(): DerivedProject | undefined {
        const node = this.model.selectedNodes.find(ProjectNode.is);
        return node?.project;
    }

    protected override renderIcon(node: TreeNode, _props: NodeProps): React.ReactNode {
        if (!ProjectNode.is(node)) {
            return undefined;
        }
        const state = node.project.state;
        return <div className={`${codicon(STATE_ICONS[state] ?? 'circle-outline')} sandy-state-icon sandy-state-${state}`}
            title={describeProjectState(node.project)} aria-label={describeProjectState(node.project)} />;
    }

    protected override renderCaption(node: TreeNode, props: NodeProps): React.ReactNode {
        if (!ProjectNode.is(node)) {
            return super.renderCaption(node, props);
        }
        return <div className='sandy-project-caption' title={projectTooltip(node.project)} data-project-key={node.project.key}
            data-state={node.project.state}>
            <span className='sandy-project-name'>{node.name}</span>
            <span className='sandy-project-description'>{projectDescription(node.project)}</span>
        </div>;
    }

    protected override handleDblClickEvent(node: TreeNode | undefined, event: React.MouseEvent<HTMLElement>): void {
        // Single click launches (spec); a double click must not launch twice.
        event.stopPropagation();
    }

    protected override handleClickEvent(node: TreeNode | undefined, event: React.MouseEvent<HTMLElement>): void {
        super.handleClickEvent(node, event);
        if (ProjectNode.is(node) && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
            this.state.requestLaunch(node.project);
        }
    }

    protected override toContextMenuArgs(node: SelectableTreeNode): unknown[] | undefined {
        return ProjectNode.is(node) ? [node.project] : undefined;
    }

    protected override renderTree(model: TreeModel): React.ReactNode {
        const snapshot = this.state.snapshot;
        const empty = this.renderEmptyOrError(snapshot);
        if (empty) {
            return empty;
        }
        return super.renderTree(model);
    }

    protected renderEmptyOrError(snapshot: ProjectsSnapshot | undefined): React.ReactNode {
        if (!snapshot) {
            return <div className='theia-widget-noInfo sandy-empty'>Looking for sandy…</div>;
        }
        const status = snapshot.status;
        if (!status.found) {
            return <div className='theia-widget-noInfo sandy-empty sandy-not-found'>
                <p><strong>sandy was not found.</strong></p>
                <p>{status.problem?.message ?? 'No sandy executable on PATH or in ~/.local/bin, /usr/local/bin, /opt/homebrew/bin, ~/bin.'}</p>
                <p>Install it:</p>
                <pre className='sandy-install-command'>curl -fsSL https://raw.githubusercontent.com/rappdw/sandy/main/install.sh | bash</pre>
                <p>or set <code>sandy.path</code> in Preferences, then press Refresh.</p>
            </div>;
        }
        const banner: React.ReactNode[] = [];
        if (snapshot.stateProblem) {
            banner.push(<div key='state' className='sandy-banner sandy-banner-error'>{snapshot.stateProblem.message} {snapshot.stateProblem.hint}</div>);
        }
        if (snapshot.dockerReachable === false) {
            banner.push(<div key='docker' className='sandy-banner sandy-banner-warning'>
                Docker is not reachable. Start Docker (Docker Desktop, or <code>sudo systemctl start docker</code>) — sandy needs it to launch.
            </div>);
        }
        if (snapshot.projects.length === 0) {
            return <div className='theia-widget-noInfo sandy-empty'>
                {banner}
                <p>No projects yet.</p>
                <p>Use <strong>Add Project</strong> (the + above) to pick a project folder, then click it to launch sandy.</p>
            </div>;
        }
        if (banner.length) {
            return <div className='sandy-projects-with-banner'>{banner}{super.renderTree(this.model)}</div>;
        }
        return undefined;
    }
}
