import { expect } from 'chai';
import { daemonSessionId, PtySupervisor, SessionPort } from './pty-supervisor';
import type { SessionDiscovery } from '../../common/session/session-discovery';
import type { SessionInfo } from '../../common/session/session-types';
import { loadFixture } from '../test/sandy-fixtures';
import { ScriptedPty } from '../test/scripted-pty';
import { ATTACH_INPUT_WAIT_MS } from './hosted-session';
import { heldInputDroppedText } from '../../common/terminal/held-input';
import { describeExit } from '../../common/host/labels';


const WS = '/home/u/proj';
const READY = '\x1b[0;32m[sandy]\x1b[0m Daemon session ready: proj-1234abcd (container da3m0nc0ffee)\r\n';

function world() {
    const ptys: ScriptedPty[] = [];
    const signals: string[] = [];
    const runs: Array<{ args: string[]; cwd: string }> = [];
    const remembered: string[] = [];
    const warnings: string[] = [];
    let sandyPids = new Set<number>();
    const stopAnswers: Array<{ exitCode?: number; stdout: string; stderr: string }> = [];
    const supervisor = new PtySupervisor((file, args, options) => {
        const p = new ScriptedPty(file, args, options.cwd);
        ptys.push(p);
        return p;
    }, {
        timings: { interruptGraceMs: 20, terminateGraceMs: 20 },
        sendSignal: (pid, signal) => signals.push(`${signal} ${pid}`),
        pidAlive: pid => sandyPids.has(pid),
        isSandy: pid => sandyPids.has(pid),
        warn: line => warnings.push(line)
    });
    const port: SessionPort = {
        commandLine: () => ({ sandyPath: '/x/sandy', env: { HOME: '/home/u' } }),
        run: async (args, cwd) => {
            runs.push({ args, cwd });
            return stopAnswers.shift() ?? { exitCode: 0, stdout: 'Daemon session stopped.\n', stderr: '' };
        },
        remember: (workspace, started) => remembered.push(`+${workspace} ${JSON.stringify(started)}`),
        forget: (workspace, mode) => remembered.push(`-${workspace} ${mode}`)
    };
    supervisor.setSessionPort(port);
    const changes: SessionInfo[] = [];
    supervisor.onDidChangeSession(s => changes.push(s));
    return {
        supervisor, ptys, signals, runs, remembered, stopAnswers, changes, warnings,
        setSandy: (pids: number[]) => { sandyPids = new Set(pids); },
        last: () => ptys[ptys.length - 1],
        start: (workspace = WS) => supervisor.startDaemon({ sandyPath: '/x/sandy', args: ['--new'], workspace, env: { HOME: '/home/u' }, cols: 100, rows: 30 })
    };
}

const tick = (ms = 0) => new Promise(r => setTimeout(r, ms));
/** The supervisor lets a PTY's output settle (40 ms of quiet) before it acts on the exit. */
const settled = () => tick(120);

function discovery(daemons: SessionDiscovery['daemons'], observedAt = Date.now(), orphans: SessionDiscovery['orphans'] = []): SessionDiscovery {
    return { daemons, orphans, observedAt };
}

