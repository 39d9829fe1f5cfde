import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandService, Emitter, ILogger } from '@theia/core';
import { FrontendApplicationContribution } from '@theia/core/lib/browser';
import type { DerivedProject, SessionInfo } from '@sandy-ui/core/common';
import { ViewVisibility } from '@sandy-ui/core/common';
import {
    HostControlledSetting, IgnoredHostSettingNotices, isHostControlledSetting, readHostSandyConfiguration, SANDY_LOG_CHANNEL
} from '@sandy-ui/core/common';
import type { ProjectsSnapshot } from '@sandy-ui/core/common';
import { SandyService, SandyServiceClient } from '@sandy-ui/backend/lib/common';
import { PreferenceService } from '@theia/core/lib/common/preferences';
import { OutputChannelManager } from '@theia/output/lib/browser/output-channel';
import { WorkspaceService } from '@theia/workspace/lib/browser';
import { DroppedWorkspaceSettings } from './sandy-workspace-preferences';

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
    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(ILogger) protected readonly logger: ILogger;
    @inject(WorkspaceService) protected readonly workspaces: WorkspaceService;
    @inject(OutputChannelManager) protected readonly output: OutputChannelManager;
    @inject(DroppedWorkspaceSettings) protected readonly droppedSettings: DroppedWorkspaceSettings;

    protected current: ProjectsSnapshot | undefined;
    /** What this window last sent the backend (a preference event that changes nothing sends nothing). */
    protected configured: string | undefined;
    protected readonly ignoredNotices = new IgnoredHostSettingNotices(line => {
        this.output.getChannel(SANDY_LOG_CHANNEL).appendLine(line);
        this.logger.warn(line);
    });
    protected readonly visibility = new ViewVisibility(anyVisible => void this.service.setVisible(anyVisible));
    protected readonly onDidChangeEmitter = new Emitter<ProjectsSnapshot>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    protected readonly onDidChangeSessionEmitter = new Emitter<SessionInfo>();
    readonly onDidChangeSession = this.onDidChangeSessionEmitter.event;

    onStart(): void {
        // Values the workspace providers dropped before Theia saw them (MCP servers, shells, sandy.path…).
        for (const { key, file } of this.droppedSettings.all()) {
            this.ignoredNotices.note(key, file);
        }
        this.droppedSettings.onDidDrop(({ key, file }) => this.ignoredNotices.note(key, file));
        this.client.onSnapshot(s => {
            this.update(s);
            // Theia stores a workspace file's value of a user-scope setting without an event, so an
            // agent's write into .vscode/ or .theia/ is noticed here, at the next poll, and only said.
            if (this.preferences.isReady) {
                this.readSandyConfiguration();
            }
        });
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
                if (isHostControlledSetting(e.preferenceName)) {
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
            const config = this.readSandyConfiguration();
            const json = JSON.stringify(config);
            if (json === this.configured) {
                return;
            }
            this.configured = json;
            await this.service.configure(config);
            this.update(await this.service.refresh());
        } catch (e) {
            this.configured = undefined;
            this.logger.error('sandy: configuring the backend failed', e);
        }
    }

    /**
     * sandy's configuration through core's rule (user or default value only), and a line in the
     * Sandy output for each workspace or folder settings file whose value was ignored. The window's
     * folders are inspected one by one, so a folder value of a multi-root workspace is seen too.
     */
    protected readSandyConfiguration(): ReturnType<typeof readHostSandyConfiguration>['config'] {
        const inspect = (key: HostControlledSetting, resourceUri?: string) => this.preferences.inspect(key, resourceUri);
        const { config } = readHostSandyConfiguration(key => inspect(key));
        for (const root of this.workspaces.tryGetRoots()) {
            const resourceUri = root.resource.toString();
            for (const { key } of readHostSandyConfiguration(k => inspect(k, resourceUri)).ignored) {
                // The most specific file holding a value: the workspace's or folder's settings file.
                const file = this.preferences.resolve(key, undefined, resourceUri).configUri;
                this.ignoredNotices.note(key, file ? file.path.fsPath() : `the settings of ${root.resource.path.fsPath()}`);
            }
        }
        return config;
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
