/**
 * The JSON sandy prints for its introspection flags (CONTRACT §2), as zod schemas and TS types.
 *
 * Leniency rules, so a newer sandy never breaks an older UI and sandy ≥ 1.0.0 (our floor) still parses:
 * - every object is `.passthrough()`: unknown fields survive parsing untouched;
 * - enum-like strings (`type`, `stability`, `approval_status`, …) are plain strings, with the values we
 *   know exported as const lists;
 * - fields sandy added after 1.0.0 (`workspace_exists`, `size_bytes`, `handoff_enabled`, `host_id`,
 *   the daemon columns of `running_containers`, the reclaim counters) are optional;
 * - `null` is accepted exactly where sandy emits it (light mode, unreachable Docker, no lock).
 * The wire types keep sandy's spelling and its nulls; normalised values come from helpers
 * (`lockHolderPid`, `parseSandyLocalTimestamp`, `parseDockerCreatedAt`), never by mutating.
 */
import { z } from 'zod';
import { SandyError } from './errors';

/** A string union that still accepts any other string (sandy may add values; we must not reject them). */
export type OpenString<K extends string> = K | (string & Record<never, never>);

// ----------------------------------------------------------------------------------------------
// --print-version (CONTRACT §2.3)

/** `sandy --print-version` (sandy ≥ 1.7.0). */
export interface PrintVersion {
    schema_version: number;
    /** `SANDY_VERSION`, e.g. `1.7.1-dev`; what sandbox markers record. */
    version: string;
    /** Git short hash, `""` (never null) when unknown. */
    commit: string;
    /** `version` or `version-commit`: the schema cache key (SPEC_INTROSPECTION.md:532-545). */
    full_version: string;
}

export const PrintVersionSchema: z.ZodType<PrintVersion, z.ZodTypeDef, unknown> = z.object({
    schema_version: z.number().int(),
    version: z.string(),
    commit: z.string(),
    full_version: z.string()
}).passthrough();

// ----------------------------------------------------------------------------------------------
// --print-schema (CONTRACT §2.4)

/** Config key types sandy 1.7.1 emits. `path` is real (SANDY_SCREENSHOT_DIR) though sandy:720 omits it. */
export const KNOWN_CONFIG_KEY_TYPES = ['string', 'int', 'bool', 'secret', 'enum', 'agent_combo', 'path'] as const;
export type KnownConfigKeyType = typeof KNOWN_CONFIG_KEY_TYPES[number];

export function isKnownConfigKeyType(type: string): type is KnownConfigKeyType {
    return (KNOWN_CONFIG_KEY_TYPES as readonly string[]).includes(type);
}

/** `deprecated` since sandy 2.x (keys it keeps listed only to refuse them: keyLifecycle). */
export const KNOWN_STABILITIES = ['stable', 'experimental', 'internal', 'deprecated'] as const;
export type KnownStability = typeof KNOWN_STABILITIES[number];

/** Where sandy says a key may be set; incomplete in 1.7.1 (CONTRACT D11: `.secrets` omitted for passive keys). */
export const KNOWN_CONFIG_SOURCES = ['home_config', 'home_secrets', 'workspace_config', 'env'] as const;

/** One config key of `--print-schema` `config.*_keys[]` (sandy's `_emit_key_object`). */
export interface ConfigKey {
    name: string;
    /** One of KNOWN_CONFIG_KEY_TYPES today; an unknown type must be rendered as a plain string field. */
    type: OpenString<KnownConfigKeyType>;
    /** Enums only. */
    choices?: string[];
    /** Only when non-empty; always a JSON string (`"128000"`, `"0"`, `"true"`) — the only hint of bool spelling. */
    default?: string;
    /** POSIX ERE, not always valid as a JS RegExp (`[[:space:]]`, CONTRACT D10). */
    pattern?: string;
    since?: string;
    stability?: OpenString<KnownStability>;
    description?: string;
    sources?: string[];
    /** Privileged keys only: set from a workspace file it needs the approval prompt. */
    passive_approval_required?: boolean;
    /** sandy 2.x: what a newer `type` is made of (a UI that does not know `type` treats it as this). */
    base_type?: string;
}

