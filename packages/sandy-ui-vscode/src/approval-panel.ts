import * as vscode from 'vscode';
import { approvalRequestFiles, type ApprovalDecision, type ApprovalRequest } from '@sandy-ui/core/common';
import { approvalCaption, approvalTitle, type Messenger } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { approvalProtocol, approvalToHost, approvalToView } from './webview/approval-protocol';
import { hostMessenger, webviewHtml, webviewOptions } from './webview-html';
import { SandyLog } from './logger';

export const APPROVAL_VIEW_TYPE = 'sandy.approval';

/** One approval tab per workspace: core's ApprovalView in a webview; closing it counts as Reject. */
class ApprovalPanel {
    readonly panel: vscode.WebviewPanel;
    protected readonly page: Messenger<typeof approvalToView, typeof approvalToHost>;
    protected request: ApprovalRequest | undefined;
    protected settle: ((decision: ApprovalDecision) => void) | undefined;
    protected ready = false;

    constructor(readonly workspace: string, protected readonly owner: ApprovalPanels) {
        this.panel = vscode.window.createWebviewPanel(APPROVAL_VIEW_TYPE, approvalTitle(workspace),
            vscode.ViewColumn.Active, webviewOptions(owner.extensionUri, false));
        this.panel.iconPath = vscode.Uri.joinPath(owner.extensionUri, 'media', 'sandy.svg');
        this.panel.webview.html = webviewHtml(this.panel.webview, owner.extensionUri, 'approval', approvalCaption(workspace));
        const channel = hostMessenger(this.panel.webview, approvalProtocol, owner.log);
        this.page = channel.messenger;
        this.page.onNotification('ready', () => {
            this.ready = true;
            this.render();
        });
        this.page.onNotification('decide', ({ decision, token }) => {
            // A second ask() for this workspace swaps the request while a click on the first may be in
            // flight: a decision counts only for the request it was made on (the one the user saw).
            if (token !== this.request?.token) {
                this.owner.log.warn('sandy approval: ignored a decision about a request that is no longer on screen');
                return;
            }
            if (this.settle) {
                this.resolve(decision);
                this.panel.dispose();
            }
        });
        this.page.onRequest('reveal', ({ key, line }) => this.reveal(key, line));
        this.page.onNotification('openFile', ({ path, line }) => this.openFile(path, line));
        this.panel.onDidDispose(() => {
            channel.dispose();
            this.resolve('reject');
            owner.remove(this);
        });
    }

    ask(request: ApprovalRequest): Promise<ApprovalDecision> {
        this.resolve('reject');
        this.request = request;
        this.render();
        this.panel.reveal(vscode.ViewColumn.Active, false);
        return new Promise(resolve => this.settle = resolve);
    }

    protected render(): void {
        if (this.request) {
            this.panel.title = approvalTitle(this.workspace, this.request.kind);
        }
        if (this.ready && this.request) {
            this.page.notify('render', { request: this.request });
        }
    }

    protected resolve(decision: ApprovalDecision): void {
        const settle = this.settle;
        this.settle = undefined;
        settle?.(decision);
    }

    /** Only a masked line of the request on screen, and only while the files still match its token. */
    protected async reveal(key: string, lineNumber: number): Promise<string | undefined> {
        const request = this.request;
        const line = request?.lines.find(l => l.key === key && l.line === lineNumber && l.masked);
        return request && line
            ? this.owner.core.revealApprovalLine(request.workspace, request.token, line.key, line.line).catch(() => undefined)
            : undefined;
    }

    /** Only a file the request names. */
    protected async openFile(file: string, lineNumber: number | undefined): Promise<void> {
        if (!this.request || !approvalRequestFiles(this.request).includes(file)) {
            this.owner.log.warn('sandy approval: refused to open a file the request does not name');
            return;
        }
        const line = lineNumber ? Math.max(0, lineNumber - 1) : 0;
        await vscode.window.showTextDocument(vscode.Uri.file(file), {
            selection: new vscode.Range(line, 0, line, 0), viewColumn: vscode.ViewColumn.Beside
        });
    }
}

/** Opens the approval view for a request and returns what the user decided. */
export class ApprovalPanels implements vscode.Disposable {
    protected readonly panels = new Map<string, ApprovalPanel>();

    constructor(readonly core: SandyServiceCore, readonly log: SandyLog, readonly extensionUri: vscode.Uri) { }

    ask(request: ApprovalRequest): Promise<ApprovalDecision> {
        let panel = this.panels.get(request.workspace);
        if (!panel) {
            panel = new ApprovalPanel(request.workspace, this);
            this.panels.set(request.workspace, panel);
        }
        return panel.ask(request);
    }

    remove(panel: ApprovalPanel): void {
        if (this.panels.get(panel.workspace) === panel) {
            this.panels.delete(panel.workspace);
        }
    }

    dispose(): void {
        for (const panel of [...this.panels.values()]) {
            panel.panel.dispose();
        }
    }
}
