import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApprovalMemory } from '../approvals/approval-memory';
import { workspaceHash16 } from '../approvals/preflight';

describe('approval-memory (unit)', () => {
    let tmp: string;

    beforeEach(() => {
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ui-approval-memory-'));
    });

    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it('records, reads and forgets value hashes per workspace in a private file', async () => {
        const storage = path.join(tmp, 'storage');
        const memory = new ApprovalMemory(storage);
        const ws = workspaceHash16('/work/ws');
        expect(await memory.get(ws)).to.equal(undefined);
        await memory.record(ws, { SANDY_SSH: 'h1' });
        await memory.record(workspaceHash16('/other'), { ANTHROPIC_API_KEY: 'h2' });
        expect(await memory.get(ws)).to.deep.equal({ SANDY_SSH: 'h1' });
        expect(fs.statSync(memory.file).mode & 0o777).to.equal(0o600);
        expect(fs.statSync(storage).mode & 0o777).to.equal(0o700);
        await memory.forget(ws);
        expect(await memory.load()).to.deep.equal({ [workspaceHash16('/other')]: { ANTHROPIC_API_KEY: 'h2' } });
    });

    it('concurrent records do not lose each other', async () => {
        const memory = new ApprovalMemory(tmp);
        const hashes = Array.from({ length: 15 }, (_, i) => workspaceHash16(`/ws/${i}`));
        await Promise.all(hashes.map((h, i) => memory.record(h, { K: String(i) })));
        expect(Object.keys(await memory.load()).sort()).to.deep.equal([...hashes].sort());
    });

    it('reads a corrupt file as empty and refuses non-hash workspace ids', async () => {
        const memory = new ApprovalMemory(tmp);
        fs.writeFileSync(memory.file, '{ not json');
        expect(await memory.load()).to.deep.equal({});
        await memory.record('__proto__', {}).then(() => expect.fail(), e => expect(e.message).to.match(/Not a workspace hash/));
    });

    it('remembers only an approved set', async () => {
        const memory = new ApprovalMemory(tmp);
        const ws = workspaceHash16('/w');
        const pending = [{ key: 'SANDY_SSH', approvalLine: 'SANDY_SSH=agent' }] as never[];
        expect(await memory.rememberIfApproved(ws, { approvalStatus: 'pending', pendingPrivileged: pending })).to.equal(false);
        expect(await memory.rememberIfApproved(ws, { approvalStatus: 'approved', pendingPrivileged: pending })).to.equal(true);
        expect(Object.keys((await memory.get(ws))!)).to.deep.equal(['SANDY_SSH']);
    });
});
