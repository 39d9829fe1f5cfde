/**
 * Pre-flight analysis of a workspace before sandy-ui launches sandy in it: which privileged keys the
 * launch will ask about, whether they are already approved, and what will make sandy refuse to start.
 *
 * The approval status is computed the LAUNCHER's way (sandy:5888-6030, CONTRACT §4.1), not
 * `--validate-config`'s, because they disagree (CONTRACT §0.3): the launcher hashes the union of
 * `.sandy/config` and `.sandy/.secrets`, strips the CR of CRLF lines and skips keys already set in its
 * environment; `--validate-config` does none of that.
 *
 * Pure: SHA-256 is injected (src/node passes node:crypto), file texts are read by the caller.
 */
import { isSecretKey } from '../sandy/contract';
import { classifySandboxVersion, sandboxMarkerVersion } from '../sandy/version';
import { compareCodePoints, parseApprovalFile } from './approval-diff';
import {
    ConfigDiagnostic, ConfigDocument, ConfigKeyLike, diagnoseConfigFile, findEntries, misplacedKeysInSecrets, parseConfigFile
} from './config-file';

/** Hex SHA-256 of the UTF-8 encoding of `text` (what `printf '%s' "$text" | sha256sum` prints). */
export type Sha256Hex = (text: string) => string;

/**
 * Passive keys whose VALUE weakens isolation; from a workspace file they need approval like a
 * privileged key (`_sandy_passive_value_privileged`, sandy:132-140).
 */
export const WEAKENING_VALUES: Readonly<Record<string, string>> = {
    SANDY_EGRESS_NO_ISOLATION: '1',
    SANDY_EGRESS_STRICT: '0',
    SANDY_EGRESS_PROXY: '0',
    SANDY_ALLOW_WORKFLOW_EDIT: '1'
};

/** Whether `key=value` from a workspace file is approval-gated although `key` is passive. */
export function isWeakeningValue(key: string, value: string): boolean {
    return Object.prototype.hasOwnProperty.call(WEAKENING_VALUES, key) && WEAKENING_VALUES[key] === value;
}

/** Secret keys (schema `type: "secret"`, CONTRACT §3.3); used when the caller passes no schema key objects. */
export const KNOWN_SECRET_KEYS: readonly string[] = [
    'ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'GEMINI_API_KEY', 'OPENAI_API_KEY',
    'XAI_API_KEY', 'GOOGLE_API_KEY', 'TELEGRAM_BOT_TOKEN', 'DISCORD_BOT_TOKEN'
];

/** `sandy --validate-config PATH` output (CONTRACT §2.6), as a local "like" type. */
export interface ValidateConfigResultLike {
    readonly schema_version: number;
    readonly path: string;
    readonly source_tier: string;
    readonly errors: readonly string[];
    readonly warnings: readonly { readonly key: string; readonly message: string; readonly severity: string }[];
    readonly unknown_keys: readonly string[];
    readonly privileged_keys_requiring_approval: readonly string[];
    readonly approval_status: string;
    readonly approval_file_path: string | null;
}

/** The four files sandy loads, in load order (sandy:5934-5937). */
export type ConfigFileRole = 'home-config' | 'home-secrets' | 'workspace-config' | 'workspace-secrets';

export const CONFIG_FILE_ROLES: readonly ConfigFileRole[] = ['home-config', 'home-secrets', 'workspace-config', 'workspace-secrets'];

/** One config file as read from disk. */
export interface PreflightFileInput {
    readonly path: string;
    /** undefined when the file does not exist (or is not a regular file: sandy's `[ -f ]`). */
    readonly text: string | undefined;
    /** The bytes were not valid UTF-8 (then `text` holds U+FFFD replacements). */
    readonly invalidUtf8?: boolean;
}

export interface PreflightSchemaInput {
    /** `config.privileged_keys[].name`. */
    readonly privilegedKeys: readonly string[];
    /** `config.passive_keys[].name`; with `envOnlyKeys`, lets unknown keys be found in all four files. */
    readonly passiveKeys?: readonly string[];
    /** `config.env_only_keys[].name`. */
    readonly envOnlyKeys?: readonly string[];
    /** All key objects; used for `isSecret` and misplaced keys in `.secrets`. */
    readonly keys?: readonly ConfigKeyLike[];
}