export const ConfigKeySchema: z.ZodType<ConfigKey, z.ZodTypeDef, unknown> = z.object({
    name: z.string(),
    type: z.string(),
    choices: z.array(z.string()).optional(),
    default: z.string().optional(),
    pattern: z.string().optional(),
    since: z.string().optional(),
    stability: z.string().optional(),
    description: z.string().optional(),
    sources: z.array(z.string()).optional(),
    passive_approval_required: z.boolean().optional(),
    base_type: z.string().optional()
}).passthrough();

/**
 * The type a key is handled as: its `type` when this UI knows it, else its `base_type` when that is
 * known (sandy 2.x), else its `type` (shown as text). One rule for the form, the files and pre-flight.
 */
export function effectiveKeyType(key: { type?: unknown; base_type?: unknown } | undefined): string {
    const type = typeof key?.type === 'string' ? key.type : '';
    const base = typeof key?.base_type === 'string' ? key.base_type : undefined;
    return !isKnownConfigKeyType(type) && base !== undefined && isKnownConfigKeyType(base) ? base : type;
}

/** A key whose value is a secret (its effective type): kept in `.secrets`, never shown or sent in clear. */
export function isSecretKey(key: { type?: unknown; base_type?: unknown } | undefined): boolean {
    return effectiveKeyType(key) === 'secret';
}

/** A key sandy still lists but has retired. */
export type KeyLifecycle = 'deprecated' | 'removed';

/**
 * What sandy's schema itself says of a key's life: `removed` when its description opens with REMOVED
 * (sandy 2.x keeps such keys listed so its loader can fail loudly on them: setting one is an error),
 * `deprecated` when its `stability` is `deprecated` or its description opens with DEPRECATED.
 */
export function keyLifecycle(key: { description?: unknown; stability?: unknown }): KeyLifecycle | undefined {
    const description = typeof key.description === 'string' ? key.description : '';
    if (/^\s*REMOVED\b/.test(description)) {
        return 'removed';
    }
    return key.stability === 'deprecated' || /^\s*DEPRECATED\b/i.test(description) ? 'deprecated' : undefined;
}

/** One hand-curated CLI flag (sandy:1010-1056); agent pass-through flags are not listed. */
export interface CliFlag {
    name: string;
    /** `flag` or `string` today. */
    type: OpenString<'flag' | 'string'>;
    short?: string;
    arg_name?: string;
    description?: string;
    /** Only for agent-specific flags (`--remote`: `["claude"]`). */
    agents?: string[];
}

export const CliFlagSchema: z.ZodType<CliFlag, z.ZodTypeDef, unknown> = z.object({
    name: z.string(),
    type: z.string(),
    short: z.string().optional(),
    arg_name: z.string().optional(),
    description: z.string().optional(),
    agents: z.array(z.string()).optional()
}).passthrough();

/** One agent sandy can run (sandy:1059-1089). */
export interface AgentInfo {
    name: string;
    /** Docker image, e.g. `sandy-claude-code`. */
    image: string;
    features?: string[];
    credentials?: { probe_order?: string[] };
}

export const AgentInfoSchema: z.ZodType<AgentInfo, z.ZodTypeDef, unknown> = z.object({
    name: z.string(),
    image: z.string(),
    features: z.array(z.string()).optional(),
    credentials: z.object({ probe_order: z.array(z.string()).optional() }).passthrough().optional()
}).passthrough();

/**
 * Paths sandy mounts read-only. Env-dependent: with SANDY_ALLOW_WORKFLOW_EDIT=1 in sandy's environment
 * `.github/workflows` leaves `dirs_always_mount` (fx 01b).
 */
export interface ProtectedPaths {
    files?: string[];
    git_files?: string[];
    /** Historic name: existence-gated since 0.13. */
    dirs_always_mount?: string[];
    dirs_workflow_edit_conditional?: string[];
}

