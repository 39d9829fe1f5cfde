import { expect } from 'chai';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { DockerReadClient, isSandyContainer, resolveDockerEndpoint, summarizeStats } from './docker-client';

interface Seen { method: string; url: string }

/** A tiny Docker Engine stand-in on a unix socket. */
async function fakeDaemon(socketPath: string, handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ server: http.Server; seen: Seen[] }> {
    const seen: Seen[] = [];
    const server = http.createServer((req, res) => {
        seen.push({ method: req.method ?? '', url: req.url ?? '' });
        handler(req, res);
    });
    await new Promise<void>(resolve => server.listen(socketPath, resolve));
    return { server, seen };
}

/**
 * Each test's short scratch folder (unix socket paths are limited to ~104 bytes) with the fake
 * daemon's socket in it: `serve` starts a fake daemon there, `stop` ends every one it started.
 */
function daemonScratch(): { readonly dir: string; readonly socketPath: string; serve: (handler: Parameters<typeof fakeDaemon>[1]) => Promise<{ seen: Seen[] }>; stop: () => Promise<void> } {
    let servers: http.Server[] = [];
    const scratch = {
        dir: '',
        socketPath: '',
        serve: async (handler: Parameters<typeof fakeDaemon>[1]) => {
            const { server, seen } = await fakeDaemon(scratch.socketPath, handler);
            servers.push(server);
            return { seen };
        },
        stop: async () => {
            for (const server of servers) {
                server.closeAllConnections();
                await new Promise(resolve => server.close(resolve));
            }
            servers = [];
        }
    };
    beforeEach(() => {
        scratch.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dk-'));
        scratch.socketPath = path.join(scratch.dir, 'd.sock');
    });
    afterEach(async () => {
        await scratch.stop();
        fs.rmSync(scratch.dir, { recursive: true, force: true });
    });
    return scratch;
}

const json = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Api-Version': '1.47' });
    res.end(JSON.stringify(body));
};

const containers = [
    { Id: 'a1', Names: ['/sandy-proj-12345678'], Image: 'sandy-claude-code', Created: 1, State: 'running', Status: 'Up', Labels: { 'sandy.managed': 'true' } },
    { Id: 'b2', Names: ['/sandy-proxy-proj-12345678'], Image: 'sandy-proxy', Created: 1, State: 'running', Status: 'Up', Labels: {} },
    { Id: 'c3', Names: ['/mysandy-thing'], Image: 'x', Created: 1, State: 'running', Status: 'Up', Labels: {} },
    { Id: 'd4', Names: ['/renamed'], Image: 'x', Created: 1, State: 'running', Status: 'Up', Labels: { 'sandy.daemon': 'true', 'sandy.managed': 'true' } }
];

