import type { SessionInfo } from './session-types';

/**
 * Where a session stands for the user who supervises many (issue 11's attention queue):
 * - `needs-you`: it asked for the user (a notification or a bell the user has not seen yet);
 * - `working`: output within the last {@link WORKING_WINDOW_MS};
 * - `idle`: running, quiet, asking nothing;
 * - `exited`: ended as asked (the agent exited 0, the user stopped it, sandy says it is gone);
 * - `failed`: ended otherwise (it could not start, a non-zero exit, a signal nobody sent).
 */
export type AttentionState = 'needs-you' | 'working' | 'idle' | 'exited' | 'failed';

/** Output within this long counts as working. */
export const WORKING_WINDOW_MS = 5_000;

/** What the backend observed of a session's stream, besides its {@link SessionInfo}. */
export interface ActivityFacts {
    /** When its last output arrived (0: none yet). */
    lastOutputAt: number;
    /** Since when it has been waiting for the user (its first notification or bell not yet seen); undefined: not waiting. */
    waitingSince?: number;
    /** What it is waiting with: a notification, a bell, or its own prompt on screen (an agent waiting for input). */
    waitingFor?: 'notification' | 'bell' | 'prompt';
}

export interface Attention {
    state: AttentionState;
    /** Since when the state holds, where known (the wait's start; the end; the last output). */
    since?: number;
    waitingFor?: ActivityFacts['waitingFor'];
    /** A multi-agent session's agents, pane by pane (sandy's order), where its screen tells them apart. */
    panes?: PaneAttention[];
}

/**
 * One agent's pane of a multi-agent session: `waiting` (its own prompt on its pane), `working` (its
 * pane changed within {@link WORKING_WINDOW_MS}) or `idle`. Whether the *session* needs the user is the
 * session's state: a waiting pane makes it needs-you until the user has seen it.
 */
export interface PaneAttention {
    agent: string;
    state: 'waiting' | 'working' | 'idle';
    /** Since when, where known (the wait's start; the pane's last change). */
    since?: number;
}

/** What the backend observed of one pane when it last looked at it. */
export interface PaneFacts {
    agent: string;
    /** Since when its agent waits at its prompt; undefined: not waiting. */
    waitingSince?: number;
    /** When its text last changed. */
    changedAt: number;
}

/** A pane's state now: as {@link attentionOf} for a session, working turns idle by the clock alone. */
export function paneAttentionOf(pane: PaneFacts, now: number): PaneAttention {
    if (pane.waitingSince !== undefined) {
        return { agent: pane.agent, state: 'waiting', since: pane.waitingSince };
    }
    return { agent: pane.agent, state: lately(pane.changedAt, now) ? 'working' : 'idle', since: pane.changedAt };
}

/**
 * How long ago `at` was, on the wall clock attention keeps (its times are shown). A time after `now` means
 * the clock was set back since: how long ago is unknown, so it counts as long ago (Infinity) — never as
 * recent, which would hold a state (working, a look put off) until the clock caught up with it.
 */
export function elapsedSince(at: number, now: number): number {
    return at > now ? Infinity : now - at;
}

/** Whether `at` is within the working window before `now`. */
function lately(at: number, now: number): boolean {
    return elapsedSince(at, now) < WORKING_WINDOW_MS;
}

/** Exit codes of a sandy that ended because it was asked to (SIGINT, SIGTERM delivered to it: CONTRACT §6.5). */
const ASKED_TO_END = new Set([130, 143]);

export function attentionOf(info: Pick<SessionInfo, 'status' | 'exitCode' | 'signal' | 'endReason' | 'endedAt'>, facts: ActivityFacts, now: number): Attention {
    if (info.status === 'exited') {
        const asked = info.endReason === 'stopped' || info.endReason === 'agent-exited' || info.endReason === 'gone';
        const clean = !info.signal && (info.exitCode === 0 || (info.exitCode !== undefined && ASKED_TO_END.has(info.exitCode)));
        // The IDE stopping a session itself (sandy approved what the user was not shown) is for the user to see.
        const failed = info.endReason === 'start-failed' || info.endReason === 'approval-changed' || (!asked && !clean);
        return { state: failed ? 'failed' : 'exited', since: info.endedAt };
    }
    if (facts.waitingSince !== undefined) {
        return { state: 'needs-you', since: facts.waitingSince, waitingFor: facts.waitingFor };
    }
    if (facts.lastOutputAt > 0 && lately(facts.lastOutputAt, now)) {
        return { state: 'working', since: facts.lastOutputAt };
    }
    return { state: 'idle', since: facts.lastOutputAt || undefined };
}

