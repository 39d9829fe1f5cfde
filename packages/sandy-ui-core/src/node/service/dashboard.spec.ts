import { expect } from 'chai';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import type { SessionInfo } from '../../common/session/session-types';
import type { DerivedProject } from '../../common/projects/project-state';
import { THUMBNAIL_MAX_COLS, THUMBNAIL_MAX_LINES } from '../../common/session/dashboard-types';
import { DockerReadClient } from '../sandy/docker-client';
import { ScreenState } from '../terminal/screen-state';
import { SessionDashboard, SessionDashboardDeps, THUMBNAIL_REFRESH_MS } from './dashboard';

/** A Docker Engine stand-in on a unix socket (as docker-client.spec.ts): answers `/containers/<id>/stats`. */
class FakeDocker {
    readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dd-'));
    readonly socketPath = path.join(this.dir, 'd.sock');
    readonly seen: string[] = [];
    protected server: http.Server | undefined;

    async serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<void> {
        this.server = http.createServer((req, res) => {
            this.seen.push(`${req.method} ${req.url}`);
            handler(req, res);
        });
        await new Promise<void>(resolve => this.server!.listen(this.socketPath, resolve));
    }

    async dispose(): Promise<void> {
        if (this.server) {
            this.server.closeAllConnections();
            await new Promise(resolve => this.server!.close(resolve));
        }
        fs.rmSync(this.dir, { recursive: true, force: true });
    }
}

const STATS = {
    c1: {
        cpu_stats: { cpu_usage: { total_usage: 400 }, system_cpu_usage: 2000, online_cpus: 4 },
        precpu_stats: { cpu_usage: { total_usage: 200 }, system_cpu_usage: 1000 },
        memory_stats: { usage: 1200, limit: 4000, stats: { inactive_file: 200 } }
    },
    c2: {
        cpu_stats: { cpu_usage: { total_usage: 150 }, system_cpu_usage: 2000, online_cpus: 2 },
        precpu_stats: { cpu_usage: { total_usage: 100 }, system_cpu_usage: 1000 },
        memory_stats: { usage: 500, limit: 1000 }
    }
} as Record<string, unknown>;

function session(id: string, workspace: string, extra: Partial<SessionInfo> = {}): SessionInfo {
    return { id, pid: 10, mode: 'daemon', origin: 'ide', workspace, args: [], startedAt: 1000, status: 'running', attachedViews: 0, ...extra };
}

function project(workspace: string, extra: Partial<DerivedProject>): DerivedProject {
    return { name: path.basename(workspace), workspacePath: workspace, displayName: path.basename(workspace), containers: [], ...extra } as DerivedProject;
}

const container = (id: string, name: string) => ({ id, name, image: 'sandy-claude', sandbox: 'x', started_at: '' }) as unknown as DerivedProject['containers'][number];

