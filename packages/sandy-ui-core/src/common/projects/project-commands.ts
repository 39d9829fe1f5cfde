import type { DerivedProject } from './project-state';
import type { SessionInfo } from '../session/session-types';
import type { ApprovalDecision, ApprovalRequest } from '../approvals/approval-model';
import type { SettingsScope } from '../settings/settings-dto';
import type { AddProjectOutcome, SandyFolderSource, SandyService } from '../service/service-protocol';
import { toProblem } from '../service/service-protocol';
import type { HostUi } from '../host/host-ui';
import type { SessionTabs, SessionTab } from '../terminal/session-tabs';
import { clearForLaunch, LaunchClearance, launchProject, LaunchProjectHost } from '../session/launch-flow';
import {
    ADD_PROJECT_ACTION, runFailureText, ADD_PROJECT_TITLE, commandFailedText, COPY_PATH_ACTION, NO_PROJECTS_TEXT, NO_SESSION_TO_STOP_TEXT, NO_SESSIONS_TEXT,
    noRunningSessionText, noSandboxToRemoveText, noSandboxYetText, OPEN_IN_NEW_WINDOW_ACTION, PICK_PROJECT_PLACEHOLDER, problemNoticeText,
    projectPickItem, REATTACH_PICK_PLACEHOLDER, REMOVE_SANDBOX_ACTION, REMOVE_SANDBOX_TITLE, removeSandboxFailedText,
    removeSandboxPrompt, revokeApprovalText, sandboxLocationText, sandboxRemovedText, sessionPickItem, sessionStoppedText, STOP_PICK_PLACEHOLDER,
    SWITCH_PICK_PLACEHOLDER, NO_SESSION_WAITING_TEXT, doNotDisturbText, addProjectSummaryText, CREATE_SANDY_FOLDER_ACTION, COPY_SANDY_FOLDER_ACTION,
    COPY_SANDY_FOLDER_PLACEHOLDER, createSandyFolderTitle, COPY_SECRETS_TITLE, copySecretsText, sandyFolderCreatedText, workspaceLabel,
    CHOOSE_FOLDER_LABEL, projectRemovedText, LAUNCH_FOLDER_ACTION, LAUNCH_FOLDER_TITLE, NO_SKILL_PACKS_TEXT, SKILL_PACKS_GLOBAL_LABEL, SKILL_PACKS_SCOPE_PLACEHOLDER, skillPacksPlaceholder, skillPacksSavedText, skillPacksShadowedText
} from '../host/labels';
import { nextWaiting } from '../session/sessions-view';
import {
    agentPickItems, LAUNCH_WITH_AGENTS_PLACEHOLDER, LAUNCH_WITH_NOTHING_OFFERED_TEXT, LAUNCH_WITH_PLACEHOLDER, launchWithArgs,
    launchWithRunningText, offeredLaunchOptions
} from '../session/launch-options';
import type { ProjectsSnapshot } from '../service/service-protocol';
import {
    availableFleetActions, fleetAction, fleetConfirmText, fleetDoneText, fleetFailedText, FleetOptions, FLEET_IDLE_PLACEHOLDER, FLEET_PICK_PLACEHOLDER,
    fleetNothingToDoText, fleetPlanFailedText, fleetPlanTitle, fleetPlanningText, fleetRunningText, NO_FLEET_ACTIONS_TEXT, UPDATE_SESSIONS_IDLE_CHOICES
} from '../maintenance/fleet';
import {
    headlessDoneText, headlessFailedText, headlessPromptPlaceholder, headlessPromptProblem, headlessRunningText, HEADLESS_PROMPT_TITLE
} from '../session/headless';

/** A command argument that is a project (a tree row, or a plain JSON copy of one from another host). */
export function isProject(arg: unknown): arg is DerivedProject {
    return !!arg && typeof arg === 'object' && 'key' in arg && 'state' in arg;
}

/** A command argument that is a session (the status bar, a notification), not a project. */
export function isSession(arg: unknown): arg is SessionInfo {
    return !!arg && typeof arg === 'object' && 'pid' in arg && 'id' in arg && 'status' in arg && !('state' in arg);
}

/** "Open Settings" at a place: `{ workspace, key, scope }` (the approval view's Open Settings, a refusal). */
export interface SettingsTarget {
    workspace?: string;
    key?: string;
    scope?: SettingsScope;
}

