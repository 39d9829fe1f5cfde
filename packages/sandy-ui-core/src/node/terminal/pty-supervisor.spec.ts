import { expect } from 'chai';
import { PtyLike, PtySupervisor } from './pty-supervisor';
import type { SessionInfo } from '../../common/session/session-types';

/** A PTY whose events the test fires by hand. */
class ScriptedPty implements PtyLike {
    readonly pid = 4242;
    protected dataListeners: Array<(d: string) => void> = [];
    protected exitListeners: Array<(e: { exitCode: number; signal?: number }) => void> = [];
    onData(l: (d: string) => void) { this.dataListeners.push(l); return { dispose: () => undefined }; }
    onExit(l: (e: { exitCode: number; signal?: number }) => void) { this.exitListeners.push(l); return { dispose: () => undefined }; }
    emitData(d: string): void { this.dataListeners.forEach(l => l(d)); }
    emitExit(code: number): void { this.exitListeners.forEach(l => l({ exitCode: code })); }
    write(): void { /* unused */ }
    resize(): void { /* unused */ }
    pause(): void { /* unused */ }
    resume(): void { /* unused */ }
    kill(): void { /* unused */ }
}

describe('PtySupervisor (unit)', () => {
    it('delivers output that node-pty reports after the exit before announcing the exit', async () => {
        const pty = new ScriptedPty();
        const supervisor = new PtySupervisor(() => pty, { interruptGraceMs: 10, terminateGraceMs: 10 }, () => undefined);
        const info = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24 });
        const view = supervisor.attach(info.id);
        const events: string[] = [];
        view.onData(d => events.push(`data:${d}`));
        view.onExit((e: SessionInfo) => events.push(`exit:${e.exitCode}`));
        pty.emitData('first');
        pty.emitExit(0);
        // node-pty's last read arrives after its exit event.
        setTimeout(() => pty.emitData('last words'), 10);
        await new Promise(r => setTimeout(r, 200));
        expect(events).to.deep.equal(['data:first', 'data:last words', 'exit:0']);
        expect(supervisor.get(info.id)!.status).to.equal('exited');
    });

    it('does not hold an exit back forever when output never stops', async () => {
        const pty = new ScriptedPty();
        const supervisor = new PtySupervisor(() => pty, { interruptGraceMs: 10, terminateGraceMs: 10 }, () => undefined);
        const info = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24 });
        const timer = setInterval(() => pty.emitData('.'), 5);
        const started = Date.now();
        pty.emitExit(3);
        while (supervisor.get(info.id)!.status !== 'exited') {
            await new Promise(r => setTimeout(r, 20));
            expect(Date.now() - started).to.be.below(2000);
        }
        clearInterval(timer);
        expect(supervisor.get(info.id)!.exitCode).to.equal(3);
    });
});
