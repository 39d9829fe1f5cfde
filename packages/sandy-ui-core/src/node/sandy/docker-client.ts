import * as http from 'http';
import * as os from 'os';
import { z } from 'zod';
import { formatIssuePath } from '../../common/sandy/contract';
import { DockerEndpoint, resolveDockerEndpoint } from './docker-endpoint';

export { resolveDockerEndpoint } from './docker-endpoint';
export type { DockerEndpoint } from './docker-endpoint';

/**
 * A read-only view of the Docker Engine API, for the things sandy's `--print-state` cannot give
 * cheaply (live CPU/memory, a quick reachability probe). It speaks HTTP over the daemon's unix socket
 * (or Windows named pipe) and has GET requests only: containers are started, stopped and removed by
 * sandy, never by the IDE.
 */

/** The outcome of one request. Unreachable daemons are a value, never an exception. */
export type DockerResult<T> =
    | { reachable: true; ok: true; value: T }
    | { reachable: true; ok: false; status: number; message: string }
    | { reachable: false; reason: string };

/*
 * Every answer is parsed, never cast: a daemon (or anything listening on its socket) that answers
 * something else gets a `{ reachable: true, ok: false }` naming what was wrong — not an exception, and
 * not a value of the wrong type. Go's nil maps and slices arrive as `null` and read as empty.
 */
const nullableList = <T extends z.ZodTypeAny>(item: T) => z.array(item).nullish().transform(v => v ?? []);
const stringMap = z.record(z.string(), z.string()).nullish().transform(v => v ?? {});
/** Docker's counters: finite, not negative (a `1e400` would parse to Infinity). */
const count = z.number().finite().nonnegative();

/** The fields of `GET /containers/json` rows we use (the Engine returns more; they are dropped). */
const ContainerSummarySchema = z.object({
    Id: z.string().min(1),
    Names: nullableList(z.string()),
    Image: z.string(),
    ImageID: z.string().optional(),
    Command: z.string().optional(),
    Created: z.number().finite(),
    State: z.string(),
    Status: z.string(),
    Labels: stringMap
});
export type DockerContainerSummary = z.infer<typeof ContainerSummarySchema>;
const ContainerListSchema = z.array(ContainerSummarySchema);

/**
 * `GET /containers/{id}/stats?stream=false`: the parts `docker stats` computes with (all optional:
 * Windows and stopped containers omit them); the rest is kept, the caller gets the sample as it came.
 */
const StatsSchema = z.object({
    cpu_stats: z.object({
        cpu_usage: z.object({ total_usage: count.optional(), percpu_usage: z.array(count).nullish() }).passthrough().optional(),
        system_cpu_usage: count.optional(),
        online_cpus: count.optional()
    }).passthrough().optional(),
    precpu_stats: z.object({
        cpu_usage: z.object({ total_usage: count.optional() }).passthrough().optional(),
        system_cpu_usage: count.optional()
    }).passthrough().optional(),
    memory_stats: z.object({
        usage: count.optional(),
        limit: count.optional(),
        stats: z.record(z.string(), z.number().finite()).nullish()
    }).passthrough().optional(),
    pids_stats: z.object({ current: count.optional() }).passthrough().optional()
}).passthrough();
export type DockerStats = z.infer<typeof StatsSchema>;

/** `GET /containers/{id}/json`: the fields checked; everything else Docker sends is kept as it came. */
const ContainerInspectSchema = z.object({
    Id: z.string().min(1),
    Name: z.string().optional(),
    Image: z.string().optional(),
    State: z.object({
        Status: z.string().optional(),
        Running: z.boolean().optional(),
        Pid: z.number().int().optional(),
        ExitCode: z.number().int().optional(),
        StartedAt: z.string().optional(),
        FinishedAt: z.string().optional()
    }).passthrough().optional(),
    Config: z.object({ Image: z.string().optional(), Labels: stringMap.optional() }).passthrough().optional()
}).passthrough();
export type DockerContainerInspect = z.infer<typeof ContainerInspectSchema>;

/** An error body: `{"message": "..."}`. */
const ErrorBodySchema = z.object({ message: z.string() });
/** The `Api-Version` header of every answer, e.g. `1.47`. */
const API_VERSION = /^[0-9]{1,3}\.[0-9]{1,3}$/;

/** Numbers the UI shows, computed like `docker stats` does. */
export interface DockerStatsSummary {
    /** Percent of one CPU × online CPUs (docker CLI formula); undefined when not computable. */
    cpuPercent: number | undefined;
    /** Bytes, page cache excluded (cgroup v1 `cache`, v2 `inactive_file`). */
    memoryUsage: number | undefined;
    memoryLimit: number | undefined;
    pids: number | undefined;
}

