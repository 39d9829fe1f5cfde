/**
 * Attack: Stop on an orphan whose pid no longer runs sandy. An orphan is a foreground sandy this IDE
 * launched that still held its lock when the IDE came back; its pid is only a number, and by the
 * time the user clicks Stop it may belong to another program — whose process group must never get
 * SIGINT, SIGTERM or SIGKILL from the IDE. Real processes, the real identity check (/proc), the
 * supervisor's real escalation; only the signal itself is recorded instead of sent.
 */
import { expect } from 'chai';
import { ChildProcess, spawn } from 'child_process';
import { PtyLike, PtySupervisor } from './pty-supervisor';
import { isSandyProcess } from './process-identity';

const WS = '/home/u/proj';

/** A program of the user's that is not sandy, in its own process group (as a shell job is). */
function otherProgram(command: string, args: string[]): Promise<ChildProcess> {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    return new Promise((resolve, reject) => {
        child.once('spawn', () => resolve(child));
        child.once('error', reject);
    });
}

function alive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

function supervisorRecordingSignals() {
    const signals: string[] = [];
    const supervisor = new PtySupervisor((): PtyLike => {
        throw new Error('no sandy is spawned in this test');
    }, {
        timings: { interruptGraceMs: 50, terminateGraceMs: 50 },
        sendSignal: (pid, signal) => signals.push(`${signal} ${pid}`)
        // pidAlive and isSandy: the real ones (kill -0, /proc/<pid>/cmdline).
    });
    return { supervisor, signals };
}

describe('Attack: Stop on an orphan whose pid another program has now (unit, real processes)', () => {
    const children: ChildProcess[] = [];

    afterEach(() => {
        for (const c of children.splice(0)) {
            try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ }
        }
    });

    it('a pid that runs another program is not sandy, and Stop sends its process group no signal', async () => {
        const other = await otherProgram('sleep', ['30']);
        children.push(other);
        const pid = other.pid!;
        expect(isSandyProcess(pid), `isSandyProcess(${pid}: sleep 30)`).to.equal(false);

        const { supervisor, signals } = supervisorRecordingSignals();
        // The lock still named this pid when --print-state ran (the IDE's check then came first).
        supervisor.reconcile({ daemons: [], orphans: [{ workspace: WS, pid }], observedAt: Date.now() });
        const orphan = supervisor.list().find(s => s.origin === 'orphan');
        expect(orphan, 'the orphan offered for Stop').to.include({ pid, workspace: WS, status: 'running' });

        const stopped = await supervisor.stop(orphan!.id);
        expect(signals, 'signals sent for the orphan').to.deep.equal([]);
        expect(stopped.status, 'the orphan is over (its sandy is gone)').to.equal('exited');
        expect(alive(pid), 'the other program').to.equal(true);
        await supervisor.dispose();
    });

    it('pid 0, 1, negative or fractional pids are never sandy (kill(-1) would signal every process of the user)', () => {
        for (const pid of [0, 1, -1, -1234, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) {
            expect(isSandyProcess(pid), `isSandyProcess(${pid})`).to.equal(false);
        }
    });
});
