import * as vscode from 'vscode';
import type { ServiceLogger } from '@sandy-ui/core/node';

/** The "Sandy" log output channel behind core's ServiceLogger (the plugin never writes to the console). */
export class SandyLog implements ServiceLogger, vscode.Disposable {
    readonly channel: vscode.LogOutputChannel = vscode.window.createOutputChannel('Sandy', { log: true });

    info(message: string): void {
        this.channel.info(message);
    }

    warn(message: string): void {
        this.channel.warn(message);
    }

    error(message: string): void {
        this.channel.error(message);
    }

    dispose(): void {
        this.channel.dispose();
    }
}
