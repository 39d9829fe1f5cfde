import type { DerivedProject } from './project-state';
import { formatAge } from '../host/labels';

/** Words for each state badge: the tree icon's label and tooltip, in every host. */
export function describeProjectState(p: Pick<DerivedProject, 'state' | 'staleLock' | 'lockHolderPid' | 'ownedByUs' | 'belowMinCompat' | 'daemon'> & Partial<Pick<DerivedProject, 'session'>>): string {
    switch (p.state) {
        case 'fresh': return 'Fresh — no sandbox yet; sandy creates it on first launch';
        case 'current': return 'Current — sandbox up to date with this sandy';
        case 'stale': return p.belowMinCompat
            ? 'Stale — created by a sandy older than the compat floor; sandy refuses to launch it until the sandbox is rebuilt'
            : 'Stale — last used by an older sandy; it is updated on next launch';
        case 'locked': return p.staleLock
            ? `Stale lock — held by pid ${p.lockHolderPid ?? '?'}, which is no longer running; cleared on next launch`
            : `Locked — another sandy is running in this workspace${p.lockHolderPid ? ` (pid ${p.lockHolderPid})` : ''}`;
        case 'running': return p.ownedByUs ? describeRunningSession(p.session ?? {}) : p.daemon ? 'Running — as a daemon session (sandy --start)' : 'Running';
        default: return String(p.state);
    }
}

/** A running session of this IDE in the tree's words: how it runs, who started it, whether a tab shows it. */
function describeRunningSession(s: NonNullable<DerivedProject['session']>): string {
    const shown = (s.attachedViews ?? 0) > 0;
    if (s.origin === 'orphan') {
        return `Running — a foreground sandy (pid ${s.pid ?? '?'}) whose IDE quit; its terminal is gone: Stop ends it`;
    }
    if (s.mode !== 'daemon') {
        return shown ? 'Running — in a Sandy terminal tab' : 'Running — in the background (no tab shows it: Reattach)';
    }
    const by = s.origin === 'outside' ? ', started outside the IDE' : '';
    switch (s.link) {
        case 'starting': return `Starting — daemon session (sandy --start)${by}`;
        case 'elsewhere': return `Running — daemon session${by}, attached in another terminal (Take Back in its tab)`;
        default: return shown ? `Running — daemon session${by}, in a Sandy terminal tab` : `Running — daemon session${by}, no tab shows it (Reattach)`;
    }
}

/** Relative time like "5 min ago", "yesterday", or a date. */
export function formatRelativeTime(date: Date | undefined, now = Date.now()): string | undefined {
    if (!date || isNaN(date.getTime())) {
        return undefined;
    }
    const s = Math.round((now - date.getTime()) / 1000);
    if (s < 45) { return 'just now'; }
    if (s < 3600) { return `${Math.round(s / 60)} min ago`; }
    if (s < 86400) { return `${Math.round(s / 3600)} h ago`; }
    if (s < 2 * 86400) { return 'yesterday'; }
    if (s < 30 * 86400) { return `${Math.round(s / 86400)} days ago`; }
    return date.toISOString().slice(0, 10);
}

/** The one-line description beside the name: path · agent · model · last launched. */
export function projectDescription(p: DerivedProject, now = Date.now()): string {
    const parts = [p.displayPath];
    if (p.workspaceExists === false && p.workspacePathReliable) {
        // An orphaned sandbox: Fleet Maintenance's "Remove orphaned sandboxes" offers it.
        parts.push('folder gone');
    }
    if (p.lastAgent) {
        parts.push(p.lastAgent);
    }
    if (p.model) {
        parts.push(p.model);
    }
    if (p.session?.startedAt && p.state === 'running') {
        // A running session says for how long (marked once it is older than the user's threshold).
        parts.push(`${p.longRunning ? 'long-running: ' : 'running '}${formatAge(now - p.session.startedAt)}`);
    } else {
        const when = formatRelativeTime(p.lastLaunched instanceof Date ? p.lastLaunched : p.lastLaunched ? new Date(p.lastLaunched) : undefined, now);
        if (when) {
            parts.push(when);
        }
    }
    return parts.join(' · ');
}

/** Sizes as people read them: 812 B, 76.0 KiB, 1.2 GiB. */
export function formatBytes(n: number): string {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    let v = n;
    while (v >= 1024 && i < units.length - 1) {
        v /= 1024;
        i++;
    }
    return `${v.toFixed(i ? 1 : 0)} ${units[i]}`;
}

