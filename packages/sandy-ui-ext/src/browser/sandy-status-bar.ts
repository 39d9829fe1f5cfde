import { inject, injectable } from '@theia/core/shared/inversify';
import { ApplicationShell, FrontendApplicationContribution, StatusBar, StatusBarAlignment } from '@theia/core/lib/browser';
import { LongRunningNudge, sandyViewState, StatusBarItem, StatusBarModel } from '@sandy-ui/core/common';
import { SandyHostUi } from './sandy-host-ui';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalManager } from './sandy-terminal-manager';

const SANDY_ITEM = 'sandy-sandy';
const SESSIONS_ITEM = 'sandy-sessions';
const ACTIVE_ITEM = 'sandy-active-session';
const NEEDS_YOU_ITEM = 'sandy-needs-you';
const DO_NOT_DISTURB_ITEM = 'sandy-do-not-disturb';

/** Renders core's status bar model; tells it when the focused widget or the sandy tabs change. */
@injectable()
export class SandyStatusBar implements FrontendApplicationContribution {
    @inject(StatusBar) protected readonly statusBar: StatusBar;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyTerminalManager) protected readonly terminals: SandyTerminalManager;
    @inject(SandyHostUi) protected readonly ui: SandyHostUi;
    protected model: StatusBarModel;
    protected nudge: LongRunningNudge;

    onStart(): void {
        const window = this.state.window;
        this.model = new StatusBarModel({
            state: window, focusedSession: () => this.terminals.tabs.active?.session, doNotDisturb: () => window.configuration?.doNotDisturb === true,
            sandy: () => ({ state: sandyViewState(window.snapshot), problem: window.snapshot?.status.problem?.message })
        }, {
            render: items => {
                this.show(SANDY_ITEM, items.sandy, 102);
                this.show(NEEDS_YOU_ITEM, items.needsYou, 101);
                this.show(SESSIONS_ITEM, items.sessions, 100);
                this.show(ACTIVE_ITEM, items.active, 99);
                this.show(DO_NOT_DISTURB_ITEM, items.doNotDisturb, 98);
            }
        });
        this.terminals.tabs.onDidChange(() => this.model.update());
        this.shell.onDidChangeCurrentWidget(() => this.model.update());
        this.shell.onDidChangeActiveWidget(() => this.model.update());
        // Sessions older than the user's sandy.longRunningHours: asked about once per window (core).
        this.nudge = new LongRunningNudge({
            sessions: () => window.liveSessions, onChange: window.onDidChange, hours: () => window.configuration?.longRunningHours ?? 24,
            ui: this.ui, stop: id => window.service.stop(id)
        });
    }

    protected show(id: string, item: StatusBarItem | undefined, priority: number): void {
        if (item) {
            this.statusBar.setElement(id, { text: item.text, tooltip: item.tooltip, command: item.command, alignment: StatusBarAlignment.LEFT, priority });
        } else {
            this.statusBar.removeElement(id);
        }
    }

    onStop(): void {
        this.model?.dispose();
        this.nudge?.dispose();
    }
}
