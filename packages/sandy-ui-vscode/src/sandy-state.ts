import * as path from 'path';
import * as vscode from 'vscode';
import type { DerivedProject, ProjectsSnapshot, SessionInfo } from '@sandy-ui/core/common';
import { ViewVisibility } from '@sandy-ui/core/common';
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
 * The window's view of sandy over the shared core service: the latest snapshot and sessions, the
 * open folders as projects, the settings as the service's configuration, and which views look.
 */
export class SandyState implements vscode.Disposable {
    protected current: ProjectsSnapshot | undefined;
    protected readonly visibility = new ViewVisibility(anyVisible => void this.service.setVisible(anyVisible));
    protected readonly onDidChangeEmitter = new vscode.EventEmitter<ProjectsSnapshot>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    protected readonly onDidChangeSessionEmitter = new vscode.EventEmitter<SessionInfo>();
    readonly onDidChangeSession = this.onDidChangeSessionEmitter.event;
    protected readonly toDispose: vscode.Disposable[] = [this.onDidChangeEmitter, this.onDidChangeSessionEmitter];
    protected readonly ignoredNotices = new IgnoredHostSettingNotices(line => this.log.warn(line));
    /** One watcher per folder on its .vscode/settings.json: an agent's write there is said at once (and only said). */
    protected settingsWatchers: vscode.Disposable[] = [];

    /** This window's connection to the shared service (its visibility and open folders are this window's). */
    readonly service: SandyServiceConnection;

    constructor(readonly core: SandyServiceCore, protected readonly log: SandyLog) {
        this.service = core.connect(VIEWER, {
            onDidChangeSnapshot: snapshot => this.update(snapshot),
            onDidChangeSession: session => {
                if (this.current) {
                    const others = this.current.sessions.filter(s => s.id !== session.id);
                    this.current = { ...this.current, sessions: [...others, session] };
                }
                this.onDidChangeSessionEmitter.fire(session);
            }
        });
        this.toDispose.push(this.service);
        this.toDispose.push(vscode.workspace.onDidChangeConfiguration(e => {
            if (HOST_CONTROLLED_SETTINGS.some(key => e.affectsConfiguration(key))) {
                void this.configure();
            }
        }));
        this.toDispose.push(vscode.workspace.onDidChangeWorkspaceFolders(() => {
            void this.publishFolders();
            this.watchWorkspaceSettings();
        }));
        this.toDispose.push({ dispose: () => this.settingsWatchers.splice(0).forEach(w => w.dispose()) });
    }

    /** Never blocks activation on sandy: a slow or hanging sandy must not hold up the editor. */
    start(): void {
        this.core.start();
        void this.publishFolders();
        this.watchWorkspaceSettings();
        void this.configure();
    }

    protected publishFolders(): Promise<void> {
        const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
        return this.service.setOpenFolders(folders);
    }

    protected async configure(): Promise<void> {
        const settings = readSettings();
        void this.sayIgnored(settings);
        try {
            await this.service.configure(settings.sandy);
            this.update(await this.service.refresh());
        } catch (e) {
            this.log.error(`sandy: configuring the service failed: ${e instanceof Error ? e.message : String(e)}`);
        }
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

    get snapshot(): ProjectsSnapshot | undefined {
        return this.current;
    }

    get projects(): DerivedProject[] {
        return this.current?.projects ?? [];
    }

    get liveSessions(): SessionInfo[] {
        return (this.current?.sessions ?? this.core.supervisor.list()).filter(s => s.status !== 'exited');
    }

    protected update(snapshot: ProjectsSnapshot): void {
        this.current = snapshot;
        this.onDidChangeEmitter.fire(snapshot);
    }

    async refresh(): Promise<void> {
        this.update(await this.service.refresh());
    }

    setVisible(viewId: string, visible: boolean): void {
        this.visibility.set(viewId, visible);
    }

    dispose(): void {
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
