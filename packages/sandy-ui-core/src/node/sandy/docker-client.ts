import { createHash } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';

/**
 * A read-only view of the Docker Engine API, for the things sandy's `--print-state` cannot give
 * cheaply (live CPU/memory, a quick reachability probe). It speaks HTTP over the daemon's unix socket
 * (or Windows named pipe) and has GET requests only: containers are started, stopped and removed by
 * sandy, never by the IDE.
 */

/** Where the daemon socket was found. */
export interface DockerEndpoint {
    /** unix socket path or `\\.\pipe\…` named pipe. */
    socketPath: string;
    /** Why this one: DOCKER_HOST, a docker context, or a default location. */
    source: 'DOCKER_HOST' | 'context' | 'default';
    /** The context name when source is `context`. */
    context?: string;
}

/** The outcome of one request. Unreachable daemons are a value, never an exception. */
export type DockerResult<T> =
    | { reachable: true; ok: true; value: T }
    | { reachable: true; ok: false; status: number; message: string }
    | { reachable: false; reason: string };

/** The fields of `GET /containers/json` rows we use (the Engine returns more). */
export interface DockerContainerSummary {
    Id: string;
    Names: string[];
    Image: string;
    ImageID?: string;
    Command?: string;
    Created: number;
    State: string;
    Status: string;
    Labels: Record<string, string>;
}

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
const WINDOWS_PIPE = '\\\\.\\pipe\\docker_engine';
/** Container ids and names as Docker accepts them; anything else could smuggle a path into the URL. */
const CONTAINER_REF = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;

/**
 * Finds the daemon socket the way the docker CLI sandy runs would (CONTRACT §8: sandy's `docker`
 * calls inherit DOCKER_HOST / DOCKER_CONTEXT / DOCKER_CONFIG): DOCKER_HOST, else the current context
 * (DOCKER_CONTEXT or `currentContext` in config.json — colima, OrbStack and rootless set one), else
 * `/var/run/docker.sock`, else Docker Desktop's `~/.docker/run/docker.sock`. Returns a reason string
 * for endpoints this client does not speak (tcp://, ssh://).
 */