export const ProtectedPathsSchema: z.ZodType<ProtectedPaths, z.ZodTypeDef, unknown> = z.object({
    files: z.array(z.string()).optional(),
    git_files: z.array(z.string()).optional(),
    dirs_always_mount: z.array(z.string()).optional(),
    dirs_workflow_edit_conditional: z.array(z.string()).optional()
}).passthrough();

export interface SkillPack {
    name: string;
    repo?: string;
}

export const SkillPackSchema: z.ZodType<SkillPack, z.ZodTypeDef, unknown> = z.object({
    name: z.string(),
    repo: z.string().optional()
}).passthrough();

/** `--print-schema` (CONTRACT §2.4). */
export interface SandySchema {
    /** 1 for every sandy from 1.0.0 to 1.7.1. */
    schema_version: number;
    sandy: {
        version: string;
        /** `""` when unknown. */
        commit: string;
        /** Sandboxes created before this version are refused at launch (fx 57). */
        sandbox_min_compat: string;
    };
    config: {
        privileged_keys: ConfigKey[];
        passive_keys: ConfigKey[];
        env_only_keys: ConfigKey[];
    };
    cli_flags: CliFlag[];
    agents: AgentInfo[];
    protected_paths: ProtectedPaths;
    skill_packs: SkillPack[];
    compatibility: {
        current_schema_version: number;
        supported_schema_versions: number[];
        deprecated_schema_versions: number[];
    };
}

export const SandySchemaSchema: z.ZodType<SandySchema, z.ZodTypeDef, unknown> = z.object({
    schema_version: z.number().int(),
    sandy: z.object({
        version: z.string(),
        commit: z.string(),
        sandbox_min_compat: z.string()
    }).passthrough(),
    config: z.object({
        privileged_keys: z.array(ConfigKeySchema),
        passive_keys: z.array(ConfigKeySchema),
        env_only_keys: z.array(ConfigKeySchema)
    }).passthrough(),
    cli_flags: z.array(CliFlagSchema),
    agents: z.array(AgentInfoSchema),
    protected_paths: ProtectedPathsSchema,
    skill_packs: z.array(SkillPackSchema),
    compatibility: z.object({
        current_schema_version: z.number().int(),
        supported_schema_versions: z.array(z.number().int()),
        deprecated_schema_versions: z.array(z.number().int())
    }).passthrough()
}).passthrough();

// ----------------------------------------------------------------------------------------------
// --print-state [light] (CONTRACT §2.5)

/** One sandy image present locally (full mode only; light mode always reports `[]`). */
export interface InstalledImage {
    name: string;
    id: string;
    created: string;
}

export const InstalledImageSchema: z.ZodType<InstalledImage, z.ZodTypeDef, unknown> = z.object({
    name: z.string(),
    id: z.string(),
    created: z.string()
}).passthrough();

/** One `$SANDY_HOME/sandboxes/<name>/` directory. All keys are always present in 1.7.1. */
export interface Sandbox {
    /** `<sanitised workspace basename>-<sha256(workspace)[0:8]>`: the stable key (CONTRACT §5.1). */
    name: string;
    path: string;
    /**
     * From WORKSPACE.json; `""` without a marker (sandy 2.x reports null there: parsed as `""`). Truncated
     * at the first `"` of the real path (CONTRACT D2), so never key on it.
     */
    workspace_path: string;
    /** null when `workspace_path` is `""`; a false `false` when the path was truncated (D2). Since 1.7.1. */
    workspace_exists?: boolean | null;
    /** `""` when absent — and forever after `--reset-sandbox` (D13). */
    created_version: string;
    last_used_version: string;
    /** Marker mtime in LOCAL time with a literal `Z` (D3): use parseSandyLocalTimestamp. `""` when absent. */
    created_at: string;
    last_used_at: string;
    /** Bytes in full mode; null in light mode. Since 1.7.1. */
    size_bytes?: number | null;
    /** `.handoff-enabled` operator marker exists. Since 1.7.0. */
    handoff_enabled?: boolean;
    lock_held: boolean;
    /**
     * Content of `.lock/pid` as a STRING: `"27950"`, `"garbage"`, or `""` (no pid file yet); null
     * without a lock dir (D8). Use lockHolderPid() for a number.
     */
    lock_holder_pid: string | null;
    /** `kill -0` of a numeric pid; null when there is no lock or the pid is not numeric. */
    lock_holder_alive: boolean | null;
}