export interface SandboxCompatInput {
    /** `sandboxes[].created_version`; `""` when the marker is missing; undefined when there is no sandbox yet. */
    readonly createdVersion: string | undefined;
    /** `sandy.sandbox_min_compat` from `--print-schema` (e.g. `"0.7.10"`). */
    readonly sandboxMinCompat: string;
    /** The sandbox directory, for the remediation text. */
    readonly sandboxPath?: string;
}

export interface PreflightInput {
    /** Canonical workspace path (`pwd -P`): sandy hashes exactly this string. */
    readonly workspacePath: string;
    /** `$SANDY_HOME` as sandy will see it (not canonicalised: sandy does not either). */
    readonly sandyHome: string;
    readonly homeConfig?: PreflightFileInput;
    readonly homeSecrets?: PreflightFileInput;
    readonly workspaceConfig?: PreflightFileInput;
    readonly workspaceSecrets?: PreflightFileInput;
    readonly schema: PreflightSchemaInput;
    /**
     * Privileged/passive keys set NON-EMPTY in sandy's launch environment (see {@link envSetKeysFrom});
     * the loader skips them in every file.
     */
    readonly envSetKeys?: readonly string[];
    /** `SANDY_ALLOW_LAN_HOSTS` from the launch environment, if set; checked like a file value. */
    readonly envLanHosts?: string;
    /** Text of the approval file at {@link approvalFilePathFor}; undefined when it does not exist. */
    readonly approvalFileText?: string;
    /** Parsed `--validate-config` results for any of the files (usually both workspace files). */
    readonly validateResults?: readonly ValidateConfigResultLike[];
    readonly sandbox?: SandboxCompatInput;
}

/** A privileged key (or weakening value) the launch will put into the approval set. */
export interface PendingPrivilegedEntry {
    readonly key: string;
    /** The line exactly as in the file, without its line ending. */
    readonly rawLine: string;
    /** The value as sandy reads it (CR and quotes stripped). */
    readonly value: string;
    readonly source: 'config' | 'secrets';
    readonly filePath: string;
    /** 1-based. */
    readonly line: number;
    readonly isSecret: boolean;
    readonly reason: 'privileged-key' | 'weakening-value';
    /** The `KEY=VALUE` line sandy hashes. */
    readonly approvalLine: string;
}

/** A key found at a place in a file. */
export interface LocatedKey {
    readonly key: string;
    readonly role: ConfigFileRole;
    readonly filePath: string;
    /** 1-based; undefined when only known from a `--validate-config` result. */
    readonly line: number | undefined;
}

export interface WorldOpenLanFinding {
    /** The offending comma-separated entry, whitespace removed (as sandy compares it). */
    readonly entry: string;
    readonly role: ConfigFileRole | 'env';
    readonly filePath: string | undefined;
    readonly line: number | undefined;
    /** sandy itself refuses this spelling (`0.0.0.0/0`, `::/0`); other spellings it would apply. */
    readonly sandyRefuses: boolean;
    /** The file value is shadowed by the launch environment, so sandy will not load it this time. */
    readonly shadowedByEnv: boolean;
    readonly message: string;
    readonly remediation: string;
}

export type SandboxCompatStatus = 'new' | 'ok' | 'below-floor' | 'unknown' | 'invalid';

export interface SandboxCompatResult {
    readonly status: SandboxCompatStatus;
    /** `refusal`: sandy will exit 1 (fx 57); `info`/`warning`: sandy warns and launches. */
    readonly severity: 'none' | 'info' | 'warning' | 'refusal';
    readonly createdVersion: string | undefined;
    readonly minCompat: string;
    readonly message?: string;
    /** Set whenever the user should act: the label of the action is "Rebuild sandbox". */
    readonly remediation?: string;
}

/**
 * `none_required` / `approved` / `pending` as sandy's launcher decides. (The IDE never launches with
 * SANDY_AUTO_APPROVE_PRIVILEGED, so the launcher's bypass is not modelled.)
 */
