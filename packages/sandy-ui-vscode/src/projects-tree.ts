import * as vscode from 'vscode';
import type { DerivedProject } from '@sandy-ui/core/common';
import {
    describeProjectState, projectDescription, projectsBanners, projectStateIcon, projectTooltip, SANDY_INSTALL_COMMAND, LOCATING_SANDY_TEXT, sandyViewState
} from '@sandy-ui/core/common';
import { SandyState } from './sandy-state';
import { WalkthroughTicks } from './walkthrough';
import { TerminalPanels } from './terminal-panel';

export const PROJECTS_VIEW_ID = 'sandy.projects';

/** Context keys the package.json `when` clauses read. */
export const CONTEXT_STATE = 'sandy.state';
/** Whether any project has been launched (the walkthrough's Launch step). */
export const CONTEXT_LAUNCHED = 'sandy.launched';
export const CONTEXT_GUEST = 'sandy.guest';
/** Registered (not contributed) by a guest: forwards a row click to the Sandy IDE's own `sandy.launch`. */
export const GUEST_LAUNCH_COMMAND = 'sandy.guest.launch';
/**
 * Registered (not contributed): a row's click, which launches the selected row. It carries no
 * argument on purpose: VS Code keeps a tree item command's arguments under an id that lives only as
 * long as the item, so a click that lands while its row is re-rendered (its launch, a poll, a
 * "min ago" ticking over) ran nothing ("Actual command not found, wanted to execute sandy.launch /44").
 * The click has selected its row by then (the selection reaches the extension host first).
 */
export const OPEN_ROW_COMMAND = 'sandy.projects.openSelected';

const STATE_COLORS: Readonly<Record<string, string>> = {
    running: 'charts.green',
    locked: 'charts.orange',
    stale: 'charts.yellow'
};

/**
 * The Projects view: one row per project (added workspaces, open folders and sandy's sandboxes),
 * with core's labels, tooltip and state icon. A click launches (or reveals the running tab); the
 * context menu holds the lifecycle, enabled per row through `viewItem` (state, live, attached, sandbox).
 */
export class ProjectsTree implements vscode.TreeDataProvider<DerivedProject>, vscode.Disposable {
    protected readonly onDidChangeTreeDataEmitter = new vscode.EventEmitter<DerivedProject | DerivedProject[] | undefined | void>();
    readonly onDidChangeTreeData = this.onDidChangeTreeDataEmitter.event;
    readonly view: vscode.TreeView<DerivedProject>;
    protected readonly toDispose: vscode.Disposable[] = [this.onDidChangeTreeDataEmitter];
    /**
     * The tree's elements, one per project key, kept across snapshots and updated in place: VS Code
     * finds an element to refresh by identity, and a context-menu command gets it as its argument.
     */
    protected readonly nodes = new Map<string, DerivedProject>();
    /** The rows as last rendered: their order, and each row's signature by key. */
    protected lastOrder: string | undefined;
    protected lastRows = new Map<string, string>();

    constructor(
        protected readonly state: SandyState, protected readonly terminals: TerminalPanels | undefined, protected readonly guest: boolean,
        /** The walkthrough's steps, ticked from this state (not in the Sandy IDE, which has no walkthrough). */
        protected readonly walkthrough?: WalkthroughTicks
    ) {
        this.view = vscode.window.createTreeView(PROJECTS_VIEW_ID, { treeDataProvider: this, showCollapseAll: false });
        this.toDispose.push(this.view);
        if (guest) {
            this.view.title = 'Projects (plugin)';
            this.view.description = 'in the Sandy IDE';
        }
        this.toDispose.push(state.onDidChange(() => this.changed()));
        this.toDispose.push(state.onDidChangeSession(() => this.changed()));
        if (terminals) {
            this.toDispose.push(terminals.tabs.onDidChange(() => this.changed()));
        }
        this.toDispose.push(this.view.onDidChangeVisibility(e => {
            state.setVisible(PROJECTS_VIEW_ID, e.visible);
            if (e.visible) {
                // Theia's plugin host drops refreshes for a view that was never opened: refresh on show.
                this.onDidChangeTreeDataEmitter.fire();
            }
        }));
        state.setVisible(PROJECTS_VIEW_ID, this.view.visible);
        this.changed();
    }

    get selected(): DerivedProject | undefined {
        return this.view.selection[0];
    }

