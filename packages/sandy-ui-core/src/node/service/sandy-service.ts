import * as os from 'os';
import * as path from 'path';
import type { SessionInfo } from '../../common/session/session-types';
import type { DisposableLike } from '../../common/base/event';
import { SandyState } from '../../common/sandy/contract';
import { ApprovalRequest } from '../../common/approvals/approval-model';
import { SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../../common/settings/settings-dto';
import {
    AddProjectOutcome, LaunchOutcome, LaunchRequest, ProjectsSnapshot, RunOutcome, SandyConfiguration,
    SandyProblem, SandyService, SandyServiceEvents, SandyStatus, SandyViewerMethods, SANDY_SERVICE_METHODS
} from '../../common/service/service-protocol';
import { sweepInterruptedSaves } from '../config/settings-io';
import { ApprovalMemory } from '../approvals/approval-memory';
import { PtySpawn, PtySupervisor } from '../terminal/pty-supervisor';
import { StatePoller } from '../projects/state-poller';
import { ProjectsStore } from '../projects/projects-store';
import { checkWorkspace } from '../projects/workspace-guard';
import { ServiceContext, ServiceLogger } from './service-context';
import { SandyDiscovery } from './sandy-discovery';
import { SnapshotPublisher } from './snapshots';
import { ProjectsService } from './projects';
import { LaunchApprovals } from './approvals';
import { PreparedLaunch, SandyLauncher } from './launch';
import { SettingsService } from './settings';
import { SandboxMaintenance } from './maintenance';

export type { ServiceLogger } from './service-context';

export interface SandyServiceOptions {
    logger: ServiceLogger;
    /** The host's node-pty, behind core's PtyLike (the core never imports node-pty). */
    spawnPty: PtySpawn;
    /** The environment sandy's whitelist is taken from; read at each use. Default: `process.env`. */
    env?: NodeJS.ProcessEnv;
    /** Default: `os.homedir()`. */
    home?: string;
    /** Where the projects list and approved-value hashes live. Default: `$SANDY_IDE_DATA_DIR` or `~/.sandy-ide`. */
    dataDir?: string;
    /** Poll cadence while a view shows sandy state. Default: `$SANDY_IDE_POLL_MS` or 5 s. */
    visiblePollMs?: number;
    /** Where "see the log" points a user, e.g. 'See the backend log for details.'. */
    logHint?: string;
    /** The supervisor to host sessions in (tests pass one with short stop timings). */
    supervisor?: PtySupervisor;
}

/**
 * The host-neutral sandy service: it owns the PTY supervisor, the shared state poller and the
 * projects store, guards every workspace, runs pre-flight before each spawn and fans every change
 * out to all listeners. Each window holds a {@link SandyServiceConnection} from {@link connect}: the
 * Theia backend hands one per JSON-RPC connection to the frontend, the VS Code plugin keeps one for
 * its window. Neither host re-implements or re-declares any of this.
 *
 * Composed of one module per concern (all in this folder): {@link SandyDiscovery} (which sandy, its
 * schema, its environment), {@link SnapshotPublisher} (the Projects view's data and its listeners),
 * {@link ProjectsService}, {@link LaunchApprovals} (pre-flight, gates, revoking), {@link SandyLauncher},
 * {@link SettingsService} and {@link SandboxMaintenance}; this class wires them and is their one API.
 */
export class SandyServiceCore implements Omit<SandyService, SandyViewerMethods> {
    readonly home: string;
    readonly sandyHome: string;
    readonly dataDir: string;
    readonly supervisor: PtySupervisor;
    readonly store: ProjectsStore;
    readonly approvalMemory: ApprovalMemory;
    readonly poller: StatePoller<SandyState>;

    protected readonly ctx: ServiceContext;
    protected readonly discovery: SandyDiscovery;
    protected readonly snapshots: SnapshotPublisher;
    protected readonly projects: ProjectsService;
    protected readonly approvals: LaunchApprovals;
    protected readonly launcher: SandyLauncher;
    protected readonly settings: SettingsService;
    protected readonly maintenance: SandboxMaintenance;
    protected started = false;
    protected readonly toDispose: DisposableLike[] = [];

    constructor(protected readonly options: SandyServiceOptions) {
        const env = options.env ?? process.env;
        this.home = options.home ?? os.homedir();
        this.sandyHome = env.SANDY_HOME || path.join(this.home, '.sandy');
        this.dataDir = options.dataDir ?? (env.SANDY_IDE_DATA_DIR || path.join(this.home, '.sandy-ide'));
        this.ctx = new ServiceContext(options.logger, this.home, this.sandyHome, options.env, options.logHint);
        this.supervisor = options.supervisor ?? new PtySupervisor(options.spawnPty);
        this.store = new ProjectsStore(path.join(this.dataDir, 'projects.json'));
        this.approvalMemory = new ApprovalMemory(this.dataDir);
        this.discovery = new SandyDiscovery(this.ctx);
        this.poller = new StatePoller<SandyState>(() => this.discovery.fetchState(), {
            visibleIntervalMs: options.visiblePollMs ?? (Number(env.SANDY_IDE_POLL_MS) || 5000),
            hiddenIntervalMs: 60_000
        });
        const parts = { supervisor: this.supervisor, store: this.store, poller: this.poller, approvalMemory: this.approvalMemory };
        this.snapshots = new SnapshotPublisher(this.ctx, this.discovery, parts);
        this.projects = new ProjectsService(this.ctx, this.discovery, this.store, this.snapshots);
        this.approvals = new LaunchApprovals(this.ctx, this.discovery, this.snapshots, this.approvalMemory, this.poller);
        this.launcher = new SandyLauncher(this.ctx, this.discovery, this.approvals, this.projects, parts);
        this.settings = new SettingsService(this.ctx, this.discovery, this.snapshots);
        this.maintenance = new SandboxMaintenance(this.ctx, this.discovery, this.snapshots, parts);
    }

    /** Wire the supervisor and the poller to the listeners and start looking for sandy. */
    start(): void {
        if (this.started) {
            return;
        }
        this.started = true;
        this.toDispose.push(this.supervisor.onDidChangeSession(session => {
            this.snapshots.sessionChanged(session);
            if (session.status === 'exited' || session.attachedViews === 0) {
                void this.poller.pollNow();
            }
        }));
        this.toDispose.push(this.poller.onDidPoll(outcome => this.snapshots.polled(outcome)));
        // Temp folders (one may hold a key) that a killed save left behind go before anything else reads there.
        void this.store.list().then(projects => sweepInterruptedSaves({ sandyHome: this.sandyHome, dataDir: this.dataDir, workspaces: projects.map(p => p.workspace) }))
            .then(removed => removed.length && this.options.logger.info(`sandy: removed ${removed.length} temp folder(s) of interrupted saves: ${removed.join(', ')}`), () => undefined);
        void this.ensureLocated();
    }

    /** Host shutdown: the poller stops and every live session is ended through sandy's trap. */
    async dispose(): Promise<void> {
        this.poller.dispose();
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        await this.supervisor.dispose();
    }

    // ---- listeners and viewers ----------------------------------------------------------------

    addListener(listener: SandyServiceEvents): DisposableLike {
        return this.snapshots.addListener(listener);
    }

    /**
     * One window's connection: the whole {@link SandyService}, with its visibility and open folders
     * kept per viewer, and its listener (when given) hearing every change. Disposing it removes the
     * viewer: its listener, its poll interest and its open folders go with it. `failure`: what a
     * rejection becomes for this host (the Theia backend's ApplicationError); the problem is core's
     * `{ code, message, hint }`. Without it, the service's own errors reject as they are.
     */
    connect(viewerId: string, listener?: SandyServiceEvents, failure?: (problem: SandyProblem) => unknown): SandyServiceConnection {
        const subscription = listener ? this.addListener(listener) : undefined;
        const viewer: Pick<SandyService, SandyViewerMethods> = {
            setVisible: async visible => this.setVisible(viewerId, visible),
            setOpenFolders: folders => this.setOpenFolders(viewerId, folders)
        };
        const methods = Object.fromEntries(SANDY_SERVICE_METHODS.map(method => {
            const target = (method === 'setVisible' || method === 'setOpenFolders' ? viewer[method]
                : this[method].bind(this)) as (...args: unknown[]) => Promise<unknown>;
            const guarded = async (...args: unknown[]): Promise<unknown> => {
                try {
                    return await target(...args);
                } catch (e) {
                    throw failure!(this.ctx.problemOf(e));
                }
            };
            return [method, failure ? guarded : target];
        })) as unknown as SandyService;
        return {
            ...methods,
            dispose: () => {
                subscription?.dispose();
                this.removeViewer(viewerId);
            }
        };
    }

    protected removeViewer(viewerId: string): void {
        this.poller.removeViewer(viewerId);
        this.snapshots.removeViewer(viewerId);
    }

    setOpenFolders(viewerId: string, folders: string[]): Promise<void> {
        return this.snapshots.setOpenFolders(viewerId, folders);
    }

    setVisible(viewerId: string, visible: boolean): void {
        this.poller.setVisible(viewerId, visible);
    }

    // ---- sandy discovery ----------------------------------------------------------------------

    configure(config: SandyConfiguration): Promise<SandyStatus> {
        return this.discovery.configure(config);
    }

    ensureLocated(): Promise<SandyStatus> {
        return this.discovery.ensureLocated();
    }

    get sandyStatus(): SandyStatus {
        return this.discovery.sandyStatus;
    }

    /** The environment a sandy process gets: the whitelist of the host's environment, nothing else. */
    baseEnv(extra?: Record<string, string>): Record<string, string> {
        return this.discovery.baseEnv(extra);
    }

    /** The located sandy executable, if any (a host's fallback terminal runs it itself). */
    get sandyPath(): string | undefined {
        return this.discovery.located?.path;
    }

    // ---- snapshots and projects ---------------------------------------------------------------

    snapshot(): Promise<ProjectsSnapshot> {
        return this.snapshots.snapshot();
    }

    refresh(): Promise<ProjectsSnapshot> {
        return this.snapshots.refresh();
    }

    addProject(workspace: string): Promise<AddProjectOutcome> {
        return this.projects.addProject(workspace);
    }

    removeProject(workspace: string): Promise<void> {
        return this.projects.removeProject(workspace);
    }

    /** A workspace as sandy will see it (canonical, never $HOME or /); throws a SandyError otherwise. */
    canonicalWorkspace(workspace: string): Promise<string> {
        return checkWorkspace(workspace, this.home);
    }

    // ---- launch -------------------------------------------------------------------------------

    launch(request: LaunchRequest): Promise<LaunchOutcome> {
        return this.launcher.launch(request);
    }

    /**
     * Everything a launch does before the spawn (locate sandy, sweep a dead lock, pre-flight and the
     * approval token). A host that cannot host a PTY (VS Code without node-pty) runs the same
     * preparation, then starts sandy in its own terminal with {@link launchEnv}.
     */
    prepareLaunch(workspace: string, request: Pick<LaunchRequest, 'approvalToken' | 'acceptCompatWarning'>): Promise<PreparedLaunch> {
        return this.launcher.prepareLaunch(workspace, request);
    }

    /** The whitelisted environment of a launch (never `SANDY_AUTO_APPROVE_PRIVILEGED`). */
    launchEnv(): Record<string, string> {
        return this.launcher.launchEnv();
    }

    /** Record the launch in the projects list and poll. */
    afterLaunch(workspace: string): Promise<void> {
        return this.launcher.afterLaunch(workspace);
    }

    // ---- settings -----------------------------------------------------------------------------

    getSettings(workspace?: string): Promise<SettingsSnapshot> {
        return this.settings.getSettings(workspace);
    }

    saveSettings(scope: SettingsScope, workspace: string | undefined, edits: SettingsEdits): Promise<SettingsSaveResult> {
        return this.settings.saveSettings(scope, workspace, edits);
    }

    addSecretsToGitignore(workspace: string): Promise<void> {
        return this.settings.addSecretsToGitignore(workspace);
    }

    // ---- pre-flight and approvals -------------------------------------------------------------

    preflight(workspace: string): Promise<ApprovalRequest | undefined> {
        return this.approvals.preflight(workspace);
    }

    revealApprovalLine(workspace: string, token: string, key: string, line: number): Promise<string | undefined> {
        return this.approvals.revealApprovalLine(workspace, token, key, line);
    }

    /** Deletes every approval sandy recorded for the workspace; the next launch asks all of them again. */
    revokeApproval(workspace: string): Promise<boolean> {
        return this.approvals.revokeApproval(workspace);
    }

    // ---- maintenance --------------------------------------------------------------------------

    rebuildSandbox(workspace: string): Promise<RunOutcome> {
        return this.maintenance.rebuildSandbox(workspace);
    }

    /** Removes the sandbox of a project, also when its folder is gone (see {@link SandboxMaintenance.removeSandbox}). */
    removeSandbox(workspace: string): Promise<RunOutcome> {
        return this.maintenance.removeSandbox(workspace);
    }

    // ---- sessions -----------------------------------------------------------------------------

    async sessions(): Promise<SessionInfo[]> {
        return this.supervisor.list();
    }

    async stop(sessionId: string): Promise<SessionInfo | undefined> {
        if (!this.supervisor.get(sessionId)) {
            return undefined;
        }
        const info = await this.supervisor.stop(sessionId);
        void this.poller.pollNow();
        return info;
    }

    async resize(sessionId: string, cols: number, rows: number): Promise<void> {
        if (this.supervisor.get(sessionId)) {
            this.supervisor.resize(sessionId, cols, rows);
        }
    }

    async forgetSession(sessionId: string): Promise<void> {
        this.supervisor.forget(sessionId);
    }
}

/** A window's end of the service ({@link SandyServiceCore.connect}). */
export interface SandyServiceConnection extends SandyService, DisposableLike { }
