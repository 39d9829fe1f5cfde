import * as vscode from 'vscode';
import type { DerivedProject, SessionInfo } from '@sandy-ui/core/common';
import { removeSandboxPrompt, revokeApprovalText, sessionPickItem, workspaceLabel } from '@sandy-ui/core/common';
import { clearForLaunch, LaunchClearance, launchProject, runFailureText } from '@sandy-ui/core/common';
import type { ApprovalRequest } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { SandyState } from './sandy-state';
import { TerminalPanels } from './terminal-panel';
import { FallbackTerminals } from './fallback-terminal';
import { ApprovalPanels } from './approval-panel';
import { SettingsPanels } from './settings-panel';
import { ProjectsTree, PROJECTS_VIEW_ID } from './projects-tree';
import type { SandyIdeCommandId } from '@sandy-ui/core/common';
import { showInfo, showWarning, showError } from './messages';

export interface SandyCommandsDeps {
    core: SandyServiceCore;
    state: SandyState;
    /** Undefined without node-pty: sandy runs in the editor's own terminal ({@link FallbackTerminals}). */
    terminals: TerminalPanels | undefined;
    fallback: FallbackTerminals | undefined;
    approvals: ApprovalPanels;
    settings: SettingsPanels;
    tree: () => ProjectsTree | undefined;
}

function isProject(arg: unknown): arg is DerivedProject {
    return !!arg && typeof arg === 'object' && 'key' in arg && 'state' in arg;
}

function isSession(arg: unknown): arg is SessionInfo {
    return !!arg && typeof arg === 'object' && 'pid' in arg && 'id' in arg && 'status' in arg && !('state' in arg);
}

/** Command handlers: host glue over core's flows; every decision and text comes from core. */
export class SandyCommands {
    constructor(protected readonly deps: SandyCommandsDeps) { }

    register(): vscode.Disposable[] {
        const r = (id: SandyIdeCommandId, run: (...args: unknown[]) => unknown) => vscode.commands.registerCommand(id, run);
        return [
            r('sandy.launch', arg => this.launch(isProject(arg) ? arg : undefined)),
            r('sandy.stop', arg => this.stop(arg)),
            r('sandy.detach', arg => this.detach(isProject(arg) ? arg : undefined)),
            r('sandy.reattach', arg => this.reattach(isProject(arg) ? arg : undefined)),
            r('sandy.switchSession', () => this.switchSession()),
            r('sandy.addProject', () => this.addProject()),
            r('sandy.refresh', () => this.deps.state.refresh()),
            r('sandy.revealSandbox', arg => this.withProject(arg, p => this.revealSandbox(p))),
            r('sandy.copyWorkspacePath', arg => this.withProject(arg, p => vscode.env.clipboard.writeText(p.workspacePath ?? ''))),
            r('sandy.removeSandbox', arg => this.withProject(arg, p => this.removeSandbox(p))),
            r('sandy.removeProject', arg => this.withProject(arg, async p => {
                if (p.workspacePath) {
                    await this.deps.core.removeProject(p.workspacePath);
                    await this.deps.state.refresh();
                }
            })),
            r('sandy.openSettings', arg => this.openSettings(arg)),
            r('sandy.revokeApproval', arg => this.withProject(arg, p => this.revokeApproval(p)))
        ];
    }

    /** Pre-flight with the approval webview (core's flow); undefined: the user rejected. */
    clearForLaunch(workspace: string, first?: ApprovalRequest): Promise<LaunchClearance | undefined> {
        return clearForLaunch(workspace, {
            preflight: ws => this.deps.core.preflight(ws),
            ask: request => this.deps.approvals.ask(request),
            rebuildSandbox: ws => this.deps.core.rebuildSandbox(ws),
            openSettings: (ws, key, scope) => this.deps.settings.open(ws, key, scope),
            info: message => void showInfo(message),
            error: message => void showError(message)
        }, first);
    }

    protected sessionOf(arg: unknown): SessionInfo | undefined {
        if (isSession(arg)) {
            return arg;
        }
        if (isProject(arg)) {
            return this.deps.state.liveSessions.find(s => s.workspace === arg.workspacePath);
        }
        return undefined;
    }

    protected async withProject(arg: unknown, run: (p: DerivedProject) => unknown): Promise<void> {
        const target = isProject(arg) ? arg : this.deps.tree()?.selected ?? await this.pickProject('Select a project');
        if (target) {
            await run(target);
        }
    }

    protected async pickProject(placeHolder: string): Promise<DerivedProject | undefined> {
        const projects = this.deps.state.projects;
        if (!projects.length) {
            const action = await showInfo('Sandy: no projects yet.', 'Add Project');
            if (action === 'Add Project') {
                await this.addProject();
            }
            return undefined;
        }
        const picked = await vscode.window.showQuickPick(projects.map(p => ({ label: p.displayName, description: p.displayPath, detail: p.state, project: p })), { placeHolder });
        return picked?.project;
    }

    protected async pickSession(placeHolder: string): Promise<SessionInfo | undefined> {
        const sessions = this.deps.state.liveSessions;
        if (!sessions.length) {
            void showInfo('Sandy: no sandy sessions are running.');
            return undefined;
        }
        return (await vscode.window.showQuickPick(sessions.map(s => ({ ...sessionPickItem(s), session: s })), { placeHolder }))?.session;
    }

