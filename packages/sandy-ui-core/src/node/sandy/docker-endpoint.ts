import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { z } from 'zod';

/*
 * Where the Docker daemon listens, found as the docker CLI that sandy runs would find it. Only
 * reads the environment and the docker CLI's own files; the client that speaks to it is docker-client.
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

const WINDOWS_PIPE = '\\\\.\\pipe\\docker_engine';

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

/** Reads a docker CLI JSON file; undefined when it is missing, not JSON or not of that shape. */
function readJsonFile<T>(file: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T | undefined {
    try {
        const parsed = schema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
        return parsed.success ? parsed.data : undefined;
    } catch {
        return undefined;
    }
}

function readCurrentContext(configDir: string): string | undefined {
    return readJsonFile(path.join(configDir, 'config.json'), z.object({ currentContext: z.string() }))?.currentContext;
}

function readContextHost(configDir: string, context: string): string | undefined {
    // The docker CLI stores context metadata under the sha256 of the context name.
    const id = createHash('sha256').update(context).digest('hex');
    const meta = readJsonFile(path.join(configDir, 'contexts', 'meta', id, 'meta.json'),
        z.object({ Endpoints: z.object({ docker: z.object({ Host: z.string() }) }) }));
    return meta?.Endpoints.docker.Host;
}
