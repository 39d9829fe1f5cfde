/**
 * Fleet maintenance: sandy's commands that act on every session, sandbox or Docker resource of the
 * host, offered in both hosts ("Sandy: Fleet Maintenance…", the Sandy view's toolbar). Each shows
 * sandy's own `--dry-run` plan first, verbatim; only a user who read it runs it (with `--yes`, which
 * sandy needs without a terminal). What sandy offers decides what is listed: a flag sandy's schema
 * does not list is not offered. Every word of it lives here.
 */

export type FleetActionId = 'gc' | 'pruneOrphans' | 'removeOrphans' | 'updateSessions' | 'stopAll' | 'doctor';

export interface FleetAction {
    readonly id: FleetActionId;
    /** The sandy flag; the action is offered only when sandy's schema lists it. */
    readonly flag: string;
    readonly label: string;
    readonly detail: string;
    /** sandy can show a plan first (`--dry-run`). */
    readonly dryRun: boolean;
    /** Changes nothing (a check): runs at once, no confirmation. */
    readonly readOnly?: boolean;
    /** The confirmation's button. */
    readonly ok: string;
    /** How long sandy may take (ms). */
    readonly timeoutMs: number;
}

export const FLEET_ACTIONS: readonly FleetAction[] = [
    {
        id: 'gc', flag: '--gc', label: 'Reclaim Docker space (sandy --gc)', dryRun: true, ok: 'Reclaim', timeoutMs: 600_000,
        detail: 'Removes dead-owner containers, orphaned sandy networks, orphaned project and skill images and dangling sandy images.'
    },
    {
        id: 'pruneOrphans', flag: '--prune-orphans', label: 'Remove orphaned networks (sandy --prune-orphans)', dryRun: false, ok: 'Remove', timeoutMs: 120_000,
        detail: 'Removes sandy networks that no container uses and whose owner is gone.'
    },
    {
        id: 'removeOrphans', flag: '--remove-sandbox', label: 'Remove orphaned sandboxes', dryRun: true, ok: 'Remove', timeoutMs: 300_000,
        detail: 'Deletes the sandboxes whose project folder no longer exists, with everything in them.'
    },
    {
        id: 'updateSessions', flag: '--update-sessions', label: 'Update running sessions (sandy --update-sessions)', dryRun: true, ok: 'Update', timeoutMs: 1_800_000,
        detail: 'Rebuilds stale images and restarts the daemon sessions that run on them. Its plan builds the images already (sandy\'s dry run does).'
    },
    {
        id: 'stopAll', flag: '--stop-all', label: 'Stop every session (sandy --stop-all)', dryRun: true, ok: 'Stop All', timeoutMs: 600_000,
        detail: 'Stops every daemon session on this machine, including ones started outside the IDE.'
    },
    {
        id: 'doctor', flag: '--doctor', label: 'Check this machine (sandy --doctor)', dryRun: false, readOnly: true, ok: 'Check', timeoutMs: 300_000,
        detail: 'sandy\'s own readiness check of the host and its running sessions; changes nothing.'
    }
];

export function fleetAction(id: unknown): FleetAction | undefined {
    return FLEET_ACTIONS.find(a => a.id === id);
}

/** The actions the installed sandy offers (its schema's `cli_flags`). */
export function availableFleetActions(cliFlags: readonly string[]): FleetAction[] {
    return FLEET_ACTIONS.filter(a => cliFlags.includes(a.flag));
}

/** Largest `--idle-for` offered (minutes), and the most sandboxes one orphan removal names. */
export const MAX_IDLE_MINUTES = 100_000;
export const MAX_FLEET_TARGETS = 1000;
/** sandy's sandbox names: the folder's name (without what sandy drops) and 8 hex of its path's hash; never an option. */
const SANDBOX_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,240}-[0-9a-f]{8}$/;