export const SandboxSchema: z.ZodType<Sandbox, z.ZodTypeDef, unknown> = z.object({
    name: z.string(),
    path: z.string(),
    workspace_path: z.string().nullable().transform(v => v ?? ''),
    workspace_exists: z.boolean().nullable().optional(),
    created_version: z.string(),
    last_used_version: z.string(),
    created_at: z.string(),
    last_used_at: z.string(),
    size_bytes: z.number().nullable().optional(),
    handoff_enabled: z.boolean().optional(),
    lock_held: z.boolean(),
    lock_holder_pid: z.string().nullable(),
    lock_holder_alive: z.boolean().nullable()
}).passthrough();

/** One `approvals/passive-<h16>.list` (Dockerfile approvals are not reported). Missing parts are `""`. */
export interface Approval {
    /** 16 hex from the file name; its first 8 are the sandbox name's hash suffix. */
    workspace_hash: string;
    workspace_path_hint: string;
    approved_keys_sha256: string;
    approved_at: string;
}

export const ApprovalSchema: z.ZodType<Approval, z.ZodTypeDef, unknown> = z.object({
    workspace_hash: z.string(),
    workspace_path_hint: z.string(),
    approved_keys_sha256: z.string(),
    approved_at: z.string()
}).passthrough();

/** One `docker ps` row that looks like sandy's (agent container or proxy sidecar). */
export interface RunningContainer {
    /** 12-char container id. */
    id: string;
    name: string;
    image: string;
    /** Docker's CreatedAt text, `2026-11-30 09:58:38 +0000 UTC` (D8): use parseDockerCreatedAt. */
    started_at: string;
    /**
     * The sandbox this container serves (`sandy.session` label, else the name minus `sandy-proxy-`/
     * `sandy-`). Since 1.1 (with `daemon`, `attached_clients`); containerSandboxName() derives it for 1.0.
     */
    sandbox?: string;
    /** Label `sandy.daemon=true`. */
    daemon?: boolean;
    /** tmux clients attached; null for non-daemon rows or when the probe failed. */
    attached_clients?: number | null;
    /** Label `sandy.updated_at`, or null. */
    updated_at?: string | null;
    /** Full mode only: the image has been rebuilt since this container started. Since 1.2. */
    image_stale?: boolean | null;
}

export const RunningContainerSchema: z.ZodType<RunningContainer, z.ZodTypeDef, unknown> = z.object({
    id: z.string(),
    name: z.string(),
    image: z.string(),
    started_at: z.string(),
    sandbox: z.string().optional(),
    daemon: z.boolean().optional(),
    attached_clients: z.number().nullable().optional(),
    updated_at: z.string().nullable().optional(),
    image_stale: z.boolean().nullable().optional()
}).passthrough();

/** `--print-state` (full) and `--print-state light`; light mode nulls the expensive fields. */
export interface SandyState {
    schema_version: number;
    /** `$SANDY_HOME` as given, not canonicalised. */
    sandy_home: string;
    /** `SANDY_HOST_ID` if valid, else `uname -n`, else null. Since 1.7.1. */
    host_id?: string | null;
    host_id_source?: OpenString<'env' | 'hostname'> | null;
    /** Always `[]` in light mode. */
    installed_images: InstalledImage[];
    sandboxes: Sandbox[];
    approvals: Approval[];
    /** `docker ps` succeeded. */
    docker_reachable: boolean;
    /** null when Docker is unreachable. */
    running_containers: RunningContainer[] | null;
    /** null when Docker is unreachable. Since 1.0.1. */
    orphan_networks?: number | null;
    /** Always null in light mode. */
    dangling_images?: number | null;
    /** Always null in light mode. */
    orphaned_containers?: number | null;
    /** Always null in light mode. */
    proxy_image_created?: string | null;
}

