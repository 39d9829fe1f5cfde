import type { PreflightReport } from '../config/preflight';
import type { ApprovalDiff } from '../config/approval-diff';
import { DiffOp, diffLines, PendingGates } from './launch-gates';

/** How a pending line relates to what the user approved before. */
export type ApprovalLineChange = 'added' | 'changed' | 'unchanged' | 'unverified';

/** One privileged `KEY=VALUE` line awaiting approval, as shown to the user. */
export interface ApprovalLine {
    key: string;
    /** The line exactly as in the file (secret values replaced by a mask; see {@link ApprovalLine.masked}). */
    text: string;
    /** A secret whose value is withheld until the user asks to reveal it. */
    masked: boolean;
    source: 'config' | 'secrets';
    filePath: string;
    line: number;
    reason: 'privileged-key' | 'weakening-value';
    /** What the key does (schema description). */
    description?: string;
    change: ApprovalLineChange;
}

export interface ApprovalRefusal {
    message: string;
    remediation: string;
    /** The settings key the refusal is about; empty when the fix is in the files (a symlink, a Dockerfile). */
    key: string;
    filePath?: string;
    line?: number;
    /** The settings scope holding the value (Global for `~/.sandy`), for "Open Settings"; none for the environment. */
    scope?: 'project' | 'global';
}

/** The project `.sandy/Dockerfile` sandy will ask to build, shown whole. */
export interface ApprovalDockerfile {
    path: string;
    /** The file verbatim. */
    text: string;
    /** Other files of the build context (hashed by sandy, so a change to any re-asks; contents not shown). */
    contextFiles: string[];
    /** Files Docker builds with whose later changes sandy's approval does not cover (named config/.secrets in sub-folders). */
    unhashedFiles: string[];
    /** sandy approved an earlier version of this build context for this workspace. */
    changedSinceApproval: boolean;
    /** Line diff against the Dockerfile approved last time in this IDE, when known. */
    diff?: DiffOp[];
}

/**
 * Everything the pre-flight view needs, host-neutral and serialisable. `token` binds what was shown
 * to what may be launched: a hash over every gate shown (privileged set, Dockerfile build context,
 * escaping symlinks); a launch approved with a token that no longer matches the files is refused and
 * shown again, and the sandy tab answers sandy's prompts only while the files still match it.
 */
export interface ApprovalRequest {
    workspace: string;
    kind: 'approve' | 'refuse' | 'compat';
    token: string;
    lines: ApprovalLine[];
    /** Keys approved before that are no longer set. */
    removedKeys: string[];
    hasPreviousApproval: boolean;
    approvalFilePath: string;
    refusals: ApprovalRefusal[];
    compat?: { message: string; remediation?: string; createdVersion?: string; minCompat: string; refuses: boolean };
    /** Unknown keys etc.: shown as notes, never a reason to block. */
    notes: string[];
    dockerfile?: ApprovalDockerfile;
    /** Symlinks that point outside the workspace (under your home folder), as `link -> target`. */
    symlinks?: string[];
}

/** The files an approval request names: the only ones its view may ask a host to open. */
export function approvalRequestFiles(request: ApprovalRequest): string[] {
    return [...new Set([
        ...request.lines.map(l => l.filePath),
        ...request.refusals.map(r => r.filePath).filter((f): f is string => !!f),
        request.approvalFilePath,
        ...request.dockerfile ? [request.dockerfile.path] : []
    ])];
}

export type ApprovalDecision = 'approve' | 'reject' | 'rebuild' | 'launch-anyway' | 'open-settings';

export const SECRET_MASK = '••••••••';

/** Mask a secret line's value but keep the key and the exact shape before `=`. */
export function maskApprovalLine(rawLine: string): string {
    const eq = rawLine.indexOf('=');
    return eq < 0 ? SECRET_MASK : `${rawLine.slice(0, eq + 1)}${SECRET_MASK}`;
}

/**
 * Decide what the pre-flight view must show for a launch, or `undefined` when the launch can go
 * ahead without asking (spec, MVP pillar 3): refuse world-open LAN allowlists sandy would load,
 * warn about sandboxes below the compat floor, and ask about pending privileged keys.
 */
