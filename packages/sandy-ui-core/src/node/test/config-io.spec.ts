import { expect } from 'chai';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ConfigEditError } from '../../common/config/config-file';
import {
    CONFIG_FILE_MAX_BYTES, ConfigIoError, ensurePrivateMode, readConfigFile, readConfigFileSync, saveConfigEdits, sweepInterruptedWrites,
    TEMP_DIR_PREFIX, withFileLock, writeFileAtomic
} from '../config/config-io';
import { runPreflight } from '../approvals/preflight';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';

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

        it('refuses a target that is a folder, and leaves nothing behind', async () => {
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
            expect((error as ConfigIoError).message).to.contain(`${target} is a folder, not a regular file`);
            expect((error as ConfigIoError).hint).to.match(/Nothing was changed/);
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

        it('never writes through a symlinked file: the link and what it points to stay as they were', async () => {
            const real = path.join(tmp, 'dotfiles-config');
            fs.writeFileSync(real, 'A=1\n');
            const link = path.join(tmp, 'config');
            fs.symlinkSync(real, link);
            const error = await writeFileAtomic(link, 'A=2\n').then(() => undefined, e => e as ConfigIoError);
            expect(error).to.be.instanceOf(ConfigIoError);
            expect(error!.message).to.equal(`${link} is a symbolic link to ${real}; sandy-ui does not follow it. Replace it with a regular file.`);
            expect(fs.lstatSync(link).isSymbolicLink()).to.equal(true);
            expect(fs.readFileSync(real, 'utf8')).to.equal('A=1\n');
            expect(leftovers(tmp)).to.deep.equal([]);
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

        it('treats a missing file (or a missing folder on its way) as absent, and refuses a folder', async () => {
            expect(await readConfigFile(path.join(tmp, 'nope'))).to.deep.include({ exists: false, text: '' });
            expect(await readConfigFile(path.join(tmp, 'no-dir', 'config'))).to.deep.include({ exists: false, text: '' });
            fs.mkdirSync(path.join(tmp, 'config'));
            await readConfigFile(path.join(tmp, 'config')).then(() => expect.fail('a folder is not a config file'),
                e => expect((e as Error).message).to.contain('is a folder, not a regular file'));
        });
    });

    /**
     * Attacks: the repository (or the agent, which writes the workspace) controls what `.sandy/` and
     * its files are. Each test plants what an attacker would, does what the IDE does, and checks the
     * harm did not happen and the user is told why.
     */
    describe('as an attacker plants it', () => {
        let ws: string;
        let sandyDir: string;
        /** Stands for ~/.ssh: files no save may ever touch. */
        let ssh: string;
        let sshBefore: Record<string, string>;

        const snapshot = (dir: string): Record<string, string> => Object.fromEntries(fs.readdirSync(dir).sort().map(n => {
            const p = path.join(dir, n);
            const st = fs.lstatSync(p);
            return [n, `${(st.mode & 0o7777).toString(8)} ${st.isFile() ? fs.readFileSync(p).toString('base64') : st.isSymbolicLink() ? fs.readlinkSync(p) : 'dir'}`];
        }));
        const refusal = async (p: Promise<unknown>): Promise<ConfigIoError> => {
            const e = await p.then(() => undefined, (err: unknown) => err);
            expect(e, 'the call is refused').to.be.instanceOf(ConfigIoError);
            return e as ConfigIoError;
        };

        beforeEach(() => {
            ws = path.join(tmp, 'ws');
            sandyDir = path.join(ws, '.sandy');
            ssh = path.join(tmp, 'home', '.ssh');
            fs.mkdirSync(ws);
            fs.mkdirSync(ssh, { recursive: true, mode: 0o700 });
            fs.writeFileSync(path.join(ssh, 'config'), 'Host *\n    IdentityFile ~/.ssh/id_ed25519\n', { mode: 0o644 });
            fs.writeFileSync(path.join(ssh, 'id_ed25519'), 'PRIVATE KEY\n', { mode: 0o600 });
            sshBefore = snapshot(ssh);
        });

        it('.sandy/config → /dev/zero: refused at once with the actionable message, never read', async () => {
            fs.mkdirSync(sandyDir);
            const file = path.join(sandyDir, 'config');
            fs.symlinkSync('/dev/zero', file);
            const started = Date.now();
            const e = await refusal(readConfigFile(file));
            expect(e.message).to.equal(`${file} is a symbolic link to /dev/zero; sandy-ui does not follow it. Replace it with a regular file.`);
            expect(() => readConfigFileSync(file)).to.throw(ConfigIoError, 'is a symbolic link to /dev/zero');
            expect(Date.now() - started).to.be.lessThan(1000);
            // Saving refuses as well, and the link stays.
            await refusal(saveConfigEdits(file, [{ key: 'SANDY_MODEL', value: 'x' }]));
            expect(fs.readlinkSync(file)).to.equal('/dev/zero');
        });

        it('a device or FIFO planted as .sandy/config is refused without opening it (no hang)', async function () {
            this.timeout(5000);
            fs.mkdirSync(sandyDir);
            const fifo = path.join(sandyDir, 'config');
            execFileSync('mkfifo', [fifo]);
            // No writer ever opens the FIFO: a reader that opened it would block here forever.
            const e = await refusal(readConfigFile(fifo));
            expect(e.message).to.contain(`${fifo} is a named pipe (FIFO), not a regular file`);
            await refusal(saveConfigEdits(fifo, [{ key: 'SANDY_MODEL', value: 'x' }]));
            expect(fs.lstatSync(fifo).isFIFO()).to.equal(true);
            expect(leftovers(sandyDir)).to.deep.equal([]);
        });

        it('a 50 MB .sandy/config is refused with its size, and a save keeps every byte', async () => {
            fs.mkdirSync(sandyDir);
            const file = path.join(sandyDir, 'config');
            const big = Buffer.alloc(50 * 1024 * 1024, 'A=1\n');
            fs.writeFileSync(file, big);
            const e = await refusal(readConfigFile(file));
            expect(e.message).to.contain(`${file} is 50.0 MiB; sandy-ui reads config files of up to 1.0 MiB.`);
            await refusal(saveConfigEdits(file, [{ key: 'SANDY_MODEL', value: 'x' }]));
            expect(fs.statSync(file).size).to.equal(big.length);
            expect(fs.readFileSync(file).equals(big)).to.equal(true);
            // Just under the cap still reads (the cap is not a problem for any real config).
            fs.writeFileSync(file, Buffer.alloc(CONFIG_FILE_MAX_BYTES, '#'));
            expect((await readConfigFile(file)).text.length).to.equal(CONFIG_FILE_MAX_BYTES);
        });

        it('.sandy → a folder standing for ~/.ssh: reads and saves are refused, that folder stays byte-identical', async () => {
            fs.symlinkSync(ssh, sandyDir);
            const file = path.join(sandyDir, 'config');
            const read = await refusal(readConfigFile(file));
            expect(read.message).to.equal(`${sandyDir} is a symbolic link to ${ssh}; sandy-ui does not follow it. Replace it with a regular folder.`);
            const save = await refusal(saveConfigEdits(file, [{ key: 'SANDY_MODEL', value: 'pwned' }]));
            expect(save.message).to.contain(`${sandyDir} is a symbolic link to ${ssh}`);
            await refusal(saveConfigEdits(path.join(sandyDir, '.secrets'), [{ key: 'ANTHROPIC_API_KEY', value: 'sk-ant-attack' }]));
            await refusal(writeFileAtomic(path.join(sandyDir, 'config'), 'X=1\n'));
            expect(snapshot(ssh)).to.deep.equal(sshBefore);
        });

        it('.sandy/.secrets → a file elsewhere: the key is not written there, the save is refused', async () => {
            fs.mkdirSync(sandyDir);
            const elsewhere = path.join(tmp, 'home', 'shared-notes.txt');
            fs.writeFileSync(elsewhere, 'notes\n', { mode: 0o644 });
            const secrets = path.join(sandyDir, '.secrets');
            fs.symlinkSync(elsewhere, secrets);
            const e = await refusal(saveConfigEdits(secrets, [{ key: 'ANTHROPIC_API_KEY', value: 'sk-ant-attack' }]));
            expect(e.message).to.equal(`${secrets} is a symbolic link to ${elsewhere}; sandy-ui does not follow it. Replace it with a regular file.`);
            expect(fs.readFileSync(elsewhere, 'utf8')).to.equal('notes\n');
            expect(fs.statSync(elsewhere).mode & 0o777).to.equal(0o644);
            // A relative link out of .sandy/ is the same attack.
            fs.unlinkSync(secrets);
            fs.symlinkSync('../../home/shared-notes.txt', secrets);
            await refusal(saveConfigEdits(secrets, [{ key: 'ANTHROPIC_API_KEY', value: 'sk-ant-attack' }]));
            expect(fs.readFileSync(elsewhere, 'utf8')).to.equal('notes\n');
            expect(leftovers(sandyDir)).to.deep.equal([]);
        });

        it('a link planted in a nested root folder ($SANDY_HOME/approvals → elsewhere) is refused', async () => {
            const home = path.join(tmp, 'sandy-home');
            fs.mkdirSync(home);
            fs.symlinkSync(ssh, path.join(home, 'approvals'));
            const e = await refusal(readConfigFile(path.join(home, 'approvals', 'config'), { root: home }));
            expect(e.message).to.contain(`${path.join(home, 'approvals')} is a symbolic link to ${ssh}`);
            expect(() => readConfigFileSync(path.join(tmp, 'elsewhere', 'x'), { root: home })).to.throw(/is not inside/);
        });

        it('a 0644 .secrets becomes 0600 on save, and the fix is reported', async () => {
            fs.mkdirSync(sandyDir, { mode: 0o755 });
            const secrets = path.join(sandyDir, '.secrets');
            fs.writeFileSync(secrets, 'OPENAI_API_KEY=sk-old\n');
            fs.chmodSync(secrets, 0o644);
            const result = await saveConfigEdits(secrets, [{ key: 'ANTHROPIC_API_KEY', value: 'sk-ant-new' }]);
            expect(result.modeFixed).to.deep.equal({ from: 0o644, to: 0o600 });
            expect(mode(secrets)).to.equal(0o600);
            expect(fs.readFileSync(secrets, 'utf8')).to.equal('OPENAI_API_KEY=sk-old\nANTHROPIC_API_KEY=sk-ant-new\n');
            // Already 0600: nothing to report.
            expect((await saveConfigEdits(secrets, [{ key: 'ANTHROPIC_API_KEY', value: 'sk-ant-2' }])).modeFixed).to.equal(undefined);
            // The same without a content change: ensurePrivateMode (through an O_NOFOLLOW fd, never a link).
            fs.chmodSync(secrets, 0o640);
            expect(ensurePrivateMode(secrets)).to.deep.equal({ modeFixed: { from: 0o640, to: 0o600 } });
            expect(mode(secrets)).to.equal(0o600);
            const elsewhere = path.join(ssh, 'config');
            fs.unlinkSync(secrets);
            fs.symlinkSync(elsewhere, secrets);
            expect(ensurePrivateMode(secrets)).to.deep.equal({});
            expect(mode(elsewhere)).to.equal(0o644);
        });

        it('pre-flight stops with the message instead of treating a refused file as absent', async () => {
            const schema = BUNDLED_FALLBACK_SCHEMA.config;
            const names = (keys: readonly { name: string }[]) => keys.map(k => k.name);
            const input = {
                privilegedKeys: names(schema.privileged_keys), passiveKeys: names(schema.passive_keys), envOnlyKeys: names(schema.env_only_keys),
                keys: [...schema.privileged_keys, ...schema.passive_keys, ...schema.env_only_keys]
            };
            const sandyHome = path.join(tmp, 'home', '.sandy');
            const preflight = () => runPreflight({ workspacePath: ws, sandyHome, schema: input });
            fs.mkdirSync(sandyDir);
            // The legitimate case first: a regular file is read and its privileged key shown.
            fs.writeFileSync(path.join(sandyDir, 'config'), 'SANDY_SSH=agent\n');
            expect((await preflight()).pendingPrivileged.map(p => p.key)).to.deep.equal(['SANDY_SSH']);
            // The same line behind a link: sandy would load it, so pre-flight must not call it absent.
            fs.writeFileSync(path.join(tmp, 'elsewhere.config'), 'SANDY_SSH=agent\n');
            fs.unlinkSync(path.join(sandyDir, 'config'));
            fs.symlinkSync(path.join(tmp, 'elsewhere.config'), path.join(sandyDir, 'config'));
            const e = await refusal(preflight());
            expect(e.message).to.contain(`${path.join(sandyDir, 'config')} is a symbolic link to`);
            // $SANDY_HOME's files too.
            fs.unlinkSync(path.join(sandyDir, 'config'));
            fs.mkdirSync(sandyHome, { recursive: true });
            execFileSync('mkfifo', [path.join(sandyHome, '.secrets')]);
            expect((await refusal(preflight())).message).to.contain(`${path.join(sandyHome, '.secrets')} is a named pipe (FIFO)`);
        });

        it('a new .sandy/ is created 0700 and a new config 0644 (minus the umask)', async () => {
            process.umask(0o022);
            await saveConfigEdits(path.join(sandyDir, 'config'), [{ key: 'SANDY_MODEL', value: 'x' }]);
            expect(mode(sandyDir)).to.equal(0o700);
            expect(mode(path.join(sandyDir, 'config'))).to.equal(0o644);
        });

        describe('an interrupted save (SIGKILL mid-write)', () => {
            const CONFIG_IO = path.resolve(__dirname, '..', 'config', 'config-io.js');
            const KEY = 'sk-ant-interrupted-save-0123456789';

            /** Runs a real save in a child process and SIGKILLs it once the key is in the temp file (before the rename). */
            async function killedSave(file: string): Promise<string> {
                const script = `
                    const fs = require('fs');
                    (async () => {
                        const probe = await fs.promises.open(${JSON.stringify(CONFIG_IO)}, 'r');
                        const proto = Object.getPrototypeOf(probe);
                        await probe.close();
                        // fsync is the last step before the rename: stop there, with the data written.
                        proto.sync = function () { process.stdout.write('written\\n'); return new Promise(() => undefined); };
                        const { writeFileAtomic } = require(${JSON.stringify(CONFIG_IO)});
                        await writeFileAtomic(${JSON.stringify(file)}, 'ANTHROPIC_API_KEY=${KEY}\\n');
                    })();`;
                const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
                await new Promise<void>((resolve, reject) => {
                    child.stdout.on('data', (d: Buffer) => d.toString().includes('written') && resolve());
                    child.on('exit', code => reject(new Error(`the save exited (${code}) before writing`)));
                });
                child.kill('SIGKILL');
                await new Promise(resolve => child.once('exit', resolve));
                const left = leftovers(path.dirname(file));
                expect(left, 'the killed save left its temp folder').to.have.length(1);
                const temp = path.join(path.dirname(file), left[0]);
                expect(fs.readFileSync(path.join(temp, path.basename(file)), 'utf8')).to.contain(KEY);
                return temp;
            }

            function git(args: string[]): string {
                return execFileSync('git', args, { cwd: ws, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
            }

            it('leaves nothing git status shows, and the next save in that folder removes it', async function () {
                this.timeout(20_000);
                git(['init', '-q']);
                fs.mkdirSync(sandyDir);
                fs.writeFileSync(path.join(sandyDir, 'config'), 'SANDY_MODEL=x\n');
                git(['add', '.sandy/config']);
                git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'config']);
                const secrets = path.join(sandyDir, '.secrets');
                const temp = await killedSave(secrets);
                // The folder's .gitignore (`*`) came first, so git never lists the folder or the key.
                expect(fs.readFileSync(path.join(temp, '.gitignore'), 'utf8')).to.equal('*\n');
                expect(git(['status', '--porcelain', '--untracked-files=all'])).to.equal('');
                expect(git(['status', '--porcelain', '--ignored', '--untracked-files=all'])).to.contain(path.relative(ws, temp));
                // The target was never touched.
                expect(fs.existsSync(secrets)).to.equal(false);

                await saveConfigEdits(path.join(sandyDir, 'config'), [{ key: 'SANDY_MODEL', value: 'y' }]);
                expect(fs.existsSync(temp), 'the next save removed the leftover').to.equal(false);
                expect(leftovers(sandyDir)).to.deep.equal([]);
                expect(git(['status', '--porcelain', '--untracked-files=all'])).to.equal(' M .sandy/config\n');
            });

            it('sweepInterruptedWrites (service start) removes it, but never a save in progress or a symlinked folder', async function () {
                this.timeout(20_000);
                fs.mkdirSync(sandyDir);
                const temp = await killedSave(path.join(sandyDir, '.secrets'));
                // An older sandy-ui named its temp folders without a pid: debris too.
                const legacy = path.join(sandyDir, `${TEMP_DIR_PREFIX}0123456789ab`);
                fs.mkdirSync(legacy);
                fs.writeFileSync(path.join(legacy, '.secrets'), `ANTHROPIC_API_KEY=${KEY}\n`);
                // A live process's fresh save is left alone (this test process stands for it).
                const live = path.join(sandyDir, `${TEMP_DIR_PREFIX}${process.ppid}-abcdef012345`);
                fs.mkdirSync(live);
                // A planted link named like a temp folder: removing through it would delete ~/.ssh.
                const planted = path.join(sandyDir, `${TEMP_DIR_PREFIX}1-000000000000`);
                fs.symlinkSync(ssh, planted);
                const removed = await sweepInterruptedWrites([sandyDir, path.join(tmp, 'missing')]);
                expect(removed.sort()).to.deep.equal([legacy, temp].sort());
                expect(fs.existsSync(live)).to.equal(true);
                expect(fs.lstatSync(planted).isSymbolicLink()).to.equal(true);
                expect(snapshot(ssh)).to.deep.equal(sshBefore);
                // A symlinked folder is not swept at all.
                fs.mkdirSync(path.join(ssh, `${TEMP_DIR_PREFIX}2-000000000000`));
                const linkedHome = path.join(tmp, 'linked-home');
                fs.symlinkSync(ssh, linkedHome);
                expect(await sweepInterruptedWrites([linkedHome])).to.deep.equal([]);
                expect(fs.existsSync(path.join(ssh, `${TEMP_DIR_PREFIX}2-000000000000`))).to.equal(true);
            });
        });
    });
});
