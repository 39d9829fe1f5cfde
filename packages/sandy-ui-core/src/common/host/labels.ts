import type { SessionInfo } from '../session/session-types';
import type { RunOutcome } from '../service/service-protocol';
import type { DerivedProject } from '../projects/project-state';
import { problemText, SandyProblem } from '../service/service-protocol';
import { cleanNotificationText, NotificationRenderer, plainNotificationText } from '../terminal/notification-text';

/** Last path segment of a workspace, for tab titles (POSIX and Windows separators). */
export function workspaceLabel(workspace: string): string {
    const trimmed = workspace.replace(/[\\/]+$/, '');
    const idx = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
    return (idx >= 0 ? trimmed.slice(idx + 1) : trimmed) || workspace;
}

/** How a session ended, in words a user understands (codes from CONTRACT §6.5). */
export function describeExit(info: Pick<SessionInfo, 'exitCode' | 'signal' | 'status'>): string {
    if (info.status !== 'exited') {
        return 'sandy is running.';
    }
    if (info.signal) {
        return info.signal === 'SIGKILL'
            ? 'sandy was killed (SIGKILL); its lock and temporary files may remain — the next launch cleans the stale lock.'
            : `sandy ended on ${info.signal}.`;
    }
    switch (info.exitCode) {
        case 0: return 'sandy exited normally.';
        case 130: return 'sandy stopped (interrupted, exit 130).';
        case 143: return 'sandy stopped (terminated, exit 143).';
        case 129: return 'sandy stopped (hang-up, exit 129).';
        case undefined: return 'sandy ended.';
        default: return `sandy exited with code ${info.exitCode}.`;
    }
}

/** "3m 12s" style elapsed time for the status bar. */
export function formatElapsed(ms: number): string {
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = s % 60;
    if (h) {
        return `${h}h ${m}m`;
    }
    if (m) {
        return `${m}m ${sec}s`;
    }
    return `${sec}s`;
}

/** The status bar's session count: `N sandy sessions` (hosts add their own icon syntax). */
export function sessionsStatusText(live: readonly Pick<SessionInfo, 'workspace' | 'pid'>[]): string {
    return `${live.length} sandy session${live.length === 1 ? '' : 's'}`;
}

export function sessionsStatusTooltip(live: readonly Pick<SessionInfo, 'workspace' | 'pid'>[]): string {
    return live.map(s => `${workspaceLabel(s.workspace)} — pid ${s.pid}`).join('\n') + '\nClick to switch';
}

/** The focused session: `pid · agent · elapsed`. */
export function activeSessionText(session: Pick<SessionInfo, 'pid' | 'agent' | 'startedAt'>, now = Date.now()): string {
    const parts = [`pid ${session.pid}`];
    if (session.agent) {
        parts.push(session.agent);
    }
    parts.push(formatElapsed(now - session.startedAt));
    return parts.join(' · ');
}

export function activeSessionTooltip(session: Pick<SessionInfo, 'workspace' | 'status'>): string {
    return `sandy in ${session.workspace}${session.status === 'stopping' ? ' (stopping…)' : ''}`;
}

/** One row of the "switch / stop / reattach which session?" pick. */
export function sessionPickItem(s: SessionInfo, now = Date.now()): { label: string; description: string; detail: string } {
    return {
        label: workspaceLabel(s.workspace),
        description: `pid ${s.pid}${s.agent ? ` · ${s.agent}` : ''} · ${formatElapsed(now - s.startedAt)}`,
        detail: s.workspace
    };
}

/**
 * A terminal notification (OSC 9 / 99 / 777) as a host notification's message, ready for the host's
 * renderer: the agent's text cleaned, capped and escaped (see notification-text.ts), so it shows
 * exactly as sent and can form no link or markup. `more`: notifications folded into this one.
 */
export function notificationText(workspace: string, n: { title?: string; body: string }, renderer: NotificationRenderer, more = 0): string {
    const text = cleanNotificationText(n.title ? `${n.title}: ${n.body}` : n.body);
    const folded = more > 0 ? ` (and ${more} more)` : '';
    return plainNotificationText(`sandy (${cleanNotificationText(workspaceLabel(workspace), 80)}): ${text}${folded}`, renderer, Number.MAX_SAFE_INTEGER);
}

/** The sandy terminal tab's title: `● ` while a notification is unread, ` (ended)` after exit. */
export function terminalTitle(workspace: string, session: Pick<SessionInfo, 'status'> | undefined, unread: boolean): string {
    const ended = session?.status === 'exited' ? ' (ended)' : '';
    return `${unread ? '● ' : ''}sandy: ${workspaceLabel(workspace)}${ended}`;
}

export function terminalCaption(workspace: string, session: Pick<SessionInfo, 'pid' | 'status'> | undefined): string {
    return `${workspace}${session ? ` — pid ${session.pid}, ${session.status}` : ''}`;
}