export const SandyStateSchema: z.ZodType<SandyState, z.ZodTypeDef, unknown> = z.object({
    schema_version: z.number().int(),
    sandy_home: z.string(),
    host_id: z.string().nullable().optional(),
    host_id_source: z.string().nullable().optional(),
    installed_images: z.array(InstalledImageSchema),
    sandboxes: z.array(SandboxSchema),
    approvals: z.array(ApprovalSchema),
    docker_reachable: z.boolean(),
    running_containers: z.array(RunningContainerSchema).nullable(),
    orphan_networks: z.number().nullable().optional(),
    dangling_images: z.number().nullable().optional(),
    orphaned_containers: z.number().nullable().optional(),
    proxy_image_created: z.string().nullable().optional()
}).passthrough();

// ----------------------------------------------------------------------------------------------
// --validate-config PATH (CONTRACT §2.6)

export const KNOWN_APPROVAL_STATUSES = ['none_required', 'pending', 'approved'] as const;
export type KnownApprovalStatus = typeof KNOWN_APPROVAL_STATUSES[number];

export const KNOWN_SOURCE_TIERS = ['privileged', 'passive'] as const;
export type KnownSourceTier = typeof KNOWN_SOURCE_TIERS[number];

export interface ValidateConfigWarning {
    key: string;
    /** Contains U+2014 (em dash). */
    message: string;
    /** Always `"warning"` in 1.7.1. */
    severity: string;
}

export const ValidateConfigWarningSchema: z.ZodType<ValidateConfigWarning, z.ZodTypeDef, unknown> = z.object({
    key: z.string(),
    message: z.string(),
    severity: z.string()
}).passthrough();

/**
 * `--validate-config PATH`. It does NO value validation: `errors` only ever holds
 * `"file does not exist: <path>"` (CONTRACT §0.2), and `approval_status` can disagree with what a launch
 * does (§0.3, D4).
 */
export interface ValidateConfigResult {
    schema_version: number;
    /** Canonicalised; `/<basename>` when the directory does not exist (D5). */
    path: string;
    /** `privileged` only for exactly `$SANDY_HOME/config` or `/.secrets` (D6). */
    source_tier: OpenString<KnownSourceTier>;
    errors: string[];
    warnings: ValidateConfigWarning[];
    unknown_keys: string[];
    privileged_keys_requiring_approval: string[];
    approval_status: OpenString<KnownApprovalStatus>;
    /** null when no approval is required. */
    approval_file_path: string | null;
}

export const ValidateConfigResultSchema: z.ZodType<ValidateConfigResult, z.ZodTypeDef, unknown> = z.object({
    schema_version: z.number().int(),
    path: z.string(),
    source_tier: z.string(),
    errors: z.array(z.string()),
    warnings: z.array(ValidateConfigWarningSchema),
    unknown_keys: z.array(z.string()),
    privileged_keys_requiring_approval: z.array(z.string()),
    approval_status: z.string(),
    approval_file_path: z.string().nullable()
}).passthrough();

// ----------------------------------------------------------------------------------------------
// Parsing

const EXCERPT_RADIUS = 32;

/** Renders text so every byte that would not show on a terminal is visible: ESC → `\x1b`. */
export function escapePrintable(text: string): string {
    let out = '';
    for (const ch of text) {
        const c = ch.codePointAt(0)!;
        if (ch === '\\') {
            out += '\\\\';
        } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            out += `\\x${c.toString(16).padStart(2, '0')}`;
        } else if (c === 0x2028 || c === 0x2029 || c === 0xfeff) {
            out += `\\u${c.toString(16).padStart(4, '0')}`;
        } else {
            out += ch;
        }
    }
    return out;
}

function utf8Length(text: string): number {
    let n = 0;
    for (const ch of text) {
        const c = ch.codePointAt(0)!;
        n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    }
    return n;
}

