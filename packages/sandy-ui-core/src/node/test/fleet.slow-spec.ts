import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { FAKE_SANDY, FakeSandyService, startFakeSandyService } from './fake-sandy-service';

/**
 * Fleet maintenance through the service both hosts wrap, against the fake sandy (held to sandy 1.7.1's
 * `--gc`, `--remove-sandbox --orphans` and `--sandbox` outputs, fixtures 56, 64, 69, 99d): the plan is
 * sandy's dry run, the orphan removal never takes a sandbox whose recorded path sandy cut at a `"`.
 */
describe('SandyServiceCore fleet maintenance (slow)', function () {
    this.timeout(60_000);
    let fake: FakeSandyService | undefined;
    let home: string;
    let sandyHome: string;
    let service: FakeSandyService['service'];

    async function startService(docker: boolean): Promise<void> {
        await fake?.dispose();
        fake = await startFakeSandyService('fleet', { FAKE_SANDY_NO_DOCKER: docker ? '0' : 'not-running' });
        ({ home, sandyHome, service } = fake);
        expect(fake.service.sandyStatus.cliFlags).to.include('--gc').and.include('--remove-sandbox');
    }

    afterEach(async () => {
        await fake?.dispose();
        fake = undefined;
    });

    const launchOnce = (ws: string): string => {
        fs.mkdirSync(ws, { recursive: true });
        const r = spawnSync(FAKE_SANDY, ['-p', 'hi'], { cwd: ws, env: { HOME: home, PATH: '/usr/bin:/bin', FAKE_SANDY_NODE: process.execPath }, encoding: 'utf8' });
        expect(r.status, r.stderr).to.equal(0);
        const sandboxes = fs.readdirSync(path.join(sandyHome, 'sandboxes'));
        return sandboxes.map(n => path.join(sandyHome, 'sandboxes', n)).sort((a, b) => fs.statSync(b).ctimeMs - fs.statSync(a).ctimeMs)[0];
    };
    const calls = (): string[] => fake!.calls().map(c => c.args);

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
        expect(plan.targets).to.deep.equal([{ name: path.basename(goneBox), recordedPath: gone }]);
        expect(plan.untrusted?.map(u => u.name)).to.deep.equal([path.basename(quotedBox)]);
        expect(plan.nothingToDo).to.equal(false);
        expect(calls()).to.include('--remove-sandbox --orphans --dry-run');

        // Not run without the plan's sandboxes; run with them.
        await service.fleetRun('removeOrphans').then(() => expect.fail('ran without a plan'), (e: Error) => expect(e.message).to.contain('plan'));
        const result = await service.fleetRun('removeOrphans', { targets: plan.targets!.map(t => t.name) });
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
        const before = calls();
        await startService(false);
        const failed = await service.fleetPlan('gc');
        expect(failed).to.deep.include({ ok: false, exitCode: 1 });
        expect(failed.text).to.contain('--gc requires a reachable Docker daemon.');
        expect([...before, ...calls()].filter(c => c.startsWith('--gc'))).to.deep.equal(['--gc --dry-run', '--gc --dry-run']);
    });

    it('refuses what sandy does not offer and anything that is not an action: nothing runs', async () => {
        await startService(false);
        for (const bad of ['doctor', 'rm -rf', '__proto__', 'constructor']) {
            await service.fleetPlan(bad as 'gc').then(() => expect.fail(`${bad} was planned`), (e: Error) => expect(e.message).to.match(/does not offer/));
            await service.fleetRun(bad as 'gc').then(() => expect.fail(`${bad} ran`), (e: Error) => expect(e.message).to.match(/does not offer/));
        }
        expect(calls().filter(c => !/^--(version|print-|validate)/.test(c))).to.deep.equal([]);
    });

    it('the run removes only what the plan showed: a sandbox orphaned while the dialog was open stays', async () => {
        await startService(false);
        const first = path.join(home, 'code', 'first');
        const later = path.join(home, 'code', 'later');
        const firstBox = launchOnce(first);
        const laterBox = launchOnce(later);
        fs.rmSync(first, { recursive: true });
        const plan = await service.fleetPlan('removeOrphans');
        expect(plan.targets?.map(t => t.name)).to.deep.equal([path.basename(firstBox)]);
        // The user reads the plan; meanwhile another project's folder goes (renamed, a disk unmounted).
        fs.rmSync(later, { recursive: true });
        const result = await service.fleetRun('removeOrphans', { targets: plan.targets!.map(t => t.name) });
        expect(result.ok, result.stderr).to.equal(true);
        expect(fs.existsSync(firstBox)).to.equal(false);
        expect(fs.existsSync(laterBox), 'not in the plan the user accepted').to.equal(true);
    });
});
