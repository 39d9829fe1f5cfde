import * as fs from 'fs';
import * as path from 'path';
import { ChildProcess, spawn } from 'child_process';
import { expect } from 'chai';
import { PtySupervisor, SandyServiceCore, daemonSessionId } from '@sandy-ui/core/node';
import type { PtyLike, PtySpawn, SandyServiceOptions } from '@sandy-ui/core/node';
import type { SandyConfiguration, SessionInfo, SessionNotification } from '@sandy-ui/core/common';
import { nodePtySpawn } from '../node-pty-spawn';
import type { ChildCoreOptions } from './child-core';
import {
    FAKE_SANDY, FAKE_SANDY_BIN, OutputRecorder, ScratchHome, SentSignal, commandLineOf, describeProcess, environmentOf, isGone, outputLine,
    recordingSignals, requireCompiledFake, sleep, stripAnsi, waitUntil
} from './scratch-home';

/** The fake agent's prompt: its TUI is up and reads input. */
const PROMPT = '\x1b[1;32m>\x1b[0m ';
const CHILD_CORE = path.join(__dirname, 'child-core.js');

/** One process a core started on a PTY: what it ran and how it ended. */
interface Spawned {
    args: string[];
    pid: number;
    exit?: { exitCode: number; signal?: number };
}

/** A terminal of the test's own (a user's shell running sandy): its output and its end. */
interface ShellPty {
    pty: PtyLike;
    text: string;
    exit?: { exitCode: number; signal?: number };
    exited: Promise<{ exitCode: number; signal?: number }>;
    waitFor(needle: string | RegExp, timeoutMs?: number): Promise<void>;
    type(line: string): void;
}

/**
 * Daemon sessions end to end through SandyServiceCore (the service both hosts wrap): real node-pty,
 * the project's fake sandy in daemon mode (FAKE_SANDY_DOCKER=1: `--print-state` lists its running
 * containers), one scratch HOME per test. Every process a test starts carries that HOME, so
 * "nothing left" is asked of /proc, and the clean-up kills by it.
 */