/** The Projects view of the host (Theia's widget, VS Code's tree). */
export interface ProjectsViewPort {
    /** The row the user selected, if any: the project of a command run from the palette. */
    readonly selectedProject: DerivedProject | undefined;
    /** Show the view (after Add Project). */
    reveal(): Promise<void>;
}

/** The host's settings editor. */
export interface SettingsEditorPort {
    /** The editor of a canonical workspace (Project and Global), or of Global alone; scrolled to `key` when given. */
    open(workspace: string | undefined, key?: string, scope?: SettingsScope): Promise<void>;
}

/** The host's pre-flight approval view. */
export interface ApprovalPort {
    /** Show the request and resolve with the user's decision (closing the view counts as reject). */
    ask(request: ApprovalRequest): Promise<ApprovalDecision>;
}

/**
 * Sessions a host's tabs run themselves, outside the service's supervisor: the plugin without
 * node-pty runs sandy in the editor's own terminal. They are listed with the service's sessions
 * and stopped by their tabs, so every command treats them alike.
 */
export interface SelfHostedSessions {
    /** The running ones. */
    list(): SessionInfo[];
    /** Stop one (its terminal closes: sandy gets a hang-up); the session as it ended, undefined if unknown. */
    stop(sessionId: string): Promise<SessionInfo | undefined>;
}

/** The tabs the commands drive: core's tab registry, or the plugin's fallback terminals. */
export interface ProjectSessionTabs extends SessionTabs {
    readonly selfHosted?: SelfHostedSessions;
}

/** What the project commands call on the service. */
export type ProjectCommandsService = Pick<SandyService,
    'addProject' | 'removeProject' | 'preflight' | 'rebuildSandbox' | 'removeSandbox' | 'revokeApproval' | 'stop' | 'planSandyFolder' | 'createSandyFolder'
    | 'getSettings' | 'saveSettings' | 'fleetPlan' | 'fleetRun' | 'runHeadless' | 'agentChoices'>;

/** What the project commands read of the window state (core's WindowState). */
export interface ProjectCommandsState {
    readonly projects: DerivedProject[];
    readonly liveSessions: SessionInfo[];
    readonly openFolders: readonly string[];
    /** The latest snapshot (what sandy offers: `status.cliFlags`). */
    readonly snapshot?: Pick<ProjectsSnapshot, 'status'>;
    refresh(): Promise<void>;
}

/** The user's do-not-disturb switch (a user setting of the host: `sandy.doNotDisturb`). */
export interface DoNotDisturbPort {
    readonly doNotDisturb: boolean;
    setDoNotDisturb(on: boolean): Promise<void>;
}

/** The host's read-only viewer of a history record (an editor tab). */
export interface HistoryViewerPort {
    open(recordId: string): Promise<void>;
}

export interface ProjectCommandsPorts {
    service: ProjectCommandsService;
    /** Where a headless answer is shown (none: only the notification). */
    historyViewer?: HistoryViewerPort;
    notifications?: DoNotDisturbPort;
    state: ProjectCommandsState;
    ui: HostUi;
    tabs: ProjectSessionTabs;
    projectsView: ProjectsViewPort;
    settingsEditor: SettingsEditorPort;
    approvals: ApprovalPort;
}

/**
 * Every "Sandy:" project command, written once for every host (the Theia IDE, the VS Code plugin):
 * the hosts register the commands, menus and keybindings and call these handlers with the command's
 * argument as they received it (a project, a session, `{ workspace, key, scope }` or nothing).
 * Every word shown is core's (labels.ts); a failure of the service shows its hint.
 */
export class ProjectCommands {
    constructor(protected readonly ports: ProjectCommandsPorts) { }

    // ---- what the hosts ask to enable menus -----------------------------------------------

    /** Stop / Reattach: from the palette always; for a project, while it has a running session. */
    canStop(arg?: unknown): boolean {
        return !this.isTarget(arg) || !!this.sessionOf(arg);
    }

    canReattach(arg?: unknown): boolean {
        return this.canStop(arg);
    }

    /** Detach: a tab shows the project (or, from the palette, a sandy tab has the focus). */
    canDetach(arg?: unknown): boolean {
        return !!this.tabOf(arg);
    }

