import type { SessionInfo } from '../session/session-types';
import type { PaneAttention } from '../session/session-attention';
import type { RunOutcome } from '../service/service-protocol';
import type { DerivedProject } from '../projects/project-state';
import { problemText, SandyProblem } from '../service/service-protocol';
import { cleanNotificationText, NotificationRenderer, plainNotificationText, systemNotificationText } from '../terminal/notification-text';

/** Last path segment of a workspace, for tab titles (POSIX and Windows separators). */
export function workspaceLabel(workspace: string): string {
    const trimmed = workspace.replace(/[\\/]+$/, '');
    const idx = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
    return (idx >= 0 ? trimmed.slice(idx + 1) : trimmed) || workspace;
}

/**
 * sandy 2.x's exit 6: "refused before launch, fixable in one step". sandy documents seven causes; their
 * list is not in any document this project can read (only the meaning of the code is), so the IDE does
 * not guess the cause: sandy's own last lines, above in the terminal, name it and its fix.
 */
export const REFUSED_BEFORE_LAUNCH = 6;
export const REFUSED_BEFORE_LAUNCH_TEXT = 'sandy refused to launch (exit 6: refused before launch, fixable in one step). sandy\'s last lines above name the cause and the one step that fixes it; then Launch again.';

/** How a session ended, in words a user understands (codes from CONTRACT §6.5; a daemon session's end from §6.3). */
export function describeExit(info: Pick<SessionInfo, 'exitCode' | 'signal' | 'status'> & Partial<Pick<SessionInfo, 'endReason' | 'mode' | 'problem'>>): string {
    if (info.status !== 'exited') {
        return 'sandy is running.';
    }
    switch (info.endReason) {
        case 'stopped': return info.mode === 'daemon' ? 'The daemon session was stopped (sandy --stop).' : 'sandy was stopped.';
        case 'agent-exited': return 'The agent exited; its daemon session has ended.';
        case 'gone': return 'The daemon session ended outside the IDE (its container is gone).';
        case 'approval-changed': return `The IDE stopped this session: ${info.problem ? `${info.problem.message} ${info.problem.hint}` : 'sandy approved files other than those you approved.'}`;
        case 'start-failed':
            if (info.problem) {
                return `sandy could not be started: ${info.problem.message}`;
            }
            if (info.exitCode === REFUSED_BEFORE_LAUNCH) {
                return REFUSED_BEFORE_LAUNCH_TEXT;
            }
            return info.mode === 'daemon'
                ? `sandy --start did not start the session${info.exitCode !== undefined ? ` (exit ${info.exitCode})` : ''}; sandy's reason is above.`
                : 'sandy could not be started.';
        default: break;
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
        case REFUSED_BEFORE_LAUNCH: return REFUSED_BEFORE_LAUNCH_TEXT;
        case undefined: return 'sandy ended.';
        default: return `sandy exited with code ${info.exitCode}.`;
    }
}

/**
 * sandy recorded, for a gate the sandy tab answered, a hash of files other than those the user
 * approved (they changed between the approval view and sandy's read): the session is stopped with this
 * (node/service/approvals.ts).
 */
export function approvalChangedProblem(gate: 'privileged' | 'dockerfile', recordPath: string): { message: string; hint: string } {
    const [what, changed] = gate === 'privileged'
        ? ['privileged keys whose values are not the ones you approved', '.sandy/config or .sandy/.secrets']
        : ['a .sandy/ build context that is not the one you approved', 'a file in .sandy/'];
    return {
        message: `sandy approved ${what} (${changed} changed between your approval and sandy's read).`,
        hint: `That approval was removed (${recordPath}); launch again to review the files as they are now.`
    };
}

// ---- daemon sessions (node/terminal/pty-supervisor.ts, common/terminal/terminal-session.ts)

/** Written into a launch's terminal while another launch is in sandy's image build (node/terminal/build-gate.ts). */
export function queuedLaunchText(): string {
    return '\x1b[2m[sandy-ui] Waiting for another launch to get past sandy\'s image build (launches run one at a time through it)…\x1b[0m\r\n';
}

