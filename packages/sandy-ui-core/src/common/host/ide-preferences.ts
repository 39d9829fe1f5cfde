/**
 * The user settings of every Sandy surface (`sandy.*`): the Theia IDE's preference schema and the
 * VS Code plugin's `contributes.configuration` (a unit spec keeps the plugin's package.json equal to this).
 *
 * `scope: 'application'` marks a setting that chooses what runs on the host or what of the host's
 * environment sandy sees: only the user's settings count for it, never a workspace's or a folder's
 * (see host-settings.ts). 'application' rather than 'machine': VS Code drops 'machine' values from the
 * local user settings of a remote window (code-server is one), and Theia maps both to its User scope.
 */
export const SANDY_PREFERENCE_PROPERTIES = {
    'sandy.path': {
        type: 'string',
        default: '',
        scope: 'application',
        description: 'Path to the sandy executable. Empty: search PATH, ~/.local/bin, /usr/local/bin, /opt/homebrew/bin and ~/bin. User settings only: a workspace\'s value is ignored.'
    },
    'sandy.passEnvironment': {
        type: 'array',
        items: { type: 'string' },
        default: [] as string[],
        scope: 'application',
        description: 'Extra environment variables passed to sandy besides the built-in whitelist (HOME, USER, PATH, LANG, LC_*, TERM, SHELL, SANDY_HOME…), e.g. credential variables you want sandy to see. User settings only: a workspace\'s value is ignored.'
    },
    'sandy.notifications': {
        type: 'boolean',
        default: true,
        description: 'Show a notification when a sandy session asks for attention (OSC 9 / 99 / 777).'
    }
} as const;
