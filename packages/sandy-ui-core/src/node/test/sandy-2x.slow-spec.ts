/**
 * The service on the fake sandy in each of its two voices (FAKE_SANDY_VERSION): 2.7.1 (schema 4; its
 * introspection from sandy's own documents) and 1.7.1 (the sandy that runs here). What differs for the
 * IDE: the compat gate, `--approvals` asked only where offered, the lock sweep left to a sandy that sweeps.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { lockDirFor, sandboxNameFor } from '../sandy/lock-sweep';
import { FakeSandyService, startFakeSandyService } from './fake-sandy-service';

/** A pid that is certainly not running (beyond any pid_max). */
const DEAD_PID = '4194999';

for (const version of ['2.7.1', '1.7.1'] as const) {
    describe(`SandyServiceCore on the fake sandy speaking ${version} (slow)`, () => {
        let fake: FakeSandyService;
        let workspace: string;

        beforeEach(async () => {
            fake = await startFakeSandyService(`v${version}`, version === '2.7.1' ? { FAKE_SANDY_VERSION: '2.7.1' } : {});
            workspace = path.join(fake.home, 'proj');
            fs.mkdirSync(path.join(workspace, '.sandy'), { recursive: true });
        });
        afterEach(async () => {
            await fake?.dispose();
        });

        const approvalsCalls = () => fake.calls().filter(c => c.argv[0] === '--approvals');

        it(version === '2.7.1'
            ? 'found as sandy 2.7.1, schema 4, the gate silent; --approvals asked (flag first, the workspace one argument) and its pending gate shown with the value'
            : 'found as sandy 1.7.1-dev, schema 1; never asked --approvals (a 1.7.1 sandy would start a launch), the files decide', async () => {
            const status = fake.service.sandyStatus;
            expect(status.fullVersion).to.equal(version === '2.7.1' ? '2.7.1' : '1.7.1-dev');
            expect(status.schemaVersion).to.equal(version === '2.7.1' ? 4 : 1);
            expect(status.compat?.severity ?? 'none').to.equal('none');
            expect(status.cliFlags?.includes('--approvals')).to.equal(version === '2.7.1');

            fs.writeFileSync(path.join(workspace, '.sandy', 'config'), 'SANDY_SSH=agent\n');
            const request = await fake.service.preflight(workspace);
            expect(request?.kind).to.equal('approve');
            expect(request?.lines.map(l => l.text)).to.deep.equal(['SANDY_SSH=agent']);
            if (version === '2.7.1') {
                expect(approvalsCalls().map(c => c.argv)).to.deep.equal([['--approvals', '--workspace', workspace]]);
            } else {
                expect(approvalsCalls()).to.deep.equal([]);
            }
        });

        it('sandbox sizes: none from the light polls; a refresh reads the full state once beside them, and the size stays through the light polls after', async () => {
            const name = sandboxNameFor(workspace);
            const box = path.join(fake.sandyHome, 'sandboxes', name);
            fs.mkdirSync(box, { recursive: true });
            fs.writeFileSync(path.join(box, 'blob'), Buffer.alloc(64 * 1024, 1));
            await fake.service.poller.pollFresh();
            const size = async () => (await fake.service.snapshot()).projects.find(p => p.sandboxName === name)?.sizeBytes;
            expect(await size(), 'a light poll has no size').to.equal(undefined);
            const fullBefore = fake.calls().filter(c => c.args === '--print-state').length;
            await fake.service.refresh();
            // The full read runs beside the refresh (a slow du holds nothing up); a poll then shows the size.
            for (let i = 0; i < 100 && await size() === undefined; i++) {
                await new Promise(r => setTimeout(r, 50));
            }
            expect(await size()).to.be.at.least(64 * 1024);
            expect(fake.calls().filter(c => c.args === '--print-state').length, 'one full read').to.equal(fullBefore + 1);
            await fake.service.poller.pollFresh();
            expect(fake.calls().at(-1)?.args).to.equal('--print-state light');
            expect(await size(), 'kept through a light poll').to.be.at.least(64 * 1024);
            await fake.service.refresh();
            expect(fake.calls().filter(c => c.args === '--print-state').length, 'no second du within ten minutes, however often refreshed').to.equal(fullBefore + 1);
        });

        it(version === '2.7.1'
            ? 'a stale lock is left to sandy 2.x, which sweeps its own (their layout is not a contract)'
            : 'a stale lock of a dead sandy is swept before the launch, and the launch says so', async () => {
            const lock = lockDirFor(fake.sandyHome, sandboxNameFor(workspace));
            fs.mkdirSync(lock, { recursive: true });
            fs.writeFileSync(path.join(lock, 'pid'), `${DEAD_PID}\n`);
            const prepared = await fake.service.prepareLaunch(workspace, {});
            expect(prepared.kind).to.equal('ready');
            const warnings = prepared.kind === 'ready' ? prepared.warnings : [];
            if (version === '2.7.1') {
                expect(fs.existsSync(lock), 'the lock untouched').to.equal(true);
                expect(warnings.join('\n')).to.not.match(/stale lock/);
            } else {
                expect(fs.existsSync(lock), 'the lock removed').to.equal(false);
                expect(warnings.join('\n')).to.match(new RegExp(`Removed a stale lock left by a dead sandy \\(pid ${DEAD_PID}\\)`));
            }
        });
    });
}
