import * as vscode from 'vscode';
import { FALLBACK_NOTICE, launchWarningText, problemNoticeText, terminalTitle, toProblem } from '@sandy-ui/core/common';
import { launchUntilCleared, LaunchClearance, NOT_APPROVED_TEXT } from '@sandy-ui/core/common';
import type { ApprovalRequest, ProjectSessionTabs, SelfHostedSessions, SessionInfo, SessionTab } from '@sandy-ui/core/common';
import type { LaunchOutcome, LaunchRequest, SandyService } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { SandyLog } from './logger';
import { showInfo, showWarning, showError } from './messages';

interface Running {
    terminal: vscode.Terminal;
    /** What the commands see (pid 0: the editor owns the process). */
    session: SessionInfo;
}

/**
 * Without node-pty (the universal .vsix, or a platform whose prebuild does not load) sandy runs in
 * `vscode.window.createTerminal`: the same pre-flight and approval (core's prepareLaunch), the same
 * whitelisted environment (strictEnv; never `SANDY_AUTO_APPROVE_PRIVILEGED`, which would skip sandy's Dockerfile
 * gate and record no approval): sandy asks its own prompts in that terminal, the user answers, sandy records.
 *
 * To the project commands these terminals are tabs like any other (core's SessionTabs): each live
 * one shows a session they host themselves ({@link SelfHostedSessions}), which Stop ends by closing
 * the terminal (sandy gets a hang-up). Detach cannot keep it alive, so it does nothing.
 */
export class FallbackTerminals implements ProjectSessionTabs, vscode.Disposable {
    protected readonly running = new Map<string, Running>();
    protected noticeShown = false;
    protected readonly toDispose: vscode.Disposable[] = [];

    constructor(
        protected readonly core: SandyServiceCore,
        protected readonly service: Pick<SandyService, 'canonicalWorkspace'>,
        protected readonly log: SandyLog,
        readonly reason: string,
        protected readonly clearForLaunch: (workspace: string, request: ApprovalRequest) => Promise<LaunchClearance | undefined>
    ) {
        this.toDispose.push(vscode.window.onDidCloseTerminal(t => {
            for (const [ws, r] of this.running) {
                if (r.terminal === t) {
                    this.running.delete(ws);
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

    protected live(workspace: string): Running | undefined {
        const r = this.running.get(workspace);
        return r && r.terminal.exitStatus === undefined ? r : undefined;
    }

    protected tab(r: Running): SessionTab {
        return { workspace: r.session.workspace, session: r.session, detach: () => undefined };
    }

    get active(): SessionTab | undefined {
        const focused = vscode.window.activeTerminal;
        const r = [...this.running.values()].find(x => x.terminal === focused && x.terminal.exitStatus === undefined);
        return r && this.tab(r);
    }

    findByWorkspace(workspace: string): SessionTab | undefined {
        const r = this.live(workspace);
        return r && this.tab(r);
    }

    async attach(session: SessionInfo): Promise<void> {
        this.live(session.workspace)?.terminal.show();
    }

    readonly selfHosted: SelfHostedSessions = {
        list: () => [...this.running.keys()].flatMap(ws => this.live(ws)?.session ?? []),
        stop: async sessionId => {
            const r = [...this.running.values()].find(x => x.session.id === sessionId && x.terminal.exitStatus === undefined);
            if (!r) {
                return undefined;
            }
            r.terminal.dispose();
            this.running.delete(r.session.workspace);
            return { ...r.session, status: 'exited', endedAt: Date.now() };
        }
    };

    async openForWorkspace(workspace: string, clearance: LaunchClearance | undefined): Promise<void> {
        this.showNotice();
        const running = this.live(workspace);
        if (running) {
            running.terminal.show();
            return;
        }
        const outcome = await launchUntilCleared(workspace, clearance, {
            launch: request => this.start(request),
            // The editor's terminal sizes itself; sandy reads the size from its TTY.
            measure: () => ({ cols: 80, rows: 24 }),
            clear: (ws, request) => this.clearForLaunch(ws, request)
        });
        if (outcome.kind === 'not-approved') {
            void showInfo(launchWarningText(workspace, NOT_APPROVED_TEXT));
        } else if (outcome.kind === 'refused') {
            void showError(problemNoticeText(outcome.problem));
        } else if (outcome.kind === 'launched') {
            for (const w of outcome.warnings) {
                void showWarning(launchWarningText(workspace, w));
            }
        }
    }

    protected async start(request: LaunchRequest): Promise<LaunchOutcome> {
        let workspace: string;
        try {
            workspace = await this.service.canonicalWorkspace(request.workspace);
        } catch (e) {
            return { kind: 'refused', problem: toProblem(e) };
        }
        const prepared = await this.core.prepareLaunch(workspace, request);
        if (prepared.kind !== 'ready') {
            return prepared.outcome;
        }
        const terminal = vscode.window.createTerminal({
            name: terminalTitle(workspace, undefined, false),
            shellPath: prepared.sandyPath,
            shellArgs: request.args ?? [],
            cwd: workspace,
            env: this.core.launchEnv(),
            // Only the whitelisted environment, as with the PTY (no inherited credentials).
            strictEnv: true,
            iconPath: new vscode.ThemeIcon('server-environment')
        });
        const now = Date.now();
        const session: SessionInfo = { id: `fallback:${now}`, pid: 0, mode: 'foreground', origin: 'ide', workspace, args: request.args ?? [], startedAt: now, status: 'running', attachedViews: 1 };
        this.running.set(workspace, { terminal, session });
        terminal.show();
        await this.core.afterLaunch(workspace, request.args);
        return { kind: 'launched', warnings: prepared.warnings, session };
    }

    dispose(): void {
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