describe('DockerReadClient (unit)', () => {
    const scratch = daemonScratch();

    it('pings and reads the API version', async () => {
        await scratch.serve((_req, res) => { res.writeHead(200, { 'Api-Version': '1.47' }); res.end('OK'); });
        expect(await new DockerReadClient({ socketPath: scratch.socketPath }).ping()).to.deep.equal({ reachable: true, ok: true, value: { apiVersion: '1.47' } });
    });

    it('lists sandy containers by name and label, merged, without look-alikes', async () => {
        const { seen } = await scratch.serve((req, res) => {
            const filters = JSON.parse(new URL(req.url!, 'http://x').searchParams.get('filters') ?? '{}');
            if (filters.name) {
                json(res, 200, containers.filter(c => c.Names[0].includes(filters.name[0])));
            } else {
                json(res, 200, containers.filter(c => filters.label[0] in c.Labels));
            }
        });
        const r = await new DockerReadClient({ socketPath: scratch.socketPath }).listSandyContainers();
        expect(r.reachable && r.ok && r.value.map(c => c.Id).sort()).to.deep.equal(['a1', 'b2', 'd4']);
        expect(seen!.every(s => s.method === 'GET')).to.equal(true);
        expect(seen!.map(s => decodeURIComponent(s.url)).sort()).to.deep.equal([
            '/containers/json?all=false&filters={"label":["sandy.managed"]}',
            '/containers/json?all=false&filters={"name":["sandy"]}'
        ]);
    });

    it('reads one stats sample and inspects, with GET only', async () => {
        const { seen } = await scratch.serve((req, res) => {
            if (req.url!.startsWith('/containers/a1/stats')) {
                json(res, 200, {
                    cpu_stats: { cpu_usage: { total_usage: 400 }, system_cpu_usage: 2000, online_cpus: 4 },
                    precpu_stats: { cpu_usage: { total_usage: 200 }, system_cpu_usage: 1000 },
                    memory_stats: { usage: 1000, limit: 4000, stats: { inactive_file: 200 } },
                    pids_stats: { current: 7 }
                });
            } else if (req.url === '/containers/a1/json') {
                json(res, 200, { Id: 'a1', State: { Running: true } });
            } else {
                json(res, 404, { message: 'No such container: nope' });
            }
        });
        const client = new DockerReadClient({ socketPath: scratch.socketPath });
        const stats = await client.stats('a1');
        expect(stats.reachable && stats.ok && stats.value.summary).to.deep.equal({ cpuPercent: 80, memoryUsage: 800, memoryLimit: 4000, pids: 7 });
        expect(await client.inspect('a1')).to.deep.equal({ reachable: true, ok: true, value: { Id: 'a1', State: { Running: true } } });
        expect(await client.inspect('nope')).to.deep.equal({ reachable: true, ok: false, status: 404, message: 'No such container: nope' });
        expect(seen!.map(s => s.url)).to.deep.equal(['/containers/a1/stats?stream=false&one-shot=true', '/containers/a1/json', '/containers/nope/json']);
        expect(seen!.every(s => s.method === 'GET')).to.equal(true);
    });

    it('refuses ids that could change the URL path', async () => {
        const client = new DockerReadClient({ socketPath: scratch.socketPath });
        for (const id of ['../images/x', 'a/b', '', 'a?x=1', '-rf']) {
            expect(await client.inspect(id)).to.deep.include({ reachable: true, ok: false, status: 400 });
        }
    });

    it('returns unreachable (never throws) for a missing socket, a refusing one and a silent one', async () => {
        const missing = await new DockerReadClient({ socketPath: path.join(scratch.dir, 'missing.sock') }).ping();
        expect(missing).to.deep.include({ reachable: false });
        expect((missing as { reason: string }).reason).to.match(/no Docker socket/);

        fs.writeFileSync(path.join(scratch.dir, 'plain'), '');
        expect(await new DockerReadClient({ socketPath: path.join(scratch.dir, 'plain') }).listSandyContainers()).to.deep.include({ reachable: false });

        await scratch.serve(() => { /* never answers */ });
        const started = Date.now();
        const silent = await new DockerReadClient({ socketPath: scratch.socketPath, timeoutMs: 200 }).inspect('a1');
        expect(silent).to.deep.include({ reachable: false });
        expect((silent as { reason: string }).reason).to.match(/did not answer within 200 ms/);
        expect(Date.now() - started).to.be.lessThan(2000);
    });

    it('caps the response size', async () => {
        await scratch.serve((_req, res) => json(res, 200, 'x'.repeat(5000)));
        expect(await new DockerReadClient({ socketPath: scratch.socketPath, maxBodyBytes: 1000 }).inspect('a1')).to.deep.include({ reachable: false });
    });

    it('reports a non-JSON answer as an error, not a crash', async () => {
        await scratch.serve((_req, res) => { res.writeHead(200); res.end('<html>'); });
        expect(await new DockerReadClient({ socketPath: scratch.socketPath }).inspect('a1')).to.deep.include({ reachable: true, ok: false });
    });
});

/**
 * Whatever answers on the socket is parsed, not trusted: a wrong shape is `{ reachable: true, ok: false }`
 * naming the endpoint and the field, never an exception and never a value of the wrong type (an empty
 * list, a string where a number belongs).
 */
