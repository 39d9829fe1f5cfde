/**
 * The compatibility gate of the spec ("Compatibility with sandy"). Purely informational: no verdict
 * disables anything or refuses a launch — sandy enforces its own rules at launch; this makes a mismatch
 * legible earlier. These constants are the single source of truth for what sandy-ui declares.
 */
import { compareSandyVersions, parseSandyVersion } from './version';

/** sandy-ui's own version (kept equal to packages/sandy-ui-core/package.json; a test checks it). */
export const UI_VERSION = '0.1.0';
/** Oldest sandy this UI supports (spec: `sandy_min_version`). */
export const SANDY_MIN_VERSION = '1.0.0';
/**
 * `--print-schema` schema_version values this UI renders fully (spec: `sandy_schema_versions_supported`).
 * 1 is verified against a running sandy (1.7.1, test/fixtures/sandy-1.7.1); 2–4 (sandy 2.0.0, 2.2.0,
 * 2.6.0) against sandy's own outputs and documents only: the real `--print-schema` of sandy 2.7.1
 * (test/fixtures/sandy-2.7.1) and the field changes of `--print-state` its schema names.
 */
export const SUPPORTED_SCHEMA_VERSIONS: readonly number[] = [1, 2, 3, 4];
/**
 * The newest sandy major this UI was built against. A schema past our max is "best effort" (a warning)
 * while sandy stays on a major we know; a new major with a new schema is a breaking release (an error).
 */
export const SANDY_KNOWN_MAJOR = 2;
/** `--print-version` exists from this sandy on; older sandy forwards the flag to the agent and launches. */
export const PRINT_VERSION_MIN_SANDY = '1.7.0';
/**
 * `--print-schema`, `--print-state` and `--validate-config` exist from sandy 0.12.0 on (rappdw/sandy
 * c9bf58b). On an older sandy they are unknown arguments, forwarded to the agent: a full launch.
 */
export const INTROSPECTION_MIN_SANDY = '0.12.0';

/** What sandy-ui knows about the sandy it found. */
export interface CompatInput {
    /** `sandy --version`'s full_version (or `--print-version`.version); undefined when sandy was not found. */
    sandyVersion?: string;
    /** `--print-schema`.schema_version, once known. */
    schemaVersion?: number;
    /** sandy is present but `--print-schema` failed (the UI falls back to the bundled schema). */
    schemaFailed?: boolean;
}

/** The gate's verdict; `kind` decides the severity (see describeVerdict). */
export type CompatVerdict =
    /** No sandy executable: the "sandy unavailable" views already cover it. */
    | { kind: 'sandy-missing' }
    /** sandy answers `--version` but `--print-schema` failed: surfaced loudly, the bundled schema is used. */
    | { kind: 'sandy-broken'; sandyVersion?: string }
    /** Older than SANDY_MIN_VERSION. */
    | { kind: 'too-old'; sandyVersion: string; minVersion: string }
    /** The normal case (including any sandy newer than the floor with a supported schema): silent. */
    | { kind: 'supported'; sandyVersion?: string; schemaVersion?: number }
    /**
     * Schema past our max on a sandy major we know (sandy bumped it three times within 2.x, additively):
     * best-effort rendering, a warning — never an error for a sandy of a known major.
     */
    | { kind: 'newer-schema'; sandyVersion?: string; schemaVersion: number; maxSupported: number }
    /** Schema past our max on a new sandy major, or a schema older than any we read. */
    | { kind: 'incompatible'; sandyVersion?: string; schemaVersion: number; maxSupported: number; reason: 'sandy-major' | 'schema-retired' };

export type CompatVerdictKind = CompatVerdict['kind'];

/** Whether `--print-version` may be called on this sandy (CONTRACT §2.1 probe order). */
export function supportsPrintVersion(sandyVersion: string): boolean {
    return (compareSandyVersions(sandyVersion, PRINT_VERSION_MIN_SANDY) ?? -1) >= 0;
}

/**
 * Whether the introspection flags may be called on this sandy: the client's gate and the doctor's.
 * Fails closed like {@link supportsPrintVersion}: on a sandy whose version does not parse the flag
 * could be an unknown argument forwarded to the agent, i.e. a launch outside pre-flight and the
 * workspace guard, so that sandy is not asked (the bundled schema serves instead).
 */
export function supportsIntrospection(sandyVersion: string): boolean {
    return (compareSandyVersions(sandyVersion, INTROSPECTION_MIN_SANDY) ?? -1) >= 0;
}

