/**
 * The user settings of every Sandy surface (`sandy.*`): the Theia IDE's preference schema and the
 * VS Code plugin's `contributes.configuration` (a unit spec keeps the plugin's package.json equal to this).
 *
 * `scope: 'application'` marks a setting that chooses what runs on the host or what of the host's
 * environment sandy sees: only the user's settings count for it, never a workspace's or a folder's
 * (see host-settings.ts). 'application' rather than 'machine': VS Code drops 'machine' values from the
 * local user settings of a remote window (code-server is one), and Theia maps both to its User scope.
 */
import { DEFAULT_IDE_KEYS, IDE_KEYS_DESCRIPTION } from '../terminal/ide-keys';

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
    'sandy.sessionMode': {
        type: 'string',
        enum: ['daemon', 'foreground'],
        default: 'daemon',
        scope: 'application',
        description: 'How sandy sessions run. daemon: sandy\'s daemon sessions (sandy --start), which outlive the IDE — a reload, a restart or a crash leaves them running and the IDE shows them again. foreground: sandy runs on the IDE\'s terminal and ends when the IDE quits. A sandy without daemon mode always runs in the foreground. User settings only.'
    },
    'sandy.stopSessionsOnQuit': {
        type: 'boolean',
        default: false,
        scope: 'application',
        description: 'Stop the daemon sessions (sandy --stop) when the Sandy IDE quits. Off: they keep running and the next IDE reattaches them. Not in the VS Code plugin: there a window reload cannot be told from quitting, and sessions must survive a reload. User settings only.'
    },
    'sandy.longRunningHours': {
        type: 'number',
        default: 24,
        minimum: 0,
        scope: 'application',
        description: 'Sessions running longer than this many hours are marked and you are asked once whether to stop them. 0: never. User settings only.'
    },
    'sandy.notifications': {
        type: 'boolean',
        default: true,
        scope: 'application',
        description: 'Show a notification when a sandy session asks for attention (OSC 9 / 99 / 777, a bell) while you are not looking at its tab. User settings only: a workspace cannot silence its agent\'s requests.'
    },
    'sandy.historyMegabytes': {
        type: 'number',
        default: 50,
        minimum: 0,
        maximum: 10000,
        scope: 'application',
        description: 'Session history: the most of each session\'s output kept on this computer (the Sandy IDE: in ~/.local/state/sandy-ide/history; VS Code: in the extension\'s global storage; never in the workspace or the sandbox), in MB; older output rolls off. 0: keep no history. User settings only.'
    },
    'sandy.systemNotifications': {
        type: 'boolean',
        default: true,
        scope: 'application',
        description: 'Also show a Sandy notification as a system notification while the IDE\'s window does not have the focus (the Sandy IDE\'s desktop app; in a browser once it allows notifications for the IDE). A click on it shows the session\'s tab. VS Code has no such API, so the plugin only shows its own notifications. User settings only.'
    },
    'sandy.doNotDisturb': {
        type: 'boolean',
        default: false,
        scope: 'application',
        description: 'Do not disturb: no Sandy notifications for now (toggle it with "Sandy: Toggle Do Not Disturb" or the status bar). The Sessions view and the status bar still count the sessions that need you. User settings only.'
    },
    'sandy.terminal.ideKeys': {
        type: 'array',
        items: { type: 'string' },
        default: DEFAULT_IDE_KEYS,
        scope: 'application',
        description: IDE_KEYS_DESCRIPTION
    }
} as const;
