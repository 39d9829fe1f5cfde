import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SandyServiceCore } from '../service/sandy-service';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');
const FAKE_SANDY = path.join(REPO_ROOT, 'test', 'fake-sandy', 'bin', 'sandy');

/**
 * Fleet maintenance through the service both hosts wrap, against the fake sandy (held to sandy 1.7.1's
 * `--gc`, `--remove-sandbox --orphans` and `--sandbox` outputs, fixtures 56, 64, 69, 99d): the plan is
 * sandy's dry run, the orphan removal never takes a sandbox whose recorded path sandy cut at a `"`.
 */
describe('SandyServiceCore fleet maintenance (slow)', function () {
    this.timeout(60_000);
    let root: string;
    let home: string;
    let sandyHome: string;
    let log: string;
    let service: SandyServiceCore;
    let savedEnv: Record<string, string | undefined>;
    const touched = ['HOME', 'SANDY_HOME', 'FAKE_SANDY_NODE'];

    before(() => {
        if (!fs.existsSync(path.join(REPO_ROOT, 'test', 'lib', 'fake-sandy', 'main.js'))) {
            throw new Error('The fake sandy is not compiled; run `npx tsc -b test` first.');
        }
    });

    async function startService(docker: boolean): Promise<void> {
        const wrapper = path.join(root, 'bin', 'sandy');
        fs.mkdirSync(path.dirname(wrapper), { recursive: true });
        fs.writeFileSync(wrapper, `#!/usr/bin/env bash\nprintf '%s\\t%s\\n' "$PWD" "$*" >> '${log}'\nexec '${FAKE_SANDY}' "$@"\n`, { mode: 0o755 });
        const env: Record<string, string> = { HOME: home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', FAKE_SANDY_NODE: process.execPath, FAKE_SANDY_NO_DOCKER: docker ? '0' : 'not-running' };
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY in these tests'); },
            env, home, dataDir: path.join(root, 'ide-data')
        });
        service.start();
        const status = await service.configure({ sandyPath: wrapper, passEnv: ['FAKE_SANDY_NODE', 'FAKE_SANDY_NO_DOCKER'] });
        expect(status.found, JSON.stringify(status)).to.equal(true);
        expect(status.cliFlags).to.include('--gc').and.include('--remove-sandbox');
    }

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-fleet-')));
        home = path.join(root, 'home');
        sandyHome = path.join(home, '.sandy');
        fs.mkdirSync(home, { recursive: true });
        log = path.join(root, 'sandy-calls.log');
        savedEnv = Object.fromEntries(touched.map(n => [n, process.env[n]]));
        process.env.HOME = home;
        process.env.FAKE_SANDY_NODE = process.execPath;
        delete process.env.SANDY_HOME;
    });
    afterEach(async () => {
        await service.poller.pollNow();
        await service.dispose();
        for (const n of touched) {
            if (savedEnv[n] === undefined) {
                delete process.env[n];
            } else {
                process.env[n] = savedEnv[n];
            }
        }
        fs.rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    });

    const launchOnce = (ws: string): string => {
        fs.mkdirSync(ws, { recursive: true });
        const r = spawnSync(FAKE_SANDY, ['-p', 'hi'], { cwd: ws, env: { HOME: home, PATH: '/usr/bin:/bin', FAKE_SANDY_NODE: process.execPath }, encoding: 'utf8' });
        expect(r.status, r.stderr).to.equal(0);
        const sandboxes = fs.readdirSync(path.join(sandyHome, 'sandboxes'));
        return sandboxes.map(n => path.join(sandyHome, 'sandboxes', n)).sort((a, b) => fs.statSync(b).ctimeMs - fs.statSync(a).ctimeMs)[0];
    };
    const calls = (): string[] => fs.readFileSync(log, 'utf8').trim().split('\n').map(l => l.split('\t')[1]);

    it('orphans: sandy\'s plan shown, only sandboxes whose recorded folder is gone and matches their name removed, by name; a quote-cut path is left alone', async () => {
        await startService(false);
        const alive = path.join(home, 'code', 'alive');
        const gone = path.join(home, 'code', 'gone');
        const quoted = path.join(home, 'code', 'we "quote" it');
        const aliveBox = launchOnce(alive);
        const goneBox = launchOnce(gone);
        const quotedBox = launchOnce(quoted);
        fs.rmSync(gone, { recursive: true });

        const plan = await service.fleetPlan('removeOrphans');
        expect(plan.ok, plan.text).to.equal(true);
        // sandy's own dry run takes both "orphans" (its false positive, fixture 56); the IDE only one.
        expect(plan.text).to.contain('sandy --remove-sandbox: 2 target(s)').and.contain(path.basename(goneBox)).and.contain(path.basename(quotedBox));
        expect(plan.targets).to.deep.equal([path.basename(goneBox)]);
        expect(plan.untrusted?.map(u => u.name)).to.deep.equal([path.basename(quotedBox)]);
        expect(plan.nothingToDo).to.equal(false);
        expect(calls()).to.include('--remove-sandbox --orphans --dry-run');

        const result = await service.fleetRun('removeOrphans');
        expect(result.ok, result.stderr).to.equal(true);
        expect(fs.existsSync(goneBox)).to.equal(false);
        expect(fs.existsSync(quotedBox), 'the project with a " in its path keeps its sandbox').to.equal(true);
        expect(fs.existsSync(aliveBox)).to.equal(true);
        expect(calls().filter(c => c.includes('--remove-sandbox') && !c.includes('--dry-run'))).to.deep.equal([`--remove-sandbox --sandbox=${path.basename(goneBox)} --yes`]);
        expect(calls().some(c => c.includes('--orphans --yes')), 'sandy\'s --orphans never runs for real').to.equal(false);
    });

    it('--gc: the dry run first; "Nothing to reclaim" is nothing to do; without Docker the plan fails with sandy\'s words and nothing runs', async () => {
        await startService(true);
        const plan = await service.fleetPlan('gc');
        expect(plan).to.deep.include({ ok: true, nothingToDo: true, exitCode: 0 });
        expect(plan.text).to.contain('sandy --gc: reclaim plan').and.contain('Nothing to reclaim.');
        await service.dispose();
        await startService(false);
        const failed = await service.fleetPlan('gc');
        expect(failed).to.deep.include({ ok: false, exitCode: 1 });
        expect(failed.text).to.contain('--gc requires a reachable Docker daemon.');
        expect(calls().filter(c => c.startsWith('--gc'))).to.deep.equal(['--gc --dry-run', '--gc --dry-run']);
    });

    it('refuses what sandy does not offer and anything that is not an action: nothing runs', async () => {
        await startService(false);
        for (const bad of ['doctor', 'rm -rf', '__proto__', 'constructor']) {
            await service.fleetPlan(bad as 'gc').then(() => expect.fail(`${bad} was planned`), (e: Error) => expect(e.message).to.match(/does not offer/));
            await service.fleetRun(bad as 'gc').then(() => expect.fail(`${bad} ran`), (e: Error) => expect(e.message).to.match(/does not offer/));
        }
        expect(calls().filter(c => !/^--(version|print-|validate)/.test(c))).to.deep.equal([]);
    });
});
