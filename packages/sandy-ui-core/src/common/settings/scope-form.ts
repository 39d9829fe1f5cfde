/**
 * One scope's form: the field descriptors over that scope's files as the backend read them, with the
 * scope's unknown keys. Also the guard that makes a scope DTO from the wire safe to read.
 */
import type { SandySchema } from '../sandy/contract';
import type { SettingsScope, SettingsScopeData } from './settings-dto';
import { buildSettingsFields, SettingsFieldSet } from './settings-fields';
import { str, stringList } from './wire-values';

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
