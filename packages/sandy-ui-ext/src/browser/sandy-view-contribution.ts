import { inject, injectable, interfaces } from '@theia/core/shared/inversify';
import {
    AbstractViewContribution, codicon, FrontendApplicationContribution, KeybindingContribution, KeybindingRegistry, WidgetManager, ApplicationShell
} from '@theia/core/lib/browser';
import { TabBarToolbarContribution, TabBarToolbarRegistry } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { CommandRegistry, CommandService, ILogger, MenuModelRegistry } from '@theia/core';
import { PreferenceScope, PreferenceService } from '@theia/core/lib/common/preferences';
import { OPEN_SETTINGS_TOOLTIP, ProjectCommands } from '@sandy-ui/core/common';
import type { SettingsScope } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyCommands } from './sandy-commands';
import { SandyProjectsWidget, SANDY_PROJECTS_CONTEXT_MENU, SANDY_PROJECTS_VIEW_ID } from './sandy-projects-widget';
import { SandyStateService } from './sandy-state-service';
import { SandyApprovalService } from './sandy-approval';
import { SandySettingsWidget, SANDY_SETTINGS_WIDGET_FACTORY_ID } from './sandy-settings-widget';
import { SandyHostUi } from './sandy-host-ui';
import { SandyTerminalManager } from './sandy-terminal-manager';
import { SandyProjectCommands } from './sandy-project-commands';
import { openSandyDashboard } from './sandy-dashboard-widget';
import { openSandyHistory } from './sandy-history-widget';
import { openSandyHistoryViewer } from './sandy-history-viewer-widget';
import { openSandyWizard } from './sandy-wizard-widget';

export const SANDY_VIEW_CONTAINER_ID = 'sandy-view-container';

/** Internal (not in the palette): show the Projects view, as VS Code's generated `sandy.projects.focus`. */
const REVEAL_PROJECTS_VIEW = 'sandy.internal.revealProjectsView';

/** Commands, menus, keybindings and the Sandy view in the activity bar; the handlers are core's ProjectCommands. */
@injectable()
export class SandyViewContribution extends AbstractViewContribution<SandyProjectsWidget> implements TabBarToolbarContribution, KeybindingContribution, FrontendApplicationContribution {
    @inject(SandyProjectCommands) protected readonly projects: SandyProjectCommands;
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(ILogger) protected readonly logger: ILogger;

    constructor() {
        super({
            widgetId: SANDY_VIEW_CONTAINER_ID,
            widgetName: 'Sandy',
            defaultWidgetOptions: { area: 'left', rank: 450 },
            toggleCommandId: SandyCommands.SHOW_VIEW.id,
            toggleKeybinding: 'ctrlcmd+shift+alt+y'
        });
    }

    /** The Sandy view is part of the default layout (activity bar), like the Explorer; at the first start it is the one shown. */
    async initializeLayout(): Promise<void> {
        await this.openView({ activate: false, reveal: true });
    }

    /**
     * Get Started opens by itself at the first start and whenever sandy is missing (core's wizardAtStart,
     * with the user's sandy.path). Not awaited: the shell shows at once, whatever the backend or a slow
     * file system takes.
     */
    async onDidInitializeLayout(): Promise<void> {
        void this.state.userSandyPath()
            .then(sandyPath => this.service.wizardAtStart(sandyPath))
            .then(offer => offer ? openSandyWizard(this.widgetManager, this.shell) : undefined)
            // The backend is unreachable (the Sandy view says so), or the tab could not open.
            .catch(e => this.logger.warn(`sandy: Get Started could not open: ${e instanceof Error ? e.message : String(e)}`));
    }

