import '@sandy-ui/core/css/settings.css';
import './webview.css';
import { SandySettingsView } from '@sandy-ui/core/browser/settings';
import { settingsProtocol } from '../settings-protocol';
import { propagateStyleNonce, webviewMessenger, webviewState } from './vscode-api';

/**
 * The settings webview: core's SandySettingsView. Edits survive hiding the tab and a reload
 * through the webview's own state (typed secrets excepted, by design); the host (core's
 * SettingsEditor) saves, opens, picks and reloads.
 */
propagateStyleNonce();
const host = webviewMessenger(settingsProtocol);
document.body.classList.add('sandy-page-scroll');

const root = document.createElement('div');
root.className = 'sandy-settings-widget sandy-webview-root';
document.body.appendChild(root);

let dirty = false;
function reportDirty(): void {
    if (view.dirty !== dirty) {
        dirty = view.dirty;
        host.notify('dirty', { dirty });
    }
}

const view: SandySettingsView = new SandySettingsView(root, {
    save: (scope, edits) => host.request('save', { scope, edits }),
    openFile: path => host.request('openFile', { path }),
    pickPath: (kind, current) => host.request('pickPath', { kind, current }),
    addToGitignore: () => host.request('addToGitignore', {}),
    onStateChange: state => {
        webviewState.set(state);
        // Also called while the view is being constructed: read `view` once it is assigned.
        queueMicrotask(reportDirty);
    }
}, { state: webviewState.get() ?? undefined });

host.onNotification('snapshot', ({ snapshot }) => view.update(snapshot));
host.onNotification('problem', ({ problem }) => view.showProblem(problem));
host.onNotification('revealKey', ({ key, scope }) => view.revealKey(key, scope));
view.update(undefined);
host.notify('ready');
