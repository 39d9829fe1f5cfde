import { expect } from 'chai';
import { daemonSessionId, PROMPT_QUIET_MS, PtySupervisor } from './pty-supervisor';
import { WORKING_WINDOW_MS } from '../../common/session/session-attention';
import type { SessionInfo } from '../../common/session/session-types';
import { ScriptedPty } from '../test/scripted-pty';


describe('PtySupervisor (unit)', () => {
    it('delivers output that node-pty reports after the exit before announcing the exit', async () => {
        const pty = new ScriptedPty();
        const supervisor = new PtySupervisor(() => pty, { interruptGraceMs: 10, terminateGraceMs: 10 }, () => undefined);
        const info = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24 });
        const view = await supervisor.attach(info.id);
        const events: string[] = [];
        view.onData(d => events.push(`data:${d}`));
        view.onExit((e: SessionInfo) => events.push(`exit:${e.exitCode}`));
        pty.emit('first');
        pty.exit(0);
        // node-pty's last read arrives after its exit event.
        setTimeout(() => pty.emit('last words'), 10);
        await new Promise(r => setTimeout(r, 200));
        expect(events).to.deep.equal(['data:first', 'data:last words', 'exit:0']);
        expect(supervisor.get(info.id)!.status).to.equal('exited');
    });

    it('does not hold an exit back forever when output never stops', async () => {
        const pty = new ScriptedPty();
        const supervisor = new PtySupervisor(() => pty, { interruptGraceMs: 10, terminateGraceMs: 10 }, () => undefined);
        const info = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24 });
        const timer = setInterval(() => pty.emit('.'), 5);
        const started = Date.now();
        pty.exit(3);
        while (supervisor.get(info.id)!.status !== 'exited') {
            await new Promise(r => setTimeout(r, 20));
            expect(Date.now() - started).to.be.below(2000);
        }
        clearInterval(timer);
        expect(supervisor.get(info.id)!.exitCode).to.equal(3);
    });
});

describe('PtySupervisor: foreground launches through sandy\'s build one at a time (unit)', () => {
    it('the next launch starts once sandy says it is past the build, also when that line comes in one read with much more after it', async () => {
        const ptys: ScriptedPty[] = [];
        const supervisor = new PtySupervisor(() => {
            const p = new ScriptedPty();
            ptys.push(p);
            return p;
        }, { interruptGraceMs: 10, terminateGraceMs: 10 }, () => undefined);
        const launch = (workspace: string) => supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace, env: {}, cols: 80, rows: 24 });
        launch('/w/one');
        launch('/w/two');
        await new Promise(r => setTimeout(r, 20));
        expect(ptys, 'the second waits its turn').to.have.length(1);
        // A loaded machine reads the launch's lines and the agent's first screen in one piece.
        ptys[0].emit(`[sandy] Building images...\r\n\x1b[0;32m[sandy]\x1b[0m Creating new sandbox: one-1234abcd\r\n${'agent screen '.repeat(100)}`);
        await new Promise(r => setTimeout(r, 20));
        expect(ptys, 'the second started after the first got past the build').to.have.length(2);
        await supervisor.dispose();
    });
});