export function buildApprovalRequest(
    report: PreflightReport,
    diff: ApprovalDiff,
    descriptions: Readonly<Record<string, string | undefined>> = {},
    gates?: { pending: PendingGates; token: string; refusals?: ApprovalRefusal[] }
): ApprovalRequest | undefined {
    const refusals: ApprovalRefusal[] = [...gates?.refusals ?? [], ...report.worldOpenLan
        .filter(f => !f.shadowedByEnv)
        .map(f => ({
            message: f.message, remediation: f.remediation, key: 'SANDY_ALLOW_LAN_HOSTS', filePath: f.filePath, line: f.line,
            scope: f.role === 'env' ? undefined : f.role.startsWith('home') ? 'global' as const : 'project' as const
        }))];
    const compat = report.sandboxCompat && report.sandboxCompat.severity !== 'none' && report.sandboxCompat.status !== 'new'
        && report.sandboxCompat.severity !== 'info'
        ? {
            message: report.sandboxCompat.message ?? 'This sandbox was created by an older sandy.',
            remediation: report.sandboxCompat.remediation,
            createdVersion: report.sandboxCompat.createdVersion,
            minCompat: report.sandboxCompat.minCompat,
            refuses: report.sandboxCompat.severity === 'refusal'
        }
        : undefined;
    const dockerfileGate = gates?.pending.dockerfile;
    const symlinks = gates?.pending.symlinks?.entries;
    // The gates decide which are pending (sandy's `--approvals` may have cleared them); without gates, the report.
    const privilegedAsked = gates ? !!gates.pending.privileged : report.approvalStatus === 'pending';
    const pending = privilegedAsked || !!dockerfileGate || !!symlinks;
    if (!refusals.length && !compat && !pending) {
        return undefined;
    }
    const changeOf = (key: string): ApprovalLineChange => {
        if (diff.addedKeys.includes(key)) {
            return 'added';
        }
        if (diff.changedValueKeys.includes(key)) {
            return 'changed';
        }
        if (diff.unverifiedKeys.includes(key)) {
            return 'unverified';
        }
        return 'unchanged';
    };
    const privilegedPending = privilegedAsked ? report.pendingPrivileged : [];
    const lines: ApprovalLine[] = privilegedPending.map(p => ({
        key: p.key,
        text: p.isSecret ? maskApprovalLine(p.rawLine) : p.rawLine,
        masked: p.isSecret,
        source: p.source,
        filePath: p.filePath,
        line: p.line,
        reason: p.reason,
        description: descriptions[p.key],
        change: diff.hasApproval ? changeOf(p.key) : 'added'
    }));
    const notes = [
        ...report.unknownKeys.map(k => `Unknown key ${k.key} in ${k.filePath}${k.line ? `:${k.line}` : ''} — sandy ignores it.`),
        ...report.envOnlyKeys.map(k => `${k.key} in ${k.filePath} only works as an environment variable — sandy ignores it in files.`)
    ];
    return {
        workspace: report.workspacePath,
        kind: refusals.length ? 'refuse' : pending ? 'approve' : 'compat',
        token: gates?.token ?? report.approvalSetHash ?? '',
        lines,
        removedKeys: [...diff.removedKeys],
        hasPreviousApproval: diff.hasApproval,
        approvalFilePath: report.approvalFilePath,
        refusals,
        compat,
        notes,
        dockerfile: dockerfileGate && {
            path: dockerfileGate.path,
            text: dockerfileGate.text,
            contextFiles: [...dockerfileGate.contextFiles],
            unhashedFiles: [...dockerfileGate.unhashedFiles ?? []],
            changedSinceApproval: dockerfileGate.approvedHash !== undefined,
            diff: dockerfileGate.previousText !== undefined ? diffLines(dockerfileGate.previousText, dockerfileGate.text) : undefined
        },
        symlinks: symlinks && [...symlinks]
    };
}

/** What Launch's pre-flight says for a workspace, in short: Add Project and `sandy-ui validate` say this same verdict. */
export interface LaunchVerdict {
    kind: 'ready' | 'approve' | 'refuse' | 'compat';
    /** The refusals (what and how to fix), the keys to approve, or the sandbox's compat message. */
    lines: string[];
}

export function launchVerdictOf(request: ApprovalRequest | undefined): LaunchVerdict {
    if (!request) {
        return { kind: 'ready', lines: [] };
    }
    switch (request.kind) {
        case 'refuse': return { kind: 'refuse', lines: request.refusals.map(r => `${r.message} ${r.remediation}`.trim()) };
        case 'compat': return { kind: 'compat', lines: request.compat ? [request.compat.message] : [] };
        default: return {
            kind: 'approve',
            lines: [...new Set([
                ...request.lines.map(l => l.key),
                ...request.dockerfile ? ['.sandy/Dockerfile'] : [],
                ...request.symlinks?.length ? ['symlinks out of the workspace'] : []
            ])]
        };
    }
}