export type LauncherApprovalStatus = 'none_required' | 'approved' | 'pending';

export interface PreflightFileReport {
    readonly role: ConfigFileRole;
    readonly path: string;
    readonly exists: boolean;
    readonly diagnostics: readonly ConfigDiagnostic[];
    /** A file-level problem (not UTF-8), as a sentence with what to do. */
    readonly problem?: string;
}

export interface PreflightReport {
    readonly workspacePath: string;
    readonly pendingPrivileged: readonly PendingPrivilegedEntry[];
    /** Workspace privileged lines the loader skips because the launch environment sets the key. */
    readonly skippedForEnv: readonly LocatedKey[];
    /** Sorted-unique `KEY=VALUE` lines, the launcher's approval set. */
    readonly approvalSet: readonly string[];
    /** sha256 of the approval set; undefined when nothing is pending. */
    readonly approvalSetHash: string | undefined;
    readonly approvalFilePath: string;
    /** Line 1 of the approval file, when it exists. */
    readonly approvedSetHash: string | undefined;
    /** Approved key names listed in the approval file. */
    readonly approvedKeys: readonly string[];
    /** sandy's approval file as read for this report (for the diff of names), when it exists. */
    readonly approvalFileText?: string;
    readonly approvalStatus: LauncherApprovalStatus;
    readonly unknownKeys: readonly LocatedKey[];
    readonly envOnlyKeys: readonly LocatedKey[];
    /** Non-secret schema keys in a `.secrets` file (they override `config`). */
    readonly misplacedInSecrets: readonly LocatedKey[];
    readonly worldOpenLan: readonly WorldOpenLanFinding[];
    readonly sandboxCompat: SandboxCompatResult | undefined;
    readonly files: readonly PreflightFileReport[];
    /** Errors reported by `--validate-config` (only ever "file does not exist", CONTRACT §0.2). */
    readonly validatorErrors: readonly string[];
    /** Where `--validate-config` disagrees with the launcher, and why. */
    readonly validatorNotes: readonly string[];
    /** sandy will refuse to launch (world-open LAN entry it loads, sandbox below the compat floor). */
    readonly blocking: boolean;
}

/** `SANDY_HOME="${SANDY_HOME:-$HOME/.sandy}"` (sandy:150): an empty value means the default. */
export function sandyHomeFromEnv(env: Readonly<Record<string, string | undefined>>): string | undefined {
    if (env.SANDY_HOME) {
        return env.SANDY_HOME;
    }
    return env.HOME === undefined ? undefined : `${env.HOME}/.sandy`;
}

/**
 * The privileged/passive keys sandy will treat as "set by the environment" and skip in every file
 * (`_sandy_snapshot_env_keys`, sandy:5870-5886): non-empty values only, except `SANDY_VERBOSE`, which
 * counts whenever it is defined at all (sandy:3129).
 */
export function envSetKeysFrom(env: Readonly<Record<string, string | undefined>>, schema: PreflightSchemaInput): string[] {
    const candidates = [...schema.privilegedKeys, ...(schema.passiveKeys ?? [])];
    return candidates.filter(k => k === 'SANDY_VERBOSE' ? env[k] !== undefined : !!env[k]);
}

/** `$SANDY_HOME/approvals/passive-<sha256(workspace)[0:16]>.list`, by plain concatenation as sandy does. */
export function approvalFilePathFor(sandyHome: string, workspacePath: string, sha256Hex: Sha256Hex): string {
    return `${sandyHome}/approvals/passive-${sha256Hex(workspacePath).slice(0, 16)}.list`;
}

export interface WorkspaceFilesForApproval {
    readonly config?: { readonly path: string; readonly doc: ConfigDocument };
    readonly secrets?: { readonly path: string; readonly doc: ConfigDocument };
}

/**
 * The workspace lines the launcher queues for approval (`_PASSIVE_PRIVILEGED_PENDING`): every line of
 * `.sandy/config`, then `.sandy/.secrets`, whose key is privileged or whose value weakens isolation,
 * minus keys set in the launch environment. Duplicates are kept (each line is in the set).
 */
