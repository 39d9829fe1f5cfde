import { inject, injectable } from '@theia/core/shared/inversify';
import {
    AbstractViewContribution, codicon, FrontendApplicationContribution, ConfirmDialog, KeybindingContribution, KeybindingRegistry, QuickInputService, QuickPickItem
} from '@theia/core/lib/browser';
import { TabBarToolbarContribution, TabBarToolbarRegistry } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import { CommandRegistry, MenuModelRegistry, ILogger } from '@theia/core';
import URI from '@theia/core/lib/common/uri';
import { FileDialogService } from '@theia/filesystem/lib/browser';
import { WorkspaceService } from '@theia/workspace/lib/browser';
import type { DerivedProject, SessionInfo } from '@sandy-ui/core/common';
import { removeSandboxPrompt, revokeApprovalText, sessionPickItem, workspaceLabel } from '@sandy-ui/core/common';
import { launchProject, runFailureText } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyCommands } from './sandy-commands';
import { SandyProjectsWidget, SANDY_PROJECTS_CONTEXT_MENU } from './sandy-projects-widget';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalManager } from './sandy-terminal-manager';
import { SandyTerminalWidget } from './sandy-terminal-widget';
import { SandyApprovalService } from './sandy-approval';
import { SandySettingsWidget, SANDY_SETTINGS_WIDGET_FACTORY_ID } from './sandy-settings-widget';
import { SandyMessages } from './sandy-messages';

export const SANDY_VIEW_CONTAINER_ID = 'sandy-view-container';