export interface DockerReadClientOptions {
    /** Use this socket instead of resolving one. */
    readonly socketPath?: string;
    /** Environment to resolve DOCKER_HOST / DOCKER_CONTEXT / DOCKER_CONFIG from (default process.env). */
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly home?: string;
    readonly platform?: NodeJS.Platform;
    /** Per-request timeout. Default 3 s (ping 1.5 s). */
    readonly timeoutMs?: number;
    /** Largest response body accepted. Default 8 MiB. */
    readonly maxBodyBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 3_000;
const PING_TIMEOUT_MS = 1_500;
const DEFAULT_MAX_BODY = 8 * 1024 * 1024;
/** Container ids and names as Docker accepts them; anything else could smuggle a path into the URL. */
const CONTAINER_REF = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;

/** True for the container rows sandy owns: named `sandy-…`/`sandy_…` or labelled `sandy.*` (CONTRACT §5.1, §6.3). */
export function isSandyContainer(container: Pick<DockerContainerSummary, 'Names' | 'Labels'>): boolean {
    return (container.Names ?? []).some(name => /^\/?sandy[-_]/.test(name))
        || Object.keys(container.Labels ?? {}).some(label => label.startsWith('sandy.'));
}

/** `docker stats` numbers from one `stream=false` sample; a sample of another shape has no numbers. */
export function summarizeStats(sample: unknown): DockerStatsSummary {
    const parsed = StatsSchema.safeParse(sample ?? {});
    const raw: DockerStats = parsed.success ? parsed.data : {};
    const cpuDelta = (raw.cpu_stats?.cpu_usage?.total_usage ?? 0) - (raw.precpu_stats?.cpu_usage?.total_usage ?? 0);
    const systemDelta = (raw.cpu_stats?.system_cpu_usage ?? 0) - (raw.precpu_stats?.system_cpu_usage ?? 0);
    const cpus = raw.cpu_stats?.online_cpus ?? raw.cpu_stats?.cpu_usage?.percpu_usage?.length;
    const cpuPercent = systemDelta > 0 && cpuDelta >= 0 && cpus ? (cpuDelta / systemDelta) * cpus * 100 : undefined;
    const usage = raw.memory_stats?.usage;
    const stats = raw.memory_stats?.stats ?? {};
    const cache = stats.total_inactive_file ?? stats.inactive_file ?? stats.cache ?? 0;
    return {
        cpuPercent,
        memoryUsage: usage === undefined ? undefined : Math.max(0, usage - cache),
        memoryLimit: raw.memory_stats?.limit,
        pids: raw.pids_stats?.current
    };
}

/**
 * GET-only Docker Engine API client. Every method resolves; an unreachable or absent daemon is
 * `{ reachable: false, reason }`.
 */
export class DockerReadClient {
    readonly endpoint: DockerEndpoint | { unsupported: string };
    private readonly timeoutMs: number;
    private readonly maxBody: number;

    constructor(options: DockerReadClientOptions = {}) {
        this.endpoint = options.socketPath
            ? { socketPath: options.socketPath, source: 'default' }
            : resolveDockerEndpoint(options.env ?? process.env, options.home ?? os.homedir(), options.platform ?? process.platform);
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    }

    /** `GET /_ping`: reachable, plus the API version the daemon speaks. */
    async ping(): Promise<DockerResult<{ apiVersion?: string }>> {
        const r = await this.get('/_ping', Math.min(this.timeoutMs, PING_TIMEOUT_MS));
        if (!('status' in r)) {
            return r;
        }
        if (r.status !== 200) {
            return { reachable: true, ok: false, status: r.status, message: errorMessage(r.body, r.status) };
        }
        if (r.apiVersion !== undefined && !API_VERSION.test(r.apiVersion)) {
            return malformed('/_ping', r.status, `Api-Version header ${JSON.stringify(r.apiVersion.slice(0, 40))} is not a version`);
        }
        return { reachable: true, ok: true, value: r.apiVersion ? { apiVersion: r.apiVersion } : {} };
    }

    /**
     * Running sandy containers (`all` adds stopped ones): two filtered queries, by name prefix and by
     * `sandy.managed` label (sandy:8920), merged by id and checked again client-side because Docker's
     * name filter is a substring match.
     */
    async listSandyContainers(options: { all?: boolean } = {}): Promise<DockerResult<DockerContainerSummary[]>> {
        const query = (filters: Record<string, string[]>): string =>
            `/containers/json?all=${options.all ? 'true' : 'false'}&filters=${encodeURIComponent(JSON.stringify(filters))}`;
        const [byName, byLabel] = await Promise.all([
            this.getJson(query({ name: ['sandy'] }), ContainerListSchema),
            this.getJson(query({ label: ['sandy.managed'] }), ContainerListSchema)
        ]);
        if (!byName.reachable || !byName.ok) {
            return byName;
        }
        if (!byLabel.reachable || !byLabel.ok) {
            return byLabel;
        }
        const merged = new Map<string, DockerContainerSummary>();
        for (const c of [...byName.value, ...byLabel.value]) {
            if (isSandyContainer(c)) {
                merged.set(c.Id, c);
            }
        }
        return { reachable: true, ok: true, value: [...merged.values()] };
    }

    /** One stats sample (`stream=false&one-shot=true`: no second sample wait on API ≥ 1.41), raw and summarised. */
    async stats(id: string): Promise<DockerResult<{ raw: unknown; summary: DockerStatsSummary }>> {
        const bad = this.checkRef(id);
        if (bad) {
            return bad;
        }
        const r = await this.getJson(`/containers/${encodeURIComponent(id)}/stats?stream=false&one-shot=true`, StatsSchema);
        return r.reachable && r.ok ? { reachable: true, ok: true, value: { raw: r.value, summary: summarizeStats(r.value) } } : r;
    }

