import { interfaces } from '@theia/core/shared/inversify';
import { GPU_ACCELERATION_SETTING, SANDY_PREFERENCE_PROPERTIES } from '@sandy-ui/core/common';
import { PreferenceContribution, PreferenceDataProperty, PreferenceSchema, PreferenceScope } from '@theia/core/lib/common/preferences';

/**
 * The shared schema in Theia's terms. VS Code's `scope: 'application'` becomes PreferenceScope.User,
 * as Theia's own plugin scanner maps it. In Theia 1.74.1 that scope only keeps the setting out of the
 * workspace/folder settings schema and swallows the change event of a workspace file that sets it:
 * the folder provider still stores the value and PreferenceService.get() still merges it in. So the
 * value sandy gets is read through core's rule (SandyStateService), never through a preference proxy.
 */
export const sandyPreferenceSchema: PreferenceSchema = {
    // Theia has no `terminal.integrated.gpuAcceleration` (its terminal always uses WebGL); the sandy tab reads it as VS Code's does.
    properties: Object.fromEntries(Object.entries({ ...SANDY_PREFERENCE_PROPERTIES, [GPU_ACCELERATION_SETTING.key]: GPU_ACCELERATION_SETTING.property }).map(([key, property]) => {
        // A copy, because Theia annotates schema objects.
        const { scope, ...rest } = JSON.parse(JSON.stringify(property)) as PreferenceDataProperty & { scope?: string };
        return [key, scope === 'application' || scope === 'machine' ? { ...rest, scope: PreferenceScope.User } : rest];
    }))
};

/**
 * No preference proxy: it merges workspace values, and every `sandy.*` setting is user-only, so each
 * is read through core's rule (SandyStateService → WindowState.configuration).
 */
export function bindSandyPreferences(bind: interfaces.Bind): void {
    bind(PreferenceContribution).toConstantValue({ schema: sandyPreferenceSchema });
}
