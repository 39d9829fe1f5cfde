import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { Messenger, MessageSet, Protocol } from '@sandy-ui/core/common';

/** The bundles a webview page loads: dist/webview/<name>.js and .css (esbuild output). */
export type WebviewBundle = 'terminal' | 'approval' | 'settings';

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

/**
 * The page of a webview: a strict CSP (nothing by default; scripts only with this page's nonce,
 * styles only from the bundles folder or with the nonce, fonts and images only from the bundles),
 * one stylesheet and one script. The views render everything else through DOM APIs.
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, bundle: WebviewBundle, title: string): string {
    const nonce = crypto.randomBytes(18).toString('base64');
    const root = webviewRoot(extensionUri);
    const script = webview.asWebviewUri(vscode.Uri.joinPath(root, `${bundle}.js`));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(root, `${bundle}.css`));
    const csp = [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src ${webview.cspSource} 'nonce-${nonce}'`,
        // xterm's DOM renderer colours truecolor cells with style attributes (setAttribute('style')); no
        // nonce can cover an attribute, so the terminal page allows attributes only — never <style> or
        // scripts. Upstream: xtermjs/xterm.js#4445 (its <style> elements became constructed sheets in #4611).
        ...bundle === 'terminal' ? ["style-src-attr 'unsafe-inline'"] : [],
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
<link rel="stylesheet" href="${style}" nonce="${nonce}">
</head>
<body data-sandy-view="${bundle}">
<script nonce="${nonce}" src="${script}"></script>
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
