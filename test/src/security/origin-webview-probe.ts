/**
 * A tiny VS Code extension for the origin suite: on startup it opens a plugin webview whose page
 * does what hostile content in a webview would try on its own origin (`<uuid>.webview.<host>`):
 * upload over a file, download one, open Theia's socket. It reports what it got back to the
 * extension host, which writes it to a file the test reads. The webview coming up at all is the
 * legitimate path (Theia's webview shell served on that origin).
 */
import * as fs from 'fs';
import * as path from 'path';

/** What the webview page saw (HTTP status per probe, or what happened to its socket). */
export interface WebviewProbeReport {
    origin: string;
    upload: number | string;
    download: number | string;
    polling: number | string;
    socket: string;
}

/** Writes the extension into `<pluginsDir>/origin-webview-probe`; `reportFile` receives the JSON report. */
export function writeWebviewProbe(pluginsDir: string, targetFileUri: string, reportFile: string): void {
    const dir = path.join(pluginsDir, 'origin-webview-probe');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
        name: 'origin-webview-probe',
        publisher: 'sandy-test',
        version: '0.0.1',
        engines: { vscode: '^1.50.0' },
        main: './extension.js',
        activationEvents: ['onStartupFinished']
    }, undefined, 4));
    const page = `<!doctype html><html><body><h1 id="probe">webview probe running</h1><script>
(async () => {
    const vscode = acquireVsCodeApi();
    const target = ${JSON.stringify(targetFileUri)};
    const status = async (url, init) => { try { return (await fetch(url, init)).status; } catch (e) { return 'network error'; } };
    const form = new FormData();
    form.append('uri', target);
    form.append('file', new Blob(['written by a webview\\n']), 'payload');
    const report = { origin: location.origin };
    report.upload = await status('/file-upload', { method: 'POST', body: form });
    report.download = await status('/files/?uri=' + encodeURIComponent(target));
    report.polling = await status('/socket.io/?EIO=4&transport=polling');
    report.socket = await new Promise(resolve => {
        const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/socket.io/?EIO=4&transport=websocket');
        const timer = setTimeout(() => resolve('timeout'), 10000);
        ws.onmessage = e => { clearTimeout(timer); ws.close(); resolve('open: ' + e.data); };
        ws.onerror = () => { clearTimeout(timer); resolve('error'); };
    });
    document.getElementById('probe').textContent = 'webview probe done';
    vscode.postMessage(report);
})();
</script></body></html>`;
    fs.writeFileSync(path.join(dir, 'extension.js'), `'use strict';
const vscode = require('vscode');
const fs = require('fs');
exports.activate = () => {
    const panel = vscode.window.createWebviewPanel('originWebviewProbe', 'Origin probe', vscode.ViewColumn.One, { enableScripts: true });
    panel.webview.onDidReceiveMessage(report => fs.writeFileSync(${JSON.stringify(reportFile)}, JSON.stringify(report)));
    panel.webview.html = ${JSON.stringify(page)};
};
`);
}
