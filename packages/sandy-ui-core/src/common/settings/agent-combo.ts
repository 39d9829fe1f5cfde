/**
 * `SANDY_AGENT`'s rules, as sandy applies them at launch: the agents it knows, how a comma-separated
 * combination is split and judged, and ticking one agent in or out of a value.
 */
import type { SandySchema } from '../sandy/contract';
import { str } from './wire-values';

/** Agents sandy 1.7.1 accepts in `SANDY_AGENT` (sandy:6384-6388). */
export const SANDY_AGENT_NAMES: readonly string[] = ['claude', 'gemini', 'codex', 'opencode', 'grok'];
/** What `SANDY_AGENT=all` expands to (sandy:6374): grok is not part of it. */
export const SANDY_AGENT_ALL: readonly string[] = ['claude', 'gemini', 'codex', 'opencode'];
/** The multi-agent tmux layout is a 2x2 grid (sandy:6399-6403). */
export const SANDY_AGENT_MAX = 4;

/** The agent names a `SANDY_AGENT` checkbox group offers: sandy's list plus any the schema adds. */
export function agentNamesOf(schema: Pick<SandySchema, 'agents'> | undefined): string[] {
    const names = [...SANDY_AGENT_NAMES];
    const agents = Array.isArray(schema?.agents) ? schema!.agents : [];
    for (const agent of agents) {
        const name = str((agent as { name?: unknown })?.name);
        // A comma could not be represented in a comma-joined list.
        if (name && !name.includes(',') && name.trim() === name && !names.includes(name)) {
            names.push(name);
        }
    }
    return names;
}

/**
 * Splits a `SANDY_AGENT` value the way sandy does (`IFS=',' read -ra`: a single trailing comma is
 * dropped, other empty entries are kept and then rejected), expanding `all`.
 */
export function parseAgentCombo(value: string): string[] {
    if (value === 'all') {
        return [...SANDY_AGENT_ALL];
    }
    if (value === '') {
        return [];
    }
    const parts = value.split(',');
    if (parts.length > 1 && parts[parts.length - 1] === '') {
        parts.pop();
    }
    return parts;
}

/** sandy's launch-time check of `SANDY_AGENT` (sandy:6372-6404); undefined when sandy accepts it. */
export function validateAgentCombo(value: string, known: readonly string[] = SANDY_AGENT_NAMES): string | undefined {
    if (value === 'both') {
        return 'sandy no longer accepts "both". Pick the agents, e.g. claude and gemini.';
    }
    // Empty means "not set": sandy falls back to claude.
    const agents = parseAgentCombo(value);
    const seen = new Set<string>();
    for (const agent of agents) {
        if (!known.includes(agent)) {
            return `"${agent}" is not an agent sandy knows (valid: ${known.join(', ')}, or a comma-separated combination).`;
        }
        if (seen.has(agent)) {
            return `"${agent}" is listed twice.`;
        }
        seen.add(agent);
    }
    if (agents.length > SANDY_AGENT_MAX) {
        return `At most ${SANDY_AGENT_MAX} agents per session (the multi-agent layout is a 2x2 grid); ${agents.length} are selected.`;
    }
    return undefined;
}

/**
 * The `SANDY_AGENT` value after ticking or unticking one agent. The user's order is kept (the first
 * agent gets the first pane); `all` is expanded first. `''` when none is left (= not set).
 */
export function toggleAgent(value: string | undefined, agent: string, on: boolean): string {
    const agents = parseAgentCombo(value ?? '').filter(a => a !== agent);
    if (on) {
        agents.push(agent);
    }
    return agents.join(',');
}
