/**
 * The "Sandy:" commands every surface registers, with the same ids and labels: the Theia IDE's
 * SandyCommands and the VS Code plugin's contributes.commands (a unit spec keeps the plugin's
 * package.json equal to this). `icon` is a codicon name.
 */
export const SANDY_IDE_COMMANDS = {
    LAUNCH: { id: 'sandy.launch', label: 'Launch', icon: 'play' },
    LAUNCH_WITH: { id: 'sandy.launchWith', label: 'Launch with…', icon: 'run-all' },
    STOP: { id: 'sandy.stop', label: 'Stop', icon: 'debug-stop' },
    DETACH: { id: 'sandy.detach', label: 'Detach' },
    REATTACH: { id: 'sandy.reattach', label: 'Reattach' },
    SWITCH_SESSION: { id: 'sandy.switchSession', label: 'Switch Session' },
    ADD_PROJECT: { id: 'sandy.addProject', label: 'Add Project', icon: 'add' },
    REFRESH: { id: 'sandy.refresh', label: 'Refresh', icon: 'refresh' },
    REVEAL_SANDBOX: { id: 'sandy.revealSandbox', label: 'Reveal Sandbox Folder' },
    COPY_WORKSPACE_PATH: { id: 'sandy.copyWorkspacePath', label: 'Copy Workspace Path' },
    REMOVE_SANDBOX: { id: 'sandy.removeSandbox', label: 'Remove Sandbox…' },
    REMOVE_PROJECT: { id: 'sandy.removeProject', label: 'Remove from Projects' },
    OPEN_SETTINGS: { id: 'sandy.openSettings', label: 'Open Settings', icon: 'settings-gear' },
    REVOKE_APPROVAL: { id: 'sandy.revokeApproval', label: 'Revoke Approval' },
    NEXT_WAITING: { id: 'sandy.nextWaiting', label: 'Go to the Session That Needs You', icon: 'bell-dot' },
    TOGGLE_DO_NOT_DISTURB: { id: 'sandy.toggleDoNotDisturb', label: 'Toggle Do Not Disturb', icon: 'bell-slash' },
    SHOW_DASHBOARD: { id: 'sandy.showDashboard', label: 'Show Dashboard', icon: 'dashboard' },
    SHOW_HISTORY: { id: 'sandy.showHistory', label: 'Show History', icon: 'history' },
    GET_STARTED: { id: 'sandy.getStarted', label: 'Get Started', icon: 'rocket' },
    CHOOSE_SKILL_PACKS: { id: 'sandy.chooseSkillPacks', label: 'Choose Skill Packs…', icon: 'extensions' },
    FLEET_MAINTENANCE: { id: 'sandy.fleetMaintenance', label: 'Fleet Maintenance…', icon: 'tools' },
    ASK_ONCE: { id: 'sandy.askOnce', label: 'Ask the Agent Once…', icon: 'comment-discussion' }
} as const satisfies Record<string, { id: string; label: string; icon?: string }>;

export type SandyIdeCommandId = typeof SANDY_IDE_COMMANDS[keyof typeof SANDY_IDE_COMMANDS]['id'];

export const SANDY_COMMAND_CATEGORY = 'Sandy';
