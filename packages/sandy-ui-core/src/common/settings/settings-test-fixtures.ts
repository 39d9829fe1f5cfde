/** Schemas, scope data and snapshots for the settings model's specs (no test framework: plain data). */
import { ConfigKey, SandySchema } from '../sandy/contract';
import { BUNDLED_FALLBACK_SCHEMA } from '../sandy/schema-cache';
import type { SettingsScopeData, SettingsSnapshot } from './settings-dto';
import { buildSettingsFields, SettingsField } from './settings-fields';
import { buildSettingsForm } from './scope-form';
import { ScopeFormState } from './scope-form-state';

export function schemaWith(privileged: unknown[], passive: unknown[] = [], envOnly: unknown[] = [], agents?: unknown[]): SandySchema {
    return {
        ...BUNDLED_FALLBACK_SCHEMA,
        agents: (agents ?? BUNDLED_FALLBACK_SCHEMA.agents) as SandySchema['agents'],
        config: {
            privileged_keys: privileged as ConfigKey[],
            passive_keys: passive as ConfigKey[],
            env_only_keys: envOnly as ConfigKey[]
        }
    };
}

export function scopeData(partial: Partial<SettingsScopeData> = {}): SettingsScopeData {
    return {
        values: {}, secretsSet: {}, unknownKeys: [], misplaced: [],
        filePaths: { config: '/h/.sandy/config', secrets: '/h/.sandy/.secrets' },
        ...partial
    };
}

export function snapshot(project: Partial<SettingsScopeData> | undefined, global: Partial<SettingsScopeData> = {}, extra: Partial<SettingsSnapshot> = {}): SettingsSnapshot {
    return {
        schema: BUNDLED_FALLBACK_SCHEMA,
        schemaSource: 'sandy',
        scopes: {
            project: project && scopeData({ filePaths: { config: '/w/.sandy/config', secrets: '/w/.sandy/.secrets' }, ...project }),
            global: scopeData(global)
        },
        workspace: '/w',
        ...extra
    };
}

/** A field of the bundled fallback schema; throws when the schema has no such key. */
export function fallbackField(key: string): SettingsField {
    const field = buildSettingsFields(BUNDLED_FALLBACK_SCHEMA).fields.get(key);
    if (!field) {
        throw new Error(`The bundled fallback schema has no key ${key}`);
    }
    return field;
}

export function scopeState(data: Partial<SettingsScopeData> = {}, scope: 'project' | 'global' = 'project'): ScopeFormState {
    const state = new ScopeFormState(scope);
    state.setForm(buildSettingsForm(BUNDLED_FALLBACK_SCHEMA, scopeData(data), { scope }));
    return state;
}