describe('PtySupervisor: daemon sessions (unit, scripted PTYs)', () => {
    it('runs sandy --start on a PTY (its output is the tab\'s progress), then an --attach client in the workspace whose screen the views share', async () => {
        const w = world();
        const info = w.start();
        expect(info).to.include({ id: daemonSessionId(WS), mode: 'daemon', origin: 'ide', link: 'starting', status: 'running' });
        const start = w.last();
        expect(start.args).to.deep.equal(['--start', '--new']);
        expect(start.cwd).to.equal(WS);
        const view = await w.supervisor.attach(info.id);
        const seen: string[] = [];
        view.onData(d => seen.push(d));
        start.emit('[sandy] Starting daemon session for /home/u/proj...\r\n');
        start.emit(READY);
        start.exit(0);
        await settled();
        const attach = w.last();
        expect(attach).to.not.equal(start);
        expect(attach.args).to.deep.equal(['--attach']);
        expect(attach.cwd).to.equal(WS);
        expect(w.remembered).to.include(`+${WS} {"containerId":"da3m0nc0ffee"}`);
        expect(w.supervisor.get(info.id)).to.include({ link: 'attached', pid: attach.pid });
        attach.emit('\x1b[?1049hagent> ');
        view.write('hello\r');
        expect(attach.written).to.deep.equal(['hello\r']);
        expect(seen.join('')).to.contain('Starting daemon session').and.contain('agent> ');
    });

    it('keys for a fresh --attach client wait until it draws the session (its terminal is raw by then; before, a Ctrl+C killed it), at most ATTACH_INPUT_WAIT_MS', async function () {
        this.timeout(4 * ATTACH_INPUT_WAIT_MS);
        const w = world();
        const info = w.start();
        const view = await w.supervisor.attach(info.id);
        w.last().emit(READY);
        w.last().exit(0);
        await settled();
        const attach = w.last();
        expect(attach.args).to.deep.equal(['--attach']);
        view.write('git push');
        view.write('\x03');
        // sandy's own lines before it runs the client do not count: the client has not drawn the session yet.
        attach.emit('\x1b[0;32m[sandy]\x1b[0m Build files updated.\r\n\x1b[?10');
        expect(attach.written, 'nothing into the client before it drew').to.deep.equal([]);
        attach.emit('49h\x1b[Hagent> ');
        expect(attach.written).to.deep.equal(['git push', '\x03']);
        view.write('x');
        expect(attach.written).to.deep.equal(['git push', '\x03', 'x']);

        // A client that never draws gets the keys after the wait; keys for one that ends first are said lost.
        attach.exit(3);
        await settled();
        w.supervisor.takeBack(info.id);
        const silent = w.last();
        expect(silent).to.not.equal(attach);
        view.write('late');
        await tick(ATTACH_INPUT_WAIT_MS / 2);
        expect(silent.written).to.deep.equal([]);
        await tick(ATTACH_INPUT_WAIT_MS / 2 + 100);
        expect(silent.written).to.deep.equal(['late']);
        silent.exit(3);
        await settled();
        w.supervisor.takeBack(info.id);
        view.write('lost');
        w.last().exit(1);
        await settled();
        expect(w.warnings).to.deep.equal([heldInputDroppedText(4, 'ended')]);
    });

    it('an answer to a prompt of sandy --start goes to --start only: never to the attach client that follows it', async () => {
        const w = world();
        let answer: ((text: string) => void) | undefined;
        const info = w.supervisor.startDaemon({
            sandyPath: '/x/sandy', args: [], workspace: WS, env: { HOME: '/home/u' }, cols: 100, rows: 30,
            outputObserver: (_data, input) => answer = input
        });
        const start = w.last();
        start.emit('[sandy] Proceed? [y/N] ');
        answer!('y\r');
        expect(start.written).to.deep.equal(['y\r']);
        start.emit(READY);
        start.exit(0);
        await settled();
        const attach = w.last();
        expect(attach.args).to.deep.equal(['--attach']);
        attach.emit('\x1b[?1049hagent> ');
        // A late answer (the responder's, after the prompt it saw): not typed into the agent.
        answer!('y\r');
        expect(attach.written).to.deep.equal([]);
        expect(w.supervisor.get(info.id)).to.include({ link: 'attached' });
    });

    it('follows sandy --start through its phases on the real 1.7.1 output (fixture 93): building → starting → ready, then attached', async () => {
        const w = world();
        const info = w.start();
        const phases: Array<string | undefined> = [];
        w.supervisor.onDidChangeSession(s => {
            if (s.id === info.id && phases[phases.length - 1] !== s.startPhase) {
                phases.push(s.startPhase);
            }
        });
        const out = loadFixture('93-stubdocker-start').stdout.replace(/\n/g, '\r\n');
        // As a PTY delivers it: in chunks that split lines (and escape sequences) anywhere.
        for (let i = 0; i < out.length; i += 37) {
            w.last().emit(out.slice(i, i + 37));
        }
        w.last().exit(0);
        await settled();
        expect(phases).to.deep.equal(['building', 'starting', 'ready', undefined]);
        expect(w.supervisor.get(info.id)!.link).to.equal('attached');
        expect(w.remembered).to.include(`+${WS} {"containerId":"da3m0nc0ffee"}`);
    });

    it('says sandy --start failed (exit code, its words stay on the screen) and attaches nothing', async () => {
        const w = world();
        const info = w.start();
        w.last().emit('[sandy] Daemon startup was refused before it could launch\r\n');
        w.last().exit(1);
        await settled();
        expect(w.ptys).to.have.length(1);
        expect(w.supervisor.get(info.id)).to.include({ status: 'exited', endReason: 'start-failed', exitCode: 1 });
    });

    it('records the launch gates sandy closed by itself (no TTY pre-pass: keys dropped, project Dockerfile skipped)', async () => {
        const w = world();
        const info = w.start();
        w.last().emit('[sandy] Non-interactive session \u2014 dropping these keys.\r\n[sandy] Non-interac');
        w.last().emit('tive session \u2014 NOT building the project image; using the\r\n' + READY);
        w.last().exit(0);
        await settled();
        expect(w.supervisor.get(info.id)!.closedGates).to.have.members(['dropped-keys', 'skipped-dockerfile']);
    });

    it('maps the attach client\'s exit: 3 = another terminal took it (Take Back attaches again), 0 = the agent exited, 1 = a problem to show', async () => {
        const w = world();
        const info = w.start();
        w.last().emit(READY);
        w.last().exit(0);
        await settled();
        w.last().exit(3);
        await settled();
        expect(w.supervisor.get(info.id)).to.include({ status: 'running', link: 'elsewhere', pid: 0 });
        // A view attaching does not silently take it back.
        const before = w.ptys.length;
        await w.supervisor.attach(info.id);
        expect(w.ptys).to.have.length(before);
        w.supervisor.takeBack(info.id);
        expect(w.last().args).to.deep.equal(['--attach']);
        expect(w.supervisor.get(info.id)!.link).to.equal('attached');

        w.last().emit('sandy: docker unreachable\r\n');
        w.last().exit(1);
        await settled();
        const failed = w.supervisor.get(info.id)!;
        expect(failed).to.include({ status: 'running', link: 'detached' });
        expect(failed.problem!.message).to.contain('exit 1').and.contain('docker unreachable');

        w.supervisor.takeBack(info.id);
        w.last().exit(0);
        await settled();
        expect(w.supervisor.get(info.id)).to.include({ status: 'exited', endReason: 'agent-exited' });
        expect(w.remembered).to.include(`-${WS} daemon`);
    });

    it('stops with sandy --stop in the workspace: 0 ends it, 5 keeps it running with the reason, 4 (already gone) ends it', async () => {
        const w = world();
        const info = w.start();
        w.last().emit(READY);
        w.last().exit(0);
        await settled();
        const attach = w.last();

        w.stopAnswers.push({ exitCode: 5, stdout: '', stderr: '[sandy] Daemon session did not stop within 15s (supervisor pid 1390).\n' });
        const refused = await w.supervisor.stop(info.id);
        expect(w.runs[0]).to.deep.equal({ args: ['--stop'], cwd: WS });
        expect(refused).to.include({ status: 'running' });
        expect(refused.problem!.message).to.contain('15 s');
        expect(attach.killed).to.equal(undefined);

        w.stopAnswers.push({ exitCode: 4, stdout: '', stderr: 'No daemon session running for /home/u/proj.\n' });
        const stopped = await w.supervisor.stop(info.id);
        expect(stopped).to.include({ status: 'exited', endReason: 'stopped' });
        expect(stopped.problem).to.equal(undefined);
        expect(attach.killed, 'our attach client ends with it').to.not.equal(undefined);
        expect(w.signals, 'a daemon session is never signalled').to.deep.equal([]);
    });

    it('a Stop while sandy --start still runs ends the start client (its process group), then reaps with --stop', async () => {
        const w = world();
        const info = w.start();
        const start = w.last();
        const stopping = w.supervisor.stop(info.id);
        await tick(5);
        expect(w.signals).to.deep.equal([`SIGINT ${start.pid}`]);
        start.exit(130);
        const done = await stopping;
        expect(done).to.include({ status: 'exited', endReason: 'stopped' });
        expect(w.runs.map(r => r.args)).to.deep.equal([['--stop']]);
        expect(w.ptys, 'no attach client for a stopped start').to.have.length(1);
    });

    it('a stop the IDE makes itself (sandy recorded an approval the user did not give) ends the session saying why; the user\'s Stop meanwhile does not erase it', async () => {
        const w = world();
        const info = w.start();
        const start = w.last();
        const cause = { endReason: 'approval-changed', problem: { message: 'sandy approved …', hint: 'Launch again.' } } as const;
        const stopping = w.supervisor.stop(info.id, cause);
        const byUser = w.supervisor.stop(info.id);
        await tick(5);
        start.exit(130);
        const done = await stopping;
        expect(done).to.include({ status: 'exited', endReason: 'approval-changed' });
        expect(done.problem).to.deep.equal(cause.problem);
        expect(await byUser).to.include({ endReason: 'approval-changed' });
        expect(w.runs.map(r => r.args), 'stopped as any daemon session is (sandy --stop)').to.deep.equal([['--stop']]);
        expect(describeExit(done)).to.equal('The IDE stopped this session: sandy approved … Launch again.');
        // A stop that sandy refuses (5: the supervisor did not stop) keeps the cause in view while the session runs.
        const held = w.start('/home/u/held');
        w.last().exit(0);
        await settled();
        w.stopAnswers.push({ exitCode: 5, stdout: '', stderr: '[sandy] Daemon session did not stop within 15s (supervisor pid 1390).\n' });
        const refused = await w.supervisor.stop(held.id, cause);
        expect(refused.status).to.equal('running');
        expect(refused.problem!.message).to.match(/^sandy approved … .*15 s/);
        // A session that the user stops is not given a cause.
        const plain = w.start('/home/u/other');
        w.last().exit(130);
        expect(await w.supervisor.stop(plain.id)).to.include({ endReason: 'stopped' });
    });

    it('adopts what --print-state lists: ours attached again at once, a shell\'s only when a view asks, one held elsewhere not at all', async () => {
        const w = world();
        w.supervisor.reconcile(discovery([
            { workspace: '/w/ours', containerId: 'aaaaaaaaaaaa', startedAt: 1000, attachedClients: 0, ours: true },
            { workspace: '/w/shell', containerId: 'bbbbbbbbbbbb', attachedClients: 0, ours: false },
            { workspace: '/w/busy', containerId: 'cccccccccccc', attachedClients: 1, ours: true }
        ]));
        const byWs = (ws: string) => w.supervisor.list().find(s => s.workspace === ws)!;
        expect(byWs('/w/ours')).to.include({ id: daemonSessionId('/w/ours'), origin: 'ide', link: 'attached', startedAt: 1000 });
        expect(byWs('/w/shell')).to.include({ origin: 'outside', link: 'detached', pid: 0 });
        expect(byWs('/w/busy')).to.include({ origin: 'ide', link: 'elsewhere' });
        expect(w.ptys.map(p => `${p.cwd} ${p.args.join(' ')}`)).to.deep.equal(['/w/ours --attach']);

        await w.supervisor.attach(daemonSessionId('/w/shell'));
        expect(w.last().cwd).to.equal('/w/shell');
        expect(byWs('/w/shell').link).to.equal('attached');

        // The other terminal (or another window of this IDE, reloading) let go of /w/busy: said, not
        // taken back unasked — two windows would take it from each other in turns.
        const spawned = w.ptys.length;
        w.supervisor.reconcile(discovery([
            { workspace: '/w/ours', containerId: 'aaaaaaaaaaaa', attachedClients: 1, ours: true },
            { workspace: '/w/shell', containerId: 'bbbbbbbbbbbb', attachedClients: 1, ours: false },
            { workspace: '/w/busy', containerId: 'cccccccccccc', attachedClients: 0, ours: true }
        ]));
        expect(byWs('/w/busy')).to.include({ link: 'detached' });
        expect(byWs('/w/busy').problem!.hint).to.contain('Attach');
        await w.supervisor.attach(daemonSessionId('/w/busy'));
        expect(w.ptys, 'a view opening it does not take it either').to.have.length(spawned);
        w.supervisor.takeBack(daemonSessionId('/w/busy'));
        expect(byWs('/w/busy')).to.include({ link: 'attached', problem: undefined });
    });

    it('ends a daemon session whose container is gone — but not on a --print-state begun before it was listed, nor without Docker', async () => {
        const w = world();
        const info = w.start();
        w.last().emit(READY);
        const beforeReady = Date.now() - 5000;
        w.last().exit(0);
        await settled();
        w.supervisor.reconcile(discovery([], beforeReady));
        expect(w.supervisor.get(info.id)!.status, 'a poll from before it was ready').to.equal('running');
        w.supervisor.reconcile(discovery(undefined, Date.now() + 10_000));
        expect(w.supervisor.get(info.id)!.status, 'Docker unreachable: unknown, not gone').to.equal('running');
        w.supervisor.reconcile(discovery([], Date.now() + 10_000));
        expect(w.supervisor.get(info.id)).to.include({ status: 'exited', endReason: 'gone' });
        // A stale poll does not bring back what just ended.
        w.supervisor.reconcile(discovery([{ workspace: WS, containerId: 'da3m0nc0ffee', attachedClients: 0, ours: true }], Date.now() - 1000));
        expect(w.supervisor.get(info.id)!.status).to.equal('exited');
    });

    it('offers an orphaned foreground sandy for Stop: its process group is signalled only while its pid is still sandy\'s', async () => {
        const w = world();
        w.setSandy([4321]);
        w.supervisor.reconcile(discovery([], Date.now(), [{ workspace: '/w/orphan', pid: 4321 }]));
        const orphan = w.supervisor.list().find(s => s.origin === 'orphan')!;
        expect(orphan).to.include({ mode: 'foreground', pid: 4321, status: 'running', workspace: '/w/orphan' });
        const view = await w.supervisor.attach(orphan.id);
        expect(view.replay).to.contain('cannot be shown here');
        expect(w.ptys, 'nothing to attach to').to.have.length(0);

        const stopping = w.supervisor.stop(orphan.id);
        await tick(5);
        expect(w.signals).to.deep.equal(['SIGINT 4321']);
        // The pid is no longer sandy's (it ended, the number may be reused): no further signal.
        w.setSandy([]);
        const done = await stopping;
        expect(done.status).to.equal('exited');
        expect(w.signals).to.deep.equal(['SIGINT 4321']);
        expect(w.remembered).to.include('-/w/orphan foreground');
    });

    it('lets launches through sandy\'s build one at a time: the second --start waits for the first to finish, and says so', async () => {
        const w = world();
        const first = w.start('/w/a');
        const second = w.start('/w/b');
        expect(w.ptys.map(p => p.cwd)).to.deep.equal(['/w/a']);
        const view = await w.supervisor.attach(second.id);
        expect(view.replay).to.contain('Waiting for another launch');
        w.ptys[0].emit(READY.replace('container da3m0nc0ffee', 'container aaaaaaaaaaaa'));
        w.ptys[0].exit(0);
        await settled();
        expect(w.ptys.map(p => `${p.cwd} ${p.args[0]}`)).to.deep.equal(['/w/a --start', '/w/a --attach', '/w/b --start']);
        expect(w.supervisor.get(first.id)!.link).to.equal('attached');
    });

    it('a launch stopped while it waits for its turn ends at once, and never starts', async () => {
        const w = world();
        w.start('/w/a');
        const queued = w.supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w/b', env: {}, cols: 80, rows: 24 });
        const stopped = await w.supervisor.stop(queued.id);
        expect(stopped).to.include({ status: 'exited', endReason: 'stopped' });
        expect(w.signals).to.deep.equal([]);
        w.ptys[0].emit(READY);
        w.ptys[0].exit(0);
        await settled();
        expect(w.ptys.map(p => p.cwd), 'its turn came and went').to.deep.equal(['/w/a', '/w/a']);
    });

    it('a foreground launch holds the build gate only until sandy is past its image builds', async () => {
        const w = world();
        w.supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w/a', env: {}, cols: 80, rows: 24 });
        w.start('/w/b');
        expect(w.ptys).to.have.length(1);
        w.ptys[0].emit('[sandy] Building sandbox image...\r\n[sandy] Reus');
        await tick(5);
        expect(w.ptys).to.have.length(1);
        w.ptys[0].emit('ing sandbox: /home/u/.sandy/sandboxes/a-1\r\n');
        await tick(5);
        expect(w.ptys.map(p => `${p.cwd} ${p.args.join(' ')}`)).to.deep.equal(['/w/a ', '/w/b --start --new']);
    });

    it('parses notifications once from the stream, and a reattaching view\'s replay holds no OSC at all', async () => {
        const w = world();
        const notes: string[] = [];
        w.supervisor.onDidNotify(e => notes.push(`${e.session.id} ${e.notification.source} ${e.notification.body}`));
        const info = w.start();
        w.last().emit(READY);
        w.last().exit(0);
        await settled();
        w.last().emit('working\x1b]9;build finished\x07 \x1b]52;c;aGVsbG8=\x07\x1b]0;new title\x07\x07done\r\n');
        await tick(20);
        expect(notes).to.deep.equal([`${info.id} osc9 build finished`, `${info.id} bell The session rang the bell.`]);
        const a = await w.supervisor.attach(info.id);
        const b = await w.supervisor.attach(info.id);
        expect(a.replay).to.contain('working').and.contain('done');
        expect(a.replay).to.not.contain('\x1b]');
        expect(b.replay).to.equal(a.replay);
        expect(notes, 'attaching never notifies again').to.have.length(2);
    });

    it('on dispose, daemon sessions only lose our attach client (no --stop) unless the user chose to stop them', async () => {
        const w = world();
        w.start();
        w.last().emit(READY);
        w.last().exit(0);
        await settled();
        const attach = w.last();
        await w.supervisor.dispose();
        expect(attach.killed).to.not.equal(undefined);
        expect(w.runs).to.deep.equal([]);

        const v = world();
        v.start();
        v.last().emit(READY);
        v.last().exit(0);
        await settled();
        await v.supervisor.dispose({ stopDaemons: true });
        expect(v.runs.map(r => `${r.cwd} ${r.args.join(' ')}`)).to.deep.equal([`${WS} --stop`]);
    });
});
