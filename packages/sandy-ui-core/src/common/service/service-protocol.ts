import type { SessionInfo } from '../session/session-types';
import type { DerivedProject } from '../projects/project-state';
import type { CompatVerdictDescription } from '../sandy/compat';
import type { ApprovalRequest } from '../approvals/approval-model';
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

/** What a host hears from the service: every change, fanned out to every listener (window). */
export interface SandyServiceEvents {
    onDidChangeSnapshot(snapshot: ProjectsSnapshot): void;
    onDidChangeSession(session: SessionInfo): void;
}

/** Any thrown value as a {@link SandyProblem} a user can act on. */
export function toProblem(e: unknown, fallbackHint = 'See the log for details.'): SandyProblem {
    if (isSandyError(e)) {
        return { code: e.code, message: e.message, hint: e.hint };
    }
    return { code: 'internal', message: e instanceof Error ? e.message : String(e), hint: fallbackHint };
}
