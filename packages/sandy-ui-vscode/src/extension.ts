import * as vscode from 'vscode';
import { SandyServiceCore } from '@sandy-ui/core/node';
import type { PtySpawn } from '@sandy-ui/core/node';
import { GUEST_CANNOT_HOST, guestLaunchFailedText, problemText, SandyError, toProblem } from '@sandy-ui/core/common';
import { SandyLog } from './logger';
import { loadNodePty } from './pty';
import { readSettings, SandyState } from './sandy-state';
import { WalkthroughTicks } from './walkthrough';
import { TERMINAL_VIEW_TYPE, TerminalPanels } from './terminal-panel';
import { FallbackTerminals } from './fallback-terminal';
import { ApprovalPanels } from './approval-panel';
import { SettingsPanels } from './settings-panel';
import { DashboardPanels } from './dashboard-panel';
import { WizardPanels } from './wizard-panel';
import { HistoryPanels } from './history-panel';
import { ProjectsTree, CONTEXT_GUEST, GUEST_LAUNCH_COMMAND, OPEN_ROW_COMMAND, plainProject, PROJECTS_VIEW_ID } from './projects-tree';
import { SandyStatusBar } from './status-bar';
import { SessionsTree } from './sessions-tree';
import { registerSandyCommands } from './commands';
import { detectHost, SandyHost } from './host';
import { GuestCommands } from './guest-commands';
import { ProjectCommands, SANDY_IDE_COMMANDS } from '@sandy-ui/core/common';
import type { ApprovalRequest } from '@sandy-ui/core/common';
import { showError, vscodeHostUi } from './messages';
import { IdeKeyRelay } from './key-relay';
import { withGitSafety } from '@sandy-ui/core/node';

/** The extension's exports (`vscode.extensions.getExtension('rappdw.sandy-ui').exports`): where it runs and how. */
export interface SandyPluginApi {
    host: SandyHost;
    /** false: sandy runs in the editor's own terminal (see fallback-terminal.ts). */
    ptyLoaded: boolean;
}

