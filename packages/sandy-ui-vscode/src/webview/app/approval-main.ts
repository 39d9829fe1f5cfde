import '@sandy-ui/core/css/approval.css';
import './webview.css';
import { ApprovalView } from '@sandy-ui/core/browser/approvals';
import type { ApprovalRequest } from '@sandy-ui/core/common';
import { approvalProtocol } from '../approval-protocol';
import { propagateStyleNonce, webviewMessenger } from './vscode-api';

/** The pre-flight approval webview: core's ApprovalView; decisions and file access go to the host. */
propagateStyleNonce();
const host = webviewMessenger(approvalProtocol);
document.body.classList.add('sandy-page-scroll');

const root = document.createElement('div');
root.className = 'sandy-approval-widget sandy-webview-root';
document.body.appendChild(root);

let request: ApprovalRequest | undefined;
const view = new ApprovalView(root, {
    decide: decision => host.notify('decide', { decision, token: request?.token ?? '' }),
    // A reveal that fails or times out shows the line still masked.
    reveal: line => request ? host.request('reveal', { key: line.key, line: line.line }).catch(() => undefined) : Promise.resolve(undefined),
    openFile: (path, line) => host.notify('openFile', { path, line })
});

host.onNotification('render', message => {
    request = message.request;
    view.render(message.request);
});
host.notify('ready');