    canRevealSandbox(arg?: unknown): boolean {
        return !isProject(arg) || !!arg.sandboxPath;
    }

    /** A sandbox exists and is not running (sandy refuses to remove a running one). */
    canRemoveSandbox(arg?: unknown): boolean {
        return !isProject(arg) || (!!arg.sandboxName && arg.state !== 'running');
    }

    canRevokeApproval(arg?: unknown): boolean {
        return !isProject(arg) || !!arg.workspacePath;
    }

    // ---- the commands -------------------------------------------------------------------------

    /** Launch: pick a project if none, reveal its running session, else pre-flight, then open its tab. */
    /**
     * Launch a project (a row, a menu); from the palette, the window's folder when exactly one is open,
     * else a pick of the projects (with "Choose a folder…"), or the folder picker when there are none.
     * Never a folder the user did not choose or open (spec, Key flows 2: never `$HOME` by default).
     */
    async launch(arg?: unknown): Promise<void> {
        if (isProject(arg)) {
            await launchProject(arg, this.launchHost(placeholder => this.pickProject(placeholder)));
            return;
        }
        const open = this.ports.state.openFolders;
        if (open.length === 1) {
            await this.launchFolder(open[0]);
            return;
        }
        await launchProject(undefined, this.launchHost(async placeholder => {
            const { ui, state } = this.ports;
            const pickFolder = async () => {
                const folder = await ui.pickFolder({ title: LAUNCH_FOLDER_TITLE, openLabel: LAUNCH_FOLDER_ACTION });
                return folder ? { workspacePath: folder } : undefined;
            };
            if (!state.projects.length) {
                return pickFolder();
            }
            const picked = await ui.pick<DerivedProject | 'folder'>([
                ...state.projects.map(p => ({ ...projectPickItem(p), value: p })),
                { label: CHOOSE_FOLDER_LABEL, value: 'folder' }
            ], placeholder);
            return picked === 'folder' ? pickFolder() : picked;
        }));
    }

    /**
     * "Launch with…" (common/session/launch-options.ts): a project as Launch finds it, then the launch
     * options this sandy offers (agents for `--agent` from its schema), then Launch's own flow with them
     * for this one launch. A project already running is shown, not launched again.
     */
    async launchWith(arg?: unknown): Promise<void> {
        const { ui, service, state } = this.ports;
        const target = await this.workspaceTarget(arg);
        if (!target) {
            return;
        }
        const { workspace, name } = target;
        const live = this.liveSessions().find(s => s.workspace === workspace);
        if (live) {
            void ui.info(launchWithRunningText(name));
            await this.ports.tabs.attach(live);
            return;
        }
        if (!state.snapshot?.status.cliFlags) {
            await this.refresh();
        }
        const offered = offeredLaunchOptions(state.snapshot?.status.cliFlags ?? []);
        if (!offered.length) {
            void ui.info(LAUNCH_WITH_NOTHING_OFFERED_TEXT);
            return;
        }
        const chosen = await ui.pickMany(offered, LAUNCH_WITH_PLACEHOLDER);
        if (!chosen) {
            return;
        }
        let agents: string[] = [];
        let known: string[] = [];
        if (chosen.includes('agent')) {
            const items = agentPickItems(await service.agentChoices());
            known = items.map(i => i.value);
            const picked = await ui.pickMany(items, LAUNCH_WITH_AGENTS_PLACEHOLDER);
            if (!picked) {
                return;
            }
            agents = picked;
        }
        const options = launchWithArgs(chosen, agents, known);
        if ('problem' in options) {
            void ui.error(options.problem);
            return;
        }
        const host = this.launchHost(() => Promise.resolve(undefined));
        await launchProject({ workspacePath: workspace }, { ...host, open: (ws, clearance) => host.open(ws, { ...clearance, args: options.args }) });
    }

    /** Launch sandy in a folder that need not be a project (the Get Started wizard's test session), through the same flow. */
    launchFolder(workspace: string): Promise<void> {
        return launchProject({ workspacePath: workspace }, this.launchHost(() => Promise.resolve(undefined)));
    }