/** The confirmation of Remove Sandbox (destructive: both hosts ask with these words). */
export function removeSandboxPrompt(displayPath: string): string {
    return `Remove the sandbox of ${displayPath}? Its agent state, caches, history and approvals are deleted (sandy --remove-sandbox). The workspace files are not touched.`;
}

export function revokeApprovalText(displayName: string, removed: boolean): string {
    return removed
        ? `Sandy: approvals for ${displayName} revoked (privileged keys, Dockerfile, symlinks) — the next launch asks again.`
        : `Sandy: ${displayName} had no recorded approval.`;
}

/** After a tab closed on a live session: it only detached. */
export function detachedText(workspace: string): string {
    return `sandy (${workspaceLabel(workspace)}) keeps running in the background.`;
}

// ---- project commands, window state (common/projects/project-commands.ts, common/session/window-state.ts)

export const NO_PROJECTS_TEXT = 'Sandy: no projects yet.';
export const ADD_PROJECT_ACTION = 'Add Project';
export const ADD_PROJECT_TITLE = 'Add a project folder to Sandy';
export const NO_SESSION_TO_STOP_TEXT = 'Sandy: no running session to stop.';
export const NO_SESSIONS_TEXT = 'Sandy: no sandy sessions are running.';
export const PICK_PROJECT_PLACEHOLDER = 'Select a project';
export const STOP_PICK_PLACEHOLDER = 'Stop which sandy session?';
export const REATTACH_PICK_PLACEHOLDER = 'Reattach to which sandy session?';
export const SWITCH_PICK_PLACEHOLDER = 'Switch to sandy session';
export const OPEN_IN_NEW_WINDOW_ACTION = 'Open in New Window';
export const COPY_PATH_ACTION = 'Copy Path';
export const REMOVE_SANDBOX_TITLE = 'Remove sandbox';
export const REMOVE_SANDBOX_ACTION = 'Remove Sandbox';

/** One row of the "which project?" pick. */
export function projectPickItem(p: Pick<DerivedProject, 'displayName' | 'displayPath' | 'state'>): { label: string; description: string; detail: string } {
    return { label: p.displayName, description: p.displayPath, detail: p.state };
}

export function sessionStoppedText(workspace: string): string {
    return `Sandy: ${workspaceLabel(workspace)} stopped.`;
}

export function noRunningSessionText(displayName: string): string {
    return `Sandy: ${displayName} has no running session.`;
}

export function noSandboxYetText(displayName: string): string {
    return `Sandy: ${displayName} has no sandbox yet — it is created on first launch.`;
}

export function sandboxLocationText(displayName: string, sandboxPath: string): string {
    return `Sandbox of ${displayName}: ${sandboxPath}`;
}

export function noSandboxToRemoveText(displayName: string): string {
    return `Sandy: ${displayName} has no sandbox to remove.`;
}

export function sandboxRemovedText(displayName: string): string {
    return `Sandy: sandbox of ${displayName} removed.`;
}

/** `detail`: the first lines of sandy's output (runFailureText). */
export function removeSandboxFailedText(exitCode: number | undefined, detail: string): string {
    return `Sandy: removing the sandbox failed (exit ${exitCode}): ${detail}`;
}

/** A refusal or failure the service explained: what happened, then what to do. */
export function problemNoticeText(problem: SandyProblem): string {
    return `Sandy: ${problemText(problem)}`;
}

/** A command's call to the service failed (`what`: "stopping sandy", "revoking the approval of x"…). */
export function commandFailedText(what: string, problem: SandyProblem): string {
    return `Sandy: ${what} failed: ${problemText(problem)}`;
}

/** For the Sandy log. */
export function configureFailedText(problem: SandyProblem): string {
    return `sandy: configuring the service failed: ${problemText(problem)}`;
}

export function openFoldersFailedText(problem: SandyProblem): string {
    return `sandy: telling the service this window's open folders failed: ${problemText(problem)}`;
}

/** The Projects view's toolbar button for the settings editor (Theia; the plugin's is in package.json). */
export const OPEN_SETTINGS_TOOLTIP = 'Open Sandy Settings';

/** The status bar items' names (VS Code lists them in the status bar's menu). */
export const STATUS_BAR_NAMES = { sessions: 'Sandy sessions', active: 'Sandy active session' } as const;

/** The plugin without node-pty: what the editor's own terminal cannot do that the Sandy terminal tab does. */
export const FALLBACK_NOTICE = 'Sandy: the native terminal module (node-pty) is not available for this editor, so sandy runs in the '
    + 'editor\'s own terminal. Lost: notifications from sandy (OSC 9/99/777) and the unread badge on the tab, '
    + 'sessions that survive closing the tab (Detach / Reattach), and Stop with sandy\'s cleanup escalation. '
    + 'Install the .vsix built for your platform to get them.';

