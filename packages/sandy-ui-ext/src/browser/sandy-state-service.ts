import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { CommandService, Emitter, ILogger } from '@theia/core';
import { FrontendApplicationContribution } from '@theia/core/lib/browser';
import type { DerivedProject, SessionInfo } from '@sandy-ui/core/common';
import { EventLike, WindowState } from '@sandy-ui/core/common';
import {
    HostControlledSetting, IgnoredHostSettingNotices, isHostControlledSetting, readHostSandyConfiguration, SANDY_LOG_CHANNEL
} from '@sandy-ui/core/common';
import type { ProjectsSnapshot, SessionNotification } from '@sandy-ui/core/common';
import { SandyService, SandyServiceClient } from '@sandy-ui/backend/lib/common';
import { PreferenceService } from '@theia/core/lib/common/preferences';
import type { RpcProxy } from '@theia/core/lib/common/messaging/proxy-factory';
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
    protected readonly onNotifyEmitter = new Emitter<SessionNotification>();
    readonly onNotify = this.onNotifyEmitter.event;

    onDidNotify(event: SessionNotification): void {
        this.onNotifyEmitter.fire(event);
    }

    onDidChangeSnapshot(snapshot: ProjectsSnapshot): void {
        this.onSnapshotEmitter.fire(snapshot);
    }

    onDidChangeSession(session: SessionInfo): void {
        this.onSessionEmitter.fire(session);
    }
}

export const LAUNCH_COMMAND_ID = 'sandy.launch';

/**
 * The window's view of sandy (core's {@link WindowState}, fed by this window's RPC client), plus what
 * only Theia knows: its preferences (read through core's rule, with a notice for each workspace
 * file's ignored value) and its workspace roots.
 */
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

    protected readonly ignoredNotices = new IgnoredHostSettingNotices(line => {
        this.output.getChannel(SANDY_LOG_CHANNEL).appendLine(line);
        this.logger.warn(line);
    });
    /** The controller (core); views and commands read it. */
    window: WindowState<SandyService>;

    @postConstruct()
    protected init(): void {
        this.window = new WindowState(listener => {
            this.client.onSnapshot(s => listener.onDidChangeSnapshot(s));
            this.client.onSession(s => listener.onDidChangeSession(s));
            this.client.onNotify(e => listener.onDidNotify(e));
            return this.service;
        }, { log: line => this.logger.error(line) });
    }

    onStart(): void {
        // Values the workspace providers dropped before Theia saw them (MCP servers, shells, sandy.path…).
        for (const { key, file } of this.droppedSettings.all()) {
            this.ignoredNotices.note(key, file);
        }
        this.droppedSettings.onDidDrop(({ key, file }) => this.ignoredNotices.note(key, file));
        // Theia stores a workspace file's value of a user-scope setting without an event, so an
        // agent's write into .vscode/ or .theia/ is noticed here, at the next poll, and only said.
        this.client.onSnapshot(() => {
            if (this.preferences.isReady) {
                this.readSandyConfiguration();
            }
        });
        // Never block the shell's start on sandy (a slow or hanging sandy must not keep the IDE from showing).
        this.preferences.ready.then(() => {
            this.preferences.onPreferenceChanged(e => {
                if (isHostControlledSetting(e.preferenceName)) {
                    void this.window.configure(this.readSandyConfiguration());
                }
            });
            return this.window.configure(this.readSandyConfiguration());
        });
        // A later connection is a restarted backend (it crashed, or was killed; the page reconnected
        // by itself): it is told again what the old one knew (the first one is told at start-up).
        (this.service as RpcProxy<SandyService>).onDidOpenConnection?.(() => void this.window.resync());
        // The folders open in this window surface as projects (spec: projects also come from recent folders).
        this.workspaces.onWorkspaceChanged(roots => void this.window.publishOpenFolders(roots.map(r => r.resource.path.fsPath())));
        this.workspaces.roots.then(roots => this.window.publishOpenFolders(roots.map(r => r.resource.path.fsPath())));
    }

    /**
     * sandy's configuration through core's rule (user or default value only), and a line in the
     * Sandy output for each workspace or folder settings file whose value was ignored. The window's
     * folders are inspected one by one, so a folder value of a multi-root workspace is seen too.
     */
    /** The user's `sandy.path` (user settings only, like every host-controlled setting), once the preferences are read. */
    async userSandyPath(): Promise<string | undefined> {
        await this.preferences.ready;
        return readHostSandyConfiguration(key => this.preferences.inspect(key)).config.sandyPath;
    }

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
        return this.window.snapshot;
    }

    get liveSessions(): SessionInfo[] {
        return this.window.liveSessions;
    }

    get onDidChange(): EventLike<ProjectsSnapshot> {
        return this.window.onDidChange;
    }

    get onDidChangeSession(): EventLike<SessionInfo> {
        return this.window.onDidChangeSession;
    }

    refresh(): Promise<void> {
        return this.window.refresh();
    }

    setVisible(viewId: string, visible: boolean): void {
        this.window.setVisible(viewId, visible);
    }

    requestLaunch(project: DerivedProject): void {
        void this.commands.executeCommand(LAUNCH_COMMAND_ID, project);
    }
}