export function evaluateCompat(input: CompatInput): CompatVerdict {
    const { sandyVersion, schemaVersion, schemaFailed } = input;
    if (sandyVersion === undefined && schemaVersion === undefined && !schemaFailed) {
        return { kind: 'sandy-missing' };
    }
    // Checked before "broken": an old sandy is the likelier reason for a failing --print-schema, and
    // "update sandy" is the better advice. An unparseable version cannot be proven too old.
    if (sandyVersion !== undefined && compareSandyVersions(sandyVersion, SANDY_MIN_VERSION) === -1) {
        return { kind: 'too-old', sandyVersion, minVersion: SANDY_MIN_VERSION };
    }
    if (schemaFailed) {
        return { kind: 'sandy-broken', sandyVersion };
    }
    if (schemaVersion === undefined || SUPPORTED_SCHEMA_VERSIONS.includes(schemaVersion)) {
        return { kind: 'supported', sandyVersion, schemaVersion };
    }
    const maxSupported = Math.max(...SUPPORTED_SCHEMA_VERSIONS);
    if (schemaVersion < maxSupported) {
        return { kind: 'incompatible', sandyVersion, schemaVersion, maxSupported, reason: 'schema-retired' };
    }
    const major = sandyVersion === undefined ? undefined : parseSandyVersion(sandyVersion)?.major;
    if (major !== undefined && major > SANDY_KNOWN_MAJOR) {
        return { kind: 'incompatible', sandyVersion, schemaVersion, maxSupported, reason: 'sandy-major' };
    }
    return { kind: 'newer-schema', sandyVersion, schemaVersion, maxSupported };
}

/** How loud a verdict is: none = silent, info = log line, warning/error = notification. */
export type CompatSeverity = 'none' | 'info' | 'warning' | 'error';

/** The human side of a verdict: one sentence of what happened, and what to do when there is something. */
export interface CompatVerdictDescription {
    kind: CompatVerdictKind;
    severity: CompatSeverity;
    message: string;
    action?: string;
}

function sandyLabel(version: string | undefined): string {
    return version ? `sandy ${version}` : 'sandy';
}

export function describeVerdict(verdict: CompatVerdict): CompatVerdictDescription {
    switch (verdict.kind) {
        case 'sandy-missing':
            return {
                kind: verdict.kind, severity: 'info',
                message: 'sandy was not found.',
                action: 'Install sandy (https://github.com/rappdw/sandy) or set its path in the Sandy settings.'
            };
        case 'sandy-broken':
            return {
                kind: verdict.kind, severity: 'warning',
                message: `${sandyLabel(verdict.sandyVersion)} is installed but \`sandy --print-schema\` failed — settings use sandy-ui's bundled schema, which may not match your sandy.`,
                action: 'See the Sandy output channel for sandy\'s error; reinstall or update sandy, then reload the window.'
            };
        case 'too-old':
            return {
                kind: verdict.kind, severity: 'error',
                message: `sandy ${verdict.sandyVersion} found — sandy-ui requires sandy ≥ ${verdict.minVersion}.`,
                action: 'Update sandy (`sandy --upgrade`), then reload the window.'
            };
        case 'supported':
            return {
                kind: verdict.kind, severity: 'none',
                message: `${sandyLabel(verdict.sandyVersion)}${verdict.schemaVersion === undefined ? '' : ` (schema v${verdict.schemaVersion})`} is supported.`
            };
        case 'newer-schema':
            return {
                kind: verdict.kind, severity: 'warning',
                message: `sandy's config schema (v${verdict.schemaVersion}) is newer than sandy-ui supports (v${verdict.maxSupported}) — proceeding with best-effort rendering; some fields may not appear.`,
                action: `Update sandy-ui when a release supports schema v${verdict.schemaVersion}.`
            };
        case 'incompatible': {
            const supported = SUPPORTED_SCHEMA_VERSIONS.map(v => `v${v}`).join(', ');
            const why = verdict.reason === 'sandy-major'
                ? `${sandyLabel(verdict.sandyVersion)} is a new major release with config schema v${verdict.schemaVersion}`
                : `${sandyLabel(verdict.sandyVersion)} uses config schema v${verdict.schemaVersion}`;
            return {
                kind: verdict.kind, severity: 'error',
                message: `${why}; sandy-ui ${UI_VERSION} supports ${supported} only — settings and state may be shown wrongly.`,
                action: verdict.reason === 'schema-retired'
                    ? 'Update sandy (`sandy --upgrade`), then reload the window.'
                    : `Update sandy-ui, or install a sandy release with schema ${supported}.`
            };
        }
    }
}
