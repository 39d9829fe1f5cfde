import * as vscode from 'vscode';
import { sameTerminalAppearance, terminalAppearance, TERMINAL_APPEARANCE_SETTINGS } from '@sandy-ui/core/common';
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

/** The user's terminal appearance as one page has it: sent again only when it differs from what that page was last sent. */
export class PageAppearance {
    protected sent: TerminalAppearance | undefined;

    constructor(protected readonly notify: (appearance: TerminalAppearance) => void) { }

    /** Sends it if it changed (a hostile value the reader drops, or another terminal setting, changes nothing). */
    update(): void {
        const appearance = readTerminalAppearance();
        if (!this.sent || !sameTerminalAppearance(this.sent, appearance)) {
            this.sent = appearance;
            this.notify(appearance);
        }
    }

    /** A (re)loaded page has none. */
    reset(): void {
        this.sent = undefined;
    }
}
