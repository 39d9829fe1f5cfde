import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { SettingsEditor, settingsEditorCaption, settingsEditorTitle, SettingsScope } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { settingsProtocol } from './webview/settings-protocol';
import { hostMessenger, webviewHtml, webviewOptions } from './webview-html';
import { SandyLog } from './logger';

export const SETTINGS_VIEW_TYPE = 'sandy.settings';

/** The settings editor (core's SettingsEditor; core's SandySettingsView in the page) in a webview tab. */
class SettingsPanel {
    readonly panel: vscode.WebviewPanel;
    readonly editor: SettingsEditor;

    constructor(readonly workspace: string | undefined, owner: SettingsPanels) {
        this.panel = vscode.window.createWebviewPanel(SETTINGS_VIEW_TYPE, settingsEditorTitle(workspace), vscode.ViewColumn.Active,
            webviewOptions(owner.extensionUri, true));
        this.panel.iconPath = vscode.Uri.joinPath(owner.extensionUri, 'media', 'sandy.svg');
        this.panel.webview.html = webviewHtml(this.panel.webview, owner.extensionUri, 'settings', settingsEditorCaption(workspace));
        const channel = hostMessenger(this.panel.webview, settingsProtocol, owner.log);
        const page = channel.messenger;
        this.editor = new SettingsEditor({
            workspace,
            service: owner.core,
            view: {
                show: snapshot => page.notify('snapshot', { snapshot }),
                showProblem: problem => page.notify('problem', { problem }),
                revealKey: (key, scope) => page.notify('revealKey', { key, scope }),
                setTitle: title => this.panel.title = title
            },
            host: {
                openFile: openSettingsFile,
                pickPath: async ({ kind, title, current }) => (await vscode.window.showOpenDialog({
                    title,
                    canSelectFolders: kind === 'folder',
                    canSelectFiles: kind === 'file',
                    canSelectMany: false,
                    defaultUri: current ? vscode.Uri.file(current) : undefined
                }))?.[0]?.fsPath,
                appendLog: line => owner.output.appendLine(line),
                warn: text => owner.log.warn(text)
            }
        });
        page.onNotification('ready', () => this.editor.viewReady());
        page.onNotification('dirty', ({ dirty }) => this.editor.setDirty(dirty));
        page.onRequest('save', ({ scope, edits }) => this.editor.save(scope, edits));
        page.onRequest('openFile', ({ path: file }) => this.editor.openFile(file));
        page.onRequest('pickPath', ({ kind, current }) => this.editor.pickPath(kind, current));
        page.onRequest('addToGitignore', () => this.editor.addToGitignore());
        this.panel.onDidDispose(() => {
            channel.dispose();
            this.editor.dispose();
            owner.remove(this);
        });
    }

    reveal(key?: string, scope?: SettingsScope): void {
        this.panel.reveal(vscode.ViewColumn.Active, false);
        if (key) {
            void this.editor.reveal(key, scope);
        }
    }
}

/** A settings file in an editor beside the panel, created empty if it does not exist yet. */
async function openSettingsFile(file: string): Promise<void> {
    if (!fs.existsSync(file)) {
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(file, '', { flag: 'wx' }).catch(() => undefined);
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.Beside });
}

export class SettingsPanels implements vscode.Disposable {
    protected readonly panels = new Set<SettingsPanel>();
    readonly output = vscode.window.createOutputChannel('Sandy Settings');

    constructor(readonly core: SandyServiceCore, readonly log: SandyLog, readonly extensionUri: vscode.Uri) { }

    /** The settings editor for a project (Project tab) or, without one, the Global settings. */
    async open(workspace: string | undefined, key?: string, scope?: SettingsScope): Promise<void> {
        // One tab per project: as named, or as sandy sees it once its editor canonicalised it.
        const panel = [...this.panels].find(p => p.workspace === workspace || (workspace && p.editor.workspace === workspace))
            ?? this.add(new SettingsPanel(workspace, this));
        panel.reveal(key, scope);
    }

    protected add(panel: SettingsPanel): SettingsPanel {
        this.panels.add(panel);
        return panel;
    }

    remove(panel: SettingsPanel): void {
        this.panels.delete(panel);
    }

    dispose(): void {
        for (const panel of [...this.panels]) {
            panel.panel.dispose();
        }
        this.output.dispose();
    }
}
