import * as vscode from 'vscode';
import { chordBindings, commandForChord, SANDY_IDE_COMMANDS } from '@sandy-ui/core/common';
import type { KeyChord } from '@sandy-ui/core/common';

/** The commands a reported key may run: the plugin's own Sandy commands, never another. */
const SANDY_COMMAND_IDS: ReadonlySet<string> = new Set(Object.values(SANDY_IDE_COMMANDS).map(c => c.id));

/**
 * Runs the plugin's own command bound to an IDE key the sandy tab's page reports (core's ide-keys.ts
 * `browserKeepsKey`: Ctrl/Cmd+C, V, X and Shift+Insert with any other modifiers, which VS Code's
 * webview host leaves to the browser when VS Code runs in one, so Ctrl+Shift+Alt+X (Stop) pressed in
 * the tab reached neither the agent nor VS Code). Only where the host keeps them: VS Code in a browser.
 * Desktop VS Code forwards them from a webview and Theia forwards every key, so there the keybinding
 * runs by itself and the report is ignored (the command would run twice).
 * Only the chords of the plugin's own `contributes.keybindings` are known here: a user's rebinding in
 * keybindings.json is not (VS Code gives an extension no way to dispatch a key).
 */
export class IdeKeyRelay {
    constructor(
        protected readonly keybindings: unknown,
        readonly enabled: boolean,
        protected readonly run: (command: string) => unknown
    ) { }

    /** The host's own: its manifest's keybindings; on only in a browser VS Code. */
    static forHost(extension: vscode.Extension<unknown>): IdeKeyRelay {
        const manifest = extension.packageJSON as { contributes?: { keybindings?: unknown } } | undefined;
        const inBrowser = vscode.env.uiKind === vscode.UIKind.Web && !/theia/i.test(vscode.env.appName);
        return new IdeKeyRelay(manifest?.contributes?.keybindings, inBrowser, command => vscode.commands.executeCommand(command));
    }

    /** The page reports a key it passed on; `mac`: the page runs on macOS. Returns the command run, if any. */
    pressed(chord: KeyChord, mac: boolean): string | undefined {
        if (!this.enabled) {
            return undefined;
        }
        const command = commandForChord(chord, chordBindings(this.keybindings, SANDY_COMMAND_IDS, mac));
        if (command) {
            void Promise.resolve(this.run(command)).catch(() => undefined);
        }
        return command;
    }
}
