import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SandyError } from '../../common/sandy/errors';
import type { SessionInfo } from '../../common/session/session-types';
import type { DisposableLike } from '../../common/base/event';
import { SandyState, SandySchema } from '../../common/sandy/contract';
import { deriveProjects, ProjectMetadata } from '../../common/projects/project-state';
import { evaluateCompat, describeVerdict } from '../../common/sandy/compat';
import { parseConfigFile, getEffectiveValues } from '../../common/config/config-file';
import { ApprovalRefusal, ApprovalRequest, buildApprovalRequest } from '../../common/approvals/approval-model';
import { CONTROL_CHARS, GateKind, gatesToken, PendingGates } from '../../common/approvals/launch-gates';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import { diffApproval } from '../../common/config/approval-diff';
import { approvalFilePathFor, envSetKeysFrom, PreflightReport } from '../../common/config/preflight';
import { SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../../common/settings/settings-dto';
import { describeValidateResult } from '../../common/settings/settings-results';
import {
    AddProjectOutcome, LaunchOutcome, LaunchRequest, ProjectsSnapshot, RefusedFolder, RunOutcome, SandyConfiguration, SandyProblem,
    SandyService, SandyServiceEvents, SandyStatus, SandyViewerMethods, SANDY_SERVICE_METHODS, toProblem
} from '../../common/service/service-protocol';
import { addSecretsToGitignore, gitignoreWarning, readSettingsScope, saveSettingsScope, scopePaths, sweepInterruptedSaves } from '../config/settings-io';
import { readConfigFileSync } from '../config/config-io';
import { runPreflight, sha256Hex, valueHashesFor, workspaceHash16 } from '../approvals/preflight';
import { dockerfileApprovalPath, dockerfileGate, sandyContextHash, symlinkApprovalPath, symlinkGate } from '../approvals/launch-gates';
import { GateResponder } from '../approvals/gate-responder';
import { ApprovalMemory } from '../approvals/approval-memory';
import { sandboxNameFor, sandboxNameForCanonical, sweepLocks } from '../sandy/lock-sweep';
import { PtySpawn, PtySupervisor } from '../terminal/pty-supervisor';
import { StatePoller } from '../projects/state-poller';
import { ProjectsStore } from '../projects/projects-store';
import { locateSandy, LocatedSandy } from '../sandy/locate';
import { ProcessSandyRunner } from '../sandy/runner';
import { SandyClient } from '../sandy/sandy-client';
import { buildSandyEnv, SandyEnvOptions } from '../sandy/env';
import { checkWorkspace } from '../projects/workspace-guard';

/** sandy arguments a launch may carry; introspection and maintenance flags have their own calls. */
const LAUNCH_FLAGS = new Set(['--new', '--resume', '--rebuild', '--agent', '--remote', '--upgrade', '-v', '-vv', '-vvv']);

/** The host's logger (Theia's named ILogger, a VS Code output channel): three levels are enough. */
export interface ServiceLogger {
    info(message: string): void;
    warn(message: string): void;
    error(message: string): void;
}

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
 */
export class SandyServiceCore implements Omit<SandyService, SandyViewerMethods> {
    readonly home: string;
    readonly sandyHome: string;
    readonly dataDir: string;
    readonly supervisor: PtySupervisor;
    readonly store: ProjectsStore;
    readonly approvalMemory: ApprovalMemory;
    readonly poller: StatePoller<SandyState>;

    protected readonly listeners = new Set<SandyServiceEvents>();
    /** Folders open in each viewer (a window, a VS Code workspace): shown as projects while open. */
    protected readonly openFolders = new Map<string, string[]>();
    /** Folders open in a viewer that the workspace guard refused, with its words: shown above the projects. */
    protected readonly refusedFolders = new Map<string, RefusedFolder[]>();
    protected config: SandyConfiguration = {};
    protected located: LocatedSandy | undefined;
    protected schema: SandySchema | undefined;
    protected status: SandyStatus = { found: false };
    protected locating: Promise<SandyStatus> | undefined;
    protected latestState: SandyState | undefined;
    protected stateProblem: SandyProblem | undefined;
    protected polledAt: number | undefined;
    protected started = false;
    protected readonly toDispose: DisposableLike[] = [];

    constructor(protected readonly options: SandyServiceOptions) {
        const env = this.processEnv;
        this.home = options.home ?? os.homedir();
        this.sandyHome = env.SANDY_HOME || path.join(this.home, '.sandy');
        this.dataDir = options.dataDir ?? (env.SANDY_IDE_DATA_DIR || path.join(this.home, '.sandy-ide'));
        this.supervisor = options.supervisor ?? new PtySupervisor(options.spawnPty);
        this.store = new ProjectsStore(path.join(this.dataDir, 'projects.json'));
        this.approvalMemory = new ApprovalMemory(this.dataDir);
        this.poller = new StatePoller<SandyState>(() => this.fetchState(), {
            visibleIntervalMs: options.visiblePollMs ?? (Number(env.SANDY_IDE_POLL_MS) || 5000),
            hiddenIntervalMs: 60_000
        });
    }

    protected get processEnv(): NodeJS.ProcessEnv {
        return this.options.env ?? process.env;
    }

    protected get logger(): ServiceLogger {
        return this.options.logger;
    }

    protected problemOf(e: unknown): SandyProblem {
        return toProblem(e, this.options.logHint);
    }

    /** Wire the supervisor and the poller to the listeners and start looking for sandy. */
    start(): void {
        if (this.started) {
            return;
        }
        this.started = true;
        this.toDispose.push(this.supervisor.onDidChangeSession(session => {
            for (const listener of this.listeners) {
                listener.onDidChangeSession(session);
            }
            if (session.status === 'exited' || session.attachedViews === 0) {
                void this.poller.pollNow();
            }
        }));
        this.toDispose.push(this.poller.onDidPoll(outcome => {
            if (outcome.ok) {
                this.latestState = outcome.value;
                this.stateProblem = undefined;
            } else {
                this.stateProblem = this.problemOf(outcome.error);
            }
            this.polledAt = outcome.at;
            void this.broadcastSnapshot();
        }));
        // Temp folders (one may hold a key) that a killed save left behind go before anything else reads there.
        void this.store.list().then(projects => sweepInterruptedSaves({ sandyHome: this.sandyHome, dataDir: this.dataDir, workspaces: projects.map(p => p.workspace) }))
            .then(removed => removed.length && this.logger.info(`sandy: removed ${removed.length} temp folder(s) of interrupted saves: ${removed.join(', ')}`), () => undefined);
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

    // ---- listeners and visibility -------------------------------------------------------------

    addListener(listener: SandyServiceEvents): DisposableLike {
        this.listeners.add(listener);
        return { dispose: () => this.listeners.delete(listener) };
    }

    /**
     * One window's connection: the whole {@link SandyService}, with its visibility and open folders
     * kept per viewer, and its listener (when given) hearing every change. Disposing it removes the
     * viewer: its listener, its poll interest and its open folders go with it.
     */
    connect(viewerId: string, listener?: SandyServiceEvents): SandyServiceConnection {
        const subscription = listener ? this.addListener(listener) : undefined;
        const shared = Object.fromEntries(SANDY_SERVICE_METHODS.map(method =>
            [method, (...args: unknown[]) => (this[method as Exclude<keyof SandyService, SandyViewerMethods>] as (...a: unknown[]) => unknown)(...args)]));
        return {
            ...shared as Omit<SandyService, SandyViewerMethods>,
            setVisible: async visible => this.setVisible(viewerId, visible),
            setOpenFolders: folders => this.setOpenFolders(viewerId, folders),
            dispose: () => {
                subscription?.dispose();
                this.removeViewer(viewerId);
            }
        };
    }

    protected removeViewer(viewerId: string): void {
        this.poller.removeViewer(viewerId);
        const hadRefusals = this.refusedFolders.delete(viewerId);
        if (this.openFolders.delete(viewerId) || hadRefusals) {
            void this.broadcastSnapshot();
        }
    }

    async setOpenFolders(viewerId: string, folders: string[]): Promise<void> {
        const canonical: string[] = [];
        const refused: RefusedFolder[] = [];
        for (const folder of folders) {
            try {
                canonical.push(await checkWorkspace(folder, this.home));
            } catch (e) {
                // ~/.ssh, $HOME, / or a vanished folder is never offered as a sandy workspace; the user is told why.
                const problem = this.problemOf(e);
                refused.push({ folder, message: `${problem.message} ${problem.hint}`.trim() });
            }
        }
        this.openFolders.set(viewerId, canonical);
        this.refusedFolders.set(viewerId, refused);
        void this.broadcastSnapshot();
    }

    setVisible(viewerId: string, visible: boolean): void {
        this.poller.setVisible(viewerId, visible);
    }

    // ---- sandy discovery ----------------------------------------------------------------------

    async configure(config: SandyConfiguration): Promise<SandyStatus> {
        const changed = JSON.stringify(config) !== JSON.stringify(this.config);
        this.config = { ...config };
        if (changed) {
            this.located = undefined;
            this.locating = undefined;
        }
        return this.ensureLocated();
    }

    ensureLocated(): Promise<SandyStatus> {
        if (!this.locating) {
            this.locating = this.locate().finally(() => {
                // Keep a success cached; retry a failure on the next request (the user may have installed sandy).
                if (!this.status.found) {
                    this.locating = undefined;
                }
            });
        }
        return this.locating;
    }

    get sandyStatus(): SandyStatus {
        return this.status;
    }

    protected async locate(): Promise<SandyStatus> {
        // A configure() while this runs starts a newer locate: this one's result must not land
        // after it (the user's sandy.path would lose to the start-up search of PATH).
        const config = this.config;
        const superseded = () => JSON.stringify(config) !== JSON.stringify(this.config);
        try {
            const located = await locateSandy({ configuredPath: config.sandyPath, processEnv: this.processEnv, home: this.home, envOptions: this.envOptions() });
            if (superseded()) {
                return this.ensureLocated();
            }
            this.located = located;
            const client = this.client(located);
            let schemaVersion: number | undefined;
            let schemaFailed = false;
            try {
                const schema = await client.schema();
                if (superseded()) {
                    return this.ensureLocated();
                }
                this.schema = schema;
                schemaVersion = this.schema.schema_version;
            } catch (e) {
                if (superseded()) {
                    return this.ensureLocated();
                }
                schemaFailed = true;
                this.logger.warn(`sandy: --print-schema failed: ${this.problemOf(e).message}`);
            }
            const verdict = evaluateCompat({ sandyVersion: located.fullVersion, schemaVersion, schemaFailed });
            const compat = describeVerdict(verdict);
            this.logger.info(`sandy: ${located.path} ${located.fullVersion} — compat: ${compat.severity} ${compat.message}`);
            this.status = { found: true, path: located.path, fullVersion: located.fullVersion, schemaVersion, compat };
        } catch (e) {
            if (superseded()) {
                return this.ensureLocated();
            }
            this.located = undefined;
            const problem = this.problemOf(e);
            const candidates = (e as { candidates?: Array<{ path: string }> }).candidates;
            this.status = { found: false, problem, searched: candidates?.map(c => c.path) };
            this.logger.warn(`sandy: ${problem.message}`);
        }
        return this.status;
    }

    protected client(located: LocatedSandy): SandyClient {
        return SandyClient.forPath(located.path, { envOptions: this.envOptions() }, { fullVersion: located.fullVersion });
    }

    /** The whitelist plus what the user enabled in settings (sandy.passEnvironment). */
    protected envOptions(extra?: Record<string, string>): SandyEnvOptions {
        const enabled = this.config.passEnv ?? [];
        return {
            sandyVars: ['SANDY_HOME', ...enabled.filter(n => n.startsWith('SANDY_'))],
            credentialVars: enabled.filter(n => !n.startsWith('SANDY_')),
            extra
        };
    }

    /** The environment a sandy process gets: the whitelist of the host's environment, nothing else. */
    baseEnv(extra?: Record<string, string>): Record<string, string> {
        return buildSandyEnv(this.processEnv, this.envOptions(extra));
    }

    /** The located sandy executable, if any (a host's fallback terminal runs it itself). */
    get sandyPath(): string | undefined {
        return this.located?.path;
    }

    // ---- state ------------------------------------------------------------------------------

    protected async fetchState(): Promise<SandyState> {
        await this.ensureLocated();
        if (!this.located) {
            throw new SandyError('not-found', this.status.problem?.message ?? 'sandy was not found.', this.status.problem?.hint ?? '');
        }
        return this.client(this.located).state('light');
    }

    async snapshot(): Promise<ProjectsSnapshot> {
        const stored = [...await this.store.list()];
        for (const folder of new Set([...this.openFolders.values()].flat())) {
            if (!stored.some(p => p.workspace === folder)) {
                stored.push({ workspace: folder, addedAt: 0 });
            }
        }
        const metadata: Record<string, ProjectMetadata> = {};
        for (const p of stored) {
            metadata[p.workspace] = { lastAgent: p.lastAgent, model: p.lastModel, lastLaunched: p.lastLaunchedAt ? new Date(p.lastLaunchedAt) : undefined };
        }
        const projects = deriveProjects({
            state: this.latestState,
            projects: stored.map(p => ({ workspacePath: p.workspace, exists: fs.existsSync(p.workspace) })),
            metadata,
            sessions: this.supervisor.list(),
            home: this.home,
            sandyVersion: this.located?.printVersion?.version ?? this.status.fullVersion,
            sandboxMinCompat: this.schema?.sandy.sandbox_min_compat,
            agents: this.schema?.agents
        });
        return {
            status: this.status,
            projects,
            sessions: this.supervisor.list(),
            dockerReachable: this.latestState?.docker_reachable,
            stateProblem: this.status.found ? this.stateProblem : undefined,
            polledAt: this.polledAt,
            home: this.home,
            refusedFolders: [...new Map([...this.refusedFolders.values()].flat().map(r => [r.folder, r])).values()]
        };
    }

    async refresh(): Promise<ProjectsSnapshot> {
        await this.ensureLocated();
        if (this.status.found) {
            await this.poller.pollNow();
        }
        return this.snapshot();
    }

    protected async broadcastSnapshot(): Promise<void> {
        if (!this.listeners.size) {
            return;
        }
        const snapshot = await this.snapshot();
        for (const listener of this.listeners) {
            listener.onDidChangeSnapshot(snapshot);
        }
    }

    // ---- projects ---------------------------------------------------------------------------

    async addProject(workspace: string): Promise<AddProjectOutcome> {
        let canonical: string;
        try {
            canonical = await checkWorkspace(workspace, this.home);
        } catch (e) {
            return { workspace, warnings: [], problem: this.problemOf(e) };
        }
        await this.store.add(canonical);
        const warnings = await this.validateWarnings(canonical);
        void this.broadcastSnapshot();
        return { workspace: canonical, warnings };
    }

    async removeProject(workspace: string): Promise<void> {
        await this.store.remove(workspace);
        void this.broadcastSnapshot();
    }

    /** `--validate-config` of the workspace files, as sentences; sandy only warns, it never blocks here. */
    protected async validateWarnings(workspace: string, forLaunch = false): Promise<string[]> {
        await this.ensureLocated();
        if (!this.located) {
            return [];
        }
        const warnings: string[] = [];
        for (const name of ['config', '.secrets']) {
            const file = path.join(workspace, '.sandy', name);
            if (!fs.existsSync(file)) {
                continue;
            }
            try {
                const result = await this.client(this.located).validateConfig(file);
                for (const w of result.warnings) {
                    // At launch, privileged keys were just shown (and decided) in the approval view.
                    if (!(forLaunch && result.privileged_keys_requiring_approval.includes(w.key))) {
                        warnings.push(`${w.key}: ${w.message} (.sandy/${name})`);
                    }
                }
                if (result.unknown_keys.length) {
                    warnings.push(`Unknown keys in .sandy/${name} (sandy ignores them): ${result.unknown_keys.join(', ')}`);
                }
                if (result.approval_status === 'pending' && !forLaunch) {
                    warnings.push(`Privileged keys in .sandy/${name} need your approval; launching shows them for you to approve first.`);
                }
            } catch (e) {
                warnings.push(`Could not validate .sandy/${name}: ${this.problemOf(e).message}`);
            }
        }
        return [...new Set(warnings)];
    }

    // ---- sessions ---------------------------------------------------------------------------

    async launch(request: LaunchRequest): Promise<LaunchOutcome> {
        let workspace: string;
        try {
            workspace = await checkWorkspace(request.workspace, this.home);
        } catch (e) {
            return { kind: 'refused', problem: this.problemOf(e) };
        }
        const live = this.supervisor.list().find(s => s.workspace === workspace && s.status !== 'exited');
        if (live) {
            return { kind: 'already-running', session: live };
        }
        const args = request.args ?? [];
        const bad = args.find(a => a.startsWith('-') && !LAUNCH_FLAGS.has(a));
        if (bad) {
            return { kind: 'refused', problem: { code: 'usage', message: `sandy flag ${bad} cannot be used for a launch.`, hint: 'Use the matching Sandy command instead.' } };
        }
        const prepared = await this.prepareLaunch(workspace, request);
        if (prepared.kind !== 'ready') {
            return prepared.outcome;
        }
        const { approved, report, warnings } = prepared;
        const launchConfig = this.effectiveConfig(workspace);
        let session: SessionInfo;
        try {
            // sandy asks its own questions on this PTY; the tab answers them only for what the user approved.
            session = this.supervisor.launch({
                sandyPath: prepared.sandyPath,
                args,
                workspace,
                env: this.launchEnv(),
                cols: request.cols,
                rows: request.rows,
                agent: launchConfig.agent,
                outputObserver: approved && this.gateResponder(workspace, approved, report).observe
            });
        } catch (e) {
            return { kind: 'refused', problem: this.problemOf(e) };
        }
        await this.afterLaunch(workspace);
        return { kind: 'launched', session, warnings };
    }

    /**
     * Everything a launch does before the spawn: locate sandy, sweep a dead lock, and run pre-flight
     * from the files as they are now (what the user approved must be exactly what sandy will load:
     * the token is the launcher's approval-set hash). A host that cannot host a PTY (VS Code without
     * node-pty) runs the same preparation, then starts sandy in its own terminal with {@link launchEnv}.
     */
    async prepareLaunch(workspace: string, request: Pick<LaunchRequest, 'approvalToken' | 'acceptCompatWarning'>): Promise<
        | { kind: 'ready'; sandyPath: string; approved: PendingGates | undefined; report: PreflightReport; warnings: string[] }
        | { kind: 'stop'; outcome: LaunchOutcome }
    > {
        await this.ensureLocated();
        if (!this.located) {
            return { kind: 'stop', outcome: { kind: 'refused', problem: this.status.problem ?? { code: 'not-found', message: 'sandy was not found.', hint: '' } } };
        }
        const sandyPath = this.located.path;
        const warnings: string[] = [];
        try {
            const sweep = await sweepLocks(this.sandyHome, workspace);
            if (sweep.outcome === 'removed') {
                warnings.push(`Removed a stale lock left by a dead sandy (pid ${sweep.pid ?? '?'}).`);
            }
        } catch (e) {
            this.logger.warn(`sandy: lock sweep failed for ${workspace}: ${this.problemOf(e).message}`);
        }
        const { report, request: approval, gates } = await this.analyze(workspace);
        let approved: PendingGates | undefined;
        if (approval) {
            const approvedThis = approval.kind === 'approve' && !!request.approvalToken && request.approvalToken === approval.token;
            const compatAccepted = approval.kind === 'compat' && request.acceptCompatWarning;
            if (!approvedThis && !compatAccepted) {
                return { kind: 'stop', outcome: { kind: 'needs-approval', request: approval } };
            }
            approved = approvedThis ? gates : undefined;
        }
        warnings.push(...await this.validateWarnings(workspace, true));
        return { kind: 'ready', sandyPath, approved, report, warnings };
    }

    /**
     * The whitelisted environment of a launch. Never `SANDY_AUTO_APPROVE_PRIVILEGED`: it would skip
     * sandy's Dockerfile gate unseen and leave no approval on record (the env whitelist drops it too).
     */
    launchEnv(): Record<string, string> {
        return { ...this.baseEnv(), TERM: 'xterm-256color', COLORTERM: 'truecolor' };
    }

    /** Record the launch in the projects list and poll. */
    async afterLaunch(workspace: string): Promise<void> {
        const launchConfig = this.effectiveConfig(workspace);
        await this.store.recordLaunch(workspace, { agent: launchConfig.agent, model: launchConfig.model });
        void this.poller.pollNow();
    }

    /**
     * The sandy tab's answers to sandy's own prompts, for exactly the gates the user approved; what
     * sandy then records is remembered here too (value hashes, the Dockerfile text) for the next diff.
     */
    protected gateResponder(workspace: string, approved: PendingGates, report: PreflightReport): GateResponder {
        const wsHash = workspaceHash16(workspace);
        return new GateResponder({
            approved,
            recheck: gate => this.gateUnchanged(workspace, approved, gate),
            onAnswered: gate => {
                this.logger.info(`sandy: answered sandy's ${gate} prompt for ${workspace} with the approval you gave`);
                const remember = gate === 'privileged'
                    ? this.approvalMemory.record(wsHash, valueHashesFor(report.pendingPrivileged))
                    : gate === 'dockerfile' && approved.dockerfile ? this.approvalMemory.recordDockerfile(wsHash, approved.dockerfile.text) : undefined;
                remember?.catch(e => this.logger.warn(`sandy: could not remember the approval: ${this.problemOf(e).message}`));
            },
            onDeclined: (gate, reason) => this.logger.warn(`sandy: left sandy's ${gate} prompt for ${workspace} to you: ${reason}`)
        });
    }

    /** At sandy's prompt: are the files behind this gate still exactly what the user approved? */
    protected async gateUnchanged(workspace: string, approved: PendingGates, gate: GateKind): Promise<boolean> {
        if (gate === 'privileged') {
            return !!approved.privileged && (await this.preflightReport(workspace)).approvalSetHash === approved.privileged.setHash;
        }
        if (gate === 'dockerfile') {
            return !!approved.dockerfile && (await sandyContextHash(`${workspace}/.sandy`)).hash === approved.dockerfile.hash;
        }
        const now = await this.symlinks(workspace).catch(() => undefined);
        return !!approved.symlinks && !!now && JSON.stringify(now.entries) === JSON.stringify(approved.symlinks.entries);
    }

    /** `$SANDY_HOME` as the launched sandy will see it. */
    protected get launchSandyHome(): string {
        return this.baseEnv().SANDY_HOME || this.sandyHome;
    }

    /** sandy's symlink gate for a workspace, as it stands now (see launch-gates). */
    protected symlinks(workspace: string): ReturnType<typeof symlinkGate> {
        return symlinkGate(workspace, this.baseEnv().HOME || this.home, this.launchSandyHome);
    }

    /** The launcher-exact pre-flight of the workspace's and $SANDY_HOME's config files now. */
    protected preflightReport(workspace: string): Promise<PreflightReport> {
        const { schema, input } = this.schemaInput();
        const launchEnv = this.baseEnv();
        const sandbox = this.latestState?.sandboxes.find(s => s.name === sandboxNameFor(workspace));
        return runPreflight({
            workspacePath: workspace,
            canonical: true,
            sandyHome: this.launchSandyHome,
            schema: input,
            envSetKeys: envSetKeysFrom(launchEnv, input),
            envLanHosts: launchEnv.SANDY_ALLOW_LAN_HOSTS,
            sandbox: sandbox ? { createdVersion: sandbox.created_version, sandboxMinCompat: schema.sandy.sandbox_min_compat, sandboxPath: sandbox.path } : undefined
        });
    }

    /** A workspace as sandy will see it (canonical, never $HOME or /); throws a SandyError otherwise. */
    canonicalWorkspace(workspace: string): Promise<string> {
        return checkWorkspace(workspace, this.home);
    }

    // ---- settings ---------------------------------------------------------------------------

    protected schemaInput(): { schema: SandySchema; input: { privilegedKeys: string[]; passiveKeys: string[]; envOnlyKeys: string[]; keys: SandySchema['config']['privileged_keys'] } } {
        const schema = this.schema ?? BUNDLED_FALLBACK_SCHEMA;
        const keys = [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys];
        return {
            schema,
            input: {
                privilegedKeys: schema.config.privileged_keys.map(k => k.name),
                passiveKeys: schema.config.passive_keys.map(k => k.name),
                envOnlyKeys: schema.config.env_only_keys.map(k => k.name),
                keys
            }
        };
    }

    async getSettings(workspace?: string): Promise<SettingsSnapshot> {
        await this.ensureLocated();
        const { schema, input } = this.schemaInput();
        const canonical = workspace ? await checkWorkspace(workspace, this.home) : undefined;
        const sandyHome = this.launchSandyHome;
        const schemaSource = this.schema ? 'sandy' : this.status.found ? 'fallback' : 'missing';
        return {
            schema,
            schemaSource,
            sandyProblem: schemaSource === 'sandy' ? undefined : schemaSource === 'missing'
                ? { message: this.status.problem?.message ?? 'sandy was not found.', hint: this.status.problem?.hint }
                : { message: `sandy ${this.status.fullVersion ?? ''} did not answer --print-schema; the bundled schema of sandy 1.7.1 is used.`, hint: `${this.options.logHint ?? 'See the log.'} Update sandy if it is older than 0.12.` },
            scopes: {
                project: canonical ? await readSettingsScope(scopePaths('project', { workspace: canonical, sandyHome }), schema) : undefined,
                global: await readSettingsScope(scopePaths('global', { sandyHome }), schema)
            },
            workspace: canonical,
            gitignoreWarning: canonical ? await gitignoreWarning(canonical) : undefined,
            envSet: envSetKeysFrom(this.baseEnv(), input)
        };
    }

    async saveSettings(scope: SettingsScope, workspace: string | undefined, edits: SettingsEdits): Promise<SettingsSaveResult> {
        try {
            const canonical = workspace ? await checkWorkspace(workspace, this.home) : undefined;
            const paths = scopePaths(scope, { workspace: canonical, sandyHome: this.launchSandyHome });
            const { written, mismatches, modeFixes } = await saveSettingsScope(paths, edits);
            if (mismatches.length) {
                this.logger.warn(`sandy settings: read-back mismatch after saving ${scope} scope: ${mismatches.join(', ')}`);
            }
            const validateVerdict: string[] = [];
            await this.ensureLocated();
            if (this.located) {
                for (const file of written) {
                    try {
                        validateVerdict.push(...describeValidateResult(await this.client(this.located).validateConfig(file)));
                    } catch (e) {
                        validateVerdict.push(`Could not validate ${file}: ${this.problemOf(e).message}`);
                    }
                }
            }
            void this.broadcastSnapshot();
            return { ok: true, validateVerdict, mismatches, modeFixes };
        } catch (e) {
            const problem = this.problemOf(e);
            return { ok: false, error: { message: problem.message, hint: (e as { hint?: string }).hint ?? problem.hint } };
        }
    }

    async addSecretsToGitignore(workspace: string): Promise<void> {
        await addSecretsToGitignore(await checkWorkspace(workspace, this.home));
    }

    // ---- pre-flight -------------------------------------------------------------------------

    /**
     * What sandy's Dockerfile and symlink gates will ask besides the privileged keys, the token of
     * everything shown, and refusals where a gate cannot be shown faithfully.
     */
    protected async pendingGates(workspace: string, report: PreflightReport): Promise<{ gates: PendingGates; token: string; refusals: ApprovalRefusal[] }> {
        const refusals: ApprovalRefusal[] = [];
        const refusal = (e: unknown): undefined => {
            const problem = this.problemOf(e);
            refusals.push({ message: problem.message, remediation: problem.hint, key: '' });
            return undefined;
        };
        if (CONTROL_CHARS.test(workspace)) {
            refusal(new SandyError('usage', `The workspace path ${JSON.stringify(workspace)} contains control characters.`,
                'Rename the folder: sandy prints the path inside its own prompts and state, where such characters forge or break lines.'));
        }
        const wsHash = workspaceHash16(workspace);
        const previousText = await this.approvalMemory.getDockerfile(wsHash).catch(() => undefined);
        const dockerfile = await dockerfileGate(workspace, this.launchSandyHome, previousText).catch(refusal);
        const symlinks = await this.symlinks(workspace).catch(refusal);
        const privileged = report.approvalStatus === 'pending' && report.approvalSetHash
            ? { setHash: report.approvalSetHash, keys: report.approvalSet.map(kv => kv.slice(0, kv.indexOf('='))) }
            : undefined;
        const gates: PendingGates = { workspace, privileged, dockerfile, symlinks };
        return { gates, token: gatesToken(gates, sha256Hex), refusals };
    }

    /** The pre-flight report and what the approval view must show (undefined: launch without asking). */
    protected async analyze(workspace: string): Promise<{ report: PreflightReport; request: ApprovalRequest | undefined; gates: PendingGates }> {
        const keys = this.schemaInput().input.keys;
        const report = await this.preflightReport(workspace);
        const remembered = await this.approvalMemory.get(workspaceHash16(workspace)).catch(() => undefined);
        const diff = diffApproval(report.approvalFileText, report.pendingPrivileged, {
            currentSetHash: report.approvalSetHash,
            approvedValueHashes: remembered,
            currentValueHashes: valueHashesFor(report.pendingPrivileged)
        });
        const descriptions = Object.fromEntries(keys.map(k => [k.name, k.description]));
        const { gates, token, refusals } = await this.pendingGates(workspace, report);
        return { report, request: buildApprovalRequest(report, diff, descriptions, { pending: gates, token, refusals }), gates };
    }

    async preflight(workspace: string): Promise<ApprovalRequest | undefined> {
        const canonical = await checkWorkspace(workspace, this.home);
        return (await this.analyze(canonical)).request;
    }

    async revealApprovalLine(workspace: string, token: string, key: string, line: number): Promise<string | undefined> {
        const canonical = await checkWorkspace(workspace, this.home);
        const { report, request } = await this.analyze(canonical);
        if (!request || request.token !== token) {
            return undefined;
        }
        return report.pendingPrivileged.find(p => p.key === key && p.line === line)?.rawLine;
    }

    /**
     * Deletes every approval sandy recorded for the workspace: the privileged keys
     * (`passive-<h>.list`), the project Dockerfile (`dockerfile-<h>.list`) and the escaping symlinks
     * (`<sandbox>/.sandy-approved-symlinks.list`); the next launch asks all of them again.
     */
    async revokeApproval(workspace: string): Promise<boolean> {
        const canonical = await checkWorkspace(workspace, this.home);
        const sandyHome = this.launchSandyHome;
        await this.approvalMemory.forget(workspaceHash16(canonical)).catch(() => undefined);
        let removed = false;
        for (const file of [
            approvalFilePathFor(sandyHome, canonical, sha256Hex),
            dockerfileApprovalPath(sandyHome, canonical),
            symlinkApprovalPath(sandyHome, canonical)
        ]) {
            try {
                await fs.promises.unlink(file);
                removed = true;
            } catch (e) {
                if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
                    throw e;
                }
            }
        }
        void this.poller.pollNow();
        return removed;
    }

    async rebuildSandbox(workspace: string): Promise<RunOutcome> {
        const canonical = await checkWorkspace(workspace, this.home);
        return this.runMaintenance(['--reset-sandbox', '--workspace', canonical, '--keep-approvals', '--yes'], canonical);
    }

    /**
     * A maintenance command names its target in `args` (`--workspace P`, `--sandbox NAME`); `workspace`
     * only says which live session would block it. sandy runs in {@link maintenanceCwd}, never in the
     * workspace: that folder may be gone (spawn fails with ENOENT), and a cwd sandy could fall back on
     * must not be one that selects a sandbox.
     */
    protected async runMaintenance(args: string[], workspace: string): Promise<RunOutcome> {
        await this.ensureLocated();
        if (!this.located) {
            return { ok: false, stdout: '', stderr: this.status.problem?.message ?? 'sandy was not found.' };
        }
        if (this.supervisor.list().some(s => s.workspace === workspace && s.status !== 'exited')) {
            return { ok: false, stdout: '', stderr: 'A sandy session is running in this workspace; stop it first.' };
        }
        const runner = new ProcessSandyRunner({ sandyPath: this.located.path, processEnv: this.processEnv, envOptions: this.envOptions() });
        let result;
        try {
            result = await runner.run(args, { timeoutMs: 120_000, cwd: this.maintenanceCwd() });
        } catch (e) {
            // sandy could not be started at all: a failed outcome the host shows, not an RPC error.
            const problem = this.problemOf(e);
            return { ok: false, stdout: '', stderr: `${problem.message} ${problem.hint}`.trim() };
        }
        void this.poller.pollNow();
        return { ok: result.exitCode === 0, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
    }

    /**
     * Where maintenance commands run: sandy's own SANDY_HOME, which exists whenever there is a sandbox
     * to act on and can never be a workspace (the guard refuses it), so sandy's workspace default
     * (`$PWD`) selects nothing. Not $HOME: a sandbox of $HOME, made by a sandy run in a terminal, would
     * be the one a missing `--workspace` picks. The file system root when SANDY_HOME does not exist yet.
     */
    protected maintenanceCwd(): string {
        const sandyHome = this.launchSandyHome;
        try {
            if (fs.statSync(sandyHome).isDirectory()) {
                return sandyHome;
            }
        } catch {
            // Not created yet: nothing of sandy's to run in.
        }
        return path.parse(path.resolve(sandyHome)).root;
    }

    /** Agent and model as sandy will resolve them: env > workspace > home > default (CONTRACT §3.1). */
    protected effectiveConfig(workspace: string): { agent?: string; model?: string } {
        const read = (file: string) => {
            try {
                return getEffectiveValues(parseConfigFile(readConfigFileSync(file).text));
            } catch {
                // A refused file (symlink, FIFO, over 1 MiB) already stopped the launch in pre-flight.
                return {} as Record<string, string>;
            }
        };
        const merged: Record<string, string> = {
            ...read(path.join(this.sandyHome, 'config')),
            ...read(path.join(this.sandyHome, '.secrets')),
            ...read(path.join(workspace, '.sandy', 'config')),
            ...read(path.join(workspace, '.sandy', '.secrets'))
        };
        const env = this.processEnv;
        const agent = env.SANDY_AGENT || merged.SANDY_AGENT || 'claude';
        const model = env.SANDY_MODEL || merged.SANDY_MODEL || undefined;
        return { agent, model };
    }

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

    /**
     * Removes the sandbox of a project, also when its folder is gone. The sandbox sandy lists for the
     * workspace is selected by its name (`--sandbox NAME`, CONTRACT §6.4); one sandy does not list
     * (its name starts with a dot, e.g. of `~/.dotfiles`, which `--print-state` skips and `--sandbox`
     * refuses) by the folder while it exists (`--workspace`, resolved by sandy itself), and by the name
     * computed as sandy does from the recorded path once the folder is gone — that path was canonical
     * when it was recorded. sandy runs outside the folder either way (runMaintenance). Not checked by
     * the workspace guard: nothing is mounted or read from the folder.
     */
    async removeSandbox(workspace: string): Promise<RunOutcome> {
        const result = await this.runMaintenance(['--remove-sandbox', ...this.sandboxSelector(workspace), '--yes'], workspace);
        if (result.ok) {
            // sandy deletes its approval file with the sandbox; our value record goes too.
            await this.approvalMemory.forget(workspaceHash16(workspace)).catch(() => undefined);
        }
        return result;
    }

    protected sandboxSelector(workspace: string): string[] {
        const listed = this.latestState?.sandboxes.find(s => s.workspace_path === workspace)?.name;
        if (listed) {
            return [`--sandbox=${listed}`];
        }
        try {
            if (fs.statSync(workspace).isDirectory()) {
                return ['--workspace', workspace];
            }
        } catch {
            // Gone: below.
        }
        return [`--sandbox=${sandboxNameForCanonical(path.resolve(workspace))}`];
    }
}

/** A window's end of the service ({@link SandyServiceCore.connect}). */
export interface SandyServiceConnection extends SandyService, DisposableLike { }
