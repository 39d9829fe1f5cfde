import type { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import type {
    SessionInfo, DerivedProject, CompatVerdictDescription, ApprovalRequest, SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot
} from '@sandy-ui/core';

/** JSON-RPC path of the sandy service (one proxy per window). */
export const SANDY_SERVICE_PATH = '/services/sandy';
/** Raw channel per session: `${SANDY_TERMINAL_PATH}/<sessionId>` (terminal bytes never go over JSON-RPC). */
export const SANDY_TERMINAL_PATH = '/services/sandy-terminal';

export const SandyService = Symbol('SandyService');

/** A failure that crossed the wire: what happened and what to do. */
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
}

export interface SandyService extends RpcServer<SandyServiceClient> {
    configure(config: SandyConfiguration): Promise<SandyStatus>;
    getSnapshot(): Promise<ProjectsSnapshot>;
    /** Poll now (after user "Refresh"). */
    refresh(): Promise<ProjectsSnapshot>;
    /** This window shows (or stops showing) sandy state; the shared poller adapts its cadence. */
    setStateVisible(visible: boolean): Promise<void>;
    addProject(workspace: string): Promise<AddProjectOutcome>;
    /** The folders this window has open: they surface as projects (not stored) until the window closes. */
    setOpenFolders(folders: string[]): Promise<void>;
    removeProject(workspace: string): Promise<void>;
    launch(request: LaunchRequest): Promise<LaunchOutcome>;
    /** What the pre-flight view would show for a launch now (undefined: nothing to approve). */
    preflight(workspace: string): Promise<ApprovalRequest | undefined>;
    /** The raw line of a masked secret in the approval view; undefined if the files changed since `token`. */
    revealApprovalLine(workspace: string, token: string, key: string, line: number): Promise<string | undefined>;
    /** Delete sandy's approval file for the workspace (and our value record): the next launch asks again. */
    revokeApproval(workspace: string): Promise<boolean>;
    /** Both settings scopes (Project only with a workspace); secrets as set / not set, never values. */
    getSettings(workspace?: string): Promise<SettingsSnapshot>;
    /** Write one scope's edits (only the changed keys, atomically), then `--validate-config` the files. */
    saveSettings(scope: SettingsScope, workspace: string | undefined, edits: SettingsEdits): Promise<SettingsSaveResult>;
    /** Add `.sandy/.secrets` to the workspace `.gitignore`. */
    addSecretsToGitignore(workspace: string): Promise<void>;
    /** `sandy --reset-sandbox --keep-approvals --yes` for a sandbox below the compat floor. */
    rebuildSandbox(workspace: string): Promise<RunOutcome>;
    stop(sessionId: string): Promise<SessionInfo | undefined>;
    resize(sessionId: string, cols: number, rows: number): Promise<void>;
    /** Forget an exited session (its tab was closed). */
    forgetSession(sessionId: string): Promise<void>;
    removeSandbox(workspace: string): Promise<RunOutcome>;
    getSessions(): Promise<SessionInfo[]>;
}

export interface SandyServiceClient {
    onDidChangeSnapshot(snapshot: ProjectsSnapshot): void;
    onDidChangeSession(session: SessionInfo): void;
}

/** Frames on the terminal channel: first byte is the kind. */
export enum TerminalFrame {
    /** backend → view: output; view → backend: input. */
    Data = 0,
    /** view → backend: characters rendered (back-pressure). */
    Ack = 1,
    /** backend → view: the session ended (JSON SessionInfo). */
    Exit = 2,
    /** backend → view: replay of earlier output, sent once on attach. */
    Replay = 3
}
