import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SandyServiceCore } from '../service/sandy-service';
import { sandboxNameFor } from '../sandy/lock-sweep';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');
const FAKE_SANDY = path.join(REPO_ROOT, 'test', 'fake-sandy', 'bin', 'sandy');

/**
 * Remove Sandbox through the service both hosts wrap, against the fake sandy (which implements
 * sandy 1.7.1's `--remove-sandbox` selectors, test/src/fake-sandy/maintenance.ts). The user's case:
 * a project was launched once, then its folder was deleted (or moved); its sandbox still holds
 * the agent's state and must be removable from the Projects list.
 */
describe('SandyServiceCore maintenance runs (slow)', function () {
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

    beforeEach(async () => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-rm-')));
        home = path.join(root, 'home');
        sandyHome = path.join(home, '.sandy');
        fs.mkdirSync(home, { recursive: true });
        log = path.join(root, 'sandy-calls.log');
        // The service's state polls read the process environment (as in both hosts), so HOME is set there too.
        savedEnv = Object.fromEntries(touched.map(n => [n, process.env[n]]));
        process.env.HOME = home;
        process.env.FAKE_SANDY_NODE = process.execPath;
        delete process.env.SANDY_HOME;
        // A sandy that records where it was started and with what, then is the fake sandy.
        const wrapper = path.join(root, 'bin', 'sandy');
        fs.mkdirSync(path.dirname(wrapper), { recursive: true });
        fs.writeFileSync(wrapper, `#!/usr/bin/env bash\nprintf '%s\\t%s\\n' "$PWD" "$*" >> '${log}'\nexec '${FAKE_SANDY}' "$@"\n`, { mode: 0o755 });
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY in these tests'); },
            env: { HOME: home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', FAKE_SANDY_NODE: process.execPath },
            home,
            dataDir: path.join(root, 'ide-data')
        });
        service.start();
        const status = await service.configure({ sandyPath: wrapper, passEnv: ['FAKE_SANDY_NODE'] });
        expect(status.found, JSON.stringify(status)).to.equal(true);
    });
    afterEach(async () => {
        // Let the polls a maintenance run queued finish before their HOME is deleted.
        await service.poller.pollNow();
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

    /** A real first launch of the fake in `ws` (headless), which creates its sandbox and WORKSPACE.json. */
    const launchOnce = (ws: string): string => {
        fs.mkdirSync(ws, { recursive: true });
        const r = spawnSync(FAKE_SANDY, ['-p', 'hi'], { cwd: ws, env: { HOME: home, PATH: '/usr/bin:/bin', FAKE_SANDY_NODE: process.execPath }, encoding: 'utf8' });
        expect(r.status, r.stderr).to.equal(0);
        const dir = path.join(sandyHome, 'sandboxes', sandboxNameFor(ws));
        expect(fs.existsSync(path.join(dir, 'WORKSPACE.json')), 'precondition: the sandbox exists').to.equal(true);
        return dir;
    };
    const calls = (): Array<{ cwd: string; args: string }> => fs.readFileSync(log, 'utf8').trim().split('\n')
        .map(l => l.split('\t')).map(([cwd, args]) => ({ cwd, args }));
    const maintenanceCalls = (): Array<{ cwd: string; args: string }> => calls().filter(c => /--(remove|reset)-sandbox/.test(c.args));

    for (const polled of [true, false]) {
        it(`removes the sandbox of a project whose folder is gone (${polled ? 'name from --print-state' : 'before any poll: name computed as sandy does'})`, async () => {
            const gone = path.join(home, 'code', 'deleted-project');
            const kept = path.join(home, 'code', 'other-project');
            const goneSandbox = launchOnce(gone);
            const keptSandbox = launchOnce(kept);
            if (polled) {
                const snapshot = await service.refresh();
                expect(snapshot.projects.map(p => p.workspacePath)).to.include(gone);
            }
            fs.rmSync(gone, { recursive: true, force: true });

            const result = await service.removeSandbox(gone);

            expect(result.ok, `${result.stderr}${result.stdout}`).to.equal(true);
            expect(fs.existsSync(goneSandbox), 'the gone project\'s sandbox was removed').to.equal(false);
            expect(fs.existsSync(keptSandbox), 'no other sandbox was touched').to.equal(true);
            // By name, not through the vanished folder; run in sandy's own folder, not there and not in $HOME.
            expect(maintenanceCalls()).to.deep.equal([{ cwd: sandyHome, args: `--remove-sandbox --sandbox=${path.basename(goneSandbox)} --yes` }]);
        });
    }

    it('removes the sandbox of a project whose folder still exists, selecting it by name, run outside the workspace', async () => {
        const ws = path.join(home, 'code', 'live-project');
        const sandbox = launchOnce(ws);
        await service.refresh();
        const result = await service.removeSandbox(ws);
        expect(result.ok, result.stderr).to.equal(true);
        expect(fs.existsSync(sandbox)).to.equal(false);
        expect(fs.existsSync(ws), 'the project folder itself is untouched').to.equal(true);
        expect(maintenanceCalls()).to.deep.equal([{ cwd: sandyHome, args: `--remove-sandbox --sandbox=${path.basename(sandbox)} --yes` }]);
    });

    it('removes a sandbox sandy does not list (a dot-folder project: --print-state skips it, --sandbox refuses it) by its existing folder', async () => {
        const ws = path.join(home, '.dotfiles');
        const sandbox = launchOnce(ws);
        expect(path.basename(sandbox)).to.match(/^\.dotfiles-/);
        await service.refresh();
        const result = await service.removeSandbox(ws);
        expect(result.ok, result.stderr).to.equal(true);
        expect(fs.existsSync(sandbox)).to.equal(false);
        expect(maintenanceCalls()).to.deep.equal([{ cwd: sandyHome, args: `--remove-sandbox --workspace ${ws} --yes` }]);
    });

    it('says what sandy says when there is no such sandbox, instead of failing to start sandy', async () => {
        fs.mkdirSync(path.join(sandyHome, 'sandboxes'), { recursive: true });
        const result = await service.removeSandbox(path.join(home, 'never-launched'));
        expect(result.ok).to.equal(false);
        expect(result.exitCode).to.equal(1);
        expect(result.stderr).to.match(/no sandbox named never-launched-[0-9a-f]{8}/);
        expect(result.stderr).not.to.match(/not found at|could not be started/);
    });

    it('rebuilds (--reset-sandbox) with the workspace named by flag, also run outside it', async () => {
        const ws = path.join(home, 'code', 'reset-project');
        launchOnce(ws);
        const result = await service.rebuildSandbox(ws);
        expect(result.ok, result.stderr).to.equal(true);
        expect(maintenanceCalls()).to.deep.equal([{ cwd: sandyHome, args: `--reset-sandbox --workspace ${ws} --keep-approvals --yes` }]);
    });
});
