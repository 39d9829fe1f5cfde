import { Command } from '@theia/core';
import { SANDY_COMMAND_CATEGORY, SANDY_IDE_COMMANDS } from '@sandy-ui/core/common';

/** Theia Commands from core's shared command table (the VS Code plugin contributes the same ids). */
function command(c: { id: string; label: string; icon?: string }): Command {
    return { id: c.id, category: SANDY_COMMAND_CATEGORY, label: c.label, iconClass: c.icon ? `codicon codicon-${c.icon}` : undefined };
}

export namespace SandyCommands {
    export const LAUNCH = command(SANDY_IDE_COMMANDS.LAUNCH);
    export const LAUNCH_WITH = command(SANDY_IDE_COMMANDS.LAUNCH_WITH);
    export const STOP = command(SANDY_IDE_COMMANDS.STOP);
    export const DETACH = command(SANDY_IDE_COMMANDS.DETACH);
    export const REATTACH = command(SANDY_IDE_COMMANDS.REATTACH);
    export const SWITCH_SESSION = command(SANDY_IDE_COMMANDS.SWITCH_SESSION);
    export const ADD_PROJECT = command(SANDY_IDE_COMMANDS.ADD_PROJECT);
    export const REFRESH = command(SANDY_IDE_COMMANDS.REFRESH);
    export const REVEAL_SANDBOX = command(SANDY_IDE_COMMANDS.REVEAL_SANDBOX);
    export const COPY_WORKSPACE_PATH = command(SANDY_IDE_COMMANDS.COPY_WORKSPACE_PATH);
    export const REMOVE_SANDBOX = command(SANDY_IDE_COMMANDS.REMOVE_SANDBOX);
    export const REMOVE_PROJECT = command(SANDY_IDE_COMMANDS.REMOVE_PROJECT);
    export const OPEN_SETTINGS = command(SANDY_IDE_COMMANDS.OPEN_SETTINGS);
    export const REVOKE_APPROVAL = command(SANDY_IDE_COMMANDS.REVOKE_APPROVAL);
    export const NEXT_WAITING = command(SANDY_IDE_COMMANDS.NEXT_WAITING);
    export const TOGGLE_DO_NOT_DISTURB = command(SANDY_IDE_COMMANDS.TOGGLE_DO_NOT_DISTURB);
    export const SHOW_DASHBOARD = command(SANDY_IDE_COMMANDS.SHOW_DASHBOARD);
    export const SHOW_HISTORY = command(SANDY_IDE_COMMANDS.SHOW_HISTORY);
    export const GET_STARTED = command(SANDY_IDE_COMMANDS.GET_STARTED);
    export const CHOOSE_SKILL_PACKS = command(SANDY_IDE_COMMANDS.CHOOSE_SKILL_PACKS);
    export const FLEET_MAINTENANCE = command(SANDY_IDE_COMMANDS.FLEET_MAINTENANCE);
    export const ASK_ONCE = command(SANDY_IDE_COMMANDS.ASK_ONCE);
    /** Theia only: the plugin's view gets VS Code's generated `sandy.projects.focus`. */
    export const SHOW_VIEW: Command = { id: 'sandy.showView', category: SANDY_COMMAND_CATEGORY, label: 'Show Projects' };
}
