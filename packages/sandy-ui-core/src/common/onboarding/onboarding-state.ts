/**
 * The Get Started wizard's remembered state (`~/.sandy-ui/onboarding.json`, one per user, shared by
 * every host): where the user is, which steps are done or skipped, the agents they picked. Read
 * tolerantly — a damaged or foreign file is a fresh start, never an error.
 */

export const WIZARD_STEPS = ['prerequisites', 'macos', 'agents', 'auth', 'build', 'test'] as const;
export type WizardStepId = typeof WIZARD_STEPS[number];

export type StepOutcome = 'done' | 'skipped';

export interface OnboardingState {
    version: 1;
    /** The step on screen when the wizard was last left. */
    current?: WizardStepId;
    steps: Partial<Record<WizardStepId, StepOutcome>>;
    /** The agents picked in the Pick agents step. */
    agents?: string[];
    /** The wizard was finished (its last step done or skipped). */
    finishedAt?: number;
    /** The user closed the wizard before finishing: it is not offered again at start (only when sandy is missing). */
    dismissedAt?: number;
}

export function emptyOnboardingState(): OnboardingState {
    return { version: 1, steps: {} };
}

const AGENT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Whatever the file held, as a state: unknown fields and values dropped. */
export function parseOnboardingState(value: unknown): OnboardingState {
    const state = emptyOnboardingState();
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
        return state;
    }
    const v = value as Record<string, unknown>;
    if (typeof v.current === 'string' && isStep(v.current)) {
        state.current = v.current;
    }
    if (v.steps && typeof v.steps === 'object' && !Array.isArray(v.steps)) {
        for (const [step, outcome] of Object.entries(v.steps as Record<string, unknown>)) {
            if (isStep(step) && (outcome === 'done' || outcome === 'skipped')) {
                state.steps[step] = outcome;
            }
        }
    }
    if (Array.isArray(v.agents)) {
        const agents = v.agents.filter((a): a is string => typeof a === 'string' && AGENT_NAME.test(a)).slice(0, 8);
        state.agents = [...new Set(agents)];
    }
    for (const key of ['finishedAt', 'dismissedAt'] as const) {
        const t = v[key];
        if (typeof t === 'number' && Number.isFinite(t) && t > 0) {
            state[key] = t;
        }
    }
    return state;
}

export function isStep(value: string): value is WizardStepId {
    return (WIZARD_STEPS as readonly string[]).includes(value);
}

/**
 * Whether the IDE opens the wizard by itself at start: at the very first start (no state yet), until the user
 * finished or dismissed it, and — with `whileSandyMissing` — whenever sandy is missing (never more than once per
 * start). The Sandy IDE, which is for sandy alone, insists while sandy is missing; the plugin, a guest in an editor
 * used for other work too, does not reopen it in every window once dismissed (its Sandy view says sandy is missing,
 * with Get Started a click away).
 */
export function offerWizardAtStart(state: OnboardingState | undefined, sandyFound: boolean, whileSandyMissing = true): boolean {
    if (!sandyFound && whileSandyMissing) {
        return true;
    }
    return !state || (state.finishedAt === undefined && state.dismissedAt === undefined);
}
