import { expect } from 'chai';
import { AckBatcher, ACK_BATCH_CHARS } from '../../common/terminal/ack-batcher';
import { CATCH_UP, FLOW_CONTROL } from '../../common/session/session-types';
import { monotonicNow } from './hosted-session';
import { PtySupervisor } from './pty-supervisor';
import { ScriptedPty } from '../test/scripted-pty';
import { Terminal } from '@xterm/headless';
import { normalLines, parsed, terminalState } from '../test/terminal-state';

const wait = (ms: number) => new Promise(r => setTimeout(r, ms));

describe('AckBatcher: a view acknowledges parsed output in batches (unit)', () => {
    it('a trickle of lines costs one acknowledgement per delay, not one per line', async () => {
        const sent: number[] = [];
        const acks = new AckBatcher(chars => sent.push(chars), ACK_BATCH_CHARS, 30);
        for (let i = 0; i < 10; i++) {
            acks.owe(50);
        }
        expect(sent, 'nothing yet: 500 characters owed').to.deep.equal([]);
        await wait(60);
        expect(sent).to.deep.equal([500]);
        acks.dispose();
    });

    it('pays at once when the batch is full, and on dispose; ignores nonsense counts', () => {
        const sent: number[] = [];
        const acks = new AckBatcher(chars => sent.push(chars), 100, 10_000);
        acks.owe(60);
        acks.owe(NaN);
        acks.owe(-5);
        acks.owe(60);
        expect(sent).to.deep.equal([120]);
        acks.owe(7);
        acks.dispose();
        expect(sent).to.deep.equal([120, 7]);
    });

    it('never owes enough to keep a session paused, or a view waiting for its next frame: what it holds back stays below the resume marks', () => {
        expect(ACK_BATCH_CHARS).to.be.below(FLOW_CONTROL.lowWatermarkChars);
        expect(ACK_BATCH_CHARS).to.be.below(CATCH_UP.windowChars / 2);
    });
});

/** A scripted PTY that records the supervisor's flow control. */
class FlowPty extends ScriptedPty {
    paused = false;
    pauses = 0;
    override pause(): void {
        this.paused = true;
        this.pauses++;
    }
    override resume(): void {
        this.paused = false;
    }
}

describe('Flow control with batched acknowledgements (unit, scripted PTY)', () => {
    it('a flood pauses the PTY above the high mark and a view acknowledging in batches resumes it', async () => {
        const pty = new FlowPty();
        const supervisor = new PtySupervisor(() => pty, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined });
        try {
            const { id } = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/home/u/w', env: {}, cols: 80, rows: 24 });
            const view = await supervisor.attach(id);
            const received: string[] = [];
            view.onData(d => received.push(d));
            const line = 'x'.repeat(79) + '\n';
            for (let sent = 0; sent <= FLOW_CONTROL.highWatermarkChars; sent += line.length) {
                pty.emit(line);
            }
            expect(pty.paused, 'more than the high mark unacknowledged').to.equal(true);
            // The view parses what it got in 4 096-character slices (TerminalView's) and owes the rest.
            const acks = new AckBatcher(chars => view.acknowledge(chars), ACK_BATCH_CHARS, 60_000);
            const total = received.join('').length;
            for (let done = 0; done < total; done += 4096) {
                acks.owe(Math.min(4096, total - done));
            }
            // (Once the backend's own copy of the screen has parsed the megabyte written all at once.)
            await waitFor(() => !pty.paused, 'resumed with only a partial batch still owed');
            acks.dispose();
        } finally {
            await supervisor.dispose();
        }
    });
});