export function resolveDockerEndpoint(
    env: Readonly<Record<string, string | undefined>> = process.env,
    home: string = os.homedir(),
    platform: NodeJS.Platform = process.platform,
    exists: (p: string) => boolean = fs.existsSync
): DockerEndpoint | { unsupported: string } {
    const fromHost = (host: string, source: DockerEndpoint['source'], context?: string): DockerEndpoint | { unsupported: string } => {
        if (host.startsWith('unix://')) {
            return { socketPath: host.slice('unix://'.length), source, ...(context ? { context } : {}) };
        }
        if (host.startsWith('npipe://')) {
            // npipe:////./pipe/docker_engine → \\.\pipe\docker_engine
            return { socketPath: host.slice('npipe://'.length).replace(/\//g, '\\'), source, ...(context ? { context } : {}) };
        }
        return { unsupported: `${source === 'context' ? `docker context "${context}"` : 'DOCKER_HOST'} points at ${host.split('://')[0]}://…, which the read-only client does not support (unix sockets and named pipes only)` };
    };

    if (env.DOCKER_HOST) {
        return fromHost(env.DOCKER_HOST, 'DOCKER_HOST');
    }
    const configDir = env.DOCKER_CONFIG || path.join(home, '.docker');
    const context = env.DOCKER_CONTEXT || readCurrentContext(configDir);
    if (context && context !== 'default') {
        const host = readContextHost(configDir, context);
        if (host) {
            return fromHost(host, 'context', context);
        }
    }
    if (platform === 'win32') {
        return { socketPath: WINDOWS_PIPE, source: 'default' };
    }
    const candidates = ['/var/run/docker.sock', path.join(home, '.docker', 'run', 'docker.sock')];
    return { socketPath: candidates.find(exists) ?? candidates[0], source: 'default' };
}

function readCurrentContext(configDir: string): string | undefined {
    try {
        const config = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { currentContext?: unknown };
        return typeof config.currentContext === 'string' ? config.currentContext : undefined;
    } catch {
        return undefined;
    }
}

function readContextHost(configDir: string, context: string): string | undefined {
    // The docker CLI stores context metadata under the sha256 of the context name.
    const id = createHash('sha256').update(context).digest('hex');
    try {
        const meta = JSON.parse(fs.readFileSync(path.join(configDir, 'contexts', 'meta', id, 'meta.json'), 'utf8')) as
            { Endpoints?: { docker?: { Host?: unknown } } };
        const host = meta.Endpoints?.docker?.Host;
        return typeof host === 'string' ? host : undefined;
    } catch {
        return undefined;
    }
}

/** True for the container rows sandy owns: named `sandy-…`/`sandy_…` or labelled `sandy.*` (CONTRACT §5.1, §6.3). */
export function isSandyContainer(container: Pick<DockerContainerSummary, 'Names' | 'Labels'>): boolean {
    return (container.Names ?? []).some(name => /^\/?sandy[-_]/.test(name))
        || Object.keys(container.Labels ?? {}).some(label => label.startsWith('sandy.'));
}

/** `docker stats` numbers from one `stream=false` sample. */
export function summarizeStats(raw: any): DockerStatsSummary {
    const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const cpuDelta = (num(raw?.cpu_stats?.cpu_usage?.total_usage) ?? 0) - (num(raw?.precpu_stats?.cpu_usage?.total_usage) ?? 0);
    const systemDelta = (num(raw?.cpu_stats?.system_cpu_usage) ?? 0) - (num(raw?.precpu_stats?.system_cpu_usage) ?? 0);
    const cpus = num(raw?.cpu_stats?.online_cpus) ?? (Array.isArray(raw?.cpu_stats?.cpu_usage?.percpu_usage) ? raw.cpu_stats.cpu_usage.percpu_usage.length : undefined);
    const cpuPercent = systemDelta > 0 && cpuDelta >= 0 && cpus ? (cpuDelta / systemDelta) * cpus * 100 : undefined;
    const usage = num(raw?.memory_stats?.usage);
    const stats = raw?.memory_stats?.stats ?? {};
    const cache = num(stats.total_inactive_file) ?? num(stats.inactive_file) ?? num(stats.cache) ?? 0;
    return {
        cpuPercent,
        memoryUsage: usage === undefined ? undefined : Math.max(0, usage - cache),
        memoryLimit: num(raw?.memory_stats?.limit),
        pids: num(raw?.pids_stats?.current)
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
        return r.status === 200
            ? { reachable: true, ok: true, value: r.apiVersion ? { apiVersion: r.apiVersion } : {} }
            : { reachable: true, ok: false, status: r.status, message: r.body.trim() || `HTTP ${r.status}` };
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
            this.getJson<DockerContainerSummary[]>(query({ name: ['sandy'] })),
            this.getJson<DockerContainerSummary[]>(query({ label: ['sandy.managed'] }))
        ]);
        for (const r of [byName, byLabel]) {
            if (!r.reachable || !r.ok) {
                return r as DockerResult<DockerContainerSummary[]>;
            }
        }
        const merged = new Map<string, DockerContainerSummary>();
        for (const r of [byName, byLabel]) {
            if (r.reachable && r.ok && Array.isArray(r.value)) {
                for (const c of r.value) {
                    if (c && typeof c.Id === 'string' && isSandyContainer(c)) {
                        merged.set(c.Id, c);
                    }
                }
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
        const r = await this.getJson<unknown>(`/containers/${encodeURIComponent(id)}/stats?stream=false&one-shot=true`);
        return r.reachable && r.ok ? { reachable: true, ok: true, value: { raw: r.value, summary: summarizeStats(r.value) } } : r as DockerResult<never>;
    }

    /** `GET /containers/{id}/json`, as Docker returns it. */
    async inspect(id: string): Promise<DockerResult<any>> {
        const bad = this.checkRef(id);
        return bad ?? this.getJson<any>(`/containers/${encodeURIComponent(id)}/json`);
    }

    private checkRef(id: string): DockerResult<never> | undefined {
        return typeof id === 'string' && CONTAINER_REF.test(id)
            ? undefined
            : { reachable: true, ok: false, status: 400, message: `not a container id or name: ${JSON.stringify(String(id)).slice(0, 80)}` };
    }

    private async getJson<T>(urlPath: string): Promise<DockerResult<T>> {
        const r = await this.get(urlPath, this.timeoutMs);
        if (!('status' in r)) {
            return r;
        }
        if (r.status < 200 || r.status >= 300) {
            let message = r.body.trim();
            try {
                message = (JSON.parse(r.body) as { message?: string }).message ?? message;
            } catch {
                // plain-text error body
            }
            return { reachable: true, ok: false, status: r.status, message: message || `HTTP ${r.status}` };
        }
        try {
            return { reachable: true, ok: true, value: JSON.parse(r.body) as T };
        } catch {
            return { reachable: true, ok: false, status: r.status, message: 'the Docker daemon returned invalid JSON' };
        }
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
