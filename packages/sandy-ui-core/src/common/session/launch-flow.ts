import type { ApprovalDecision, ApprovalRequest } from '../approvals/approval-model';
import type { LaunchOutcome, LaunchRequest, RunOutcome } from '../service/service-protocol';
import { problemText, toProblem } from '../service/service-protocol';
import { NO_WORKSPACE_TEXT, preflightFailedText, rebuildFailedText, sandboxResetText, sandboxResettingText } from '../host/labels';

/**
 * The user-facing launch flow every host runs (the Theia frontend, the VS Code plugin): pre-flight
 * before any tab or process exists, the approval loop, and the relaunch-until-approved loop of a
 * terminal. Hosts supply the UI (show the approval view, open settings, notify); the decisions are here.
 */

/** What a launch carries once pre-flight is settled; one-shot, never stored or reused by a relaunch. */
export interface LaunchClearance {
    approvalToken?: string;
    acceptCompatWarning?: boolean;
    /** sandy's launch options for this launch only ("Launch with…": common/session/launch-options.ts). */
    args?: string[];
}

/** The host's side of {@link clearForLaunch}. */
export interface ClearForLaunchHost {
    preflight(workspace: string): Promise<ApprovalRequest | undefined>;
    /** Show the approval view and resolve with the user's decision (closing it counts as reject). */
    ask(request: ApprovalRequest): Promise<ApprovalDecision>;
    rebuildSandbox(workspace: string): Promise<RunOutcome>;
    /** The settings editor of the workspace, at the key the refusal is about. */
    openSettings(workspace: string, key: string | undefined, scope?: 'project' | 'global'): Promise<void>;
    info(message: string): void;
    error(message: string): void;
}


/**
 * Walk the user through pre-flight until the launch may go ahead. Returns what the launch must
 * carry, or undefined when the user rejected (then nothing is started).
 */
export async function clearForLaunch(workspace: string, host: ClearForLaunchHost, first?: ApprovalRequest): Promise<LaunchClearance | undefined> {
    let request = first ?? await host.preflight(workspace);
    while (request) {
        const decision = await host.ask(request);
        switch (decision) {
            case 'approve':
                return { approvalToken: request.token };
            case 'launch-anyway':
                return { acceptCompatWarning: true };
            case 'rebuild': {
                host.info(sandboxResettingText(workspace));
                const result = await host.rebuildSandbox(workspace);
                if (!result.ok) {
                    host.error(rebuildFailedText(result));
                    return undefined;
                }
                host.info(sandboxResetText(workspace));
                request = await host.preflight(workspace);
                continue;
            }
            case 'open-settings':
                await host.openSettings(workspace, request.refusals[0]?.key, request.refusals[0]?.scope);
                return undefined;
            default:
                return undefined;
        }
    }
    return {};
}

export type LaunchFlowOutcome = Exclude<LaunchOutcome, { kind: 'needs-approval' }> | { kind: 'not-approved' };

/** The host's side of {@link launchUntilCleared}. */
export interface LaunchFlowHost {
    launch(request: LaunchRequest): Promise<LaunchOutcome>;
    /** The view's current size (measured, never a default). */
    measure(): { cols: number; rows: number };
    /** Pre-flight again with the request the service answered (files changed since the user approved). */
    clear(workspace: string, request: ApprovalRequest): Promise<LaunchClearance | undefined>;
}

/** Launch with the given clearance; if the files changed since (or nothing was approved yet), ask again. */
export async function launchUntilCleared(workspace: string, clearance: LaunchClearance | undefined, host: LaunchFlowHost): Promise<LaunchFlowOutcome> {
    let outcome = await host.launch({ workspace, ...host.measure(), ...clearance });
    while (outcome.kind === 'needs-approval') {
        const again = await host.clear(workspace, outcome.request);
        if (!again) {
            return { kind: 'not-approved' };
        }
        // The options chosen for this launch hold through a re-approval.
        outcome = await host.launch({ workspace, ...host.measure(), ...clearance?.args ? { args: clearance.args } : {}, ...again });
    }
    return outcome as LaunchFlowOutcome;
}


/** The host's side of {@link launchProject}. */
export interface LaunchProjectHost {
    /** Ask which project to launch when none was given; undefined when the user cancels. */
    pickProject(placeholder: string): Promise<{ workspacePath?: string } | undefined>;
    /** A view already shows sandy for this workspace (a live session): reveal it and say true. */
    revealExisting(workspace: string): Promise<boolean>;
    /** Pre-flight ({@link clearForLaunch} with the host's UI); undefined when the user did not approve. */
    clearForLaunch(workspace: string): Promise<LaunchClearance | undefined>;
    /** Open the terminal that launches sandy with this clearance. */
    open(workspace: string, clearance: LaunchClearance): Promise<void>;
    error(message: string): void;
}

/**
 * "Sandy: Launch" in every host: pick a project if none was given, reveal a session already running
 * for it, otherwise pre-flight BEFORE any tab or process exists (Reject starts nothing, spec MVP
 * pillar 3), then open the terminal with the one-shot clearance.
 */
export async function launchProject(project: { workspacePath?: string } | undefined, host: LaunchProjectHost): Promise<void> {
    const target = project ?? await host.pickProject('Launch sandy for which project?');
    if (!target) {
        return;
    }
    const workspace = target.workspacePath;
    if (!workspace) {
        host.error(NO_WORKSPACE_TEXT);
        return;
    }
    if (await host.revealExisting(workspace)) {
        return;
    }
    let clearance: LaunchClearance | undefined;
    try {
        clearance = await host.clearForLaunch(workspace);
    } catch (e) {
        host.error(preflightFailedText(problemText(toProblem(e))));
        return;
    }
    if (clearance) {
        await host.open(workspace, clearance);
    }
}
