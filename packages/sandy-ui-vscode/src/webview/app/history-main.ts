import '@sandy-ui/core/css/history.css';
import './webview.css';
import { HistoryListView } from '@sandy-ui/core/browser/history';
import { historyListProtocol } from '../history-protocol';
import { propagateStyleNonce, webviewMessenger } from './vscode-api';

/** The History list webview: core's HistoryListView; the host's controller asks the backend, opens, relaunches and deletes. */
propagateStyleNonce();
const host = webviewMessenger(historyListProtocol);
document.body.classList.add('sandy-page-scroll');

const root = document.createElement('div');
root.className = 'sandy-history-widget sandy-webview-root';
document.body.appendChild(root);

const view = new HistoryListView(root, {
    search: text => host.notify('search', { text }),
    filter: project => host.notify('filter', { project }),
    open: id => host.notify('open', { id }),
    relaunch: id => host.notify('relaunch', { id }),
    remove: id => host.notify('remove', { id })
});
host.onNotification('render', ({ state }) => view.render(state));
host.onNotification('problem', ({ text }) => view.showProblem(text));
host.notify('ready');
view.focus();
