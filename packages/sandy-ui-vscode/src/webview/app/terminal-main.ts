import '@xterm/xterm/css/xterm.css';
import '@sandy-ui/core/css/terminal.css';
import './webview.css';
import { SandyTerminalView } from '@sandy-ui/core/browser/terminal';
import { TerminalBanner } from '@sandy-ui/core/browser/terminal';
import { terminalThemeFromCss } from '@sandy-ui/core/browser/terminal';
import { isOfferedLink } from '@sandy-ui/core/common';
import type { TerminalToHost, TerminalToWebview } from '../terminal-protocol';
import { propagateStyleNonce, webviewChannel } from './vscode-api';

/**
 * The sandy terminal webview: core's SandyTerminalView and TerminalBanner, wired to the extension
 * host by messages. Every side effect (notifications, clipboard, links) is the host's to decide.
 */
propagateStyleNonce();
const channel = webviewChannel<TerminalToHost, TerminalToWebview>();

const root = document.createElement('div');
root.className = 'sandy-terminal-widget sandy-webview-root';
const banner = new TerminalBanner(document, () => channel.post({ type: 'relaunch' }));
const termNode = document.createElement('div');
termNode.className = 'sandy-terminal-xterm';
root.append(banner.node, termNode);
document.body.appendChild(root);

const theme = () => terminalThemeFromCss(getComputedStyle(document.documentElement), '--vscode-');
const fontFamily = getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-font-family').trim() || undefined;
/** The session's workspace (the host's `links` message): file links inside it are links, none before it is known. */
let workspace: string | undefined;
const view = new SandyTerminalView(termNode, {
    notify: n => channel.post({ type: 'notify', title: n.title, body: n.body, source: n.source }),
    writeClipboard: text => channel.post({ type: 'clipboard', text }),
    // The host decides again on a click (and resolves symlinks); here only what is drawn as a link.
    openLink: uri => channel.post({ type: 'openLink', uri }),
    acceptsLink: uri => isOfferedLink(uri, workspace)
}, { theme: theme(), fontFamily });

view.attach({
    write: data => channel.post({ type: 'input', data }),
    resize: (cols, rows) => channel.post({ type: 'resize', cols, rows }),
    acknowledge: chars => channel.post({ type: 'ack', chars })
});

// VS Code switches themes by changing the body's classes and the --vscode-* variables.
new MutationObserver(() => view.setTheme(theme())).observe(document.body, { attributes: true, attributeFilter: ['class'] });

channel.onMessage(message => {
    switch (message.type) {
        case 'replay':
            // Earlier output: shown, but its notifications and clipboard writes are not acted on again.
            view.replay(message.data);
            break;
        case 'links':
            workspace = message.workspace;
            break;
        case 'data':
            view.write(message.data);
            break;
        case 'exitBanner':
            view.writeExitBanner(message.text);
            break;
        case 'banner':
            banner.show(message.text, message.relaunch);
            break;
        case 'clear':
            view.clear();
            break;
        case 'focus':
            view.focus();
            break;
        case 'theme':
            view.setTheme(theme());
            break;
    }
});

// Wait for the layout so the first measure is the real panel, never a default size.
requestAnimationFrame(() => {
    const size = view.measure();
    channel.post({ type: 'ready', cols: size.cols, rows: size.rows });
    view.focus();
});