/** Commands, menus, keybindings and the Sandy view in the activity bar. */
@injectable()
export class SandyViewContribution extends AbstractViewContribution<SandyProjectsWidget> implements TabBarToolbarContribution, KeybindingContribution, FrontendApplicationContribution {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyTerminalManager) protected readonly terminals: SandyTerminalManager;
    @inject(SandyMessages) protected readonly messages: SandyMessages;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(FileDialogService) protected readonly fileDialogs: FileDialogService;
    @inject(WorkspaceService) protected readonly workspaces: WorkspaceService;
    @inject(ClipboardService) protected readonly clipboard: ClipboardService;
    @inject(ILogger) protected readonly logger: ILogger;
    @inject(SandyApprovalService) protected readonly approvals: SandyApprovalService;

    constructor() {
        super({
            widgetId: SANDY_VIEW_CONTAINER_ID,
            widgetName: 'Sandy',
            defaultWidgetOptions: { area: 'left', rank: 450 },
            toggleCommandId: SandyCommands.SHOW_VIEW.id,
            toggleKeybinding: 'ctrlcmd+shift+alt+y'
        });
    }

    /** The Sandy view is part of the default layout (activity bar), like the Explorer. */
    async initializeLayout(): Promise<void> {
        await this.openView({ activate: false, reveal: false });
    }

    override registerCommands(registry: CommandRegistry): void {
        super.registerCommands(registry);
        registry.registerCommand(SandyCommands.LAUNCH, {
            execute: (project?: DerivedProject) => this.launch(project)
        });
        registry.registerCommand(SandyCommands.STOP, {
            execute: (arg?: DerivedProject | SessionInfo) => this.stop(arg),
            isEnabled: (arg?: DerivedProject) => !arg || !!this.sessionOf(arg)
        });
        registry.registerCommand(SandyCommands.DETACH, {
            execute: (arg?: DerivedProject) => this.detach(arg),
            isEnabled: (arg?: DerivedProject) => !!this.widgetFor(arg)
        });
        registry.registerCommand(SandyCommands.REATTACH, {
            execute: (arg?: DerivedProject) => this.reattach(arg),
            isEnabled: (arg?: DerivedProject) => !arg || !!this.sessionOf(arg)
        });
        registry.registerCommand(SandyCommands.SWITCH_SESSION, { execute: () => this.switchSession() });
        registry.registerCommand(SandyCommands.ADD_PROJECT, { execute: () => this.addProject() });
        registry.registerCommand(SandyCommands.REFRESH, { execute: () => this.state.refresh() });
        registry.registerCommand(SandyCommands.REVEAL_SANDBOX, {
            execute: (p?: DerivedProject) => this.withProject(p, project => this.revealSandbox(project)),
            isEnabled: (p?: DerivedProject) => !p || !!p.sandboxPath
        });
        registry.registerCommand(SandyCommands.COPY_WORKSPACE_PATH, {
            execute: (p?: DerivedProject) => this.withProject(p, project => this.clipboard.writeText(project.workspacePath ?? ''))
        });
        registry.registerCommand(SandyCommands.REMOVE_SANDBOX, {
            execute: (p?: DerivedProject) => this.withProject(p, project => this.removeSandbox(project)),
            isEnabled: (p?: DerivedProject) => !p || (!!p.sandboxName && p.state !== 'running')
        });
        registry.registerCommand(SandyCommands.OPEN_SETTINGS, {
            execute: (arg?: DerivedProject | { workspace?: string; key?: string; scope?: 'project' | 'global' }) => this.openSettings(arg)
        });
        registry.registerCommand(SandyCommands.REVOKE_APPROVAL, {
            execute: (p?: DerivedProject) => this.withProject(p, project => this.revokeApproval(project)),
            isEnabled: (p?: DerivedProject) => !p || !!p.workspacePath
        });
        registry.registerCommand(SandyCommands.REMOVE_PROJECT, {
            execute: (p?: DerivedProject) => this.withProject(p, async project => {
                if (project.workspacePath) {
                    await this.service.removeProject(project.workspacePath);
                    await this.state.refresh();
                }
            })
        });
    }

    override registerMenus(menus: MenuModelRegistry): void {
        super.registerMenus(menus);
        const lifecycle = [...SANDY_PROJECTS_CONTEXT_MENU, '1_lifecycle'];
        const folder = [...SANDY_PROJECTS_CONTEXT_MENU, '2_folder'];
        const danger = [...SANDY_PROJECTS_CONTEXT_MENU, '3_remove'];
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.LAUNCH.id, label: 'Launch', order: 'a' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.STOP.id, label: 'Stop', order: 'b' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.DETACH.id, label: 'Detach', order: 'c' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.REATTACH.id, label: 'Reattach', order: 'd' });
        menus.registerMenuAction(folder, { commandId: SandyCommands.OPEN_SETTINGS.id, label: 'Open Settings', order: '0' });
        menus.registerMenuAction(folder, { commandId: SandyCommands.REVEAL_SANDBOX.id, label: 'Reveal Sandbox Folder', order: 'a' });
        menus.registerMenuAction(folder, { commandId: SandyCommands.COPY_WORKSPACE_PATH.id, label: 'Copy Workspace Path', order: 'b' });
        menus.registerMenuAction(danger, { commandId: SandyCommands.REVOKE_APPROVAL.id, label: 'Revoke Approval', order: '0' });
        menus.registerMenuAction(danger, { commandId: SandyCommands.REMOVE_SANDBOX.id, label: 'Remove Sandbox…', order: 'a' });
        menus.registerMenuAction(danger, { commandId: SandyCommands.REMOVE_PROJECT.id, label: 'Remove from Projects', order: 'b' });
    }

    override registerKeybindings(keybindings: KeybindingRegistry): void {
        super.registerKeybindings(keybindings);
        keybindings.registerKeybinding({ command: SandyCommands.LAUNCH.id, keybinding: 'ctrlcmd+shift+alt+l' });
        keybindings.registerKeybinding({ command: SandyCommands.SWITCH_SESSION.id, keybinding: 'ctrlcmd+shift+alt+s' });
        keybindings.registerKeybinding({ command: SandyCommands.STOP.id, keybinding: 'ctrlcmd+shift+alt+x', when: 'activeEditor == undefined || true' });
        keybindings.registerKeybinding({ command: SandyCommands.DETACH.id, keybinding: 'ctrlcmd+shift+alt+d' });
    }

    registerToolbarItems(registry: TabBarToolbarRegistry): void {
        const inProjects = (widget: unknown) => widget instanceof SandyProjectsWidget;
        registry.registerItem({ id: SandyCommands.ADD_PROJECT.id, command: SandyCommands.ADD_PROJECT.id, icon: codicon('add'), tooltip: 'Add Project', priority: 0, isVisible: inProjects });
        registry.registerItem({ id: SandyCommands.OPEN_SETTINGS.id, command: SandyCommands.OPEN_SETTINGS.id, icon: codicon('settings-gear'), tooltip: 'Open Sandy Settings', priority: 2, isVisible: inProjects });
        registry.registerItem({ id: SandyCommands.REFRESH.id, command: SandyCommands.REFRESH.id, icon: codicon('refresh'), tooltip: 'Refresh', priority: 1, isVisible: inProjects });
    }

    // ---- operations ------------------------------------------------------------------------

    protected projectWidget(): SandyProjectsWidget | undefined {
        return this.tryGetWidget() as SandyProjectsWidget | undefined;
    }

    protected activeTerminal(): SandyTerminalWidget | undefined {
        const current = this.shell.currentWidget ?? this.shell.activeWidget;
        return current instanceof SandyTerminalWidget ? current : undefined;
    }

    protected sessionOf(arg: DerivedProject | SessionInfo): SessionInfo | undefined {
        if ('pid' in arg && 'id' in arg && 'status' in arg && !('state' in arg)) {
            return arg as SessionInfo;
        }
        const project = arg as DerivedProject;
        return this.state.liveSessions.find(s => s.workspace === project.workspacePath);
    }

    protected widgetFor(arg: DerivedProject | undefined): SandyTerminalWidget | undefined {
        if (!arg) {
            return this.activeTerminal();
        }
        return arg.workspacePath ? this.terminals.findByWorkspace(arg.workspacePath) : undefined;
    }

    protected async withProject(project: DerivedProject | undefined, run: (p: DerivedProject) => unknown): Promise<void> {
        const target = project ?? this.projectWidget()?.selectedProject ?? await this.pickProject('Select a project');
        if (target) {
            await run(target);
        }
    }

    protected async pickProject(placeholder: string): Promise<DerivedProject | undefined> {
        const projects = this.state.snapshot?.projects ?? [];
        if (!projects.length) {
            const action = await this.messages.info('Sandy: no projects yet.', 'Add Project');
            if (action === 'Add Project') {
                await this.addProject();
            }
            return undefined;
        }
        const items: Array<QuickPickItem & { project: DerivedProject }> = projects.map(p => ({
            label: p.displayName, description: p.displayPath, detail: p.state, project: p
        }));
        const picked = await this.quickInput.showQuickPick(items, { placeholder });
        return picked?.project;
    }

    async launch(project?: DerivedProject): Promise<void> {
        await launchProject(project, {
            pickProject: placeholder => this.pickProject(placeholder),
            revealExisting: async workspace => {
                const live = this.state.liveSessions.find(s => s.workspace === workspace);
                if (live) {
                    await this.terminals.attach(live);
                }
                return !!live;
            },
            clearForLaunch: workspace => this.approvals.clearForLaunch(workspace),
            open: async (workspace, clearance) => { await this.terminals.openForWorkspace(workspace, clearance); },
            error: message => this.messages.error(message)
        });
    }

    async stop(arg?: DerivedProject | SessionInfo): Promise<void> {
        let session = arg ? this.sessionOf(arg) : this.activeTerminal()?.sessionInfo;
        if (!session && !arg) {
            session = await this.pickSession('Stop which sandy session?');
        }
        if (!session || session.status === 'exited') {
            this.messages.info('Sandy: no running session to stop.');
            return;
        }
        const ended = await this.service.stop(session.id);
        if (ended) {
            this.messages.info(`Sandy: ${workspaceLabel(ended.workspace)} stopped.`);
        }
    }

    async detach(arg?: DerivedProject): Promise<void> {
        const widget = this.widgetFor(arg);
        if (widget) {
            await this.terminals.detach(widget);
        }
    }

    async reattach(arg?: DerivedProject): Promise<void> {
        const session = arg ? this.sessionOf(arg) : await this.pickSession('Reattach to which sandy session?');
        if (session) {
            await this.terminals.attach(session);
        } else if (arg) {
            this.messages.info(`Sandy: ${arg.displayName} has no running session.`);
        }
    }

    protected async pickSession(placeholder: string): Promise<SessionInfo | undefined> {
        const sessions = this.state.liveSessions;
        if (!sessions.length) {
            this.messages.info('Sandy: no sandy sessions are running.');
            return undefined;
        }
        const items = sessions.map(s => ({ ...sessionPickItem(s), session: s }));
        return (await this.quickInput.showQuickPick(items, { placeholder }))?.session;
    }

    async switchSession(): Promise<void> {
        const session = await this.pickSession('Switch to sandy session');
        if (session) {
            await this.terminals.attach(session);
        }
    }

    async addProject(): Promise<void> {
        const roots = this.workspaces.tryGetRoots();
        const picked = await this.fileDialogs.showOpenDialog({
            title: 'Add a project folder to Sandy',
            canSelectFolders: true,
            canSelectFiles: false,
            openLabel: 'Add Project'
        }, roots[0]);
        const uri = Array.isArray(picked) ? picked[0] : picked;
        if (!uri) {
            return;
        }
        const outcome = await this.service.addProject(uri.path.fsPath());
        if (outcome.problem) {
            this.messages.error(`Sandy: ${outcome.problem.message} ${outcome.problem.hint}`);
            return;
        }
        for (const warning of outcome.warnings) {
            this.messages.warn(`Sandy (${workspaceLabel(outcome.workspace)}): ${warning}`);
        }
        await this.state.refresh();
        await this.openView({ activate: true, reveal: true });
    }

    protected async revealSandbox(project: DerivedProject): Promise<void> {
        if (!project.sandboxPath) {
            this.messages.info(`Sandy: ${project.displayName} has no sandbox yet — it is created on first launch.`);
            return;
        }
        const action = await this.messages.info(`Sandbox of ${project.displayName}: ${project.sandboxPath}`, 'Open in New Window', 'Copy Path');
        if (action === 'Copy Path') {
            await this.clipboard.writeText(project.sandboxPath);
        } else if (action === 'Open in New Window') {
            this.workspaces.open(new URI().withScheme('file').withPath(project.sandboxPath), { preserveWindow: false });
        }
    }

    /** The settings editor for a project (Project tab) or, without one, the Global settings. */
    async openSettings(arg?: DerivedProject | { workspace?: string; key?: string; scope?: 'project' | 'global' }): Promise<void> {
        const workspace = arg && 'state' in arg ? arg.workspacePath
            : (arg as { workspace?: string } | undefined)?.workspace
            ?? this.projectWidget()?.selectedProject?.workspacePath
            ?? this.workspaces.tryGetRoots()[0]?.resource.path.fsPath();
        const key = arg && !('state' in arg) ? arg.key : undefined;
        const scope = arg && !('state' in arg) ? arg.scope : undefined;
        const widget = await this.widgetManager.getOrCreateWidget<SandySettingsWidget>(SANDY_SETTINGS_WIDGET_FACTORY_ID, { workspace });
        if (!widget.isAttached) {
            await this.shell.addWidget(widget, { area: 'main' });
        }
        await this.shell.activateWidget(widget.id);
        if (key) {
            await widget.reload();
            widget.revealKey(key, scope);
        }
    }

    protected async revokeApproval(project: DerivedProject): Promise<void> {
        if (!project.workspacePath) {
            return;
        }
        const removed = await this.service.revokeApproval(project.workspacePath);
        this.messages.info(revokeApprovalText(project.displayName, removed));
        await this.state.refresh();
    }

    protected async removeSandbox(project: DerivedProject): Promise<void> {
        if (!project.workspacePath || !project.sandboxName) {
            this.messages.info(`Sandy: ${project.displayName} has no sandbox to remove.`);
            return;
        }
        const confirmed = await new ConfirmDialog({
            title: 'Remove sandbox',
            msg: removeSandboxPrompt(project.displayPath),
            ok: 'Remove Sandbox',
            cancel: 'Cancel'
        }).open();
        if (!confirmed) {
            return;
        }
        const result = await this.service.removeSandbox(project.workspacePath);
        if (result.ok) {
            this.messages.info(`Sandy: sandbox of ${project.displayName} removed.`);
        } else {
            this.messages.error(`Sandy: removing the sandbox failed (exit ${result.exitCode}): ${runFailureText(result)}`);
        }
        await this.state.refresh();
    }
}

