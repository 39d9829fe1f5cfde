import * as vscode from 'vscode';
import { workspaceLabel } from '@sandy-ui/core/common';
import { launchUntilCleared, LaunchClearance, NOT_APPROVED_TEXT } from '@sandy-ui/core/common';
import type { ApprovalRequest } from '@sandy-ui/core/common';
import type { LaunchOutcome, LaunchRequest } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { SandyLog } from './logger';
import { showInfo, showWarning, showError } from './messages';

/** What the editor's own terminal cannot do that the Sandy terminal tab does. */
export const FALLBACK_NOTICE = 'Sandy: the native terminal module (node-pty) is not available for this editor, so sandy runs in the '
    + 'editor\'s own terminal. Lost: notifications from sandy (OSC 9/99/777) and the unread badge on the tab, '
    + 'sessions that survive closing the tab (Detach / Reattach), and Stop with sandy\'s cleanup escalation. '
    + 'Install the .vsix built for your platform to get them.';

/**
 * Without node-pty (the universal .vsix, or a platform whose prebuild does not load) sandy runs in
 * `vscode.window.createTerminal`: the same pre-flight and approval (core's prepareLaunch), the same
 * whitelisted environment (strictEnv), the auto-approve variable only for an approved spawn.
 */
export class FallbackTerminals implements vscode.Disposable {
    protected readonly terminals = new Map<string, vscode.Terminal>();
    protected noticeShown = false;
    protected readonly toDispose: vscode.Disposable[] = [];

    constructor(
        protected readonly core: SandyServiceCore,
        protected readonly log: SandyLog,
        readonly reason: string,
        protected readonly clearForLaunch: (workspace: string, request: ApprovalRequest) => Promise<LaunchClearance | undefined>
    ) {
        this.toDispose.push(vscode.window.onDidCloseTerminal(t => {
            for (const [ws, terminal] of this.terminals) {
                if (terminal === t) {
                    this.terminals.delete(ws);
                }
            }
        }));
    }

    /** Once per window: what is lost, and why. */
    showNotice(): void {
        if (!this.noticeShown) {
            this.noticeShown = true;
            this.log.warn(`sandy: node-pty did not load (${this.reason}); using the editor's terminal`);
            void showWarning(FALLBACK_NOTICE);
        }
    }

    find(workspace: string): vscode.Terminal | undefined {
        const t = this.terminals.get(workspace);
        return t && t.exitStatus === undefined ? t : undefined;
    }

    async open(workspace: string, clearance: LaunchClearance | undefined): Promise<void> {
        this.showNotice();
        const running = this.find(workspace);
        if (running) {
            running.show();
            return;
        }
        const outcome = await launchUntilCleared(workspace, clearance, {
            launch: request => this.start(request),
            // The editor's terminal sizes itself; sandy reads the size from its TTY.
            measure: () => ({ cols: 80, rows: 24 }),
            clear: (ws, request) => this.clearForLaunch(ws, request)
        });
        if (outcome.kind === 'not-approved') {
            void showInfo(`Sandy (${workspaceLabel(workspace)}): ${NOT_APPROVED_TEXT}`);
        } else if (outcome.kind === 'refused') {
            void showError(`Sandy: ${outcome.problem.message} ${outcome.problem.hint}`);
        } else if (outcome.kind === 'launched') {
            for (const w of outcome.warnings) {
                void showWarning(`Sandy (${workspaceLabel(workspace)}): ${w}`);
            }
        }
    }

    protected async start(request: LaunchRequest): Promise<LaunchOutcome> {
        let workspace: string;
        try {
            workspace = await this.core.canonicalWorkspace(request.workspace);
        } catch (e) {
            return { kind: 'refused', problem: { code: 'usage', message: e instanceof Error ? e.message : String(e), hint: '' } };
        }
        const prepared = await this.core.prepareLaunch(workspace, request);
        if (prepared.kind !== 'ready') {
            return prepared.outcome;
        }
        const terminal = vscode.window.createTerminal({
            name: `sandy: ${workspaceLabel(workspace)}`,
            shellPath: prepared.sandyPath,
            shellArgs: request.args ?? [],
            cwd: workspace,
            env: this.core.launchEnv(),
            // Only the whitelisted environment, as with the PTY (no inherited credentials).
            strictEnv: true,
            iconPath: new vscode.ThemeIcon('server-environment')
        });
        this.terminals.set(workspace, terminal);
        terminal.show();
        await this.core.afterLaunch(workspace);
        const now = Date.now();
        return {
            kind: 'launched',
            warnings: prepared.warnings,
            session: { id: `fallback:${now}`, pid: 0, workspace, args: request.args ?? [], startedAt: now, status: 'running', attachedViews: 1 }
        };
    }

    /** Stop without the supervisor: the terminal is closed (sandy gets a hang-up). */
    stop(workspace: string): boolean {
        const t = this.find(workspace);
        t?.dispose();
        return !!t;
    }

    dispose(): void {
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
