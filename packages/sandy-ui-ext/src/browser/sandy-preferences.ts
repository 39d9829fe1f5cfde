import { interfaces } from '@theia/core/shared/inversify';
import { SANDY_PREFERENCE_PROPERTIES } from '@sandy-ui/core/common';
import {
    createPreferenceProxy, PreferenceContribution, PreferenceDataProperty, PreferenceProxy, PreferenceSchema, PreferenceScope, PreferenceService
} from '@theia/core/lib/common/preferences';

/**
 * The shared schema in Theia's terms. VS Code's `scope: 'application'` becomes PreferenceScope.User,
 * as Theia's own plugin scanner maps it. In Theia 1.74.1 that scope only keeps the setting out of the
 * workspace/folder settings schema and swallows the change event of a workspace file that sets it:
 * the folder provider still stores the value and PreferenceService.get() still merges it in. So the
 * value sandy gets is read through core's rule (SandyStateService), never through this proxy.
 */
export const sandyPreferenceSchema: PreferenceSchema = {
    properties: Object.fromEntries(Object.entries(SANDY_PREFERENCE_PROPERTIES).map(([key, property]) => {
        // A copy, because Theia annotates schema objects.
        const { scope, ...rest } = JSON.parse(JSON.stringify(property)) as PreferenceDataProperty & { scope?: string };
        return [key, scope === 'application' || scope === 'machine' ? { ...rest, scope: PreferenceScope.User } : rest];
    }))
};

/**
 * What the proxy may be asked. The host-controlled settings (sandy.path, sandy.passEnvironment) are
 * left out on purpose: the proxy merges workspace values, so they are read only through core's rule.
 */
export interface SandyConfiguration {
    'sandy.notifications': boolean;
}

export const SandyPreferences = Symbol('SandyPreferences');
export type SandyPreferences = PreferenceProxy<SandyConfiguration>;

export function bindSandyPreferences(bind: interfaces.Bind): void {
    bind(SandyPreferences).toDynamicValue(ctx => createPreferenceProxy(ctx.container.get(PreferenceService), sandyPreferenceSchema)).inSingletonScope();
    bind(PreferenceContribution).toConstantValue({ schema: sandyPreferenceSchema });
}