/** The screen of a foreground sandy whose IDE went away: nothing of its terminal can be shown. */
export function orphanScreenText(pid: number): string {
    return `\r\n[sandy-ui] This sandy (pid ${pid}) was started in the foreground by an IDE that has since quit.\r\n` +
        '[sandy-ui] Its terminal went with that IDE and cannot be shown here. Stop it to launch the project again.\r\n';
}

/** The terminal (or window) that had taken a daemon session let go; the IDE does not take it back unasked. */
export const RELEASED_PROBLEM = { message: 'The other terminal or window that had this session let go of it.', hint: 'Attach shows it here again.' } as const;

export function attachFailedProblem(exitCode: number | undefined, detail: string): { message: string; hint: string } {
    return {
        message: `sandy --attach ${exitCode === undefined ? 'could not run' : `failed (exit ${exitCode})`}${detail ? `: ${detail}` : '.'}`,
        hint: exitCode === 1 ? 'sandy could not reach Docker: start Docker, then Attach.' : 'Attach again, or run sandy --attach in a terminal to see why.'
    };
}

export function daemonStopProblem(exitCode: number | undefined, detail: string): { message: string; hint: string } {
    if (exitCode === 5) {
        return { message: 'The daemon session did not stop within 15 s (sandy --stop, exit 5).', hint: 'Stop again, or run sandy --stop in the workspace to see why.' };
    }
    return {
        message: `sandy --stop ${exitCode === undefined ? 'could not run' : `failed (exit ${exitCode})`}${detail ? `: ${detail}` : '.'}`,
        hint: exitCode === 1 ? 'sandy could not reach Docker: start Docker, then Stop again.' : 'The session is still running; Stop again, or run sandy --stop in the workspace.'
    };
}

/** Why a launch runs in the foreground although daemon sessions are the default (node/service/launch.ts). */
export const SESSION_MODE_WHY = {
    noSchema: (version: string) => `sandy ${version} did not answer --print-schema, so whether it has daemon mode is unknown: this session runs in the foreground and ends when the IDE quits.`,
    noDaemonMode: (version: string) => `sandy ${version} has no daemon mode (--start/--attach/--stop): this session runs in the foreground and ends when the IDE quits. Update sandy for sessions that outlive the IDE.`,
    foregroundGates: (dockerfile: boolean, symlinks: boolean) => `This launch runs in the foreground: sandy asks about ${dockerfile && symlinks ? 'the project\'s .sandy/Dockerfile and escaping symlinks' : dockerfile ? 'the project\'s .sandy/Dockerfile' : 'escaping symlinks'} only there, not in a daemon session (sandy --start). It ends when the IDE quits; once sandy has recorded your approval, the next launch is a daemon session again.`
} as const;

/** What a launch gate sandy closed by itself means for the running session. */
export const CLOSED_GATE_TEXT: Record<'dropped-keys' | 'skipped-dockerfile', string> = {
    'dropped-keys': 'sandy dropped this workspace\'s privileged keys: it could not ask for approval, so the session runs without them. Launch in the foreground once (sandy.sessionMode) to approve them.',
    'skipped-dockerfile': 'sandy did not build the project\'s .sandy/Dockerfile: it could not ask for approval, so the session uses the base agent image. Launch in the foreground once (sandy.sessionMode) to approve it.'
};

