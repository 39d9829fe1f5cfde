import * as vscode from 'vscode';
import { approvalRequestFiles, type ApprovalDecision, type ApprovalRequest } from '@sandy-ui/core/common';
import { workspaceLabel } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { validate } from './webview/messages';
import { ApprovalToHost, ApprovalToWebview, checkApprovalToHost } from './webview/approval-protocol';
import { webviewHtml, webviewOptions } from './webview-html';
import { SandyLog } from './logger';

export const APPROVAL_VIEW_TYPE = 'sandy.approval';

/** One approval tab per workspace: core's ApprovalView in a webview; closing it counts as Reject. */
class ApprovalPanel {
    readonly panel: vscode.WebviewPanel;
    protected request: ApprovalRequest | undefined;
    protected settle: ((decision: ApprovalDecision) => void) | undefined;
    protected ready = false;

    constructor(readonly workspace: string, protected readonly owner: ApprovalPanels) {
        this.panel = vscode.window.createWebviewPanel(APPROVAL_VIEW_TYPE, `Approve: ${workspaceLabel(workspace)}`,
            vscode.ViewColumn.Active, webviewOptions(owner.extensionUri, false));
        this.panel.iconPath = vscode.Uri.joinPath(owner.extensionUri, 'media', 'sandy.svg');
        this.panel.webview.html = webviewHtml(this.panel.webview, owner.extensionUri, 'approval', `sandy pre-flight for ${workspace}`);
        this.panel.webview.onDidReceiveMessage(raw => {
            const checked = validate(checkApprovalToHost, raw);
            if (!checked.ok) {
                owner.log.warn(`sandy approval: refused a webview message: ${checked.error}`);
                return;
            }
            void this.handle(checked.message);
        });
        this.panel.onDidDispose(() => {
            this.resolve('reject');
            owner.remove(this);
        });
    }

    ask(request: ApprovalRequest): Promise<ApprovalDecision> {
        this.resolve('reject');
        this.request = request;
        if (this.ready) {
            this.post({ type: 'render', request });
        }
        this.panel.reveal(vscode.ViewColumn.Active, false);
        return new Promise(resolve => this.settle = resolve);
    }

    protected post(message: ApprovalToWebview): void {
        void this.panel.webview.postMessage(message);
    }

    protected resolve(decision: ApprovalDecision): void {
        const settle = this.settle;
        this.settle = undefined;
        settle?.(decision);
    }

    protected async handle(message: ApprovalToHost): Promise<void> {
        const request = this.request;
        switch (message.type) {
            case 'ready':
                this.ready = true;
                if (request) {
                    this.post({ type: 'render', request });
                }
                break;
            case 'decide':
                if (this.settle) {
                    this.resolve(message.decision);
                    this.panel.dispose();
                }
                break;
            case 'reveal': {
                // Only a masked line of the request on screen, and only while the files still match its token.
                const line = request?.lines.find(l => l.key === message.key && l.line === message.line && l.masked);
                const text = request && line
                    ? await this.owner.core.revealApprovalLine(request.workspace, request.token, line.key, line.line).catch(() => undefined)
                    : undefined;
                this.post({ type: 'revealed', requestId: message.requestId, text });
                break;
            }
            case 'openFile': {
                const allowed = request && approvalRequestFiles(request).includes(message.path);
                if (!allowed) {
                    this.owner.log.warn('sandy approval: refused to open a file the request does not name');
                    return;
                }
                const line = message.line ? Math.max(0, message.line - 1) : 0;
                await vscode.window.showTextDocument(vscode.Uri.file(message.path), {
                    selection: new vscode.Range(line, 0, line, 0), viewColumn: vscode.ViewColumn.Beside
                });
                break;
            }
        }
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
