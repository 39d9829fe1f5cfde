/*
 * Issue 13's two real-sandy checks, through the service both hosts wrap (what the IDE shows comes from
 * these answers): the fleet maintenance plan of `--gc` (sandy's own `--dry-run`, verbatim) and an
 * "Ask the Agent Once" answer (`sandy -p` in the project, sandy's `[sandy]` lines kept apart).
 *
 * Opt-in like daemon-real.slow-spec: SANDY_BIN (a sandy checkout's `sandy`) and SANDY_STUB_DOCKER (the
 * stub docker, ../shared/sandy/stub-docker/stub-docker-daemon.sh). Without them the suite skips. Last run:
 * sandy 1.7.1 with that stub, green (issue 13's closing note).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expect } from 'chai';
import { SandyServiceCore } from '@sandy-ui/core/node';

const SANDY = process.env.SANDY_BIN;
const STUB = process.env.SANDY_STUB_DOCKER;

describe('fleet maintenance and a headless answer against a real sandy (SANDY_BIN + SANDY_STUB_DOCKER)', function () {
    this.timeout(180_000);
    let base: string;
    let ws: string;
    let core: SandyServiceCore;
    let env: Record<string, string>;

    before(async function () {
        if (!SANDY || !STUB) {
            this.skip();
        }
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'real-fleet-')));
        const bin = path.join(base, 'bin');
        for (const d of ['home', 'bin', 'tmp']) {
            fs.mkdirSync(path.join(base, d));
        }
        ws = path.join(base, 'home', 'proj');
        fs.mkdirSync(ws);
        fs.copyFileSync(STUB!, path.join(bin, 'docker'));
        fs.chmodSync(path.join(bin, 'docker'), 0o755);
        fs.symlinkSync(path.resolve(SANDY!), path.join(bin, 'sandy'));
        env = {
            HOME: path.join(base, 'home'), PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, LANG: 'C.UTF-8', TMPDIR: path.join(base, 'tmp'),
            STUB_STATE: path.join(base, 'stub-state'), STUB_DOCKER_LOG: path.join(base, 'docker.log'),
            STUB_RUN_EXEC: 'echo REAL-SANDY-HEADLESS-ANSWER 42', SANDY_IDE_DATA_DIR: path.join(base, 'ide')
        };
        core = new SandyServiceCore({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined }, spawnPty: () => { throw new Error('no PTY here'); }, env, home: env.HOME });
        core.start();
        const status = await core.configure({ passEnv: ['STUB_STATE', 'STUB_DOCKER_LOG', 'STUB_RUN_EXEC', 'TMPDIR'] });
        expect(status.found, JSON.stringify(status)).to.equal(true);
    });

    after(async () => {
        await core?.dispose().catch(() => undefined);
        if (base) {
            fs.rmSync(base, { recursive: true, force: true });
        }
    });

    it('--gc: sandy\'s own dry-run plan, verbatim; nothing removed by asking', async () => {
        const plan = await core.fleetPlan('gc');
        expect(plan.ok, plan.text).to.equal(true);
        // What sandy itself prints for the same dry run, run by hand in the same world.
        const byHand = spawnSync(path.join(base, 'bin', 'sandy'), ['--gc', '--dry-run'], { cwd: base, env, encoding: 'utf8' });
        expect(byHand.status).to.equal(0);
        expect(plan.text.trim()).to.equal(`${byHand.stdout}${byHand.stderr}`.trim());
        expect(plan.text.trim()).to.not.equal('');
        const calls = fs.readFileSync(path.join(base, 'docker.log'), 'utf8');
        expect(calls, 'a dry run removes nothing').to.not.match(/\b(rm|rmi|network rm)\b/);
    });

    it('Ask the Agent Once: sandy -p in the project; the answer apart from sandy\'s lines, in the history', async () => {
        const outcome = await core.runHeadless(ws, 'what is the answer?');
        expect(outcome.ok, JSON.stringify(outcome)).to.equal(true);
        expect(outcome.answer).to.include('REAL-SANDY-HEADLESS-ANSWER 42');
        expect(outcome.answer).to.not.match(/\[sandy\]/);
        expect(outcome.sandyLines.length).to.be.greaterThan(0);
        expect(outcome.historyId).to.be.a('string');
        const history = await core.readHistory(outcome.historyId!);
        expect(history?.text ?? JSON.stringify(history)).to.include('REAL-SANDY-HEADLESS-ANSWER 42');
    });
});
