import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Messenger, MessageSet, Protocol } from '@sandy-ui/core/common';

/** The bundles a webview page loads: dist/webview/<name>.js and .css (esbuild output). */
export type WebviewBundle = 'terminal' | 'approval' | 'settings' | 'dashboard' | 'history' | 'history-viewer' | 'wizard';

export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
    return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

/**
 * Options of every Sandy webview: scripts on, and only the bundles folder readable (a webview can
 * load nothing else of the extension or the disk).
 */
export function webviewOptions(extensionUri: vscode.Uri, retainContextWhenHidden: boolean): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
        enableScripts: true,
        enableCommandUris: false,
        retainContextWhenHidden,
        localResourceRoots: [webviewRoot(extensionUri)]
    };
}

/** The bundles' texts, read once each (the extension's files do not change while it runs); undefined: unreadable. */
const bundleTexts = new Map<string, string | undefined>();

function bundleText(file: string): string | undefined {
    if (!bundleTexts.has(file)) {
        let text: string | undefined;
        try {
            text = fs.readFileSync(file, 'utf8');
        } catch {
            text = undefined;
        }
        bundleTexts.set(file, text);
    }
    return bundleTexts.get(file);
}

/**
 * The bundle's script and stylesheet as the page's own text, when both can be read here and the
 * stylesheet refers to no file. A page whose script is a `vscode-resource` URL depends on VS Code's
 * webview service worker to serve it, and in the browser (code-server, vscode.dev) that worker is
 * re-registered by every webview that opens: several tabs opened at once (ten quick launches) left
 * some pages loading while no worker controlled them, their script request went to the network
 * (`net::ERR_NAME_NOT_RESOLVED` for *.vscode-cdn.net) and the tab stayed blank for good
 * (microsoft/vscode#326544). A page that loads nothing cannot lose its script that way.
 */
function inlineBundle(extensionUri: vscode.Uri, bundle: WebviewBundle): { script: string; style: string } | undefined {
    const dir = path.join(extensionUri.fsPath ?? '', 'dist', 'webview');
    const script = bundleText(path.join(dir, `${bundle}.js`));
    const style = bundleText(path.join(dir, `${bundle}.css`));
    if (script === undefined || style === undefined || /url\(/i.test(style)) {
        return undefined;
    }
    // Inside <script>/<style> only these end the element or change how the HTML parser reads it.
    return { script: script.replace(/<(\/script|!--)/gi, '<\\$1'), style: style.replace(/<\/style/gi, '<\\/style') };
}

/**
 * The page of a webview: a strict CSP (nothing by default; scripts only with this page's nonce,
 * styles only from the bundles folder or with the nonce, fonts and images only from the bundles),
 * one stylesheet and one script — inlined with the nonce when they can be ({@link inlineBundle}),
 * else loaded from the bundles folder. The views render everything else through DOM APIs.
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, bundle: WebviewBundle, title: string): string {
    const nonce = crypto.randomBytes(18).toString('base64');
    const root = webviewRoot(extensionUri);
    const script = webview.asWebviewUri(vscode.Uri.joinPath(root, `${bundle}.js`));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(root, `${bundle}.css`));
    const inline = inlineBundle(extensionUri, bundle);
    const csp = [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src ${webview.cspSource} 'nonce-${nonce}'`,
        // xterm's DOM renderer colours truecolor cells with style attributes (setAttribute('style')); no
        // nonce can cover an attribute, so the terminal page allows attributes only — never <style> or
        // scripts. Upstream: xtermjs/xterm.js#4445 (its <style> elements became constructed sheets in #4611).
        ...bundle === 'terminal' || bundle === 'history-viewer' ? ["style-src-attr 'unsafe-inline'"] : [],
        `font-src ${webview.cspSource}`,
        `img-src ${webview.cspSource} data:`
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
${inline ? `<style nonce="${nonce}">${inline.style}</style>` : `<link rel="stylesheet" href="${style}" nonce="${nonce}">`}
</head>
<body data-sandy-view="${bundle}">
${inline ? `<script nonce="${nonce}">${inline.script}</script>` : `<script nonce="${nonce}" src="${script}"></script>`}
</body>
</html>`;
}

/**
 * The host's end of a webview's protocol (core's messenger): everything the page posts is parsed
 * against `protocol` before a handler sees it; refusals and failing handlers go to `log`, never
 * into the extension host. Dispose with the panel.
 */
export function hostMessenger<H extends MessageSet, V extends MessageSet>(
    webview: vscode.Webview, protocol: Protocol<H, V>, log: { warn(text: string): void }
): { messenger: Messenger<V, H> } & vscode.Disposable {
    const messenger = Messenger.forHost(protocol, {
        post: message => void webview.postMessage(message).then(undefined, () => undefined)
    }, { log: text => log.warn(text) });
    const subscription = webview.onDidReceiveMessage(raw => messenger.receive(raw));
    return {
        messenger,
        dispose: () => {
            subscription.dispose();
            messenger.dispose();
        }
    };
}

function escapeHtml(text: string): string {
    return text.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
