import { inject, injectable } from '@theia/core/shared/inversify';
import { ApplicationShell, FrontendApplicationContribution, StatusBar, StatusBarAlignment } from '@theia/core/lib/browser';
import { StatusBarItem, StatusBarModel } from '@sandy-ui/core/common';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalManager } from './sandy-terminal-manager';

const SESSIONS_ITEM = 'sandy-sessions';
const ACTIVE_ITEM = 'sandy-active-session';

/** Renders core's status bar model; tells it when the focused widget or the sandy tabs change. */
@injectable()
export class SandyStatusBar implements FrontendApplicationContribution {
    @inject(StatusBar) protected readonly statusBar: StatusBar;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyTerminalManager) protected readonly terminals: SandyTerminalManager;
    protected model: StatusBarModel;

    onStart(): void {
        this.model = new StatusBarModel({ state: this.state.window, focusedSession: () => this.terminals.tabs.active?.session }, {
            render: items => {
                this.show(SESSIONS_ITEM, items.sessions, 100);
                this.show(ACTIVE_ITEM, items.active, 99);
            }
        });
        this.terminals.tabs.onDidChange(() => this.model.update());
        this.shell.onDidChangeCurrentWidget(() => this.model.update());
        this.shell.onDidChangeActiveWidget(() => this.model.update());
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
    }
}
