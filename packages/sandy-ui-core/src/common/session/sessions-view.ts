import type { SessionInfo } from './session-types';
import type { AttentionState } from './session-attention';
import { attentionOf, compareAttention } from './session-attention';
import { SESSION_GROUP_LABELS, sessionRowDescription, sessionRowTooltip, workspaceLabel } from '../host/labels';

/**
 * The Sessions view of every host, computed once: the sessions grouped by where they stand for the
 * user, "Needs you" first and the longest wait first within it (the attention queue), then working,
 * idle and ended ones. Hosts render the groups (Theia's widget, VS Code's tree) and call
 * {@link nextWaiting} for the status bar's click and the cycle keybinding.
 */

export type SessionGroupId = keyof typeof SESSION_GROUP_LABELS;

export interface SessionRow {
    sessionId: string;
    workspace: string;
    /** The project's name. */
    label: string;
    description: string;
    tooltip: string;
    state: AttentionState;
    /** A codicon name. */
    icon: string;
}

export interface SessionGroup {
    id: SessionGroupId;
    label: string;
    rows: SessionRow[];
}

const GROUP_OF: Readonly<Record<AttentionState, SessionGroupId>> = { 'needs-you': 'needs-you', working: 'working', idle: 'idle', exited: 'ended', failed: 'ended' };
const ICON_OF: Readonly<Record<AttentionState, string>> = { 'needs-you': 'bell-dot', working: 'sync', idle: 'circle-outline', exited: 'pass', failed: 'error' };

/** A session's attention as the backend said it (a session the backend did not rate is rated by its info alone). */
export function attentionOfSession(s: SessionInfo, now: number): NonNullable<SessionInfo['attention']> {
    return s.attention ?? attentionOf(s, { lastOutputAt: s.lastOutputAt ?? 0 }, now);
}

/** The groups with at least one session, in the order they show. `names`: a project's display name by workspace. */
export function sessionGroups(sessions: readonly SessionInfo[], now = Date.now(), names?: (workspace: string) => string | undefined): SessionGroup[] {
    const sorted = [...sessions].sort((a, b) => compareAttention(attentionOfSession(a, now), attentionOfSession(b, now)) || a.workspace.localeCompare(b.workspace));
    const groups = new Map<SessionGroupId, SessionGroup>();
    for (const id of Object.keys(SESSION_GROUP_LABELS) as SessionGroupId[]) {
        groups.set(id, { id, label: SESSION_GROUP_LABELS[id], rows: [] });
    }
    for (const s of sorted) {
        const state = attentionOfSession(s, now).state;
        groups.get(GROUP_OF[state])!.rows.push({
            sessionId: s.id, workspace: s.workspace, label: names?.(s.workspace) ?? workspaceLabel(s.workspace),
            description: sessionRowDescription(s, now), tooltip: sessionRowTooltip(s, now), state, icon: ICON_OF[state]
        });
    }
    return [...groups.values()].filter(g => g.rows.length).map(g => g.id === 'needs-you' ? { ...g, label: `${g.label} (${g.rows.length})` } : g);
}

/** The sessions waiting for the user, the longest wait first. */
export function waitingSessions(sessions: readonly SessionInfo[], now = Date.now()): SessionInfo[] {
    return sessions.filter(s => s.status !== 'exited' && attentionOfSession(s, now).state === 'needs-you')
        .sort((a, b) => compareAttention(attentionOfSession(a, now), attentionOfSession(b, now)));
}

/**
 * Where "go to the next session that needs you" goes: the longest-waiting one that is not the one the
 * user is looking at (seeing it clears its wait, so pressing again moves down the queue).
 */
export function nextWaiting(sessions: readonly SessionInfo[], current: string | undefined, now = Date.now()): SessionInfo | undefined {
    const waiting = waitingSessions(sessions, now);
    return waiting.find(s => s.id !== current) ?? waiting[0];
}
