/**
 * Attacks on what daemon sessions are found from: sandy's `--print-state` (whose workspace path for a
 * sandbox is only a marker file's text, CONTRACT D2), the IDE's own `sessions.json` and its build
 * lock in `~/.sandy-ide/locks`. Each test is the attack and the refusal it must meet:
 *
 * - a sandbox listed under a path that is not its workspace (`~/.ssh`, `/`, `$HOME`, a relative or
 *   dotted path) is no session: no sandy runs there, now or when a view asks, and Stop runs
 *   `sandy --stop` only in the workspace the session is of;
 * - a `sessions.json` of any shape (not JSON, wrong types, non-absolute keys, `__proto__`, pids 0/1,
 *   ids that are not 12 hex) never throws and yields only well-formed records, and the next write
 *   leaves none of the rest behind;
 * - a build lock whose pid file holds garbage is taken over, one held by a live foreign pid is
 *   waited on no longer than the bound, and taking over a lock that is a symlink removes the link,
 *   never what it points at.
 *
 * (The agent cannot write any of these files: `~/.sandy-ide` and `$SANDY_HOME` are refused as, in or
 * around a workspace by the workspace guard, and a sandbox's `WORKSPACE.json` sits at the sandbox's
 * top level, which sandy never mounts. These tests hold the readers to their own guarantees.)
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PtySupervisor, SessionPort } from './pty-supervisor';
import { SessionRecords } from './session-records';
import { BuildGate } from './build-gate';
import { discoverSessions } from '../../common/session/session-discovery';
import { parsePrintState, SandyState } from '../../common/sandy/contract';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';
import { ScriptedPty } from '../test/scripted-pty';


const HOME = '/home/u';
const WS = '/home/u/work/proj';
const CONTAINER = 'da3m0nc0ffee';

/** `sandy --print-state` with one daemon session (the real 1.7.1's fixture 96 shape): its sandbox lists `listedPath`. */
function stateListing(listedPath: string, sandboxOf = WS): SandyState {
    const name = sandboxNameForWorkspace(sandboxOf);
    return parsePrintState(JSON.stringify({
        schema_version: 1, sandy_home: `${HOME}/.sandy`, host_id: 'vm', host_id_source: 'hostname', installed_images: [],
        sandboxes: [{
            name, path: `${HOME}/.sandy/sandboxes/${name}`, workspace_path: listedPath, workspace_exists: true,
            created_version: '1.7.1', last_used_version: '1.7.1', created_at: '2026-11-30T09:58:38.566047280Z',
            last_used_at: '2026-11-30T09:58:38.570047280Z', size_bytes: null, handoff_enabled: false,
            lock_held: true, lock_holder_pid: '1390', lock_holder_alive: true
        }],
        approvals: [], docker_reachable: true,
        running_containers: [{
            id: CONTAINER, name: `sandy-${name}`, image: 'sandy-claude-code', started_at: '2026-11-30 09:58:38 +0000 UTC',
            sandbox: name, daemon: true, attached_clients: 0, updated_at: null
        }],
        orphan_networks: 0, dangling_images: null, orphaned_containers: null, proxy_image_created: null
    }));
}

function world() {
    const ptys: ScriptedPty[] = [];
    const runs: Array<{ args: string[]; cwd: string }> = [];
    const supervisor = new PtySupervisor((file, args, options) => {
        const p = new ScriptedPty(file, args, options.cwd);
        ptys.push(p);
        return p;
    }, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined, pidAlive: () => false, isSandy: () => false });
    const port: SessionPort = {
        commandLine: () => ({ sandyPath: '/x/sandy', env: { HOME } }),
        run: async (args, cwd) => {
            runs.push({ args, cwd });
            return { exitCode: 0, stdout: 'Daemon session stopped.\n', stderr: '' };
        },
        remember: () => undefined,
        forget: () => undefined
    };
    supervisor.setSessionPort(port);
    return { supervisor, ptys, runs };
}

