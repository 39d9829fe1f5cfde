import '@sandy-ui/core/css/dashboard.css';
import './webview.css';
import { DashboardView } from '@sandy-ui/core/browser/dashboard';
import { dashboardProtocol } from '../dashboard-protocol';
import { propagateStyleNonce, webviewMessenger } from './vscode-api';

/** The Sessions dashboard webview: core's DashboardView; the host's controller decides when to refresh and opens the tabs. */
propagateStyleNonce();
const host = webviewMessenger(dashboardProtocol);
document.body.classList.add('sandy-page-scroll');

const root = document.createElement('div');
root.className = 'sandy-dashboard-widget sandy-webview-root';
document.body.appendChild(root);

const view = new DashboardView(root, { open: sessionId => host.notify('open', { sessionId }) });
host.onNotification('render', ({ snapshot }) => view.render(snapshot));
host.onNotification('problem', ({ text }) => view.showProblem(text));
host.notify('ready');
