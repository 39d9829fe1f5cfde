import { createHash } from 'crypto';
import * as os from 'os';
import * as path from 'path';
import type { SessionInfo } from '../../common/session/session-types';
import type { DisposableLike } from '../../common/base/event';
import { SandyState } from '../../common/sandy/contract';
import { ApprovalRequest, launchVerdictOf } from '../../common/approvals/approval-model';
import { SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../../common/settings/settings-dto';
import {
    AddProjectOutcome, LaunchOutcome, LaunchRequest, ProjectsSnapshot, RunOutcome, SandyConfiguration,
    problemText, SandyFolderPlan, SandyFolderSource, SandyProblem, SandyService, SandyServiceEvents, SandyStatus, SandyViewerMethods, SANDY_SERVICE_METHODS
} from '../../common/service/service-protocol';
import { sweepInterruptedSaves } from '../config/settings-io';
import { lstatOrUndefined } from '../config/config-io';
import { ApprovalMemory } from '../approvals/approval-memory';
import { PtySpawn, PtySupervisor } from '../terminal/pty-supervisor';
import { ScreenThread } from '../terminal/screen-thread';
import { SessionRecords } from '../terminal/session-records';
import { BuildGate } from '../terminal/build-gate';
import { isRecordedSandy, processStartTime } from '../terminal/process-identity';
import { discoverSessions } from '../../common/session/session-discovery';
import { SeenSessions } from '../../common/session/session-attention';
import { detectPrompt } from '../../common/session/prompt-detect';
import type { HistoryChunk, HistoryQuery, HistoryRecord } from '../../common/session/history-types';
import { HistoryCapture } from './history';
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
import { FleetMaintenance } from './fleet';
import { HeadlessRuns } from './headless';
import type { HeadlessOutcome } from '../../common/session/headless';
import type { FleetActionId, FleetOptions, FleetPlan } from '../../common/maintenance/fleet';
import { OnboardingService } from './onboarding';
import { SandyFolders } from './sandy-folders';
import { OnboardingStore, onboardingDir } from '../onboarding/onboarding-store';
import type { AgentChoice, BootstrapProposal, ImageBuildProgress, OnboardingSnapshot } from '../../common/onboarding/onboarding-dto';
import type { OnboardingState } from '../../common/onboarding/onboarding-state';
import type { PrerequisiteReport } from '../../common/onboarding/prerequisites';
import { SessionDashboard, STATS_TIMEOUT_MS } from './dashboard';
import { DockerReadClient } from '../sandy/docker-client';
import type { DashboardSnapshot } from '../../common/session/dashboard-types';

export type { ServiceLogger } from './service-context';

/** At most this long does the first session list wait for the first `--print-state` (it can take seconds under load). */
const DISCOVERY_WAIT_MS = 20_000;

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
    /**
     * Where every session's output is kept (issue 11's history). Default: `<dataDir>/history`. A host
     * whose editor watches the data folder passes `ideHistoryDir()` (node/history/history-folder.ts): the logs grow with every line an
     * agent prints, and each write would be a file event for every window.
     */
    historyDir?: string;
    /** The Get Started wizard's folder (its state, its throwaway workspace). Default: `~/.sandy-ui`. */
    onboardingDir?: string;
    /** Poll cadence while a view shows sandy state. Default: `$SANDY_IDE_POLL_MS` or 5 s. */
    visiblePollMs?: number;
    /** Where "see the log" points a user, e.g. 'See the backend log for details.'. */
    logHint?: string;
    /** The supervisor to host sessions in (tests pass one with short stop timings). */
    supervisor?: PtySupervisor;
}

