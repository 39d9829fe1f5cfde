import * as vscode from 'vscode';
import { terminalAppearance, TERMINAL_APPEARANCE_SETTINGS } from '@sandy-ui/core/common';
import type { TerminalAppearance } from '@sandy-ui/core/common';

/** VS Code's own terminal settings (font, cursor), read and checked by core: what the sandy tab and the history viewer draw with. */
export function readTerminalAppearance(): TerminalAppearance {
    const settings = vscode.workspace.getConfiguration();
    return terminalAppearance(key => settings.inspect(key));
}

/** `listener` runs when one of those settings may have changed (in any scope). */
export function onDidChangeTerminalAppearance(listener: () => void): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration(e => {
        if (TERMINAL_APPEARANCE_SETTINGS.some(key => e.affectsConfiguration(key))) {
            listener();
        }
    });
}
