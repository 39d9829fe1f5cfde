import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HistoryBeginMeta, SessionHistory } from './session-history';
import { displayTranscript } from '../../common/session/transcript-filter';
import { historyNamePart, isHistoryId } from '../../common/session/history-types';

const DAY = new Date(2026, 0, 5, 10, 30).getTime();

function meta(over: Partial<HistoryBeginMeta> = {}): HistoryBeginMeta {
    return { workspace: '/home/u/work/proj', project: 'proj', sandbox: 'proj-0123abcd', agent: 'claude', model: 'opus',
        mode: 'daemon', startedAt: DAY, ...over };
}

function json(file: string): unknown {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
}

describe('session history: every session\'s output kept on the host (unit)', () => {
    let root: string;
    let dir: string;

    beforeEach(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-history-'));
        dir = path.join(root, 'data', 'history');
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('names the log by the local start date and the sandbox, beside its record, in a 0700 folder of 0600 files', async () => {
        const history = new SessionHistory(dir);
        const rec = history.begin(meta());
        expect(rec.id).to.equal('2026-01-05-proj-0123abcd');
        expect(rec.active).to.equal(true);
        expect(fs.statSync(dir).mode & 0o777).to.equal(0o700);
        for (const f of ['2026-01-05-proj-0123abcd.log', '2026-01-05-proj-0123abcd.json']) {
            expect(fs.statSync(path.join(dir, f)).mode & 0o777, f).to.equal(0o600);
        }
        expect(json(path.join(dir, `${rec.id}.json`)), 'written at the start').to.deep.include({ id: rec.id, project: 'proj', bytes: 0 });
        await rec.end({ endedAt: DAY + 1 });
    });

    it('a later session of the same sandbox that day gets -2, -3 (running or ended); another day none', async () => {
        const history = new SessionHistory(dir);
        const first = history.begin(meta());
        const second = history.begin(meta({ startedAt: DAY + 60_000 }));
        await first.end({ endedAt: DAY + 1000 });
        const third = history.begin(meta({ startedAt: DAY + 120_000 }));
        const nextDay = history.begin(meta({ startedAt: DAY + 24 * 3600_000 }));
        expect([first.id, second.id, third.id, nextDay.id]).to.deep.equal([
            '2026-01-05-proj-0123abcd', '2026-01-05-proj-0123abcd-2', '2026-01-05-proj-0123abcd-3', '2026-01-06-proj-0123abcd']);
        // A new store on the same folder (the IDE restarted) still does not reuse a name.
        expect(new SessionHistory(dir).begin(meta({ startedAt: DAY + 180_000 })).id).to.equal('2026-01-05-proj-0123abcd-4');
        await Promise.all([second, third, nextDay].map(r => r.dispose()));
    });

    it('appends the raw output and ends the record with what the session ended with', async () => {
        const history = new SessionHistory(dir);
        const rec = history.begin(meta({ mode: 'foreground' }));
        rec.write('\x1b[32mhello\x1b[0m ');
        rec.write('wörld\r\n');
        await rec.flushed();
        expect(fs.readFileSync(path.join(dir, `${rec.id}.log`), 'utf8')).to.equal('\x1b[32mhello\x1b[0m wörld\r\n');
        const live = (await history.list())[0];
        const bytes = Buffer.byteLength('\x1b[32mhello\x1b[0m wörld\r\n');
        expect(live, 'a running session is listed with what it has so far').to.deep.include({ id: rec.id, bytes });
        expect(live.endedAt).to.equal(undefined);
        await rec.end({ endedAt: DAY + 5000, exitCode: 3, endReason: 'attached elsewhere' });
        rec.write('after the end');
        await rec.flushed();
        const expected = {
            id: rec.id, workspace: '/home/u/work/proj', project: 'proj', sandbox: 'proj-0123abcd', agent: 'claude', model: 'opus',
            mode: 'foreground', startedAt: DAY, endedAt: DAY + 5000, exitCode: 3, endReason: 'attached elsewhere', bytes, truncated: false
        };
        expect(json(path.join(dir, `${rec.id}.json`))).to.deep.equal(expected);
        expect(fs.readFileSync(path.join(dir, `${rec.id}.log`), 'utf8'), 'nothing after the end').to.equal('\x1b[32mhello\x1b[0m wörld\r\n');
        expect(await new SessionHistory(dir).list(), 'read back by a new store').to.deep.equal([expected]);
        expect(fs.readdirSync(dir).filter(n => n.endsWith('.tmp')), 'no temp files left').to.deep.equal([]);
    });

    it('rolling truncation keeps the most recent output, never more than the cap, and says so', async () => {
        const history = new SessionHistory(dir, { capBytes: 1000 });
        const rec = history.begin(meta());
        let all = '';
        for (let i = 0; i < 120; i++) {
            const line = `line ${String(i).padStart(4, '0')} ${'x'.repeat(i % 37)}\n`;
            all += line;
            rec.write(line);
            if (i === 20) {
                await rec.flushed();
                expect(rec.record.truncated, 'not yet over the cap').to.equal(false);
            }
            if (i % 10 === 0) {
                await rec.flushed();
                const size = ['.log', '.log.1'].reduce((n, e) => n + (fs.existsSync(path.join(dir, rec.id + e)) ? fs.statSync(path.join(dir, rec.id + e)).size : 0), 0);
                expect(size, `after line ${i}`).to.be.at.most(1000);
            }
        }
        await rec.end({ endedAt: DAY + 1 });
        const kept = fs.readFileSync(path.join(dir, `${rec.id}.log.1`), 'utf8') + fs.readFileSync(path.join(dir, `${rec.id}.log`), 'utf8');
        expect(kept.length).to.be.within(500, 1000);
        expect(all.endsWith(kept), 'the log is the end of the output').to.equal(true);
        const record = json(path.join(dir, `${rec.id}.json`)) as { truncated: boolean; bytes: number };
        expect(record.truncated).to.equal(true);
        expect(record.bytes).to.equal(Buffer.byteLength(all));
        const chunk = await history.read(rec.id);
        expect(chunk!.text).to.equal(kept);
        expect(chunk!.size).to.equal(kept.length);
    });

    it('a log over half the cap but under it is whole and not marked truncated', async () => {
        const history = new SessionHistory(dir, { capBytes: 1000 });
        const rec = history.begin(meta());
        const text = 'abcdefghij'.repeat(70);
        rec.write(text);
        await rec.end({ endedAt: DAY + 1 });
        expect(fs.statSync(path.join(dir, `${rec.id}.log.1`)).size).to.equal(500);
        expect((await history.read(rec.id))!.text).to.equal(text);
        expect((await history.list())[0].truncated).to.equal(false);
    });

    it('lists newest first, by project, and by text searched in the plain output (case-insensitive, across chunks)', async () => {
        const history = new SessionHistory(dir);
        const a = history.begin(meta({ project: 'alpha', sandbox: 'alpha-11111111', startedAt: DAY }));
        a.write('compiling \x1b[1mNe\x1b[0medle\x1b[0m done\r\n');
        const b = history.begin(meta({ project: 'beta', sandbox: 'beta-22222222', startedAt: DAY + 3000 }));
        // "needle" straddles the search's 1 MiB read boundary.
        b.write('.'.repeat(1024 * 1024 - 3) + 'needle' + '.'.repeat(100));
        const c = history.begin(meta({ project: 'alpha', sandbox: 'alpha-11111111', startedAt: DAY + 6000 }));
        c.write('nothing to see');
        await Promise.all([a, b, c].map(r => r.end({ endedAt: DAY + 9000 })));

        expect((await history.list()).map(r => r.id)).to.deep.equal([c.id, b.id, a.id]);
        expect((await history.list({ project: 'alpha' })).map(r => r.id)).to.deep.equal([c.id, a.id]);
        expect((await history.list({ text: 'NEEDLE' })).map(r => r.id)).to.deep.equal([b.id, a.id]);
        expect((await history.list({ text: 'needle', project: 'alpha' })).map(r => r.id)).to.deep.equal([a.id]);
        expect((await history.list({ text: 'needle', limit: 1 })).map(r => r.id)).to.deep.equal([b.id]);
        expect((await history.list({ limit: 2 })).map(r => r.id)).to.deep.equal([c.id, b.id]);
        expect(await history.list({ text: 'absent' })).to.deep.equal([]);
        expect(await history.list({ project: 'gamma' })).to.deep.equal([]);
    });

    it('reads in bounded pages that together are the display text, with control strings cut nowhere', async () => {
        const history = new SessionHistory(dir);
        const rec = history.begin(meta());
        let all = '';
        for (let i = 0; i < 3000; i++) {
            const piece = i % 7 === 0 ? `\x1b]9;notify ${i}\x07` : i % 11 === 0 ? `\x1b]52;c;${'QUFB'.repeat(50)}\x1b\\`
                : `\x1b[3${i % 8}mrow ${i} ✓ é\x1b[0m\r\n`;
            all += piece;
            rec.write(piece);
        }
        await rec.end({ endedAt: DAY + 1 });
        const size = Buffer.byteLength(all);
        let text = '';
        let offset: number | undefined = 0;
        let pages = 0;
        while (offset !== undefined) {
            const page = await history.read(rec.id, offset, 4096);
            expect(page!.offset).to.equal(offset);
            expect(Buffer.byteLength(page!.text), 'bounded').to.be.at.most(4096);
            expect(page!.size).to.equal(size);
            if (page!.nextOffset !== undefined) {
                expect(page!.nextOffset).to.be.above(offset);
            }
            text += page!.text;
            offset = page!.nextOffset;
            pages++;
        }
        expect(pages).to.be.above(size / 4096);
        expect(text).to.equal(displayTranscript(all));
        expect(text).to.not.include('\x1b]');
        expect(text).to.include('\x1b[31mrow 1 ✓ é\x1b[0m');
        const past = await history.read(rec.id, size + 10);
        expect(past).to.deep.include({ text: '', offset: size });
        expect(past!.nextOffset).to.equal(undefined);
        expect(await history.read('2026-01-05-nobody')).to.equal(undefined);
    });

    it('a page that opens with a control string longer than the page skips it, showing nothing of it', async () => {
        const history = new SessionHistory(dir);
        const rec = history.begin(meta());
        rec.write('before\x1b]52;c;' + 'A'.repeat(10_000) + '\x07after');
        await rec.end({ endedAt: DAY + 1 });
        const first = await history.read(rec.id, 0, 100);
        expect(first).to.deep.include({ text: 'before', nextOffset: 6 });
        const second = await history.read(rec.id, 6, 100);
        expect(second!.text).to.equal('');
        const third = await history.read(rec.id, second!.nextOffset!, 100);
        expect(third).to.deep.include({ text: 'after', nextOffset: undefined });
    });

    it('writes nothing but its own files in its folder: not in the workspace, not beside the folder', async () => {
        const workspace = path.join(root, 'ws');
        fs.mkdirSync(workspace);
        const history = new SessionHistory(dir);
        const rec = history.begin(meta({ workspace }));
        rec.write('out');
        await rec.end({ endedAt: DAY + 1 });
        expect(fs.readdirSync(workspace)).to.deep.equal([]);
        expect(fs.readdirSync(path.join(root, 'data'))).to.deep.equal(['history']);
        expect(fs.readdirSync(dir).sort()).to.deep.equal([`${rec.id}.json`, `${rec.id}.log`]);
        expect(await history.remove(rec.id)).to.equal(true);
        expect(fs.readdirSync(dir)).to.deep.equal([]);
    });

    it('file names: only safe characters, and every name made is an id the store will open', () => {
        expect(historyNamePart('proj-0123abcd')).to.equal('proj-0123abcd');
        expect(historyNamePart('a b/c')).to.equal('a_b_c');
        expect(historyNamePart('')).to.equal('session');
        expect(isHistoryId('2026-01-05-proj-0123abcd-12')).to.equal(true);
        expect(historyNamePart('my.proj-1a2b3c4d')).to.equal('my_proj-1a2b3c4d');
        expect(isHistoryId('2026-01-05-proj.v2'), 'no dots: no id names another of the store\'s files').to.equal(false);
        expect(isHistoryId('2026-01-05-proj-0123abcd.log')).to.equal(false);
    });
});