/** The IDE's data folder (projects, approvals, sessions.json, the Theia connection token): `$SANDY_IDE_DATA_DIR`, else `~/.sandy-ide`. */
export function ideDataDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
    return env.SANDY_IDE_DATA_DIR || path.join(home, '.sandy-ide');
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
    /** What this IDE started, across restarts (its daemon sessions' containers, its foreground sandys' pids). */
    readonly sessionRecords: SessionRecords;

    protected readonly ctx: ServiceContext;
    protected readonly discovery: SandyDiscovery;
    protected readonly snapshots: SnapshotPublisher;
    protected readonly projects: ProjectsService;
    protected readonly approvals: LaunchApprovals;
    protected readonly launcher: SandyLauncher;
    protected readonly settings: SettingsService;
    protected readonly maintenance: SandboxMaintenance;
    protected readonly fleet: FleetMaintenance;
    protected readonly headless: HeadlessRuns;
    protected readonly onboardingPart: OnboardingService;
    protected readonly sandyFolders: SandyFolders;
    protected started = false;
    /** The sessions each window shows to the user now ({@link setSeen}). */
    protected readonly seen = new SeenSessions();
    /** Every session's output, kept under `historyDir` (default `<dataDir>/history`). */
    protected readonly history: HistoryCapture;
    protected readonly toDispose: DisposableLike[] = [];
    /** Settles once the first `--print-state` after start has been reconciled (or could not be). */
    protected discovered: Promise<void> = Promise.resolve();
    /** When the host first said which sandy to run and with what (its user settings). */
    protected configuredAt: number | undefined;

    /** Where session history is written. */
    get historyDir(): string {
        return this.history.dir;
    }

    constructor(protected readonly options: SandyServiceOptions) {
        const env = options.env ?? process.env;
        this.home = options.home ?? os.homedir();
        this.sandyHome = env.SANDY_HOME || path.join(this.home, '.sandy');
        this.dataDir = options.dataDir ?? ideDataDir(env, this.home);
        this.ctx = new ServiceContext(options.logger, this.home, this.sandyHome, options.env, options.logHint);
        // Launches take turns through sandy's build across every IDE process of this user that runs
        // the same SANDY_HOME (VS Code windows each have their own extension host): a lock in ~/.sandy-ide.
        const buildLock = path.join(this.home, '.sandy-ide', 'locks', `build-${createHash('sha256').update(path.resolve(this.sandyHome)).digest('hex').slice(0, 16)}`);
        const buildGate = new BuildGate(buildLock);
        this.supervisor = options.supervisor ?? new PtySupervisor(options.spawnPty, {
            buildGate,
            // An agent waiting at its own dialog (trust, permission, login…) needs the user as a notification does.
            promptDetector: (lines, agent) => detectPrompt(lines, agent) !== undefined,
            // The sessions' screens are parsed in the process's screen worker; what becomes of it goes to this log.
            screenThread: ScreenThread.shared(message => options.logger.warn(message)),
            warn: line => options.logger.warn(line)
        });
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
        this.fleet = new FleetMaintenance(this.ctx, this.discovery, this.snapshots, () => this.poller.pollFresh(), () => this.maintenance.maintenanceCwd());
        this.sandyFolders = new SandyFolders(this.ctx, this.discovery);
        this.onboardingPart = new OnboardingService(this.ctx, this.discovery, new OnboardingStore(options.onboardingDir ?? onboardingDir(this.home, env)), buildGate);
        this.sessionRecords = new SessionRecords(path.join(this.dataDir, 'sessions.json'));
        this.history = new HistoryCapture(options.historyDir ?? path.join(this.dataDir, 'history'), {
            supervisor: this.supervisor,
            log: message => this.options.logger.warn(message)
        });
        this.headless = new HeadlessRuns(this.ctx, this.discovery, this.history);
        this.supervisor.setSessionPort({
            commandLine: () => {
                const located = this.discovery.located;
                return located && { sandyPath: located.path, env: this.launcher.launchEnv() };
            },
            run: async (args, cwd, timeoutMs) => {
                await this.discovery.ensureLocated();
                const located = this.discovery.located;
                if (!located) {
                    return { exitCode: undefined, stdout: '', stderr: this.discovery.sandyStatus.problem?.message ?? 'sandy was not found.' };
                }
                const runner = this.discovery.runner(located);
                const r = await runner.run(args, { cwd, timeoutMs });
                void this.poller.pollNow();
                return { exitCode: r.exitCode ?? undefined, stdout: r.stdout, stderr: r.stderr };
            },
            // A foreground sandy is remembered with when its process started: a reused pid is never it.
            remember: (workspace, started) => this.sessionRecords.remember(workspace, 'pid' in started ? { pid: started.pid, start: processStartTime(started.pid) } : started),
            forget: (workspace, mode) => this.sessionRecords.forget(workspace, mode)
        });
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
        this.toDispose.push(this.supervisor.onDidNotify(event => this.snapshots.notified(event)));
        this.toDispose.push(this.poller.onDidPoll(outcome => {
            if (outcome.ok) {
                this.reconcileSessions(outcome.value, outcome.startedAt);
            }
            this.snapshots.polled(outcome);
        }));
        // Sessions that outlived the last IDE (daemon sessions, an orphaned foreground sandy) are found
        // by the first `--print-state` run with the user's settings (which sandy, what it sees): until
        // then the session list waits for it, bounded for a host that never configures.
        this.discovered = Promise.race([
            new Promise<void>(resolve => {
                const subscription = this.poller.onDidPoll(outcome => {
                    if (this.configuredAt !== undefined && outcome.startedAt >= this.configuredAt) {
                        subscription.dispose();
                        resolve();
                    }
                });
                this.toDispose.push(subscription);
            }),
            new Promise<void>(resolve => setTimeout(resolve, DISCOVERY_WAIT_MS).unref?.())
        ]);
        // Temp folders (one may hold a key) that a killed save left behind go before anything else reads there.
        void this.store.list().then(projects => sweepInterruptedSaves({ sandyHome: this.sandyHome, dataDir: this.dataDir, workspaces: projects.map(p => p.workspace) }))
            .then(removed => removed.length && this.options.logger.info(`sandy: removed ${removed.length} temp folder(s) of interrupted saves: ${removed.join(', ')}`), () => undefined);
        void this.ensureLocated();
    }

    /**
     * Host shutdown: the poller stops; foreground sessions end through sandy's trap; daemon sessions
     * run on (only our attach clients end) unless the user chose to stop them when the IDE quits.
     * `mayStopDaemons: false`: a host whose shutdown may be a reload (a VS Code window), where
     * stopping would end the sessions the reload is meant to keep.
     */
    async dispose(options: { mayStopDaemons?: boolean } = {}): Promise<void> {
        this.poller.dispose();
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        const stopDaemons = (options.mayStopDaemons ?? true) && this.discovery.configuration.stopSessionsOnQuit === true;
        await this.supervisor.dispose({ stopDaemons });
        await this.history.close();
    }

    /** `--print-state`'s running sessions into the supervisor (an orphan only while its pid still runs sandy). */
    protected reconcileSessions(state: SandyState, observedAt: number): void {
        const found = discoverSessions(state, this.sessionRecords, observedAt);
        found.orphans = found.orphans.filter(o => isRecordedSandy(o.pid, o.start));
        // A foreground sandy remembered from an IDE that died, which no longer holds its lock: nothing to offer.
        const live = new Set(this.supervisor.list().filter(s => s.status !== 'exited').map(s => s.workspace));
        for (const workspace of Object.keys(this.sessionRecords.foreground)) {
            if (!live.has(workspace) && !found.orphans.some(o => o.workspace === workspace)) {
                this.sessionRecords.forget(workspace, 'foreground');
            }
        }
        this.supervisor.reconcile(found);
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
            setOpenFolders: folders => this.setOpenFolders(viewerId, folders),
            setSeen: async ids => this.setSeen(viewerId, ids)
        };
        const methods = Object.fromEntries(SANDY_SERVICE_METHODS.map(method => {
            const target = (method === 'setVisible' || method === 'setOpenFolders' || method === 'setSeen' ? viewer[method]
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
        this.setSeen(viewerId, []);
    }

    /** A session is seen while any window shows it (a window that goes away sees nothing). */
    setSeen(viewerId: string, sessionIds: unknown): void {
        for (const { id, seen } of this.seen.set(viewerId, sessionIds)) {
            this.supervisor.setSeen(id, seen);
        }
    }

    setOpenFolders(viewerId: string, folders: string[]): Promise<void> {
        return this.snapshots.setOpenFolders(viewerId, folders);
    }

    setVisible(viewerId: string, visible: boolean): void {
        this.poller.setVisible(viewerId, visible);
    }

    // ---- sandy discovery ----------------------------------------------------------------------

    async configure(config: SandyConfiguration): Promise<SandyStatus> {
        this.history.setCapMegabytes(historyMegabytes(config.historyMegabytes));
        const status = await this.discovery.configure(config);
        if (this.configuredAt === undefined) {
            this.configuredAt = Date.now();
            void this.poller.pollNow();
        }
        return status;
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

    /** Adds the project and says, once, what Launch's own pre-flight will say and whether it has a `.sandy/`. */
    async addProject(workspace: string): Promise<AddProjectOutcome> {
        const outcome = await this.projects.addProject(workspace);
        if (outcome.problem) {
            return outcome;
        }
        let request: ApprovalRequest | undefined;
        try {
            request = await this.approvals.preflight(outcome.workspace);
        } catch (e) {
            return { ...outcome, warnings: [...outcome.warnings, problemText(this.ctx.problemOf(e))] };
        }
        const launch = launchVerdictOf(request);
        // The approval (or refusal) is said once, by the verdict: not again as a --validate-config warning.
        const warnings = launch.kind === 'ready' ? outcome.warnings : outcome.warnings.filter(w => !/need your approval; launching shows them/.test(w));
        return { ...outcome, warnings, launch, hasSandyFolder: !!lstatOrUndefined(path.join(outcome.workspace, '.sandy'))?.isDirectory() };
    }

    planSandyFolder(workspace: string, source: SandyFolderSource): Promise<SandyFolderPlan> {
        return this.sandyFolders.plan(workspace, source).then(({ lines, secretsAvailable }) => ({ lines, secretsAvailable }));
    }

    async createSandyFolder(workspace: string, source: SandyFolderSource): Promise<SandyFolderPlan> {
        const plan = await this.sandyFolders.create(workspace, source);
        void this.snapshots.broadcast();
        return plan;
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
    prepareLaunch(workspace: string, request: Pick<LaunchRequest, 'approvalToken' | 'acceptCompatWarning' | 'args'>): Promise<PreparedLaunch> {
        return this.launcher.prepareLaunch(workspace, request);
    }

    /** The whitelisted environment of a launch (never `SANDY_AUTO_APPROVE_PRIVILEGED`). */
    launchEnv(): Record<string, string> {
        return this.launcher.launchEnv();
    }

    /** Record the launch in the projects list and poll. */
    afterLaunch(workspace: string, args?: readonly string[]): Promise<void> {
        return this.launcher.afterLaunch(workspace, args);
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

    /** sandy's plan (`--dry-run`) for a fleet maintenance command (common/maintenance/fleet.ts). */
    fleetPlan(action: FleetActionId, options?: FleetOptions): Promise<FleetPlan> {
        return this.fleet.plan(action, options);
    }

    /** `sandy -p <prompt>` in the project: the agent's answer, sandy's lines, the history record. */
    runHeadless(workspace: string, prompt: string): Promise<HeadlessOutcome> {
        return this.headless.run(workspace, prompt);
    }

    /** Runs a fleet maintenance command (after the user read its plan). */
    fleetRun(action: FleetActionId, options?: FleetOptions): Promise<RunOutcome> {
        return this.fleet.execute(action, options);
    }

    // ---- sessions -----------------------------------------------------------------------------

    async sessions(): Promise<SessionInfo[]> {
        await this.discovered;
        return this.supervisor.list();
    }

    /** Settles once sessions that outlived the last IDE are known (the terminal channel waits for it too). */
    whenDiscovered(): Promise<void> {
        return this.discovered;
    }

    async takeBack(sessionId: string): Promise<SessionInfo | undefined> {
        await this.discovered;
        return this.supervisor.get(sessionId) && this.supervisor.takeBack(sessionId);
    }

    async stop(sessionId: string): Promise<SessionInfo | undefined> {
        await this.discovered;
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

    // ---- session history ----------------------------------------------------------------------

    listHistory(query?: HistoryQuery): Promise<HistoryRecord[]> {
        return this.history.list(query);
    }

    readHistory(id: string, offset?: number): Promise<HistoryChunk | undefined> {
        return this.history.read(id, offset);
    }

    removeHistory(id: string): Promise<boolean> {
        return this.history.remove(id);
    }

    // ---- the Get Started wizard ---------------------------------------------------------------

    getOnboarding(): Promise<OnboardingSnapshot> {
        return this.onboardingPart.getOnboarding();
    }

    wizardAtStart(sandyPath?: string, whileSandyMissing?: boolean): Promise<boolean> {
        return this.onboardingPart.wizardAtStart(sandyPath, whileSandyMissing);
    }

    saveOnboarding(state: OnboardingState): Promise<OnboardingState> {
        return this.onboardingPart.saveOnboarding(state);
    }

    prerequisites(): Promise<PrerequisiteReport> {
        return this.onboardingPart.prerequisites();
    }

    agentChoices(): Promise<AgentChoice[]> {
        return this.onboardingPart.agentChoices();
    }

    settingsBootstrap(): Promise<BootstrapProposal[]> {
        return this.onboardingPart.settingsBootstrap();
    }

    startImageBuild(): Promise<ImageBuildProgress> {
        return this.onboardingPart.startImageBuild();
    }

    imageBuild(): Promise<ImageBuildProgress> {
        return this.onboardingPart.imageBuild();
    }

    // ---- the dashboard ------------------------------------------------------------------------

    protected dashboardData: SessionDashboard | undefined;

    /** Every session's tile (see {@link SessionDashboard}); Docker read from the environment sandy gets. */
    dashboard(): Promise<DashboardSnapshot> {
        this.dashboardData ??= new SessionDashboard({
            supervisor: this.supervisor,
            projects: async () => (await this.snapshots.snapshot()).projects,
            docker: new DockerReadClient({ env: this.ctx.processEnv, home: this.home, timeoutMs: STATS_TIMEOUT_MS })
        });
        return this.dashboardData.snapshot();
    }
}

/** The user's history cap in MB: a finite number from 0 (none kept) to 10 000; anything else is the default 50. */
function historyMegabytes(value: unknown): number {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 10_000 ? Math.floor(value) : 50;
}

/** A window's end of the service ({@link SandyServiceCore.connect}). */
export interface SandyServiceConnection extends SandyService, DisposableLike { }