describe('SessionDashboard: the dashboard\'s data (unit)', () => {
    let docker: FakeDocker;
    let screens: Map<string, ScreenState>;
    let clock: number;
    beforeEach(() => {
        docker = new FakeDocker();
        screens = new Map();
        clock = 100_000;
    });
    afterEach(async () => {
        await docker.dispose();
        for (const s of screens.values()) {
            s.dispose();
        }
    });

    function dashboard(sessions: SessionInfo[], projects: DerivedProject[], options: Partial<SessionDashboardDeps> & { timeoutMs?: number } = {}): SessionDashboard {
        return new SessionDashboard({
            supervisor: { list: () => sessions, screenOf: id => screens.get(id) },
            projects: async () => projects,
            docker: new DockerReadClient({ socketPath: docker.socketPath, timeoutMs: options.timeoutMs ?? 3000 }),
            clock: () => clock,
            ...options
        });
    }

    function screen(id: string, text: string, cols = 80, rows = 24): void {
        const s = new ScreenState(cols, rows, () => undefined);
        s.write(text);
        screens.set(id, s);
    }

    it('tiles carry project, agent, attention, figures from /containers/<id>/stats (daemon: its container; foreground: its sandbox\'s non-proxy one) and the screen as text, needs-you first', async () => {
        await docker.serve((req, res) => {
            const id = /^\/containers\/([^/]+)\/stats/.exec(req.url ?? '')?.[1];
            const body = id ? STATS[id] : undefined;
            res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify(body ?? { message: `No such container: ${id}` }));
        });
        screen('a', 'fake sandy 1.7.1-dev — /w/alpha\r\n\x1b[31mred\x1b[0m prompt> ');
        screen('b', 'building…');
        const sessions = [
            session('a', '/w/alpha', { agent: 'claude', attention: { state: 'working', since: 99_000 }, lastOutputAt: 99_000 }),
            session('b', '/w/beta', { mode: 'foreground', attention: { state: 'needs-you', since: 50_000, waitingFor: 'notification' } })
        ];
        const projects = [
            project('/w/alpha', { displayName: 'alpha', daemon: { containerId: 'c1' } as DerivedProject['daemon'] }),
            // The proxy sidecar is listed first: it must not be taken for the agent's container.
            project('/w/beta', { displayName: 'beta', lastAgent: 'codex', containers: [container('p9', 'sandy-proxy-beta'), container('c2', 'sandy-beta-1')] })
        ];
        const snapshot = await dashboard(sessions, projects).snapshot();
        expect(snapshot.docker).to.deep.equal({ state: 'ok' });
        expect(snapshot.at).to.equal(clock);
        expect(snapshot.tiles.map(t => [t.sessionId, t.project, t.agent, t.attention.state, t.mode])).to.deep.equal([
            ['b', 'beta', 'codex', 'needs-you', 'foreground'],
            ['a', 'alpha', 'claude', 'working', 'daemon']
        ]);
        const [beta, alpha] = snapshot.tiles;
        expect([alpha.cpuPercent, alpha.memoryBytes, alpha.memoryLimit]).to.deep.equal([80, 1000, 4000]);
        expect([beta.cpuPercent, beta.memoryBytes, beta.memoryLimit]).to.deep.equal([10, 500, 1000]);
        expect(alpha.lastOutputAt).to.equal(99_000);
        expect(alpha.thumbnail).to.deep.equal({ cols: 80, rows: 24, lines: ['fake sandy 1.7.1-dev — /w/alpha', 'red prompt>'] });
        expect(beta.thumbnail?.lines).to.deep.equal(['building…']);
        expect(docker.seen.sort()).to.deep.equal(['GET /containers/c1/stats?stream=false&one-shot=true', 'GET /containers/c2/stats?stream=false&one-shot=true']);
    });

    it('a thumbnail is made at most once every 3 s per session, and figures are asked at most once every 3 s however many windows ask', async () => {
        await docker.serve((_req, res) => {
            res.writeHead(200, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify(STATS.c1));
        });
        screen('a', 'first screen');
        const d = dashboard([session('a', '/w/alpha')], [project('/w/alpha', { daemon: { containerId: 'c1' } as DerivedProject['daemon'] })]);
        expect((await d.snapshot()).tiles[0].thumbnail?.lines).to.deep.equal(['first screen']);
        screens.get('a')!.write('\r\nsecond line');
        clock += THUMBNAIL_REFRESH_MS - 1;
        // Two windows at once, within the 3 s: the cached thumbnail, no new stats request.
        const [w1, w2] = await Promise.all([d.snapshot(), d.snapshot()]);
        expect(w1.tiles[0].thumbnail?.lines).to.deep.equal(['first screen']);
        expect(w2.tiles[0].thumbnail?.lines).to.deep.equal(['first screen']);
        expect(docker.seen.length).to.equal(1);
        clock += 1;
        expect((await d.snapshot()).tiles[0].thumbnail?.lines).to.deep.equal(['first screen', 'second line']);
        expect(docker.seen.length).to.equal(2);
    });

    it('Docker unreachable (no socket): every tile without figures, docker unreachable with its reason, no throw', async () => {
        screen('a', 'hello');
        const sessions = [session('a', '/w/alpha'), session('b', '/w/beta', { mode: 'foreground' })];
        const projects = [
            project('/w/alpha', { daemon: { containerId: 'c1' } as DerivedProject['daemon'] }),
            project('/w/beta', { containers: [container('c2', 'sandy-beta-1')] })
        ];
        const snapshot = await dashboard(sessions, projects).snapshot();
        expect(snapshot.docker.state).to.equal('unreachable');
        expect((snapshot.docker as { reason: string }).reason).to.match(/no Docker socket/);
        for (const tile of snapshot.tiles) {
            expect([tile.cpuPercent, tile.memoryBytes, tile.memoryLimit]).to.deep.equal([undefined, undefined, undefined]);
        }
        expect(snapshot.tiles.find(t => t.sessionId === 'a')?.thumbnail?.lines).to.deep.equal(['hello']);
    });

    it('Docker unreachable with no container to measure: a ping says so', async () => {
        const snapshot = await dashboard([session('a', '/w/alpha', { mode: 'foreground' })], []).snapshot();
        expect(snapshot.docker.state).to.equal('unreachable');
        expect(snapshot.tiles.map(t => t.project)).to.deep.equal(['alpha']);
    });

    it('a hung Docker: the dashboard answers within its timeout, unreachable, and asks no further containers once one timed out', async () => {
        await docker.serve(() => { /* never answers */ });
        const sessions = Array.from({ length: 10 }, (_, i) => session(`s${i}`, `/w/p${i}`));
        const projects = sessions.map((s, i) => project(s.workspace, { daemon: { containerId: `c${i}` } as DerivedProject['daemon'] }));
        const started = Date.now();
        const snapshot = await dashboard(sessions, projects, { statsTimeoutMs: 300, timeoutMs: 10_000 }).snapshot();
        const took = Date.now() - started;
        expect(snapshot.docker).to.deep.equal({ state: 'unreachable', reason: 'the Docker daemon did not answer within 300 ms' });
        expect(snapshot.tiles).to.have.length(10);
        expect(snapshot.tiles.every(t => t.cpuPercent === undefined)).to.equal(true);
        // One round of (at most four) requests, not ten timeouts one after the other.
        expect(took).to.be.lessThan(1500);
        expect(docker.seen.length).to.be.at.most(4);
    });

    it('an exited session keeps its tile and its last screen, and Docker is not asked about it', async () => {
        await docker.serve((_req, res) => { res.writeHead(200); res.end('OK'); });
        screen('a', 'bye');
        const snapshot = await dashboard([session('a', '/w/alpha', { status: 'exited', endedAt: 5000, exitCode: 0, endReason: 'agent-exited' })],
            [project('/w/alpha', { daemon: { containerId: 'c1' } as DerivedProject['daemon'] })]).snapshot();
        expect(snapshot.tiles[0].attention.state).to.equal('exited');
        expect(snapshot.tiles[0].endedAt).to.equal(5000);
        expect(snapshot.tiles[0].thumbnail?.lines).to.deep.equal(['bye']);
        expect(docker.seen).to.deep.equal(['GET /_ping']);
    });

    it('Attack: a hostile agent screen (escapes, a 10 MB line, bidi and control characters) becomes bounded plain text in the thumbnail', async () => {
        const cols = 2000;
        const rows = 500;
        const hostile = [
            'A'.repeat(10 * 1024 * 1024),
            '\r\n',
            // OSC 52 (clipboard), OSC 8 (a link), DCS, a title, CSI colours and cursor moves.
            '\x1b]52;c;ZXZpbA==\x07\x1b]8;;javascript:alert(1)\x07click\x1b]8;;\x07 \x1bP+q544e\x1b\\\x1b]0;pwned\x07\x1b[31;1mred\x1b[0m',
            '\r\n',
            // Trojan Source: RLO / LRI / PDI, a zero-width joiner, a BOM, a line separator.
            'ok\u202e}txt.exe\u2066evil\u2069\u200d\ufeff\u2028end',
            '\r\n',
            `<img src=x onerror=alert(1)>${'\u0085\u009b'}c1`
        ].join('');
        const s = new ScreenState(cols, rows, () => undefined);
        s.write(hostile);
        screens.set('a', s);
        // Parsing 10 MB takes this backend's xterm seconds; the thumbnail's bound is dashboard-attack.spec.ts's subject.
        const snapshot = await dashboard([session('a', '/w/alpha')], [], { thumbnailTimeoutMs: 60_000 }).snapshot();
        const thumb = snapshot.tiles[0].thumbnail!;
        expect(thumb.lines.length).to.be.at.most(THUMBNAIL_MAX_LINES);
        expect(thumb.cols).to.be.at.most(THUMBNAIL_MAX_COLS);
        expect(thumb.rows).to.be.at.most(THUMBNAIL_MAX_LINES);
        const text = thumb.lines.join('\n');
        for (const line of thumb.lines) {
            expect(Array.from(line).length).to.be.at.most(THUMBNAIL_MAX_COLS);
            expect(line).to.not.match(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/);
        }
        expect(text).to.not.contain('ZXZpbA').and.not.contain('pwned').and.not.contain('javascript:').and.not.contain('544e');
        // The bottom of the screen: the 10 MB line's last rows, then what followed it, as characters.
        const last = thumb.lines.slice(-4);
        expect(last[0]).to.equal('click red');
        expect(last[1]).to.match(/^ok }txt\.exe evil {3}end$/);
        // Markup is only characters here; the view puts them in a text node.
        expect(last[2]).to.equal('<img src=x onerror=alert(1)>');
        // To xterm, U+0085 (NEL) is a new line and U+009B an 8-bit CSI (it took the `c`): neither survives as a character.
        expect(last[3]).to.equal('1');
        expect(thumb.lines.slice(0, -4).every(l => /^A+$/.test(l) && l.length === THUMBNAIL_MAX_COLS)).to.equal(true);
        expect(JSON.stringify(snapshot).length).to.be.lessThan(THUMBNAIL_MAX_LINES * (THUMBNAIL_MAX_COLS + 8) + 2000);
    });
});
