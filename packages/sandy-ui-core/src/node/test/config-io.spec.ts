import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ConfigEditError } from '../../common/config-file';
import { ConfigIoError, readConfigFile, saveConfigEdits, withFileLock, writeFileAtomic } from '../config-io';

describe('config-io (unit)', () => {
    let tmp: string;
    let umask: number;

    beforeEach(() => {
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ui-cfg-io-'));
        umask = process.umask();
    });

    afterEach(() => {
        process.umask(umask);
        fs.rmSync(tmp, { recursive: true, force: true });
    });

    const mode = (p: string) => fs.statSync(p).mode & 0o7777;
    const leftovers = (dir: string) => fs.readdirSync(dir).filter(n => n.startsWith('.sandy-ui-write-'));

    describe('writeFileAtomic', () => {
        it('replaces the content and keeps an existing file\'s mode', async () => {
            const file = path.join(tmp, 'config');
            fs.writeFileSync(file, 'A=1\n');
            fs.chmodSync(file, 0o640);
            await writeFileAtomic(file, 'A=2\n');
            expect(fs.readFileSync(file, 'utf8')).to.equal('A=2\n');
            expect(mode(file)).to.equal(0o640);
            expect(leftovers(tmp)).to.deep.equal([]);
        });

        it('creates a new .secrets 0600 in a new 0700 folder, even with a permissive umask', async () => {
            process.umask(0o000);
            const file = path.join(tmp, 'ws', '.sandy', '.secrets');
            await writeFileAtomic(file, 'ANTHROPIC_API_KEY=x\n');
            expect(mode(file)).to.equal(0o600);
            expect(mode(path.dirname(file))).to.equal(0o700);
            expect(mode(path.join(tmp, 'ws'))).to.equal(0o700);
        });

        it('creates a new config with the umask applied', async () => {
            process.umask(0o022);
            const file = path.join(tmp, 'config');
            await writeFileAtomic(file, 'A=1\n');
            expect(mode(file)).to.equal(0o644);
        });

        it('cleans up the temp file when the rename fails (target is a folder)', async () => {
            const target = path.join(tmp, 'config');
            fs.mkdirSync(target);
            fs.writeFileSync(path.join(target, 'inside'), 'x');
            let error: unknown;
            try {
                await writeFileAtomic(target, 'A=1\n');
            } catch (e) {
                error = e;
            }
            expect(error).to.be.instanceOf(ConfigIoError);
            expect((error as ConfigIoError).hint).to.match(/not changed/);
            expect(fs.readdirSync(tmp)).to.deep.equal(['config']);
            expect(fs.readdirSync(target)).to.deep.equal(['inside']);
        });

        it('cleans up when the folder is read-only (skipped as root, who may write anyway)', async function () {
            if (process.getuid?.() === 0) {
                this.skip();
            }
            const dir = path.join(tmp, 'ro');
            fs.mkdirSync(dir);
            fs.writeFileSync(path.join(dir, 'config'), 'A=1\n');
            fs.chmodSync(dir, 0o500);
            try {
                await writeFileAtomic(path.join(dir, 'config'), 'A=2\n').then(() => expect.fail('should fail'), e => expect(e).to.be.instanceOf(ConfigIoError));
                expect(fs.readdirSync(dir)).to.deep.equal(['config']);
                expect(fs.readFileSync(path.join(dir, 'config'), 'utf8')).to.equal('A=1\n');
            } finally {
                fs.chmodSync(dir, 0o700);
            }
        });

        it('writes through a symlink, keeping the link', async () => {
            const real = path.join(tmp, 'dotfiles-config');
            fs.writeFileSync(real, 'A=1\n');
            const link = path.join(tmp, 'config');
            fs.symlinkSync(real, link);
            await writeFileAtomic(link, 'A=2\n');
            expect(fs.lstatSync(link).isSymbolicLink()).to.equal(true);
            expect(fs.readFileSync(real, 'utf8')).to.equal('A=2\n');
        });
    });

    describe('withFileLock', () => {
        it('runs tasks for one file one after another, and a failure does not block the queue', async () => {
            const order: string[] = [];
            const task = (name: string, ms: number, fail = false) => async () => {
                order.push(`start ${name}`);
                await new Promise(r => setTimeout(r, ms));
                order.push(`end ${name}`);
                if (fail) {
                    throw new Error(name);
                }
                return name;
            };
            const file = path.join(tmp, 'x');
            const results = await Promise.allSettled([
                withFileLock(file, task('a', 20)),
                withFileLock(path.join(tmp, '.', 'x'), task('b', 5, true)),
                withFileLock(file, task('c', 1))
            ]);
            expect(order).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
            expect(results.map(r => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
        });
    });

    describe('saveConfigEdits', () => {
        it('creates a missing file and reports no mismatches', async () => {
            const file = path.join(tmp, '.sandy', 'config');
            const result = await saveConfigEdits(file, [{ key: 'SANDY_AGENT', value: 'claude' }, { key: 'SANDY_MODEL', value: ' spaced' }]);
            expect(result).to.deep.equal({ written: true, changedKeys: ['SANDY_AGENT', 'SANDY_MODEL'], mismatches: [] });
            expect(fs.readFileSync(file, 'utf8')).to.equal('SANDY_AGENT=claude\nSANDY_MODEL=" spaced"\n');
        });

        it('writes nothing when nothing changes', async () => {
            const file = path.join(tmp, 'config');
            fs.writeFileSync(file, '# mine\r\nSANDY_AGENT=claude\r\n');
            const before = fs.statSync(file);
            const result = await saveConfigEdits(file, [{ key: 'SANDY_AGENT', value: 'claude' }, { key: 'SANDY_MODEL', value: undefined }]);
            expect(result).to.deep.equal({ written: false, changedKeys: [], mismatches: [] });
            const after = fs.statSync(file);
            expect(after.ino).to.equal(before.ino);
            expect(after.mtimeMs).to.equal(before.mtimeMs);
        });

        it('edits in place, keeps CRLF, comments and mode', async () => {
            const file = path.join(tmp, 'config');
            fs.writeFileSync(file, '# mine\r\nSANDY_AGENT=claude\r\nSANDY_MODEL=x\r\n');
            fs.chmodSync(file, 0o600);
            const result = await saveConfigEdits(file, [{ key: 'SANDY_AGENT', value: 'codex' }, { key: 'SANDY_MODEL', value: undefined }]);
            expect(result.written).to.equal(true);
            expect(fs.readFileSync(file, 'utf8')).to.equal('# mine\r\nSANDY_AGENT=codex\r\n');
            expect(mode(file)).to.equal(0o600);
        });

        it('serialises concurrent saves to one file (no lost update)', async () => {
            const file = path.join(tmp, 'config');
            const keys = Array.from({ length: 20 }, (_, i) => `KEY_${String.fromCharCode(65 + i)}`);
            await Promise.all(keys.map(key => saveConfigEdits(file, [{ key, value: key.toLowerCase() }])));
            const text = fs.readFileSync(file, 'utf8');
            for (const key of keys) {
                expect(text).to.include(`${key}=${key.toLowerCase()}\n`);
            }
            expect(leftovers(tmp)).to.deep.equal([]);
        });

        it('refuses non-UTF-8 files and unrepresentable values without writing', async () => {
            const file = path.join(tmp, 'config');
            fs.writeFileSync(file, Buffer.from('A=\xff\n', 'latin1'));
            await saveConfigEdits(file, [{ key: 'B', value: '1' }]).then(() => expect.fail(), e => expect(e).to.be.instanceOf(ConfigIoError));
            fs.writeFileSync(file, 'A=1\n');
            await saveConfigEdits(file, [{ key: 'B', value: 'x\ny' }]).then(() => expect.fail(), e => expect(e).to.be.instanceOf(ConfigEditError));
            expect(fs.readFileSync(file, 'utf8')).to.equal('A=1\n');
        });

        it('reads a BOM back verbatim', async () => {
            const file = path.join(tmp, 'config');
            fs.writeFileSync(file, '\uFEFF# x\nA=1\n');
            expect((await readConfigFile(file)).text).to.equal('\uFEFF# x\nA=1\n');
            await saveConfigEdits(file, [{ key: 'A', value: '2' }]);
            expect(fs.readFileSync(file).subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).to.equal(true);
        });

        it('treats a missing file and a folder as absent when reading', async () => {
            expect(await readConfigFile(path.join(tmp, 'nope'))).to.deep.include({ exists: false, text: '' });
            expect(await readConfigFile(tmp)).to.deep.include({ exists: false });
        });
    });
});
