/*
 * The daemon-session flow of core against a REAL sandy, not the fake: `sandy --start` on a PTY, the
 * `--attach` client, typed input, a second IDE process finding the session, another terminal's
 * `sandy --attach` taking it (Take Back), `sandy --stop`, and nothing left behind.
 *
 * Opt-in, because CI has neither sandy nor Docker: set SANDY_BIN to a sandy checkout's `sandy`
 * script and SANDY_STUB_DOCKER to the stub docker that runs daemon mode without a Docker engine
 * (each "container" a detached host tmux session; ../shared/sandy/stub-docker/stub-docker-daemon.sh
 * on the development machine). Without them the suite says so and skips. Last run: sandy 1.7.1 with
 * that stub, all green (see the closing note of issue 10).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expect } from 'chai';
import { ptySpawnFrom, SandyServiceCore } from '@sandy-ui/core/node';
import type { NodePtyModuleLike } from '@sandy-ui/core/node';
import { poll } from '../support/poll';

// The root's node-pty (a native module the test package does not declare; the backend does).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodePty = require('node-pty') as NodePtyModuleLike & { spawn(file: string, args: string[], o: object): { onData(l: (d: string) => void): void; kill(): void } };

const SANDY = process.env.SANDY_BIN;
const STUB = process.env.SANDY_STUB_DOCKER;

describe('daemon sessions against a real sandy (SANDY_BIN + SANDY_STUB_DOCKER)', function () {
    this.timeout(180_000);
    let base: string;
    let env: Record<string, string>;
    let ws: string;
    const cores: SandyServiceCore[] = [];

    before(function () {
        if (!SANDY || !STUB) {
            // Shown by mocha as pending: "needs SANDY_BIN + SANDY_STUB_DOCKER" is the suite's title.
            this.skip();
        }
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'real-daemon-')));
        const bin = path.join(base, 'bin');
        for (const d of ['home', 'ws', 'bin', 'tmp']) {
            fs.mkdirSync(path.join(base, d));
        }
        fs.copyFileSync(STUB!, path.join(bin, 'docker-stub'));
        fs.chmodSync(path.join(bin, 'docker-stub'), 0o755);
        // The stub, behind a wrapper that holds `docker info` (sandy's first docker call, before it reads
        // any config) while the file slow-docker-info exists: a slow start, at a test's request.
        fs.writeFileSync(path.join(bin, 'docker'), `#!/bin/bash\nif [ "$1" = info ] && [ -e '${base}/slow-docker-info' ]; then sleep 1.5; fi\nexec '${bin}/docker-stub' "$@"\n`);
        fs.chmodSync(path.join(bin, 'docker'), 0o755);
        fs.symlinkSync(path.resolve(SANDY!), path.join(bin, 'sandy'));
        ws = path.join(base, 'ws');
        // The scripted agent: says it is ready, records every line typed into it, echoes it; a Ctrl+C it records too.
        const agent = path.join(base, 'agent.sh');
        fs.writeFileSync(agent, `#!/bin/bash\ntrap 'echo "^C" >> ${base}/typed.txt; echo "AGENT INT"' INT\necho "AGENT READY"\n`
            + `while :; do IFS= read -r line; rc=$?; if [ $rc -eq 0 ]; then echo "$line" >> ${base}/typed.txt; echo "echo: $line"; elif [ $rc -le 128 ]; then break; fi; done\n`);
        fs.chmodSync(agent, 0o755);
        env = {
            HOME: path.join(base, 'home'), PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, LANG: 'C.UTF-8', TMPDIR: path.join(base, 'tmp'),
            STUB_STATE: path.join(base, 'stub-state'), STUB_RUN_EXEC: agent, STUB_DOCKER_LOG: path.join(base, 'docker.log'),
            SANDY_IDE_DATA_DIR: path.join(base, 'ide')
        };
    });

    after(async () => {
        for (const c of cores) {
            await c.dispose().catch(() => undefined);
        }
    });

    const core = async (): Promise<SandyServiceCore> => {
        const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
        const c = new SandyServiceCore({ logger, spawnPty: ptySpawnFrom(nodePty), env, home: env.HOME });
        cores.push(c);
        c.start();
        await c.configure({ passEnv: ['STUB_STATE', 'STUB_RUN_EXEC', 'STUB_DOCKER_LOG', 'TMPDIR'] });
        return c;
    };
    const typed = () => fs.existsSync(path.join(base, 'typed.txt')) ? fs.readFileSync(path.join(base, 'typed.txt'), 'utf8') : '';

    it('Attack (foreground): a key\'s value swapped after Approve and put back at sandy\'s prompt: sandy\'s record of what the user never saw is removed and the session stopped', async () => {
        const c = await core();
        await c.configure({ passEnv: ['STUB_STATE', 'STUB_RUN_EXEC', 'STUB_DOCKER_LOG', 'TMPDIR'], sessionMode: 'foreground' });
        const keysWs = path.join(base, 'ws-keys');
        const config = path.join(keysWs, '.sandy', 'config');
        fs.mkdirSync(path.dirname(config), { recursive: true });
        const shown = 'SANDY_ALLOW_HOSTS=gates.example.com\n';
        fs.writeFileSync(config, shown);
        const request = await c.preflight(keysWs);
        expect(request!.lines.map(l => l.text)).to.deep.equal(['SANDY_ALLOW_HOSTS=gates.example.com']);
        fs.writeFileSync(path.join(base, 'slow-docker-info'), '');
        let outcome;
        try {
            outcome = await c.launch({ workspace: keysWs, cols: 100, rows: 30, approvalToken: request!.token });
            // While sandy waits on `docker info`: another value for the key the user approved.
            fs.writeFileSync(config, 'SANDY_ALLOW_HOSTS=evil.example.com\n');
        } finally {
            fs.rmSync(path.join(base, 'slow-docker-info'));
        }
        expect(outcome.kind).to.equal('launched');
        const id = (outcome as { session: { id: string } }).session.id;
        // Put back the moment sandy asks (it shows the key's name only).
        let screen = '';
        let restored = false;
        c.supervisor.onData(id)(data => {
            screen += data;
            if (!restored && screen.includes('Approve these keys for this workspace?')) {
                fs.writeFileSync(config, shown);
                restored = true;
            }
        });
        const ended = await poll(() => c.supervisor.get(id)?.status === 'exited' && c.supervisor.get(id), { timeout: 60_000, message: 'the session to be stopped' });
        expect(screen, 'the tab answered sandy (its re-check saw the approved file)').to.match(/Approve these keys for this workspace\? \[y\/N\] y/);
        expect(ended).to.include({ endReason: 'approval-changed' });
        expect(fs.readdirSync(path.join(env.HOME, '.sandy', 'approvals')), 'sandy\'s record of the swapped value is removed').to.deep.equal([]);
        expect((await c.preflight(keysWs))?.lines.map(l => l.text), 'the next launch asks again').to.deep.equal(['SANDY_ALLOW_HOSTS=gates.example.com']);
    });

    it('starts, attaches, survives the IDE process, is taken by another terminal and back, and stops clean', async () => {
        const first = await core();
        const outcome = await first.launch({ workspace: ws, cols: 100, rows: 30 });
        expect(outcome.kind).to.equal('launched');
        const id = (outcome as { session: { id: string } }).session.id;
        expect(first.supervisor.get(id)).to.include({ mode: 'daemon', link: 'starting' });
        await poll(() => first.supervisor.get(id)?.link === 'attached', { timeout: 120_000, message: 'the attach client after --start' });
        const view = await first.supervisor.attach(id);
        let screen = view.replay;
        view.onData(d => screen += d);
        await poll(() => screen.includes('AGENT READY'), { timeout: 20_000, message: 'the agent on the screen' });
        view.write('hello\r');
        await poll(() => typed().includes('hello'), { timeout: 10_000, message: 'typed input at the agent' });
        await first.dispose();

        const second = await core();
        const found = (await second.sessions()).find(s => s.id === id);
        expect(found).to.include({ status: 'running', origin: 'ide', mode: 'daemon' });
        await poll(() => second.supervisor.get(id)?.link === 'attached', { timeout: 20_000, message: 'attached again after the restart' });
        const replay = await poll(async () => {
            const view = await second.supervisor.attach(id);
            view.dispose();
            return view.replay.includes('echo: hello') && view.replay;
        }, { timeout: 10_000, message: 'the screen after the restart' });
        expect(replay, 'a replay holds no OSC').to.not.contain('\x1b]');

        const shell = nodePty.spawn('sandy', ['--attach'], { cwd: ws, env, cols: 80, rows: 24 });
        try {
            await poll(() => second.supervisor.get(id)?.link === 'elsewhere', { timeout: 20_000, message: 'attached in another terminal' });
            const view = await second.supervisor.attach(id);
            second.supervisor.takeBack(id);
            // Typed at once, into the fresh --attach client before it drew anything (its terminal still cooked,
            // where a Ctrl+C would end the client): it reaches the agent once the client is up.
            view.write('\x03');
            view.write('typed-at-take-back\r');
            await poll(() => second.supervisor.get(id)?.link === 'attached', { timeout: 20_000, message: 'taken back' });
            await poll(() => typed().includes('typed-at-take-back'), { timeout: 10_000, message: 'the keys typed at Take Back at the agent' });
            expect(typed(), 'the Ctrl+C went to the agent, before the line').to.match(/\^C\ntyped-at-take-back/);
            expect(second.supervisor.get(id)).to.include({ link: 'attached', status: 'running' });
            view.dispose();
        } finally {
            shell.kill();
        }
        const stopped = await second.stop(id);
        expect(stopped).to.include({ status: 'exited', endReason: 'stopped' });
        expect(fs.readdirSync(path.join(env.HOME, '.sandy', 'sandboxes')).filter(n => n.endsWith('.lock'))).to.deep.equal([]);
        expect(fs.readdirSync(path.join(env.STUB_STATE, 'd'))).to.deep.equal([]);
    });
});