    protected launchHost(pickProject: (placeholder: string) => Promise<{ workspacePath?: string } | undefined>): LaunchProjectHost {
        const { tabs, ui } = this.ports;
        return {
            pickProject,
            revealExisting: async workspace => {
                const live = this.liveSessions().find(s => s.workspace === workspace);
                if (live) {
                    await tabs.attach(live);
                }
                return !!live;
            },
            clearForLaunch: workspace => this.clearForLaunch(workspace),
            open: (workspace, clearance) => tabs.openForWorkspace(workspace, clearance),
            error: message => void ui.error(message)
        };
    }

    /**
     * Pre-flight with the host's approval view (core's clearForLaunch): what the launch must carry,
     * undefined when the user did not approve. Terminals call it again when the files changed since.
     */
    clearForLaunch(workspace: string, first?: ApprovalRequest): Promise<LaunchClearance | undefined> {
        const { service, approvals, ui } = this.ports;
        return clearForLaunch(workspace, {
            preflight: ws => service.preflight(ws),
            ask: request => approvals.ask(request),
            rebuildSandbox: ws => service.rebuildSandbox(ws),
            openSettings: (ws, key, scope) => this.openSettings({ workspace: ws, key, scope }),
            info: message => void ui.info(message),
            error: message => void ui.error(message)
        }, first);
    }

    /** Stop the given session or project's session; from the palette the focused tab's, else a pick. */
    async stop(arg?: unknown): Promise<void> {
        const { ui, tabs } = this.ports;
        const given = this.isTarget(arg);
        let session = given ? this.sessionOf(arg) : tabs.active?.session;
        if (!session && !given) {
            // From the palette with no sandy tab in front: the only running session when no tab of this window
            // shows it (nothing to confuse it with), else a pick.
            const live = this.liveSessions().filter(s => s.status !== 'exited');
            session = live.length === 1 && !tabs.findByWorkspace(live[0].workspace) ? live[0] : await this.pickSession(STOP_PICK_PLACEHOLDER);
        }
        if (!session || session.status === 'exited') {
            void ui.info(NO_SESSION_TO_STOP_TEXT);
            return;
        }
        const id = session.id;
        let ended: SessionInfo | undefined;
        try {
            const selfHosted = tabs.selfHosted;
            ended = selfHosted?.list().some(s => s.id === id) ? await selfHosted.stop(id) : await this.ports.service.stop(id);
        } catch (e) {
            void ui.error(commandFailedText('stopping sandy', toProblem(e)));
            return;
        }
        if (ended) {
            void ui.info(sessionStoppedText(ended.workspace));
        }
    }

    /** Close the project's tab (or the focused sandy tab); its session keeps running. */
    async detach(arg?: unknown): Promise<void> {
        this.tabOf(arg)?.detach();
    }

    async reattach(arg?: unknown): Promise<void> {
        const given = this.isTarget(arg);
        const session = given ? this.sessionOf(arg) : await this.pickSession(REATTACH_PICK_PLACEHOLDER);
        if (session) {
            await this.ports.tabs.attach(session);
        } else if (isProject(arg)) {
            void this.ports.ui.info(noRunningSessionText(arg.displayName));
        }
    }

    async switchSession(): Promise<void> {
        const session = await this.pickSession(SWITCH_PICK_PLACEHOLDER);
        if (session) {
            await this.ports.tabs.attach(session);
        }
    }

    /** The session that has waited longest for the user (not the one on screen): its tab, revealed or opened. */
    async nextWaiting(): Promise<void> {
        const next = nextWaiting(this.ports.state.liveSessions, this.ports.tabs.active?.session?.id);
        if (next) {
            await this.ports.tabs.attach(next);
        } else {
            void this.ports.ui.info(NO_SESSION_WAITING_TEXT);
        }
    }

    async toggleDoNotDisturb(): Promise<void> {
        const port = this.ports.notifications;
        if (!port) {
            return;
        }
        const on = !port.doNotDisturb;
        await port.setDoNotDisturb(on);
        void this.ports.ui.info(doNotDisturbText(on));
    }