/** The plugin inside the Sandy IDE (a guest) cannot host a terminal: the IDE's own view does. */
export const GUEST_CANNOT_HOST = { message: 'This editor cannot host a sandy terminal.', hint: 'Use the Sandy IDE\'s own Sandy view.' } as const;

/** A guest's row click handed to the IDE's own sandy.launch, which failed. */
export function guestLaunchFailedText(detail: string): string {
    return `Sandy: launching through the Sandy IDE failed: ${detail}`;
}

// ---- the sandy terminal tab (common/terminal/terminal-session.ts, terminal-tabs.ts) ----

/** Written into a tab whose session (to reattach to) is gone. */
export const SESSION_GONE_TEXT = 'The sandy session this tab showed is no longer running.';
/** Written into a tab restored after a reload whose session had ended (it never launches by itself). */
export const RESTORED_SESSION_ENDED_TEXT = 'This tab showed a sandy session that has ended.';
/** The banner over a tab with nothing running (Relaunch beside it). */
export const SESSION_ENDED_TEXT = 'This session has ended.';

/** A launch that threw (the service's problem and its hint as `detail`). */
export function launchFailedText(detail: string): string {
    return `Launch failed: ${detail}`;
}

/** Written into the tab when sandy refused the launch. */
export function notLaunchedText(reason: string): string {
    return `Not launched: ${reason}`;
}

/** A warning sandy gave with a launch (`--validate-config`). */
export function launchWarningText(workspace: string, warning: string): string {
    return `Sandy (${workspaceLabel(workspace)}): ${warning}`;
}

/** The actions of the terminal tab's notifications. */
export const TERMINAL_ACTIONS = {
    /** On an agent's notification: bring its tab to the front. */
    show: 'Show',
    /** After a tab on a live session closed. */
    reattach: 'Reattach',
    stop: 'Stop'
} as const;

/** The settings editor's tab title (Project + Global with a workspace, Global alone without); `● ` marks unsaved edits. */
export function settingsEditorTitle(workspace: string | undefined, dirty = false): string {
    return `${dirty ? '● ' : ''}${workspace ? `Sandy Settings: ${workspaceLabel(workspace)}` : 'Sandy Settings'}`;
}

export function settingsEditorCaption(workspace: string | undefined): string {
    return workspace ? `sandy settings — ${workspace}` : 'sandy settings (global)';
}

/** The settings could not be loaded: the problem as one line (what happened, then what to do). */
export function settingsLoadFailedText(problemLine: string): string {
    return `Could not read the sandy settings: ${problemLine}`;
}

export const SETTINGS_LOAD_HINT = 'Check the Sandy log, then reopen the settings.';
/** A Project-scope save in an editor opened without a project. */
export const SETTINGS_NO_PROJECT = { message: 'No project is open.', hint: 'Open the settings from a project.' } as const;
export const SETTINGS_SAVE_FAILED_HINT = 'Try again, or edit the file with "Open config".';

export function pickPathTitle(kind: 'folder' | 'file'): string {
    return kind === 'folder' ? 'Choose a folder' : 'Choose a file';
}

/** The pre-flight approval tab. */
export function approvalTitle(workspace: string): string {
    return `Approve: ${workspaceLabel(workspace)}`;
}

export function approvalCaption(workspace: string): string {
    return `sandy pre-flight for ${workspace}`;
}

/** A page or its host did not answer a request in time (shown where the request's result would be). */
export function noAnswerText(what: string, timeoutMs: number): string {
    return `No answer to ${what} within ${Math.max(1, Math.round(timeoutMs / 1000))} s; try again.`;
}

// ---- the launch flow (common/session/launch-flow.ts) and the terminal banner (browser/terminal) ----

/** The terminal's words for a launch that did not start a session. */
export const NOT_APPROVED_TEXT = 'Not launched: pre-flight approval was not given.';

/** A sandbox sandy lists without a workspace folder (from an old sandy): it cannot be launched. */
export const NO_WORKSPACE_TEXT = 'Sandy: this sandbox has no known workspace folder; sandy can only launch from a workspace.';

/** First lines of a failed sandy run, for a notification. */
export function runFailureText(result: RunOutcome): string {
    return (result.stderr || result.stdout).trim().slice(0, 500);
}

export function rebuildFailedText(result: RunOutcome): string {
    return `Sandy: rebuilding the sandbox failed (exit ${result.exitCode}): ${runFailureText(result)}`;
}

export function sandboxResetText(workspace: string): string {
    return `Sandy: sandbox of ${workspaceLabel(workspace)} reset; its agent state starts fresh.`;
}

export function preflightFailedText(detail: string): string {
    return `Sandy: pre-flight failed: ${detail}`;
}

/** The terminal banner's button after a session ended or was not launched. */
export const RELAUNCH_LABEL = 'Relaunch';
