import type { SessionInfo } from '../../common/session/session-types';
import type { DerivedProject } from '../../common/projects/project-state';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';
import { isProxyContainer } from '../../common/sandy/contract';
import { attentionOf, compareAttention } from '../../common/session/session-attention';
import { boundedThumbnail, DashboardDocker, DashboardSnapshot, DashboardThumbnail, DashboardTile } from '../../common/session/dashboard-types';
import { workspaceLabel } from '../../common/host/labels';
import type { DockerReadClient, DockerResult, DockerStatsSummary } from '../sandy/docker-client';

/** A thumbnail is made again at most this often per session; a dashboard call within it gets the one made before. */
export const THUMBNAIL_REFRESH_MS = 3_000;
/**
 * A screen still parsing an agent's flood answers late (the backend's xterm parses it first): the
 * dashboard waits for it at most this long, then shows that tile's last thumbnail.
 */
export const THUMBNAIL_TIMEOUT_MS = 1_000;
/** A container's figures are asked again at most this often, however many windows show the dashboard. */
export const STATS_REFRESH_MS = 3_000;
/** At most this many stats requests at once… */
export const STATS_CONCURRENCY = 4;
/** …each given up after this long (the tile then has no figures). */
export const STATS_TIMEOUT_MS = 2_000;

type StatsOutcome = DockerResult<{ summary: DockerStatsSummary }>;

export interface SessionDashboardDeps {
    /** The sessions hosted here, and each one's screen. */
    supervisor: {
        list(): SessionInfo[];
        screenOf(id: string): { visibleText(maxRows?: number): Promise<{ cols: number; rows: number; lines: string[] }> } | undefined;
    };
    /** The Projects view's projects (names, and the containers `--print-state` lists for each sandbox). */
    projects(): Promise<readonly DerivedProject[]>;
    docker: Pick<DockerReadClient, 'stats' | 'ping'>;
    clock?: () => number;
    statsTimeoutMs?: number;
    /** Default {@link THUMBNAIL_TIMEOUT_MS}. */
    thumbnailTimeoutMs?: number;
}

/**
 * The dashboard's data: a tile per hosted session, its CPU and memory from the Docker API (the
 * daemon's container; a foreground session's non-proxy container of its sandbox, when `--print-state`
 * lists it), and a plain-text thumbnail of the backend's copy of its screen. Docker that does not
 * answer is a value (`docker: unreachable`, tiles without figures), never a throw; a hung Docker
 * costs at most {@link STATS_TIMEOUT_MS} per round of requests. Figures and thumbnails are cached
 * for a few seconds, so windows that all show the dashboard ask Docker once between them.
 */
export class SessionDashboard {
    /**
     * Per session: when its thumbnail was last asked for and the answer (shared by every window that
     * asks within {@link THUMBNAIL_REFRESH_MS}), the last one made, and the screen's read still under way.
     */
    protected readonly thumbnails = new Map<string, {
        at: number;
        thumbnail: Promise<DashboardThumbnail | undefined>;
        last?: DashboardThumbnail;
        reading?: Promise<DashboardThumbnail | undefined>;
    }>();
    protected readonly stats = new Map<string, { at: number; outcome: Promise<StatsOutcome> }>();
    protected readonly now: () => number;

    constructor(protected readonly deps: SessionDashboardDeps) {
        this.now = deps.clock ?? Date.now;
    }

    async snapshot(): Promise<DashboardSnapshot> {
        const now = this.now();
        const sessions = this.deps.supervisor.list();
        const projects = await this.deps.projects().catch(() => [] as DerivedProject[]);
        this.forgetGone(sessions);
        const withContainer = sessions.map(session => ({ session, project: projectOf(session, projects) }))
            .map(entry => ({ ...entry, container: entry.session.status === 'exited' ? undefined : containerOf(entry.session, entry.project) }));
        const [figures, thumbnails] = await Promise.all([
            this.figures(withContainer.map(e => e.container)),
            Promise.all(sessions.map(s => this.thumbnail(s, now)))
        ]);
        const tiles = withContainer.map(({ session, project, container }, i): DashboardTile => {
            const summary = container ? figures.byContainer.get(container) : undefined;
            return {
                sessionId: session.id,
                workspace: session.workspace,
                project: project?.displayName ?? workspaceLabel(session.workspace),
                agent: session.agent ?? project?.lastAgent,
                mode: session.mode,
                origin: session.origin,
                attention: session.attention ?? attentionOf(session, { lastOutputAt: session.lastOutputAt ?? 0 }, now),
                startedAt: session.startedAt,
                endedAt: session.endedAt,
                lastOutputAt: session.lastOutputAt,
                cpuPercent: finite(summary?.cpuPercent),
                memoryBytes: finite(summary?.memoryUsage),
                memoryLimit: finite(summary?.memoryLimit),
                thumbnail: thumbnails[i]
            };
        });
        tiles.sort((a, b) => compareAttention(a.attention, b.attention));
        return { tiles, docker: figures.docker, at: now };
    }

