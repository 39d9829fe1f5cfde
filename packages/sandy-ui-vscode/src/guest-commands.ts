import * as vscode from 'vscode';
import { SANDY_IDE_COMMANDS } from '@sandy-ui/core/common';
import { SandyLog } from './logger';

/**
 * The plugin's `sandy.*` command ids inside the Sandy IDE, where they are also the IDE's own.
 *
 * Theia puts a plugin's handler for a built-in command in front of the built-in one
 * (plugin-contribution-handler.ts `registerCommand`, the path meant for e.g. VSCodeVim's `type`), and
 * before running a command a plugin contributes it waits up to 30 s for that plugin to register a
 * handler (hosted-plugin.ts `ensureCommandHandlerRegistration`). So a guest registers a handler for
 * every id; the contributed `enablement` (`!sandy.guest`, set before any registration) keeps those
 * inactive, and the IDE's handler runs. A handler picked before the flag was set (a command run
 * while the plugin activated) hands the call on with {@link runInIde}.
 */
export class GuestCommands implements vscode.Disposable {
    protected readonly registrations = new Map<string, vscode.Disposable>();

    constructor(protected readonly log: SandyLog) {
        for (const { id } of Object.values(SANDY_IDE_COMMANDS)) {
            this.register(id);
        }
    }

    protected register(id: string): void {
        this.registrations.set(id, vscode.commands.registerCommand(id, (...args: unknown[]) => this.runInIde(id, ...args)));
    }

    /**
     * Runs the IDE's own command. The plugin host would call our local handler of the same id, so it
     * is taken out for the call and put back at once: the IDE's side waits for it before running its
     * own (enabled) handler, so the call neither loops nor stalls.
     */
    async runInIde(id: string, ...args: unknown[]): Promise<unknown> {
        this.registrations.get(id)?.dispose();
        this.registrations.delete(id);
        let run: Thenable<unknown>;
        try {
            run = vscode.commands.executeCommand(id, ...args);
        } finally {
            this.register(id);
        }
        return run;
    }

    dispose(): void {
        for (const d of this.registrations.values()) {
            d.dispose();
        }
        this.registrations.clear();
    }
}
