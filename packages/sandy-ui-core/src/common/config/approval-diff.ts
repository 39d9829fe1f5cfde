/**
 * What changed since a workspace's privileged keys were approved.
 *
 * sandy's approval file (`$SANDY_HOME/approvals/passive-<h16>.list`, CONTRACT §4.1) holds the hash of
 * the approved `KEY=VALUE` set on line 1, then `# workspace:` / `# approved:` and the key NAMES only,
 * never values. sandy compares line 1 and nothing else. So the file alone can tell which names were
 * added or removed, but not which value changed (fx 13a/13b). sandy-ui fills that gap with its own
 * record of per-key value hashes, kept outside the workspace (see node/approval-memory.ts).
 *
 * Pure: hashes are computed by the caller (src/node).
 */

/** A parsed approval file. */
export interface ApprovalFileInfo {
    /** Line 1 exactly as `head -n1` gives it (a CR stays; sandy would then never match). */
    readonly setHash: string;
    /** Text after `# workspace: `, when present. */
    readonly workspace?: string;
    /** Text after `# approved:` (sandy writes two spaces), when present. */
    readonly approvedAt?: string;
    /** Approved key names (lines after line 1 that are neither comments nor blank), sorted as in the file. */
    readonly keys: readonly string[];
}

/** Parses an approval file as sandy writes it; tolerates hand-made files without header lines (fx 55). */
export function parseApprovalFile(text: string): ApprovalFileInfo {
    const lines = text.split('\n');
    if (lines.length && lines[lines.length - 1] === '') {
        lines.pop();
    }
    const setHash = lines[0] ?? '';
    let workspace: string | undefined;
    let approvedAt: string | undefined;
    const keys: string[] = [];
    for (const raw of lines.slice(1)) {
        const line = raw.replace(/\r$/, '');
        if (line.startsWith('# workspace:')) {
            workspace = line.slice('# workspace:'.length).replace(/^ /, '');
        } else if (line.startsWith('# approved:')) {
            approvedAt = line.slice('# approved:'.length).trim();
        } else if (line.trim() && !line.startsWith('#')) {
            keys.push(line.trim());
        }
    }
    return { setHash, workspace, approvedAt, keys };
}

export interface ApprovalDiffOptions {
    /** Hash of the current approval set, as the launcher computes it; equal to line 1 → approved. */
    readonly currentSetHash?: string;
    /** Per-key value hashes recorded by sandy-ui when the set was last approved. */
    readonly approvedValueHashes?: Readonly<Record<string, string>>;
    /** Per-key value hashes of the current pending set (same hashing as the record). */
    readonly currentValueHashes?: Readonly<Record<string, string>>;
}

export interface ApprovalDiff {
    /** An approval file exists. */
    readonly hasApproval: boolean;
    /** Line 1 equals the current set hash (undefined when no hash was given). */
    readonly hashMatches: boolean | undefined;
    /** Pending now, not in the approved names. */
    readonly addedKeys: readonly string[];
    /** Approved before, no longer pending. */
    readonly removedKeys: readonly string[];
    /** In both, and the recorded value hash differs from the current one. */
    readonly changedValueKeys: readonly string[];
    /** In both, with no recorded value hash to compare: their values may or may not have changed. */
    readonly unverifiedKeys: readonly string[];
    /** In both, and the recorded value hash equals the current one. */
    readonly unchangedKeys: readonly string[];
}

/**
 * Compares an approval file with the keys pending now. `current` is the pending set (duplicates
 * allowed; only names are used here). When `currentSetHash` matches line 1 the set is approved as is,
 * so nothing is reported as changed even if sandy-ui's own record is stale.
 */
export function diffApproval(
    approval: ApprovalFileInfo | string | undefined,
    current: readonly { readonly key: string }[],
    options: ApprovalDiffOptions = {}
): ApprovalDiff {
    const info = typeof approval === 'string' ? parseApprovalFile(approval) : approval;
    const currentKeys = [...new Set(current.map(c => c.key))].sort(compareCodePoints);
    const hashMatches = options.currentSetHash === undefined || !info ? undefined : info.setHash === options.currentSetHash;
    if (!info) {
        return { hasApproval: false, hashMatches, addedKeys: currentKeys, removedKeys: [], changedValueKeys: [], unverifiedKeys: [], unchangedKeys: [] };
    }
    const approved = new Set(info.keys);
    const now = new Set(currentKeys);
    const addedKeys = currentKeys.filter(k => !approved.has(k));
    const removedKeys = [...approved].filter(k => !now.has(k)).sort(compareCodePoints);
    const both = currentKeys.filter(k => approved.has(k));
    if (hashMatches) {
        return { hasApproval: true, hashMatches, addedKeys, removedKeys, changedValueKeys: [], unverifiedKeys: [], unchangedKeys: both };
    }
    const changedValueKeys: string[] = [];
    const unverifiedKeys: string[] = [];
    const unchangedKeys: string[] = [];
    for (const key of both) {
        const before = options.approvedValueHashes?.[key];
        const after = options.currentValueHashes?.[key];
        if (before === undefined || after === undefined) {
            unverifiedKeys.push(key);
        } else if (before !== after) {
            changedValueKeys.push(key);
        } else {
            unchangedKeys.push(key);
        }
    }
    return { hasApproval: true, hashMatches, addedKeys, removedKeys, changedValueKeys, unverifiedKeys, unchangedKeys };
}

/**
 * Byte order of the UTF-8 encodings, which is code point order. JS `<` compares UTF-16 code units,
 * which differs for characters above U+FFFF versus U+E000-U+FFFF. This is the order of `sort` under
 * the C / C.UTF-8 locale.
 */
export function compareCodePoints(a: string, b: string): number {
    const ia = a[Symbol.iterator]();
    const ib = b[Symbol.iterator]();
    for (;;) {
        const x = ia.next();
        const y = ib.next();
        if (x.done || y.done) {
            return x.done && y.done ? 0 : x.done ? -1 : 1;
        }
        const cx = x.value.codePointAt(0)!;
        const cy = y.value.codePointAt(0)!;
        if (cx !== cy) {
            return cx < cy ? -1 : 1;
        }
    }
}