    /** Each container's figures, a few at a time; once Docker is found unreachable the rest are not asked. */
    protected async figures(containers: ReadonlyArray<string | undefined>): Promise<{ byContainer: Map<string, DockerStatsSummary>; docker: DashboardDocker }> {
        const byContainer = new Map<string, DockerStatsSummary>();
        const queue = [...new Set(containers.filter((c): c is string => !!c))];
        let unreachable: string | undefined;
        if (!queue.length) {
            // Nothing to measure: still say whether Docker answers (the banner must not claim "ok" blindly).
            const ping = await this.bounded(this.deps.docker.ping());
            return { byContainer, docker: ping.reachable ? { state: 'ok' } : { state: 'unreachable', reason: ping.reason } };
        }
        const worker = async (): Promise<void> => {
            for (let id = queue.shift(); id !== undefined && unreachable === undefined; id = queue.shift()) {
                const outcome = await this.statsOf(id);
                if (!outcome.reachable) {
                    unreachable = outcome.reason;
                } else if (outcome.ok) {
                    byContainer.set(id, outcome.value.summary);
                }
            }
        };
        await Promise.all(Array.from({ length: Math.min(STATS_CONCURRENCY, queue.length) }, worker));
        return { byContainer, docker: unreachable === undefined ? { state: 'ok' } : { state: 'unreachable', reason: unreachable } };
    }

    /** One container's stats, shared by every caller within {@link STATS_REFRESH_MS}. */
    protected statsOf(id: string): Promise<StatsOutcome> {
        const now = this.now();
        const cached = this.stats.get(id);
        if (cached && now - cached.at < STATS_REFRESH_MS) {
            return cached.outcome;
        }
        const outcome = this.bounded(this.deps.docker.stats(id) as Promise<StatsOutcome>);
        this.stats.set(id, { at: now, outcome });
        return outcome;
    }

    /** A Docker request that has not answered in time is unreachable (the client's own timeout is a second bound). */
    protected bounded<T>(request: Promise<DockerResult<T>>): Promise<DockerResult<T>> {
        const ms = this.deps.statsTimeoutMs ?? STATS_TIMEOUT_MS;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<DockerResult<T>>(resolve => {
            timer = setTimeout(() => resolve({ reachable: false, reason: `the Docker daemon did not answer within ${ms} ms` }), ms);
            timer.unref?.();
        });
        const answered = request.catch((e: unknown): DockerResult<T> => ({ reachable: false, reason: e instanceof Error ? e.message : String(e) }));
        return Promise.race([answered, late]).finally(() => clearTimeout(timer));
    }

    /**
     * The session's screen as a thumbnail, made again only when the last one is older than
     * {@link THUMBNAIL_REFRESH_MS} — once for every window that asks meanwhile. A screen that has not
     * answered within {@link THUMBNAIL_TIMEOUT_MS} (a flood still parsing) gives its last thumbnail,
     * and is not asked again until it has answered.
     */
    protected thumbnail(session: SessionInfo, now: number): Promise<DashboardThumbnail | undefined> {
        const cached = this.thumbnails.get(session.id);
        if (cached && now - cached.at < THUMBNAIL_REFRESH_MS) {
            return cached.thumbnail;
        }
        const entry: { at: number; thumbnail: Promise<DashboardThumbnail | undefined>; last?: DashboardThumbnail; reading?: Promise<DashboardThumbnail | undefined> } =
            { at: now, thumbnail: Promise.resolve(cached?.last), last: cached?.last, reading: cached?.reading };
        if (!entry.reading) {
            const screen = this.deps.supervisor.screenOf(session.id);
            const reading = screen
                ? screen.visibleText().then(text => boundedThumbnail(text.lines, text.cols, text.rows), () => undefined)
                : Promise.resolve(undefined);
            entry.reading = reading;
            void reading.then(thumbnail => {
                const current = this.thumbnails.get(session.id);
                if (current && current.reading === reading) {
                    current.last = thumbnail;
                    current.reading = undefined;
                }
            });
        }
        const reading = entry.reading;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<DashboardThumbnail | undefined>(resolve => {
            timer = setTimeout(() => resolve(this.thumbnails.get(session.id)?.last ?? entry.last), this.deps.thumbnailTimeoutMs ?? THUMBNAIL_TIMEOUT_MS);
            timer.unref?.();
        });
        entry.thumbnail = Promise.race([reading, late]).finally(() => clearTimeout(timer));
        this.thumbnails.set(session.id, entry);
        return entry.thumbnail;
    }

    protected forgetGone(sessions: readonly SessionInfo[]): void {
        const ids = new Set(sessions.map(s => s.id));
        for (const id of this.thumbnails.keys()) {
            if (!ids.has(id)) {
                this.thumbnails.delete(id);
            }
        }
        const now = this.now();
        for (const [id, entry] of this.stats) {
            if (now - entry.at >= STATS_REFRESH_MS) {
                this.stats.delete(id);
            }
        }
    }
}

/** The project of a session: its workspace, or the sandbox sandy names after it. */
function projectOf(session: SessionInfo, projects: readonly DerivedProject[]): DerivedProject | undefined {
    const sandbox = sandboxNameForWorkspace(session.workspace);
    return projects.find(p => p.workspacePath === session.workspace) ?? projects.find(p => p.name === sandbox);
}

/** The container whose figures are the session's: a daemon's own; a foreground session's sandbox's agent container (never the proxy sidecar). */
function containerOf(session: SessionInfo, project: DerivedProject | undefined): string | undefined {
    if (!project) {
        return undefined;
    }
    if (session.mode === 'daemon') {
        return project.daemon?.containerId;
    }
    return project.containers.find(c => !isProxyContainer(c))?.id;
}

function finite(n: number | undefined): number | undefined {
    return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}
