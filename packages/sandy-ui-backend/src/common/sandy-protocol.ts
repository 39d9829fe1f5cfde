import type { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import type {
    SessionInfo, ApprovalRequest, SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot,
    AddProjectOutcome, LaunchOutcome, LaunchRequest, ProjectsSnapshot, RunOutcome, SandyConfiguration, SandyServiceEvents, SandyStatus
} from '@sandy-ui/core/common';

// The DTOs live in core (common/service-protocol) so the VS Code plugin shares them; re-exported
// here so existing imports from '@sandy-ui/backend/lib/common' keep working.
export type {
    SandyProblem, SandyStatus, ProjectsSnapshot, LaunchRequest, LaunchOutcome, AddProjectOutcome, RunOutcome, SandyConfiguration
} from '@sandy-ui/core/common';

/** JSON-RPC path of the sandy service (one proxy per window). */
export const SANDY_SERVICE_PATH = '/services/sandy';
/** Raw channel per session: `${SANDY_TERMINAL_PATH}/<sessionId>` (terminal bytes never go over JSON-RPC). */
export const SANDY_TERMINAL_PATH = '/services/sandy-terminal';

export const SandyService = Symbol('SandyService');

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

/** This window's end of the service's events (core's {@link SandyServiceEvents}). */
export type SandyServiceClient = SandyServiceEvents;

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
