import { Command } from '@theia/core';

export namespace SandyCommands {
    const category = 'Sandy';
    export const LAUNCH: Command = { id: 'sandy.launch', category, label: 'Launch', iconClass: 'codicon codicon-play' };
    export const STOP: Command = { id: 'sandy.stop', category, label: 'Stop', iconClass: 'codicon codicon-debug-stop' };
    export const DETACH: Command = { id: 'sandy.detach', category, label: 'Detach' };
    export const REATTACH: Command = { id: 'sandy.reattach', category, label: 'Reattach' };
    export const SWITCH_SESSION: Command = { id: 'sandy.switchSession', category, label: 'Switch Session' };
    export const ADD_PROJECT: Command = { id: 'sandy.addProject', category, label: 'Add Project', iconClass: 'codicon codicon-add' };
    export const REFRESH: Command = { id: 'sandy.refresh', category, label: 'Refresh', iconClass: 'codicon codicon-refresh' };
    export const REVEAL_SANDBOX: Command = { id: 'sandy.revealSandbox', category, label: 'Reveal Sandbox Folder' };
    export const COPY_WORKSPACE_PATH: Command = { id: 'sandy.copyWorkspacePath', category, label: 'Copy Workspace Path' };
    export const REMOVE_SANDBOX: Command = { id: 'sandy.removeSandbox', category, label: 'Remove Sandbox…' };
    export const REMOVE_PROJECT: Command = { id: 'sandy.removeProject', category, label: 'Remove from Projects' };
    export const OPEN_SETTINGS: Command = { id: 'sandy.openSettings', category, label: 'Open Settings', iconClass: 'codicon codicon-settings-gear' };
    export const REVOKE_APPROVAL: Command = { id: 'sandy.revokeApproval', category, label: 'Revoke Approval' };
    export const SHOW_VIEW: Command = { id: 'sandy.showView', category, label: 'Show Projects' };
}