/** The rich tooltip, plain text (hosts render it as text, never HTML). */
export function projectTooltip(p: DerivedProject): string {
    const lines = [p.displayName, p.workspacePath ?? '(workspace unknown — a sandbox from an older sandy)', describeProjectState(p)];
    if (p.sandboxName) {
        lines.push(`Sandbox: ${p.sandboxName}`);
    }
    if (p.lastAgent || p.model) {
        lines.push(`Agent: ${p.lastAgent ?? 'default'}${p.model ? ` · model ${p.model}` : ''}`);
    }
    if (p.lastLaunched) {
        lines.push(`Last launched: ${new Date(p.lastLaunched).toLocaleString()}`);
    }
    if (p.createdVersion || p.lastUsedVersion) {
        lines.push(`sandy versions: created ${p.createdVersion || 'unknown'}, last used ${p.lastUsedVersion || 'unknown'}`);
    }
    if (p.sizeBytes !== undefined) {
        lines.push(`Size: ${formatBytes(p.sizeBytes)}`);
    }
    if (p.approved) {
        lines.push('Privileged workspace keys: approved');
    }
    if (p.workspaceExists === false && p.workspacePathReliable) {
        lines.push('The workspace folder no longer exists.');
    }
    if (p.daemon) {
        lines.push(`Daemon session: container ${p.daemon.containerId}${p.daemon.attachedClients !== undefined ? `, ${p.daemon.attachedClients} attached` : ''}`);
    }
    if (p.session?.startedAt && p.state === 'running') {
        lines.push(`Running for ${formatAge(Date.now() - p.session.startedAt)}${p.longRunning ? ' — longer than your sandy.longRunningHours' : ''}`);
    }
    return lines.join('\n');
}

/** Codicon name of each state badge (both hosts draw codicons: Theia's `codicon-*`, VS Code's `ThemeIcon`). */
export const PROJECT_STATE_ICONS: Readonly<Record<string, string>> = {
    fresh: 'circle-large-outline',
    current: 'pass',
    stale: 'history',
    locked: 'lock',
    running: 'debug-start'
};

export function projectStateIcon(state: string): string {
    return PROJECT_STATE_ICONS[state] ?? 'circle-outline';
}

/** A line above the projects: why the list may be stale or a launch may fail. */
export interface ProjectsBanner {
    kind: 'state' | 'docker' | 'compat' | 'refused-folder';
    severity: 'error' | 'warning';
    text: string;
}

export const DOCKER_UNREACHABLE_TEXT = 'Docker is not reachable. Start Docker (Docker Desktop, or sudo systemctl start docker) — sandy needs it to launch.';

export function projectsBanners(snapshot: {
    stateProblem?: { message: string; hint: string };
    dockerReachable: boolean | undefined;
    status: { compat?: { severity: string; message: string } };
    refusedFolders?: ReadonlyArray<{ message: string }>;
}): ProjectsBanner[] {
    const banners: ProjectsBanner[] = [];
    if (snapshot.refusedFolders?.length) {
        // The open folder is not in the list below: say why, first (one banner; hosts key banners by kind).
        banners.push({ kind: 'refused-folder', severity: 'error', text: snapshot.refusedFolders.map(r => r.message).join(' ') });
    }
    if (snapshot.stateProblem) {
        banners.push({ kind: 'state', severity: 'error', text: `${snapshot.stateProblem.message} ${snapshot.stateProblem.hint}` });
    }
    if (snapshot.dockerReachable === false) {
        banners.push({ kind: 'docker', severity: 'warning', text: DOCKER_UNREACHABLE_TEXT });
    }
    const compat = snapshot.status.compat;
    if (compat && compat.severity !== 'none') {
        banners.push({ kind: 'compat', severity: compat.severity === 'error' ? 'error' : 'warning', text: compat.message });
    }
    return banners;
}

/** The "sandy not found" explanation, with the install command. */
export const SANDY_INSTALL_COMMAND = 'curl -fsSL https://raw.githubusercontent.com/rappdw/sandy/main/install.sh | bash';
export const LOCATING_SANDY_TEXT = 'Looking for sandy…';

/** The status bar while sandy is still being looked for (not a verdict: nothing is wrong yet). */
export const LOCATING_SANDY_STATUS = { text: LOCATING_SANDY_TEXT, tooltip: 'Sandy is looking for the sandy command and asking its version and settings schema.' } as const;

/** The status bar once the search ended without sandy (click: Get Started, whose first step says how to install it). */
export function sandyNotFoundStatus(problem: string | undefined): { text: string; tooltip: string } {
    return { text: 'sandy not found', tooltip: `${problem ? `${problem} ` : ''}Click for Sandy: Get Started, which shows how to install it.` };
}

/**
 * Where the window stands with sandy, for the Projects view of both hosts and the walkthrough: still
 * looking (no snapshot yet, or sandy's first search not finished: not found without a reason is not a
 * verdict), not found (the search ended with its reason), or found with projects or without.
 */
export type SandyViewState = 'locating' | 'notFound' | 'ready' | 'empty';

export function sandyViewState(snapshot: { status: { found: boolean; problem?: unknown }; projects: readonly unknown[] } | undefined): SandyViewState {
    if (!snapshot || (!snapshot.status.found && !snapshot.status.problem)) {
        return 'locating';
    }
    return !snapshot.status.found ? 'notFound' : snapshot.projects.length ? 'ready' : 'empty';
}

export const SANDY_SEARCHED_TEXT = 'No sandy executable on PATH or in ~/.local/bin, /usr/local/bin, /opt/homebrew/bin, ~/bin.';
