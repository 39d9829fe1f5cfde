/**
 * The user settings of every Sandy surface (`sandy.*`): the Theia IDE's preference schema and the
 * VS Code plugin's `contributes.configuration` (a unit spec keeps the plugin's package.json equal to this).
 */
export const SANDY_PREFERENCE_PROPERTIES = {
    'sandy.path': {
        type: 'string',
        default: '',
        description: 'Path to the sandy executable. Empty: search PATH, ~/.local/bin, /usr/local/bin, /opt/homebrew/bin and ~/bin.'
    },
    'sandy.passEnvironment': {
        type: 'array',
        items: { type: 'string' },
        default: [] as string[],
        description: 'Extra environment variables passed to sandy besides the built-in whitelist (HOME, USER, PATH, LANG, LC_*, TERM, SHELL, SANDY_HOME…), e.g. credential variables you want sandy to see.'
    },
    'sandy.notifications': {
        type: 'boolean',
        default: true,
        description: 'Show a notification when a sandy session asks for attention (OSC 9 / 99 / 777).'
    }
} as const;
