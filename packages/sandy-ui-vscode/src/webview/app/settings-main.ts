import '@sandy-ui/core/css/settings.css';
import './webview.css';
import { SandySettingsView } from '@sandy-ui/core/browser/settings';
import type { SettingsSaveResult } from '@sandy-ui/core/common';
import type { SettingsToHost, SettingsToWebview } from '../settings-protocol';
import { PendingRequests, propagateStyleNonce, webviewChannel } from './vscode-api';

/**
 * The settings webview: core's SandySettingsView. Edits survive hiding the tab and a reload
 * through the webview's own state (typed secrets excepted, by design); saving goes to the host.
 */
propagateStyleNonce();
const channel = webviewChannel<SettingsToHost, SettingsToWebview>();
const saves = new PendingRequests<SettingsSaveResult>();
const picks = new PendingRequests<string | undefined>();
const chores = new PendingRequests<void>();
document.body.classList.add('sandy-page-scroll');

const root = document.createElement('div');
root.className = 'sandy-settings-widget sandy-webview-root';
document.body.appendChild(root);

let dirty = false;
function reportDirty(): void {
    if (view.dirty !== dirty) {
        dirty = view.dirty;
        channel.post({ type: 'dirty', dirty });
    }
}

const view: SandySettingsView = new SandySettingsView(root, {
    save: (scope, edits) => saves.start(requestId => channel.post({ type: 'save', requestId, scope, edits })),
    openFile: path => channel.post({ type: 'openFile', path }),
    pickPath: (kind, current) => picks.start(requestId => channel.post({ type: 'pickPath', requestId, kind, current })),
    addToGitignore: () => chores.start(requestId => channel.post({ type: 'addToGitignore', requestId })),
    onStateChange: state => {
        channel.setState(state);
        // Also called while the view is being constructed: read `view` once it is assigned.
        queueMicrotask(reportDirty);
    }
}, { state: channel.getState() ?? undefined });

channel.onMessage(message => {
    switch (message.type) {
        case 'snapshot':
            view.update(message.snapshot);
            break;
        case 'problem':
            view.showProblem(message.problem);
            break;
        case 'saved':
            saves.settle(message.requestId, message.result);
            break;
        case 'picked':
            picks.settle(message.requestId, message.path);
            break;
        case 'done':
            chores.settle(message.requestId, undefined);
            break;
        case 'revealKey':
            view.revealKey(message.key, message.scope);
            break;
    }
});
view.update(undefined);
channel.post({ type: 'ready' });
