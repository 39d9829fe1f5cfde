import * as vscode from 'vscode';
import type { ProjectCommands, SandyIdeCommandId } from '@sandy-ui/core/common';
import { RELAYED_KEY } from './key-relay';
import type { IdeKeyRelay } from './key-relay';

/** The `sandy.*` commands (package.json contributes them): each is a handler of core's ProjectCommands. */
/** `start`: the window's sandy state starts before any command runs (nothing is looked at until then). */
/** `keys`: a key press the sandy tab's page relayed and VS Code's own keybinding of it run the command once. */
export function registerSandyCommands(commands: ProjectCommands, start: () => void, keys?: IdeKeyRelay): vscode.Disposable[] {
    const r = (id: SandyIdeCommandId, run: (arg?: unknown) => unknown) => vscode.commands.registerCommand(id, (arg?: unknown) => {
        if (keys && !keys.invoked(id, arg)) {
            return undefined;
        }
        start();
        return run(arg === RELAYED_KEY ? undefined : arg);
    });
    return [
        r('sandy.launch', arg => commands.launch(arg)),
        r('sandy.launchWith', arg => commands.launchWith(arg)),
        r('sandy.stop', arg => commands.stop(arg)),
        r('sandy.detach', arg => commands.detach(arg)),
        r('sandy.reattach', arg => commands.reattach(arg)),
        r('sandy.switchSession', () => commands.switchSession()),
        r('sandy.addProject', () => commands.addProject()),
        r('sandy.refresh', () => commands.refresh()),
        r('sandy.revealSandbox', arg => commands.revealSandbox(arg)),
        r('sandy.copyWorkspacePath', arg => commands.copyWorkspacePath(arg)),
        r('sandy.removeSandbox', arg => commands.removeSandbox(arg)),
        r('sandy.removeProject', arg => commands.removeProject(arg)),
        r('sandy.openSettings', arg => commands.openSettings(arg)),
        r('sandy.revokeApproval', arg => commands.revokeApproval(arg)),
        r('sandy.nextWaiting', () => commands.nextWaiting()),
        r('sandy.toggleDoNotDisturb', () => commands.toggleDoNotDisturb()),
        r('sandy.chooseSkillPacks', arg => commands.chooseSkillPacks(arg)),
        r('sandy.fleetMaintenance', arg => commands.fleetMaintenance(arg)),
        r('sandy.askOnce', arg => commands.askOnce(arg))
    ];
}
