/**
 * The field descriptors: one per key of sandy's `--print-schema`, with the widget that edits it, the
 * tier it is listed in, the file it is written to and what the form should say about it. Built once
 * per schema and shared by both scopes.
 *
 * Pure and browser-safe: the Theia widget and the VS Code webview both run it in the frontend.
 */
import { ConfigKey, effectiveKeyType, keyLifecycle, KeyLifecycle, SandySchema } from '../sandy/contract';
import { boolSpelling, LOADER_KEY_PATTERN } from '../config/config-file';
import type { SettingsFileKind, SettingsProblem } from './settings-dto';
import { agentNamesOf, SANDY_AGENT_NAMES } from './agent-combo';
import { posixPatternToJs } from './posix-pattern';
import { num, str, stringList } from './wire-values';

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
    /** sandy retired the key (its schema's own `stability` or the first word of its description): see keyLifecycle. */
    readonly lifecycle?: KeyLifecycle;
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

const LIFECYCLE_NOTES: Record<KeyLifecycle, string> = {
    removed: 'sandy has removed this key: setting it makes sandy refuse to start. Its description names the replacement.',
    deprecated: 'sandy has deprecated this key; its description names the replacement.'
};

function buildField(raw: ConfigKey & Record<string, unknown>, key: string, tier: SettingsTier, agents: readonly string[]): SettingsField {
    const declaredType = str(raw.type) ?? '';
    // A type this UI does not know, with a `base_type` it does (sandy 2.x): edited as that base type.
    const type = effectiveKeyType({ type: declaredType, base_type: str(raw.base_type) });
    const description = str(raw.description);
    const defaultValue = str(raw.default);
    const since = str(raw.since);
    const stability = str(raw.stability);
    const pattern = str(raw.pattern);
    const lifecycle = keyLifecycle(raw);
    const notes: string[] = lifecycle ? [LIFECYCLE_NOTES[lifecycle]] : [];
    if (type !== declaredType) {
        notes.push(`Its type "${declaredType}" is edited as its base type "${type}".`);
    }
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
    const search = [key, declaredType, description ?? '', stability ?? '', lifecycle ?? ''].join('\n').toLowerCase();
    return {
        kind: 'field', key, type: declaredType, widget, tier, file, readOnly, description, default: defaultValue, since, stability, lifecycle,
        choices, agents: widget === 'agents' ? agents : undefined, boolValues, pattern, jsPattern, min, max, pathKind,
        hint, notes, search
    };
}
