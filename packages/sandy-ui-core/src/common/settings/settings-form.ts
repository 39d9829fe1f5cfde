/**
 * The settings editor's model: the DTO the backend sends (a snapshot of both scopes' files, secrets
 * reduced to "set / not set"), the field descriptors derived from `--print-schema`, value validation
 * the way sandy will judge the value at launch, and the per-scope edit state that becomes the exact
 * `{key, value}` edits for `config` and `.secrets`.
 *
 * Why the validation lives here: `sandy --validate-config` checks no values at all (CONTRACT §0.2);
 * bad enums, patterns and agent lists only surface as a fatal `exit 1` at the next launch (§3.4). So
 * the form checks what sandy will check, and a field that would be refused cannot be saved — without
 * stopping the other fields from saving.
 *
 * Pure and browser-safe: the Theia widget and the VS Code webview both run it in the frontend.
 */
import { ConfigKey, SandySchema } from '../sandy/contract';
import { boolSpelling, ConfigEdit, formatValue, LOADER_KEY_PATTERN } from '../config/config-file';
import { findWorldOpenLanEntries, isWeakeningValue } from '../config/preflight';

// ----------------------------------------------------------------------------------------------
// The DTO (backend → frontend)

/** Project = `<workspace>/.sandy/{config,.secrets}`; Global = `~/.sandy/{config,.secrets}`. */
export type SettingsScope = 'project' | 'global';

/** Tab order; Project is the default tab when a workspace is open. */
export const SETTINGS_SCOPES: readonly SettingsScope[] = ['project', 'global'];

/** The two files of a scope. sandy loads `.secrets` after `config`, so `.secrets` wins for a key in both. */
export type SettingsFileKind = 'config' | 'secrets';

/**
 * Where the snapshot's schema came from: sandy's own `--print-schema`, the bundled fallback because
 * sandy's answer was unusable (too old, invalid JSON, …), or the bundled fallback because no sandy
 * executable was found.
 */
export type SettingsSchemaSource = 'sandy' | 'fallback' | 'missing';

/** A user-facing failure: what happened, and what to do next. */
export interface SettingsProblem {
    message: string;
    hint?: string;
}

/** A schema key found in the file the form does not write it to. */
export interface SettingsMisplacedKey {
    key: string;
    /**
     * The file it sits in: `secrets` for a non-secret key in `.secrets` (it silently overrides the
     * `config` value the form writes), `config` for a secret in `config` (where it is more likely to
     * be committed, and where a form "Clear" would not reach it).
     */
    file: SettingsFileKind;
    /** 1-based line of the (last) occurrence. */
    line?: number;
}

/**
 * One scope's files as the backend read them. Secret VALUES are never part of it: the frontend
 * learns only which secrets are set, and sends write-only updates.
 */
export interface SettingsScopeData {
    /**
     * Effective values of the NON-secret schema keys set in this scope (`.secrets` over `config`, as
     * sandy loads them), plus env-only keys found in the files. Never a `type: "secret"` key.
     */
    values: Record<string, string>;
    /** `type: "secret"` keys set (non-empty line) in either file of this scope. */
    secretsSet: Record<string, boolean>;
    /** Names of keys in the files that the schema does not know. Names only: they may sit in `.secrets`. */
    unknownKeys: string[];
    /** Schema keys in the other file than the one the form writes (see {@link SettingsMisplacedKey}). */
    misplaced: SettingsMisplacedKey[];
    filePaths: { config: string; secrets: string };
    /** Whether each file exists; absent = unknown. */
    fileExists?: { config: boolean; secrets: boolean };
    /** Files that cannot be read or rewritten (not UTF-8, a NUL byte, permissions). */
    problems?: SettingsProblem[];
}

/** A workspace `.secrets` that git would not ignore (the committed-credentials footgun). */
export interface SettingsGitignoreWarning {
    /** The workspace `.secrets` path. */
    path: string;
    /** The file exists now (otherwise the warning matters once a project secret is saved). */
    exists: boolean;
    /** git already tracks it: `.gitignore` alone does not help, it has to be `git rm --cached`. */
    tracked: boolean;
}

/** Everything the settings editor shows, in one message from the backend. */
export interface SettingsSnapshot {
    /** Always present: sandy's schema, or the bundled fallback (see `schemaSource`). */
    schema: SandySchema;
    schemaSource: SettingsSchemaSource;
    /** Why sandy's own schema is not used (not found, too old, invalid output). */
    sandyProblem?: SettingsProblem;
    /** `project` is absent when no workspace folder is open. */
    scopes: { project?: SettingsScopeData; global: SettingsScopeData };
    /** The workspace the project scope edits; a different one drops the project scope's pending edits. */
    workspace?: string;
    gitignoreWarning?: SettingsGitignoreWarning;
    /**
     * Privileged / passive keys set non-empty in the environment sandy is launched with. sandy skips
     * such keys in every file (CONTRACT §3.1 "Environment wins"), so the form marks them.
     */
    envSet?: string[];
}

/** What the frontend asks the backend to write for one scope. Secrets travel only this way: write-only. */
export interface SettingsEdits {
    config: ConfigEdit[];
    secrets: ConfigEdit[];
}

/** The backend's answer to a save. */
export interface SettingsSaveResult {
    ok: boolean;
    /** `sandy --validate-config` on the saved files, as display lines (see {@link describeValidateResult}). */
    validateVerdict?: string[];
    /** Keys that did not read back as written (another program wrote in between). Names only. */
    mismatches?: string[];
    /** Files whose permissions the save tightened (a `.secrets` readable by others became 0600). */
    modeFixes?: SettingsModeFix[];
    error?: SettingsProblem;
}

/** A file whose mode a save changed: sandy-ui keeps `.secrets` at 0600 (owner read/write only). */
export interface SettingsModeFix {
    path: string;
    /** Permission bits before, e.g. 0o644. */
    from: number;
    to: number;
}

/** The sentence the settings editor (and the log) shows for a {@link SettingsModeFix}. */
export function describeModeFix(fix: SettingsModeFix): string {
    const octal = (mode: number) => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;
    const others = fix.from & 0o077 ? ' (other users could read it)' : '';
    return `${fix.path} had mode ${octal(fix.from)}${others}; it is now ${octal(fix.to)}, readable and writable by you only.`;
}