const ORDER: Readonly<Record<AttentionState, number>> = { 'needs-you': 0, working: 1, idle: 2, failed: 3, exited: 4 };

/**
 * The attention queue's order: needs-you first, the oldest wait first (the one that has waited
 * longest is the one to answer); then working, idle, failed, exited, most recent first.
 */
export function compareAttention(a: Attention, b: Attention): number {
    if (ORDER[a.state] !== ORDER[b.state]) {
        return ORDER[a.state] - ORDER[b.state];
    }
    const as = a.since ?? 0;
    const bs = b.since ?? 0;
    return a.state === 'needs-you' ? as - bs : bs - as;
}

/**
 * One session's stream as the backend sees it: output, notifications and bells, and the user seeing
 * the session (its tab visible and focused in some window). Seeing it clears the wait; a notification
 * while it is seen is not a wait (the user is looking at it already).
 */
export class ActivityTracker {
    protected facts: ActivityFacts = { lastOutputAt: 0 };
    protected seenNow = false;
    /** The prompts on screen now (one per waiting pane; one for a whole screen). */
    protected promptsShown: readonly string[] = [];
    /** Those of them the user has seen: no wait until another comes. */
    protected promptsSeen = new Set<string>();

    output(at: number): void {
        this.facts.lastOutputAt = at;
    }

    /** A notification (OSC 9/99/777) or a bell from the session; true when the wait began or changed by it. */
    asked(kind: 'notification' | 'bell', at: number): boolean {
        if (this.seenNow) {
            return false;
        }
        if (this.facts.waitingSince === undefined) {
            this.facts.waitingSince = at;
            this.facts.waitingFor = kind;
            return true;
        }
        if (kind === 'notification' && this.facts.waitingFor !== 'notification') {
            // A notification says more than a bell: the wait keeps its start.
            this.facts.waitingFor = 'notification';
            return true;
        }
        return false;
    }

    /**
     * Whether the agent's screen shows it waiting at its own prompt (a choice, a confirmation): `true`
     * or `false` for a whole screen, or the keys of the panes whose agent waits (a multi-agent session).
     * A prompt the user has seen is no wait, until it goes and another comes — another pane's prompt
     * is another prompt; a prompt that went away ends a wait it began. True when the wait began or ended by it.
     */
    prompt(shown: boolean | readonly string[], at: number): boolean {
        const keys = typeof shown === 'boolean' ? (shown ? ['screen'] : []) : [...new Set(shown)];
        this.promptsShown = keys;
        // A prompt that went away is forgotten: if it comes again, it is another.
        this.promptsSeen = new Set(keys.filter(k => this.promptsSeen.has(k)));
        if (keys.length === 0) {
            if (this.facts.waitingFor === 'prompt') {
                this.facts.waitingSince = undefined;
                this.facts.waitingFor = undefined;
                return true;
            }
            return false;
        }
        if (this.seenNow) {
            keys.forEach(k => this.promptsSeen.add(k));
            return false;
        }
        if (this.facts.waitingSince !== undefined || keys.every(k => this.promptsSeen.has(k))) {
            return false;
        }
        this.facts.waitingSince = at;
        this.facts.waitingFor = 'prompt';
        return true;
    }

    /** Whether a window shows the session to the user now (its tab visible and focused). */
    setSeen(seen: boolean): void {
        this.seenNow = seen;
        if (seen) {
            this.promptsShown.forEach(k => this.promptsSeen.add(k));
            this.facts.waitingSince = undefined;
            this.facts.waitingFor = undefined;
        }
    }

    get current(): ActivityFacts {
        return { ...this.facts };
    }
}

/**
 * Which sessions the user sees, over all windows: each window says which it shows (its focused,
 * visible sandy tab); a session is seen while any window shows it. {@link set} returns the sessions
 * whose seen-ness changed.
 */
export class SeenSessions {
    protected readonly byWindow = new Map<string, ReadonlySet<string>>();

    /** `ids`: what window `viewer` shows now (anything but a list of strings counts as nothing; at most 64). */
    set(viewer: string, ids: unknown): Array<{ id: string; seen: boolean }> {
        const before = this.all();
        const shown = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && id.length <= 200).slice(0, 64) : [];
        if (shown.length) {
            this.byWindow.set(viewer, new Set(shown));
        } else {
            this.byWindow.delete(viewer);
        }
        const after = this.all();
        return [...new Set([...before, ...after])].filter(id => before.has(id) !== after.has(id)).map(id => ({ id, seen: after.has(id) }));
    }

    has(id: string): boolean {
        return this.all().has(id);
    }

    protected all(): Set<string> {
        return new Set([...this.byWindow.values()].flatMap(ids => [...ids]));
    }
}