/**
 * `idleForMinutes`: `--update-sessions --idle-for N` (restart only sessions idle this long); undefined:
 * every stale one. `targets`: the orphaned sandboxes the user saw in the plan (removal runs on no others).
 */
export interface FleetOptions {
    idleForMinutes?: number;
    targets?: string[];
}

/** Why options cannot be taken (a wrong value never widens what sandy does), or undefined. */
export function fleetOptionsProblem(options: unknown): string | undefined {
    if (options === undefined || options === null) {
        return undefined;
    }
    if (typeof options !== 'object' || Array.isArray(options)) {
        return 'The options are not an object.';
    }
    const { idleForMinutes, targets, ...rest } = options as Record<string, unknown>;
    if (Object.keys(rest).length) {
        return `Unknown options: ${Object.keys(rest).join(', ')}.`;
    }
    if (idleForMinutes !== undefined && !(Number.isInteger(idleForMinutes) && (idleForMinutes as number) >= 1 && (idleForMinutes as number) <= MAX_IDLE_MINUTES)) {
        return `The idle time must be a whole number of minutes from 1 to ${MAX_IDLE_MINUTES}.`;
    }
    if (targets !== undefined && !(Array.isArray(targets) && targets.length <= MAX_FLEET_TARGETS && targets.every(t => typeof t === 'string' && SANDBOX_NAME.test(t)))) {
        return 'The sandboxes to remove are not a list of sandbox names.';
    }
    return undefined;
}

/** The idle choices offered for `--update-sessions`. */
export const UPDATE_SESSIONS_IDLE_CHOICES: ReadonlyArray<{ label: string; minutes?: number }> = [
    { label: 'Every stale session' },
    { label: 'Only sessions idle for 30 minutes or more', minutes: 30 },
    { label: 'Only sessions idle for 2 hours or more', minutes: 120 }
];

/** sandy's argv for the plan (`dryRun`) or the run of an action. Never a workspace: fleet actions act on the whole host. */
export function fleetArgs(action: FleetAction, mode: 'plan' | 'run', options: FleetOptions = {}): string[] {
    const problem = fleetOptionsProblem(options);
    if (problem) {
        throw new Error(problem);
    }
    const idle = action.id === 'updateSessions' && options.idleForMinutes !== undefined ? ['--idle-for', String(options.idleForMinutes)] : [];
    const suffix = mode === 'plan' ? ['--dry-run'] : action.readOnly || action.id === 'pruneOrphans' ? [] : ['--yes'];
    if (action.id === 'removeOrphans') {
        return ['--remove-sandbox', '--orphans', ...(mode === 'plan' ? ['--dry-run'] : ['--yes'])];
    }
    return [action.flag, ...idle, ...suffix];
}

/** A sandbox whose project folder is gone (or, for `untrusted`, seems to be), with the folder sandy recorded. */
export interface UntrustedOrphan {
    name: string;
    recordedPath: string;
}

/** What an action would do, as sandy reports it. */
export interface FleetPlan {
    action: FleetActionId;
    /** sandy's dry-run output (stdout, then stderr), verbatim; '' when sandy has no dry run for it. */
    text: string;
    exitCode?: number;
    /** The plan could be made (sandy's dry run exited 0, or there is none). */
    ok: boolean;
    /** Nothing would change: no confirmation is asked. */
    nothingToDo: boolean;
    /** removeOrphans: the sandboxes that will be removed (by name; the run removes no other). */
    targets?: UntrustedOrphan[];
    /**
     * removeOrphans: sandboxes whose recorded folder is missing but does not hash to their name (sandy
     * cut the path at its first `"`, CONTRACT §0.9): their folder may well exist, so they are never removed here.
     */
    untrusted?: UntrustedOrphan[];
}

