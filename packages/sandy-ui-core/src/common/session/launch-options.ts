/**
 * "Sandy: Launch with…": the launch options sandy's own flags give (its `--print-schema` cli_flags), chosen
 * for one launch. Only flags this sandy lists are offered; the agents offered for `--agent` are the
 * schema's. The choices become sandy arguments, each its own argv element, after `--start` (daemon) or
 * alone (foreground); the backend takes only its launch flags (node/service/launch.ts).
 */
import type { PickItem } from '../host/host-ui';

export type LaunchOptionId = 'new' | 'resume' | 'rebuild' | 'remote' | 'agent';

interface LaunchOption {
    readonly id: LaunchOptionId;
    readonly flag: string;
    readonly label: string;
    readonly description: string;
}

/** In the order the pick shows them. */
export const LAUNCH_OPTIONS: readonly LaunchOption[] = [
    { id: 'new', flag: '--new', label: 'Start a fresh conversation', description: '--new (default: resume the last one)' },
    { id: 'resume', flag: '--resume', label: 'Pick a conversation to resume', description: '--resume (the agent shows its picker)' },
    { id: 'rebuild', flag: '--rebuild', label: 'Rebuild sandy\'s images first', description: '--rebuild (minutes; picks up agent updates)' },
    { id: 'remote', flag: '--remote', label: 'Remote-controlled Claude session', description: '--remote (claude only)' },
    { id: 'agent', flag: '--agent', label: 'Other agents for this launch…', description: '--agent (overrides SANDY_AGENT once)' }
];

export const LAUNCH_WITH_PLACEHOLDER = 'Launch with which options? (none ticked: a plain launch)';
export const LAUNCH_WITH_AGENTS_PLACEHOLDER = 'Which agents for this launch? (several run side by side)';
export const LAUNCH_WITH_CONFLICT_TEXT = 'Sandy: choose either a fresh conversation (--new) or the picker (--resume), not both.';
export const LAUNCH_WITH_NO_AGENT_TEXT = 'Sandy: no agent was ticked, so nothing was launched. Tick at least one, or leave "Other agents" unticked.';
export const LAUNCH_WITH_NOTHING_OFFERED_TEXT = 'Sandy: this sandy offers no launch options (its --print-schema lists none of --new, --resume, --rebuild, --remote, --agent). Use Launch.';
export function launchWithRunningText(name: string): string {
    return `Sandy: ${name} is already running; its session is shown. Stop it first to launch with other options.`;
}

/** The options this sandy offers (`cliFlags`: its schema's flag names). */
export function offeredLaunchOptions(cliFlags: readonly string[]): Array<PickItem<LaunchOptionId>> {
    return LAUNCH_OPTIONS.filter(o => cliFlags.includes(o.flag)).map(o => ({ label: o.label, description: o.description, value: o.id }));
}

/** The agents `--agent` may name: the schema's, as plain lowercase names. */
export function agentPickItems(agents: ReadonlyArray<{ name: string; description?: string }>): Array<PickItem<string> & { picked?: boolean }> {
    return agents.filter(a => /^[a-z][a-z0-9-]{0,31}$/.test(a.name)).map(a => ({ label: a.name, description: a.description, value: a.name }));
}

/**
 * The sandy arguments of the chosen options, or the text saying why they cannot go together. `agents`
 * must be given (and non-empty) when `agent` is chosen; a name that is not one of `known` is refused.
 */
export function launchWithArgs(chosen: readonly LaunchOptionId[], agents: readonly string[] = [], known: readonly string[] = agents): { args: string[] } | { problem: string } {
    if (chosen.includes('new') && chosen.includes('resume')) {
        return { problem: LAUNCH_WITH_CONFLICT_TEXT };
    }
    const args: string[] = [];
    for (const option of LAUNCH_OPTIONS) {
        if (!chosen.includes(option.id)) {
            continue;
        }
        if (option.id === 'agent') {
            const list = [...new Set(agents)].filter(a => known.includes(a));
            if (!list.length) {
                return { problem: LAUNCH_WITH_NO_AGENT_TEXT };
            }
            args.push('--agent', list.join(','));
        } else {
            args.push(option.flag);
        }
    }
    return { args };
}
