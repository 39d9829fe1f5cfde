import type { OnboardingState } from './onboarding-state';

/** What the wizard needs to know when it opens (the service's `getOnboarding()`). */
export interface OnboardingSnapshot {
    /** undefined: the wizard never ran on this machine. */
    state: OnboardingState | undefined;
    sandyFound: boolean;
    /** `process.platform` of the machine sandy runs on (the backend's). */
    platform: string;
    /** The throwaway workspace of the build and the test session. */
    firstSessionWorkspace: string;
    /**
     * Where a fix or a login runs in a terminal: an empty folder of the IDE's (`~/.sandy-ui/terminal`),
     * never the window's folder (a repository's `.claude/`, `.mcp.json` or a program on a relative PATH
     * entry must not be what `claude /login` or `sudo` meets) nor the test session's (its agent writes there).
     */
    terminalFolder: string;
}

/** One agent the user can pick: sandy's schema lists it; what was found on the host for it. */
export interface AgentChoice {
    name: string;
    description: string;
    /** Credentials found, in sandy's probe order ("ANTHROPIC_API_KEY in the environment", "Claude Code login (~/.claude/.credentials.json)"). */
    found: string[];
    /** Recommended: a credential sandy will use was found. */
    recommended: boolean;
    /** What to do when nothing was found. */
    fix: string;
    /** The secret keys of sandy's config this agent reads (for the settings editor's secret field). */
    secretKeys: string[];
    /** A command-line login on the host the user may run in a terminal tab (`claude /login`), when its program is on PATH. */
    loginCommand?: string;
}

/** A value proposed for `~/.sandy/config` from the user's existing agent setup (shown before it is written). */
export interface BootstrapProposal {
    key: string;
    value: string;
    /** Where it came from, e.g. `~/.claude/settings.json`. */
    from: string;
}

export type ImageBuildState = 'idle' | 'running' | 'done' | 'failed';

/** The wizard's image build (`sandy --build-only` in the first-session workspace). */
export interface ImageBuildProgress {
    state: ImageBuildState;
    startedAt?: number;
    endedAt?: number;
    exitCode?: number;
    /** The timeline's lines as the parser words them (one per phase, with elapsed time). */
    lines: string[];
    /** What failed, in sandy's words. */
    error?: string;
    /** Where it stands, in a sentence (core's buildStateText; "Not built yet." before the first build). */
    status: string;
    /** The raw output (ANSI stripped), its last 256 KiB. */
    log: string;
}
