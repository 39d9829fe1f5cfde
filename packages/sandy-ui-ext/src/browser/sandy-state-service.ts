import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandService, Emitter, ILogger } from '@theia/core';
import { FrontendApplicationContribution } from '@theia/core/lib/browser';
import type { DerivedProject, SessionInfo } from '@sandy-ui/core';
import { ViewVisibility } from '@sandy-ui/core/lib/common/event';
import { ProjectsSnapshot, SandyService, SandyServiceClient } from '@sandy-ui/backend/lib/common';
import { SandyPreferences } from './sandy-preferences';
import { WorkspaceService } from '@theia/workspace/lib/browser';

/** Receives the backend's events for this window (the backend fans out to every window). */
@injectable()
export class SandyServiceClientImpl implements SandyServiceClient {
    protected readonly onSnapshotEmitter = new Emitter<ProjectsSnapshot>();
    readonly onSnapshot = this.onSnapshotEmitter.event;
    protected readonly onSessionEmitter = new Emitter<SessionInfo>();
    readonly onSession = this.onSessionEmitter.event;

    onDidChangeSnapshot(snapshot: ProjectsSnapshot): void {
        this.onSnapshotEmitter.fire(snapshot);
    }

    onDidChangeSession(session: SessionInfo): void {
        this.onSessionEmitter.fire(session);
    }
}

export const LAUNCH_COMMAND_ID = 'sandy.launch';

/** The window's view of sandy: the latest snapshot, sessions, and which views are looking. */
@injectable()
export class SandyStateService implements FrontendApplicationContribution {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyServiceClientImpl) protected readonly client: SandyServiceClientImpl;
    @inject(CommandService) protected readonly commands: CommandService;
    @inject(SandyPreferences) protected readonly preferences: SandyPreferences;
    @inject(ILogger) protected readonly logger: ILogger;
    @inject(WorkspaceService) protected readonly workspaces: WorkspaceService;

    protected current: ProjectsSnapshot | undefined;
    protected readonly visibility = new ViewVisibility(anyVisible => void this.service.setStateVisible(anyVisible));
    protected readonly onDidChangeEmitter = new Emitter<ProjectsSnapshot>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    protected readonly onDidChangeSessionEmitter = new Emitter<SessionInfo>();
    readonly onDidChangeSession = this.onDidChangeSessionEmitter.event;

    onStart(): void {
        this.client.onSnapshot(s => this.update(s));
        this.client.onSession(s => {
            if (this.current) {
                const others = this.current.sessions.filter(x => x.id !== s.id);
                this.current = { ...this.current, sessions: [...others, s] };
            }
            this.onDidChangeSessionEmitter.fire(s);
        });
        // Never block the shell's start on sandy (a slow or hanging sandy must not keep the IDE from showing).
        this.preferences.ready.then(() => {
            this.preferences.onPreferenceChanged(e => {
                if (e.preferenceName === 'sandy.path' || e.preferenceName === 'sandy.passEnvironment') {
                    void this.configureBackend();
                }
            });
            return this.configureBackend();
        });
        // The folders open in this window surface as projects (spec: projects also come from recent folders).
        this.workspaces.onWorkspaceChanged(roots => void this.service.setOpenFolders(roots.map(r => r.resource.path.fsPath())));
        this.workspaces.roots.then(roots => this.service.setOpenFolders(roots.map(r => r.resource.path.fsPath())));
    }

    protected async configureBackend(): Promise<void> {
        try {
            await this.service.configure({
                sandyPath: this.preferences['sandy.path'] || undefined,
                passEnv: this.preferences['sandy.passEnvironment']
            });
            this.update(await this.service.refresh());
        } catch (e) {
            this.logger.error('sandy: configuring the backend failed', e);
        }
    }

    get snapshot(): ProjectsSnapshot | undefined {
        return this.current;
    }

    get sessions(): SessionInfo[] {
        return this.current?.sessions ?? [];
    }

    get liveSessions(): SessionInfo[] {
        return this.sessions.filter(s => s.status !== 'exited');
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

    requestLaunch(project: DerivedProject): void {
        void this.commands.executeCommand(LAUNCH_COMMAND_ID, project);
    }
}
