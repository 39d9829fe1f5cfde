/**
 * Attack: Stop on an orphan whose pid was reused by a program that merely has a
 * file named `sandy` as its argument (`cat sandy`, `vim sandy`, `less sandy`, `man sandy`) signals
 * that program's process group: isSandyProcess takes any argv[0..1] ending in `/sandy` or equal to
 * `sandy` for sandy. The IDE must only signal the very sandy it launched.
 */
import { expect } from 'chai';
import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PtyLike, PtySupervisor } from './pty-supervisor';

const WS = '/home/u/proj';

describe('Attack: Stop on an orphan whose pid now runs `cat sandy` (unit, real processes)', () => {
    let dir: string;
    let child: ChildProcess | undefined;

    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orphan-reuse-'));
    });

    afterEach(() => {
        try { process.kill(-child!.pid!, 'SIGKILL'); } catch { /* gone */ }
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it('sends no signal to a user\'s `cat sandy` that got the orphan\'s pid', async () => {
        // The user reads a file named sandy (a FIFO here, so the program stays up): `cat sandy`, in its own group.
        execFileSync('mkfifo', [path.join(dir, 'sandy')]);
        child = spawn('cat', ['sandy'], { cwd: dir, detached: true, stdio: 'ignore' });
        await new Promise(resolve => child!.once('spawn', resolve));
        const pid = child.pid!;
        const signals: string[] = [];
        const supervisor = new PtySupervisor((): PtyLike => { throw new Error('none'); }, {
            timings: { interruptGraceMs: 50, terminateGraceMs: 50 },
            sendSignal: (p, signal) => signals.push(`${signal} ${p}`)
        });
        supervisor.reconcile({ daemons: [], orphans: [{ workspace: WS, pid }], observedAt: Date.now() });
        const orphan = supervisor.list().find(s => s.origin === 'orphan')!;
        await supervisor.stop(orphan.id);
        expect(signals, `signals the IDE sent to pid ${pid} (cat sandy)`).to.deep.equal([]);
        await supervisor.dispose();
    });
});
