import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { sandboxNameFor } from '../sandy/lock-sweep';
import { FAKE_SANDY, FakeSandyService, startFakeSandyService } from './fake-sandy-service';

/**
 * Remove Sandbox through the service both hosts wrap, against the fake sandy (which implements
 * sandy 1.7.1's `--remove-sandbox` selectors, test/src/fake-sandy/maintenance.ts). The user's case:
 * a project was launched once, then its folder was deleted (or moved); its sandbox still holds
 * the agent's state and must be removable from the Projects list.
 */
describe('SandyServiceCore maintenance runs (slow)', function () {
    this.timeout(60_000);
    let fake: FakeSandyService;
    let home: string;
    let sandyHome: string;
    let service: FakeSandyService['service'];

    beforeEach(async () => {
        fake = await startFakeSandyService('rm');
        ({ home, sandyHome, service } = fake);
    });
    afterEach(() => fake.dispose());

    /** A real first launch of the fake in `ws` (headless), which creates its sandbox and WORKSPACE.json. */
    const launchOnce = (ws: string): string => {
        fs.mkdirSync(ws, { recursive: true });
        const r = spawnSync(FAKE_SANDY, ['-p', 'hi'], { cwd: ws, env: { HOME: home, PATH: '/usr/bin:/bin', FAKE_SANDY_NODE: process.execPath }, encoding: 'utf8' });
        expect(r.status, r.stderr).to.equal(0);
        const dir = path.join(sandyHome, 'sandboxes', sandboxNameFor(ws));
        expect(fs.existsSync(path.join(dir, 'WORKSPACE.json')), 'precondition: the sandbox exists').to.equal(true);
        return dir;
    };
    const calls = (): Array<{ cwd: string; args: string }> => fake.calls().map(({ cwd, args }) => ({ cwd, args }));
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