    async addProject(): Promise<void> {
        const { ui, service } = this.ports;
        const folder = await ui.pickFolder({ title: ADD_PROJECT_TITLE, openLabel: ADD_PROJECT_ACTION });
        if (!folder) {
            return;
        }
        let outcome: AddProjectOutcome;
        try {
            outcome = await service.addProject(folder);
            if (outcome.problem) {
                void ui.error(problemNoticeText(outcome.problem));
                return;
            }
        } catch (e) {
            void ui.error(commandFailedText('adding the project', toProblem(e)));
            return;
        }
        await this.refresh();
        await this.ports.projectsView.reveal();
        // One notification: the launch verdict, sandy's warnings, and (never forced) a .sandy/ to start from.
        const name = workspaceLabel(outcome.workspace);
        const actions = outcome.hasSandyFolder === false ? [CREATE_SANDY_FOLDER_ACTION, COPY_SANDY_FOLDER_ACTION] : [];
        const text = addProjectSummaryText(name, outcome);
        const action = await (outcome.launch?.kind === 'refuse' || outcome.warnings.length ? ui.warn(text, ...actions) : ui.info(text, ...actions));
        if (action === CREATE_SANDY_FOLDER_ACTION) {
            await this.makeSandyFolder(outcome.workspace, { kind: 'starter' });
        } else if (action === COPY_SANDY_FOLDER_ACTION) {
            const from = await ui.pick(this.ports.state.projects.filter(p => p.workspacePath && p.workspacePath !== outcome.workspace)
                .map(p => ({ ...projectPickItem(p), value: p.workspacePath! })), COPY_SANDY_FOLDER_PLACEHOLDER);
            if (from) {
                await this.makeSandyFolder(outcome.workspace, { kind: 'copy', from });
            }
        }
    }

    /** Shows what would be written, asks, writes (a copy's `.secrets` only after its own question). */
    protected async makeSandyFolder(workspace: string, source: SandyFolderSource): Promise<void> {
        const { ui, service } = this.ports;
        const name = workspaceLabel(workspace);
        try {
            const plan = await service.planSandyFolder(workspace, source);
            if (!await ui.confirm({ title: createSandyFolderTitle(name), message: plan.lines.join('\n'), ok: CREATE_SANDY_FOLDER_ACTION })) {
                return;
            }
            let chosen = source;
            if (source.kind === 'copy' && plan.secretsAvailable) {
                // The second question names what the secrets add (keys, and any that need sandy's approval there).
                const withSecrets = await service.planSandyFolder(workspace, { ...source, includeSecrets: true });
                const adds = withSecrets.lines.filter(l => !plan.lines.includes(l));
                if (await ui.confirm({ title: COPY_SECRETS_TITLE, message: copySecretsText(workspaceLabel(source.from), adds), ok: COPY_SECRETS_TITLE.replace('?', '') })) {
                    chosen = { ...source, includeSecrets: true };
                }
            }
            const done = await service.createSandyFolder(workspace, chosen);
            void ui.info(sandyFolderCreatedText(name, done.created ?? []));
            await this.refresh();
        } catch (e) {
            void ui.error(commandFailedText('creating .sandy/', toProblem(e)));
        }
    }

    async refresh(): Promise<void> {
        try {
            await this.ports.state.refresh();
        } catch (e) {
            void this.ports.ui.error(commandFailedText('refreshing', toProblem(e)));
        }
    }

    async revealSandbox(arg?: unknown): Promise<void> {
        const project = await this.projectOf(arg);
        if (!project) {
            return;
        }
        const { ui } = this.ports;
        if (!project.sandboxPath) {
            void ui.info(noSandboxYetText(project.displayName));
            return;
        }
        const action = await ui.info(sandboxLocationText(project.displayName, project.sandboxPath), OPEN_IN_NEW_WINDOW_ACTION, COPY_PATH_ACTION);
        if (action === COPY_PATH_ACTION) {
            await ui.writeClipboard(project.sandboxPath);
        } else if (action === OPEN_IN_NEW_WINDOW_ACTION) {
            await ui.openFolderInNewWindow(project.sandboxPath);
        }
    }

    async copyWorkspacePath(arg?: unknown): Promise<void> {
        const project = await this.projectOf(arg);
        if (project) {
            await this.ports.ui.writeClipboard(project.workspacePath ?? '');
        }
    }

