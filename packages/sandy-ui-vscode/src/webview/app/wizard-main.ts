import '@sandy-ui/core/css/wizard.css';
import './webview.css';
import { WizardView } from '@sandy-ui/core/browser/onboarding';
import { wizardProtocol } from '../wizard-protocol';
import { propagateStyleNonce, webviewMessenger } from './vscode-api';

/** The Get Started webview: core's WizardView; the host's controller decides everything. */
propagateStyleNonce();
const host = webviewMessenger(wizardProtocol);
document.body.classList.add('sandy-page-scroll');

const root = document.createElement('div');
root.className = 'sandy-wizard-widget sandy-webview-root';
document.body.appendChild(root);

const view = new WizardView(root, { act: action => host.notify('act', { action }) });
host.onNotification('render', ({ model }) => view.render(model));
host.notify('ready');
