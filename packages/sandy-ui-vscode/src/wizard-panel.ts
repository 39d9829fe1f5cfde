import * as vscode from 'vscode';
import { WIZARD_CAPTION, WIZARD_TITLE, WizardController } from '@sandy-ui/core/common';
import type { HostUi, Messenger, WizardHost, WizardService } from '@sandy-ui/core/common';
import { wizardProtocol, wizardToHost, wizardToView, WIZARD_VIEW_TYPE } from './webview/wizard-protocol';
import { hostMessenger, webviewHtml, webviewOptions } from './webview-html';
import { SandyLog } from './logger';

/** Core's WizardHost, but for what this panel does itself (the clipboard and messages, a terminal). */
export type WizardPanelDeps = Pick<WizardHost, 'openSettings' | 'launch' | 'showSession' | 'addProject' | 'sessions' | 'onDidChangeSession'> & {
    service: WizardService;
    ui: HostUi;
    log: SandyLog;
    extensionUri: vscode.Uri;
};

/**
 * The window's one Get Started tab: core's WizardView in a webview, driven by core's WizardController
 * here. A fix command runs in a VS Code terminal (always one of core's commands, shown first).
 */
export class WizardPanels implements vscode.Disposable {
    protected panel: vscode.WebviewPanel | undefined;

    constructor(protected readonly deps: WizardPanelDeps) { }

    show(): void {
        if (this.panel) {
            this.panel.reveal(vscode.ViewColumn.Active, false);
            return;
        }
        const { log, extensionUri, ui } = this.deps;
        const panel = vscode.window.createWebviewPanel(WIZARD_VIEW_TYPE, WIZARD_TITLE, vscode.ViewColumn.Active, webviewOptions(extensionUri, false));
        this.panel = panel;
        panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'sandy.svg');
        panel.webview.html = webviewHtml(panel.webview, extensionUri, 'wizard', WIZARD_CAPTION);
        const channel = hostMessenger(panel.webview, wizardProtocol, log);
        const page: Messenger<typeof wizardToView, typeof wizardToHost> = channel.messenger;
        let ready = false;
        const controller = new WizardController({
            service: this.deps.service,
            view: { render: model => page.notify('render', { model }) },
            host: {
                writeClipboard: text => ui.writeClipboard(text),
                info: message => void ui.info(message),
                error: message => void ui.error(message),
                runInTerminal: async (name, command, cwd) => {
                    const terminal = vscode.window.createTerminal({ name, cwd });
                    terminal.show();
                    terminal.sendText(command, true);
                },
                openSettings: key => this.deps.openSettings(key),
                launch: workspace => this.deps.launch(workspace),
                showSession: session => this.deps.showSession(session),
                addProject: () => this.deps.addProject(),
                sessions: () => this.deps.sessions(),
                onDidChangeSession: this.deps.onDidChangeSession
            }
        });
        const sync = (): void => controller.setVisible(ready && panel.visible);
        page.onNotification('ready', () => {
            const first = !ready;
            ready = true;
            if (first) {
                void controller.start();
            } else {
                controller.setVisible(false);
            }
            sync();
        });
        page.onNotification('act', ({ action }) => void controller.act(action));
        const viewState = panel.onDidChangeViewState(() => sync());
        panel.onDidDispose(() => {
            void controller.dismiss();
            viewState.dispose();
            controller.dispose();
            channel.dispose();
            if (this.panel === panel) {
                this.panel = undefined;
            }
        });
    }

    dispose(): void {
        this.panel?.dispose();
    }
}