    /** Remove Sandbox (destructive: asks first), then refresh. */
    async removeSandbox(arg?: unknown): Promise<void> {
        const project = await this.projectOf(arg);
        if (!project) {
            return;
        }
        const { ui, service } = this.ports;
        if (!project.workspacePath || !project.sandboxName) {
            void ui.info(noSandboxToRemoveText(project.displayName));
            return;
        }
        if (!await ui.confirm({ title: REMOVE_SANDBOX_TITLE, message: removeSandboxPrompt(project.displayPath), ok: REMOVE_SANDBOX_ACTION })) {
            return;
        }
        try {
            const result = await service.removeSandbox(project.workspacePath);
            if (result.ok) {
                void ui.info(sandboxRemovedText(project.displayName));
            } else {
                void ui.error(removeSandboxFailedText(result.exitCode, runFailureText(result)));
            }
        } catch (e) {
            void ui.error(commandFailedText(`removing the sandbox of ${project.displayName}`, toProblem(e)));
        }
        await this.refresh();
    }

    /**
     * Ask the agent once (common/session/headless.ts): a project (the row, the only open folder, else a
     * pick), a prompt, `sandy -p` with progress; the answer opens in the history viewer (read-only), and a
     * notification says its first line. sandy's refusal is shown as sandy said it.
     */
    async askOnce(arg?: unknown): Promise<void> {
        const { ui, service, historyViewer } = this.ports;
        const target = await this.workspaceTarget(arg);
        if (!target) {
            return;
        }
        const { workspace, name } = target;
        const prompt = await ui.input({ title: HEADLESS_PROMPT_TITLE, placeholder: headlessPromptPlaceholder(name), validate: headlessPromptProblem });
        if (prompt === undefined) {
            return;
        }
        try {
            const outcome = await ui.withProgress(headlessRunningText(name), () => service.runHeadless(workspace, prompt));
            const open = outcome.historyId && historyViewer ? () => historyViewer.open(outcome.historyId!) : undefined;
            if (open) {
                await open();
            }
            if (outcome.ok) {
                void ui.info(headlessDoneText(name, outcome.answer));
            } else {
                void ui.error(headlessFailedText(name, outcome));
            }
        } catch (e) {
            void ui.error(commandFailedText(`asking the agent of ${name}`, toProblem(e)));
        }
    }

    /**
     * Fleet maintenance (common/maintenance/fleet.ts): pick one of the commands this sandy offers (or
     * the one named by `arg`), show sandy's own dry-run plan verbatim, run it only when the user accepts,
     * then say how it ended. A check (`--doctor`) runs at once.
     */
    async fleetMaintenance(arg?: unknown): Promise<void> {
        const { ui, service, state } = this.ports;
        if (!state.snapshot?.status.cliFlags) {
            // Run from the palette before the window looked at sandy: find out what it offers first.
            await this.refresh();
        }
        const actions = availableFleetActions(state.snapshot?.status.cliFlags ?? []);
        if (!actions.length) {
            void ui.info(NO_FLEET_ACTIONS_TEXT);
            return;
        }
        const named = fleetAction(arg);
        const action = named && actions.includes(named) ? named
            : await ui.pick(actions.map(a => ({ label: a.label, detail: a.detail, value: a })), FLEET_PICK_PLACEHOLDER);
        if (!action) {
            return;
        }
        let options: FleetOptions = {};
        if (action.id === 'updateSessions') {
            const idle = await ui.pick(UPDATE_SESSIONS_IDLE_CHOICES.map(c => ({ label: c.label, value: c })), FLEET_IDLE_PLACEHOLDER);
            if (!idle) {
                return;
            }
            options = { idleForMinutes: idle.minutes };
        }
        try {
            if (!action.readOnly) {
                const plan = await ui.withProgress(fleetPlanningText(action), () => service.fleetPlan(action.id, options));
                if (!plan.ok) {
                    void ui.error(fleetPlanFailedText(action, plan));
                    return;
                }
                if (plan.nothingToDo) {
                    void ui.info(fleetNothingToDoText(action, plan));
                    return;
                }
                if (!await ui.confirm({ title: fleetPlanTitle(action), ...fleetConfirmText(action, plan), ok: action.ok })) {
                    return;
                }
                if (plan.targets) {
                    // The run removes what the user saw, nothing that became an orphan since.
                    options = { ...options, targets: plan.targets.map(t => t.name) };
                }
            }
            const result = await ui.withProgress(fleetRunningText(action), () => service.fleetRun(action.id, options));
            if (result.ok) {
                void ui.info(fleetDoneText(action, result.stdout));
            } else {
                void ui.error(fleetFailedText(action, result.exitCode, runFailureText(result)));
            }
        } catch (e) {
            void ui.error(commandFailedText(`running sandy ${action.flag}`, toProblem(e)));
        } finally {
            await this.refresh();
        }
    }

