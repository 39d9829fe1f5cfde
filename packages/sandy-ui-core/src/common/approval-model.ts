import type { PreflightReport } from './preflight';
import type { ApprovalDiff } from './approval-diff';

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
    key: string;
    filePath?: string;
    line?: number;
    /** The settings scope holding the value (Global for `~/.sandy`), for "Open Settings"; none for the environment. */
    scope?: 'project' | 'global';
}

/**
 * Everything the pre-flight view needs, host-neutral and serialisable. `token` binds what was shown
 * to what may be launched: it is the launcher's approval-set hash, and a launch approved with a token
 * that no longer matches the files is refused and shown again.
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
    descriptions: Readonly<Record<string, string | undefined>> = {}
): ApprovalRequest | undefined {
    const refusals: ApprovalRefusal[] = report.worldOpenLan
        .filter(f => !f.shadowedByEnv)
        .map(f => ({
            message: f.message, remediation: f.remediation, key: 'SANDY_ALLOW_LAN_HOSTS', filePath: f.filePath, line: f.line,
            scope: f.role === 'env' ? undefined : f.role.startsWith('home') ? 'global' as const : 'project' as const
        }));
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
    const pending = report.approvalStatus === 'pending';
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
    const lines: ApprovalLine[] = report.pendingPrivileged.map(p => ({
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
        token: report.approvalSetHash ?? '',
        lines,
        removedKeys: [...diff.removedKeys],
        hasPreviousApproval: diff.hasApproval,
        approvalFilePath: report.approvalFilePath,
        refusals,
        compat,
        notes
    };
}