/** The line above a daemon session's terminal while it is not shown live; undefined: nothing to say. */
export function sessionLinkBanner(info: Pick<SessionInfo, 'mode' | 'origin' | 'link' | 'status' | 'problem'> & Partial<Pick<SessionInfo, 'startPhase'>>): string | undefined {
    if (info.status === 'exited') {
        return undefined;
    }
    if (info.origin === 'orphan') {
        return 'Started by an IDE that has since quit: its terminal cannot be shown. Stop it to launch again.';
    }
    if (info.problem) {
        return problemText({ code: 'session', ...info.problem });
    }
    switch (info.link) {
        case 'starting': return info.startPhase === 'building' ? 'Starting the daemon session: building images (sandy --start; the first build takes minutes)…'
            : info.startPhase === 'starting' ? 'Starting the daemon session: starting its container (sandy --start)…'
                : info.startPhase === 'ready' ? 'Starting the daemon session: attachable, attaching…'
                    : 'Starting the daemon session (sandy --start: images, then the container)…';
        case 'elsewhere': return 'Attached in another terminal (sandy --attach there took it over). Take Back shows it here again.';
        case 'detached': return info.origin === 'outside' ? 'Started outside the IDE. Attach shows it here (it takes it from any other terminal).' : undefined;
        default: return undefined;
    }
}

/** Where a session came from, for the tree, pick-lists and tooltips. */
export function sessionOriginText(info: Pick<SessionInfo, 'mode' | 'origin' | 'link'>): string {
    if (info.origin === 'orphan') {
        return 'orphaned foreground sandy';
    }
    const where = info.origin === 'outside' ? 'started outside the IDE' : undefined;
    const link = info.mode !== 'daemon' ? 'foreground'
        : info.link === 'elsewhere' ? 'daemon, attached in another terminal'
            : info.link === 'starting' ? 'daemon, starting' : 'daemon';
    return where ? `${link}, ${where}` : link;
}

/** Sessions older than this are marked (the `sandy.longRunningHours` setting). */
export function isLongRunning(info: Pick<SessionInfo, 'startedAt' | 'status'>, hours: number, now = Date.now()): boolean {
    return info.status !== 'exited' && hours > 0 && now - info.startedAt >= hours * 3_600_000;
}