    async removeProject(arg?: unknown): Promise<void> {
        const project = await this.projectOf(arg);
        if (!project?.workspacePath) {
            return;
        }
        try {
            await this.ports.service.removeProject(project.workspacePath);
        } catch (e) {
            void this.ports.ui.error(commandFailedText(`removing ${project.displayName} from the projects`, toProblem(e)));
            return;
        }
        await this.refresh();
        const workspace = project.workspacePath;
        void this.ports.ui.info(projectRemovedText(project.displayName, {
            open: this.ports.state.openFolders.includes(workspace),
            sandbox: !!project.sandboxName
        }));
    }

    /**
     * The settings editor: of a project (Project and Global), at `{ workspace, key, scope }`, or with
     * nothing given of the selected project, else of the window's first folder, else Global alone.
     * The settings editor canonicalises the workspace (never $HOME or /) and says a refusal in its view.
     */
    async openSettings(arg?: unknown): Promise<void> {
        const given = arg && typeof arg === 'object' && !isProject(arg) ? arg as { workspace?: unknown; key?: unknown; scope?: unknown } : undefined;
        const workspace = isProject(arg) ? arg.workspacePath
            : typeof given?.workspace === 'string' ? given.workspace
                : this.ports.projectsView.selectedProject?.workspacePath ?? this.ports.state.openFolders[0];
        const key = typeof given?.key === 'string' ? given.key : undefined;
        const scope = given?.scope === 'project' || given?.scope === 'global' ? given.scope : undefined;
        await this.ports.settingsEditor.open(workspace, key, scope);
    }

    /**
     * The skill-pack browser: sandy's `skill_packs` (schema) as a pick of several, ticked as the scope
     * has them; the choice is written as `SANDY_SKILL_PACKS` through the settings save path (sandy's
     * next build installs them). The scope: the given project's, else Global or a project, picked.
     */
    async chooseSkillPacks(arg?: unknown): Promise<void> {
        const { ui, service, state } = this.ports;
        let target: { scope: SettingsScope; workspace?: string; name: string } | undefined;
        if (isProject(arg) && arg.workspacePath) {
            target = { scope: 'project', workspace: arg.workspacePath, name: arg.displayName };
        } else {
            target = await ui.pick<{ scope: SettingsScope; workspace?: string; name: string }>([
                { label: SKILL_PACKS_GLOBAL_LABEL, description: '~/.sandy/config', value: { scope: 'global', name: SKILL_PACKS_GLOBAL_LABEL } },
                ...state.projects.filter(p => p.workspacePath).map(p => ({ ...projectPickItem(p), value: { scope: 'project' as SettingsScope, workspace: p.workspacePath, name: p.displayName } }))
            ], SKILL_PACKS_SCOPE_PLACEHOLDER);
        }
        if (!target) {
            return;
        }
        try {
            const settings = await service.getSettings(target.workspace);
            const packs = settings.schema.skill_packs ?? [];
            if (!packs.length) {
                void ui.info(NO_SKILL_PACKS_TEXT);
                return;
            }
            const scopeData = target.scope === 'project' ? settings.scopes.project : settings.scopes.global;
            const current = (scopeData?.values.SANDY_SKILL_PACKS ?? '').split(',').map(p => p.trim()).filter(Boolean);
            const chosen = await ui.pickMany(packs.map(p => ({ label: p.name, description: p.repo, value: p.name, picked: current.includes(p.name) })),
                skillPacksPlaceholder(target.name));
            if (!chosen) {
                return;
            }
            // Packs this sandy does not list stay as the user wrote them (a newer sandy may know them).
            const unknown = current.filter(name => !packs.some(p => p.name === name));
            const value = [...chosen, ...unknown].join(',');
            const result = await service.saveSettings(target.scope, target.workspace, { config: [{ key: 'SANDY_SKILL_PACKS', value: value || undefined }], secrets: [] });
            if (!result.ok) {
                void ui.error(commandFailedText('saving SANDY_SKILL_PACKS', { code: 'failed', message: result.error?.message ?? 'the save failed', hint: result.error?.hint ?? '' }));
                return;
            }
            const file = target.scope === 'global' ? '~/.sandy/config' : `${target.name}/.sandy/config`;
            if (result.mismatches?.includes('SANDY_SKILL_PACKS') || scopeData?.misplaced?.some(m => m.key === 'SANDY_SKILL_PACKS')) {
                // A SANDY_SKILL_PACKS line in that scope's .secrets wins at launch: say so rather than promise the build.
                void ui.warn(skillPacksShadowedText(value, file));
                return;
            }
            void ui.info(skillPacksSavedText(value, file));
        } catch (e) {
            void ui.error(commandFailedText('choosing skill packs', toProblem(e)));
        }
    }

