import * as vscode from 'vscode';
import type { EventLike, SessionTabs, StatusBarItem } from '@sandy-ui/core/common';
import { LongRunningNudge, sandyViewState, STATUS_BAR_NAMES, StatusBarModel } from '@sandy-ui/core/common';
import { vscodeHostUi } from './messages';
import { readSettings, SandyState } from './sandy-state';

/** Renders core's status bar model; tells it when the sandy tabs (or their focus) change. */
export class SandyStatusBar implements vscode.Disposable {
    protected readonly sandy = vscode.window.createStatusBarItem('sandy.sandy', vscode.StatusBarAlignment.Left, 102);
    protected readonly sessions = vscode.window.createStatusBarItem('sandy.sessions', vscode.StatusBarAlignment.Left, 100);
    protected readonly active = vscode.window.createStatusBarItem('sandy.activeSession', vscode.StatusBarAlignment.Left, 99);
    protected readonly needsYou = vscode.window.createStatusBarItem('sandy.needsYou', vscode.StatusBarAlignment.Left, 101);
    protected readonly doNotDisturb = vscode.window.createStatusBarItem('sandy.doNotDisturb', vscode.StatusBarAlignment.Left, 98);
    protected readonly model: StatusBarModel;
    protected readonly toDispose: vscode.Disposable[] = [this.sandy, this.sessions, this.active, this.needsYou, this.doNotDisturb];

    constructor(state: SandyState, tabs: SessionTabs & { readonly onDidChange: EventLike<void> }) {
        this.sandy.name = STATUS_BAR_NAMES.sandy;
        this.sessions.name = STATUS_BAR_NAMES.sessions;
        this.active.name = STATUS_BAR_NAMES.active;
        this.needsYou.name = STATUS_BAR_NAMES.needsYou;
        this.doNotDisturb.name = STATUS_BAR_NAMES.doNotDisturb;
        this.model = new StatusBarModel({ state, focusedSession: () => tabs.active?.session, // Read from the user's settings until the window looks at sandy (its configuration is sent then).
            doNotDisturb: () => (state.configuration ?? readSettings().sandy).doNotDisturb === true,
            // Nothing while the window does not look at sandy (SandyState.start: nothing shows sandy state yet).
            sandy: () => state.looking ? { state: sandyViewState(state.snapshot), problem: state.snapshot?.status.problem?.message } : undefined
        }, {
            render: items => {
                show(this.sandy, items.sandy);
                show(this.needsYou, items.needsYou);
                show(this.sessions, items.sessions);
                show(this.active, items.active);
                show(this.doNotDisturb, items.doNotDisturb);
            }
        });
        this.toDispose.push(this.model, tabs.onDidChange(() => this.model.update()), state.onDidStart(() => this.model.update()),
            vscode.workspace.onDidChangeConfiguration(e => e.affectsConfiguration('sandy.doNotDisturb') && this.model.update()));
        // Sessions older than the user's sandy.longRunningHours: asked about once per window (core).
        this.toDispose.push(new LongRunningNudge({
            sessions: () => state.liveSessions, onChange: state.onDidChange, hours: () => state.configuration?.longRunningHours ?? 24,
            ui: vscodeHostUi, stop: id => state.service.stop(id)
        }));
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