export function collectPendingPrivileged(
    files: WorkspaceFilesForApproval,
    privilegedKeys: readonly string[],
    envSetKeys: readonly string[] = [],
    secretKeys: readonly string[] = KNOWN_SECRET_KEYS
): { pending: PendingPrivilegedEntry[]; skippedForEnv: LocatedKey[] } {
    const privileged = new Set(privilegedKeys);
    const envSet = new Set(envSetKeys);
    const secrets = new Set(secretKeys);
    const pending: PendingPrivilegedEntry[] = [];
    const skippedForEnv: LocatedKey[] = [];
    for (const source of ['config', 'secrets'] as const) {
        const file = files[source];
        if (!file) {
            continue;
        }
        file.doc.lines.forEach((line, index) => {
            if (line.kind !== 'entry') {
                return;
            }
            const weakening = isWeakeningValue(line.key, line.value);
            if (!weakening && !privileged.has(line.key)) {
                return;
            }
            if (envSet.has(line.key)) {
                skippedForEnv.push({ key: line.key, role: `workspace-${source}`, filePath: file.path, line: index + 1 });
                return;
            }
            pending.push({
                key: line.key,
                rawLine: line.text,
                value: line.value,
                source,
                filePath: file.path,
                line: index + 1,
                isSecret: secrets.has(line.key),
                // sandy tests the weakening value first (sandy:5918), but both lead to the same queue.
                reason: privileged.has(line.key) ? 'privileged-key' : 'weakening-value',
                approvalLine: `${line.key}=${line.value}`
            });
        });
    }
    return { pending, skippedForEnv };
}

/** `printf '%s\n' "${pending[@]}" | sort -u` under the C / C.UTF-8 locale (byte order). */
export function approvalSetLines(pending: readonly { readonly approvalLine: string }[]): string[] {
    return [...new Set(pending.map(p => p.approvalLine))].sort(compareCodePoints);
}

/** The exact text sandy hashes: the sorted lines joined by LF, no trailing newline (`$(…)` drops it). */
export function approvalSetText(pending: readonly { readonly approvalLine: string }[]): string {
    return approvalSetLines(pending).join('\n');
}

/**
 * Per key, the text to hash for sandy-ui's value memory: that key's sorted-unique approval lines
 * joined by LF, so duplicate lines and a key in both files are covered.
 */
export function approvalTextByKey(pending: readonly { readonly key: string; readonly approvalLine: string }[]): Record<string, string> {
    const byKey: Record<string, string> = {};
    const keys = [...new Set(pending.map(p => p.key))];
    for (const key of keys) {
        byKey[key] = approvalSetText(pending.filter(p => p.key === key));
    }
    return byKey;
}

/** World-open entries of a `SANDY_ALLOW_LAN_HOSTS` value. */
export function findWorldOpenLanEntries(value: string): { entry: string; sandyRefuses: boolean }[] {
    const found: { entry: string; sandyRefuses: boolean }[] = [];
    for (const part of value.split(',')) {
        // sandy: `tr -d '[:space:]'` per entry, then an exact `case` on 0.0.0.0/0 | ::/0 (sandy:6186-6195).
        const entry = part.replace(/[ \t\n\v\f\r]/g, '');
        if (!entry) {
            continue;
        }
        const sandyRefuses = entry === '0.0.0.0/0' || entry === '::/0';
        if (sandyRefuses || hasZeroLengthPrefix(entry)) {
            found.push({ entry, sandyRefuses });
        }
    }
    return found;
}

/**
 * Any address with a zero-length mask covers every address, and `iptables -d` accepts all of these
 * spellings: `0/0`, `1.2.3.4/0`, `0.0.0.0/0.0.0.0`, `::0/0`, `[::]/0`. sandy only catches two of them.
 */
function hasZeroLengthPrefix(entry: string): boolean {
    const slash = entry.lastIndexOf('/');
    if (slash < 0) {
        return false;
    }
    const mask = entry.slice(slash + 1);
    return /^0+$/.test(mask) || /^0+(\.0+){3}$/.test(mask) || (/^[0:]+$/.test(mask) && mask.includes(':'));
}

