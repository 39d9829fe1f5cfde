import { expect } from 'chai';
import { AckBatcher, ACK_BATCH_CHARS } from '../../common/terminal/ack-batcher';
import { FLOW_CONTROL } from '../../common/session/session-types';
import { PtySupervisor } from './pty-supervisor';
import { ScriptedPty } from '../test/scripted-pty';

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

    it('never owes enough to keep a session paused: what it holds back stays below the resume mark', () => {
        expect(ACK_BATCH_CHARS).to.be.below(FLOW_CONTROL.lowWatermarkChars);
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
            expect(pty.paused, 'resumed with only a partial batch still owed').to.equal(false);
            acks.dispose();
        } finally {
            await supervisor.dispose();
        }
    });
});