    override registerCommands(registry: CommandRegistry): void {
        super.registerCommands(registry);
        const p = this.projects;
        registry.registerCommand(SandyCommands.LAUNCH, { execute: (arg?: unknown) => p.launch(arg) });
        registry.registerCommand(SandyCommands.LAUNCH_WITH, { execute: (arg?: unknown) => p.launchWith(arg) });
        registry.registerCommand(SandyCommands.STOP, { execute: (arg?: unknown) => p.stop(arg), isEnabled: (arg?: unknown) => p.canStop(arg) });
        registry.registerCommand(SandyCommands.DETACH, { execute: (arg?: unknown) => p.detach(arg), isEnabled: (arg?: unknown) => p.canDetach(arg) });
        registry.registerCommand(SandyCommands.REATTACH, { execute: (arg?: unknown) => p.reattach(arg), isEnabled: (arg?: unknown) => p.canReattach(arg) });
        registry.registerCommand(SandyCommands.SWITCH_SESSION, { execute: () => p.switchSession() });
        registry.registerCommand(SandyCommands.ADD_PROJECT, { execute: () => p.addProject() });
        registry.registerCommand(SandyCommands.REFRESH, { execute: () => p.refresh() });
        registry.registerCommand(SandyCommands.REVEAL_SANDBOX, { execute: (arg?: unknown) => p.revealSandbox(arg), isEnabled: (arg?: unknown) => p.canRevealSandbox(arg) });
        registry.registerCommand(SandyCommands.COPY_WORKSPACE_PATH, { execute: (arg?: unknown) => p.copyWorkspacePath(arg) });
        registry.registerCommand(SandyCommands.REMOVE_SANDBOX, { execute: (arg?: unknown) => p.removeSandbox(arg), isEnabled: (arg?: unknown) => p.canRemoveSandbox(arg) });
        registry.registerCommand(SandyCommands.OPEN_SETTINGS, { execute: (arg?: unknown) => p.openSettings(arg) });
        registry.registerCommand(SandyCommands.REVOKE_APPROVAL, { execute: (arg?: unknown) => p.revokeApproval(arg), isEnabled: (arg?: unknown) => p.canRevokeApproval(arg) });
        registry.registerCommand(SandyCommands.REMOVE_PROJECT, { execute: (arg?: unknown) => p.removeProject(arg) });
        registry.registerCommand(SandyCommands.NEXT_WAITING, { execute: () => p.nextWaiting() });
        registry.registerCommand(SandyCommands.TOGGLE_DO_NOT_DISTURB, { execute: () => p.toggleDoNotDisturb() });
        registry.registerCommand(SandyCommands.SHOW_DASHBOARD, { execute: () => openSandyDashboard(this.widgetManager, this.shell) });
        registry.registerCommand(SandyCommands.SHOW_HISTORY, { execute: () => openSandyHistory(this.widgetManager, this.shell) });
        registry.registerCommand(SandyCommands.GET_STARTED, { execute: () => openSandyWizard(this.widgetManager, this.shell) });
        registry.registerCommand(SandyCommands.CHOOSE_SKILL_PACKS, { execute: (arg?: unknown) => p.chooseSkillPacks(arg) });
        registry.registerCommand(SandyCommands.FLEET_MAINTENANCE, { execute: (arg?: unknown) => p.fleetMaintenance(arg) });
        registry.registerCommand(SandyCommands.ASK_ONCE, { execute: (arg?: unknown) => p.askOnce(arg) });
        registry.registerCommand({ id: REVEAL_PROJECTS_VIEW }, { execute: () => this.openView({ activate: true, reveal: true }) });
    }

    override registerMenus(menus: MenuModelRegistry): void {
        super.registerMenus(menus);
        const lifecycle = [...SANDY_PROJECTS_CONTEXT_MENU, '1_lifecycle'];
        const folder = [...SANDY_PROJECTS_CONTEXT_MENU, '2_folder'];
        const danger = [...SANDY_PROJECTS_CONTEXT_MENU, '3_remove'];
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.LAUNCH.id, label: SandyCommands.LAUNCH.label, order: 'a' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.LAUNCH_WITH.id, label: SandyCommands.LAUNCH_WITH.label, order: 'a1' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.STOP.id, label: SandyCommands.STOP.label, order: 'b' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.DETACH.id, label: SandyCommands.DETACH.label, order: 'c' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.REATTACH.id, label: SandyCommands.REATTACH.label, order: 'd' });
        menus.registerMenuAction(lifecycle, { commandId: SandyCommands.ASK_ONCE.id, label: SandyCommands.ASK_ONCE.label, order: 'e' });
        menus.registerMenuAction(folder, { commandId: SandyCommands.OPEN_SETTINGS.id, label: SandyCommands.OPEN_SETTINGS.label, order: '0' });
        menus.registerMenuAction(folder, { commandId: SandyCommands.REVEAL_SANDBOX.id, label: SandyCommands.REVEAL_SANDBOX.label, order: 'a' });
        menus.registerMenuAction(folder, { commandId: SandyCommands.COPY_WORKSPACE_PATH.id, label: SandyCommands.COPY_WORKSPACE_PATH.label, order: 'b' });
        menus.registerMenuAction(folder, { commandId: SandyCommands.CHOOSE_SKILL_PACKS.id, label: SandyCommands.CHOOSE_SKILL_PACKS.label, order: 'c' });
        menus.registerMenuAction(danger, { commandId: SandyCommands.REVOKE_APPROVAL.id, label: SandyCommands.REVOKE_APPROVAL.label, order: '0' });
        menus.registerMenuAction(danger, { commandId: SandyCommands.REMOVE_SANDBOX.id, label: SandyCommands.REMOVE_SANDBOX.label, order: 'a' });
        menus.registerMenuAction(danger, { commandId: SandyCommands.REMOVE_PROJECT.id, label: SandyCommands.REMOVE_PROJECT.label, order: 'b' });
    }

    override registerKeybindings(keybindings: KeybindingRegistry): void {
        super.registerKeybindings(keybindings);
        keybindings.registerKeybinding({ command: SandyCommands.LAUNCH.id, keybinding: 'ctrlcmd+shift+alt+l' });
        keybindings.registerKeybinding({ command: SandyCommands.SWITCH_SESSION.id, keybinding: 'ctrlcmd+shift+alt+s' });
        keybindings.registerKeybinding({ command: SandyCommands.STOP.id, keybinding: 'ctrlcmd+shift+alt+x', when: 'activeEditor == undefined || true' });
        keybindings.registerKeybinding({ command: SandyCommands.DETACH.id, keybinding: 'ctrlcmd+shift+alt+d' });
        keybindings.registerKeybinding({ command: SandyCommands.NEXT_WAITING.id, keybinding: 'ctrlcmd+shift+alt+n' });
    }

    registerToolbarItems(registry: TabBarToolbarRegistry): void {
        const inProjects = (widget: unknown) => widget instanceof SandyProjectsWidget;
        registry.registerItem({ id: SandyCommands.ADD_PROJECT.id, command: SandyCommands.ADD_PROJECT.id, icon: codicon('add'), tooltip: SandyCommands.ADD_PROJECT.label, priority: 0, isVisible: inProjects });
        registry.registerItem({ id: SandyCommands.OPEN_SETTINGS.id, command: SandyCommands.OPEN_SETTINGS.id, icon: codicon('settings-gear'), tooltip: OPEN_SETTINGS_TOOLTIP, priority: 2, isVisible: inProjects });
        registry.registerItem({ id: SandyCommands.REFRESH.id, command: SandyCommands.REFRESH.id, icon: codicon('refresh'), tooltip: SandyCommands.REFRESH.label, priority: 1, isVisible: inProjects });
        registry.registerItem({ id: SandyCommands.SHOW_DASHBOARD.id, command: SandyCommands.SHOW_DASHBOARD.id, icon: codicon('dashboard'), tooltip: SandyCommands.SHOW_DASHBOARD.label, priority: 3, isVisible: inProjects });
        registry.registerItem({ id: SandyCommands.SHOW_HISTORY.id, command: SandyCommands.SHOW_HISTORY.id, icon: codicon('history'), tooltip: SandyCommands.SHOW_HISTORY.label, priority: 4, isVisible: inProjects });
        registry.registerItem({ id: SandyCommands.FLEET_MAINTENANCE.id, command: SandyCommands.FLEET_MAINTENANCE.id, icon: codicon('tools'), tooltip: SandyCommands.FLEET_MAINTENANCE.label, priority: 5, isVisible: inProjects });
    }
}

