import type { SessionInfo } from '../session/session-types';
import type { DerivedProject } from '../projects/project-state';
import type { CompatVerdictDescription } from '../sandy/compat';
import type { ApprovalRequest, LaunchVerdict } from '../approvals/approval-model';
import type { SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../settings/settings-dto';
import type { TerminalNotification } from '../terminal/osc-dispatch';
import type { HistoryChunk, HistoryQuery, HistoryRecord } from '../session/history-types';
import type { DashboardSnapshot } from '../session/dashboard-types';
import type { AgentChoice, BootstrapProposal, ImageBuildProgress, OnboardingSnapshot } from '../onboarding/onboarding-dto';
import type { OnboardingState } from '../onboarding/onboarding-state';
import type { PrerequisiteReport } from '../onboarding/prerequisites';
import type { FleetActionId, FleetOptions, FleetPlan } from '../maintenance/fleet';
import type { HeadlessOutcome } from '../session/headless';
import { isSandyError } from '../sandy/errors';

/**
 * What the sandy service says to every host (the Theia backend's RPC proxy, the VS Code plugin's
 * extension host): serialisable DTOs only, so the same shapes cross JSON-RPC and webview messages.
 */

/** A failure that crossed a host boundary: what happened and what to do. */
export interface SandyProblem {
    code: string;
    message: string;
    hint: string;
}

/** sandy as found on this machine. */
export interface SandyStatus {
    found: boolean;
    path?: string;
    fullVersion?: string;
    schemaVersion?: number;
    /** The flags sandy's schema lists (`cli_flags`): what this sandy offers (fleet maintenance, `--approvals`…). */
    cliFlags?: string[];
    /** The compat gate's verdict (informational, never blocking). */
    compat?: CompatVerdictDescription;
    problem?: SandyProblem;
    /** Where we looked, for the "sandy not found" view. */
    searched?: string[];
}

export interface ProjectsSnapshot {
    status: SandyStatus;
    projects: DerivedProject[];
    sessions: SessionInfo[];
    dockerReachable: boolean | undefined;
    /** Last `--print-state` failure, if the last poll failed (the previous projects are kept). */
    stateProblem?: SandyProblem;
    polledAt?: number;
    home: string;
    /** Folders open in a window that are no sandy workspace (`~/.ssh`, `$HOME`…), with why. */
    refusedFolders?: RefusedFolder[];
}

/** An open folder the workspace guard refused: never listed as a project, said above the list. */
export interface RefusedFolder {
    folder: string;
    /** The guard's words: which folder it is, and which to open instead. */
    message: string;
}

export interface LaunchRequest {
    workspace: string;
    /** The view's first fit: the PTY starts at this size. */
    cols: number;
    rows: number;
    /** Extra sandy arguments (e.g. `--new`); never an introspection flag. */
    args?: string[];
    /**
     * The user approved the privileged lines shown with this token (the approval-set hash). The files
     * are re-read right before the spawn; a different set is shown again instead of being launched.
     */
    approvalToken?: string;
    /** The user chose "Launch anyway" for a sandbox compat warning. */
    acceptCompatWarning?: boolean;
}

export type LaunchOutcome =
    | { kind: 'launched'; session: SessionInfo; warnings: string[] }
    | { kind: 'already-running'; session: SessionInfo }
    | { kind: 'refused'; problem: SandyProblem }
    /** Pre-flight needs the user: pending privileged keys, a refusal, or a compat warning. Nothing was started. */
    | { kind: 'needs-approval'; request: ApprovalRequest };

export interface AddProjectOutcome {
    workspace: string;
    /** `--validate-config` warnings and unknown keys, shown before the first launch. */
    warnings: string[];
    problem?: SandyProblem;
    /** What Launch's pre-flight would say now (the same verdict): nothing to ask, approval first, a refusal, or the sandbox's compat. */
    launch?: LaunchVerdict;
    /** The project has its own `.sandy/` folder (else the wizard-like offer to create one). */
    hasSandyFolder?: boolean;
}

/** How to make a project's `.sandy/`: the schema's commented starter, or a copy of another project's. */
export type SandyFolderSource = { kind: 'starter' } | { kind: 'copy'; from: string; includeSecrets?: boolean };

/** What making a `.sandy/` would write (shown before), or wrote. */
export interface SandyFolderPlan {
    /** Lines for the user: what is copied, what is held back and why. */
    lines: string[];
    /** The source has a `.secrets` file the user may choose to copy too. */
    secretsAvailable: boolean;
    created?: string[];
}

export interface RunOutcome {
    ok: boolean;
    exitCode?: number;
    stdout: string;
    stderr: string;
}

export interface SandyConfiguration {
    /** Explicit path to sandy; empty = search PATH and the usual folders. */
    sandyPath?: string;
    /** Extra environment variable names passed to sandy (besides the built-in whitelist). */
    passEnv?: string[];
    /**
     * `daemon` (default): sessions are sandy's daemon sessions (`--start`), which outlive the IDE;
     * `foreground`: bare sandy on the IDE's terminal, ended with the IDE. A sandy without daemon
     * mode runs in the foreground whatever this says (the launch says so).
     */
    sessionMode?: 'daemon' | 'foreground';
    /** Stop the daemon sessions when the IDE quits (default: they run on, and the next IDE finds them). */
    stopSessionsOnQuit?: boolean;
    /** Sessions older than this are marked, and the user asked once (0: never). Read by the windows. */
    longRunningHours?: number;
    /** A session's request for the user becomes a notification (default on). Read by the windows. */
    notifications?: boolean;
    /** Do not disturb: no notifications for now; the attention queue still counts. Read by the windows. */
    doNotDisturb?: boolean;
    /** Notifications also go to the desktop while the IDE's window has no focus (default on). Read by the windows. */
    systemNotifications?: boolean;
    /** The most of each session's output the history keeps, in MB (0: no history is kept). */
    historyMegabytes?: number;
    /** `sandy.terminal.ideKeys`: the keys a sandy tab leaves to the IDE (a frontend matter; the backend ignores it). */
    ideKeys?: string[];
}

/** A notification parsed from a session's stream in the service (once, whether or not a tab shows it). */
export interface SessionNotification {
    session: SessionInfo;
    notification: TerminalNotification;
}

/** What a host hears from the service: every change, fanned out to every listener (window). */
export interface SandyServiceEvents {
    onDidChangeSnapshot(snapshot: ProjectsSnapshot): void;
    onDidChangeSession(session: SessionInfo): void;
    onDidNotify(event: SessionNotification): void;
}

/**
 * The one sandy service API, as every host's UI sees it: the Theia frontend through its per-window
 * JSON-RPC proxy, the VS Code plugin in-process. Each caller holds its own connection
 * (`SandyServiceCore.connect`), so `setVisible` and `setOpenFolders` are that window's. A failure
 * rejects with a {@link SandyProblem}-bearing error: read it with {@link toProblem}.
 */
export interface SandyService {
    /** Where to find sandy and what to pass it (user settings only); finds sandy again if it changed. */
    configure(config: SandyConfiguration): Promise<SandyStatus>;
    snapshot(): Promise<ProjectsSnapshot>;
    /** Poll now (after user "Refresh"). */
    refresh(): Promise<ProjectsSnapshot>;
    /** This window shows (or stops showing) sandy state; the shared poller adapts its cadence. */
    setVisible(visible: boolean): Promise<void>;
    /** The folders this window has open: they surface as projects (not stored) until the window closes. */
    setOpenFolders(folders: string[]): Promise<void>;
    /**
     * The sessions this window shows to the user now (a sandy tab visible and focused in a focused
     * window): seeing a session ends its wait in the attention queue. Replaces what the window said before.
     */
    setSeen(sessionIds: string[]): Promise<void>;
    addProject(workspace: string): Promise<AddProjectOutcome>;
    removeProject(workspace: string): Promise<void>;
    /** A workspace as sandy will see it (canonical, never $HOME or /); rejects otherwise. */
    canonicalWorkspace(workspace: string): Promise<string>;
    launch(request: LaunchRequest): Promise<LaunchOutcome>;
    /** What the pre-flight view would show for a launch now (undefined: nothing to approve). */
    preflight(workspace: string): Promise<ApprovalRequest | undefined>;
    /** The raw line of a masked secret in the approval view; undefined if the files changed since `token`. */
    revealApprovalLine(workspace: string, token: string, key: string, line: number): Promise<string | undefined>;
    /** Delete sandy's approval records for the workspace (and our value record): the next launch asks again. */
    revokeApproval(workspace: string): Promise<boolean>;
    /** Both settings scopes (Project only with a workspace); secrets as set / not set, never values. */
    getSettings(workspace?: string): Promise<SettingsSnapshot>;
    /** Write one scope's edits (only the changed keys, atomically), then `--validate-config` the files. */
    saveSettings(scope: SettingsScope, workspace: string | undefined, edits: SettingsEdits): Promise<SettingsSaveResult>;
    /** Add `.sandy/.secrets` to the workspace `.gitignore`. */
    addSecretsToGitignore(workspace: string): Promise<void>;
    /** `sandy --reset-sandbox --keep-approvals --yes` for a sandbox below the compat floor. */
    rebuildSandbox(workspace: string): Promise<RunOutcome>;
    removeSandbox(workspace: string): Promise<RunOutcome>;
    /** sandy's plan (`--dry-run`) of a fleet maintenance command; rejects when sandy does not offer it. */
    fleetPlan(action: FleetActionId, options?: FleetOptions): Promise<FleetPlan>;
    /** Runs a fleet maintenance command (the user has read its plan). */
    fleetRun(action: FleetActionId, options?: FleetOptions): Promise<RunOutcome>;
    /** `sandy -p <prompt>` in the project (one shot, no session): its answer, kept in the history too. */
    runHeadless(workspace: string, prompt: string): Promise<HeadlessOutcome>;
    sessions(): Promise<SessionInfo[]>;
    stop(sessionId: string): Promise<SessionInfo | undefined>;
    /** Show a daemon session in the IDE again: our attach client takes it from another terminal (or retries a failed attach). */
    takeBack(sessionId: string): Promise<SessionInfo | undefined>;
    resize(sessionId: string, cols: number, rows: number): Promise<void>;
    /** Forget an exited session (its tab was closed). */
    forgetSession(sessionId: string): Promise<void>;
    /** Past (and running) sessions' records, newest first: by project, by text in their output. */
    listHistory(query?: HistoryQuery): Promise<HistoryRecord[]>;
    /** A page of a recorded session's output for the read-only viewer (no OSC in it); undefined: no such record. */
    readHistory(id: string, offset?: number): Promise<HistoryChunk | undefined>;
    /** Delete a finished session's record and output. */
    removeHistory(id: string): Promise<boolean>;
    /** The Sessions dashboard: a tile per session (attention, CPU/memory from Docker, a plain-text thumbnail of its screen). */
    dashboard(): Promise<DashboardSnapshot>;
    /** What `createSandyFolder` would write for the project (nothing is written). */
    planSandyFolder(workspace: string, source: SandyFolderSource): Promise<SandyFolderPlan>;
    /** Makes the project's `.sandy/` (never over an existing one): the starter or a copy as planned. */
    createSandyFolder(workspace: string, source: SandyFolderSource): Promise<SandyFolderPlan>;
    /** The Get Started wizard's remembered state and what it needs to start (its throwaway workspace made). */
    getOnboarding(): Promise<OnboardingSnapshot>;
    /**
     * Whether Get Started opens by itself now (first start, not yet finished or dismissed, or — unless `whileSandyMissing`
     * is false — sandy missing), found without running sandy; `sandyPath`: the user's setting.
     */
    wizardAtStart(sandyPath?: string, whileSandyMissing?: boolean): Promise<boolean>;
    /** Remember the wizard's state (`~/.sandy-ui/onboarding.json`); returns it as stored. */
    saveOnboarding(state: OnboardingState): Promise<OnboardingState>;
    /** The prerequisite checks, now (sandy looked for again when it was missing). */
    prerequisites(): Promise<PrerequisiteReport>;
    /** sandy's agents, each with the credentials found for it on this machine (never their values). */
    agentChoices(): Promise<AgentChoice[]>;
    /** Values for `~/.sandy/config` taken from the user's existing agent setup (`~/.claude/settings.json`'s model). */
    settingsBootstrap(): Promise<BootstrapProposal[]>;
    /** Starts `sandy --build-only` in the wizard's workspace (one at a time); its progress. */
    startImageBuild(): Promise<ImageBuildProgress>;
    /** The last image build's progress. */
    imageBuild(): Promise<ImageBuildProgress>;
}

/**
 * Every method of {@link SandyService} (the compiler keeps this complete): for proxies and adapters.
 * No name may start with `on` or `notify`: Theia's RPC proxy sends those as notifications and the
 * caller gets `undefined` back (a spec holds this).
 */
export const SANDY_SERVICE_METHODS = Object.keys({
    configure: 0, snapshot: 0, refresh: 0, setVisible: 0, setOpenFolders: 0, setSeen: 0, addProject: 0, removeProject: 0, canonicalWorkspace: 0,
    launch: 0, preflight: 0, revealApprovalLine: 0, revokeApproval: 0, getSettings: 0, saveSettings: 0, addSecretsToGitignore: 0,
    rebuildSandbox: 0, removeSandbox: 0, fleetPlan: 0, fleetRun: 0, runHeadless: 0, sessions: 0, stop: 0, takeBack: 0, resize: 0, forgetSession: 0, listHistory: 0, readHistory: 0, removeHistory: 0,
    dashboard: 0, getOnboarding: 0, wizardAtStart: 0, planSandyFolder: 0, createSandyFolder: 0, saveOnboarding: 0, prerequisites: 0, agentChoices: 0, settingsBootstrap: 0, startImageBuild: 0, imageBuild: 0
} satisfies Record<keyof SandyService, 0>) as ReadonlyArray<keyof SandyService>;

/** The methods a connection answers for its own window; the rest are the shared service's. */
export type SandyViewerMethods = 'setVisible' | 'setOpenFolders' | 'setSeen';

function isProblem(v: unknown): v is SandyProblem {
    return !!v && typeof v === 'object' && typeof (v as SandyProblem).code === 'string'
        && typeof (v as SandyProblem).message === 'string' && typeof (v as SandyProblem).hint === 'string';
}

/**
 * Any thrown value as a {@link SandyProblem} a user can act on: a SandyError, an error that crossed a
 * host boundary with its problem as `data` (Theia's ApplicationError), or anything else (`internal`).
 */
export function toProblem(e: unknown, fallbackHint = 'See the log for details.'): SandyProblem {
    if (isSandyError(e)) {
        return { code: e.code, message: e.message, hint: e.hint };
    }
    const data = e && typeof e === 'object' ? (e as { data?: unknown }).data : undefined;
    if (isProblem(data)) {
        return { code: data.code, message: data.message, hint: data.hint };
    }
    return { code: 'internal', message: e instanceof Error ? e.message : String(e), hint: fallbackHint };
}

/** A problem as one line for a notification: what happened, then what to do. */
export function problemText(problem: SandyProblem): string {
    return problem.hint ? `${problem.message} ${problem.hint}` : problem.message;
}
