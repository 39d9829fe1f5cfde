import '@xterm/xterm/css/xterm.css';
import '@sandy-ui/core/css/history.css';
import './webview.css';
import { createHistoryViewer } from '@sandy-ui/core/browser/history';
import { terminalThemeFromCss } from '@sandy-ui/core/browser/terminal';
import { historyViewerProtocol } from '../history-protocol';
import { propagateStyleNonce, webviewMessenger } from './vscode-api';

/**
 * A recorded session's read-only viewer webview: core's HistoryViewer (its terminal takes no input
 * and answers nothing: nothing of it is ever posted but the user's copy and Relaunch).
 */
propagateStyleNonce();
const host = webviewMessenger(historyViewerProtocol);

const root = document.createElement('div');
root.className = 'sandy-history-viewer-widget sandy-webview-root';
document.body.appendChild(root);

const theme = () => terminalThemeFromCss(getComputedStyle(document.documentElement), '--vscode-');
const fontFamily = getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-font-family').trim() || undefined;
const viewer = createHistoryViewer(root, {
    copy: text => host.notify('copy', { text }),
    relaunch: () => host.notify('relaunch')
}, { theme: theme(), fontFamily });

host.onNotification('record', ({ record }) => viewer.setRecord(record));
host.onNotification('clear', () => viewer.clear());
host.onNotification('done', ({ cut }) => viewer.done({ cut }));
host.onNotification('problem', ({ text }) => viewer.showProblem(text));
host.onNotification('appearance', appearance => viewer.setAppearance(appearance));
host.onNotification('theme', () => viewer.setTheme(theme()));
host.onRequest('write', async ({ text }) => {
    await viewer.write(text);
    return true;
});
host.notify('ready');
requestAnimationFrame(() => {
    viewer.fit();
    viewer.focus();
});
