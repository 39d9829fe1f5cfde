import * as fs from 'fs';
import type { DisposableLike } from '../../common/base/event';
import type { SessionInfo } from '../../common/session/session-types';
import { SandyState } from '../../common/sandy/contract';
import { deriveProjects, ProjectMetadata } from '../../common/projects/project-state';
import { ProjectsSnapshot, RefusedFolder, SandyProblem, SandyServiceEvents, SessionNotification } from '../../common/service/service-protocol';
import { PollOutcome, StatePoller } from '../projects/state-poller';
import { ProjectsStore } from '../projects/projects-store';
import { checkWorkspace } from '../projects/workspace-guard';
import { PtySupervisor } from '../terminal/pty-supervisor';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';

/**
 * The Projects view's data, and every window that listens to it: the last `--print-state`, the
 * folders each viewer has open (and the ones the workspace guard refused), joined with the stored
 * projects and the live sessions into one {@link ProjectsSnapshot} that goes to every listener.
 */
export class SnapshotPublisher {
    readonly listeners = new Set<SandyServiceEvents>();
    /** Folders open in each viewer (a window, a VS Code workspace): shown as projects while open. */
    protected readonly openFolders = new Map<string, string[]>();
    /** Folders open in a viewer that the workspace guard refused, with its words: shown above the projects. */
    protected readonly refusedFolders = new Map<string, RefusedFolder[]>();
    protected state: SandyState | undefined;
    protected stateProblem: SandyProblem | undefined;
    protected polledAt: number | undefined;

    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly parts: { store: ProjectsStore; supervisor: PtySupervisor; poller: StatePoller<SandyState> }
    ) { }

    /** The last `--print-state` that succeeded. */
    get latestState(): SandyState | undefined {
        return this.state;
    }

    addListener(listener: SandyServiceEvents): DisposableLike {
        this.listeners.add(listener);
        return { dispose: () => this.listeners.delete(listener) };
    }

    sessionChanged(session: SessionInfo): void {
        for (const listener of this.listeners) {
            listener.onDidChangeSession(session);
        }
    }

    notified(event: SessionNotification): void {
        for (const listener of this.listeners) {
            listener.onDidNotify(event);
        }
    }

    /** A poll ended: keep its state (or its problem) and tell everyone. */
    polled(outcome: PollOutcome<SandyState>): void {
        if (outcome.ok) {
            this.state = outcome.value;
            this.stateProblem = undefined;
        } else {
            this.stateProblem = this.ctx.problemOf(outcome.error);
        }
        this.polledAt = outcome.at;
        void this.broadcast();
    }

    async setOpenFolders(viewerId: string, folders: string[]): Promise<void> {
        const canonical: string[] = [];
        const refused: RefusedFolder[] = [];
        for (const folder of folders) {
            try {
                canonical.push(await checkWorkspace(folder, this.ctx.home));
            } catch (e) {
                // ~/.ssh, $HOME, / or a vanished folder is never offered as a sandy workspace; the user is told why.
                const problem = this.ctx.problemOf(e);
                refused.push({ folder, message: `${problem.message} ${problem.hint}`.trim() });
            }
        }
        this.openFolders.set(viewerId, canonical);
        this.refusedFolders.set(viewerId, refused);
        void this.broadcast();
    }

    /** A viewer went: its open folders (and refusals) go with it. */
    removeViewer(viewerId: string): void {
        const hadRefusals = this.refusedFolders.delete(viewerId);
        if (this.openFolders.delete(viewerId) || hadRefusals) {
            void this.broadcast();
        }
    }

    async snapshot(): Promise<ProjectsSnapshot> {
        const { store, supervisor } = this.parts;
        const status = this.discovery.sandyStatus;
        const schema = this.discovery.schema;
        const stored = [...await store.list()];
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
            state: this.state,
            projects: stored.map(p => ({ workspacePath: p.workspace, exists: fs.existsSync(p.workspace) })),
            metadata,
            sessions: supervisor.list(),
            home: this.ctx.home,
            sandyVersion: this.discovery.located?.printVersion?.version ?? status.fullVersion,
            sandboxMinCompat: schema?.sandy.sandbox_min_compat,
            agents: schema?.agents,
            longRunningHours: this.discovery.configuration.longRunningHours ?? 24
        });
        return {
            status,
            projects,
            sessions: supervisor.list(),
            dockerReachable: this.state?.docker_reachable,
            stateProblem: status.found ? this.stateProblem : undefined,
            polledAt: this.polledAt,
            home: this.ctx.home,
            refusedFolders: [...new Map([...this.refusedFolders.values()].flat().map(r => [r.folder, r])).values()]
        };
    }

    async refresh(): Promise<ProjectsSnapshot> {
        await this.discovery.ensureLocated();
        if (this.discovery.sandyStatus.found) {
            // Not the poll under way: it may have read sandy's state before what the caller just did.
            await this.parts.poller.pollFresh();
            // The sandbox sizes come from a full read beside it (at most one per ten minutes), then a poll shows them.
            void this.discovery.readFullState().then(read => read ? this.parts.poller.pollNow() : undefined);
        }
        return this.snapshot();
    }

    /** A fresh snapshot to every listener (none is built when nobody listens). */
    async broadcast(): Promise<void> {
        if (!this.listeners.size) {
            return;
        }
        const snapshot = await this.snapshot();
        for (const listener of this.listeners) {
            listener.onDidChangeSnapshot(snapshot);
        }
    }
}
