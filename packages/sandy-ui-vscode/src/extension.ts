import * as vscode from 'vscode';
import { SandyServiceCore } from '@sandy-ui/core/node';
import type { PtySpawn } from '@sandy-ui/core/node';
import { GUEST_CANNOT_HOST, guestLaunchFailedText, problemText, SandyError, toProblem } from '@sandy-ui/core/common';
import { SandyLog } from './logger';
import { loadNodePty } from './pty';
import { SandyState } from './sandy-state';
import { TerminalPanels } from './terminal-panel';
import { FallbackTerminals } from './fallback-terminal';
import { ApprovalPanels } from './approval-panel';
import { SettingsPanels } from './settings-panel';
import { ProjectsTree, CONTEXT_GUEST, GUEST_LAUNCH_COMMAND, PROJECTS_VIEW_ID } from './projects-tree';
import { SandyStatusBar } from './status-bar';
import { registerSandyCommands } from './commands';
import { detectHost, SandyHost } from './host';
import { GuestCommands } from './guest-commands';
import { ProjectCommands, SANDY_IDE_COMMANDS } from '@sandy-ui/core/common';
import type { ApprovalRequest } from '@sandy-ui/core/common';
import { showError, vscodeHostUi } from './messages';
import { withGitSafety } from '@sandy-ui/core/node';

/** The extension's exports (`vscode.extensions.getExtension('rappdw.sandy-ui').exports`): where it runs and how. */
export interface SandyPluginApi {
    host: SandyHost;
    /** false: sandy runs in the editor's own terminal (see fallback-terminal.ts). */
    ptyLoaded: boolean;
}

let core: SandyServiceCore | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<SandyPluginApi> {
    const log = new SandyLog();
    context.subscriptions.push(log);
    // The editor's git extension shares this process's environment: its automatic `git status` in a
    // repository the agent planted must not run that repository's fsmonitor program (core git-safety).
    Object.assign(process.env, withGitSafety(process.env));
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
        state.start();
        return { host, ptyLoaded: false };
    }

    if (pty?.ok) {
        log.info(`sandy: node-pty loaded from ${pty.from}`);
    }
    // The terminals' re-approval and the commands' selected row are wired both ways; the closures read them once set.
    const clear = (workspace: string, request: ApprovalRequest) => commands.clearForLaunch(workspace, request);
    const approvals = new ApprovalPanels(core, log, context.extensionUri);
    const settings = new SettingsPanels(core, log, context.extensionUri);
    const terminals = pty?.ok ? new TerminalPanels({ core, state, log, extensionUri: context.extensionUri, clearForLaunch: clear }) : undefined;
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
        approvals: { ask: request => approvals.ask(request) }
    });
    context.subscriptions.push(...registerSandyCommands(commands));
    const tree: ProjectsTree = new ProjectsTree(state, terminals, false);
    context.subscriptions.push(tree);
    if (terminals) {
        context.subscriptions.push(terminals, new SandyStatusBar(state, terminals.tabs));
    }
    if (fallback) {
        context.subscriptions.push(fallback);
        fallback.showNotice();
    }
    state.start();
    return { host, ptyLoaded: !!pty?.ok };
}

/** The extension host is going away: every live session ends through sandy's SIGTERM trap. */
export async function deactivate(): Promise<void> {
    const service = core;
    core = undefined;
    await service?.dispose();
}