    async launch(project?: DerivedProject): Promise<void> {
        const { terminals, fallback } = this.deps;
        await launchProject(project, {
            pickProject: placeholder => this.pickProject(placeholder),
            revealExisting: async workspace => {
                const live = this.deps.state.liveSessions.find(s => s.workspace === workspace);
                if (live && terminals) {
                    terminals.attach(live);
                    return true;
                }
                if (fallback?.find(workspace)) {
                    await fallback.open(workspace, undefined);
                    return true;
                }
                return false;
            },
            clearForLaunch: workspace => this.clearForLaunch(workspace),
            open: async (workspace, clearance) => {
                if (terminals) {
                    terminals.openForWorkspace(workspace, clearance);
                } else {
                    await fallback?.open(workspace, clearance);
                }
            },
            error: message => void showError(message)
        });
    }

    async stop(arg?: unknown): Promise<void> {
        if (!this.deps.terminals) {
            const project = isProject(arg) ? arg : await this.pickProject('Stop sandy in which project?');
            if (project?.workspacePath && !this.deps.fallback?.stop(project.workspacePath)) {
                void showInfo('Sandy: no running session to stop.');
            }
            return;
        }
        let session = arg ? this.sessionOf(arg) : this.deps.terminals.activePanel?.sessionInfo;
        if (!session && !arg) {
            session = await this.pickSession('Stop which sandy session?');
        }
        if (!session || session.status === 'exited') {
            void showInfo('Sandy: no running session to stop.');
            return;
        }
        const ended = await this.deps.core.stop(session.id);
        if (ended) {
            void showInfo(`Sandy: ${workspaceLabel(ended.workspace)} stopped.`);
        }
    }

    async detach(project?: DerivedProject): Promise<void> {
        const terminals = this.deps.terminals;
        if (!terminals) {
            return;
        }
        const panel = project?.workspacePath ? terminals.findByWorkspace(project.workspacePath) : terminals.activePanel;
        panel?.dispose();
    }

    async reattach(project?: DerivedProject): Promise<void> {
        const terminals = this.deps.terminals;
        if (!terminals) {
            return;
        }
        const session = project ? this.sessionOf(project) : await this.pickSession('Reattach to which sandy session?');
        if (session) {
            terminals.attach(session);
        } else if (project) {
            void showInfo(`Sandy: ${project.displayName} has no running session.`);
        }
    }

    async switchSession(): Promise<void> {
        const session = await this.pickSession('Switch to sandy session');
        if (session) {
            this.deps.terminals?.attach(session);
        }
    }

    async addProject(): Promise<void> {
        const picked = await vscode.window.showOpenDialog({
            title: 'Add a project folder to Sandy',
            canSelectFolders: true,
            canSelectFiles: false,
            canSelectMany: false,
            openLabel: 'Add Project',
            defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri
        });
        const uri = picked?.[0];
        if (!uri) {
            return;
        }
        const outcome = await this.deps.core.addProject(uri.fsPath);
        if (outcome.problem) {
            void showError(`Sandy: ${outcome.problem.message} ${outcome.problem.hint}`);
            return;
        }
        for (const warning of outcome.warnings) {
            void showWarning(`Sandy (${workspaceLabel(outcome.workspace)}): ${warning}`);
        }
        await this.deps.state.refresh();
        await vscode.commands.executeCommand(`${PROJECTS_VIEW_ID}.focus`);
    }

    protected async revealSandbox(project: DerivedProject): Promise<void> {
        if (!project.sandboxPath) {
            void showInfo(`Sandy: ${project.displayName} has no sandbox yet — it is created on first launch.`);
            return;
        }
        const action = await showInfo(`Sandbox of ${project.displayName}: ${project.sandboxPath}`, 'Open in New Window', 'Copy Path');
        if (action === 'Copy Path') {
            await vscode.env.clipboard.writeText(project.sandboxPath);
        } else if (action === 'Open in New Window') {
            await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(project.sandboxPath), { forceNewWindow: true });
        }
    }

    /** The settings editor for a project (Project tab) or, without one, the Global settings. */
    async openSettings(arg?: unknown): Promise<void> {
        const given = arg && typeof arg === 'object' && !isProject(arg) ? arg as { workspace?: unknown; key?: unknown; scope?: unknown } : undefined;
        const workspace = isProject(arg) ? arg.workspacePath
            : typeof given?.workspace === 'string' ? given.workspace
                : this.deps.tree()?.selected?.workspacePath ?? vscode.workspace.workspaceFolders?.find(f => f.uri.scheme === 'file')?.uri.fsPath;
        const key = typeof given?.key === 'string' ? given.key : undefined;
        const scope = given?.scope === 'project' || given?.scope === 'global' ? given.scope : undefined;
        await this.deps.settings.open(workspace, key, scope);
    }

    protected async revokeApproval(project: DerivedProject): Promise<void> {
        if (!project.workspacePath) {
            return;
        }
        const removed = await this.deps.core.revokeApproval(project.workspacePath);
        void showInfo(revokeApprovalText(project.displayName, removed));
        await this.deps.state.refresh();
    }

    protected async removeSandbox(project: DerivedProject): Promise<void> {
        if (!project.workspacePath || !project.sandboxName) {
            void showInfo(`Sandy: ${project.displayName} has no sandbox to remove.`);
            return;
        }
        const confirmed = await showWarning(removeSandboxPrompt(project.displayPath), { modal: true }, 'Remove Sandbox');
        if (confirmed !== 'Remove Sandbox') {
            return;
        }
        const result = await this.deps.core.removeSandbox(project.workspacePath);
        if (result.ok) {
            void showInfo(`Sandy: sandbox of ${project.displayName} removed.`);
        } else {
            void showError(`Sandy: removing the sandbox failed (exit ${result.exitCode}): ${runFailureText(result)}`);
        }
        await this.deps.state.refresh();
    }
}
