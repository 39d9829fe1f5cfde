import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { approvedRecordHashes, approvedSetHashes, checkGateRecord, recordedHash, sortAsSandy } from './gate-records';
import { sha256Hex } from './preflight';
import { PendingGates } from '../../common/approvals/launch-gates';

const lines = (...l: string[]) => l.map(approvalLine => ({ approvalLine }));
/** sandy's record as it writes it (CONTRACT §4.1). */
const record = (hash: string) => `${hash}\n# workspace: /w\n# approved:  2026-12-06T10:00:00Z\nSANDY_ALLOW_HOSTS\n`;

describe('gate-records: what sandy recorded after the tab answered', () => {
    describe('approvedSetHashes', () => {
        it('holds the byte-order hash sandy writes in the C locale, and the order another locale sorts in', async () => {
            const set = lines('SANDY_SSH=agent', 'SANDY_ALLOW_HOSTS=a.example', 'SANDY_ALLOW_HOSTS=Z.example');
            const hashes = await approvedSetHashes(set);
            expect(hashes.has(sha256Hex('SANDY_ALLOW_HOSTS=Z.example\nSANDY_ALLOW_HOSTS=a.example\nSANDY_SSH=agent')), 'C: Z before a').to.equal(true);
            expect(hashes.has(sha256Hex('SANDY_ALLOW_HOSTS=a.example\nSANDY_ALLOW_HOSTS=Z.example\nSANDY_SSH=agent')), 'en_US: a before Z').to.equal(true);
            expect(hashes.size).to.equal(6);
        });

        it('holds no hash of another set: a swapped value, a line more or less, a trailing newline', async () => {
            const hashes = await approvedSetHashes(lines('SANDY_ALLOW_HOSTS=gates.example.com', 'SANDY_SSH=agent'));
            for (const other of [
                'SANDY_ALLOW_HOSTS=evil.example.com\nSANDY_SSH=agent',
                'SANDY_ALLOW_HOSTS=gates.example.com',
                'SANDY_ALLOW_HOSTS=gates.example.com\nSANDY_SSH=agent\nSANDY_SKIP_PERMISSIONS=true',
                'SANDY_ALLOW_HOSTS=gates.example.com\nSANDY_SSH=agent\n'
            ]) {
                expect(hashes.has(sha256Hex(other)), other).to.equal(false);
            }
        });

        it('a set too large to enumerate: the order sort -u gives in sandy\'s environment counts (glibc\'s en_US ignores punctuation), and byte order', async () => {
            const many = lines(...Array.from({ length: 7 }, (_, i) => `K${i}=v`), 'SANDY_ALLOW_HOSTS=a.example.com', 'SANDY_ALLOW_HOSTS=ab.example.com');
            const byteOrder = [...new Set(many.map(l => l.approvalLine))].sort();
            // en_US.UTF-8's sort -u puts "ab.example.com" before "a.example.com" (the dot is ignored at first).
            const localeOrder = [...byteOrder.slice(0, 7), 'SANDY_ALLOW_HOSTS=ab.example.com', 'SANDY_ALLOW_HOSTS=a.example.com'];
            const asked: string[][] = [];
            const hashes = await approvedSetHashes(many, async l => { asked.push([...l]); return localeOrder; });
            expect(asked, 'sort is given the unique lines once').to.deep.equal([byteOrder]);
            expect([...hashes].sort()).to.deep.equal([sha256Hex(byteOrder.join('\n')), sha256Hex(localeOrder.join('\n'))].sort());
            expect((await approvedSetHashes(many, async () => undefined)).size, 'sort failed: byte order only').to.equal(1);
            expect((await approvedSetHashes(lines('A=1', 'A=1'))).size, 'duplicates once (sort -u)').to.equal(1);
        });

        it('sortAsSandy runs the system\'s sort -u in the environment given, the lines on stdin', async () => {
            const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
            expect(await sortAsSandy(env)(['b=1', 'B=2', 'a=3', 'b=1', '$(touch /tmp/x)'])).to.deep.equal(['$(touch /tmp/x)', 'B=2', 'a=3', 'b=1']);
            expect(await sortAsSandy({ PATH: '/nonexistent' })(['a']), 'no sort on its PATH').to.equal(undefined);
        });
    });

    it('approvedRecordHashes: the Dockerfile context in byte order only (sandy sorts it with LC_ALL=C); the keys in any order; nothing for a gate not approved', async () => {
        const hash = 'a'.repeat(64);
        expect([...await approvedRecordHashes('dockerfile', { workspace: '/w', dockerfile: { hash } } as unknown as PendingGates, [])]).to.deep.equal([hash]);
        const set = lines('B=1', 'A=1');
        const keys = { workspace: '/w', privileged: { setHash: sha256Hex('A=1\nB=1'), keys: ['A', 'B'] } } as unknown as PendingGates;
        const accepted = await approvedRecordHashes('privileged', keys, set);
        expect(accepted.has(sha256Hex('B=1\nA=1'))).to.equal(true);
        expect(accepted.has(sha256Hex('A=2\nB=1'))).to.equal(false);
        expect((await approvedRecordHashes('privileged', { workspace: '/w' } as PendingGates, set)).size, 'no keys were approved').to.equal(0);
        expect((await approvedRecordHashes('dockerfile', keys, set)).size, 'no Dockerfile was approved').to.equal(0);
    });

    it('recordedHash: line 1 when it is a hash, CR tolerated; anything else is no record', () => {
        const h = 'c'.repeat(64);
        expect(recordedHash(record(h))).to.equal(h);
        expect(recordedHash(`${h}\r\nX\r\n`)).to.equal(h);
        expect(recordedHash(h.slice(0, 40))).to.equal(undefined);
        expect(recordedHash('# workspace: /w\n')).to.equal(undefined);
        expect(recordedHash(undefined)).to.equal(undefined);
    });

    describe('checkGateRecord', () => {
        let home: string;
        let file: string;
        beforeEach(() => {
            home = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-records-'));
            fs.mkdirSync(path.join(home, 'approvals'));
            file = path.join(home, 'approvals', 'passive-0123456789abcdef.list');
        });
        afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

        const approvedHash = 'a'.repeat(64);
        const check = (before: string | undefined, waitMs = 2000) =>
            checkGateRecord({ file, sandyHome: home, before, matches: h => h === approvedHash, waitMs, pollMs: 20 });

        it('waits for sandy to write its record after the answer: the approved set, or another', async () => {
            const approved = check(undefined);
            setTimeout(() => fs.writeFileSync(file, record(approvedHash)), 150);
            expect(await approved).to.equal('approved');
            fs.rmSync(file);
            const other = check(undefined);
            setTimeout(() => fs.writeFileSync(file, record('e'.repeat(64))), 150);
            expect(await other).to.equal('other');
        });

        it('an earlier record (of a set approved before) is not sandy\'s answer: it waits for the new one', async () => {
            const old = record('0'.repeat(64));
            fs.writeFileSync(file, old);
            const result = check(old);
            setTimeout(() => fs.writeFileSync(file, record('e'.repeat(64))), 200);
            expect(await result).to.equal('other');
            fs.writeFileSync(file, old);
            expect(await check(old, 300), 'unchanged: sandy wrote nothing new').to.equal('unwritten');
        });

        it('the session ended before sandy wrote: one last read, then no verdict (a later launch writes its own record)', async () => {
            let ended = false;
            const started = Date.now();
            const result = checkGateRecord({ file, sandyHome: home, before: undefined, matches: h => h === approvedHash, ended: () => ended, waitMs: 5000, pollMs: 20 });
            setTimeout(() => ended = true, 100);
            expect(await result).to.equal('unwritten');
            expect(Date.now() - started, 'not the whole wait').to.be.below(1000);
            fs.writeFileSync(file, record('e'.repeat(64)));
            expect(await checkGateRecord({ file, sandyHome: home, before: undefined, matches: () => false, ended: () => true }), 'written as it ended: still read').to.equal('other');
        });

        it('nothing written, or a record that is a symlink (sandy never writes one): unwritten, no verdict', async () => {
            expect(await check(undefined, 200)).to.equal('unwritten');
            const elsewhere = path.join(home, 'elsewhere');
            fs.writeFileSync(elsewhere, record(approvedHash));
            fs.symlinkSync(elsewhere, file);
            expect(await check(undefined, 200)).to.equal('unwritten');
        });
    });
});
