import * as vscode from 'vscode';
import type { DerivedProject, ProjectsSnapshot, SessionInfo } from '@sandy-ui/core';
import { ViewVisibility } from '@sandy-ui/core/lib/common/event';
import { SandyServiceCore } from '@sandy-ui/core/lib/node/sandy-service';
import { SandyLog } from './logger';

/** The viewer id of this window (core keys open folders and poll interest by viewer). */
const VIEWER = 'vscode-window';

/** The plugin's settings (contributes.configuration), as in the Theia IDE's preferences. */
export interface SandySettings {
    path: string;
    passEnvironment: string[];
    notifications: boolean;
}

export function readSettings(): SandySettings {
    const config = vscode.workspace.getConfiguration('sandy');
    const passEnvironment = config.get<unknown>('passEnvironment');
    return {
        path: String(config.get('path') ?? ''),
        passEnvironment: Array.isArray(passEnvironment) ? passEnvironment.filter((n): n is string => typeof n === 'string') : [],
        notifications: config.get<boolean>('notifications') !== false
    };
}

/**
 * The window's view of sandy over the shared core service: the latest snapshot and sessions, the
 * open folders as projects, the settings as the service's configuration, and which views look.
 */
export class SandyState implements vscode.Disposable {
    protected current: ProjectsSnapshot | undefined;
    protected readonly visibility = new ViewVisibility(anyVisible => this.core.setVisible(VIEWER, anyVisible));
    protected readonly onDidChangeEmitter = new vscode.EventEmitter<ProjectsSnapshot>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    protected readonly onDidChangeSessionEmitter = new vscode.EventEmitter<SessionInfo>();
    readonly onDidChangeSession = this.onDidChangeSessionEmitter.event;
    protected readonly toDispose: vscode.Disposable[] = [this.onDidChangeEmitter, this.onDidChangeSessionEmitter];

    constructor(readonly core: SandyServiceCore, protected readonly log: SandyLog) {
        const listener = core.addListener({
            onDidChangeSnapshot: snapshot => this.update(snapshot),
            onDidChangeSession: session => {
                if (this.current) {
                    const others = this.current.sessions.filter(s => s.id !== session.id);
                    this.current = { ...this.current, sessions: [...others, session] };
                }
                this.onDidChangeSessionEmitter.fire(session);
            }
        });
        this.toDispose.push({ dispose: () => core.removeViewer(VIEWER, undefined) }, { dispose: () => listener.dispose() });
        this.toDispose.push(vscode.workspace.onDidChangeConfiguration(e => {
            if (e.affectsConfiguration('sandy.path') || e.affectsConfiguration('sandy.passEnvironment')) {
                void this.configure();
            }
        }));
        this.toDispose.push(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.publishFolders()));
    }

    /** Never blocks activation on sandy: a slow or hanging sandy must not hold up the editor. */
    start(): void {
        this.core.start();
        void this.publishFolders();
        void this.configure();
    }

    protected publishFolders(): Promise<void> {
        const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
        return this.core.setOpenFolders(VIEWER, folders);
    }

    protected async configure(): Promise<void> {
        const settings = readSettings();
        try {
            await this.core.configureSandy({ sandyPath: settings.path || undefined, passEnv: settings.passEnvironment });
            this.update(await this.core.refresh());
        } catch (e) {
            this.log.error(`sandy: configuring the service failed: ${e instanceof Error ? e.message : String(e)}`);
        }
    }

    get snapshot(): ProjectsSnapshot | undefined {
        return this.current;
    }

    get projects(): DerivedProject[] {
        return this.current?.projects ?? [];
    }

    get liveSessions(): SessionInfo[] {
        return (this.current?.sessions ?? this.core.sessions()).filter(s => s.status !== 'exited');
    }

    protected update(snapshot: ProjectsSnapshot): void {
        this.current = snapshot;
        this.onDidChangeEmitter.fire(snapshot);
    }

    async refresh(): Promise<void> {
        this.update(await this.core.refresh());
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