describe('Attack: sandy\'s state names a daemon session under another folder (unit)', () => {
    it('a sandbox listed under ~/.ssh, /, $HOME, a relative or dotted path is no session, and no sandy runs anywhere for it', async () => {
        for (const listed of [`${HOME}/.ssh`, '/', HOME, 'work/proj', `${WS}/../../.ssh`, `${WS}/.`, `${WS}/`, `${WS}\n`, '']) {
            const w = world();
            const found = discoverSessions(stateListing(listed), { daemons: {}, foreground: {} }, Date.now());
            w.supervisor.reconcile(found);
            expect(w.supervisor.list(), `sessions for a sandbox listed as ${JSON.stringify(listed)}`).to.deep.equal([]);
            expect(w.ptys.length, `sandy runs for ${JSON.stringify(listed)}`).to.equal(0);
            await w.supervisor.dispose();
        }
    });

    it('a daemon whose sandbox is of another workspace than the path it lists is not shown under that path', async () => {
        // The sandbox is ~/work/proj's; its marker names ~/.ssh's parent folder: neither is trusted over the name.
        const w = world();
        w.supervisor.reconcile(discoverSessions(stateListing(`${HOME}/.ssh`, WS), { daemons: {}, foreground: {} }, Date.now()));
        w.supervisor.reconcile(discoverSessions(stateListing(WS, `${HOME}/.ssh`), { daemons: {}, foreground: {} }, Date.now()));
        expect(w.supervisor.list()).to.deep.equal([]);
        await w.supervisor.dispose();
    });

    it('the listed session sandy\'s own name vouches for is attached and stopped in its workspace only', async () => {
        const w = world();
        w.supervisor.reconcile(discoverSessions(stateListing(WS), { daemons: {}, foreground: {} }, Date.now()));
        const [session] = w.supervisor.list();
        expect(session).to.include({ workspace: WS, origin: 'outside', mode: 'daemon', link: 'detached' });
        expect(w.ptys.length, 'a shell\'s session is attached only when a view asks').to.equal(0);
        const view = await w.supervisor.attach(session.id);
        expect(w.ptys.map(p => [p.args.join(' '), p.cwd])).to.deep.equal([['--attach', WS]]);
        await w.supervisor.stop(session.id);
        expect(w.runs).to.deep.equal([{ args: ['--stop'], cwd: WS }]);
        view.dispose();
        await w.supervisor.dispose();
    });
});

describe('Attack: a forged sessions.json (unit)', () => {
    let dir: string;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-records-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('never throws, keeps only absolute workspaces with a 12-hex container or a pid above 1, and the next write drops the rest', () => {
        const file = path.join(dir, 'sessions.json');
        const hostile: unknown[] = [
            'not json', '[]', 'null', '42', '"x"', '{"daemons":[1,2],"foreground":"x"}',
            JSON.stringify({ daemons: null, foreground: null }),
            '{"daemons":{"__proto__":{"polluted":"aaaaaaaaaaaa"},"constructor":"aaaaaaaaaaaa"},"foreground":{"__proto__":{"x":5}}}'
        ];
        for (const text of hostile) {
            fs.writeFileSync(file, text as string);
            const r = new SessionRecords(file);
            expect({ ...r.daemons }, `daemons from ${text}`).to.deep.equal({});
            expect({ ...r.foreground }, `foreground from ${text}`).to.deep.equal({});
            expect(({} as Record<string, unknown>).polluted, 'Object.prototype').to.equal(undefined);
        }
        fs.writeFileSync(file, JSON.stringify({
            version: 1,
            daemons: {
                [WS]: CONTAINER, '/ok/upper': 'DA3M0NC0FFEE', 'relative/ws': CONTAINER, '/ok/short': 'abc', '/ok/long': `${CONTAINER}00`,
                '/ok/inject': `${CONTAINER}; rm -rf ~`, '/ok/number': 1234567890123, '/ok/other': '0123456789ab'
            },
            foreground: {
                [WS]: { pid: 4242, start: 'proc:77' }, '/p/zero': { pid: 0, start: 'proc:1' }, '/p/one': { pid: 1, start: 'proc:1' },
                '/p/neg': { pid: -7, start: 'proc:1' }, '/p/frac': { pid: 12.5, start: 'proc:1' }, '/p/str': { pid: '4242', start: 'proc:1' },
                '/p/huge': { pid: 2 ** 60, start: 'proc:1' }, 'rel': { pid: 4243, start: 'proc:1' },
                // A pid without the start of its process could be any process by now: not kept.
                '/p/nostart': { pid: 4244 }, '/p/bare': 4245
            }
        }));
        const r = new SessionRecords(file);
        expect(r.daemons).to.deep.equal({ [WS]: CONTAINER, '/ok/other': '0123456789ab' });
        expect(r.foreground).to.deep.equal({ [WS]: { pid: 4242, start: 'proc:77' } });
        r.forget('/ok/other', 'daemon');
        const written = JSON.parse(fs.readFileSync(file, 'utf8'));
        expect(written).to.deep.equal({ version: 1, daemons: { [WS]: CONTAINER }, foreground: { [WS]: { pid: 4242, start: 'proc:77' } } });
        expect(fs.statSync(file).mode & 0o077, 'sessions.json is private').to.equal(0);
    });

    it('a sessions.json that is a directory or unreadable is an empty memory, and remembering does not throw', () => {
        const file = path.join(dir, 'sessions.json');
        fs.mkdirSync(file);
        const r = new SessionRecords(file);
        expect([r.daemons, r.foreground]).to.deep.equal([{}, {}]);
        r.remember(WS, { containerId: CONTAINER });
        expect(r.daemons).to.deep.equal({ [WS]: CONTAINER });
        expect(fs.statSync(file).isDirectory(), 'the directory is left as it was').to.equal(true);
    });

    it('a symlink planted as sessions.json is replaced, never written through', () => {
        const target = path.join(dir, 'bashrc');
        fs.writeFileSync(target, 'export EDITOR=vi\n');
        const file = path.join(dir, 'sessions.json');
        fs.symlinkSync(target, file);
        new SessionRecords(file).remember(WS, { containerId: CONTAINER });
        expect(fs.readFileSync(target, 'utf8')).to.equal('export EDITOR=vi\n');
        expect(fs.lstatSync(file).isSymbolicLink()).to.equal(false);
    });

    it('a sessions.json that is a link to records of the attacker\'s choosing is not read: no container is taken for the IDE\'s own', () => {
        const forged = path.join(dir, 'forged.json');
        fs.writeFileSync(forged, JSON.stringify({ version: 1, daemons: { [WS]: CONTAINER }, foreground: {} }));
        const file = path.join(dir, 'sessions.json');
        fs.symlinkSync(forged, file);
        expect(new SessionRecords(file).daemons).to.deep.equal({});
    });

    it('a sessions.json that is a FIFO, or /dev/zero behind a link, is an empty memory at once (no hang, no unbounded read)', function () {
        this.timeout(20_000);
        const file = path.join(dir, 'sessions.json');
        if (spawnSync('mkfifo', [file]).status !== 0) {
            this.skip();
        }
        const records = path.join(__dirname, 'session-records.js');
        const read = (f: string) => spawnSync(process.execPath, ['-e',
            `const { SessionRecords } = require(${JSON.stringify(records)}); process.stdout.write(JSON.stringify(new SessionRecords(${JSON.stringify(f)}).daemons));`],
        { timeout: 5_000, encoding: 'utf8' });
        const fifo = read(file);
        expect(fifo.signal, 'reading the FIFO hung').to.equal(null);
        expect(fifo.stdout).to.equal('{}');
        const zero = path.join(dir, 'zero.json');
        fs.symlinkSync('/dev/zero', zero);
        const dev = read(zero);
        expect(dev.signal, 'reading /dev/zero did not end').to.equal(null);
        expect(dev.stdout).to.equal('{}');
    });
});

