import { problemText, toProblem } from '../service/service-protocol';
import type { BootstrapProposal } from './onboarding-dto';
import type { WizardStepId } from './onboarding-state';

/** Every word of the Get Started wizard (both hosts show these; no host words its own). */

export const WIZARD_TITLE = 'Get Started with Sandy';
export const WIZARD_CAPTION = 'Sandy: Get Started — prerequisites, agents, sign-in, images and a first session';

export const STEP_TITLES: Record<WizardStepId, string> = {
    prerequisites: 'Prerequisites',
    macos: 'macOS note',
    agents: 'Pick agents',
    auth: 'Sign in',
    build: 'Build images',
    test: 'Test session'
};

export const NEXT_LABEL = 'Next';
export const BACK_LABEL = 'Back';
export const SKIP_LABEL = 'Skip this step';
export const FINISH_LABEL = 'Finish';
export const CHECK_AGAIN_LABEL = 'Check again';
export const COPY_LABEL = 'Copy';
export const RUN_LABEL = 'Run in a terminal';
export const BUILD_LABEL = 'Build images';
export const REBUILD_LABEL = 'Build again';
export const SHOW_LOG_LABEL = 'Show the raw log';
export const HIDE_LOG_LABEL = 'Hide the raw log';
export const START_TEST_LABEL = 'Start a test session';
export const SHOW_SESSION_LABEL = 'Show its tab';
export const ADD_PROJECT_LABEL = 'Add a project…';
export const LOGIN_LABEL = 'Log in in a terminal';
export const ENTER_KEY_DETAIL = 'Opens Sandy Settings (Global) at its write-only secret field: the key goes to ~/.sandy/.secrets.';
export const COPIED_TEXT = 'Copied to the clipboard.';
export const CHECKING_TEXT = 'Checking…';
export const PICK_AN_AGENT_TEXT = 'Pick at least one agent.';
export const BUILD_FIRST_TEXT = 'Next unlocks when the images are built (or skip this step: the first launch builds them).';
export const TEST_FIRST_TEXT = 'Finish unlocks when the test session\'s agent has answered (or skip this step).';

export const PREREQUISITES_INTRO = 'sandy runs each agent in a Docker sandbox. These checks run again every few seconds: fix an item marked ✘ and it turns green here.';
export const AGENTS_INTRO = 'Which coding agents should sandy run? Agents whose credentials are already on this machine are recommended; you can change this later in Sandy Settings (SANDY_AGENT).';
export const AUTH_INTRO = 'Each agent needs its own sign-in. sandy passes a login or an API key from this machine into the sandbox; an agent without one asks you to log in inside its first session.';
export const BUILD_INTRO = 'sandy builds its images once (base, then each agent, then any skill packs); later launches reuse them. The first build takes several minutes.';
export const TEST_INTRO = 'A throwaway sandy session in a folder of its own, to see an agent start. Nothing of yours is mounted.';

export const MACOS_LINES = [
    'Open a specific project folder, not your home folder: sandy scans its workspace, and a home-folder workspace makes macOS ask for access to Music, Calendar and more (attributed to your editor). Sandy refuses the home folder for that reason.',
    'A project under ~/Documents, ~/Desktop or ~/Downloads draws one "wants access to Documents" prompt the first time; allowing it is safe.'
];

export const FINISHED_LINES = [
    'You are set up. Add a project (any folder of yours) and click it in the Sandy view to launch an agent there.',
    'Every step of this wizard stays in the palette: "Sandy: Get Started".'
];

export const TEST_STARTING_TEXT = 'Starting the test session…';
export const TEST_WAITING_FOR_AGENT_TEXT = 'sandy is up; waiting for the agent to draw its screen…';
export const TEST_CONFIRMED_TEXT = 'The agent started and answered. sandy works on this machine.';

export function testEndedText(exitCode: number | undefined): string {
    return `The test session ended${exitCode !== undefined ? ` (exit code ${exitCode})` : ''} before its agent answered. Its tab shows what sandy said.`;
}

export function fixFirstText(titles: string[]): string {
    return `Next unlocks when these pass: ${titles.join(', ')}.`;
}

export function fixTerminalTitle(check: string): string {
    return `Sandy: fix "${check}"`;
}

export function loginTerminalTitle(agent: string): string {
    return `Sandy: ${agent} login`;
}

export function enterKeyLabel(key: string): string {
    return `Enter ${key}…`;
}

export function credentialFoundText(found: string[]): string {
    return `Ready: ${found.join('; ')}.`;
}

export function agentWritesText(agents: string[], proposals: BootstrapProposal[]): string {
    if (!agents.length) {
        return '';
    }
    const lines = [`SANDY_AGENT=${agents.join(',')}`, ...proposals.map(p => `${p.key}=${p.value} (from ${p.from})`)];
    return `Next writes to ~/.sandy/config: ${lines.join(', ')}.`;
}

export function saveFailedText(detail: string | undefined): string {
    return `Could not write ~/.sandy/config${detail ? `: ${detail}` : '.'} Nothing else was changed; fix it and press Next again, or skip this step.`;
}

export function problemOf(e: unknown): string {
    return e instanceof Error && !('code' in e) ? e.message : problemText(toProblem(e));
}

export const BUILD_NOT_STARTED_TEXT = 'Not built yet.';
