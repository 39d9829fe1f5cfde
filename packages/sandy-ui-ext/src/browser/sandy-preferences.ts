import { interfaces } from '@theia/core/shared/inversify';
import { SANDY_PREFERENCE_PROPERTIES } from '@sandy-ui/core/lib/common/ide-preferences';
import { createPreferenceProxy, PreferenceContribution, PreferenceProxy, PreferenceSchema, PreferenceService } from '@theia/core/lib/common/preferences';

export const sandyPreferenceSchema: PreferenceSchema = {
    // Shared with the VS Code plugin's contributes.configuration; a copy, because Theia annotates schema objects.
    properties: JSON.parse(JSON.stringify(SANDY_PREFERENCE_PROPERTIES))
};

export interface SandyConfiguration {
    'sandy.path': string;
    'sandy.passEnvironment': string[];
    'sandy.notifications': boolean;
}

export const SandyPreferences = Symbol('SandyPreferences');
export type SandyPreferences = PreferenceProxy<SandyConfiguration>;

export function bindSandyPreferences(bind: interfaces.Bind): void {
    bind(SandyPreferences).toDynamicValue(ctx => createPreferenceProxy(ctx.container.get(PreferenceService), sandyPreferenceSchema)).inSingletonScope();
    bind(PreferenceContribution).toConstantValue({ schema: sandyPreferenceSchema });
}