    protected changed(): void {
        const snapshot = this.state.snapshot;
        const status = sandyViewState(snapshot);
        void vscode.commands.executeCommand('setContext', CONTEXT_STATE, status);
        // The walkthrough's "Launch sandy" step ticks once any project has been launched (sandy's record or ours).
        const launched = !!snapshot?.projects.some(p => p.lastLaunched !== undefined || p.state === 'running');
        void vscode.commands.executeCommand('setContext', CONTEXT_LAUNCHED, launched);
        if (this.state.looking) {
            this.walkthrough?.update({ state: status, launched });
        }
        const lines: string[] = [];
        if (this.guest) {
            lines.push('This view belongs to the Sandy plugin. Inside the Sandy IDE, launching runs the IDE\'s own Sandy commands (same core).');
        }
        // State lines go in the view's message, not in contributes.viewsWelcome: in Theia's plugin host a
        // welcome widget created before the plugin activates keeps the tree from ever being attached
        // (plugin-view-registry stops listening for the view's expansion once it has any widget).
        if (!snapshot || status === 'locating') {
            lines.push(LOCATING_SANDY_TEXT);
        } else if (!snapshot.status.found) {
            lines.push(`sandy was not found. ${snapshot.status.problem?.message ?? ''} Install it: ${SANDY_INSTALL_COMMAND} — or set sandy.path, then Refresh.`);
        } else if (!snapshot.projects.length && !this.guest) {
            lines.push('No projects yet. Use Add Project (+ above) to pick a project folder, then click it to launch sandy. Open folders appear here too.');
        }
        if (snapshot) {
            lines.push(...projectsBanners(snapshot).map(b => `${b.severity === 'error' ? '⛔' : '⚠'} ${b.text}`));
        }
        // Set each time: a host may have dropped an earlier value (Theia, while the view had no widget).
        this.view.message = lines.length ? lines.join('\n') : undefined;
        // Re-render only the rows that would change: every poll reports, and a re-render under the
        // pointer swallows the click (VS Code re-renders every row on a full refresh, so ten quick
        // clicks down the list while the first launches lost most of them). The whole tree only when
        // rows come, go or move.
        const projects = this.state.projects;
        const rows = new Map(projects.map(p => [p.key, JSON.stringify([this.treeItem(p), p.lastLaunched])]));
        const order = JSON.stringify([...rows.keys()]);
        const changed = projects.filter(p => rows.get(p.key) !== this.lastRows.get(p.key));
        const reordered = order !== this.lastOrder;
        this.lastOrder = order;
        this.lastRows = rows;
        const nodes = changed.map(p => this.node(p));
        if (reordered || (this.guest && nodes.length)) {
            // A guest's tree lives in Theia's plugin host, which is given whole refreshes only.
            this.onDidChangeTreeDataEmitter.fire();
        } else if (nodes.length) {
            this.onDidChangeTreeDataEmitter.fire(nodes);
        }
    }

    /** The project's element, its fields those of the latest snapshot. */
    protected node(p: DerivedProject): DerivedProject {
        const node = this.nodes.get(p.key);
        if (!node) {
            const created = { ...p };
            this.nodes.set(p.key, created);
            return created;
        }
        for (const key of Object.keys(node)) {
            if (!(key in p)) {
                delete (node as unknown as Record<string, unknown>)[key];
            }
        }
        return Object.assign(node, p);
    }

    getChildren(element?: DerivedProject): DerivedProject[] {
        if (element) {
            return [];
        }
        const projects = this.state.projects;
        const listed = new Set(projects.map(p => p.key));
        for (const key of [...this.nodes.keys()]) {
            if (!listed.has(key)) {
                this.nodes.delete(key);
            }
        }
        return projects.map(p => this.node(p));
    }

    getTreeItem(p: DerivedProject): vscode.TreeItem {
        return this.treeItem(this.state.projects.find(q => q.key === p.key) ?? p);
    }

    protected treeItem(p: DerivedProject): vscode.TreeItem {
        const item = new vscode.TreeItem(p.displayName, vscode.TreeItemCollapsibleState.None);
        item.id = p.key;
        item.description = projectDescription(p);
        item.tooltip = projectTooltip(p);
        const color = STATE_COLORS[p.state];
        item.iconPath = new vscode.ThemeIcon(projectStateIcon(p.state), color ? new vscode.ThemeColor(color) : undefined);
        item.accessibilityInformation = { label: `${p.displayName}, ${describeProjectState(p)}` };
        const live = this.state.liveSessions.some(s => s.workspace === p.workspacePath);
        const attached = !!(p.workspacePath && this.terminals?.tabs.tabByWorkspace(p.workspacePath));
        item.contextValue = [
            'sandyProject',
            `state-${p.state}`,
            p.workspacePath ? 'workspace' : 'noWorkspace',
            p.sandboxName ? 'sandbox' : 'noSandbox',
            p.sandboxPath ? 'sandboxPath' : '',
            live ? 'live' : 'idle',
            attached ? 'attached' : ''
        ].filter(Boolean).join(' ');
        // Single click launches (or reveals the running tab), as in the IDE's own view: the selected row
        // (OPEN_ROW_COMMAND); a guest hands the project to the IDE's own sandy.launch through GUEST_LAUNCH_COMMAND.
        item.command = this.guest
            ? { command: GUEST_LAUNCH_COMMAND, title: 'Launch', arguments: [plainProject(p)] }
            : { command: OPEN_ROW_COMMAND, title: 'Launch' };
        return item;
    }

    dispose(): void {
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}

/** A project as plain JSON: what a command argument may carry across to another host's handler. */
export function plainProject(p: DerivedProject): DerivedProject {
    return JSON.parse(JSON.stringify(p)) as DerivedProject;
}
