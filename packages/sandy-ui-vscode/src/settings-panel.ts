import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { workspaceLabel } from '@sandy-ui/core/common';
import { settingsSaveLogLines, SettingsScope, SettingsSnapshot } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { validate } from './webview/messages';
import { checkSettingsToHost, SettingsToHost, SettingsToWebview } from './webview/settings-protocol';
import { webviewHtml, webviewOptions } from './webview-html';
import { SandyLog } from './logger';
import { showError } from './messages';

export const SETTINGS_VIEW_TYPE = 'sandy.settings';

/** The schema-driven settings editor (core's SandySettingsView) in a webview tab, per workspace or global. */
class SettingsPanel {
    readonly panel: vscode.WebviewPanel;
    protected ready = false;
    protected dirty = false;
    protected snapshot: SettingsSnapshot | undefined;
    protected pendingReveal: { key: string; scope?: SettingsScope } | undefined;

    constructor(readonly workspace: string | undefined, protected readonly owner: SettingsPanels) {
        this.panel = vscode.window.createWebviewPanel(SETTINGS_VIEW_TYPE, this.baseTitle, vscode.ViewColumn.Active,
            webviewOptions(owner.extensionUri, true));
        this.panel.iconPath = vscode.Uri.joinPath(owner.extensionUri, 'media', 'sandy.svg');
        this.panel.webview.html = webviewHtml(this.panel.webview, owner.extensionUri, 'settings',
            workspace ? `sandy settings — ${workspace}` : 'sandy settings (global)');
        this.panel.webview.onDidReceiveMessage(raw => {
            const checked = validate(checkSettingsToHost, raw);
            if (!checked.ok) {
                owner.log.warn(`sandy settings: refused a webview message: ${checked.error}`);
                return;
            }
            void this.handle(checked.message);
        });
        this.panel.onDidDispose(() => owner.remove(this));
    }

    get baseTitle(): string {
        return this.workspace ? `Sandy Settings: ${workspaceLabel(this.workspace)}` : 'Sandy Settings';
    }

    reveal(key?: string, scope?: SettingsScope): void {
        this.panel.reveal(vscode.ViewColumn.Active, false);
        if (key) {
            this.pendingReveal = { key, scope };
            if (this.ready) {
                void this.reload();
            }
        }
    }

    protected post(message: SettingsToWebview): void {
        void this.panel.webview.postMessage(message);
    }

    async reload(): Promise<void> {
        try {
            this.snapshot = await this.owner.core.getSettings(this.workspace);
            this.post({ type: 'snapshot', snapshot: this.snapshot });
            if (this.pendingReveal) {
                this.post({ type: 'revealKey', ...this.pendingReveal });
                this.pendingReveal = undefined;
            }
        } catch (e) {
            this.post({ type: 'problem', problem: {
                message: `Could not read the sandy settings: ${e instanceof Error ? e.message : String(e)}`,
                hint: 'Check the "Sandy" output channel, then reopen the settings.'
            } });
        }
    }

    protected filePaths(): string[] {
        const scopes = this.snapshot?.scopes;
        return [scopes?.project, scopes?.global].flatMap(s => s ? [s.filePaths.config, s.filePaths.secrets] : []);
    }

    protected async handle(message: SettingsToHost): Promise<void> {
        switch (message.type) {
            case 'ready':
                this.ready = true;
                await this.reload();
                break;
            case 'save': {
                if (message.scope === 'project' && !this.workspace) {
                    this.post({ type: 'saved', requestId: message.requestId, result: { ok: false, error: { message: 'No project is open.', hint: 'Open the settings from a project.' } } });
                    return;
                }
                const result = await this.owner.core.saveSettings(message.scope, this.workspace, message.edits);
                for (const line of settingsSaveLogLines(message.scope, result)) {
                    this.owner.output.appendLine(line);
                }
                this.post({ type: 'saved', requestId: message.requestId, result });
                if (result.ok) {
                    await this.reload();
                }
                break;
            }
            case 'openFile': {
                if (!this.filePaths().includes(message.path)) {
                    this.owner.log.warn('sandy settings: refused to open a file that is not one of this editor\'s settings files');
                    return;
                }
                if (!fs.existsSync(message.path)) {
                    await fs.promises.mkdir(path.dirname(message.path), { recursive: true });
                    await fs.promises.writeFile(message.path, '', { flag: 'wx' }).catch(() => undefined);
                }
                await vscode.window.showTextDocument(vscode.Uri.file(message.path), { viewColumn: vscode.ViewColumn.Beside });
                break;
            }
            case 'pickPath': {
                const picked = await vscode.window.showOpenDialog({
                    title: message.kind === 'folder' ? 'Choose a folder' : 'Choose a file',
                    canSelectFolders: message.kind === 'folder',
                    canSelectFiles: message.kind === 'file',
                    canSelectMany: false,
                    defaultUri: message.current ? vscode.Uri.file(message.current) : undefined
                });
                this.post({ type: 'picked', requestId: message.requestId, path: picked?.[0]?.fsPath });
                break;
            }
            case 'addToGitignore':
                if (this.workspace) {
                    await this.owner.core.addSecretsToGitignore(this.workspace).catch(e =>
                        void showError(`Sandy: could not update .gitignore: ${e instanceof Error ? e.message : String(e)}`));
                    await this.reload();
                }
                this.post({ type: 'done', requestId: message.requestId });
                break;
            case 'dirty':
                this.dirty = message.dirty;
                this.panel.title = `${this.dirty ? '● ' : ''}${this.baseTitle}`;
                break;
        }
    }
}

export class SettingsPanels implements vscode.Disposable {
    protected readonly panels = new Map<string, SettingsPanel>();
    readonly output = vscode.window.createOutputChannel('Sandy Settings');

    constructor(readonly core: SandyServiceCore, readonly log: SandyLog, readonly extensionUri: vscode.Uri) { }

    /** The settings editor for a project (Project tab) or, without one, the Global settings. */
    async open(workspace: string | undefined, key?: string, scope?: SettingsScope): Promise<void> {
        let canonical: string | undefined;
        if (workspace) {
            try {
                canonical = await this.core.canonicalWorkspace(workspace);
            } catch (e) {
                void showError(`Sandy: ${e instanceof Error ? e.message : String(e)}`);
                return;
            }
        }
        const id = canonical ?? '<global>';
        const existing = this.panels.get(id);
        if (existing) {
            existing.reveal(key, scope);
            return;
        }
        const panel = new SettingsPanel(canonical, this);
        this.panels.set(id, panel);
        if (key) {
            panel.reveal(key, scope);
        }
    }

    remove(panel: SettingsPanel): void {
        const id = panel.workspace ?? '<global>';
        if (this.panels.get(id) === panel) {
            this.panels.delete(id);
        }
    }

    dispose(): void {
        for (const panel of [...this.panels.values()]) {
            panel.panel.dispose();
        }
        this.output.dispose();
    }
}
