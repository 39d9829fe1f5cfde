import '@xterm/xterm/css/xterm.css';
import '@sandy-ui/core/css/terminal.css';
import './webview.css';
import { isMacPlatform, SandyTerminalView } from '@sandy-ui/core/browser/terminal';
import { TerminalBanner } from '@sandy-ui/core/browser/terminal';
import { terminalThemeFromCss } from '@sandy-ui/core/browser/terminal';
import { browserKeepsKey, chordBindings, isIdeKey, isOfferedLink } from '@sandy-ui/core/common';
import type { KeyChord } from '@sandy-ui/core/common';
import { terminalProtocol } from '../terminal-protocol';
import { propagateStyleNonce, webviewMessenger, webviewState } from './vscode-api';

/**
 * The sandy terminal webview: core's SandyTerminalView and TerminalBanner, wired to the extension
 * host by messages. Every side effect (notifications, clipboard, links) is the host's to decide.
 */
propagateStyleNonce();
const host = webviewMessenger(terminalProtocol);

const root = document.createElement('div');
root.className = 'sandy-terminal-widget sandy-webview-root';
const banner = new TerminalBanner(document, () => host.notify('bannerAction'));
const termNode = document.createElement('div');
termNode.className = 'sandy-terminal-xterm';
root.append(banner.node, termNode);
document.body.appendChild(root);

const theme = () => terminalThemeFromCss(getComputedStyle(document.documentElement), '--vscode-');
const fontFamily = getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-font-family').trim() || undefined;
/** The session's workspace (the host's `links` message): file links inside it are links, none before it is known. */
let workspace: string | undefined;
const view = new SandyTerminalView(termNode, {
    writeClipboard: text => host.notify('clipboard', { text }),
    // The host decides again on a click (and resolves symlinks); here only what is drawn as a link.
    openLink: uri => host.notify('openLink', { uri }),
    acceptsLink: uri => isOfferedLink(uri, workspace),
    // VS Code's webview host passes other IDE keys on by itself; these it leaves to the browser (a "cut"):
    // reported (and kept from the browser) only when the extension runs a command for them, once per press.
    ideKeyPressed: event => {
        if (browserKeepsKey(event) && isIdeKey(event, relayChords) && !event.repeat) {
            event.preventDefault();
            host.notify('ideKey', { code: event.code, ctrl: event.ctrlKey, shift: event.shiftKey, alt: event.altKey, meta: event.metaKey, mac: isMacPlatform() });
        }
    }
}, { theme: theme(), fontFamily });

/** The page said `ready` with its measured size: sizes before it (the view's default font, before the host's appearance) are not the tab's. */
let saidReady = false;
view.attach({
    write: data => host.notify('input', { data }),
    resize: (cols, rows) => {
        if (saidReady) {
            host.notify('resize', { cols, rows });
        }
    },
    acknowledge: chars => host.notify('ack', { chars })
});

// VS Code switches themes by changing the body's classes and the --vscode-* variables.
new MutationObserver(() => view.setTheme(theme())).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// Earlier output: shown, but its notifications and clipboard writes are not acted on again.
host.onNotification('replay', ({ data }) => view.replay(data));
/** The chords the extension relays (its Sandy keybindings whose keys the browser keeps); none until it says. */
let relayChords: KeyChord[] = [];
host.onNotification('ideKeys', ({ keys, relay }) => {
    view.setIdeKeys(keys);
    const isMac = isMacPlatform();
    relayChords = chordBindings((relay ?? []).map(b => ({ ...b, command: 'relay' })), new Set(['relay']), isMac).map(b => b.chord);
});
host.onNotification('links', message => {
    workspace = message.workspace;
});
host.onNotification('data', ({ data }) => view.write(data));
host.onNotification('exitBanner', ({ text }) => view.writeExitBanner(text));
host.onNotification('banner', ({ text, action }) => banner.show(text, action));
host.onNotification('clear', () => view.clear());
host.onNotification('focus', () => view.focus());
host.onNotification('theme', () => view.setTheme(theme()));
// What VS Code gives back to the host's panel serializer after a window reload (the tab's workspace
// and session, checked by the messenger here and again by the host there).
host.onNotification('state', ({ workspace, sessionId }) => webviewState.set(sessionId ? { workspace, sessionId } : { workspace }));

// Measure once the host's terminal settings (the font) are applied, or after APPEARANCE_WAIT_MS without
// them (a host that never sends them), and after the layout, so the first size is the real panel's.
const APPEARANCE_WAIT_MS = 1000;
let measured = false;
const measureAndSayReady = () => {
    if (measured) {
        return;
    }
    measured = true;
    requestAnimationFrame(() => {
        const size = view.measure();
        saidReady = true;
        host.notify('ready', { cols: size.cols, rows: size.rows });
        view.focus();
    });
};
host.onNotification('appearance', appearance => {
    view.setAppearance(appearance);
    measureAndSayReady();
});
setTimeout(measureAndSayReady, APPEARANCE_WAIT_MS);
host.notify('hello');