export const FLEET_PICK_PLACEHOLDER = 'Fleet maintenance: what should sandy do? (sandy\'s plan, its --dry-run, is shown before it runs)';
export const FLEET_IDLE_PLACEHOLDER = 'Which stale sessions may sandy restart?';
export const NO_FLEET_ACTIONS_TEXT = 'Sandy: the installed sandy offers no fleet maintenance commands.';

export function fleetPlanTitle(action: FleetAction): string {
    return `Sandy: ${action.label}`;
}

/**
 * The confirmation: first what the IDE decided (the sandboxes it removes, with their folders, and those
 * it leaves), so no long plan can push it out of sight; sandy's plan goes in the detail, verbatim.
 */
export function fleetConfirmText(action: FleetAction, plan: FleetPlan): { message: string; detail: string } {
    const parts: string[] = [];
    if (action.id === 'removeOrphans' && plan.targets) {
        parts.push(`Will be removed (${plan.targets.length}): ${plan.targets.map(t => `${t.name} (was ${t.recordedPath})`).join(', ')}.`);
    }
    if (plan.untrusted?.length) {
        parts.push(untrustedOrphansText(plan.untrusted));
    }
    parts.push(action.dryRun ? `sandy's plan (${action.flag} --dry-run) is below.` : `sandy has no dry run for ${action.flag}. ${action.detail}`);
    return { message: parts.join(' '), detail: plan.text.trim() || (action.dryRun ? 'sandy printed no plan.' : '') };
}

export function untrustedOrphansText(untrusted: readonly UntrustedOrphan[]): string {
    return `Not removed: ${untrusted.map(u => u.name).join(', ')}. sandy recorded a folder for ${untrusted.length === 1 ? 'it' : 'them'} that does not match ${untrusted.length === 1 ? 'its' : 'their'} name `
        + '(a path with a " in it is cut short), so the project may still exist. Remove such a sandbox from its project row once you are sure.';
}

export function fleetNothingToDoText(action: FleetAction, plan: FleetPlan): string {
    const said = lastLine(plan.text);
    const extra = plan.untrusted?.length ? ` ${untrustedOrphansText(plan.untrusted)}` : '';
    return `Sandy: ${action.label}: nothing to do${said ? ` (sandy: ${said})` : ''}.${extra}`;
}

export function fleetPlanFailedText(action: FleetAction, plan: FleetPlan): string {
    return `Sandy: sandy could not make the plan for ${action.flag} (exit ${plan.exitCode ?? '?'}): ${plan.text.trim().slice(0, 500) || 'no output'}`;
}

export function fleetPlanningText(action: FleetAction): string {
    return `Sandy: asking sandy what ${action.flag} would do (--dry-run)…`;
}

export function fleetRunningText(action: FleetAction): string {
    return `Sandy: running ${action.label}…`;
}

export function fleetDoneText(action: FleetAction, stdout: string): string {
    const said = lastLine(stdout);
    return `Sandy: ${action.label} finished${said ? `: ${said}` : '.'}`;
}

export function fleetFailedText(action: FleetAction, exitCode: number | undefined, detail: string): string {
    return `Sandy: ${action.label} failed (exit ${exitCode ?? '?'}): ${detail || 'no output'}`;
}

/** The last line sandy printed, without its `[sandy] ` prefix: its summary. */
function lastLine(text: string): string {
    const lines = text.split('\n').map(l => l.trim()).filter(Boolean);
    return (lines[lines.length - 1] ?? '').replace(/^\[sandy\]\s*/, '').slice(0, 300);
}

/** gc and the orphan removal say so when there is nothing to do (sandy 1.7.1's words, fixtures 99d, 99e). */
export function planSaysNothingToDo(action: FleetActionId, text: string): boolean {
    switch (action) {
        case 'gc': return /Nothing to reclaim/i.test(text);
        case 'stopAll': return /\b0 daemon session\(s\)/.test(text) || /No daemon sessions/i.test(text);
        case 'updateSessions': return /Found 0 daemon session|No daemon sessions/i.test(text);
        default: return false;
    }
}
