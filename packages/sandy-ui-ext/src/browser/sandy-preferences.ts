import { interfaces } from '@theia/core/shared/inversify';
import { createPreferenceProxy, PreferenceContribution, PreferenceProxy, PreferenceSchema, PreferenceService } from '@theia/core/lib/common/preferences';

export const sandyPreferenceSchema: PreferenceSchema = {
    properties: {
        'sandy.path': {
            type: 'string',
            default: '',
            description: 'Path to the sandy executable. Empty: search PATH, ~/.local/bin, /usr/local/bin, /opt/homebrew/bin and ~/bin.'
        },
        'sandy.passEnvironment': {
            type: 'array',
            items: { type: 'string' },
            default: [],
            description: 'Extra environment variables passed to sandy besides the built-in whitelist (HOME, USER, PATH, LANG, LC_*, TERM, SHELL, SANDY_HOME…), e.g. credential variables you want sandy to see.'
        },
        'sandy.notifications': {
            type: 'boolean',
            default: true,
            description: 'Show a notification when a sandy session asks for attention (OSC 9 / 99 / 777).'
        }
    }
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
