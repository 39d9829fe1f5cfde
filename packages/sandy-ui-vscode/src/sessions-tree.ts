import * as vscode from 'vscode';
import type { SessionGroup, SessionRow, TerminalTabs } from '@sandy-ui/core/common';
import { NO_SESSIONS_VIEW_TEXT, sessionGroups } from '@sandy-ui/core/common';
import { SandyState } from './sandy-state';
import type { SandyTerminalPanel } from './terminal-panel';

export const SESSIONS_VIEW_ID = 'sandy.sessions';
/**
 * The context key that shows the view (package.json `when`): set only where this plugin hosts the
 * sessions itself. Never set in the Sandy IDE (a guest), whose own Sessions view lists them; a view
 * shown there by default would also keep the guest's container from taking its Projects view's title.
 */
export const CONTEXT_HOSTS_SESSIONS = 'sandy.hostsSessions';
/**
 * Registered (not contributed): a session row's click, which shows the selected row's session (as
 * the Projects view's OPEN_ROW_COMMAND, without arguments: a re-rendered row drops them).
 */
export const OPEN_SESSION_ROW_COMMAND = 'sandy.sessions.openSelected';

/** How often the rows' ages ("asked 3 min ago") are redrawn while the view shows. */
const AGE_REFRESH_MS = 15_000;

type Node = { group: SessionGroup } | { row: SessionRow };

const STATE_COLORS: Readonly<Record<string, string>> = {
    'needs-you': 'charts.yellow',
    working: 'charts.green',
    failed: 'errorForeground'
};

/**
 * The Sessions view: core's sessionGroups as a tree — "Needs you" first (the longest wait first),
 * then working, idle, ended. A click shows the session's tab (one is opened on it if none shows it).
 */
export class SessionsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
    protected readonly onDidChangeTreeDataEmitter = new vscode.EventEmitter<void>();
    readonly onDidChangeTreeData = this.onDidChangeTreeDataEmitter.event;
    readonly view: vscode.TreeView<Node>;
    protected groups: SessionGroup[] = [];
    protected last = '';
    protected ages: ReturnType<typeof setInterval> | undefined;
    protected readonly toDispose: vscode.Disposable[] = [this.onDidChangeTreeDataEmitter];

    constructor(protected readonly state: SandyState, protected readonly tabs: TerminalTabs<SandyTerminalPanel>) {
        void vscode.commands.executeCommand('setContext', CONTEXT_HOSTS_SESSIONS, true);
        this.view = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: false });
        this.toDispose.push(this.view);
        this.toDispose.push(state.onDidChange(() => this.changed()));
        this.toDispose.push(state.onDidChangeSession(() => this.changed()));
        this.toDispose.push(this.view.onDidChangeVisibility(e => this.visibility(e.visible)));
        this.toDispose.push(vscode.commands.registerCommand(OPEN_SESSION_ROW_COMMAND, () => this.openSelected()));
        this.visibility(this.view.visible);
        this.changed();
    }

    protected visibility(visible: boolean): void {
        this.state.setVisible(SESSIONS_VIEW_ID, visible);
        if (this.ages !== undefined) {
            clearInterval(this.ages);
            this.ages = undefined;
        }
        if (visible) {
            this.ages = setInterval(() => this.changed(), AGE_REFRESH_MS);
            this.changed(true);
        }
    }

    protected changed(force = false): void {
        const projects = this.state.projects;
        this.groups = sessionGroups(this.state.sessions, Date.now(), workspace => projects.find(p => p.workspacePath === workspace)?.displayName);
        this.view.message = this.groups.length ? undefined : NO_SESSIONS_VIEW_TEXT;
        const json = JSON.stringify(this.groups);
        if (force || json !== this.last) {
            this.last = json;
            this.onDidChangeTreeDataEmitter.fire();
        }
    }

    getChildren(node?: Node): Node[] {
        if (!node) {
            return this.groups.map(group => ({ group }));
        }
        return 'group' in node ? node.group.rows.map(row => ({ row })) : [];
    }

    getTreeItem(node: Node): vscode.TreeItem {
        if ('group' in node) {
            const item = new vscode.TreeItem(node.group.label, vscode.TreeItemCollapsibleState.Expanded);
            item.id = `group:${node.group.id}`;
            item.contextValue = `sandySessionGroup group-${node.group.id}`;
            return item;
        }
        const r = node.row;
        const item = new vscode.TreeItem(r.label, vscode.TreeItemCollapsibleState.None);
        item.id = `session:${r.sessionId}`;
        item.description = r.description;
        item.tooltip = r.tooltip;
        const color = STATE_COLORS[r.state];
        item.iconPath = new vscode.ThemeIcon(r.icon, color ? new vscode.ThemeColor(color) : undefined);
        // Not `name, …` like a Projects row: a session reads as one ("alpha session: asked for you 2 min ago").
        item.accessibilityInformation = { label: `${r.label} session: ${r.description}` };
        item.contextValue = `sandySession state-${r.state}`;
        item.command = { command: OPEN_SESSION_ROW_COMMAND, title: 'Show' };
        return item;
    }

    /** Show the selected row's session: reveal its tab, or open one on it. */
    protected async openSelected(): Promise<void> {
        const node = this.view.selection[0];
        if (!node || !('row' in node)) {
            return;
        }
        const session = this.state.sessions.find(s => s.id === node.row.sessionId);
        if (session) {
            await this.tabs.attach(session);
        }
    }

    dispose(): void {
        this.visibility(false);
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
