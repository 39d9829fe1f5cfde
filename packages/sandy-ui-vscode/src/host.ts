import * as vscode from 'vscode';

/** Where the plugin runs: a VS Code-API editor of its own, or the Sandy IDE's (Theia) plugin host. */
export interface SandyHost {
    kind: 'editor' | 'sandy-ide';
    reason?: string;
}

/** The Sandy IDE's application name (browser-app / electron-app `theia.frontend.config.applicationName`). */
export const SANDY_IDE_APP_NAME = 'Sandy IDE';
/** A command only the Sandy IDE's native frontend registers (the plugin contributes no such id). */
export const SANDY_IDE_NATIVE_COMMAND = 'sandy.showView';

/**
 * The Sandy IDE already has the Projects view, the terminal tabs and every `sandy.*` command,
 * natively and over the same core. There the plugin is a guest: it registers none of those command
 * ids (Theia would refuse the duplicates anyway) and hosts no PTY; see README "In the Sandy IDE".
 */
export async function detectHost(): Promise<SandyHost> {
    if (vscode.env.appName === SANDY_IDE_APP_NAME) {
        return { kind: 'sandy-ide', reason: `appName is ${SANDY_IDE_APP_NAME}` };
    }
    const commands = await vscode.commands.getCommands(true);
    if (commands.includes(SANDY_IDE_NATIVE_COMMAND)) {
        return { kind: 'sandy-ide', reason: `the native ${SANDY_IDE_NATIVE_COMMAND} command exists` };
    }
    return { kind: 'editor' };
}
