import { inject, injectable } from '@theia/core/shared/inversify';
import { ApplicationShell, FrontendApplicationContribution, StatusBar, StatusBarAlignment } from '@theia/core/lib/browser';
import { activeSessionText, activeSessionTooltip, sessionsStatusText, sessionsStatusTooltip } from '@sandy-ui/core/common';
import { SandyCommands } from './sandy-commands';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalWidget } from './sandy-terminal-widget';
import { SandyTerminalManager } from './sandy-terminal-manager';

const SESSIONS_ITEM = 'sandy-sessions';
const ACTIVE_ITEM = 'sandy-active-session';

/** `N sandy sessions` (click: switch) and, for the focused sandy tab, `pid · agent · elapsed`. */
@injectable()
export class SandyStatusBar implements FrontendApplicationContribution {
    @inject(StatusBar) protected readonly statusBar: StatusBar;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyTerminalManager) protected readonly terminals: SandyTerminalManager;
    protected ticker: ReturnType<typeof setInterval> | undefined;

    onStart(): void {
        this.state.onDidChange(() => this.update());
        this.state.onDidChangeSession(() => this.update());
        this.terminals.onDidChangeWidgets(() => this.update());
        this.shell.onDidChangeCurrentWidget(() => this.update());
        this.shell.onDidChangeActiveWidget(() => this.update());
        this.update();
    }

    protected activeTerminal(): SandyTerminalWidget | undefined {
        const current = this.shell.currentWidget;
        return current instanceof SandyTerminalWidget ? current : undefined;
    }

    protected update(): void {
        const live = this.state.liveSessions;
        if (live.length) {
            this.statusBar.setElement(SESSIONS_ITEM, {
                text: `$(terminal) ${sessionsStatusText(live)}`,
                tooltip: sessionsStatusTooltip(live),
                alignment: StatusBarAlignment.LEFT,
                priority: 100,
                command: SandyCommands.SWITCH_SESSION.id
            });
        } else {
            this.statusBar.removeElement(SESSIONS_ITEM);
        }
        const session = this.activeTerminal()?.sessionInfo;
        if (session && session.status !== 'exited') {
            this.renderActive();
            if (!this.ticker) {
                this.ticker = setInterval(() => this.renderActive(), 1000);
            }
        } else {
            this.statusBar.removeElement(ACTIVE_ITEM);
            if (this.ticker) {
                clearInterval(this.ticker);
                this.ticker = undefined;
            }
        }
    }

    protected renderActive(): void {
        const session = this.activeTerminal()?.sessionInfo;
        if (!session || session.status === 'exited') {
            this.update();
            return;
        }
        this.statusBar.setElement(ACTIVE_ITEM, {
            text: activeSessionText(session),
            tooltip: activeSessionTooltip(session),
            alignment: StatusBarAlignment.LEFT,
            priority: 99
        });
    }
}
