import * as vscode from 'vscode';
import type { EventLike, SessionTabs, StatusBarItem } from '@sandy-ui/core/common';
import { STATUS_BAR_NAMES, StatusBarModel } from '@sandy-ui/core/common';
import { SandyState } from './sandy-state';

/** Renders core's status bar model; tells it when the sandy tabs (or their focus) change. */
export class SandyStatusBar implements vscode.Disposable {
    protected readonly sessions = vscode.window.createStatusBarItem('sandy.sessions', vscode.StatusBarAlignment.Left, 100);
    protected readonly active = vscode.window.createStatusBarItem('sandy.activeSession', vscode.StatusBarAlignment.Left, 99);
    protected readonly model: StatusBarModel;
    protected readonly toDispose: vscode.Disposable[] = [this.sessions, this.active];

    constructor(state: SandyState, tabs: SessionTabs & { readonly onDidChange: EventLike<void> }) {
        this.sessions.name = STATUS_BAR_NAMES.sessions;
        this.active.name = STATUS_BAR_NAMES.active;
        this.model = new StatusBarModel({ state, focusedSession: () => tabs.active?.session }, {
            render: items => {
                show(this.sessions, items.sessions);
                show(this.active, items.active);
            }
        });
        this.toDispose.push(this.model, tabs.onDidChange(() => this.model.update()));
    }

    dispose(): void {
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}

function show(target: vscode.StatusBarItem, item: StatusBarItem | undefined): void {
    if (!item) {
        target.hide();
        return;
    }
    target.text = item.text;
    target.tooltip = item.tooltip;
    target.command = item.command;
    target.show();
}
