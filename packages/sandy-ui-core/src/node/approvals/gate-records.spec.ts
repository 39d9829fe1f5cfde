import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { approvedSetHashes, checkGateRecord, recordedHash, recordMatchesApproval } from './gate-records';
import { sha256Hex } from './preflight';
import { PendingGates } from '../../common/approvals/launch-gates';

const lines = (...l: string[]) => l.map(approvalLine => ({ approvalLine }));
/** sandy's record as it writes it (CONTRACT §4.1). */
const record = (hash: string) => `${hash}\n# workspace: /w\n# approved:  2026-12-06T10:00:00Z\nSANDY_ALLOW_HOSTS\n`;

describe('gate-records: what sandy recorded after the tab answered', () => {
    describe('approvedSetHashes', () => {
        it('holds the byte-order hash sandy writes in the C locale, and the order another locale sorts in', () => {
            const set = lines('SANDY_SSH=agent', 'SANDY_ALLOW_HOSTS=a.example', 'SANDY_ALLOW_HOSTS=Z.example');
            const hashes = approvedSetHashes(set);
            expect(hashes.has(sha256Hex('SANDY_ALLOW_HOSTS=Z.example\nSANDY_ALLOW_HOSTS=a.example\nSANDY_SSH=agent')), 'C: Z before a').to.equal(true);
            expect(hashes.has(sha256Hex('SANDY_ALLOW_HOSTS=a.example\nSANDY_ALLOW_HOSTS=Z.example\nSANDY_SSH=agent')), 'en_US: a before Z').to.equal(true);
            expect(hashes.size).to.equal(6);
        });

        it('holds no hash of another set: a swapped value, a line more or less, a trailing newline', () => {
            const hashes = approvedSetHashes(lines('SANDY_ALLOW_HOSTS=gates.example.com', 'SANDY_SSH=agent'));
            for (const other of [
                'SANDY_ALLOW_HOSTS=evil.example.com\nSANDY_SSH=agent',
                'SANDY_ALLOW_HOSTS=gates.example.com',
                'SANDY_ALLOW_HOSTS=gates.example.com\nSANDY_SSH=agent\nSANDY_SKIP_PERMISSIONS=true',
                'SANDY_ALLOW_HOSTS=gates.example.com\nSANDY_SSH=agent\n'
            ]) {
                expect(hashes.has(sha256Hex(other)), other).to.equal(false);
            }
        });

        it('counts duplicates once (sort -u) and bounds a large set to two orders', () => {
            expect(approvedSetHashes(lines('A=1', 'A=1')).size).to.equal(1);
            const many = lines(...Array.from({ length: 12 }, (_, i) => `K${i}=v`));
            expect(approvedSetHashes(many).size).to.be.within(1, 2);
        });
    });

    it('recordMatchesApproval: the Dockerfile context in byte order only (sandy sorts it with LC_ALL=C); the keys in any order', () => {
        const hash = 'a'.repeat(64);
        const approved = { workspace: '/w', dockerfile: { hash } } as unknown as PendingGates;
        expect(recordMatchesApproval('dockerfile', hash, approved, [])).to.equal(true);
        expect(recordMatchesApproval('dockerfile', 'b'.repeat(64), approved, [])).to.equal(false);
        const set = lines('B=1', 'A=1');
        const keys = { workspace: '/w', privileged: { setHash: sha256Hex('A=1\nB=1'), keys: ['A', 'B'] } } as unknown as PendingGates;
        expect(recordMatchesApproval('privileged', sha256Hex('B=1\nA=1'), keys, set)).to.equal(true);
        expect(recordMatchesApproval('privileged', sha256Hex('A=2\nB=1'), keys, set)).to.equal(false);
        expect(recordMatchesApproval('privileged', sha256Hex('A=1\nB=1'), { workspace: '/w' } as PendingGates, set), 'no keys were approved').to.equal(false);
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

        it('nothing written, or a record that is a symlink (sandy never writes one): unwritten, no verdict', async () => {
            expect(await check(undefined, 200)).to.equal('unwritten');
            const elsewhere = path.join(home, 'elsewhere');
            fs.writeFileSync(elsewhere, record(approvedHash));
            fs.symlinkSync(elsewhere, file);
            expect(await check(undefined, 200)).to.equal('unwritten');
        });
    });
});