describe('DockerReadClient: hostile answers (unit)', () => {
    const scratch = daemonScratch();

    /** Serves `body` (raw text when a string) for every request, in place of the previous answer. */
    const answer = async (body: unknown, status = 200, headers: http.OutgoingHttpHeaders = {}): Promise<DockerReadClient> => {
        await scratch.stop();
        await scratch.serve((_req, res) => {
            res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
            res.end(typeof body === 'string' ? body : JSON.stringify(body));
        });
        return new DockerReadClient({ socketPath: scratch.socketPath });
    };
    const failure = (r: unknown): string => {
        expect(r).to.deep.include({ reachable: true, ok: false });
        return (r as { message: string }).message;
    };
    const row = containers[0];

    it('a container list that is not a list is an error, not "no containers"', async () => {
        for (const body of [{ containers: [row] }, 'null', '"sandy"', '42']) {
            const message = failure(await (await answer(body)).listSandyContainers());
            expect(message).to.match(/^the Docker daemon's answer to \/containers\/json is not what the Engine API returns: \(root\): Expected array/);
        }
    });

    it('a malformed row fails the whole list, naming the row and the field', async () => {
        const client = await answer([row, { ...row, Id: 7 }, { ...row, Names: '/sandy-x' }]);
        const message = failure(await client.listSandyContainers());
        expect(message).to.contain('[1].Id: Expected string, received number; [2].Names: Expected array, received string');
    });

    it('rows missing what we read, or with a label that is not text, are refused', async () => {
        const { Status: _status, ...noStatus } = row;
        expect(failure(await (await answer([noStatus])).listSandyContainers())).to.contain('[0].Status: Required');
        expect(failure(await (await answer([{ ...row, Labels: { 'sandy.managed': true } }])).listSandyContainers()))
            .to.contain('[0].Labels.sandy.managed: Expected string, received boolean');
        expect(failure(await (await answer([{ ...row, Id: '' }])).listSandyContainers())).to.contain('[0].Id:');
    });

    it('Go\'s null for an empty map or list reads as empty; fields we do not use are dropped', async () => {
        const r = await (await answer([{ ...row, Labels: null, Ports: [{ PrivatePort: 1 }] }, { ...row, Id: 'e5', Names: null, Labels: null }])).listSandyContainers();
        expect(r.reachable && r.ok && r.value).to.deep.equal([{ ...row, Labels: {} }]);
    });

    it('a stats sample with a number of the wrong type, an infinite or a negative one is an error', async () => {
        for (const [body, field] of [
            ['{"memory_stats":{"usage":"1000","limit":4000}}', 'memory_stats.usage: Expected number, received string'],
            ['{"memory_stats":{"usage":1e400}}', 'memory_stats.usage: Number must be finite'],
            ['{"memory_stats":{"limit":-1}}', 'memory_stats.limit: Number must be greater than or equal to 0'],
            ['{"cpu_stats":{"online_cpus":"4"}}', 'cpu_stats.online_cpus: Expected number'],
            ['[1,2]', '(root): Expected object, received array']
        ] as const) {
            const message = failure(await (await answer(body)).stats('a1'));
            expect(message).to.contain('answer to /containers/a1/stats is not what the Engine API returns').and.contain(field);
        }
        expect(summarizeStats({ memory_stats: { usage: '1000' } })).to.deep.equal({ cpuPercent: undefined, memoryUsage: undefined, memoryLimit: undefined, pids: undefined });
    });

    it('a stopped container\'s empty stats are fine, and the sample comes back whole', async () => {
        const sample = { read: '0001-01-01T00:00:00Z', cpu_stats: { cpu_usage: { total_usage: 0 }, throttling_data: { periods: 0 } }, precpu_stats: {}, memory_stats: {}, pids_stats: {} };
        const r = await (await answer(sample)).stats('a1');
        expect(r).to.deep.equal({ reachable: true, ok: true, value: { raw: sample, summary: { cpuPercent: undefined, memoryUsage: undefined, memoryLimit: undefined, pids: undefined } } });
    });

    it('inspect checks the fields we read and keeps the rest as Docker sent it', async () => {
        expect(failure(await (await answer({ State: { Running: true } })).inspect('a1'))).to.contain('/containers/a1/json').and.contain('Id: Required');
        expect(failure(await (await answer({ Id: 'a1', State: { Running: 'yes' } })).inspect('a1'))).to.contain('State.Running: Expected boolean');
        const full = { Id: 'a1', Name: '/sandy-x', State: { Running: true, Pid: 42, Health: { Status: 'healthy' } }, Config: { Labels: null }, Mounts: [] };
        expect(await (await answer(full)).inspect('a1')).to.deep.equal({ reachable: true, ok: true, value: { ...full, Config: { Labels: {} } } });
    });

    it('a ping whose Api-Version is not a version is an error (the doctor prints it)', async () => {
        for (const header of ['1.47 [click here](https://x)', 'latest', '1.47.0.0.0']) {
            expect(failure(await (await answer('OK', 200, { 'Api-Version': header })).ping())).to.contain('/_ping').and.contain('Api-Version header');
        }
    });

    it('an error body whose message is not text is reported as the body', async () => {
        const r = await (await answer({ message: { nested: true } }, 500)).inspect('a1');
        expect(r).to.deep.equal({ reachable: true, ok: false, status: 500, message: '{"message":{"nested":true}}' });
    });
});

describe('resolveDockerEndpoint (unit)', () => {
    let home: string;
    beforeEach(() => { home = fs.mkdtempSync(path.join(os.tmpdir(), 'dk-home-')); });
    afterEach(() => fs.rmSync(home, { recursive: true, force: true }));
    const none = (): boolean => false;

    it('honours DOCKER_HOST unix:// and npipe://, refuses tcp:// and ssh://', () => {
        expect(resolveDockerEndpoint({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' }, home, 'linux', none))
            .to.deep.equal({ socketPath: '/run/user/1000/docker.sock', source: 'DOCKER_HOST' });
        expect(resolveDockerEndpoint({ DOCKER_HOST: 'npipe:////./pipe/docker_engine' }, home, 'win32', none))
            .to.deep.equal({ socketPath: '\\\\.\\pipe\\docker_engine', source: 'DOCKER_HOST' });
        expect(resolveDockerEndpoint({ DOCKER_HOST: 'tcp://1.2.3.4:2376' }, home, 'linux', none)).to.have.key('unsupported');
        expect(resolveDockerEndpoint({ DOCKER_HOST: 'ssh://me@host' }, home, 'linux', none)).to.have.key('unsupported');
    });

    it('falls back to /var/run/docker.sock, then Docker Desktop\'s socket, then the Windows pipe', () => {
        expect(resolveDockerEndpoint({}, home, 'linux', p => p === '/var/run/docker.sock')).to.deep.equal({ socketPath: '/var/run/docker.sock', source: 'default' });
        const desktop = path.join(home, '.docker', 'run', 'docker.sock');
        expect(resolveDockerEndpoint({}, home, 'darwin', p => p === desktop)).to.deep.equal({ socketPath: desktop, source: 'default' });
        expect(resolveDockerEndpoint({}, home, 'linux', none)).to.deep.equal({ socketPath: '/var/run/docker.sock', source: 'default' });
        expect(resolveDockerEndpoint({}, home, 'win32', none)).to.deep.equal({ socketPath: '\\\\.\\pipe\\docker_engine', source: 'default' });
    });

    it('follows the current docker context (DOCKER_CONTEXT, else config.json, under DOCKER_CONFIG)', () => {
        const config = path.join(home, 'dc');
        const meta = path.join(config, 'contexts', 'meta', createHash('sha256').update('colima').digest('hex'));
        fs.mkdirSync(meta, { recursive: true });
        fs.writeFileSync(path.join(meta, 'meta.json'), JSON.stringify({ Name: 'colima', Endpoints: { docker: { Host: `unix://${home}/.colima/docker.sock` } } }));
        expect(resolveDockerEndpoint({ DOCKER_CONFIG: config, DOCKER_CONTEXT: 'colima' }, home, 'darwin', none))
            .to.deep.equal({ socketPath: `${home}/.colima/docker.sock`, source: 'context', context: 'colima' });
        fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ currentContext: 'colima' }));
        expect(resolveDockerEndpoint({ DOCKER_CONFIG: config }, home, 'darwin', none)).to.deep.include({ source: 'context' });
        // DOCKER_HOST beats the context, like the docker CLI.
        expect(resolveDockerEndpoint({ DOCKER_CONFIG: config, DOCKER_HOST: 'unix:///x.sock' }, home, 'darwin', none)).to.deep.include({ socketPath: '/x.sock' });
        // Unknown context → defaults.
        expect(resolveDockerEndpoint({ DOCKER_CONFIG: config, DOCKER_CONTEXT: 'nope' }, home, 'linux', none)).to.deep.include({ source: 'default' });
    });

    it('unsupported endpoints are unreachable results', async () => {
        expect(await new DockerReadClient({ env: { DOCKER_HOST: 'tcp://h:2375' }, home }).ping()).to.deep.include({ reachable: false });
    });
});

describe('docker helpers (unit)', () => {
    it('recognises sandy containers by name or label', () => {
        expect(isSandyContainer({ Names: ['/sandy-x'], Labels: {} })).to.equal(true);
        expect(isSandyContainer({ Names: ['/sandy_x'], Labels: {} })).to.equal(true);
        expect(isSandyContainer({ Names: ['/x'], Labels: { 'sandy.session': 'x' } })).to.equal(true);
        expect(isSandyContainer({ Names: ['/notsandy-x'], Labels: { other: '1' } })).to.equal(false);
    });
    it('summarises stats without throwing on missing fields', () => {
        expect(summarizeStats({})).to.deep.equal({ cpuPercent: undefined, memoryUsage: undefined, memoryLimit: undefined, pids: undefined });
        expect(summarizeStats(undefined).cpuPercent).to.equal(undefined);
    });
});