describe('PtySupervisor: where each session stands for the attention queue (unit)', () => {
    let now: number;
    let pty: ScriptedPty;
    let supervisor: PtySupervisor;
    let changes: SessionInfo[];

    beforeEach(() => {
        now = 1_000_000;
        pty = new ScriptedPty();
        supervisor = new PtySupervisor(() => pty, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined, clock: () => now, attentionTickMs: 5 });
        changes = [];
        supervisor.onDidChangeSession(s => changes.push(s));
    });
    afterEach(() => supervisor.dispose());

    const tick = () => new Promise(r => setTimeout(r, 30));
    const launch = () => supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24 });

    it('output is working; quiet for the working window is idle, told to the windows by the clock alone', async () => {
        const { id } = launch();
        expect(supervisor.get(id)!.attention?.state, 'nothing yet').to.equal('idle');
        pty.emit('thinking…');
        await tick();
        expect(supervisor.get(id)!.attention).to.deep.equal({ state: 'working', since: now });
        expect(supervisor.get(id)!.lastOutputAt).to.equal(now);
        expect(changes.at(-1)!.attention?.state, 'the windows were told').to.equal('working');
        const told = changes.length;
        pty.emit('more');
        await tick();
        expect(changes.length, 'more output while working is no change').to.equal(told);
        now += WORKING_WINDOW_MS;
        await tick();
        expect(changes.at(-1)!.attention?.state).to.equal('idle');
        expect(changes.length).to.equal(told + 1);
    });

    it('an OSC 9 the user has not seen makes it need you at once, since then; seeing it clears the wait', async () => {
        const { id } = launch();
        const asked = now;
        pty.emit('\x1b]9;Permission needed\x07');
        await tick();
        expect(supervisor.get(id)!.attention).to.deep.equal({ state: 'needs-you', since: asked, waitingFor: 'notification' });
        expect(changes.some(c => c.attention?.state === 'needs-you'), 'told before the notification\'s own batching').to.equal(true);
        now += 60_000;
        pty.emit('\x07');
        await tick();
        expect(supervisor.get(id)!.attention, 'a later bell keeps the wait\'s start').to.deep.equal({ state: 'needs-you', since: asked, waitingFor: 'notification' });
        supervisor.setSeen(id, true);
        expect(supervisor.get(id)!.attention?.state, 'its bell was output just now').to.equal('working');
        expect(changes.at(-1)!.attention?.state, 'told at once').to.equal('working');
        pty.emit('\x1b]9;while you look\x07');
        await tick();
        expect(supervisor.get(id)!.attention?.state, 'asked while seen: no wait').not.to.equal('needs-you');
        supervisor.setSeen(id, false);
        pty.emit('\x07');
        await tick();
        expect(supervisor.get(id)!.attention).to.deep.equal({ state: 'needs-you', since: now, waitingFor: 'bell' });
    });

    it('a session seen before it is hosted (a restored tab) starts seen: its first notification is no wait', async () => {
        supervisor.setSeen(daemonSessionId('/w'), true);
        const info = supervisor.startDaemon({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24 });
        expect(info.id).to.equal(daemonSessionId('/w'));
        pty.emit('\x1b]9;hello\x07');
        await tick();
        expect(supervisor.get(info.id)!.attention?.state).not.to.equal('needs-you');
    });

    it('an ended session is exited or failed by how it ended, never needs-you', async () => {
        const { id } = launch();
        pty.emit('\x1b]9;bye\x07');
        pty.exit(0);
        await new Promise(r => setTimeout(r, 150));
        expect(supervisor.get(id)!.attention?.state).to.equal('exited');
        const second = new ScriptedPty();
        pty = second;
        const failed = launch();
        second.exit(2);
        await new Promise(r => setTimeout(r, 150));
        expect(supervisor.get(failed.id)!.attention?.state).to.equal('failed');
    });

    it('a screen showing its agent\'s prompt once output went quiet is a wait (waiting for its prompt); the prompt going ends it', async () => {
        const asked: Array<{ lines: readonly string[]; agent: string | undefined }> = [];
        supervisor.dispose();
        supervisor = new PtySupervisor(() => pty, {
            timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined, clock: () => now, attentionTickMs: 5,
            promptDetector: (lines, agent) => {
                asked.push({ lines, agent });
                return lines.some(l => l.includes('Do you trust the files in this folder?'));
            }
        });
        /** Waits (real time: the screen is parsed asynchronously) until `probe` holds. */
        const until = async (probe: () => boolean, what: string) => {
            const deadline = Date.now() + 5_000;
            while (!probe()) {
                expect(Date.now(), what).to.be.below(deadline);
                await new Promise(r => setTimeout(r, 10));
            }
        };
        const { id } = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24, agent: 'claude' });
        pty.emit('working on it\r\n');
        await tick();
        expect(asked, 'not while output is fresh').to.deep.equal([]);
        now += PROMPT_QUIET_MS;
        await until(() => asked.length === 1, 'the screen looked at once the output went quiet');
        expect(asked[0].agent).to.equal('claude');
        await tick();
        expect(asked.length, 'once per quiet spell, not again without new output').to.equal(1);
        expect(supervisor.get(id)!.attention?.state, 'no prompt on screen').not.to.equal('needs-you');

        pty.emit('\x1b[2J\x1b[HDo you trust the files in this folder?\r\n❯ 1. Yes, proceed\r\n  2. No, exit');
        now += PROMPT_QUIET_MS;
        await until(() => supervisor.get(id)!.attention?.state === 'needs-you', 'the prompt to be a wait');
        expect(supervisor.get(id)!.attention).to.deep.include({ state: 'needs-you', waitingFor: 'prompt' });
        pty.emit('\x1b[2J\x1b[HThinking…');
        now += PROMPT_QUIET_MS;
        await until(() => asked.length === 3, 'the new screen looked at');
        await until(() => supervisor.get(id)!.attention?.state !== 'needs-you', 'the prompt gone: no wait');

        // The clock set back an hour after the prompt was drawn: it is still looked at, not an hour later.
        pty.emit('\x1b[2J\x1b[HDo you trust the files in this folder?\r\n❯ 1. Yes, proceed\r\n  2. No, exit');
        await tick();
        now -= 3_600_000;
        await until(() => supervisor.get(id)!.attention?.state === 'needs-you', 'the prompt a wait although the clock went back');
    });
});

