import '@sandy-ui/core/css/approval.css';
import './webview.css';
import { ApprovalView } from '@sandy-ui/core/browser/approvals';
import type { ApprovalRequest } from '@sandy-ui/core/common';
import type { ApprovalToHost, ApprovalToWebview } from '../approval-protocol';
import { PendingRequests, propagateStyleNonce, webviewChannel } from './vscode-api';

/** The pre-flight approval webview: core's ApprovalView; decisions and file access go to the host. */
propagateStyleNonce();
const channel = webviewChannel<ApprovalToHost, ApprovalToWebview>();
const reveals = new PendingRequests<string | undefined>();
document.body.classList.add('sandy-page-scroll');

const root = document.createElement('div');
root.className = 'sandy-approval-widget sandy-webview-root';
document.body.appendChild(root);

let request: ApprovalRequest | undefined;
const view = new ApprovalView(root, {
    decide: decision => channel.post({ type: 'decide', decision }),
    reveal: line => request
        ? reveals.start(requestId => channel.post({ type: 'reveal', requestId, key: line.key, line: line.line }))
        : Promise.resolve(undefined),
    openFile: (path, line) => channel.post({ type: 'openFile', path, line })
});

channel.onMessage(message => {
    if (message.type === 'render') {
        request = message.request;
        view.render(message.request);
    } else if (message.type === 'revealed') {
        reveals.settle(message.requestId, message.text);
    }
});
channel.post({ type: 'ready' });
