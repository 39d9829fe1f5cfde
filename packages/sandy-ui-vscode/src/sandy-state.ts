import * as path from 'path';
import * as vscode from 'vscode';
import { WindowState } from '@sandy-ui/core/common';
import { HOST_CONTROLLED_SETTINGS, IgnoredHostSettingNotices } from '@sandy-ui/core/common';
import { hostSettingsInFiles } from '@sandy-ui/core/node';
import { SandyServiceConnection, SandyServiceCore } from '@sandy-ui/core/node';
import { SandyLog } from './logger';
import { readSandySettings, SandySettings } from './settings';

/** The viewer id of this window (core keys open folders and poll interest by viewer). */
const VIEWER = 'vscode-window';

/** The plugin's settings (contributes.configuration), as in the Theia IDE's preferences (see settings.ts). */
export function readSettings(): SandySettings {
    return readSandySettings(vscode.workspace.getConfiguration('sandy'));
}

/**
 * The window's view of sandy (core's {@link WindowState}) over this window's connection to the
 * shared core service, plus what only VS Code knows: its configuration (the service's settings),
 * its folders, and the workspace settings files whose host-controlled values it says it ignores.
 */
export class SandyState extends WindowState<SandyServiceConnection> implements vscode.Disposable {
    protected readonly toDispose: vscode.Disposable[] = [];
    protected readonly ignoredNotices = new IgnoredHostSettingNotices(line => this.log.warn(line));
    /** One watcher per folder on its .vscode/settings.json: an agent's write there is said at once (and only said). */
    protected settingsWatchers: vscode.Disposable[] = [];

    constructor(readonly core: SandyServiceCore, protected readonly log: SandyLog) {
        super(listener => core.connect(VIEWER, listener), { log: line => log.error(line), sessionsBeforeSnapshot: () => core.supervisor.list() });
        this.toDispose.push(this.service, this.onDidStartEmitter);
        // Both only once the window looks at sandy (start() configures and publishes itself): a settings
        // change (another window's toggle, Settings Sync) must not run sandy in a window that shows none.
        this.toDispose.push(vscode.workspace.onDidChangeConfiguration(e => {
            if (this.started && HOST_CONTROLLED_SETTINGS.some(key => e.affectsConfiguration(key))) {
                void this.configureFromSettings();
            }
        }));
        this.toDispose.push(vscode.workspace.onDidChangeWorkspaceFolders(() => {
            if (!this.started) {
                return;
            }
            void this.publishFolders();
            this.watchWorkspaceSettings();
        }));
        this.toDispose.push({ dispose: () => this.settingsWatchers.splice(0).forEach(w => w.dispose()) });
    }

    protected started = false;
    protected disposed = false;
    protected readonly onDidStartEmitter = new vscode.EventEmitter<void>();
    /** The window began to look at sandy ({@link start}). */
    readonly onDidStart = this.onDidStartEmitter.event;

    /** Whether the window looks at sandy (something of it showed sandy state). */
    get looking(): boolean {
        return this.started;
    }

    /**
     * Starts looking at sandy (locating it, `--print-state` polls, the folders and settings sent):
     * only once something of the window shows sandy state — one of the Sandy views ({@link setVisible}),
     * a Sandy command, a restored Sandy tab. A window that never does runs no sandy. Never blocks
     * activation on sandy: a slow or hanging sandy must not hold up the editor.
     */
    start(): void {
        if (this.started || this.disposed) {
            return;
        }
        this.started = true;
        this.core.start();
        this.onDidStartEmitter.fire();
        void this.publishFolders();
        this.watchWorkspaceSettings();
        void this.configureFromSettings();
    }

    override setVisible(viewId: string, visible: boolean): void {
        super.setVisible(viewId, visible);
        if (visible) {
            this.start();
        }
    }

    protected publishFolders(): Promise<void> {
        return this.publishOpenFolders((vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath));
    }

    protected configureFromSettings(): Promise<void> {
        const settings = readSettings();
        void this.sayIgnored(settings);
        return this.configure(settings.sandy);
    }

    /** The workspace's own settings files: each folder's .vscode/settings.json and a saved workspace's file. */
    protected workspaceSettingsFiles(): string[] {
        const files = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file')
            .map(f => path.join(f.uri.fsPath, '.vscode', 'settings.json'));
        const workspaceFile = vscode.workspace.workspaceFile;
        if (workspaceFile?.scheme === 'file') {
            files.push(workspaceFile.fsPath);
        }
        return files;
    }

    /**
     * A line in the Sandy log for each host-controlled setting a workspace file sets (once per file).
     * VS Code hides such a value from inspect(), so the files are looked at; a value inspect() does
     * show (another editor's plugin host) is said even when no file explains it.
     */
    protected async sayIgnored(settings: SandySettings): Promise<void> {
        const found = await hostSettingsInFiles(this.workspaceSettingsFiles());
        for (const { key, file } of found) {
            this.ignoredNotices.note(key, file);
        }
        for (const { key } of settings.ignored) {
            if (!found.some(f => f.key === key)) {
                this.ignoredNotices.note(key, 'the workspace settings');
            }
        }
    }

    protected watchWorkspaceSettings(): void {
        this.settingsWatchers.splice(0).forEach(w => w.dispose());
        for (const folder of vscode.workspace.workspaceFolders ?? []) {
            const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.vscode/settings.json'));
            const check = () => void this.sayIgnored(readSettings());
            this.settingsWatchers.push(watcher, watcher.onDidCreate(check), watcher.onDidChange(check));
        }
    }

    override dispose(): void {
        this.disposed = true;
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        super.dispose();
    }
}