/** Where JSON.parse gave up, in UTF-16 units: V8 says "at position N", Firefox "line L column C". */
function errorIndex(message: string, text: string): number | undefined {
    const pos = /position (\d+)/.exec(message);
    if (pos) {
        return Math.min(Number(pos[1]), text.length);
    }
    if (/unexpected end/i.test(message)) {
        return text.length;
    }
    const lc = /line (\d+) column (\d+)/.exec(message);
    if (lc) {
        const lines = text.split('\n');
        const line = Number(lc[1]) - 1;
        if (line < lines.length) {
            return lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + Number(lc[2]) - 1;
        }
    }
    return undefined;
}

const BAD_CONTROL_RE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/**
 * Parses the stdout of an introspection flag as exactly one JSON document. Never throws anything but a
 * SandyError: `invalid-json` with the offending bytes (printable-escaped) and their byte offset. The
 * common cause is CONTRACT D1: sandy does not escape control characters, so an ESC in a workspace path
 * yields invalid JSON with exit 0 and an empty stderr.
 */
export function parseSandyJson(text: string, what: string): unknown {
    if (text.trim() === '') {
        throw new SandyError('invalid-json', `sandy ${what} printed nothing.`,
            `Run \`sandy ${what}\` in a terminal to see what it does.`, { offset: 0, excerpt: '' });
    }
    try {
        return JSON.parse(text);
    } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const parserIndex = errorIndex(message, text);
        // A raw control character is invalid anywhere in JSON, so the first one is at or before the
        // parser's complaint; prefer it because some engines report no position or a later token.
        const control = BAD_CONTROL_RE.exec(text);
        const atControl = !!control && (parserIndex === undefined || control.index <= parserIndex);
        const index = atControl ? control!.index : (parserIndex ?? 0);
        const start = Math.max(0, index - EXCERPT_RADIUS);
        const end = Math.min(text.length, index + EXCERPT_RADIUS);
        const excerpt = `${start > 0 ? '…' : ''}${escapePrintable(text.slice(start, end))}${end < text.length ? '…' : ''}`;
        const offset = utf8Length(text.slice(0, index));
        const hint = atControl
            ? 'A control character in a path (usually a workspace folder name) breaks sandy\'s JSON (sandy does not escape it). ' +
              'Rename that folder, or remove its sandbox with `sandy --remove-sandbox`.'
            : `Run \`sandy ${what}\` in a terminal to see its output; report it to sandy if it persists.`;
        throw new SandyError('invalid-json', `sandy ${what} printed invalid JSON at byte ${offset}: "${excerpt}"`, hint,
            { offset, excerpt });
    }
}

/** A zod issue path as `a.b[2].c` (`(root)` for the value itself). */
export function formatIssuePath(path: ReadonlyArray<string | number>): string {
    let out = '';
    for (const p of path) {
        out += typeof p === 'number' ? `[${p}]` : (out ? `.${p}` : p);
    }
    return out || '(root)';
}

/** Validates parsed JSON against a schema; a mismatch is `invalid-output` naming the first issues' paths. */
export function validateSandyOutput<T>(value: unknown, schema: z.ZodType<T, z.ZodTypeDef, unknown>, what: string): T {
    const result = schema.safeParse(value);
    if (result.success) {
        return result.data;
    }
    const issues = result.error.issues.slice(0, 3).map(i => `${formatIssuePath(i.path)}: ${i.message}`);
    const more = result.error.issues.length > 3 ? ` (+${result.error.issues.length - 3} more)` : '';
    throw new SandyError('invalid-output', `sandy ${what} printed JSON of an unexpected shape — ${issues.join('; ')}${more}.`,
        'This sandy may be newer or older than sandy-ui understands. Check the version in the Sandy output channel; update sandy or sandy-ui.',
        { excerpt: issues.join('; ') });
}

export function parsePrintVersion(text: string): PrintVersion {
    return validateSandyOutput(parseSandyJson(text, '--print-version'), PrintVersionSchema, '--print-version');
}

export function parsePrintSchema(text: string): SandySchema {
    return validateSandyOutput(parseSandyJson(text, '--print-schema'), SandySchemaSchema, '--print-schema');
}

export function parsePrintState(text: string): SandyState {
    return validateSandyOutput(parseSandyJson(text, '--print-state'), SandyStateSchema, '--print-state');
}

