/**
 * Attacks on the session history store. What reaches it is untrusted: a sandbox or project name
 * (from sandy's state, or a folder name), the agent's output (any bytes, any amount), an id sent by a
 * window, and whatever else may be lying in the history folder. Each test is the attack and the
 * refusal it must meet:
 *
 * - a name with `../`, `/`, NUL, newlines or 300 characters makes a file in the history folder and
 *   nowhere else, under a name the store itself will open;
 * - an id that is a path (`../../etc/passwd`, absolute, backslashes, NUL, `..`) reads and removes nothing;
 * - a link planted in the folder (as a record or as a log) is never followed; a FIFO named like a log
 *   or record hangs nothing; a huge, corrupt or lying record is skipped, never thrown;
 * - an agent that writes 200 MB keeps its log within the cap and the store's memory bounded, whether
 *   the disk keeps up or not.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HistoryBeginMeta, SessionHistory } from './session-history';
import { isHistoryId } from '../../common/session/history-types';

const DAY = new Date(2026, 2, 1, 9).getTime();

function meta(over: Partial<HistoryBeginMeta> = {}): HistoryBeginMeta {
    return { workspace: '/home/u/p', project: 'p', sandbox: 'p-00000000', mode: 'daemon', startedAt: DAY, ...over };
}

function logSize(dir: string, id: string): number {
    return ['.log', '.log.1'].reduce((n, e) => {
        try {
            return n + fs.lstatSync(path.join(dir, id + e)).size;
        } catch {
            return n;
        }
    }, 0);
}

function validRecord(id: string, over: Record<string, unknown> = {}): string {
    return JSON.stringify({ id, workspace: '/w', project: 'planted', sandbox: 's', mode: 'daemon', startedAt: DAY, bytes: 3, truncated: false, ...over });
}

describe('session history attacks: hostile names, ids, planted files and floods (unit)', function () {
    this.timeout(120_000);
    let root: string;
    let dir: string;
    let outside: string;

    beforeEach(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-history-attack-'));
        dir = path.join(root, 'data', 'history');
        outside = path.join(root, 'outside');
        fs.mkdirSync(outside);
        fs.writeFileSync(path.join(outside, 'secret'), 'TOP SECRET');
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('a sandbox or project named ../, /, NUL, newline or 300 characters makes files only in the history folder', async () => {
        const history = new SessionHistory(dir);
        const names = ['../../outside/x', '/etc/passwd', 'a\0b', 'line\nbreak', 'x'.repeat(300), '..', '.hidden', '', '-rf', 'a\\..\\b', 'é漢'];
        const ids: string[] = [];
        for (const name of names) {
            const rec = history.begin(meta({ sandbox: name, project: `../${name}/\0` }));
            expect(rec.active, JSON.stringify(name)).to.equal(true);
            expect(isHistoryId(rec.id), rec.id).to.equal(true);
            expect(rec.id).to.not.match(/[/\\\0\n]|\.\./);
            rec.write(`output of ${name}`);
            await rec.end({ endedAt: DAY + 1, endReason: '\n../\0' });
            ids.push(rec.id);
        }
        expect(new Set(ids).size, 'each its own name').to.equal(names.length);
        expect(fs.readdirSync(outside)).to.deep.equal(['secret']);
        expect(fs.readdirSync(path.join(root, 'data'))).to.deep.equal(['history']);
        expect(fs.readdirSync(root).sort()).to.deep.equal(['data', 'outside']);
        for (const f of fs.readdirSync(dir)) {
            expect(fs.lstatSync(path.join(dir, f)).isFile(), f).to.equal(true);
        }
        // The names themselves survive as data in the records.
        const listed = await history.list();
        expect(listed.map(r => r.sandbox).sort()).to.deep.equal(names.map(n => n.slice(0, 1024)).sort());
        const long = listed.find(r => r.sandbox === 'x'.repeat(300))!;
        expect((await history.read(long.id))!.text).to.equal(`output of ${'x'.repeat(300)}`);
    });

    it('an id that is a path reads nothing and removes nothing', async () => {
        const history = new SessionHistory(dir);
        const rec = history.begin(meta());
        await rec.end({ endedAt: DAY + 1 });
        fs.writeFileSync(path.join(root, 'data', 'x.json'), validRecord('x'));
        const bad = ['../../etc/passwd', '/etc/passwd', path.join(outside, 'secret'), `${rec.id}/../../outside/secret`,
            `..\\..\\outside\\secret`, `${rec.id}\0`, '..', '.', '', '../x', '2026-03-01-..', '2026-03-01-a..b', `${rec.id}\n`,
            `${rec.id}.log`, 'x'.repeat(5000)];
        for (const id of bad) {
            expect(await history.read(id), JSON.stringify(id)).to.equal(undefined);
            expect(await history.read(id, 0, 10), JSON.stringify(id)).to.equal(undefined);
            expect(await history.remove(id), JSON.stringify(id)).to.equal(false);
        }
        expect(await history.read(undefined as unknown as string)).to.equal(undefined);
        expect(await history.read({ toString: () => rec.id } as unknown as string)).to.equal(undefined);
        expect(fs.readFileSync(path.join(outside, 'secret'), 'utf8')).to.equal('TOP SECRET');
        expect(fs.existsSync(path.join(root, 'data', 'x.json'))).to.equal(true);
        expect(await history.read(rec.id), 'the real one still reads').to.not.equal(undefined);
    });

    it('links planted in the history folder are never followed: not as a record, not as a log', async () => {
        const history = new SessionHistory(dir);
        const rec = history.begin(meta());
        rec.write('mine');
        await rec.end({ endedAt: DAY + 1 });
        // A record that is a link to a record-shaped file outside.
        fs.writeFileSync(path.join(outside, 'r.json'), validRecord('2026-03-01-linked'));
        fs.symlinkSync(path.join(outside, 'r.json'), path.join(dir, '2026-03-01-linked.json'));
        fs.symlinkSync(path.join(outside, 'secret'), path.join(dir, '2026-03-01-linked.log'));
        // A real record whose log segments are links to a secret.
        fs.writeFileSync(path.join(dir, '2026-03-01-real.json'), validRecord('2026-03-01-real'), { mode: 0o600 });
        fs.symlinkSync(path.join(outside, 'secret'), path.join(dir, '2026-03-01-real.log'));
        fs.symlinkSync(path.join(outside, 'secret'), path.join(dir, '2026-03-01-real.log.1'));

        const listed = await history.list();
        expect(listed.map(r => r.id).sort()).to.deep.equal(['2026-03-01-real', rec.id].sort());
        expect(await history.read('2026-03-01-linked')).to.equal(undefined);
        const real = await history.read('2026-03-01-real');
        expect(real).to.deep.include({ text: '', size: 0 });
        expect(await history.list({ text: 'SECRET' }), 'the search does not read through them either').to.deep.equal([]);
        expect((await history.list({ text: 'mine' })).map(r => r.id)).to.deep.equal([rec.id]);
        // Removing the planted entries removes the links, never what they point at.
        expect(await history.remove('2026-03-01-real')).to.equal(true);
        expect(fs.readFileSync(path.join(outside, 'secret'), 'utf8')).to.equal('TOP SECRET');
    });

    it('a history folder that is itself a link elsewhere is not written into', () => {
        fs.mkdirSync(path.join(root, 'data'));
        fs.symlinkSync(outside, dir);
        const rec = new SessionHistory(dir).begin(meta());
        expect(rec.active).to.equal(false);
        rec.write('leak');
        expect(fs.readdirSync(outside)).to.deep.equal(['secret']);
    });

    it('a link or FIFO planted under the name a new session would take is skipped: the session takes the next name', async () => {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.symlinkSync(path.join(outside, 'secret'), path.join(dir, '2026-03-01-p-00000000.log'));
        expect(spawnSync('mkfifo', [path.join(dir, '2026-03-01-p-00000000-2.log')]).status).to.equal(0);
        const rec = new SessionHistory(dir).begin(meta());
        expect(rec.id).to.equal('2026-03-01-p-00000000-3');
        rec.write('x');
        await rec.end({ endedAt: DAY + 1 });
        expect(fs.readFileSync(path.join(outside, 'secret'), 'utf8')).to.equal('TOP SECRET');
    });

    it('a FIFO named like a log or a record hangs neither list, search nor read', async () => {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(path.join(dir, '2026-03-01-fifo.json'), validRecord('2026-03-01-fifo'), { mode: 0o600 });
        expect(spawnSync('mkfifo', [path.join(dir, '2026-03-01-fifo.log')]).status).to.equal(0);
        expect(spawnSync('mkfifo', [path.join(dir, '2026-03-01-fifo.log.1')]).status).to.equal(0);
        expect(spawnSync('mkfifo', [path.join(dir, '2026-03-01-fiforec.json')]).status).to.equal(0);
        const history = new SessionHistory(dir);
        const started = Date.now();
        expect((await history.list()).map(r => r.id)).to.deep.equal(['2026-03-01-fifo']);
        expect(await history.list({ text: 'x' })).to.deep.equal([]);
        expect(await history.read('2026-03-01-fifo')).to.deep.include({ text: '', size: 0 });
        expect(await history.read('2026-03-01-fiforec')).to.equal(undefined);
        expect(Date.now() - started).to.be.below(5000);
    });

    it('huge, corrupt, mistyped or lying records are skipped, never thrown', async () => {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const put = (id: string, text: string): void => fs.writeFileSync(path.join(dir, `${id}.json`), text, { mode: 0o600 });
        put('2026-03-01-huge', validRecord('2026-03-01-huge', { project: 'p', pad: 'x'.repeat(20 * 1024 * 1024) }));
        put('2026-03-01-corrupt', '{"id": "2026-03-01-corrupt", ');
        put('2026-03-01-array', '[1,2,3]');
        put('2026-03-01-null', 'null');
        put('2026-03-01-types', validRecord('2026-03-01-types', { startedAt: 'yesterday' }));
        put('2026-03-01-mode', validRecord('2026-03-01-mode', { mode: 'root' }));
        put('2026-03-01-bytes', validRecord('2026-03-01-bytes', { bytes: -1 }));
        put('2026-03-01-longname', validRecord('2026-03-01-longname', { project: 'p'.repeat(5000) }));
        put('2026-03-01-liar', validRecord('../../etc/passwd'));
        put('2026-03-01-other', validRecord('2026-03-01-good'));
        put('2026-03-01-proto', '{"__proto__": {"polluted": true}, ' + validRecord('2026-03-01-proto').slice(1));
        put('2026-03-01-good', validRecord('2026-03-01-good', { extra: 'dropped' }));
        fs.writeFileSync(path.join(dir, '2026-03-01-good.log'), 'abc', { mode: 0o600 });
        const history = new SessionHistory(dir);
        const listed = await history.list();
        expect(listed.map(r => r.id).sort()).to.deep.equal(['2026-03-01-good', '2026-03-01-proto']);
        expect(listed.find(r => r.id === '2026-03-01-good')).to.not.have.property('extra');
        expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
        for (const id of ['2026-03-01-huge', '2026-03-01-corrupt', '2026-03-01-types', '2026-03-01-liar', '2026-03-01-other']) {
            expect(await history.read(id), id).to.equal(undefined);
        }
        expect((await history.read('2026-03-01-good'))!.text).to.equal('abc');
        expect(await new SessionHistory(path.join(root, 'absent')).list()).to.deep.equal([]);
    });

    it('an agent that writes 200 MB as fast as it can: the log stays within the cap and memory within the bound', async () => {
        const cap = 1024 * 1024;
        const maxPendingBytes = 4 * 1024 * 1024;
        const history = new SessionHistory(dir, { capBytes: cap, maxPendingBytes });
        const rec = history.begin(meta());
        const chunk = 'y'.repeat(64 * 1024 - 1) + '\n';
        const total = 200 * 1024 * 1024;
        let maxSize = 0;
        const heapBefore = process.memoryUsage().heapUsed;
        for (let written = 0, n = 0; written < total; written += chunk.length, n++) {
            rec.write(chunk);
            if (n % 256 === 255) {
                // …and, now and then, let the disk catch up, so much of it really is written and rolled.
                await rec.flushed();
            }
            if (n % 16 === 0) {
                // Let the event loop breathe as a PTY's data events would, now and then.
                await new Promise(resolve => setImmediate(resolve));
                maxSize = Math.max(maxSize, logSize(dir, rec.id));
            }
        }
        rec.write('THE END');
        await rec.end({ endedAt: DAY + 1 });
        expect(maxSize, 'never over the cap while it ran').to.be.at.most(cap);
        expect(logSize(dir, rec.id), 'nor at the end').to.be.at.most(cap);
        expect(rec.peakPending, 'queued output never beyond the bound').to.be.at.most(maxPendingBytes);
        expect(process.memoryUsage().heapUsed - heapBefore, 'heap did not grow with the output').to.be.below(64 * 1024 * 1024);
        const record = (await history.list())[0];
        expect(record.truncated).to.equal(true);
        expect(record.bytes, 'much of it really went through the log, rolling many times').to.be.above(20 * cap);
        expect(record.bytes + (record.dropped ?? 0), 'every byte is either recorded or counted as dropped').to.be.at.least(total);
        const log = fs.readFileSync(path.join(dir, `${rec.id}.log`), 'utf8');
        expect(log.endsWith('THE END'), 'the most recent output is what is kept').to.equal(true);
    });

    it('an agent that floods a disk that cannot keep up: output is dropped and marked, nothing grows', async () => {
        const maxPendingBytes = 256 * 1024;
        const history = new SessionHistory(dir, { capBytes: 8 * 1024 * 1024, maxPendingBytes });
        const rec = history.begin(meta());
        const chunk = 'z'.repeat(32 * 1024);
        // One synchronous burst of 200 MB: the writer gets no turn at all until it is over.
        for (let written = 0; written < 200 * 1024 * 1024; written += chunk.length) {
            rec.write(chunk);
        }
        expect(rec.pendingBytes).to.be.at.most(maxPendingBytes);
        rec.write('after the burst');
        await rec.end({ endedAt: DAY + 1 });
        const record = (await history.list())[0];
        expect(record.dropped).to.be.above(190 * 1024 * 1024);
        expect(record.bytes + record.dropped!).to.be.at.least(200 * 1024 * 1024);
        const older = path.join(dir, `${rec.id}.log.1`);
        const log = (fs.existsSync(older) ? fs.readFileSync(older, 'utf8') : '') + fs.readFileSync(path.join(dir, `${rec.id}.log`), 'utf8');
        expect(log).to.match(/\[sandy-ui: \d+ bytes of output not recorded: the disk did not keep up\]/);
        expect(log.endsWith('after the burst')).to.equal(true);
        expect(Buffer.byteLength(log)).to.be.at.most(8 * 1024 * 1024);
    });
});