/**
 * The launch gate's view of the sandbox: `classifySandboxVersion` (the one classification, shared with
 * the project state) plus what to tell the user.
 */
export function classifySandboxCompat(input: SandboxCompatInput): SandboxCompatResult {
    const { sandboxMinCompat: minCompat } = input;
    const where = input.sandboxPath ? ` (${input.sandboxPath})` : '';
    if (input.createdVersion === undefined) {
        return { status: 'new', severity: 'none', createdVersion: undefined, minCompat };
    }
    const version = sandboxMarkerVersion(input.createdVersion);
    const rebuild = `Rebuild sandbox: remove it${where} with "sandy --remove-sandbox" (or "rm -rf" it) and launch again; sandy creates a fresh one.`;
    switch (classifySandboxVersion(input.createdVersion, minCompat)) {
        case 'unknown':
            return {
                status: 'unknown', severity: 'info', createdVersion: input.createdVersion, minCompat,
                message: `The sandbox's creation version is unknown (.sandy_created_version is missing, e.g. after --reset-sandbox). sandy will warn on every launch; if it predates sandy ${minCompat}, cached paths may be broken.`,
                remediation: `If you hit path problems: ${rebuild}`
            };
        case 'invalid':
            return {
                status: 'invalid', severity: 'warning', createdVersion: input.createdVersion, minCompat,
                message: `The sandbox's creation version "${version}" is not a version number. sandy will warn and launch anyway.`,
                remediation: rebuild
            };
        case 'below-floor':
            return {
                status: 'below-floor', severity: 'refusal', createdVersion: input.createdVersion, minCompat,
                message: `The sandbox was created by sandy ${version}, below the compatibility floor ${minCompat}. sandy refuses to launch against it.`,
                remediation: rebuild
            };
        case 'ok':
            return { status: 'ok', severity: 'none', createdVersion: input.createdVersion, minCompat };
    }
}

/** Analyses a workspace the way sandy's launcher will see it. `sha256Hex` comes from src/node. */
export function analyzePreflight(input: PreflightInput, sha256Hex: Sha256Hex): PreflightReport {
    const docs = new Map<ConfigFileRole, { path: string; doc: ConfigDocument }>();
    const files: PreflightFileReport[] = [];
    const fileInputs: Record<ConfigFileRole, PreflightFileInput | undefined> = {
        'home-config': input.homeConfig,
        'home-secrets': input.homeSecrets,
        'workspace-config': input.workspaceConfig,
        'workspace-secrets': input.workspaceSecrets
    };
    for (const role of CONFIG_FILE_ROLES) {
        const file = fileInputs[role];
        if (!file) {
            continue;
        }
        if (file.text === undefined) {
            files.push({ role, path: file.path, exists: false, diagnostics: [] });
            continue;
        }
        const doc = parseConfigFile(file.text);
        docs.set(role, { path: file.path, doc });
        files.push({
            role, path: file.path, exists: true, diagnostics: diagnoseConfigFile(doc),
            problem: file.invalidUtf8
                ? `${file.path} is not valid UTF-8. sandy's grep stops reading it at the first line with an invalid byte. Re-save it as UTF-8.`
                : undefined
        });
    }

    const schema = input.schema;
    const envSetKeys = input.envSetKeys ?? [];
    const secretKeys = schema.keys ? schema.keys.filter(k => isSecretKey(k)).map(k => k.name) : KNOWN_SECRET_KEYS;
    const { pending, skippedForEnv } = collectPendingPrivileged(
        { config: docs.get('workspace-config'), secrets: docs.get('workspace-secrets') },
        schema.privilegedKeys, envSetKeys, secretKeys
    );
    const approvalSet = approvalSetLines(pending);
    const approvalSetHash = pending.length ? sha256Hex(approvalSet.join('\n')) : undefined;
    const approvalFilePath = approvalFilePathFor(input.sandyHome, input.workspacePath, sha256Hex);
    const approvalInfo = input.approvalFileText === undefined ? undefined : parseApprovalFile(input.approvalFileText);
    let approvalStatus: LauncherApprovalStatus;
    if (!pending.length) {
        approvalStatus = 'none_required';
    } else {
        approvalStatus = approvalInfo?.setHash === approvalSetHash ? 'approved' : 'pending';
    }

    const { unknownKeys, envOnlyKeys } = classifyKeys(docs, input);
    const misplacedInSecrets: LocatedKey[] = [];
    if (schema.keys) {
        for (const role of ['home-secrets', 'workspace-secrets'] as const) {
            const file = docs.get(role);
            for (const m of file ? misplacedKeysInSecrets(file.doc, schema.keys) : []) {
                misplacedInSecrets.push({ key: m.key, role, filePath: file!.path, line: m.line });
            }
        }
    }

    const worldOpenLan = findWorldOpenLan(docs, envSetKeys, input.envLanHosts);
    const sandboxCompat = input.sandbox ? classifySandboxCompat(input.sandbox) : undefined;
    const { validatorErrors, validatorNotes } = compareWithValidator(input, {
        approvalStatus, approvalFilePath, pending, skippedForEnv
    });
    return {
        workspacePath: input.workspacePath,
        pendingPrivileged: pending,
        skippedForEnv,
        approvalSet,
        approvalSetHash,
        approvalFilePath,
        approvedSetHash: approvalInfo?.setHash,
        approvedKeys: approvalInfo?.keys ?? [],
        approvalFileText: input.approvalFileText,
        approvalStatus,
        unknownKeys,
        envOnlyKeys,
        misplacedInSecrets,
        worldOpenLan,
        sandboxCompat,
        files,
        validatorErrors,
        validatorNotes,
        blocking: worldOpenLan.some(f => !f.shadowedByEnv) || sandboxCompat?.severity === 'refusal'
    };
}