export function parseValidateConfig(text: string): ValidateConfigResult {
    return validateSandyOutput(parseSandyJson(text, '--validate-config'), ValidateConfigResultSchema, '--validate-config');
}

/**
 * stdout of `sandy --version` / `-v` (`sandy <full_version>\n`, guaranteed on every sandy) → the
 * full_version, or undefined when the line is not that (e.g. some other program named sandy).
 */
export function parseVersionLine(stdout: string): string | undefined {
    const first = stdout.replace(/^\s+/, '').split(/\r?\n/, 1)[0];
    const match = /^sandy\s+(\S+)\s*$/.exec(first);
    return match ? match[1] : undefined;
}

// ----------------------------------------------------------------------------------------------
// Normalising helpers (values sandy spells loosely)

/**
 * `lock_holder_pid` as a number: undefined for null (no lock), `""` (lock dir without pid — briefly
 * during acquisition, or left behind) and non-numeric content such as `"garbage"`.
 */
export function lockHolderPid(sandbox: Pick<Sandbox, 'lock_holder_pid'>): number | undefined {
    const raw = sandbox.lock_holder_pid;
    if (raw === null || !/^\d+$/.test(raw)) {
        return undefined;
    }
    const pid = Number(raw);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * The lock is provably stale: held, numeric pid, and `kill -0` failed. This is the only case sandy itself
 * takes over (fx 51); an empty or non-numeric pid is never treated as stale.
 */
export function isStaleLock(sandbox: Pick<Sandbox, 'lock_held' | 'lock_holder_alive'>): boolean {
    return sandbox.lock_held && sandbox.lock_holder_alive === false;
}

/** The sandbox a container serves; derived from its name for sandy 1.0, which had no `sandbox` column. */
export function containerSandboxName(container: Pick<RunningContainer, 'sandbox' | 'name'>): string {
    if (container.sandbox) {
        return container.sandbox;
    }
    for (const prefix of ['sandy-proxy-', 'sandy-']) {
        if (container.name.startsWith(prefix)) {
            return container.name.slice(prefix.length);
        }
    }
    return container.name;
}

/** A proxy sidecar row (its own non-daemon row with the same `sandbox`). */
export function isProxyContainer(container: Pick<RunningContainer, 'name'>): boolean {
    return container.name.startsWith('sandy-proxy-');
}

function fractionToMs(fraction: string | undefined): number {
    return fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
}

function validParts(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
    return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && s <= 60;
}

/**
 * `created_at` / `last_used_at`: a marker's mtime in the LOCAL time of the machine sandy ran on, with a
 * literal `Z` appended (CONTRACT D3; GNU adds nanoseconds, BSD none). The `Z` is a lie, so the fields are
 * read as local wall-clock time. `""` (no marker) and anything else unparseable → undefined.
 */
export function parseSandyLocalTimestamp(text: string): Date | undefined {
    const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z?$/.exec(text.trim());
    if (!m) {
        return undefined;
    }
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
    if (!validParts(y, mo, d, h, mi, s)) {
        return undefined;
    }
    const date = new Date(y, mo - 1, d, h, mi, s, fractionToMs(m[7]));
    return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * `running_containers[].started_at`: Docker's `{{.CreatedAt}}` text, `2026-11-30 09:58:38 +0000 UTC`
 * (sometimes with fractional seconds), not ISO-8601. An ISO string is accepted too, in case sandy
 * starts normalising it.
 */
export function parseDockerCreatedAt(text: string): Date | undefined {
    const t = text.trim();
    const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? ([+-])(\d{2}):?(\d{2})(?: \S+)?$/.exec(t);
    if (m) {
        const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
        if (!validParts(y, mo, d, h, mi, s)) {
            return undefined;
        }
        const offsetMin = (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
        return new Date(Date.UTC(y, mo - 1, d, h, mi, s, fractionToMs(m[7])) - offsetMin * 60_000);
    }
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(t)) {
        const ms = Date.parse(t);
        return Number.isNaN(ms) ? undefined : new Date(ms);
    }
    return undefined;
}
