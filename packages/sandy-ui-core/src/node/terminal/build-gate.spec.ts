import { expect } from 'chai';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BuildGate } from './build-gate';

describe('BuildGate: one launch at a time through sandy\'s build', () => {
    let dir: string;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('queues turns in order within a process, each after the previous released', async () => {
        const gate = new BuildGate(path.join(dir, 'lock'), { pollMs: 10 });
        const order: string[] = [];
        const a = gate.enter();
        const b = gate.enter();
        const c = gate.enter();
        expect([a.now, b.now, c.now]).to.deep.equal([true, false, false]);
        void b.ready.then(() => order.push('b'));
        void c.ready.then(() => order.push('c'));
        await new Promise(r => setTimeout(r, 50));
        expect(order).to.deep.equal([]);
        a.release();
        a.release();
        await b.ready;
        expect(order).to.deep.equal(['b']);
        b.release();
        await c.ready;
        expect(order).to.deep.equal(['b', 'c']);
        c.release();
        expect(fs.existsSync(path.join(dir, 'lock')), 'the last release frees the lock').to.equal(false);
    });

    it('waits for another process holding the lock, and takes over a lock whose holder died', async () => {
        const lock = path.join(dir, 'lock');
        // Another IDE process holds the turn.
        const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
        try {
            fs.mkdirSync(lock);
            fs.writeFileSync(path.join(lock, 'pid'), `${other.pid}\n`);
            const gate = new BuildGate(lock, { pollMs: 10 });
            const turn = gate.enter();
            expect(turn.now).to.equal(false);
            let got = false;
            void turn.ready.then(() => got = true);
            await new Promise(r => setTimeout(r, 100));
            expect(got, 'not while the other process holds it').to.equal(false);
            other.kill('SIGKILL');
            await turn.ready;
            expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8').trim()).to.equal(String(process.pid));
            turn.release();
        } finally {
            other.kill('SIGKILL');
        }
    });

    it('never waits past the limit (a holder that hangs does not block launches for ever)', async () => {
        const lock = path.join(dir, 'lock');
        fs.mkdirSync(lock);
        fs.writeFileSync(path.join(lock, 'pid'), `${process.ppid}\n`);
        const gate = new BuildGate(lock, { pollMs: 10, maxHoldMs: 60 });
        const turn = gate.enter();
        await turn.ready;
        turn.release();
        expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8').trim(), 'a lock that is not ours is left alone').to.equal(String(process.ppid));
    });
});