let core: SandyServiceCore | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<SandyPluginApi> {
    // First, before anything awaits: the editor's git extension shares this process's environment, and its automatic
    // `git status` in a repository the agent planted must not run that repository's fsmonitor program (core
    // git-safety). The plugin starts with the window (`*`) for this, beside that git, which first looks for its
    // executable before it looks at the folder.
    Object.assign(process.env, withGitSafety(process.env));
    const log = new SandyLog();
    context.subscriptions.push(log);
    const host = await detectHost();
    log.info(`sandy: activating in ${vscode.env.appName} ${vscode.version} (${host.kind}${host.reason ? `: ${host.reason}` : ''})`);
    await vscode.commands.executeCommand('setContext', CONTEXT_GUEST, host.kind === 'sandy-ide');

    // Inside the Sandy IDE, the IDE's own PTY supervisor hosts sessions; a second one here would
    // fight it for the same workspace locks. The plugin's service only reads (projects, state).
    const pty = host.kind === 'sandy-ide' ? undefined : loadNodePty();
    const refusingSpawn: PtySpawn = () => {
        throw new SandyError('not-executable', GUEST_CANNOT_HOST.message, GUEST_CANNOT_HOST.hint);
    };
    core = new SandyServiceCore({
        logger: log,
        spawnPty: pty?.ok ? pty.spawn : refusingSpawn,
        // The projects list and approved-value hashes: the extension's global storage (a guest reads the
        // IDE's own data folder, so both views list the same projects). SANDY_IDE_DATA_DIR wins in both.
        dataDir: process.env.SANDY_IDE_DATA_DIR || (host.kind === 'sandy-ide' ? undefined : context.globalStorageUri.fsPath),
        logHint: 'See the "Sandy" output channel for details.'
    });
    const state = new SandyState(core, log);
    context.subscriptions.push(state);

    if (host.kind === 'sandy-ide') {
        // Guest: the tree only; its clicks run the IDE's own `sandy.*` commands (same ids, same core).
        const guest = new GuestCommands(log);
        const tree = new ProjectsTree(state, undefined, true);
        context.subscriptions.push(guest, tree, vscode.commands.registerCommand(GUEST_LAUNCH_COMMAND, async (project: unknown) => {
            log.info(`sandy: handing ${(project as { workspacePath?: string })?.workspacePath ?? 'a project'} to the Sandy IDE's sandy.launch`);
            try {
                await guest.runInIde(SANDY_IDE_COMMANDS.LAUNCH.id, project);
            } catch (e) {
                log.error(`sandy: the Sandy IDE's sandy.launch failed: ${e instanceof Error ? e.message : String(e)}`);
                void showError(guestLaunchFailedText(problemText(toProblem(e))));
            }
        }));
        // sandy is looked at once the view shows (SandyState.setVisible) or the IDE's command runs.
        return { host, ptyLoaded: false };
    }

    if (pty?.ok) {
        log.info(`sandy: node-pty loaded from ${pty.from}`);
    }
    // The terminals' re-approval and the commands' selected row are wired both ways; the closures read them once set.
    const clear = (workspace: string, request: ApprovalRequest) => commands.clearForLaunch(workspace, request);
    const keys = IdeKeyRelay.forHost(context.extension);
    const approvals = new ApprovalPanels(core, log, context.extensionUri);
    const settings = new SettingsPanels(core, log, context.extensionUri);
    const terminals = pty?.ok
        ? new TerminalPanels({ core, state, log, extensionUri: context.extensionUri, clearForLaunch: clear, memento: context.workspaceState, keys })
        : undefined;
    // Without node-pty sandy runs in the editor's own terminal: the same commands, over those terminals.
    const fallback = pty?.ok ? undefined : new FallbackTerminals(core, state.service, log, pty?.problem ?? 'not loaded', clear);
    context.subscriptions.push(approvals, settings);
    const commands: ProjectCommands = new ProjectCommands({
        service: state.service,
        state,
        ui: vscodeHostUi,
        tabs: terminals?.tabs ?? fallback!,
        projectsView: {
            get selectedProject() { return tree?.selected; },
            reveal: async () => { await vscode.commands.executeCommand(`${PROJECTS_VIEW_ID}.focus`); }
        },
        settingsEditor: { open: (workspace, key, scope) => settings.open(workspace, key, scope) },
        approvals: { ask: request => approvals.ask(request) },
        historyViewer: {
            open: async id => {
                const record = (await state.service.listHistory()).find(r => r.id === id);
                if (record) {
                    history.openViewer(record);
                }
            }
        },
        notifications: {
            get doNotDisturb() { return state.configuration?.doNotDisturb === true; },
            // The user's own settings: a workspace's value is never read for it.
            setDoNotDisturb: on => Promise.resolve(vscode.workspace.getConfiguration('sandy').update('doNotDisturb', on, vscode.ConfigurationTarget.Global))
        }
    });
    // Nothing runs sandy until the window shows sandy state: a Sandy view (SandyState.setVisible), a
    // Sandy command, a Sandy tab or panel (issue 14: a window that never shows sandy spawns no sandy).
    const start = () => state.start();
    context.subscriptions.push(...registerSandyCommands(commands, start, keys));
    const dashboard = new DashboardPanels({
        service: state.service, tabs: terminals?.tabs ?? fallback!, onDidChangeSession: state.onDidChangeSession, log, extensionUri: context.extensionUri
    });
    context.subscriptions.push(dashboard, vscode.commands.registerCommand(SANDY_IDE_COMMANDS.SHOW_DASHBOARD.id, () => {
        start();
        return dashboard.show();
    }));
    const history = new HistoryPanels({
        service: state.service, ui: vscodeHostUi, projects: () => state.projects, launch: project => commands.launch(project),
        onDidChangeSession: state.onDidChangeSession, log, extensionUri: context.extensionUri
    });
    context.subscriptions.push(history, vscode.commands.registerCommand(SANDY_IDE_COMMANDS.SHOW_HISTORY.id, () => {
        start();
        return history.show();
    }));
    const wizard = new WizardPanels({
        service: state.service, ui: vscodeHostUi,
        openSettings: key => settings.open(undefined, key, 'global'),
        launch: workspace => commands.launchFolder(workspace),
        showSession: session => (terminals?.tabs ?? fallback!).attach(session),
        addProject: () => commands.addProject(),
        sessions: () => state.liveSessions,
        onDidChangeSession: state.onDidChangeSession, log, extensionUri: context.extensionUri
    });
    context.subscriptions.push(wizard, vscode.commands.registerCommand(SANDY_IDE_COMMANDS.GET_STARTED.id, () => {
        start();
        return wizard.show();
    }));
    // Get Started opens by itself at the first start and until the user finished or dismissed it, decided without
    // running sandy (core's wizardAtStart: the state file, and an executable where sandy is looked for). Not in
    // every window while sandy is missing, as the Sandy IDE does: here it is a guest in an editor used for other work.
    void state.service.wizardAtStart(readSettings().sandy.sandyPath, false).then(offer => {
        log.info(`sandy: Get Started at start: ${offer ? 'opens' : 'stays closed'}`);
        if (offer) {
            // The Sandy view comes forward too (the first start, or not yet finished or dismissed), then the wizard beside it.
            start();
            void Promise.resolve(vscode.commands.executeCommand(`${PROJECTS_VIEW_ID}.focus`)).then(() => wizard.show(), () => wizard.show());
        }
    }, e => log.warn(`sandy: Get Started state unreadable: ${e instanceof Error ? e.message : String(e)}`));
    const tree: ProjectsTree = new ProjectsTree(state, terminals, false, new WalkthroughTicks(context.extension.id,
        (command, ...args) => vscode.commands.executeCommand(command, ...args), async command => (await vscode.commands.getCommands(true)).includes(command)));
    context.subscriptions.push(tree, vscode.commands.registerCommand(OPEN_ROW_COMMAND, () => {
        const selected = tree.selected;
        return selected ? commands.launch(plainProject(selected)) : undefined;
    }));
    if (terminals) {
        context.subscriptions.push(terminals, new SandyStatusBar(state, terminals.tabs), new SessionsTree(state, terminals.tabs));
    }
    // A window reload brings the sandy tabs back (activation event onWebviewPanel:sandy.terminal): each
    // reattaches to its session if that still runs, from the state its page saved. Without node-pty
    // no tab can show a session, so a tab left from a window that had it is closed.
    context.subscriptions.push(vscode.window.registerWebviewPanelSerializer(TERMINAL_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, saved) => {
            if (terminals) {
                start();
                await terminals.restore(panel, saved);
            } else {
                panel.dispose();
            }
        }
    }));
    if (fallback) {
        context.subscriptions.push(fallback);
        fallback.showNotice();
    }
    // Tabs VS Code could not restore (their extension host had died) come back on their sessions.
    if (terminals?.hadTabs) {
        start();
        terminals.reopenLostTabs().catch(e => log.error(`sandy terminal: reopening the tabs failed: ${e instanceof Error ? e.message : String(e)}`));
    }
    return { host, ptyLoaded: !!pty?.ok };
}

/**
 * The extension host is going away (a window reload or close): core's dispose ends the foreground
 * sessions (sandy's SIGTERM trap) and only lets go of the daemon sessions, which keep running for
 * the next window to reattach (unless the user set sandy.stopSessionsOnQuit). Nothing here stops a
 * session, and the tabs stay for VS Code to restore (TerminalPanels.dispose).
 */
export async function deactivate(): Promise<void> {
    const service = core;
    core = undefined;
    // A window reload deactivates the plugin just like closing the window does: daemon sessions must
    // survive it, so the plugin never stops them here (sandy.stopSessionsOnQuit is the Sandy IDE's).
    await service?.dispose({ mayStopDaemons: false });
}