describe('Daemon sessions through SandyServiceCore with node-pty and the fake sandy (slow)', function (): void {
    this.timeout(60_000);

    let scratch: ScratchHome;
    let dataDir: string;
    let logged: string[];
    const cores: SandyServiceCore[] = [];
    const shells: ShellPty[] = [];
    const children: ChildProcess[] = [];

    before(requireCompiledFake);

    beforeEach(() => {
        scratch = new ScratchHome('sandy-daemon-');
        dataDir = path.join(scratch.home, '.sandy-ide');
        logged = [];
    });

    afterEach(async () => {
        for (const core of cores.splice(0)) {
            await core.dispose().catch(() => undefined);
        }
        for (const shell of shells.splice(0)) {
            if (!shell.exit) {
                try {
                    shell.pty.kill('SIGKILL');
                } catch {
                    // gone
                }
            }
        }
        for (const child of children.splice(0)) {
            child.kill('SIGKILL');
        }
        // Daemon supervisors outlive their IDE by design: whatever a failed test left runs with the scratch HOME.
        await scratch.disposeWhenQuiet();
    });

    /** What every sandy the cores run sees: the fake first on PATH, its Docker engine on. */
    function coreEnv(extra: Record<string, string> = {}): Record<string, string> {
        return scratch.env({ PATH: `${FAKE_SANDY_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`, FAKE_SANDY_DOCKER: '1', ...extra });
    }

    /** An IDE backend on the scratch HOME: started and configured as a host does at start-up. */
    async function newCore(config: SandyConfiguration = {}, options: Partial<SandyServiceOptions> = {}, spawned: Spawned[] = []): Promise<SandyServiceCore> {
        const core = new SandyServiceCore({
            logger: {
                info: m => logged.push(`info: ${m}`),
                warn: m => logged.push(`warn: ${m}`),
                error: m => logged.push(`error: ${m}`)
            },
            spawnPty: recordingSpawn(spawned),
            env: coreEnv(),
            home: scratch.home,
            dataDir,
            ...options
        });
        cores.push(core);
        core.start();
        const status = await core.configure({ ...config, passEnv: ['FAKE_SANDY_DOCKER', ...config.passEnv ?? []] });
        expect(status.found, JSON.stringify(status)).to.equal(true);
        return core;
    }

    /** node-pty, with what each spawn ran and how it exited. */
    function recordingSpawn(spawned: Spawned[]): PtySpawn {
        return (file, args, options) => {
            const pty = nodePtySpawn(file, args, options);
            const record: Spawned = { args: [...args], pid: pty.pid };
            spawned.push(record);
            pty.onExit(e => record.exit = e);
            return pty;
        };
    }

    async function launch(core: SandyServiceCore, workspace = scratch.workspace): Promise<SessionInfo> {
        const outcome = await core.launch({ workspace, cols: 100, rows: 30 });
        if (outcome.kind !== 'launched') {
            throw new Error(`launch was not started: ${JSON.stringify(outcome)}; log: ${logged.join(' | ')}`);
        }
        return outcome.session;
    }

    /** Waits for a session to satisfy `condition`, asking sandy for its state (`--print-state`) meanwhile. */
    async function sessionWhere(core: SandyServiceCore, id: string, condition: (s: SessionInfo) => boolean, what: string, timeoutMs = 20_000): Promise<SessionInfo> {
        let lastPoll = 0;
        await waitUntil(() => {
            const info = core.supervisor.get(id);
            if (info && condition(info)) {
                return true;
            }
            if (Date.now() - lastPoll > 500) {
                lastPoll = Date.now();
                void core.poller.pollNow();
            }
            return false;
        }, timeoutMs, () => `${what}; the session is ${JSON.stringify(core.supervisor.get(id))}`);
        return core.supervisor.get(id)!;
    }

    /** Launch and wait until our attach client shows the agent to a view. */
    async function launchAttached(core: SandyServiceCore, workspace = scratch.workspace): Promise<{ session: SessionInfo; view: OutputRecorder }> {
        const session = await launch(core, workspace);
        const view = new OutputRecorder(await core.supervisor.attach(session.id));
        await sessionWhere(core, session.id, s => s.link === 'attached', 'our attach client');
        await view.waitFor(PROMPT);
        return { session: core.supervisor.get(session.id)!, view };
    }

    /** The links a session went through, in order (repeats folded). */
    function trackLinks(core: SandyServiceCore): (id: string) => Array<string | undefined> {
        const seen = new Map<string, Array<string | undefined>>();
        core.supervisor.onDidChangeSession(s => {
            const links = seen.get(s.id) ?? [];
            if (links[links.length - 1] !== s.link || links.length === 0) {
                links.push(s.link);
            }
            seen.set(s.id, links);
        });
        return id => seen.get(id) ?? [];
    }

    /** sandy on a terminal of the test's own, in the workspace, as a user's shell would run it. */
    function shellSandy(args: string[], workspace = scratch.workspace): ShellPty {
        const pty = nodePtySpawn(FAKE_SANDY, args, { name: 'xterm-256color', cols: 100, rows: 30, cwd: workspace, env: coreEnv() });
        let resolveExit!: (e: { exitCode: number; signal?: number }) => void;
        const shell: ShellPty = {
            pty,
            text: '',
            exited: new Promise(resolve => resolveExit = resolve),
            waitFor: (needle, timeoutMs = 15_000) => waitUntil(() => typeof needle === 'string' ? shell.text.includes(needle) : needle.test(shell.text), timeoutMs,
                () => `${needle} on the shell's terminal (sandy ${args.join(' ')}); its tail was:\n${stripAnsi(shell.text.slice(-1500))}`),
            type: line => pty.write(line + '\r')
        };
        pty.onData(data => shell.text += data);
        pty.onExit(e => {
            shell.exit = e;
            resolveExit(e);
        });
        shells.push(shell);
        return shell;
    }

    async function exitWithin<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
            return await Promise.race([promise, new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs))]);
        } finally {
            clearTimeout(timer);
        }
    }

    /** An IDE backend in a child process (child-core.ts): it launches, reports its session once the agent shows, then waits to be killed. */
    async function childCore(options: Pick<ChildCoreOptions, 'config' | 'holdTerminal'>, env: Record<string, string> = {}): Promise<{
        child: ChildProcess; session: { id: string; pid: number; mode: string; link?: string; holder?: number };
    }> {
        const full: ChildCoreOptions = { home: scratch.home, dataDir, env: coreEnv(env), workspace: scratch.workspace, ...options };
        const child = spawn(process.execPath, [CHILD_CORE, JSON.stringify(full)], { env: { ...process.env, HOME: scratch.home }, stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        let out = '';
        let err = '';
        child.stdout!.on('data', d => out += d);
        child.stderr!.on('data', d => err += d);
        await waitUntil(() => out.includes('\n') || child.exitCode !== null, 30_000, () => `the child IDE to report its session (stderr: ${err})`);
        const report = JSON.parse(out.split('\n')[0]) as { error?: unknown; id: string; pid: number; mode: string; link?: string; holder?: number };
        if (report.error) {
            throw new Error(`the child IDE failed: ${JSON.stringify(report.error)} (stderr: ${err})`);
        }
        return { child, session: report };
    }

    /** SIGKILL, as a crash or `kill -9` would end it: nothing of it runs afterwards. */
    async function kill9(child: ChildProcess): Promise<void> {
        const pid = child.pid!;
        process.kill(pid, 'SIGKILL');
        await waitUntil(() => isGone(pid), 5000, `the child IDE (${pid}) to die`);
    }

    /** What the cores remembered of the sessions they started (`<dataDir>/sessions.json`). */
    function sessionRecords(): { daemons?: Record<string, string>; foreground: Record<string, { pid: number; start?: string } | undefined> } {
        try {
            return JSON.parse(fs.readFileSync(path.join(dataDir, 'sessions.json'), 'utf8'));
        } catch {
            return { foreground: {} };
        }
    }

    /** Processes of the scratch HOME running `sandy --attach` (ours or anyone's). */
    function attachClients(): number[] {
        return scratch.processes().filter(pid => commandLineOf(pid).includes('--attach'));
    }

    /** The daemon supervisor of the workspace's session (the fake container's owner, which holds the lock). */
    function daemonSupervisor(workspace = scratch.workspace): number {
        const records = scratch.fakeContainers().filter(c => c.daemon && c.workspace === workspace);
        expect(records.length, `one daemon container for ${workspace}`).to.equal(1);
        const pid = records[0].ownerPid;
        expect(environmentOf(pid)?.get('SANDY_DAEMON_SUPERVISOR'), `${describeProcess(pid)} is sandy's daemon supervisor`).to.equal('1');
        return pid;
    }

    /** `--stop` returns once the session is torn down (its container record gone); its supervisor exits right after. */
    async function supervisorEnds(pid: number): Promise<void> {
        expect(scratch.fakeContainers().filter(c => c.ownerPid === pid), 'its container, once --stop returned').to.deep.equal([]);
        await waitUntil(() => isGone(pid), 5000, () => `the daemon supervisor to end: ${describeProcess(pid)}`);
    }

    /** No process of the scratch HOME, no lock, no fake container: nothing of the session is left anywhere. */
    async function expectNothingLeft(workspaces = [scratch.workspace]): Promise<void> {
        await scratch.expectNoLeftovers();
        for (const ws of workspaces) {
            expect(fs.existsSync(scratch.lockDir(ws)), `the lock of ${ws}`).to.equal(false);
        }
        expect(scratch.fakeContainers(), 'fake containers').to.deep.equal([]);
    }

    /** The replay a view gets once the session's screen shows the agent again (a new attach client redraws it). */
    async function replayShowingAgent(core: SandyServiceCore, id: string, workspace = scratch.workspace): Promise<OutputRecorder> {
        const header = `fake sandy 1.7.1-dev \u2014 ${workspace}`;
        let last = '';
        for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
            const attachment = await core.supervisor.attach(id);
            last = attachment.replay;
            if (stripAnsi(last).includes(header)) {
                return new OutputRecorder(attachment);
            }
            attachment.dispose();
        }
        throw new Error(`no replay of ${id} showed the agent's screen; the last was:\n${stripAnsi(last)}`);
    }

    /** After the IDE went away: a new core on the same HOME and data folder finds the session, shows it, types into it and stops it. */
    async function restartedIdeTakesOver(id: string, supervisorPid: number): Promise<void> {
        const core = await newCore();
        const listed = (await core.sessions()).filter(s => s.workspace === scratch.workspace);
        expect(listed.map(s => [s.id, s.status, s.mode, s.origin]), 'the restarted IDE lists the session as its own')
            .to.deep.equal([[id, 'running', 'daemon', 'ide']]);
        // Ours: attached again at once (no view needed), so its notifications reach the IDE.
        const attached = await sessionWhere(core, id, s => s.link === 'attached', 'the restarted IDE to attach its own session again');
        const view = await replayShowingAgent(core, id);
        expect(commandLineOf(attached.pid), 'a new attach client of ours').to.include('--attach');
        expect(stripAnsi(view.attachment.replay)).to.match(/^> /m);
        view.type('echo typed-after-the-restart');
        await view.waitFor(outputLine('typed-after-the-restart'));

        const stopped = (await core.stop(id))!;
        expect([stopped.status, stopped.endReason]).to.deep.equal(['exited', 'stopped']);
        await supervisorEnds(supervisorPid);
        await expectNothingLeft();
        expect(sessionRecords().daemons, 'the IDE forgot the stopped session').to.deep.equal({});
    }

    it('a launch starts a daemon session: link starting → attached, a view gets the agent\'s screen and typed input reaches the agent', async () => {
        const core = await newCore();
        const links = trackLinks(core);

        const session = await launch(core);

        expect([session.mode, session.origin, session.link, session.status]).to.deep.equal(['daemon', 'ide', 'starting', 'running']);
        expect(session.id, 'the workspace\'s id: the same in every IDE process').to.equal(daemonSessionId(scratch.workspace));
        // (Until node-pty's child has exec'd, /proc shows this process's command line.)
        await waitUntil(() => commandLineOf(session.pid).includes('--start'), 2000, () => `the session's terminal to run \`sandy --start\` first: ${describeProcess(session.pid)}`);
        const view = new OutputRecorder(await core.supervisor.attach(session.id));
        await sessionWhere(core, session.id, s => s.link === 'attached', 'our attach client');
        await view.waitFor(PROMPT);

        expect(links(session.id)).to.deep.equal(['starting', 'attached']);
        expect(stripAnsi(view.text), '--start\'s progress is in the tab').to.match(/Daemon session ready: \S+ \(container [0-9a-f]{12}\)/);
        expect(stripAnsi(view.text)).to.include(`fake sandy 1.7.1-dev \u2014 ${scratch.workspace}`);
        const info = core.supervisor.get(session.id)!;
        expect(commandLineOf(info.pid), 'then our attach client').to.include('--attach');
        // sandy's daemon: its supervisor (not our client) holds the workspace lock, and the IDE remembers the container.
        const supervisorPid = daemonSupervisor();
        expect(Number(scratch.lockPid())).to.equal(supervisorPid);
        expect(Object.keys(sessionRecords().daemons ?? {})).to.deep.equal([scratch.workspace]);

        view.type('echo typed-into-the-daemon');
        await view.waitFor(outputLine('typed-into-the-daemon'));

        const stopped = (await core.stop(session.id))!;
        expect([stopped.status, stopped.endReason, stopped.exitCode]).to.deep.equal(['exited', 'stopped', 0]);
        await expectNothingLeft();
    });

    describe('the IDE goes away; the session does not', () => {
        it('dispose(): our attach client ends, the daemon runs on; a new core lists it as ours, replays its screen, takes input, stop() leaves nothing', async () => {
            const first = await newCore();
            const { session, view } = await launchAttached(first);
            const client = session.pid;
            const supervisorPid = daemonSupervisor();

            await first.dispose();

            await waitUntil(() => isGone(client), 5000, 'our attach client to end with the IDE');
            expect(view.has(PROMPT), 'precondition: the agent was shown').to.equal(true);
            expect(isGone(supervisorPid), 'the daemon supervisor outlives the IDE').to.equal(false);
            expect(Number(scratch.lockPid())).to.equal(supervisorPid);
            await restartedIdeTakesOver(session.id, supervisorPid);
        });

        it('the IDE process is SIGKILLed: a new core lists the session as ours, replays its screen, takes input, stop() leaves nothing', async () => {
            const { child, session } = await childCore({ config: { passEnv: ['FAKE_SANDY_DOCKER'] } });
            expect([session.mode, session.link]).to.deep.equal(['daemon', 'attached']);
            expect(commandLineOf(session.pid)).to.include('--attach');
            const supervisorPid = daemonSupervisor();

            await kill9(child);

            // Its attach client is hung up with its terminal; the daemon is in a session of its own.
            await waitUntil(() => isGone(session.pid), 5000, 'the dead IDE\'s attach client to end');
            expect(isGone(supervisorPid), 'the daemon supervisor outlives the IDE').to.equal(false);
            expect(Number(scratch.lockPid())).to.equal(supervisorPid);
            await restartedIdeTakesOver(session.id, supervisorPid);
        });
    });

    it('a session started from a shell (`sandy --start`): listed as outside and detached without attaching; a view starts our attach client; stop() ends it', async () => {
        const core = await newCore();
        expect(await core.sessions(), 'nothing runs yet').to.deep.equal([]);

        const shell = shellSandy(['--start']);
        expect((await exitWithin(shell.exited, 30_000, 'the shell\'s `sandy --start`')).exitCode).to.equal(0);
        expect(stripAnsi(shell.text)).to.match(/Daemon session ready: /);
        const supervisorPid = daemonSupervisor();

        const id = daemonSessionId(scratch.workspace);
        const found = await sessionWhere(core, id, s => s.status === 'running', 'the core to find the shell\'s session');
        expect([found.mode, found.origin, found.link, found.pid, found.attachedViews]).to.deep.equal(['daemon', 'outside', 'detached', 0, 0]);
        // Nobody asked to see it: after more polls still no client of ours, and sandy counts none.
        await core.poller.pollNow();
        await core.poller.pollNow();
        expect(core.supervisor.get(id)!.link).to.equal('detached');
        expect(attachClients().map(describeProcess), 'attach clients').to.deep.equal([]);
        expect(scratch.fakeContainers().filter(c => c.daemon).map(c => c.attached), 'clients sandy counts').to.deep.equal([0]);
        expect(sessionRecords().daemons ?? {}, 'not remembered as ours').to.deep.equal({});

        const view = new OutputRecorder(await core.supervisor.attach(id));
        const attached = await sessionWhere(core, id, s => s.link === 'attached', 'our attach client for the view');
        expect(attached.origin, 'still a shell\'s session').to.equal('outside');
        await view.waitFor(PROMPT);
        expect(commandLineOf(attached.pid)).to.include('--attach');
        expect(attachClients()).to.deep.equal([attached.pid]);
        expect(stripAnsi(view.text)).to.include(`fake sandy 1.7.1-dev \u2014 ${scratch.workspace}`);
        view.type('echo typed-from-the-ide');
        await view.waitFor(outputLine('typed-from-the-ide'));

        const stopped = (await core.stop(id))!;
        expect([stopped.status, stopped.endReason]).to.deep.equal(['exited', 'stopped']);
        await supervisorEnds(supervisorPid);
        await expectNothingLeft();
    });

    it('another terminal takes the session (`sandy --attach`): our client exits 3 and the link is elsewhere; takeBack() attaches ours again and detaches the other', async () => {
        const spawned: Spawned[] = [];
        const core = await newCore({}, {}, spawned);
        const { session, view } = await launchAttached(core);
        const ours = spawned.find(s => s.pid === session.pid)!;
        expect(ours.args).to.deep.equal(['--attach']);

        const other = shellSandy(['--attach']);
        await other.waitFor(PROMPT);
        const elsewhere = await sessionWhere(core, session.id, s => s.link === 'elsewhere', 'the session to be attached elsewhere');
        expect(ours.exit, 'our client was detached by sandy (last attach wins)').to.deep.include({ exitCode: 3 });
        expect([elsewhere.status, elsewhere.pid, elsewhere.problem]).to.deep.equal(['running', 0, undefined]);
        // The agent is the other terminal's now; a poll does not take it back behind the user's back.
        other.type('echo typed-in-the-other-terminal');
        await other.waitFor(outputLine('typed-in-the-other-terminal'));
        await core.poller.pollNow();
        expect(core.supervisor.get(session.id)!.link).to.equal('elsewhere');
        expect(other.exit, 'the other terminal keeps it').to.equal(undefined);

        const back = (await core.takeBack(session.id))!;

        expect(back.link).to.equal('attached');
        const otherExit = await exitWithin(other.exited, 10_000, 'the other terminal\'s client to be detached');
        expect(otherExit.exitCode, 'the other client was detached (exit 3)').to.equal(3);
        expect(stripAnsi(other.text)).to.include('[detached (from session sandy)]');
        const client = spawned[spawned.length - 1];
        expect([client.args, client.pid, client.exit]).to.deep.equal([['--attach'], core.supervisor.get(session.id)!.pid, undefined]);
        view.type('echo typed-after-take-back');
        await view.waitFor(outputLine('typed-after-take-back'));

        expect((await core.stop(session.id))!.endReason).to.equal('stopped');
        await expectNothingLeft();
    });

    it('replay has no side effects: an OSC 9 is one notification, and a later attach\'s screen holds no OSC at all (no notification, clipboard or title again)', async () => {
        const core = await newCore();
        const notifications: SessionNotification[] = [];
        core.addListener({ onDidNotify: n => notifications.push(n), onDidChangeSnapshot: () => undefined, onDidChangeSession: () => undefined });
        const { session, view } = await launchAttached(core);

        // The fake's tmux filter is off (FAKE_SANDY_TMUX_FILTER unset): the raw OSC 9 reaches the stream.
        view.type('osc9 the build finished');
        view.type('osc52 copied-text');
        view.type('title a-new-title');
        view.type('echo all-sent');
        await view.waitFor(outputLine('all-sent'));
        // The live stream carried them (a view handles OSC 52 live, as the user's terminal would)...
        expect(view.text).to.include('\x1b]9;the build finished\x07');
        expect(view.text).to.include(`\x1b]52;c;${Buffer.from('copied-text').toString('base64')}\x07`);
        expect(view.text).to.include('\x1b]2;a-new-title\x07');
        await waitUntil(() => notifications.length > 0, 5000, 'the notification');

        // ...a reload, a second window: the screen without any of them.
        const later = await core.supervisor.attach(session.id);
        expect(stripAnsi(later.replay)).to.include('[osc9 sent]');
        expect(stripAnsi(later.replay)).to.include('[osc52 sent]');
        expect(later.replay.includes('\x1b]'), `an OSC in the replay: ${JSON.stringify(later.replay.slice(Math.max(0, later.replay.indexOf('\x1b]') - 20), later.replay.indexOf('\x1b]') + 60))}`).to.equal(false);
        const third = await core.supervisor.attach(session.id);
        expect(third.replay.includes('\x1b]')).to.equal(false);
        await sleep(500);

        expect(notifications.map(n => [n.session.id, n.notification.source, n.notification.body]), 'exactly one notification, for the OSC 9')
            .to.deep.equal([[session.id, 'osc9', 'the build finished']]);

        expect((await core.stop(session.id))!.endReason).to.equal('stopped');
        await expectNothingLeft();
    });

    it('ten launches of ten workspaces issued within 2 s all run, and sandy\'s build step saw one `--start` at a time', async function (): Promise<void> {
        this.timeout(240_000);
        // A sandy that logs when each `--start` begins and ends (its own clock, not the IDE's), then is the fake.
        const log = path.join(scratch.home, 'starts.log');
        const wrapper = path.join(scratch.folder('wrapper-bin'), 'sandy');
        fs.writeFileSync(wrapper, [
            '#!/usr/bin/env bash',
            'if [ "$1" = --start ]; then',
            `    echo "begin $(date +%s%3N) $PWD" >> '${log}'`,
            `    '${FAKE_SANDY}' "$@"`,
            '    rc=$?',
            `    echo "end $(date +%s%3N) $PWD $rc" >> '${log}'`,
            '    exit $rc',
            'fi',
            `exec '${FAKE_SANDY}' "$@"`,
            ''
        ].join('\n'), { mode: 0o755 });
        const core = await newCore({ sandyPath: wrapper });
        const workspaces = Array.from({ length: 10 }, (_, i) => scratch.folder(`ws-${i}`));

        // Clicks 150 ms apart; each view attaches as soon as its launch returns (a tab opens).
        const issued: number[] = [];
        const views = new Map<string, OutputRecorder>();
        const sessions = await Promise.all(workspaces.map(async (ws, i) => {
            await sleep(i * 150);
            issued.push(Date.now());
            const session = await launch(core, ws);
            views.set(ws, new OutputRecorder(await core.supervisor.attach(session.id)));
            return session;
        }));
        expect(Math.max(...issued) - Math.min(...issued), 'all issued within 2 s').to.be.lessThan(2000);

        for (const session of sessions) {
            await sessionWhere(core, session.id, s => s.link === 'attached' || s.status === 'exited', `${session.workspace} to be attached`, 120_000);
        }
        const infos = sessions.map(s => core.supervisor.get(s.id)!);
        expect(infos.map(s => [s.workspace, s.status, s.link, s.endReason]), 'every launch runs').to.deep.equal(
            workspaces.map(ws => [ws, 'running', 'attached', undefined]));
        for (const ws of workspaces) {
            await views.get(ws)!.waitFor(PROMPT);
            expect(stripAnsi(views.get(ws)!.text), ws).not.to.match(/cannot stat|Dockerfile\.new|ERROR/);
        }
        expect(new Set(scratch.fakeContainers().filter(c => c.daemon).map(c => c.workspace))).to.deep.equal(new Set(workspaces));

        // The build gate: each `--start` began only after the one before it had exited.
        const entries = fs.readFileSync(log, 'utf8').trim().split('\n').map(line => line.split(' '));
        const begins = entries.filter(e => e[0] === 'begin').map(e => ({ at: Number(e[1]), ws: e[2] }));
        const ends = new Map(entries.filter(e => e[0] === 'end').map(e => [e[2], { at: Number(e[1]), rc: e[3] }]));
        expect(begins.map(b => b.ws).sort(), 'one --start per workspace').to.deep.equal([...workspaces].sort());
        expect([...ends.values()].map(e => e.rc), 'every --start succeeded').to.deep.equal(workspaces.map(() => '0'));
        const order = [...begins].sort((a, b) => a.at - b.at);
        for (let i = 1; i < order.length; i++) {
            const previousEnd = ends.get(order[i - 1].ws)!.at;
            expect(order[i].at, `--start in ${order[i].ws} began ${order[i].at - previousEnd} ms after the one in ${order[i - 1].ws} exited`)
                .to.be.at.least(previousEnd);
        }
        // The queue was really used: launches issued while another built said in their tab that they wait.
        const waited = workspaces.filter(ws => views.get(ws)!.has('Waiting for another launch to get past sandy\'s image build'));
        const firstEnd = ends.get(order[0].ws)!.at;
        const issuedDuringFirst = issued.filter(at => at < firstEnd).length - 1;
        expect(issuedDuringFirst, 'precondition: launches were issued while the first --start ran').to.be.greaterThan(0);
        expect(waited.length, `tabs that said they wait: ${waited.join(', ')}`).to.be.at.least(issuedDuringFirst);
        expect(waited, 'the first launch did not wait').not.to.include(order[0].ws);

        for (const session of sessions) {
            expect((await core.stop(session.id))!.endReason, session.workspace).to.equal('stopped');
        }
        await expectNothingLeft(workspaces);
    });

    describe('a foreground session whose IDE is SIGKILLed', () => {
        const signalLog = () => path.join(scratch.home, 'fake-signals.log');
        /** The fake's FAKE_SANDY_LOG: the signals its cleanup trap acted on. */
        const trapsRun = () => fs.existsSync(signalLog()) ? fs.readFileSync(signalLog(), 'utf8').trim().split('\n').filter(Boolean).map(l => l.split(' ')[0]) : [];
        const foregroundChild = (holdTerminal: boolean) => childCore(
            { config: { sessionMode: 'foreground', passEnv: ['FAKE_SANDY_DOCKER', 'FAKE_SANDY_LOG'] }, holdTerminal },
            { FAKE_SANDY_LOG: signalLog() });

        it('the fake sandy is hung up with its terminal: its HUP trap cleans up and releases the lock, so no orphan is left and none is listed', async () => {
            const { child, session } = await foregroundChild(false);
            expect(session.mode).to.equal('foreground');
            expect(scratch.lockPid(), 'the foreground sandy holds the lock').to.equal(String(session.pid));
            const remembered = sessionRecords().foreground[scratch.workspace];
            expect(remembered?.pid, 'the IDE remembered its pid').to.equal(session.pid);
            expect(remembered?.start, '…with when that process started (a reused pid is never it)').to.match(/^proc:\d+$/);

            await kill9(child);

            // The kernel hangs up the terminal's session when its master side closes with the IDE.
            await waitUntil(() => isGone(session.pid), 10_000, () => `the foreground sandy to end: ${describeProcess(session.pid)}`);
            expect(trapsRun()).to.deep.equal(['SIGHUP']);
            expect(fs.existsSync(scratch.lockDir()), 'its trap released the lock').to.equal(false);
            const core = await newCore();
            expect(await core.sessions(), 'no orphan: nothing of it runs').to.deep.equal([]);
            await expectNothingLeft();
        });

        it('a sandy whose terminal outlives the IDE (held open) keeps its lock: a new core lists it as an orphan; stop() signals its process group and the trap releases the lock', async () => {
            const { child, session } = await foregroundChild(true);
            const holder = session.holder!;
            await waitUntil(() => /(^|\/)sleep$/.test(commandLineOf(holder)[0] ?? ''), 2000, () => `the stand-in holding the terminal: ${describeProcess(holder)}`);

            await kill9(child);

            await sleep(1000);
            expect(isGone(session.pid), 'sandy was not hung up').to.equal(false);
            expect(scratch.lockPid()).to.equal(String(session.pid));
            const sent: SentSignal[] = [];
            const core = await newCore({}, { supervisor: new PtySupervisor(nodePtySpawn, { timings: { interruptGraceMs: 3000, terminateGraceMs: 2000 }, sendSignal: recordingSignals(sent) }) });
            const listed = (await core.sessions()).filter(s => s.workspace === scratch.workspace);
            expect(listed.map(s => [s.mode, s.origin, s.status, s.pid])).to.deep.equal([['foreground', 'orphan', 'running', session.pid]]);
            const view = await core.supervisor.attach(listed[0].id);
            expect(stripAnsi(view.replay)).to.include(`This sandy (pid ${session.pid}) was started in the foreground by an IDE that has since quit.`);

            const stopped = (await core.stop(listed[0].id))!;

            expect(stopped.status).to.equal('exited');
            expect(sent.map(s => s.signal), 'its SIGINT trap ended it').to.deep.equal(['SIGINT']);
            expect(isGone(session.pid)).to.equal(true);
            expect(trapsRun()).to.deep.equal(['SIGINT']);
            expect(fs.existsSync(scratch.lockDir()), 'lock released').to.equal(false);
            expect(sessionRecords().foreground, 'the IDE forgot it').to.deep.equal({});
            process.kill(holder, 'SIGKILL');
            await expectNothingLeft();
        });
    });

    describe('quitting the IDE', () => {
        it('with stopSessionsOnQuit, dispose() stops the daemon sessions: nothing is left', async () => {
            const core = await newCore({ stopSessionsOnQuit: true });
            const second = scratch.folder('ws-two');
            const one = await launchAttached(core);
            const two = await launchAttached(core, second);
            const supervisors = [daemonSupervisor(), daemonSupervisor(second)];

            await core.dispose();

            // `--stop` returned once each session was torn down (its container record gone); the processes exit with it.
            expect(scratch.fakeContainers(), 'fake containers right after dispose()').to.deep.equal([]);
            for (const pid of [one.session.pid, two.session.pid, ...supervisors]) {
                await waitUntil(() => isGone(pid), 5000, () => `${describeProcess(pid)} to end`);
            }
            await expectNothingLeft([scratch.workspace, second]);
        });

        it('by default, dispose() leaves the daemon sessions running (only our attach clients end)', async () => {
            const core = await newCore();
            const { session } = await launchAttached(core);
            const supervisorPid = daemonSupervisor();

            await core.dispose();

            await waitUntil(() => isGone(session.pid), 5000, 'our attach client to end');
            await sleep(500);
            expect(isGone(supervisorPid), 'the daemon supervisor').to.equal(false);
            expect(scratch.fakeContainers().map(c => [c.workspace, c.ready])).to.deep.equal([[scratch.workspace, true]]);
            expect(Number(scratch.lockPid())).to.equal(supervisorPid);
            // Ended here by a later IDE, as a user would.
            const next = await newCore();
            expect((await next.stop(session.id))!.endReason).to.equal('stopped');
            await expectNothingLeft();
        });
    });
});