function classifyKeys(
    docs: Map<ConfigFileRole, { path: string; doc: ConfigDocument }>,
    input: PreflightInput
): { unknownKeys: LocatedKey[]; envOnlyKeys: LocatedKey[] } {
    const unknownKeys: LocatedKey[] = [];
    const envOnlyKeys: LocatedKey[] = [];
    const { schema } = input;
    if (schema.passiveKeys && schema.envOnlyKeys) {
        const known = new Set([...schema.privilegedKeys, ...schema.passiveKeys]);
        const envOnly = new Set(schema.envOnlyKeys);
        for (const [role, file] of docs) {
            file.doc.lines.forEach((line, index) => {
                if (line.kind !== 'entry' || known.has(line.key)) {
                    return;
                }
                const located = { key: line.key, role, filePath: file.path, line: index + 1 };
                (envOnly.has(line.key) ? envOnlyKeys : unknownKeys).push(located);
            });
        }
        return { unknownKeys, envOnlyKeys };
    }
    // Without the key lists, fall back to what --validate-config found, placed in our files.
    for (const result of input.validateResults ?? []) {
        const secrets = /(^|\/)\.secrets$/.test(result.path);
        const home = result.source_tier === 'privileged';
        const role: ConfigFileRole = `${home ? 'home' : 'workspace'}-${secrets ? 'secrets' : 'config'}`;
        const file = docs.get(role);
        const locate = (key: string): LocatedKey => ({
            key, role, filePath: file?.path ?? result.path, line: file ? findEntries(file.doc, key)[0]?.lineNumber : undefined
        });
        unknownKeys.push(...result.unknown_keys.map(locate));
        envOnlyKeys.push(...result.warnings.filter(w => w.message.startsWith('env-only')).map(w => locate(w.key)));
    }
    return { unknownKeys, envOnlyKeys };
}