// ----------------------------------------------------------------------------------------------
// Field descriptors

/** How a field is edited. */
export type SettingsWidget = 'text' | 'number' | 'select' | 'toggle' | 'secret' | 'agents' | 'path';

/** The schema's three key lists; env-only keys are shown for information and cannot be edited. */
export type SettingsTier = 'privileged' | 'passive' | 'env-only';

/** Group order in the form. */
export const SETTINGS_TIERS: readonly SettingsTier[] = ['privileged', 'passive', 'env-only'];

/** Headings and one-line explanations of the tiers (CONTRACT §3.3). */
export const SETTINGS_TIER_INFO: Readonly<Record<SettingsTier, { title: string; description: string }>> = {
    privileged: {
        title: 'Privileged',
        description: 'Applied from your home config. Set in a project, they wait for your approval at the next launch.'
    },
    passive: {
        title: 'Passive',
        description: 'Safe to set per project. A few values that weaken isolation still need approval from a project.'
    },
    'env-only': {
        title: 'Environment only (read-only)',
        description: 'sandy reads these only from its environment; a line in a config file is ignored.'
    }
};

/** One editable (or read-only) key. */
export interface SettingsField {
    readonly kind: 'field';
    readonly key: string;
    /** The schema's type, verbatim (may be one this UI does not know). */
    readonly type: string;
    readonly widget: SettingsWidget;
    readonly tier: SettingsTier;
    /** The file edits go to: `secrets` exactly for `type: "secret"` (as {@link routeKey}). */
    readonly file: SettingsFileKind;
    /** Env-only keys, and keys sandy's loader cannot read from a file. */
    readonly readOnly: boolean;
    readonly description?: string;
    /** The schema default (a string, even for ints and bools). */
    readonly default?: string;
    readonly since?: string;
    readonly stability?: string;
    /** `select`: the allowed values. */
    readonly choices?: readonly string[];
    /** `agents`: the agent names offered as checkboxes. */
    readonly agents?: readonly string[];
    /** `toggle`: the spelling sandy tests for this key (`true`/`false` or `1`/`0`). */
    readonly boolValues?: { readonly on: string; readonly off: string };
    /** The schema pattern, verbatim (POSIX ERE). */
    readonly pattern?: string;
    /** The pattern translated to a JS RegExp source; absent when it could not be translated. */
    readonly jsPattern?: string;
    readonly min?: number;
    readonly max?: number;
    /** `path`: what the picker chooses. */
    readonly pathKind?: 'folder' | 'file';
    /** Shown next to the control: the type is not one this UI knows, so it is edited as text. */
    readonly hint?: string;
    /** Things the user should know about the field itself (an uncheckable pattern, a read-only reason). */
    readonly notes: readonly string[];
    /** Lower-cased text the filter box searches. */
    readonly search: string;
}

/** A schema key whose descriptor could not be built; rendered as an error row, never fatal to the form. */
export interface SettingsBrokenField {
    readonly kind: 'broken';
    readonly key: string;
    readonly tier: SettingsTier;
    readonly error: string;
}

/** A row of the form: a field, or the error row of a key that could not be described. */
export type SettingsEntry = SettingsField | SettingsBrokenField;

/** The keys of one tier, with the heading and explanation shown above them. */
export interface SettingsGroup {
    readonly tier: SettingsTier;
    readonly title: string;
    readonly description: string;
    readonly entries: readonly SettingsEntry[];
}

/** The scope-independent part of the form: one entry per schema key, grouped by tier. */
export interface SettingsFieldSet {
    readonly groups: readonly SettingsGroup[];
    readonly entries: readonly SettingsEntry[];
    readonly fields: ReadonlyMap<string, SettingsField>;
    /** Problems with the schema as a whole (no key lists). */
    readonly problems: readonly SettingsProblem[];
}

/** Agents sandy 1.7.1 accepts in `SANDY_AGENT` (sandy:6384-6388). */
export const SANDY_AGENT_NAMES: readonly string[] = ['claude', 'gemini', 'codex', 'opencode', 'grok'];
/** What `SANDY_AGENT=all` expands to (sandy:6374): grok is not part of it. */
export const SANDY_AGENT_ALL: readonly string[] = ['claude', 'gemini', 'codex', 'opencode'];
/** The multi-agent tmux layout is a 2x2 grid (sandy:6399-6403). */
export const SANDY_AGENT_MAX = 4;

function str(value: unknown): string | undefined {
    if (typeof value === 'string') {
        return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
        return String(value);
    }
    return undefined;
}

function num(value: unknown): number | undefined {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    return Number.isFinite(n) ? n : undefined;
}

function stringList(value: unknown): string[] | undefined {
    return Array.isArray(value) && value.every(v => typeof v === 'string') ? value as string[] : undefined;
}

/** The agent names a `SANDY_AGENT` checkbox group offers: sandy's list plus any the schema adds. */
export function agentNamesOf(schema: Pick<SandySchema, 'agents'> | undefined): string[] {
    const names = [...SANDY_AGENT_NAMES];
    const agents = Array.isArray(schema?.agents) ? schema!.agents : [];
    for (const agent of agents) {
        const name = str((agent as { name?: unknown })?.name);
        // A comma could not be represented in a comma-joined list.
        if (name && !name.includes(',') && name.trim() === name && !names.includes(name)) {
            names.push(name);
        }
    }
    return names;
}

/**
 * Builds the field descriptors for every key of the schema. Never throws: a key whose descriptor
 * cannot be built becomes a {@link SettingsBrokenField}; a key listed in two tiers is shown once (first).
 */
