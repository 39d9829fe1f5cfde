import { expect } from 'chai';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lockDirFor, sandboxNameFor, sweepLocks } from './lock-sweep';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';

function errno(code: string): Error {
    return Object.assign(new Error(code), { code });
}

describe('lock-sweep (unit)', () => {
    let root: string;
    let home: string;
    let workspace: string;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-lock-')));
        home = path.join(root, '.sandy');
        workspace = path.join(root, 'my project');
        fs.mkdirSync(path.join(home, 'sandboxes'), { recursive: true });
        fs.mkdirSync(workspace);
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const makeLock = (ws: string, pid?: string): string => {
        const dir = lockDirFor(home, sandboxNameFor(ws));
        fs.mkdirSync(dir);
        if (pid !== undefined) {
            fs.writeFileSync(path.join(dir, 'pid'), pid);
        }
        return dir;
    };

    describe('sandboxNameFor', () => {
        it('matches sandy\'s naming rule (CONTRACT §5.1)', () => {
            // sha256 of the canonical path, first 8 hex; basename with everything but [a-zA-Z0-9._-] deleted.
            const p = '/some/where/edge "quote" \\back ünï';
            const hash = createHash('sha256').update(p).digest('hex').slice(0, 8);
            expect(sandboxNameForWorkspace(p)).to.equal(`edgequotebackn-${hash}`);
            expect(sandboxNameForWorkspace('/')).to.match(/^project-[0-9a-f]{8}$/);
            expect(sandboxNameForWorkspace('/x/ünï')).to.match(/^n-[0-9a-f]{8}$/);
            expect(sandboxNameForWorkspace('/x/ü')).to.match(/^project-[0-9a-f]{8}$/);
        });
        it('hashes the UTF-8 bytes Node itself would write: a 4-byte character, and a lone surrogate as U+FFFD', () => {
            for (const p of ['/x/emoji \u{1F600}', '/x/lone \ud800 high', '/x/lone low \udc00', '/x/\ufffd']) {
                const hash = createHash('sha256').update(p, 'utf8').digest('hex').slice(0, 8);
                expect(sandboxNameForWorkspace(p), JSON.stringify(p)).to.match(new RegExp(`-${hash}$`));
            }
        });
        it('resolves symlinks first, like pwd -P', () => {
            const link = path.join(root, 'link');
            fs.symlinkSync(workspace, link);
            expect(sandboxNameFor(link)).to.equal(sandboxNameFor(workspace));
            expect(sandboxNameFor(link)).to.equal(sandboxNameForWorkspace(workspace));
        });
    });

    it('reports no lock', async () => {
        expect(await sweepLocks(home, workspace)).to.deep.include({ outcome: 'absent', reason: 'no-lock' });
    });

    it('removes a lock whose pid is dead (ESRCH)', async () => {
        const dir = makeLock(workspace, '4000000\n');
        const report = await sweepLocks(home, workspace, { kill: () => { throw errno('ESRCH'); } });
        expect(report).to.deep.include({ outcome: 'removed', reason: 'stale', pid: '4000000', lockDir: dir });
        expect(fs.existsSync(dir)).to.equal(false);
        expect(fs.readdirSync(path.join(home, 'sandboxes'))).to.deep.equal([]);
    });

    it('removes a lock with a really dead pid (real kill)', async () => {
        // A pid above the kernel's pid_max cannot exist.
        const dir = makeLock(workspace, '4194305');
        expect(await sweepLocks(home, workspace)).to.deep.include({ outcome: 'removed' });
        expect(fs.existsSync(dir)).to.equal(false);
    });

    it('keeps a lock held by a live process', async () => {
        const dir = makeLock(workspace, `${process.pid}\n`);
        expect(await sweepLocks(home, workspace)).to.deep.include({ outcome: 'kept', reason: 'alive', pid: String(process.pid) });
        expect(fs.existsSync(path.join(dir, 'pid'))).to.equal(true);
    });

    it('keeps a lock whose holder belongs to someone else (EPERM)', async () => {
        const dir = makeLock(workspace, '1');
        expect(await sweepLocks(home, workspace, { kill: () => { throw errno('EPERM'); } })).to.deep.include({ outcome: 'kept', reason: 'eperm' });
        expect(fs.existsSync(dir)).to.equal(true);
    });

    it('keeps missing, empty and garbage pids — sandy never treats them as stale', async () => {
        const neverCalled = (): void => { throw new Error('kill must not be called'); };
        const dir = makeLock(workspace);
        expect(await sweepLocks(home, workspace, { kill: neverCalled })).to.deep.include({ outcome: 'kept', reason: 'pid-missing' });
        fs.writeFileSync(path.join(dir, 'pid'), '');
        expect(await sweepLocks(home, workspace, { kill: neverCalled })).to.deep.include({ outcome: 'kept', reason: 'pid-empty', pid: '' });
        for (const garbage of ['garbage', ' 12', '-5', '12abc', '1.5']) {
            fs.writeFileSync(path.join(dir, 'pid'), garbage);
            expect(await sweepLocks(home, workspace, { kill: neverCalled })).to.deep.include({ outcome: 'kept', reason: 'pid-not-numeric' });
        }
        fs.writeFileSync(path.join(dir, 'pid'), '99999999999999999999');
        expect(await sweepLocks(home, workspace, { kill: neverCalled })).to.deep.include({ outcome: 'kept', reason: 'unchecked' });
        expect(fs.existsSync(dir)).to.equal(true);
    });

    it('keeps a lock when kill fails for another reason', async () => {
        makeLock(workspace, '77');
        expect(await sweepLocks(home, workspace, { kill: () => { throw errno('EINVAL'); } })).to.deep.include({ outcome: 'kept', reason: 'unchecked' });
    });

    it('touches only this workspace\'s lock', async () => {
        const other = path.join(root, 'other');
        fs.mkdirSync(other);
        const otherLock = makeLock(other, '4000000');
        const stray = path.join(home, 'sandboxes', '.unrelated-12345678.lock');
        fs.mkdirSync(stray);
        fs.writeFileSync(path.join(stray, 'pid'), '4000000');
        const mine = makeLock(workspace, '4000000');
        await sweepLocks(home, workspace, { kill: () => { throw errno('ESRCH'); } });
        expect(fs.existsSync(mine)).to.equal(false);
        expect(fs.existsSync(otherLock)).to.equal(true);
        expect(fs.existsSync(stray)).to.equal(true);
    });

    it('puts the lock back when another sandy took it over between read and reap', async () => {
        const dir = makeLock(workspace, '4000000');
        const kill = (): void => {
            // Simulates sandy's own reap + re-acquire racing us (sandy:7171-7199).
            fs.writeFileSync(path.join(dir, 'pid'), '4242');
            throw errno('ESRCH');
        };
        expect(await sweepLocks(home, workspace, { kill })).to.deep.include({ outcome: 'kept', reason: 'raced' });
        expect(fs.readFileSync(path.join(dir, 'pid'), 'utf8')).to.equal('4242');
    });

    it('leaves a non-directory lock path alone', async () => {
        const dir = lockDirFor(home, sandboxNameFor(workspace));
        fs.writeFileSync(dir, '123');
        expect(await sweepLocks(home, workspace)).to.deep.include({ outcome: 'kept', reason: 'not-a-directory' });
    });

    it('fails with a usage error for a missing workspace', async () => {
        try {
            await sweepLocks(home, path.join(root, 'missing'));
            expect.fail('should throw');
        } catch (e) {
            expect((e as { code: string }).code).to.equal('usage');
        }
    });
});