export function longRunningText(workspace: string, info: Pick<SessionInfo, 'startedAt'>, now = Date.now()): string {
    return `sandy (${workspaceLabel(workspace)}) has been running for ${formatAge(now - info.startedAt)}. Stop it, or keep it running?`;
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

/** A session's age for lists that are not redrawn every second: "under a minute", "42 min", "3 h 5 min", "2 d 4 h". */
export function formatAge(ms: number): string {
    const min = Math.floor(Math.max(0, ms) / 60_000);
    if (min < 1) {
        return 'under a minute';
    }
    if (min < 60) {
        return `${min} min`;
    }
    const h = Math.floor(min / 60);
    if (h < 48) {
        return `${h} h ${min % 60} min`;
    }
    return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** The status bar's session count: `N sandy sessions` (hosts add their own icon syntax). */
export function sessionsStatusText(live: readonly Pick<SessionInfo, 'workspace' | 'pid'>[]): string {
    return `${live.length} sandy session${live.length === 1 ? '' : 's'}`;
}

export function sessionsStatusTooltip(live: readonly SessionInfo[], now = Date.now(), longRunningHours = 24): string {
    return live.map(s => `${workspaceLabel(s.workspace)} — ${sessionOriginText(s)}, running ${formatAge(now - s.startedAt)}` +
        `${isLongRunning(s, longRunningHours, now) ? ' (long-running)' : ''}${s.pid ? `, pid ${s.pid}` : ''}`).join('\n') + '\nClick to switch';
}

/** The focused session: `pid · agent · elapsed`. */
export function activeSessionText(session: Pick<SessionInfo, 'pid' | 'agent' | 'startedAt'> & Partial<Pick<SessionInfo, 'mode'>>, now = Date.now()): string {
    // A daemon session's pid is our attach client's (0 while none runs): its mode says more.
    const parts = [session.mode === 'daemon' ? 'daemon' : `pid ${session.pid}`];
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

/** A notification as the desktop shows it while the IDE's window has no focus: the project as its title, the message as its text. */
export function systemNotificationContent(workspace: string, n: { title?: string; body: string }, more = 0): { title: string; body: string } {
    const folded = more > 0 ? ` (and ${more} more)` : '';
    return {
        title: systemNotificationText(`sandy (${workspaceLabel(workspace)})`, 80),
        body: `${systemNotificationText(n.title ? `${n.title}: ${n.body}` : n.body)}${folded}`
    };
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
/** What Remove from Projects did, and why the row may still be there (an open folder, sandy's own sandbox). */
export function projectRemovedText(name: string, still: { open: boolean; sandbox: boolean }): string {
    const why = [
        still.open ? 'it stays in the view while a window has its folder open' : '',
        still.sandbox ? 'sandy still lists its sandbox (Remove Sandbox… deletes that)' : ''
    ].filter(Boolean);
    return `Sandy: ${name} is no longer in your projects (its folder is untouched)${why.length ? `; ${why.join(', and ')}` : ''}.`;
}

export const CHOOSE_FOLDER_LABEL = '$(folder-opened) Choose a folder…';
export const LAUNCH_FOLDER_TITLE = 'Launch sandy in which folder? (it is mounted read-write into the sandbox)';
export const LAUNCH_FOLDER_ACTION = 'Launch';
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
export const STATUS_BAR_NAMES = { sandy: 'Sandy: sandy', sessions: 'Sandy sessions', active: 'Sandy active session', needsYou: 'Sandy sessions that need you', doNotDisturb: 'Sandy do not disturb' } as const;

/** The plugin without node-pty: what the editor's own terminal cannot do that the Sandy terminal tab does. */
export const FALLBACK_NOTICE = 'Sandy: the native terminal module (node-pty) is not available for this editor, so sandy runs in the '
    + 'editor\'s own terminal, in the foreground. Lost: daemon sessions that outlive the window (sandy.sessionMode '
    + 'has no effect), notifications from sandy (OSC 9/99/777) and the unread badge on the tab, '
    + 'sessions that survive closing the tab (Detach / Reattach), the Sessions view, the dashboard, the status bar\'s '
    + 'session count and the session history, and Stop with sandy\'s cleanup escalation. '
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

// ---- Add Project's one summary, and the project's `.sandy/` (common/projects/project-commands.ts)

export const CREATE_SANDY_FOLDER_ACTION = 'Create .sandy/config';
export const COPY_SANDY_FOLDER_ACTION = 'Copy from a Project…';
export const COPY_SANDY_FOLDER_PLACEHOLDER = 'Copy the .sandy/ settings of which project?';
export const COPY_SECRETS_TITLE = 'Also copy .secrets?';

/**
 * Add Project's one notification: what Launch's pre-flight will say (the same verdict, so Add Project
 * never promises an approval Launch then refuses), sandy's warnings, and whether it has its own `.sandy/`.
 */
export function addProjectSummaryText(name: string, outcome: {
    warnings: readonly string[]; launch?: { kind: 'ready' | 'approve' | 'refuse' | 'compat'; lines: readonly string[] }; hasSandyFolder?: boolean;
}): string {
    const parts: string[] = [];
    const launch = outcome.launch;
    if (launch?.kind === 'refuse') {
        parts.push(`Added ${name}, but Launch will refuse it: ${launch.lines.join(' ')}`);
    } else if (launch?.kind === 'approve') {
        parts.push(`Added ${name}. Its settings set privileged keys (${launch.lines.join(', ')}): Launch shows them for your approval first.`);
    } else if (launch?.kind === 'compat') {
        parts.push(`Added ${name}. ${launch.lines.join(' ')}`.trim());
    } else {
        parts.push(`Added ${name}.`);
    }
    if (outcome.warnings.length) {
        parts.push(`sandy says: ${outcome.warnings.join('; ')}.`);
    }
    if (outcome.hasSandyFolder === false) {
        parts.push('It has no .sandy/ settings of its own: sandy uses your global ones there.');
    }
    return `Sandy: ${parts.join(' ')}`;
}

/** `sandy-ui validate`'s last line: the verdict Launch will reach for the workspace (what Add Project says). */
export function launchVerdictLine(verdict: { kind: 'ready' | 'approve' | 'refuse' | 'compat'; lines: readonly string[] }, workspace: string): string {
    switch (verdict.kind) {
        case 'ready': return `  launch   ${workspace}: nothing to approve.`;
        case 'approve': return `  launch   ${workspace}: asks you to approve ${verdict.lines.join(', ')} first.`;
        case 'refuse': return `  launch   ${workspace}: REFUSED — ${verdict.lines.join(' ')}`;
        case 'compat': return `  launch   ${workspace}: the sandbox needs attention — ${verdict.lines.join(' ')}`;
    }
}

/** What the starter `.sandy/config` is, shown before it is written. */
export const STARTER_PLAN_LINES = [
    'Creates .sandy/config with sandy\'s commonly used project settings, each commented out with what it does.',
    'Nothing changes until you edit it; privileged keys set there need your approval at launch.'
];

export function createSandyFolderTitle(name: string): string {
    return `Create .sandy/ in ${name}?`;
}

export function sandyFolderCreatedText(name: string, created: readonly string[]): string {
    return `Sandy: created ${created.map(f => `.sandy/${f.split(/[\\/]/).pop()}`).join(' and ')} in ${name}.`;
}

export function copySecretsText(from: string, adds: readonly string[] = []): string {
    return [`${from} also has .sandy/.secrets (API keys and tokens). Copy it too? Its values are secrets: only copy them where the same keys should apply.`, ...adds].join('\n');
}

// ---- the skill-pack browser (ProjectCommands.chooseSkillPacks)

export const SKILL_PACKS_GLOBAL_LABEL = 'Global (every project)';
export const SKILL_PACKS_SCOPE_PLACEHOLDER = 'Choose skill packs for which scope?';
export const NO_SKILL_PACKS_TEXT = 'Sandy: this sandy lists no skill packs.';

export function skillPacksPlaceholder(scope: string): string {
    return `Skill packs for ${scope} (sandy installs the ticked ones at its next build)`;
}

export function skillPacksShadowedText(value: string, file: string): string {
    return `Sandy: SANDY_SKILL_PACKS=${value} written to ${file}, but the same scope's .secrets also sets SANDY_SKILL_PACKS, and sandy reads that one. Remove it there (Sandy Settings shows where).`;
}

export function skillPacksSavedText(value: string, file: string): string {
    return value
        ? `Sandy: SANDY_SKILL_PACKS=${value} written to ${file}. The next launch builds them into the image (a few minutes once).`
        : `Sandy: SANDY_SKILL_PACKS removed from ${file}.`;
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
    stop: 'Stop',
    /** A daemon session another terminal attached to, or one started outside the IDE. */
    takeBack: 'Take Back',
    attach: 'Attach',
    /** The long-running nudge: leave it, and ask no more for this session. */
    keep: 'Keep Running'
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
/** The pre-flight tab's title: a refusal is titled as one (no approve wording), a sandbox to check as that. */
export function approvalTitle(workspace: string, kind: 'approve' | 'refuse' | 'compat' = 'approve'): string {
    const verb = kind === 'refuse' ? 'Refused' : kind === 'compat' ? 'Check sandbox' : 'Approve';
    return `${verb}: ${workspaceLabel(workspace)}`;
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
    return `Sandy: sandbox of ${workspaceLabel(workspace)} reset; its agent state starts fresh. Launching it now.`;
}

export function sandboxResettingText(workspace: string): string {
    return `Sandy: rebuilding the sandbox of ${workspaceLabel(workspace)} (sandy --reset-sandbox; up to a minute). It launches when done.`;
}

export function preflightFailedText(detail: string): string {
    return `Sandy: pre-flight failed: ${detail}`;
}

/** The terminal banner's button after a session ended or was not launched. */
export const RELAUNCH_LABEL = 'Relaunch';

// ---- the attention queue: the Sessions view, the status bar's "need you", do not disturb ------------------

export const SESSION_GROUP_LABELS = { 'needs-you': 'Needs you', working: 'Working', idle: 'Idle', ended: 'Ended' } as const;

/** A session row's short state, for the Sessions view (the words a user reads at a glance). */
export function sessionAttentionText(s: Pick<SessionInfo, 'attention' | 'status' | 'exitCode' | 'signal' | 'lastOutputAt' | 'endedAt'>, now = Date.now()): string {
    const a = s.attention;
    switch (a?.state) {
        case 'needs-you': {
            const age = now - (a.since ?? now);
            if (a.waitingFor === 'prompt') {
                const agents = (a.panes ?? []).filter(p => p.state === 'waiting').map(p => p.agent);
                const waiting = agents.length ? `${agents.join(' and ')} waiting at ${agents.length > 1 ? 'their prompts' : 'its prompt'}` : 'waiting at its prompt';
                return age < 60_000 ? waiting : `${waiting} for ${formatAge(age)}`;
            }
            return `${a.waitingFor === 'bell' ? 'rang the bell' : 'asked for you'} ${age < 60_000 ? 'just now' : `${formatAge(age)} ago`}`;
        }
        case 'working':
            return 'working';
        case 'exited':
            return `exited${s.exitCode !== undefined ? ` (${s.exitCode})` : ''}`;
        case 'failed':
            return `failed${s.signal ? ` (${s.signal})` : s.exitCode !== undefined ? ` (exit ${s.exitCode})` : ''}`;
        default:
            return s.status === 'exited' ? 'ended' : s.lastOutputAt ? `idle, last output ${formatAge(now - s.lastOutputAt)} ago`.replace('under a minute ago', 'just now') : 'idle';
    }
}

/** The Sessions view's row description: state · agent · elapsed. */
export function sessionRowDescription(s: SessionInfo, now = Date.now()): string {
    const parts = [sessionAttentionText(s, now)];
    if (s.agent) {
        parts.push(s.agent);
    }
    parts.push(s.status === 'exited' ? `ran ${formatAge((s.endedAt ?? now) - s.startedAt)}` : formatAge(now - s.startedAt));
    return parts.join(' · ');
}

const PANE_STATE_WORDS: Readonly<Record<PaneAttention['state'], string>> = { waiting: 'waiting at its prompt', working: 'working', idle: 'idle' };

/** A multi-agent session's panes in one line, in sandy's order: `claude waiting at its prompt · codex working`. */
export function paneAttentionText(panes: readonly PaneAttention[]): string {
    return panes.map(p => `${p.agent} ${PANE_STATE_WORDS[p.state] ?? 'idle'}`).join(' · ');
}

export function sessionRowTooltip(s: SessionInfo, now = Date.now()): string {
    const lines = [s.workspace, `${sessionOriginText(s)} — ${sessionAttentionText(s, now)}`];
    if (s.agent) {
        lines.push(`Agent: ${s.agent}`);
    }
    if (s.attention?.panes?.length) {
        lines.push(`Panes: ${paneAttentionText(s.attention.panes)}`);
    }
    lines.push(`Started ${formatAge(now - s.startedAt)} ago${s.pid ? `, pid ${s.pid}` : ''}`);
    if (s.status === 'exited') {
        lines.push(describeExit(s));
    }
    return lines.join('\n');
}

/** The status bar item while sessions need the user: `N need(s) you` (hosts add their icon syntax). */
export function needsYouStatusText(count: number): string {
    return `${count} need${count === 1 ? 's' : ''} you`;
}

export function needsYouStatusTooltip(waiting: readonly SessionInfo[], now = Date.now()): string {
    return waiting.map(s => `${workspaceLabel(s.workspace)} — ${sessionAttentionText(s, now)}`).join('\n') + '\nClick to go to the one that has waited longest';
}

export const NO_SESSION_WAITING_TEXT = 'Sandy: no session needs you.';
export const NO_SESSIONS_VIEW_TEXT = 'No sandy sessions. Click a project to launch one; its session shows here while it runs.';
export const DO_NOT_DISTURB_STATUS = { text: 'Do not disturb', tooltip: 'Sandy: do not disturb is on — no Sandy notifications; the Sessions view and this bar still count who needs you. Click to turn it off.' } as const;

export function doNotDisturbText(on: boolean): string {
    return on
        ? 'Sandy: do not disturb is on. No notifications until you turn it off; the Sessions view and the status bar still show who needs you.'
        : 'Sandy: do not disturb is off. Sessions that need you notify again.';
}

// ---- Dashboard: the Sessions dashboard (common/session/dashboard-controller.ts, browser/dashboard) ----------

export const DASHBOARD_TITLE = 'Sandy Dashboard';
export const DASHBOARD_CAPTION = 'Every sandy session at a glance: who needs you, what runs, what it costs';
export const DASHBOARD_EMPTY_TEXT = 'No sandy sessions. Launch a project; each session shows here as a tile.';
export const DASHBOARD_TILE_HINT = 'Click (or Enter) to show its tab';

/** The badge of a tile's state. */
export const DASHBOARD_STATE_LABELS = { 'needs-you': 'Needs you', working: 'Working', idle: 'Idle', exited: 'Exited', failed: 'Failed' } as const;

/** The banner while the Docker API does not answer; `reason` is Docker's (or the socket's) own words, shown as text. */
export function dashboardDockerUnreachableText(reason: string): string {
    return `Docker unreachable — ${reason}`;
}

export function dashboardSessionGoneText(): string {
    return 'Sandy: that session is gone; the dashboard shows the ones that remain.';
}

/** "12 s ago", "3 min ago", "2 h 5 min ago"; "no output yet". */
export function dashboardLastActivityText(lastOutputAt: number | undefined, now = Date.now()): string {
    if (!lastOutputAt) {
        return 'no output yet';
    }
    const s = Math.max(0, Math.floor((now - lastOutputAt) / 1000));
    return s < 60 ? `${s} s ago` : `${formatAge(now - lastOutputAt)} ago`;
}

/** "running 3m 12s" / "ran 1h 4m". */
export function dashboardElapsedText(startedAt: number, endedAt: number | undefined, now = Date.now()): string {
    return endedAt !== undefined ? `ran ${formatElapsed(endedAt - startedAt)}` : `running ${formatElapsed(now - startedAt)}`;
}

export function dashboardCpuText(cpuPercent: number | undefined): string {
    return cpuPercent === undefined ? 'CPU —' : `CPU ${cpuPercent < 10 ? cpuPercent.toFixed(1) : Math.round(cpuPercent)} %`;
}

function formatBytes(n: number): string {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = n;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
    }
    return `${unit === 0 || value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function dashboardMemoryText(bytes: number | undefined, limit: number | undefined): string {
    if (bytes === undefined) {
        return 'Mem —';
    }
    return limit ? `Mem ${formatBytes(bytes)} / ${formatBytes(limit)}` : `Mem ${formatBytes(bytes)}`;
}

/** A tile's accessible name: project, state, agent. */
export function dashboardTileLabel(tile: { project: string; agent?: string; attention: { state: keyof typeof DASHBOARD_STATE_LABELS; panes?: PaneAttention[] } }): string {
    const panes = tile.attention.panes?.length ? paneAttentionText(tile.attention.panes) : undefined;
    return [tile.project, DASHBOARD_STATE_LABELS[tile.attention.state], panes ?? tile.agent].filter(Boolean).join(', ');
}

// ---- History: past sessions (common/session/history-controller.ts, browser/history) ------------------------

export const HISTORY_TITLE = 'Sandy History';
export const HISTORY_CAPTION = 'Past sandy sessions: search their output, read one again, relaunch its project';
export const HISTORY_EMPTY_TEXT = 'No recorded sessions yet. Every sandy session\'s output is kept here once it has started (sandy.historyMegabytes).';
export const HISTORY_NO_MATCH_TEXT = 'No recorded session matches.';
export const HISTORY_SEARCH_PLACEHOLDER = 'Search the output of past sessions';
export const HISTORY_SEARCH_LABEL = 'Search the sessions\' output';
export const HISTORY_PROJECT_FILTER_LABEL = 'Project';
export const HISTORY_ALL_PROJECTS = 'All projects';
export const HISTORY_ROW_HINT = 'Click (or Enter) to read its output';
export const HISTORY_OPEN = 'Open';
export const HISTORY_RELAUNCH = 'Relaunch';
export const HISTORY_DELETE = 'Delete';
export const HISTORY_COPY = 'Copy';
export const HISTORY_COPY_ALL = 'Copy All';
export const HISTORY_LOADING_TEXT = 'Reading the recorded output…';
export const HISTORY_RECORD_GONE_TEXT = 'Sandy: that session\'s history is gone (deleted, or removed to keep within sandy.historyMegabytes).';
export const HISTORY_DELETE_RUNNING_TEXT = 'Sandy: a running session\'s history cannot be deleted; stop the session first.';
export const HISTORY_TRUNCATED_NOTE = 'Its start was dropped to stay within sandy.historyMegabytes: this is the most recent part.';

/** "2026-12-01 23:06" in local time. */
export function historyStartText(startedAt: number): string {
    const d = new Date(Number.isFinite(startedAt) ? startedAt : 0);
    const pad = (n: number): string => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "3m 12s"; "running 3m 12s" while it runs (no end yet). */
export function historyDurationText(record: { startedAt: number; endedAt?: number }, now = Date.now()): string {
    return record.endedAt !== undefined ? formatElapsed(Math.max(0, record.endedAt - record.startedAt)) : `running ${formatElapsed(Math.max(0, now - record.startedAt))}`;
}

/** "exit 0", "signal 15", "running", "ended" (the IDE died before it saw the end). */
export function historyExitText(record: { endedAt?: number; exitCode?: number; signal?: number }): string {
    if (record.exitCode !== undefined) {
        return `exit ${record.exitCode}`;
    }
    if (record.signal !== undefined) {
        return `signal ${record.signal}`;
    }
    return record.endedAt === undefined ? 'running' : 'ended';
}

export function historySizeText(bytes: number): string {
    return formatBytes(Math.max(0, Number(bytes) || 0));
}

/** A row's accessible name. */
export function historyRowLabel(record: { project: string; startedAt: number; endedAt?: number; exitCode?: number; signal?: number }): string {
    return `${record.project}, ${historyStartText(record.startedAt)}, ${historyExitText(record)}`;
}

/** The viewer tab's title. */
export function historyViewerTitle(record: { project: string; startedAt: number }): string {
    return `History: ${record.project} ${historyStartText(record.startedAt)}`;
}

/** The viewer's header, one part each: project · agent · started · ended · exit. */
export function historyHeaderParts(record: { project: string; agent?: string; model?: string; startedAt: number; endedAt?: number; exitCode?: number; signal?: number }): string[] {
    return [
        record.project,
        record.agent ? (record.model ? `${record.agent} (${record.model})` : record.agent) : undefined,
        `started ${historyStartText(record.startedAt)}`,
        record.endedAt !== undefined ? `ended ${historyStartText(record.endedAt)}` : undefined,
        historyExitText(record)
    ].filter((p): p is string => !!p);
}

/** Output the disk could not keep up with. */
export function historyDroppedNote(bytes: number): string {
    return `${historySizeText(bytes)} of output were not recorded (the disk fell behind); a marker line stands where they were.`;
}

/** The viewer stopped reading after its page bound. */
export function historyCutNote(shownBytes: number): string {
    return `Only the first ${historySizeText(shownBytes)} are shown here.`;
}

export function historyDeleteConfirm(record: { project: string; startedAt: number }): { title: string; message: string; ok: string } {
    return {
        title: 'Delete Session History',
        message: `Delete the recorded output of ${record.project}'s session of ${historyStartText(record.startedAt)}? It cannot be brought back.`,
        ok: HISTORY_DELETE
    };
}

/** Relaunch of a record whose project is no longer in the Projects list. */
export function historyProjectGoneText(project: string, workspace: string): string {
    return `Sandy: ${project} (${workspace}) is not in the Projects list any more; add its folder again to relaunch it.`;
}

export function historyFailedText(doing: string, problem: SandyProblem): string {
    return `Sandy: ${doing} failed: ${problemText(problem)}`;
}