export function buildSettingsFields(schema: SandySchema): SettingsFieldSet {
    const problems: SettingsProblem[] = [];
    const config = (schema as Partial<SandySchema> | undefined)?.config as Partial<SandySchema['config']> | undefined;
    const lists: Record<SettingsTier, unknown> = {
        privileged: config?.privileged_keys,
        passive: config?.passive_keys,
        'env-only': config?.env_only_keys
    };
    let agents: string[];
    try {
        agents = agentNamesOf(schema);
    } catch {
        agents = [...SANDY_AGENT_NAMES];
    }
    const seen = new Set<string>();
    const entries: SettingsEntry[] = [];
    const fields = new Map<string, SettingsField>();
    const groups: SettingsGroup[] = [];
    for (const tier of SETTINGS_TIERS) {
        const list = lists[tier];
        if (!Array.isArray(list)) {
            if (list !== undefined || tier !== 'env-only') {
                problems.push({
                    message: `The schema has no list of ${SETTINGS_TIER_INFO[tier].title.toLowerCase()} keys.`,
                    hint: 'Those settings are not shown. Open the config file in the editor to change them.'
                });
            }
            continue;
        }
        const groupEntries: SettingsEntry[] = [];
        list.forEach((raw, index) => {
            const entry = buildEntry(raw, tier, index, agents);
            if (seen.has(entry.key)) {
                return;
            }
            seen.add(entry.key);
            groupEntries.push(entry);
            entries.push(entry);
            if (entry.kind === 'field') {
                fields.set(entry.key, entry);
            }
        });
        groups.push({ tier, ...SETTINGS_TIER_INFO[tier], entries: groupEntries });
    }
    return { groups, entries, fields, problems };
}

function buildEntry(raw: unknown, tier: SettingsTier, index: number, agents: readonly string[]): SettingsEntry {
    let key = `(key ${index + 1})`;
    try {
        const name = str((raw as { name?: unknown } | null)?.name);
        if (!name) {
            return { kind: 'broken', key, tier, error: 'The schema lists a key without a name.' };
        }
        key = name;
        return buildField(raw as ConfigKey & Record<string, unknown>, name, tier, agents);
    } catch (e) {
        return { kind: 'broken', key, tier, error: `This setting cannot be shown: ${e instanceof Error ? e.message : String(e)}` };
    }
}

function buildField(raw: ConfigKey & Record<string, unknown>, key: string, tier: SettingsTier, agents: readonly string[]): SettingsField {
    const type = str(raw.type) ?? '';
    const description = str(raw.description);
    const defaultValue = str(raw.default);
    const since = str(raw.since);
    const stability = str(raw.stability);
    const pattern = str(raw.pattern);
    const notes: string[] = [];
    let widget: SettingsWidget;
    let hint: string | undefined;
    let choices: string[] | undefined;
    let boolValues: { on: string; off: string } | undefined;
    let pathKind: 'folder' | 'file' | undefined;
    let min: number | undefined;
    let max: number | undefined;
    switch (type) {
        case 'string':
            widget = 'text';
            break;
        case 'int':
            widget = 'number';
            // Not emitted by sandy 1.7.1 (CONTRACT D9) but in the spec's example: honour them when they come.
            min = num(raw.min);
            max = num(raw.max);
            break;
        case 'bool': {
            widget = 'toggle';
            const [on, off] = boolSpelling({ name: key, type, default: defaultValue });
            boolValues = { on, off };
            break;
        }
        case 'enum':
            choices = stringList(raw.choices);
            if (choices && choices.length) {
                widget = 'select';
            } else {
                widget = 'text';
                notes.push('The schema lists no choices for this setting, so it is edited as text.');
            }
            break;
        case 'secret':
            widget = 'secret';
            break;
        case 'agent_combo':
            widget = 'agents';
            break;
        case 'path':
            widget = 'path';
            pathKind = /(_DIRS?|_FOLDERS?)$/.test(key) || /\b(directory|folder)\b/i.test(description ?? '') ? 'folder' : 'file';
            break;
        default:
            widget = 'text';
            hint = type
                ? `Type "${type}" is not recognised by this version of sandy-ui; the value is edited as plain text.`
                : 'This setting has no type in the schema; the value is edited as plain text.';
    }
    let jsPattern: string | undefined;
    if (pattern !== undefined) {
        const converted = posixPatternToJs(pattern);
        if (converted.ok) {
            jsPattern = converted.source;
        } else {
            notes.push(`The schema pattern ${pattern} cannot be checked here (${converted.reason}); sandy checks it at launch.`);
        }
    }
    let readOnly = false;
    if (tier === 'env-only') {
        readOnly = true;
        notes.push('Set it in the environment sandy is started from; sandy ignores it in config files.');
    } else if (!LOADER_KEY_PATTERN.test(key)) {
        readOnly = true;
        notes.push('sandy\'s config loader only reads keys made of A-Z and _, so this key cannot be set in a file.');
    }
    const file: SettingsFileKind = type === 'secret' ? 'secrets' : 'config';
    const search = [key, type, description ?? '', stability ?? ''].join('\n').toLowerCase();
    return {
        kind: 'field', key, type, widget, tier, file, readOnly, description, default: defaultValue, since, stability,
        choices, agents: widget === 'agents' ? agents : undefined, boolValues, pattern, jsPattern, min, max, pathKind,
        hint, notes, search
    };
}

// ----------------------------------------------------------------------------------------------
// POSIX ERE patterns

/** POSIX character classes as JS class contents (ASCII, as in the C locale sandy's checks effectively use). */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
    alnum: 'A-Za-z0-9',
    alpha: 'A-Za-z',
    digit: '0-9',
    upper: 'A-Z',
    lower: 'a-z',
    space: ' \\t\\n\\r\\f\\v',
    blank: ' \\t',
    xdigit: '0-9A-Fa-f',
    punct: '!-\\/:-@\\[-`{-~',
    cntrl: '\\x00-\\x1f\\x7f',
    print: '\\x20-\\x7e',
    graph: '\\x21-\\x7e'
};

/** A translated pattern, or why it could not be translated. */
export type PosixPatternResult =
    | { readonly ok: true; readonly source: string; readonly regex: RegExp }
    | { readonly ok: false; readonly reason: string };

/**
 * Translates a schema pattern (a POSIX ERE for bash's `=~`) into a JS RegExp. Inside bracket
 * expressions `[[:space:]]`-style classes are expanded, a backslash is literal (as in POSIX) and a
 * leading `]` is a literal `]`. Collating elements (`[.x.]`, `[=x=]`) and anything JS cannot compile
 * give `ok: false`; the caller then skips the check rather than guessing. Never throws.
 */
