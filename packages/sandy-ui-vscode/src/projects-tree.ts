import * as vscode from 'vscode';
import type { DerivedProject } from '@sandy-ui/core/common';
import {
    describeProjectState, projectDescription, projectsBanners, projectStateIcon, projectTooltip, SANDY_INSTALL_COMMAND
} from '@sandy-ui/core/common';
import { SandyState } from './sandy-state';
import { TerminalPanels } from './terminal-panel';

export const PROJECTS_VIEW_ID = 'sandy.projects';

/** Context keys the package.json `when` clauses read. */
export const CONTEXT_STATE = 'sandy.state';
export const CONTEXT_GUEST = 'sandy.guest';
/** Registered (not contributed) by a guest: forwards a row click to the Sandy IDE's own `sandy.launch`. */
export const GUEST_LAUNCH_COMMAND = 'sandy.guest.launch';

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
    protected readonly onDidChangeTreeDataEmitter = new vscode.EventEmitter<DerivedProject | undefined | void>();
    readonly onDidChangeTreeData = this.onDidChangeTreeDataEmitter.event;
    readonly view: vscode.TreeView<DerivedProject>;
    protected readonly toDispose: vscode.Disposable[] = [this.onDidChangeTreeDataEmitter];
    protected lastSignature: string | undefined;

    constructor(protected readonly state: SandyState, protected readonly terminals: TerminalPanels | undefined, protected readonly guest: boolean) {
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
        const status = !snapshot ? 'loading' : !snapshot.status.found ? 'notFound' : snapshot.projects.length ? 'ready' : 'empty';
        void vscode.commands.executeCommand('setContext', CONTEXT_STATE, status);
        const lines: string[] = [];
        if (this.guest) {
            lines.push('This view belongs to the Sandy plugin. Inside the Sandy IDE, launching runs the IDE\'s own Sandy commands (same core).');
        }
        // State lines go in the view's message, not in contributes.viewsWelcome: in Theia's plugin host a
        // welcome widget created before the plugin activates keeps the tree from ever being attached
        // (plugin-view-registry stops listening for the view's expansion once it has any widget).
        if (!snapshot) {
            lines.push('Looking for sandy…');
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
        // Re-render only when a row would change: every poll reports, and a re-render under the
        // pointer can swallow a click.
        const signature = JSON.stringify(this.state.projects.map(p => [this.getTreeItem(p), p.lastLaunched]));
        if (signature !== this.lastSignature) {
            this.lastSignature = signature;
            this.onDidChangeTreeDataEmitter.fire();
        }
    }

    getChildren(element?: DerivedProject): DerivedProject[] {
        return element ? [] : this.state.projects;
    }

    getTreeItem(p: DerivedProject): vscode.TreeItem {
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
        // Single click launches (or reveals the running tab), as in the IDE's own view; a guest hands
        // the project to the IDE's own sandy.launch through GUEST_LAUNCH_COMMAND.
        item.command = { command: this.guest ? GUEST_LAUNCH_COMMAND : 'sandy.launch', title: 'Launch', arguments: [plainProject(p)] };
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
