/**
 * sandy version strings. sandy reports three shapes (CONTRACT §2.2-2.3):
 * - `SANDY_VERSION` alone: `1.7.1-dev`, `0.12.0`, `1.0.0-rc2` (markers, `--print-version`.version);
 * - `full_version` = `SANDY_VERSION-<git short hash>` when a commit is known: `1.7.1-dev-abc1234`;
 * - the same after `sandy ` on the `--version` line.
 * Ordering follows semver precedence (a pre-release sorts before its release); the commit suffix
 * never takes part in ordering, only in cache keys.
 */
export interface SandyVersion {
    /** The text as given (trimmed). */
    readonly raw: string;
    readonly major: number;
    readonly minor: number;
    readonly patch: number;
    /** Pre-release identifiers, e.g. `['dev']` for `1.7.1-dev`; empty for a release. */
    readonly prerelease: readonly string[];
    /** The git short hash of a full_version, when one was recognised. */
    readonly commit?: string;
}

const VERSION_RE = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
// `git rev-parse --short` prints at least 7 hex digits (more when ambiguous); install.sh bakes the same.
const COMMIT_SUFFIX_RE = /^(?:(.*)-)?([0-9a-f]{7,40})$/;
// sandy's own marker check (`_sandbox_compat_classify`, sandy:370-375).
const MARKER_RE = /^[0-9]+\.[0-9]+\.[0-9]+([-.].*)?$/;

/**
 * Parses a sandy version or full_version. `commit`, when known (from `--print-version`), is stripped
 * exactly; otherwise a trailing `-<7..40 hex>` is taken as the commit, because sandy's pre-release tags
 * (`dev`, `rc1`) are never pure hex. Returns undefined for text that is not a version at all.
 */
export function parseSandyVersion(text: string, commit?: string): SandyVersion | undefined {
    const raw = text.trim();
    const match = VERSION_RE.exec(raw);
    if (!match) {
        return undefined;
    }
    const [, major, minor, patch, suffix] = match;
    let pre: string | undefined = suffix;
    let foundCommit: string | undefined;
    if (pre !== undefined) {
        if (commit && (pre === commit || pre.endsWith(`-${commit}`))) {
            foundCommit = commit;
            pre = pre === commit ? undefined : pre.slice(0, -(commit.length + 1));
        } else if (!commit) {
            const c = COMMIT_SUFFIX_RE.exec(pre);
            if (c) {
                foundCommit = c[2];
                pre = c[1];
            }
        }
    }
    return {
        raw,
        major: Number(major),
        minor: Number(minor),
        patch: patch === undefined ? 0 : Number(patch),
        prerelease: pre ? pre.split('.').filter(p => p !== '') : [],
        commit: foundCommit
    };
}

/** `1.7.1-dev-abc1234` → `1.7.1-dev`: the version sandy writes into sandbox markers. */
export function stripCommitSuffix(fullVersion: string, commit?: string): string {
    const v = parseSandyVersion(fullVersion, commit);
    return v ? formatSandyVersion(v) : fullVersion.trim();
}

/** The version without its commit (and without a leading `v`). */
export function formatSandyVersion(v: SandyVersion): string {
    const core = `${v.major}.${v.minor}.${v.patch}`;
    return v.prerelease.length ? `${core}-${v.prerelease.join('.')}` : core;
}

function toVersion(v: string | SandyVersion): SandyVersion | undefined {
    return typeof v === 'string' ? parseSandyVersion(v) : v;
}

function comparePrerelease(a: readonly string[], b: readonly string[]): number {
    // A release outranks any of its pre-releases (semver §11.3).
    if (!a.length || !b.length) {
        return a.length === b.length ? 0 : (a.length ? -1 : 1);
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (i >= a.length) {
            return -1;
        }
        if (i >= b.length) {
            return 1;
        }
        const x = a[i];
        const y = b[i];
        const xNum = /^\d+$/.test(x);
        const yNum = /^\d+$/.test(y);
        if (xNum && yNum) {
            const d = Number(x) - Number(y);
            if (d !== 0) {
                return Math.sign(d);
            }
        } else if (xNum !== yNum) {
            return xNum ? -1 : 1;
        } else if (x !== y) {
            return x < y ? -1 : 1;
        }
    }
    return 0;
}

/**
 * Semver precedence of two sandy versions: -1, 0 or 1; undefined when either is not a version.
 * `1.7.1-dev` < `1.7.1` < `1.7.2-dev`; commits are ignored (`1.7.1-dev-abc1234` == `1.7.1-dev`).
 */
export function compareSandyVersions(a: string | SandyVersion, b: string | SandyVersion): -1 | 0 | 1 | undefined {
    const x = toVersion(a);
    const y = toVersion(b);
    if (!x || !y) {
        return undefined;
    }
    for (const d of [x.major - y.major, x.minor - y.minor, x.patch - y.patch, comparePrerelease(x.prerelease, y.prerelease)]) {
        if (d !== 0) {
            return d < 0 ? -1 : 1;
        }
    }
    return 0;
}

/** `a >= b` by semver precedence; undefined when either is not a version. */
export function isVersionAtLeast(a: string | SandyVersion, b: string | SandyVersion): boolean | undefined {
    const c = compareSandyVersions(a, b);
    return c === undefined ? undefined : c >= 0;
}

/**
 * sandy's own `_ver_lt` (sandy:312-328): compares the numeric x.y.z core only, everything after the
 * first `-` dropped and a missing or non-numeric field read as 0, so `0.7.10-dev` is NOT below
 * `0.7.10`. Used where we must agree with a decision sandy itself makes (the sandbox compat floor),
 * not for display ordering.
 */
export function isCoreVersionBelow(a: string, b: string): boolean {
    const core = (s: string): number[] => {
        const parts = s.split('-')[0].split('.');
        return [0, 1, 2].map(i => (/^[0-9]+$/.test(parts[i] ?? '') ? Number(parts[i]) : 0));
    };
    const x = core(a);
    const y = core(b);
    for (let i = 0; i < 3; i++) {
        if (x[i] !== y[i]) {
            return x[i] < y[i];
        }
    }
    return false;
}

/**
 * The marker as sandy's launcher reads it: `head -n1 .sandy_created_version | tr -d '[:space:]'`
 * (sandy:7227-7260). `--print-state`'s `created_version` only drops trailing newlines (CONTRACT §2.5),
 * so leading blanks, a CR or a second line reach us and must be removed the same way.
 */
export function sandboxMarkerVersion(createdVersion: string): string {
    return createdVersion.split('\n')[0].replace(/[ \t\n\v\f\r]/g, '');
}

/** How sandy classifies a `.sandy_created_version` marker against its floor (sandy:370-375). */
export type SandboxCompatClass = 'ok' | 'below-floor' | 'unknown' | 'invalid';

/**
 * Mirror of `_sandbox_compat_classify` on the marker as the launcher reads it: below-floor refuses the
 * launch (exit 1, fx 57); unknown/invalid warn. The one classification: the launch gate (pre-flight)
 * and the project's state both use it, so they cannot disagree.
 */
export function classifySandboxVersion(createdVersion: string | undefined, floor: string): SandboxCompatClass {
    const version = createdVersion === undefined ? '' : sandboxMarkerVersion(createdVersion);
    if (version === '' || version === 'unknown') {
        return 'unknown';
    }
    if (!MARKER_RE.test(version)) {
        return 'invalid';
    }
    return isCoreVersionBelow(version, floor) ? 'below-floor' : 'ok';
}