    /** `GET /containers/{id}/json`, as Docker returns it (the fields we read are checked). */
    async inspect(id: string): Promise<DockerResult<DockerContainerInspect>> {
        const bad = this.checkRef(id);
        return bad ?? this.getJson(`/containers/${encodeURIComponent(id)}/json`, ContainerInspectSchema);
    }

    private checkRef(id: string): DockerResult<never> | undefined {
        return typeof id === 'string' && CONTAINER_REF.test(id)
            ? undefined
            : { reachable: true, ok: false, status: 400, message: `not a container id or name: ${JSON.stringify(String(id)).slice(0, 80)}` };
    }

    private async getJson<T>(urlPath: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<DockerResult<T>> {
        const r = await this.get(urlPath, this.timeoutMs);
        if (!('status' in r)) {
            return r;
        }
        if (r.status < 200 || r.status >= 300) {
            return { reachable: true, ok: false, status: r.status, message: errorMessage(r.body, r.status) };
        }
        let body: unknown;
        try {
            body = JSON.parse(r.body);
        } catch {
            return { reachable: true, ok: false, status: r.status, message: 'the Docker daemon returned invalid JSON' };
        }
        const parsed = schema.safeParse(body);
        if (!parsed.success) {
            const issues = parsed.error.issues;
            const first = issues.slice(0, 2).map(i => `${formatIssuePath(i.path)}: ${i.message}`).join('; ');
            return malformed(urlPath, r.status, `${first}${issues.length > 2 ? ` (+${issues.length - 2} more)` : ''}`);
        }
        return { reachable: true, ok: true, value: parsed.data };
    }

    /** The only request this class makes. */
    private get(urlPath: string, timeoutMs: number): Promise<{ status: number; body: string; apiVersion?: string } | { reachable: false; reason: string }> {
        const endpoint = this.endpoint;
        if ('unsupported' in endpoint) {
            return Promise.resolve({ reachable: false, reason: endpoint.unsupported });
        }
        return new Promise(resolve => {
            let done = false;
            const settle = (value: { status: number; body: string; apiVersion?: string } | { reachable: false; reason: string }): void => {
                if (!done) {
                    done = true;
                    clearTimeout(timer);
                    resolve(value);
                }
            };
            const req = http.request({
                socketPath: endpoint.socketPath,
                path: urlPath,
                method: 'GET',
                headers: { Host: 'docker', Accept: 'application/json' },
                agent: false
            }, res => {
                const chunks: Buffer[] = [];
                let size = 0;
                res.on('data', (chunk: Buffer) => {
                    size += chunk.length;
                    if (size > this.maxBody) {
                        req.destroy();
                        settle({ reachable: false, reason: `the Docker daemon's answer to ${urlPath.split('?')[0]} exceeded ${this.maxBody} bytes` });
                        return;
                    }
                    chunks.push(chunk);
                });
                res.on('end', () => {
                    const apiVersion = res.headers['api-version'];
                    settle({
                        status: res.statusCode ?? 0,
                        body: Buffer.concat(chunks).toString('utf8'),
                        ...(typeof apiVersion === 'string' ? { apiVersion } : {})
                    });
                });
                res.on('error', e => settle({ reachable: false, reason: describeSocketError(e, endpoint.socketPath) }));
            });
            const timer = setTimeout(() => {
                req.destroy();
                settle({ reachable: false, reason: `the Docker daemon at ${endpoint.socketPath} did not answer within ${timeoutMs} ms` });
            }, timeoutMs);
            req.on('error', e => settle({ reachable: false, reason: describeSocketError(e, endpoint.socketPath) }));
            req.end();
        });
    }
}

/** An answer of the wrong shape, named by the endpoint it came from (query string left out). */
function malformed(urlPath: string, status: number, what: string): DockerResult<never> {
    return { reachable: true, ok: false, status, message: `the Docker daemon's answer to ${urlPath.split('?')[0]} is not what the Engine API returns: ${what}` };
}

/** The `message` of a JSON error body, else the body as text. */
function errorMessage(body: string, status: number): string {
    let message = body.trim();
    try {
        const parsed = ErrorBodySchema.safeParse(JSON.parse(body));
        if (parsed.success) {
            message = parsed.data.message;
        }
    } catch {
        // plain-text error body
    }
    return message || `HTTP ${status}`;
}

function describeSocketError(e: NodeJS.ErrnoException, socketPath: string): string {
    switch (e.code) {
        case 'ENOENT':
            return `no Docker socket at ${socketPath} (is Docker running?)`;
        case 'ECONNREFUSED':
            return `the Docker daemon at ${socketPath} is not accepting connections (is Docker running?)`;
        case 'EACCES':
        case 'EPERM':
            return `permission denied on ${socketPath} (is your user in the docker group?)`;
        default:
            return `cannot reach the Docker daemon at ${socketPath}: ${e.message}`;
    }
}