describe('Attack: a forged build lock in ~/.sandy-ide/locks (unit)', () => {
    let dir: string;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-lock-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('a lock whose pid file holds garbage is taken over at once', () => {
        const lock = path.join(dir, 'build-x');
        for (const pid of ['', 'abc', '-1', '0', '1e309', '../../etc/passwd', '99999999999999999999', '4194305\n']) {
            fs.mkdirSync(lock, { recursive: true });
            fs.writeFileSync(path.join(lock, 'pid'), pid);
            const turn = new BuildGate(lock, { pollMs: 10, maxHoldMs: 200 }).enter();
            expect(turn.now, `a lock holding pid ${JSON.stringify(pid)}`).to.equal(true);
            expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8').trim()).to.equal(String(process.pid));
            turn.release();
            expect(fs.existsSync(lock)).to.equal(false);
        }
    });

    it('a lock held by a live pid that is not an IDE delays a launch no longer than the bound', async () => {
        const lock = path.join(dir, 'build-x');
        fs.mkdirSync(lock);
        // pid 1 always runs: a lock "held" by it would never be released.
        fs.writeFileSync(path.join(lock, 'pid'), '1\n');
        const started = Date.now();
        const turn = new BuildGate(lock, { pollMs: 10, maxHoldMs: 300 }).enter();
        expect(turn.now).to.equal(false);
        await turn.ready;
        expect(Date.now() - started, 'how long the launch waited').to.be.within(250, 2_000);
        turn.release();
        expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8'), 'a lock not ours is not removed').to.equal('1\n');
    });

    it('taking over a dead holder\'s lock that is a symlink removes the link, not the folder it points at', () => {
        const precious = path.join(dir, 'precious');
        fs.mkdirSync(precious);
        fs.writeFileSync(path.join(precious, 'pid'), '999999999\n');
        fs.writeFileSync(path.join(precious, 'id_rsa'), 'PRIVATE KEY');
        const lock = path.join(dir, 'build-x');
        fs.symlinkSync(precious, lock);
        const turn = new BuildGate(lock, { pollMs: 10, maxHoldMs: 200 }).enter();
        expect(turn.now).to.equal(true);
        expect(fs.readFileSync(path.join(precious, 'id_rsa'), 'utf8'), 'the folder the link pointed at').to.equal('PRIVATE KEY');
        turn.release();
        expect(fs.readFileSync(path.join(precious, 'id_rsa'), 'utf8')).to.equal('PRIVATE KEY');
    });
});