/** Core's project commands over Theia's ports (the HostUi, the terminal tabs, the views below). */
export function bindSandyProjectCommands(bind: interfaces.Bind): void {
    bind(SandyHostUi).toSelf().inSingletonScope();
    bind(SandyProjectCommands).toDynamicValue(({ container }) => {
        const widgets = container.get(WidgetManager);
        const shell = container.get<ApplicationShell>(ApplicationShell);
        const commands = container.get<CommandService>(CommandService);
        const window = container.get(SandyStateService).window;
        const preferences = container.get<PreferenceService>(PreferenceService);
        return new ProjectCommands({
            service: container.get<SandyService>(SandyService),
            state: window,
            notifications: {
                get doNotDisturb() { return window.configuration?.doNotDisturb === true; },
                // The user's own settings: a workspace cannot set it (its scope is the user's).
                setDoNotDisturb: on => preferences.set('sandy.doNotDisturb', on, PreferenceScope.User)
            },
            ui: container.get(SandyHostUi),
            tabs: container.get(SandyTerminalManager).tabs,
            projectsView: {
                get selectedProject() { return widgets.tryGetWidget<SandyProjectsWidget>(SANDY_PROJECTS_VIEW_ID)?.selectedProject; },
                reveal: async () => { await commands.executeCommand(REVEAL_PROJECTS_VIEW); }
            },
            settingsEditor: { open: (workspace, key, scope) => openSettingsEditor(widgets, shell, workspace, key, scope) },
            historyViewer: { open: id => openSandyHistoryViewer(widgets, shell, id) },
            // Called at ask time: the approval service itself injects these commands.
            approvals: { ask: request => container.get(SandyApprovalService).ask(request) }
        });
    }).inSingletonScope();
}

/** The settings editor tab of a workspace (Project and Global) or of Global alone, scrolled to `key`. */
export async function openSettingsEditor(widgets: WidgetManager, shell: ApplicationShell, workspace: string | undefined, key?: string, scope?: SettingsScope): Promise<void> {
    const widget = await widgets.getOrCreateWidget<SandySettingsWidget>(SANDY_SETTINGS_WIDGET_FACTORY_ID, { workspace });
    if (!widget.isAttached) {
        await shell.addWidget(widget, { area: 'main' });
    }
    await shell.activateWidget(widget.id);
    if (key) {
        await widget.reload();
        widget.revealKey(key, scope);
    }
}
