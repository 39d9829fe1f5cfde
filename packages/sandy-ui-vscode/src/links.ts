import * as fs from 'fs';
import * as vscode from 'vscode';
import { classifyLink, isInsideFolder, LINK_REFUSED_TEXT } from '@sandy-ui/core/common';
import { showWarning } from './messages';

/**
 * Links of a sandy terminal the user clicked, by core's policy (links.ts): http(s) through
 * `env.openExternal` (the editor asks "open the external website?" for domains the user has not
 * trusted), files inside the session's workspace in an editor — after resolving symlinks, since the
 * agent can plant one in its workspace — and nothing else.
 */
export async function openTerminalLink(uri: string, workspace: string): Promise<void> {
    const action = classifyLink(uri, workspace);
    if (action.kind === 'external') {
        await vscode.env.openExternal(vscode.Uri.parse(action.url, true));
    } else if (action.kind === 'file') {
        const real = await canonicalInside(action.path, workspace);
        if (real) {
            await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(real));
        } else {
            void showWarning(LINK_REFUSED_TEXT['outside-workspace']);
        }
    } else {
        // Fixed text from core: nothing the agent wrote is shown.
        void showWarning(action.message);
    }
}

/** The canonical path of `target` when it exists and stays inside the canonical `workspace`, else undefined. */
export async function canonicalInside(target: string, workspace: string): Promise<string | undefined> {
    try {
        const [real, root] = await Promise.all([fs.promises.realpath(target), fs.promises.realpath(workspace)]);
        return isInsideFolder(real, root) && real !== root ? real : undefined;
    } catch {
        return undefined;
    }
}