    /** Forget the workspace's approvals (sandy's records and ours): the next launch asks again. */
    async revokeApproval(arg?: unknown): Promise<void> {
        const project = await this.projectOf(arg);
        if (!project?.workspacePath) {
            return;
        }
        try {
            const removed = await this.ports.service.revokeApproval(project.workspacePath);
            void this.ports.ui.info(revokeApprovalText(project.displayName, removed));
        } catch (e) {
            void this.ports.ui.error(commandFailedText(`revoking the approval of ${project.displayName}`, toProblem(e)));
            return;
        }
        await this.refresh();
    }

    // ---- picks --------------------------------------------------------------------------------

    /** Which project? With none yet, offers Add Project instead. */
    async pickProject(placeholder: string): Promise<DerivedProject | undefined> {
        const { ui, state } = this.ports;
        const projects = state.projects;
        if (!projects.length) {
            if (await ui.info(NO_PROJECTS_TEXT, ADD_PROJECT_ACTION) === ADD_PROJECT_ACTION) {
                await this.addProject();
            }
            return undefined;
        }
        return ui.pick(projects.map(p => ({ ...projectPickItem(p), value: p })), placeholder);
    }

    async pickSession(placeholder: string): Promise<SessionInfo | undefined> {
        const sessions = this.liveSessions();
        if (!sessions.length) {
            void this.ports.ui.info(NO_SESSIONS_TEXT);
            return undefined;
        }
        return this.ports.ui.pick(sessions.map(s => ({ ...sessionPickItem(s), value: s })), placeholder);
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The service's live sessions and those the tabs run themselves. */
    protected liveSessions(): SessionInfo[] {
        return [...this.ports.state.liveSessions, ...this.ports.tabs.selfHosted?.list() ?? []];
    }

    protected isTarget(arg: unknown): arg is DerivedProject | SessionInfo {
        return isProject(arg) || isSession(arg);
    }

    protected sessionOf(arg: unknown): SessionInfo | undefined {
        if (isSession(arg)) {
            return arg;
        }
        if (isProject(arg) && arg.workspacePath) {
            return this.liveSessions().find(s => s.workspace === arg.workspacePath);
        }
        return undefined;
    }

    protected tabOf(arg: unknown): SessionTab | undefined {
        const workspace = isProject(arg) ? arg.workspacePath : isSession(arg) ? arg.workspace : undefined;
        if (!this.isTarget(arg)) {
            return this.ports.tabs.active;
        }
        return workspace ? this.ports.tabs.findByWorkspace(workspace) : undefined;
    }

    /** A project command's workspace: its argument, else the window's one open folder, else the selected row or a pick. */
    protected async workspaceTarget(arg: unknown): Promise<{ workspace: string; name: string } | undefined> {
        const open = this.ports.state.openFolders;
        const project = isProject(arg) ? arg
            : open.length === 1 ? { workspacePath: open[0], displayName: workspaceLabel(open[0]) }
                : await this.projectOf(arg);
        const workspace = project?.workspacePath;
        return workspace ? { workspace, name: project.displayName ?? workspaceLabel(workspace) } : undefined;
    }

    /** The command's project: its argument, else the selected row, else a pick. */
    protected async projectOf(arg: unknown): Promise<DerivedProject | undefined> {
        return isProject(arg) ? arg : this.ports.projectsView.selectedProject ?? await this.pickProject(PICK_PROJECT_PLACEHOLDER);
    }
}