describe('Catching a view up on the alternate screen (unit, scripted PTY)', function () {
    const COLS = 80;
    const ROWS = 24;
    let supervisor: PtySupervisor;
    afterEach(async () => supervisor?.dispose());
    // Megabytes through two xterm parsers: seconds when the unit suite runs its files side by side.
    this.timeout(60_000);

    /** A session whose PTY writes only while not paused, as a process blocked on a full terminal. */
    async function session() {
        const pty = new FlowPty();
        supervisor = new PtySupervisor(() => pty, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined });
        const { id } = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/home/u/w', env: {}, cols: COLS, rows: ROWS });
        const view = await supervisor.attach(id);
        const received: string[] = [];
        view.onData(d => received.push(d));
        const reference = new Terminal({ cols: COLS, rows: ROWS, scrollback: 100_000, allowProposedApi: true });
        let emitted = 0;
        const write = async (text: string) => {
            for (let at = 0; at < text.length; at += 16 * 1024) {
                while (pty.paused) {
                    await wait(2);
                }
                const chunk = text.slice(at, at + 16 * 1024);
                pty.emit(chunk);
                reference.write(chunk);
                emitted += chunk.length;
                await new Promise(resolve => setImmediate(resolve));
            }
        };
        /** The view draws everything it was sent and acknowledges it, until nothing more comes. */
        const viewTerm = new Terminal({ cols: COLS, rows: ROWS, scrollback: 100_000, allowProposedApi: true });
        let drawn = 0;
        /** The view draws and acknowledges what it was sent so far. */
        const drawNow = async () => {
            if (drawn < received.length) {
                const data = received.slice(drawn).join('');
                drawn = received.length;
                await new Promise<void>(resolve => viewTerm.write(data, resolve));
                view.acknowledge(data.length);
            }
        };
        const catchUp = async () => {
            const waiting = () => (view as unknown as { queuedChars: number }).queuedChars;
            for (let quiet = 0; quiet < 10;) {
                if (drawn === received.length) {
                    if (waiting()) {
                        quiet = 0; // a frame is on its way
                    }
                    quiet++;
                    await wait(20);
                    continue;
                }
                quiet = 0;
                const data = received.slice(drawn).join('');
                drawn = received.length;
                await new Promise<void>(resolve => viewTerm.write(data, resolve));
                view.acknowledge(data.length);
            }
            await Promise.all([parsed(viewTerm), parsed(reference)]);
        };
        const sentChars = () => received.reduce((n, d) => n + d.length, 0);
        // Which of the strings sent are frames (the backend's redraws) and which the agent's output.
        const screen = (view as unknown as { session: { screen: { frame(): Promise<{ data: string } | undefined> } } }).session.screen;
        const frames = new Set<string>();
        const frame = screen.frame.bind(screen);
        screen.frame = async () => {
            const f = await frame();
            if (f) {
                frames.add(f.data);
            }
            return f;
        };
        const kindOf = (data: string): 'frame' | 'output' => frames.has(data) ? 'frame' : 'output';
        return { id, pty, view, reference, viewTerm, write, drawNow, catchUp, sentChars, kindOf, emitted: () => emitted };
    }

    const floodLines = (from: number, n: number, tag: string) => {
        let s = '';
        for (let i = from; i < from + n; i++) {
            s += `\x1b[3${i % 8}m${tag} ${i} the quick brown fox jumps over the lazy dog 0123456789\x1b[0m\r\n`;
            if (i % 500 === 0) {
                s += `\x1b[${ROWS};1H\x1b[7m status ${i} \x1b[K\x1b[0m\x1b[${ROWS - 1};1H`;
            }
        }
        return s;
    };

    it('a view that draws nothing for a while never holds the session up, and ends on the same screen having been sent a fraction of it', async () => {
        const s = await session();
        await s.write(`sandy: attaching\r\n\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[1;${ROWS - 1}r\x1b[${ROWS - 1};1H`);
        // 2.3 MB of output while the view acknowledges nothing: it would stop at the high mark if the session waited for it.
        await s.write(floodLines(0, 30_000, 'flood'));
        expect(s.emitted()).to.be.greaterThan(2 * FLOW_CONTROL.highWatermarkChars);
        expect(s.sentChars(), 'sent no more than the catch-up window while it drew nothing').to.be.at.most(CATCH_UP.windowChars);

        await s.catchUp();
        expect(terminalState(s.viewTerm)).to.deep.equal(terminalState(s.reference));
        // The last line sits above the empty bottom line of the region (it ended in a newline).
        expect(s.viewTerm.buffer.active.getLine(ROWS - 3)!.translateToString(true)).to.contain('flood 29999 ');
        expect(s.sentChars(), 'the skipped lines were never sent').to.be.below(s.emitted() / 2);
    });

    it('a view drawing all along a long flood is sent frames only once it fell behind, nothing between them, and ends on the same screen', async () => {
        const s = await session();
        const kinds: Array<'frame' | 'output'> = [];
        s.view.onData(d => kinds.push(s.kindOf(d)));
        // The view draws what came every 30 ms, as a page does between its animation frames.
        let flooding = true;
        const drawing = (async () => {
            while (flooding) {
                await wait(30);
                await s.drawNow();
            }
        })();
        await s.write(`\x1b[?1049h\x1b[1;${ROWS - 1}r`);
        // 4.6 MB: several frame intervals of output, without a pause (a pause is the end of a flood).
        await s.write(floodLines(0, 60_000, 'flood'));
        flooding = false;
        await drawing;
        await s.catchUp();
        expect(terminalState(s.viewTerm)).to.deep.equal(terminalState(s.reference));
        const first = kinds.indexOf('frame');
        const last = kinds.lastIndexOf('frame');
        expect(first, 'caught up by frames').to.be.greaterThan(-1);
        expect(kinds.filter(k => k === 'frame').length, 'several frames').to.be.greaterThan(2);
        expect(kinds.slice(first, last + 1).filter(k => k === 'output'), 'no output sent between the first frame and the last').to.deep.equal([]);
        expect(s.sentChars()).to.be.below(s.emitted() / 10);

        // Once the agent is quiet, catching up is over: a later redraw reaches the view as it is, with what
        // only the view acts on (an OSC 52 clipboard write, a cursor position query it answers).
        await waitFor(() => !(s.view as unknown as { catchingUp: boolean }).catchingUp, 'catching up to end once the agent is quiet');
        const redraw = `\x1b[H${floodLines(0, 300, 'redraw')}\x1b]52;c;aGk=\x07\x1b[6n`;
        expect(redraw.length, 'a redraw larger than the window of a view that is not behind').to.be.above(CATCH_UP.windowChars / 4);
        const before = kinds.length;
        const sentBefore = s.sentChars();
        await s.write(redraw);
        await s.catchUp();
        expect(kinds.slice(before), 'sent as it is').to.not.include('frame');
        expect(s.sentChars() - sentBefore).to.equal(redraw.length);
    });

    it('what the view must act on in output a frame replaced follows the frame: the newest clipboard write and each query, once; a clipboard read, a malformed write and output sent already are not carried', async () => {
        const s = await session();
        const b64 = (text: string) => Buffer.from(text).toString('base64');
        const clipboard: string[] = [];
        s.viewTerm.parser.registerOscHandler(52, payload => { clipboard.push(payload); return true; });
        const answers: string[] = [];
        s.viewTerm.onData(d => answers.push(d));
        const received: string[] = [];
        s.view.onData(d => received.push(d));
        // Sent as it is (the view is not behind): it is not carried again.
        await s.write(`\x1b[?1049h\x1b[1;${ROWS - 1}r\x1b]52;c;${b64('sent before')}\x1b\\`);
        await s.drawNow();
        // The view draws nothing now: all of this lies in output frames replace. (Raw sequences end in ST;
        // carried ones are re-encoded, ending in BEL, and a DA query gets its default parameter.)
        await s.write(floodLines(0, 8000, 'flood') + `\x1b]52;c;${b64('first copy')}\x1b\\\x1b[c`
            + floodLines(8000, 8000, 'flood') + `\x1b]52;c;?\x1b\\\x1b]52;c;${b64('last copy')}\x1b\\\x1b]52;c;not base64!\x1b\\\x1b[6n`
            + floodLines(16_000, 8000, 'flood'));
        await s.catchUp();
        const sent = received.join('');
        expect(sent, 'the replaced output itself was not sent').to.not.contain(`${b64('last copy')}\x1b\\`).and.not.contain('\x1b[c');
        expect(sent.split(`\x1b]52;c;${b64('last copy')}\x07`).length - 1, 'the newest clipboard write, once').to.equal(1);
        // The first copy goes only with a frame made before the last one was parsed (then it was the newest).
        expect([clipboard[0], clipboard[clipboard.length - 1]], 'the write sent, then the newest one not sent').to.deep.equal([`c;${b64('sent before')}`, `c;${b64('last copy')}`]);
        expect(JSON.stringify(clipboard.slice(1, -1)), 'nothing else: no read, nothing malformed, nothing twice').to.be.oneOf(['[]', JSON.stringify([`c;${b64('first copy')}`])]);
        const answered = answers.join('');
        expect(answered.match(/\x1b\[\?1;2c/g), 'DA answered once').to.have.length(1);
        expect(answered.match(/\x1b\[\d+;\d+R/g), 'the cursor position query answered once').to.have.length(1);
        expect(answered.indexOf('c'), 'in the order the agent asked').to.be.below(answered.indexOf('R'));
        expect(terminalState(s.viewTerm)).to.deep.equal(terminalState(s.reference));
    });

    it('a sequence the view was sent the start of, and the frame replaced the end of, is acted on once, whole', async () => {
        const s = await session();
        const clipboard: string[] = [];
        s.viewTerm.parser.registerOscHandler(52, payload => { clipboard.push(payload); return true; });
        const answers: string[] = [];
        s.viewTerm.onData(d => answers.push(d));
        await s.write(`\x1b[?1049h\x1b[1;${ROWS - 1}r`);
        await s.drawNow();
        const b64 = Buffer.from('hello world').toString('base64');
        // The last chunk the view is sent ends inside a DECRQSS and inside a clipboard write; the rest of both
        // comes in output a frame replaces (the view draws nothing meanwhile).
        s.pty.emit('x'.repeat(CATCH_UP.windowChars - 100) + `\x1bP$qm`);
        await new Promise(resolve => setImmediate(resolve));
        s.pty.emit(`\x1b\\${floodLines(0, 3000, 'a')}\x1b]52;c;${b64.slice(0, 8)}`);
        await new Promise(resolve => setImmediate(resolve));
        s.pty.emit(`${b64.slice(8)}\x07${floodLines(3000, 3000, 'b')}`);
        await s.catchUp();
        expect(answers.join('').match(/\x1bP1\$r/g), 'DECRQSS answered once').to.have.length(1);
        expect(clipboard, 'the clipboard written once, with the whole text').to.deep.equal([`c;${b64}`]);
    });

    it('a view that attaches later is never carried what its replay already stood for', async () => {
        const s = await session();
        await s.write(`\x1b[?1049h\x1b[1;${ROWS - 1}r`);
        // (A chunk of its own on the alternate screen: one a frame could stand for.)
        await s.write(`\x1b]52;c;${Buffer.from('before you came').toString('base64')}\x07\x1b[c`);
        await s.drawNow();
        const late = await supervisor!.attach(s.id);
        const lateSent: string[] = [];
        late.onData(d => lateSent.push(d)); // and never acknowledges: it falls behind at once
        try {
            // Its first chunk is already more than it may have in flight (a PTY read is at most 64 KB today, but
            // nothing here relies on that): queued, so its first frame stands for it.
            const big = floodLines(0, 1000, 'big');
            expect(big.length).to.be.above(CATCH_UP.windowChars);
            s.pty.emit(big);
            await s.write(floodLines(1000, 20_000, 'flood'));
            await s.catchUp();
            await waitFor(() => (late as unknown as { queuedChars: number }).queuedChars === 0 || lateSent.length > 1, 'a frame for the late view');
            await new Promise(resolve => setTimeout(resolve, CATCH_UP.frameIntervalMs * 3));
            const all = lateSent.join('');
            expect(all, 'no clipboard write of before').to.not.contain('\x1b]52');
            expect(all, 'no query of before').to.not.contain('\x1b[0c').and.not.contain('\x1b[c');
        } finally {
            late.dispose();
        }
    });

    it('a view that stalls once in a steady stream it can draw is caught up, then sent the output as it is again', async () => {
        const s = await session();
        const log: Array<{ at: number; kind: 'frame' | 'output' }> = [];
        s.view.onData(d => log.push({ at: Date.now(), kind: s.kindOf(d) }));
        await s.write(`\x1b[?1049h\x1b[1;${ROWS - 1}r`);
        const start = Date.now();
        let stalled = false;
        const streaming = (async () => {
            // About 400 KB/s for 2 s, without a pause as long as frameQuietMs: far less than a view draws.
            for (let i = 0; Date.now() - start < 2000; i += 25) {
                await s.write(floodLines(i, 25, 'steady'));
                await wait(4);
            }
        })();
        const drawing = (async () => {
            while (Date.now() - start < 2200) {
                const t = Date.now() - start;
                if (t > 200 && t < 800) {
                    stalled = true; // the page was busy elsewhere for 600 ms
                    await wait(20);
                    continue;
                }
                await s.drawNow();
                await wait(16);
            }
        })();
        await Promise.all([streaming, drawing]);
        await s.catchUp();
        expect(stalled).to.equal(true);
        expect(log.some(e => e.kind === 'frame'), 'caught up after the stall').to.equal(true);
        const late = log.filter(e => e.at - start > 1500);
        expect(late.length, 'output in the last half second').to.be.greaterThan(0);
        expect(late.filter(e => e.kind === 'frame'), 'no frames once the view keeps up again').to.deep.equal([]);
        expect(terminalState(s.viewTerm)).to.deep.equal(terminalState(s.reference));
    });

    it('frames are paced while output keeps coming; the screen the agent stopped on goes, and catching up ends, once it has been quiet for frameQuietMs', async () => {
        const s = await session();
        const attachment = s.view as unknown as { frameWait(settled: boolean): number; frameSentAt: number; session: { lastDataAt: number; paused: boolean } };
        const now = monotonicNow();
        attachment.frameSentAt = now - 10;
        attachment.session.lastDataAt = now;
        const busy = attachment.frameWait(true);
        expect(busy, 'output just came: waits for whichever comes first, the pacing or the quiet').to.be.within(CATCH_UP.frameQuietMs - 5, CATCH_UP.frameQuietMs);
        attachment.session.lastDataAt = now - CATCH_UP.frameQuietMs;
        expect(attachment.frameWait(true), 'quiet, with what arrived read: at once').to.equal(0);
        expect(attachment.frameWait(false), 'quiet, but output may be waiting to be read: looked at again').to.equal(1);
        attachment.session.paused = true;
        expect(attachment.frameWait(true), 'paused by flow control: not quiet, paced').to.be.within(CATCH_UP.frameIntervalMs - 20, CATCH_UP.frameIntervalMs - 10);
        attachment.session.paused = false;
        attachment.frameSentAt = now - CATCH_UP.frameIntervalMs;
        attachment.session.lastDataAt = now;
        expect(attachment.frameWait(false), 'a frame interval since the last frame: at once').to.be.at.most(0);

        // The wall clock set back an hour (NTP, a resumed laptop) neither holds the next frame nor the quiet.
        const wallClock = Date.now;
        Date.now = () => wallClock() - 3_600_000;
        try {
            attachment.frameSentAt = monotonicNow() - 10;
            attachment.session.lastDataAt = monotonicNow();
            expect(attachment.frameWait(true), 'the clock set back: still paced by the quiet').to.be.within(CATCH_UP.frameQuietMs - 5, CATCH_UP.frameQuietMs);
        } finally {
            Date.now = wallClock;
        }

        // With everything sent, catching up ends once the agent is quiet, looked at after the event loop read what came.
        const state = s.view as unknown as { catchingUp: boolean; sendUnsent(settled: boolean): void };
        state.catchingUp = true;
        attachment.session.lastDataAt = monotonicNow() - CATCH_UP.frameQuietMs;
        attachment.session.paused = true;
        state.sendUnsent(false);
        await wait(CATCH_UP.frameQuietMs * 2);
        expect(state.catchingUp, 'held by flow control: not quiet').to.equal(true);
        attachment.session.paused = false;
        state.sendUnsent(false);
        expect(state.catchingUp, 'not before what arrived meanwhile is read').to.equal(true);
        await waitFor(() => !state.catchingUp, 'catching up to end');
    });

    it('output on the normal screen between two stretches on the alternate one reaches the view line for line (its scrollback is the user\'s)', async () => {
        const s = await session();
        await s.write(`\x1b[?1049h\x1b[1;${ROWS - 1}r`);
        await s.write(floodLines(0, 20_000, 'before'));
        // The TUI leaves the alternate screen and prints, then comes back: all while the view is behind.
        await s.write('\x1b[r\x1b[?1049l' + Array.from({ length: 3000 }, (_, i) => `normal ${i}\r\n`).join('') + '\x1b[?1049h');
        await s.write(floodLines(20_000, 20_000, 'after'));
        await s.catchUp();
        expect(terminalState(s.viewTerm)).to.deep.equal(terminalState(s.reference));
        const normal = normalLines(s.viewTerm).filter(l => l.startsWith('normal '));
        expect(normal.length).to.equal(3000);
        expect(normal.every((l, i) => l === `normal ${i}`), 'every line, in order').to.equal(true);
        expect(normalLines(s.viewTerm)).to.deep.equal(normalLines(s.reference));
        expect(s.sentChars()).to.be.below(s.emitted() / 2);
    });

    it('a frame made while the view caught up by itself is dropped, never drawn over newer output', async () => {
        const s = await session();
        await s.write('\x1b[?1049h');
        // A view just keeping up: two chunks queue, then it acknowledges everything (the queue empties).
        // Meanwhile the queue has seen more than frameEveryChars, so a frame is asked and comes late.
        const queued = () => (s.view as unknown as { queuedChars: number }).queuedChars;
        let k = 0;
        for (let sent = 0; sent < CATCH_UP.frameEveryChars + CATCH_UP.windowChars * 2; k++) {
            const chunk = `\x1b[${1 + (k % (ROWS - 1))};1Hline ${k} ${'x'.repeat(4000)}`;
            s.pty.emit(chunk);
            s.reference.write(chunk);
            sent += chunk.length;
            if (queued() > 4100) {
                s.view.acknowledge((s.view as unknown as { unacknowledged: number }).unacknowledged);
            }
        }
        const last = `\x1b[${ROWS};1H*** the newest line`;
        s.view.acknowledge((s.view as unknown as { unacknowledged: number }).unacknowledged);
        s.pty.emit(last);
        s.reference.write(last);
        await s.catchUp();
        expect(terminalState(s.viewTerm)).to.deep.equal(terminalState(s.reference));
        expect(s.viewTerm.buffer.active.getLine(ROWS - 1)!.translateToString(true)).to.equal('*** the newest line');
    });

    it('a session that ends while its view is behind sends what it has not sent before saying it ended (its last screen is shown)', async () => {
        const s = await session();
        await s.write(`\x1b[?1049h\x1b[1;${ROWS - 1}r`);
        await s.write(floodLines(0, 20_000, 'flood') + 'the last words');
        let sentAtExit = -1;
        s.view.onExit(() => sentAtExit = s.sentChars());
        s.pty.exit(0);
        await waitFor(() => sentAtExit >= 0, 'the exit');
        await s.catchUp();
        expect(s.sentChars(), 'nothing is sent after the exit').to.equal(sentAtExit);
        expect(terminalState(s.viewTerm)).to.deep.equal(terminalState(s.reference));
        expect(s.viewTerm.buffer.active.getLine(ROWS - 2)!.translateToString(true)).to.equal('the last words');
    });

    it('an exit is not held back by a wall clock set back between the last output and the exit: its settle waits for quiet on the monotonic clock', async () => {
        const s = await session();
        await s.write('the last words');
        let endedAfter = -1;
        const wallClock = Date.now;
        Date.now = () => wallClock() - 3_600_000;
        try {
            const exitAt = monotonicNow();
            s.view.onExit(() => endedAfter = monotonicNow() - exitAt);
            s.pty.exit(0);
            // (Waited for on the monotonic clock: the test's own helper reads the wall clock.)
            while (endedAfter < 0 && monotonicNow() - exitAt < 3000) {
                await wait(5);
            }
        } finally {
            Date.now = wallClock;
        }
        expect(endedAfter, 'the exit reached the view (a settle on the wall clock would wait out the hour)').to.be.at.least(0);
        expect(endedAfter, 'at most the settle\'s own bound').to.be.below(1000);
        await s.catchUp();
        expect(s.viewTerm.buffer.active.getLine(0)!.translateToString(true)).to.equal('the last words');
    });

    it('on the normal screen nothing is skipped: the session waits for the view, as before', async () => {
        const s = await session();
        const lines = floodLines(0, 20_000, 'plain');
        const writing = s.write(lines);
        // (It may also pause a moment for the backend's own copy of the screen to parse what came.)
        await waitFor(() => s.pty.paused && s.sentChars() > FLOW_CONTROL.highWatermarkChars, 'the session to wait for the view').catch(e => { throw new Error(`${e.message}: sent ${s.sentChars()} paused ${s.pty.paused} emitted ${s.emitted()}`); });
        const atPause = s.sentChars();
        await wait(300);
        expect(s.pty.paused, 'still waiting for the view').to.equal(true);
        expect(s.sentChars(), 'nothing more sent, nothing skipped').to.equal(atPause);
        await Promise.all([writing, s.catchUp()]);
        await s.catchUp();
        expect(s.sentChars()).to.equal(s.emitted());
        expect(normalLines(s.viewTerm)).to.deep.equal(normalLines(s.reference));
    });
});

async function waitFor(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`timed out waiting for ${what}`);
        }
        await wait(5);
    }
}