export function posixPatternToJs(pattern: string): PosixPatternResult {
    let out = '';
    let i = 0;
    while (i < pattern.length) {
        const c = pattern[i];
        if (c === '\\') {
            out += pattern.slice(i, i + 2);
            i += 2;
            continue;
        }
        if (c !== '[') {
            out += c;
            i++;
            continue;
        }
        let j = i + 1;
        let cls = '[';
        if (pattern[j] === '^') {
            cls += '^';
            j++;
        }
        if (pattern[j] === ']') {
            cls += '\\]';
            j++;
        }
        let closed = false;
        while (j < pattern.length) {
            const d = pattern[j];
            if (d === ']') {
                cls += ']';
                j++;
                closed = true;
                break;
            }
            if (d === '[' && pattern[j + 1] === ':') {
                const end = pattern.indexOf(':]', j + 2);
                if (end < 0) {
                    return { ok: false, reason: 'unterminated [: class' };
                }
                const name = pattern.slice(j + 2, end);
                const expansion = POSIX_CLASSES[name];
                if (expansion === undefined) {
                    return { ok: false, reason: `unknown character class [:${name}:]` };
                }
                cls += expansion;
                j = end + 2;
                continue;
            }
            if (d === '[' && (pattern[j + 1] === '.' || pattern[j + 1] === '=')) {
                return { ok: false, reason: 'collating elements are not supported' };
            }
            // Literal in a POSIX bracket expression, special in a JS class.
            cls += d === '\\' || d === '[' ? `\\${d}` : d;
            j++;
        }
        if (!closed) {
            return { ok: false, reason: 'unterminated [' };
        }
        out += cls;
        i = j;
    }
    try {
        return { ok: true, source: out, regex: new RegExp(out) };
    } catch (e) {
        return { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }
}

// ----------------------------------------------------------------------------------------------
// Validation

/**
 * Splits a `SANDY_AGENT` value the way sandy does (`IFS=',' read -ra`: a single trailing comma is
 * dropped, other empty entries are kept and then rejected), expanding `all`.
 */
export function parseAgentCombo(value: string): string[] {
    if (value === 'all') {
        return [...SANDY_AGENT_ALL];
    }
    if (value === '') {
        return [];
    }
    const parts = value.split(',');
    if (parts.length > 1 && parts[parts.length - 1] === '') {
        parts.pop();
    }
    return parts;
}

/** sandy's launch-time check of `SANDY_AGENT` (sandy:6372-6404); undefined when sandy accepts it. */
export function validateAgentCombo(value: string, known: readonly string[] = SANDY_AGENT_NAMES): string | undefined {
    if (value === 'both') {
        return 'sandy no longer accepts "both". Pick the agents, e.g. claude and gemini.';
    }
    // Empty means "not set": sandy falls back to claude.
    const agents = parseAgentCombo(value);
    const seen = new Set<string>();
    for (const agent of agents) {
        if (!known.includes(agent)) {
            return `"${agent}" is not an agent sandy knows (valid: ${known.join(', ')}, or a comma-separated combination).`;
        }
        if (seen.has(agent)) {
            return `"${agent}" is listed twice.`;
        }
        seen.add(agent);
    }
    if (agents.length > SANDY_AGENT_MAX) {
        return `At most ${SANDY_AGENT_MAX} agents per session (the multi-agent layout is a 2x2 grid); ${agents.length} are selected.`;
    }
    return undefined;
}

/**
 * The `SANDY_AGENT` value after ticking or unticking one agent. The user's order is kept (the first
 * agent gets the first pane); `all` is expanded first. `''` when none is left (= not set).
 */
export function toggleAgent(value: string | undefined, agent: string, on: boolean): string {
    const agents = parseAgentCombo(value ?? '').filter(a => a !== agent);
    if (on) {
        agents.push(agent);
    }
    return agents.join(',');
}

/** Checks sandy makes at launch beyond the schema (CONTRACT §3.4). */
const LAUNCH_CHECKS: Readonly<Record<string, (value: string) => string | undefined>> = {
    // The schema pattern is looser than the launch check (CONTRACT D10).
    SANDY_LOCAL_LLM_HOST: value => {
        if (!/^[A-Za-z0-9._-]+:[0-9]+$/.test(value)) {
            return 'sandy only accepts host:port with letters, digits, ".", "_" or "-" in the host (e.g. 127.0.0.1:11434).';
        }
        const colon = value.lastIndexOf(':');
        const host = value.slice(0, colon);
        const port = Number(value.slice(colon + 1));
        if (host === '0.0.0.0') {
            return 'The host 0.0.0.0 is world-open; sandy refuses it. Use the address the LLM server listens on.';
        }
        if (port < 1 || port > 65535) {
            return `Port ${value.slice(colon + 1)} is out of range (1-65535).`;
        }
        return undefined;
    },
    SANDY_ALLOW_LAN_HOSTS: value => {
        const open = findWorldOpenLanEntries(value);
        if (!open.length) {
            return undefined;
        }
        const refused = open.find(o => o.sandyRefuses);
        return refused
            ? `${refused.entry} opens every address; sandy refuses to launch with it. List the hosts or subnets you need.`
            : `${open[0].entry} has a zero-length mask and opens every address. List the hosts or subnets you need.`;
    }
};

/**
 * Why sandy would not accept `value` for `field`, or undefined. Checks that the value can be written
 * at all (one line, no NUL), then the type: pattern for strings, whole numbers (and min/max) for ints,
 * the choices for enums, the key's own on/off spelling for bools, sandy's agent rules for agent
 * combos, plus the launch checks sandy makes for a few keys.
 */
export function validateFieldValue(field: SettingsField, value: string): string | undefined {
    const formatted = formatValue(value);
    if (!formatted.ok) {
        return `This value ${formatted.reason}.`;
    }
    switch (field.widget) {
        case 'number': {
            if (!/^-?[0-9]+$/.test(value)) {
                return 'Enter a whole number (digits only).';
            }
            const n = Number(value);
            if (field.min !== undefined && n < field.min) {
                return `The smallest allowed value is ${field.min}.`;
            }
            if (field.max !== undefined && n > field.max) {
                return `The largest allowed value is ${field.max}.`;
            }
            break;
        }
        case 'select':
            if (!field.choices!.includes(value)) {
                return `"${value}" is not one of ${field.choices!.join(', ')}.`;
            }
            break;
        case 'toggle':
            if (value !== field.boolValues!.on && value !== field.boolValues!.off) {
                return `sandy only understands ${field.boolValues!.on} (on) or ${field.boolValues!.off} (off) for this setting.`;
            }
            break;
        case 'agents': {
            const problem = validateAgentCombo(value, field.agents ?? SANDY_AGENT_NAMES);
            if (problem) {
                return problem;
            }
            break;
        }
    }
    if (field.jsPattern !== undefined) {
        let matches = true;
        try {
            matches = new RegExp(field.jsPattern).test(value);
        } catch {
            // Compiled once already in posixPatternToJs; never trust that enough to crash a form.
        }
        if (!matches) {
            return `The value does not match the pattern ${field.pattern}.`;
        }
    }
    const launchCheck = Object.prototype.hasOwnProperty.call(LAUNCH_CHECKS, field.key) ? LAUNCH_CHECKS[field.key] : undefined;
    return launchCheck?.(value);
}

// ----------------------------------------------------------------------------------------------
// One scope's form

/** Scope-dependent inputs of {@link buildSettingsForm}. */
export interface SettingsFormOptions {
    /** Default 'global'. The project scope adds approval notes. */
    scope?: SettingsScope;
    /** See {@link SettingsSnapshot.envSet}. */
    envSet?: readonly string[];
    /** Names listed in `SANDY_EXTRA_ENV` (any scope): unknown keys with these names are forwarded, not stray. */
    extraEnvNames?: readonly string[];
    /** Reuse descriptors already built from the same schema. */
    fieldSet?: SettingsFieldSet;
}

/** An unknown key in the scope's files. */
export interface SettingsUnknownKey {
    readonly key: string;
    /** Named in `SANDY_EXTRA_ENV`: sandy forwards it into the container, so it is not a mistake. */
    readonly forwarded: boolean;
}

/** The descriptors plus one scope's files. */
export interface SettingsForm extends SettingsFieldSet {
    readonly scope: SettingsScope;
    readonly data: SettingsScopeData;
    readonly unknownKeys: readonly SettingsUnknownKey[];
    readonly envSet: ReadonlySet<string>;
}

function emptyScopeData(): SettingsScopeData {
    return { values: {}, secretsSet: {}, unknownKeys: [], misplaced: [], filePaths: { config: '', secrets: '' } };
}

/** Makes a scope DTO from the wire safe to read (any part may be missing or of the wrong shape). */
export function normalizeScopeData(data: Partial<SettingsScopeData> | undefined): SettingsScopeData {
    const base = emptyScopeData();
    if (!data || typeof data !== 'object') {
        return base;
    }
    const values: Record<string, string> = {};
    if (data.values && typeof data.values === 'object') {
        for (const [k, v] of Object.entries(data.values)) {
            if (typeof v === 'string') {
                values[k] = v;
            }
        }
    }
    const secretsSet: Record<string, boolean> = {};
    if (data.secretsSet && typeof data.secretsSet === 'object') {
        for (const [k, v] of Object.entries(data.secretsSet)) {
            secretsSet[k] = v === true;
        }
    }
    return {
        values,
        secretsSet,
        unknownKeys: stringList(data.unknownKeys) ?? [],
        misplaced: Array.isArray(data.misplaced)
            ? data.misplaced.filter(m => m && typeof m.key === 'string' && (m.file === 'config' || m.file === 'secrets'))
            : [],
        filePaths: {
            config: str(data.filePaths?.config) ?? '',
            secrets: str(data.filePaths?.secrets) ?? ''
        },
        fileExists: data.fileExists,
        problems: Array.isArray(data.problems) ? data.problems.filter(p => p && typeof p.message === 'string') : undefined
    };
}

/**
 * The form for one scope: every schema key as a field (or an error row), grouped by tier, with this
 * scope's unknown keys. Never throws.
 */
export function buildSettingsForm(schema: SandySchema, scopeData: SettingsScopeData, options: SettingsFormOptions = {}): SettingsForm {
    const fieldSet = options.fieldSet ?? buildSettingsFields(schema);
    const data = normalizeScopeData(scopeData);
    const forwarded = new Set(options.extraEnvNames ?? []);
    return {
        ...fieldSet,
        scope: options.scope ?? 'global',
        data,
        unknownKeys: data.unknownKeys.map(key => ({ key, forwarded: forwarded.has(key) })),
        envSet: new Set(options.envSet ?? [])
    };
}

/** Names in a `SANDY_EXTRA_ENV` value (comma-separated; sandy trims nothing but skips empty names). */
export function extraEnvNames(value: string | undefined): string[] {
    return (value ?? '').split(',').map(s => s.trim()).filter(Boolean);
}

// ----------------------------------------------------------------------------------------------
// Edit state

/** A pending change of one key: a new value, or removal from this scope's files. */
export type PendingEdit =
    | { readonly kind: 'set'; readonly value: string }
    | { readonly kind: 'clear' };

/** What the form shows for one field in one scope. */
export interface SettingsFieldStatus {
    /** The value shown: the pending one, else the file's; undefined = not set here. Never a secret's. */
    readonly value: string | undefined;
    /** Set in this scope's files now (before pending edits). */
    readonly inFile: boolean;
    /** Secrets: set after the pending edit is saved. */
    readonly secretSet: boolean;
    readonly pending: PendingEdit | undefined;
    readonly dirty: boolean;
    /** Why sandy would refuse the shown value (a pending one cannot be saved while this is set). */
    readonly error: string | undefined;
    /** Misplacement, environment override, ignored env-only line. */
    readonly warnings: readonly string[];
    /** Project scope: the value will be approval-gated at the next launch. */
    readonly needsApproval: boolean;
}

/** The outcome of {@link ScopeFormState.toEdits}. */
export interface SettingsEditPlan {
    readonly scope: SettingsScope;
    readonly edits: SettingsEdits;
    /** Keys included in `edits`. */
    readonly keys: readonly string[];
    /** Changed keys held back, each with the reason; the other keys still save. */
    readonly blocked: readonly { readonly key: string; readonly message: string }[];
    /** The exact pending edits the plan was made from, so a save commits only those. */
    readonly basis: ReadonlyMap<string, PendingEdit>;
}

/**
 * One scope's pending edits over the scope's files. Edits are keyed by name, so a new snapshot (after
 * a save, or a change on disk) keeps them; an edit that the files now already match disappears.
 */
export class ScopeFormState {
    protected readonly pendingEdits = new Map<string, PendingEdit>();
    protected currentForm: SettingsForm | undefined;

    constructor(readonly scope: SettingsScope) { }

    /** Undefined until a snapshot with this scope arrived (or while it has none, e.g. no workspace). */
    get form(): SettingsForm | undefined {
        return this.currentForm;
    }

    /** Takes a new form for this scope, dropping edits the files now already match. */
    setForm(form: SettingsForm | undefined): void {
        this.currentForm = form;
        if (!form) {
            return;
        }
        for (const [key, edit] of [...this.pendingEdits]) {
            if (this.isNoop(key, edit)) {
                this.pendingEdits.delete(key);
            }
        }
    }

    protected field(key: string): SettingsField | undefined {
        return this.currentForm?.fields.get(key);
    }

    protected misplacedOf(key: string): SettingsMisplacedKey | undefined {
        return this.currentForm?.data.misplaced.find(m => m.key === key);
    }

    /** The file's value (non-secrets). */
    baselineValue(key: string): string | undefined {
        const values = this.currentForm?.data.values;
        return values && Object.prototype.hasOwnProperty.call(values, key) ? values[key] : undefined;
    }

    /** Set in this scope's files before pending edits. */
    isInFile(key: string): boolean {
        const data = this.currentForm?.data;
        if (!data) {
            return false;
        }
        return this.field(key)?.file === 'secrets'
            ? data.secretsSet[key] === true || data.misplaced.some(m => m.key === key)
            : this.baselineValue(key) !== undefined;
    }

    protected isNoop(key: string, edit: PendingEdit): boolean {
        const field = this.field(key);
        if (edit.kind === 'clear') {
            return !this.isInFile(key) && !this.misplacedOf(key);
        }
        // A secret's value is unknown here, so setting one is never a no-op; nor is a non-secret one that
        // also sits misplaced in `.secrets` (saving moves it).
        return field?.file !== 'secrets' && !this.misplacedOf(key) && this.baselineValue(key) === edit.value;
    }

    /** Sets `key` to `value` in this scope (an empty string is written as `KEY=""`). */
    set(key: string, value: string): void {
        const edit: PendingEdit = { kind: 'set', value };
        if (this.currentForm && this.isNoop(key, edit)) {
            this.pendingEdits.delete(key);
        } else {
            this.pendingEdits.set(key, edit);
        }
    }

    /** Removes `key` from this scope's files on save (for a secret: from `.secrets`, and from `config` if it sits there). */
    clear(key: string): void {
        const edit: PendingEdit = { kind: 'clear' };
        if (this.currentForm && this.isNoop(key, edit)) {
            this.pendingEdits.delete(key);
        } else {
            this.pendingEdits.set(key, edit);
        }
    }

    /** Discards the pending edit of `key`. */
    revert(key: string): void {
        this.pendingEdits.delete(key);
    }

    /** Discards every pending edit of this scope. */
    revertAll(): void {
        this.pendingEdits.clear();
    }

    pending(key: string): PendingEdit | undefined {
        return this.pendingEdits.get(key);
    }

    isDirty(key: string): boolean {
        return this.pendingEdits.has(key);
    }

    get dirty(): boolean {
        return this.pendingEdits.size > 0;
    }

    dirtyKeys(): string[] {
        return [...this.pendingEdits.keys()];
    }

    /** The value the form shows for a non-secret key (pending, else the file's); undefined = not set here. */
    value(key: string): string | undefined {
        const edit = this.pendingEdits.get(key);
        if (edit) {
            return edit.kind === 'set' ? edit.value : undefined;
        }
        return this.field(key)?.file === 'secrets' ? undefined : this.baselineValue(key);
    }

    /** Whether a secret is set after the pending edit. */
    secretSet(key: string): boolean {
        const edit = this.pendingEdits.get(key);
        return edit ? edit.kind === 'set' : this.isInFile(key);
    }

    /** Why sandy would refuse the value shown for `key`; undefined when fine or not set. */
    error(key: string): string | undefined {
        const field = this.field(key);
        const edit = this.pendingEdits.get(key);
        if (!field) {
            return edit ? 'This setting is no longer in sandy\'s schema.' : undefined;
        }
        if (field.readOnly) {
            return edit?.kind === 'set' ? 'This setting cannot be set in a config file.' : undefined;
        }
        const value = field.file === 'secrets' ? (edit?.kind === 'set' ? edit.value : undefined) : this.value(key);
        return value === undefined ? undefined : validateFieldValue(field, value);
    }

    /** Whether the value shown for `key` is approval-gated when saved in this (project) scope. */
    needsApproval(key: string): boolean {
        const field = this.field(key);
        if (this.scope !== 'project' || !field || field.readOnly) {
            return false;
        }
        if (field.tier === 'privileged') {
            return field.file === 'secrets' ? this.secretSet(key) : this.value(key) !== undefined;
        }
        const value = this.value(key);
        return value !== undefined && isWeakeningValue(key, value);
    }

    /** Keys whose values will need approval at the next launch (project scope), in schema order. */
    approvalKeys(): string[] {
        const form = this.currentForm;
        if (!form || this.scope !== 'project') {
            return [];
        }
        return [...form.fields.keys()].filter(key => this.needsApproval(key));
    }

    /** Everything the view needs to render one field. */
    status(key: string): SettingsFieldStatus {
        const field = this.field(key);
        const warnings: string[] = [];
        const misplaced = this.misplacedOf(key);
        if (misplaced) {
            const where = misplaced.line ? ` (line ${misplaced.line})` : '';
            warnings.push(misplaced.file === 'secrets'
                ? `Also set in .secrets${where}, which sandy reads after config and which wins. Saving here moves it to config.`
                : `This secret is in config${where}, where it is easily committed. Saving or clearing it here moves it to .secrets.`);
        }
        if (this.currentForm?.envSet.has(key)) {
            warnings.push('Set in the environment sandy is started from, which wins over every config file.');
        }
        if (field?.tier === 'env-only' && this.isInFile(key)) {
            warnings.push('This line in the config file has no effect. Clear it, or set the variable in the environment instead.');
        }
        return {
            value: field?.file === 'secrets' ? undefined : this.value(key),
            inFile: this.isInFile(key),
            secretSet: this.secretSet(key),
            pending: this.pendingEdits.get(key),
            dirty: this.pendingEdits.has(key),
            error: this.error(key),
            warnings,
            needsApproval: this.needsApproval(key)
        };
    }

    /**
     * The edits a save sends for this scope: only changed keys; secrets to `.secrets`, everything else
     * to `config`; a key also sitting in the other file is removed from there (so what is saved is what
     * sandy reads). Keys with a validation error, or that cannot be written from the form, are left out
     * and listed in `blocked`.
     */
    toEdits(): SettingsEditPlan {
        const config: ConfigEdit[] = [];
        const secrets: ConfigEdit[] = [];
        const keys: string[] = [];
        const blocked: { key: string; message: string }[] = [];
        const basis = new Map<string, PendingEdit>();
        for (const [key, edit] of this.pendingEdits) {
            const field = this.field(key);
            if (!field) {
                blocked.push({ key, message: 'This setting is no longer in sandy\'s schema.' });
                continue;
            }
            if ((field.readOnly && edit.kind === 'set') || !LOADER_KEY_PATTERN.test(key)) {
                blocked.push({ key, message: 'This setting cannot be set in a config file.' });
                continue;
            }
            const value = edit.kind === 'set' ? edit.value : undefined;
            const problem = value === undefined || field.readOnly ? undefined : validateFieldValue(field, value);
            if (problem) {
                blocked.push({ key, message: problem });
                continue;
            }
            const target = field.file === 'secrets' ? secrets : config;
            const other = field.file === 'secrets' ? config : secrets;
            target.push({ key, value });
            if (this.misplacedOf(key)) {
                other.push({ key, value: undefined });
            } else if (field.readOnly && value === undefined) {
                // An env-only line may sit in either file; clearing removes it from both.
                other.push({ key, value: undefined });
            }
            keys.push(key);
            basis.set(key, edit);
        }
        return { scope: this.scope, edits: { config, secrets }, keys, blocked, basis };
    }

    /**
     * After a successful save of `plan`: the saved values become the baseline and their pending edits go,
     * unless the user changed them again while the save was running.
     */
    commit(plan: SettingsEditPlan): void {
        const form = this.currentForm;
        if (!form) {
            return;
        }
        const data = normalizeScopeData(form.data);
        for (const [key, edit] of plan.basis) {
            const field = form.fields.get(key);
            data.misplaced = data.misplaced.filter(m => m.key !== key);
            if (field?.file === 'secrets') {
                data.secretsSet[key] = edit.kind === 'set';
            } else if (edit.kind === 'set') {
                data.values[key] = edit.value;
            } else {
                delete data.values[key];
            }
            if (this.pendingEdits.get(key) === edit) {
                this.pendingEdits.delete(key);
            }
        }
        this.setForm({ ...form, data });
    }

    /** Replaces the pending edits (used by restore); invalid entries are ignored. */
    loadPending(entries: Readonly<Record<string, unknown>>): void {
        this.pendingEdits.clear();
        for (const [key, raw] of Object.entries(entries)) {
            const edit = raw as Partial<{ kind: string; value: unknown }> | null;
            if (edit?.kind === 'set' && typeof edit.value === 'string') {
                this.pendingEdits.set(key, { kind: 'set', value: edit.value });
            } else if (edit?.kind === 'clear') {
                this.pendingEdits.set(key, { kind: 'clear' });
            }
        }
        if (this.currentForm) {
            this.setForm(this.currentForm);
        }
    }

    /** The pending edits as plain data; secret VALUES only when asked for (see {@link SettingsFormState.serialize}). */
    serializePending(includeSecrets: boolean): Record<string, PendingEdit> {
        const out: Record<string, PendingEdit> = {};
        for (const [key, edit] of this.pendingEdits) {
            if (edit.kind === 'set' && !includeSecrets && this.isSecretKey(key)) {
                continue;
            }
            out[key] = edit;
        }
        return out;
    }

    protected isSecretKey(key: string): boolean {
        const field = this.field(key);
        // Before a schema arrived, the name is all there is: err on the side of not persisting.
        return field ? field.file === 'secrets' : /(_TOKEN|_KEY|_SECRET|_PASSWORD)$/.test(key);
    }
}

/** What survives hiding (or reloading) the view. */
export interface SerializedSettingsState {
    readonly version: 1;
    readonly activeScope: SettingsScope;
    readonly filter?: string;
    /** The workspace the project edits belong to. */
    readonly workspace?: string;
    readonly edits: Partial<Record<SettingsScope, Record<string, PendingEdit>>>;
}

/** Both scopes' edit state, the active tab and the filter: the whole model behind the settings view. */
export class SettingsFormState {
    protected readonly scopes: Record<SettingsScope, ScopeFormState> = {
        project: new ScopeFormState('project'),
        global: new ScopeFormState('global')
    };
    protected snapshotValue: SettingsSnapshot | undefined;
    protected workspace: string | undefined;
    protected fieldSet: SettingsFieldSet | undefined;
    activeScope: SettingsScope = 'project';
    filter = '';

    get snapshot(): SettingsSnapshot | undefined {
        return this.snapshotValue;
    }

    scope(scope: SettingsScope): ScopeFormState {
        return this.scopes[scope];
    }

    get active(): ScopeFormState {
        return this.scopes[this.activeScope];
    }

    /** Scopes that can be edited now (no project without a workspace). */
    availableScopes(): SettingsScope[] {
        return SETTINGS_SCOPES.filter(s => this.scopes[s].form !== undefined);
    }

    /**
     * Takes a new snapshot; keeps pending edits of both scopes, except project edits made for another
     * workspace. Never throws: a malformed snapshot yields empty scopes and broken fields, not an exception.
     */
    update(snapshot: SettingsSnapshot): void {
        if (this.snapshotValue?.schema !== snapshot.schema || !this.fieldSet) {
            this.fieldSet = buildSettingsFields(snapshot.schema);
        }
        this.snapshotValue = snapshot;
        if (snapshot.workspace !== undefined && this.workspace !== undefined && snapshot.workspace !== this.workspace) {
            this.scopes.project.revertAll();
        }
        if (snapshot.workspace !== undefined) {
            this.workspace = snapshot.workspace;
        }
        const scopes = (snapshot.scopes ?? {}) as Partial<SettingsSnapshot['scopes']>;
        const names = [
            ...extraEnvNames(scopes.global?.values?.SANDY_EXTRA_ENV),
            ...extraEnvNames(scopes.project?.values?.SANDY_EXTRA_ENV)
        ];
        const envSet = Array.isArray(snapshot.envSet) ? snapshot.envSet : [];
        for (const scope of SETTINGS_SCOPES) {
            const data = scopes[scope];
            this.scopes[scope].setForm(data || scope === 'global'
                ? buildSettingsForm(snapshot.schema, data as SettingsScopeData, { scope, envSet, extraEnvNames: names, fieldSet: this.fieldSet })
                : undefined);
        }
        if (!this.scopes[this.activeScope].form) {
            this.activeScope = 'global';
        }
    }

    /**
     * Plain data for the host to keep while the view is hidden. Typed secret values are left out
     * unless `includeSecrets` (only for storage that never reaches disk: a Theia widget's
     * `storeState` and a webview's `setState` both can).
     */
    serialize(options: { includeSecrets?: boolean } = {}): SerializedSettingsState {
        const edits: Partial<Record<SettingsScope, Record<string, PendingEdit>>> = {};
        for (const scope of SETTINGS_SCOPES) {
            const pending = this.scopes[scope].serializePending(!!options.includeSecrets);
            if (Object.keys(pending).length) {
                edits[scope] = pending;
            }
        }
        return { version: 1, activeScope: this.activeScope, filter: this.filter || undefined, workspace: this.workspace, edits };
    }

    /** Restores {@link serialize}d state; tolerates anything (it comes back from host storage). */
    restore(state: unknown): void {
        const s = state as Partial<SerializedSettingsState> | null | undefined;
        if (!s || typeof s !== 'object' || s.version !== 1) {
            return;
        }
        if (s.activeScope === 'project' || s.activeScope === 'global') {
            this.activeScope = s.activeScope;
        }
        this.filter = typeof s.filter === 'string' ? s.filter : '';
        if (typeof s.workspace === 'string') {
            if (this.workspace !== undefined && this.workspace !== s.workspace) {
                // Saved for another workspace: its project edits do not belong here.
                this.loadScope('global', s.edits?.global);
                return;
            }
            this.workspace = s.workspace;
        }
        this.loadScope('project', s.edits?.project);
        this.loadScope('global', s.edits?.global);
        if (this.snapshotValue && !this.scopes[this.activeScope].form) {
            this.activeScope = 'global';
        }
    }

    protected loadScope(scope: SettingsScope, edits: unknown): void {
        this.scopes[scope].loadPending(edits && typeof edits === 'object' ? edits as Record<string, unknown> : {});
    }
}

// ----------------------------------------------------------------------------------------------
// --validate-config verdict

/** `--validate-config` output, reduced to what the verdict needs. */
export interface ValidateVerdictInput {
    readonly path?: string;
    readonly errors?: readonly string[];
    readonly warnings?: readonly { readonly key: string; readonly message: string }[];
    readonly unknown_keys?: readonly string[];
    readonly privileged_keys_requiring_approval?: readonly string[];
    readonly approval_status?: string;
}

/**
 * `sandy --validate-config` on a saved file, as lines for the status area. Worded so nobody reads
 * "no problems" as "values checked": sandy checks none (CONTRACT §0.2); the form did that before saving.
 */
export function describeValidateResult(result: ValidateVerdictInput): string[] {
    const lines: string[] = [];
    const name = result.path ? result.path.split(/[\\/]/).pop() : 'the file';
    for (const error of result.errors ?? []) {
        lines.push(`Error: ${error}`);
    }
    const approval = result.privileged_keys_requiring_approval ?? [];
    if (result.approval_status === 'pending' && approval.length) {
        lines.push(`Needs your approval at the next launch: ${approval.join(', ')}.`);
    } else if (result.approval_status === 'approved' && approval.length) {
        lines.push(`Already approved: ${approval.join(', ')}.`);
    }
    for (const warning of result.warnings ?? []) {
        // The approval warning repeats the line above.
        if (!approval.includes(warning.key)) {
            lines.push(`${warning.key}: ${warning.message}`);
        }
    }
    if (result.unknown_keys?.length) {
        lines.push(`sandy does not know (and ignores): ${result.unknown_keys.join(', ')}.`);
    }
    if (!lines.length) {
        lines.push(`sandy --validate-config found nothing to report in ${name}.`);
    }
    return lines;
}

/** What a host writes to its "Sandy Settings" log after a save: mismatches, the failure, sandy's verdict. */
export function settingsSaveLogLines(scope: SettingsScope, result: SettingsSaveResult, at = new Date()): string[] {
    const stamp = at.toISOString();
    const lines: string[] = [];
    if (result.mismatches?.length) {
        lines.push(`${stamp} ${scope}: these keys did not read back as written: ${result.mismatches.join(', ')}`);
    }
    if (result.error) {
        lines.push(`${stamp} ${scope}: save failed: ${result.error.message} ${result.error.hint ?? ''}`);
    }
    for (const fix of result.modeFixes ?? []) {
        lines.push(`${stamp} ${scope}: ${describeModeFix(fix)}`);
    }
    for (const line of result.validateVerdict ?? []) {
        lines.push(`${stamp} ${scope}: ${line}`);
    }
    return lines;
}