function findWorldOpenLan(
    docs: Map<ConfigFileRole, { path: string; doc: ConfigDocument }>,
    envSetKeys: readonly string[],
    envLanHosts: string | undefined
): WorldOpenLanFinding[] {
    const found: WorldOpenLanFinding[] = [];
    const shadowedByEnv = envSetKeys.includes('SANDY_ALLOW_LAN_HOSTS');
    const describe = (entry: string, sandyRefuses: boolean, where: string) => ({
        message: `SANDY_ALLOW_LAN_HOSTS in ${where} contains the world-open entry "${entry}". `
            + (sandyRefuses
                ? 'sandy refuses to launch with it.'
                : 'sandy does not catch this spelling and would open LAN isolation to every address.'),
        remediation: `Remove "${entry}" from SANDY_ALLOW_LAN_HOSTS in ${where} and list only the LAN hosts the agent needs (for example 192.168.1.20/32).`
    });
    for (const [role, file] of docs) {
        file.doc.lines.forEach((line, index) => {
            if (line.kind !== 'entry' || line.key !== 'SANDY_ALLOW_LAN_HOSTS') {
                return;
            }
            for (const { entry, sandyRefuses } of findWorldOpenLanEntries(line.value)) {
                found.push({
                    entry, role, filePath: file.path, line: index + 1, sandyRefuses, shadowedByEnv,
                    ...describe(entry, sandyRefuses, `${file.path} line ${index + 1}`)
                });
            }
        });
    }
    if (envLanHosts) {
        for (const { entry, sandyRefuses } of findWorldOpenLanEntries(envLanHosts)) {
            found.push({
                entry, role: 'env', filePath: undefined, line: undefined, sandyRefuses, shadowedByEnv: false,
                ...describe(entry, sandyRefuses, 'the launch environment')
            });
        }
    }
    return found;
}

function compareWithValidator(
    input: PreflightInput,
    launcher: { approvalStatus: LauncherApprovalStatus; approvalFilePath: string; pending: PendingPrivilegedEntry[]; skippedForEnv: LocatedKey[] }
): { validatorErrors: string[]; validatorNotes: string[] } {
    const validatorErrors: string[] = [];
    const validatorNotes: string[] = [];
    for (const result of input.validateResults ?? []) {
        validatorErrors.push(...result.errors);
        if (result.source_tier !== 'passive' || result.errors.length) {
            continue;
        }
        const ours = launcher.approvalStatus;
        if (result.approval_status !== ours) {
            const reasons: string[] = [];
            const sources = new Set(launcher.pending.map(p => p.source));
            if (sources.size > 1) {
                reasons.push('it hashes one file while the launcher hashes .sandy/config and .sandy/.secrets together');
            }
            if (launcher.pending.some(p => p.rawLine.endsWith('\r')) || hasCrlfEntries(input)) {
                reasons.push('it keeps the CR of CRLF lines, which the launcher strips');
            }
            if (launcher.skippedForEnv.length) {
                reasons.push('it counts keys the launch environment sets, which the launcher skips');
            }
            validatorNotes.push(
                `sandy --validate-config says "${result.approval_status}" for ${result.path}, the launcher will say "${ours}"`
                + (reasons.length ? `: ${reasons.join('; ')}.` : '.')
            );
        }
        // Which keys: a weakening value on a CRLF line (`SANDY_ALLOW_WORKFLOW_EDIT=1<CR>`) is missed by
        // the validator but asked for by the launcher (fx 15b vs 37).
        const source = /(^|\/)\.secrets$/.test(result.path) ? 'secrets' : 'config';
        const launcherKeys = new Set(launcher.pending.filter(p => p.source === source).map(p => p.key));
        const theirKeys = new Set(result.privileged_keys_requiring_approval);
        const missed = [...launcherKeys].filter(k => !theirKeys.has(k));
        if (missed.length) {
            validatorNotes.push(
                `sandy --validate-config does not list ${missed.join(', ')} for ${result.path}, but the launcher will ask to approve `
                + `${missed.length > 1 ? 'them' : 'it'} (the validator keeps the CR of CRLF lines, so weakening values go unnoticed).`
            );
        }
        if (result.approval_file_path && launcher.pending.length && result.approval_file_path !== launcher.approvalFilePath) {
            validatorNotes.push(
                `sandy --validate-config uses the approval file ${result.approval_file_path}, the launcher ${launcher.approvalFilePath}; `
                + 'check that SANDY_HOME and the workspace path are the ones the launch will use.'
            );
        }
    }
    return { validatorErrors, validatorNotes };
}

function hasCrlfEntries(input: PreflightInput): boolean {
    return [input.workspaceConfig?.text, input.workspaceSecrets?.text].some(t => t !== undefined && /^[A-Z_]+=[^\n]*\r\n/m.test(t));
}
