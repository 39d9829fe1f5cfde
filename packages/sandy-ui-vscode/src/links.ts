import * as vscode from 'vscode';
import { classifyLink } from '@sandy-ui/core/lib/common/links';

/** Links from sandy's terminal: web and mail links in the system browser, file links in an editor. */
export async function openTerminalLink(uri: string): Promise<void> {
    const action = classifyLink(uri);
    if (action.kind === 'external') {
        await vscode.env.openExternal(vscode.Uri.parse(action.url, true));
    } else if (action.kind === 'file') {
        await vscode.commands.executeCommand('vscode.open', vscode.Uri.parse(action.url, true));
    } else {
        void vscode.window.showWarningMessage(action.message);
    }
}
