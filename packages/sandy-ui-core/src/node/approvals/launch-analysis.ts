import { ApprovalRefusal, ApprovalRequest, buildApprovalRequest } from '../../common/approvals/approval-model';
import { CONTROL_CHARS, gatesToken, hasPendingGates, PendingGates } from '../../common/approvals/launch-gates';
import { diffApproval } from '../../common/config/approval-diff';
import { envSetKeysFrom, PreflightReport } from '../../common/config/preflight';
import { SandyGateReport, unresolvedByRunningSandyText } from '../../common/sandy/approvals-report';
import { SandySchema } from '../../common/sandy/contract';
import { SandyError } from '../../common/sandy/errors';
import { SandyProblem } from '../../common/service/service-protocol';
import { dockerfileGate, symlinkGate } from './launch-gates';
import { runPreflight, sha256Hex, valueHashesFor } from './preflight';

/** A schema's key lists as pre-flight takes them. */
export function preflightSchemaInput(schema: SandySchema): { privilegedKeys: string[]; passiveKeys: string[]; envOnlyKeys: string[]; keys: SandySchema['config']['privileged_keys'] } {
    return {
        privilegedKeys: schema.config.privileged_keys.map(k => k.name),
        passiveKeys: schema.config.passive_keys.map(k => k.name),
        envOnlyKeys: schema.config.env_only_keys.map(k => k.name),
        keys: [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys]
    };
}

/** The pre-flight of a workspace and the approval view's request: what a launch must show first. */
export interface LaunchAnalysis {
    report: PreflightReport;
    /** undefined: launch without asking. */
    request: ApprovalRequest | undefined;
    gates: PendingGates;
    /** What the launch says besides (a gate the running sandy reports that the files did not show). */
    notes: string[];
}

export interface LaunchAnalysisInput {
    /** Canonical (the workspace guard's answer). */
    workspace: string;
    sandyHome: string;
    /** sandy's `$HOME` (its symlink gate is about links out of the workspace into it). */
    home: string;
    schema: SandySchema;
    /** The environment sandy is launched with (the whitelist): keys set there shadow the files. */
    launchEnv: Readonly<Record<string, string | undefined>>;
    /** The workspace's sandbox as `--print-state` lists it (its compat), when known. */
    sandbox?: { createdVersion?: string | null; path: string };
    /** Value hashes and the Dockerfile text the IDE remembers from the last approval (for the diff). */
    approvedValueHashes?: Record<string, string>;
    previousDockerfile?: string;
    /**
     * The running sandy's own judgement of the gates (`--approvals`, sandy 2.x), when it gave one: it
     * decides WHICH gates are pending; the files still give the values the approval view previews.
     */
    sandyGates?: SandyGateReport;
    problemOf(e: unknown): SandyProblem;
}

/**
 * Everything Launch's pre-flight decides for a workspace, once: the launcher-exact report of the
 * config files, the gates sandy will ask besides the privileged keys (the project Dockerfile, escaping
 * symlinks) with the token of what is shown, refusals where a gate cannot be shown faithfully, and the
 * approval view's request. The service's Launch and Add Project and `sandy-ui validate` all call this.
 */
export async function analyzeLaunch(input: LaunchAnalysisInput): Promise<LaunchAnalysis> {
    const { workspace, schema } = input;
    const schemaInput = preflightSchemaInput(schema);
    const keys = schemaInput.keys;
    const report = await runPreflight({
        workspacePath: workspace,
        canonical: true,
        sandyHome: input.sandyHome,
        schema: schemaInput,
        envSetKeys: envSetKeysFrom(input.launchEnv as Record<string, string>, schemaInput),
        envLanHosts: input.launchEnv.SANDY_ALLOW_LAN_HOSTS,
        sandbox: input.sandbox ? { createdVersion: input.sandbox.createdVersion ?? undefined, sandboxMinCompat: schema.sandy.sandbox_min_compat, sandboxPath: input.sandbox.path } : undefined
    });
    const diff = diffApproval(report.approvalFileText, report.pendingPrivileged, {
        currentSetHash: report.approvalSetHash,
        approvedValueHashes: input.approvedValueHashes,
        currentValueHashes: valueHashesFor(report.pendingPrivileged)
    });
    const descriptions = Object.fromEntries(keys.map(k => [k.name, k.description]));
    const refusals: ApprovalRefusal[] = [];
    const refusal = (e: unknown): undefined => {
        const problem = input.problemOf(e);
        refusals.push({ message: problem.message, remediation: problem.hint, key: '' });
        return undefined;
    };
    if (CONTROL_CHARS.test(workspace)) {
        refusal(new SandyError('usage', `The workspace path ${JSON.stringify(workspace)} contains control characters.`,
            'Rename the folder: sandy prints the path inside its own prompts and state, where such characters forge or break lines.'));
    }
    const dockerfile = await dockerfileGate(workspace, input.sandyHome, input.previousDockerfile).catch(refusal);
    const symlinks = await symlinkGate(workspace, input.home, input.sandyHome).catch(refusal);
    const privileged = report.approvalStatus === 'pending' && report.approvalSetHash
        ? { setHash: report.approvalSetHash, keys: report.approvalSet.map(kv => kv.slice(0, kv.indexOf('='))) }
        : undefined;
    const notes: string[] = [];
    let gates: PendingGates = { workspace, privileged, dockerfile, symlinks };
    if (input.sandyGates?.verdict === 'clear') {
        // sandy's launch path asks nothing: there is nothing to approve, whatever the files suggest.
        gates = { workspace };
    } else if (input.sandyGates?.verdict === 'unresolved' && !hasPendingGates(gates) && !refusals.length) {
        // sandy will withhold or refuse something the files did not show: the user answers sandy in the terminal.
        notes.push(unresolvedByRunningSandyText(input.sandyGates));
    }
    const token = gatesToken(gates, sha256Hex);
    return { report, request: buildApprovalRequest(report, diff, descriptions, { pending: gates, token, refusals }), gates, notes };
}
