import * as vscode from 'vscode';
import { activeSessionText, activeSessionTooltip, sessionsStatusText, sessionsStatusTooltip } from '@sandy-ui/core/common';
import { SandyState } from './sandy-state';
import { TerminalPanels } from './terminal-panel';

/** `N sandy sessions` (click: switch) and, for the focused sandy tab, `pid · agent · elapsed`. */
export class SandyStatusBar implements vscode.Disposable {
    protected readonly sessions = vscode.window.createStatusBarItem('sandy.sessions', vscode.StatusBarAlignment.Left, 100);
    protected readonly active = vscode.window.createStatusBarItem('sandy.activeSession', vscode.StatusBarAlignment.Left, 99);
    protected ticker: ReturnType<typeof setInterval> | undefined;
    protected readonly toDispose: vscode.Disposable[] = [this.sessions, this.active];

    constructor(protected readonly state: SandyState, protected readonly terminals: TerminalPanels) {
        this.sessions.name = 'Sandy sessions';
        this.sessions.command = 'sandy.switchSession';
        this.active.name = 'Sandy active session';
        this.toDispose.push(state.onDidChange(() => this.update()), state.onDidChangeSession(() => this.update()), terminals.onDidChange(() => this.update()));
        this.update();
    }

    protected update(): void {
        const live = this.state.liveSessions;
        if (live.length) {
            this.sessions.text = `$(terminal) ${sessionsStatusText(live)}`;
            this.sessions.tooltip = sessionsStatusTooltip(live);
            this.sessions.show();
        } else {
            this.sessions.hide();
        }
        const session = this.terminals.activePanel?.sessionInfo;
        if (session && session.status !== 'exited') {
            this.renderActive();
            this.ticker ??= setInterval(() => this.renderActive(), 1000);
        } else {
            this.active.hide();
            if (this.ticker) {
                clearInterval(this.ticker);
                this.ticker = undefined;
            }
        }
    }

    protected renderActive(): void {
        const session = this.terminals.activePanel?.sessionInfo;
        if (!session || session.status === 'exited') {
            this.update();
            return;
        }
        this.active.text = activeSessionText(session);
        this.active.tooltip = activeSessionTooltip(session);
        this.active.show();
    }

    dispose(): void {
        if (this.ticker) {
            clearInterval(this.ticker);
        }
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
