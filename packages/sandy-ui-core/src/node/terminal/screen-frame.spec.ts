import { expect } from 'chai';
import { Terminal } from '@xterm/headless';
import { framesSupported } from './screen-frame';
import { parsed, terminalState as stateOf } from '../test/terminal-state';
import { FRAME_MID_SEQUENCE_WAIT_MS, ScreenFrame, ScreenState } from './screen-state';

/** A seeded generator (mulberry32): every run draws the same streams, a failure names its seed. */
function random(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const COLS = 60;
const ROWS = 16;

/**
 * What sandy's tmux draws on a client in a flood, by the sequences it uses: the alternate screen, a
 * scroll region above a status line, hidden cursor, mouse and paste modes, colours set on one line
 * and relied on by the next, wide characters; and what an agent's TUI adds (modes switched mid-flood).
 */
function tmuxLikeStream(seed: number, steps: number): string {
    const r = random(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
    let s = 'sandy: starting the sandbox\r\nsandy: attaching\r\n';
    s += `\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[1;${ROWS - 1}r\x1b[${ROWS - 1};1H`;
    const words = ['flood', 'the', 'quick', 'brown', 'fox', '日本語', 'λ→', 'done', '0123456789'];
    for (let i = 0; i < steps; i++) {
        const op = r();
        if (op < 0.55) {
            let line = '';
            while (line.length < COLS * (0.3 + r())) {
                line += pick(['', '', '\x1b[1m', '\x1b[31m', '\x1b[0m', '\x1b[38;5;208m', '\x1b[48;2;10;20;30m', '\x1b[2;4m', '\x1b[7m'])
                    + pick(words) + ' ';
            }
            s += line + '\r\n';
        } else if (op < 0.7) {
            // The status line, then back into the region.
            s += `\x1b[${ROWS};1H\x1b[42;30m [sandy] ${i} \x1b[K\x1b[0m\x1b[${ROWS - 1};1H`;
        } else if (op < 0.78) {
            s += pick(['\x1b[?25h', '\x1b[?25l', '\x1b[?1h', '\x1b[?1l', '\x1b[?2004l', '\x1b[?2004h', '\x1b[?1002h', '\x1b[?1000l', '\x1b[?1006l', '\x1b[4h', '\x1b[4l', '\x1b=', '\x1b>', '\x1b[?6h', '\x1b[?6l']);
        } else if (op < 0.84) {
            const top = 1 + Math.floor(r() * 4);
            s += `\x1b[${top};${ROWS - 1 - Math.floor(r() * 3)}r\x1b[${ROWS - 2};${1 + Math.floor(r() * 10)}H`;
        } else if (op < 0.9) {
            s += `\x1b[${1 + Math.floor(r() * ROWS)};${1 + Math.floor(r() * COLS)}H${pick(words)}\x1b[K`;
        } else if (op < 0.95) {
            s += pick(['\x1b[2L', '\x1b[1M', '\x1b[3@', '\x1b[2P', '\x1b[S', '\x1b[T', '\x1b[J', '\x1b7', '\x1b8',
                // Tab stops: one set where there was none, one cleared, all cleared; then a tab used.
                `\x1b[${1 + Math.floor(r() * ROWS)};${2 + Math.floor(r() * (COLS - 2))}H\x1bH`, '\x1b[0g', '\x1b[3g', '\r\tT\tU',
                // xterm's default stops set again by hand (a view that missed it must not keep its own).
                '\x1b[3g' + Array.from({ length: Math.ceil(COLS / 8) }, (_, k) => `\x1b[1;${8 * k + 1}H\x1bH`).join(''),
                // Up to the last column: a wrap is pending (a wide character too).
                `\x1b[${1 + Math.floor(r() * ROWS)};${COLS - 1}Hxy`, `\x1b[${1 + Math.floor(r() * ROWS)};${COLS - 1}H日`]);
        } else {
            // What an agent sends that a frame never carries (the view handles it, or not, when it is sent live).
            s += pick(['\x1b]0;title\x07', '\x1b]9;done\x07', '\x07']);
        }
    }
    return s;
}

/** Cut a stream anywhere, inside sequences too (a PTY read ends where it ends). */
function chunks(stream: string, seed: number): string[] {
    const r = random(seed);
    const out: string[] = [];
    for (let at = 0; at < stream.length;) {
        const n = 1 + Math.floor(r() * 400);
        out.push(stream.slice(at, at + n));
        at += n;
    }
    return out;
}


describe('Catch-up frames: a view that skipped output draws what it would have drawn', () => {
    it('this xterm exposes the state a frame is made of (a new xterm without it would get no frames, not wrong ones)', () => {
        const t = new Terminal({ allowProposedApi: true });
        expect(framesSupported(t)).to.equal(true);
        t.dispose();
    });

    for (let seed = 1; seed <= 24; seed++) {
        it(`seed ${seed}: skipped output, a frame, then the rest of the stream — the same screen, cursor, region, colours and modes`, async () => {
            const all = chunks(tmuxLikeStream(seed, 900), seed * 7);
            const r = random(seed * 13);
            // The view was sent the first part, then fell behind; the frame is asked at a later chunk.
            const sent = 10 + Math.floor(r() * (all.length / 3));
            const askedAt = sent + 5 + Math.floor(r() * (all.length / 3));

            const screen = new ScreenState(COLS, ROWS, () => undefined);
            let asked: Promise<ScreenFrame | undefined> | undefined;
            for (let i = 0; i < all.length; i++) {
                screen.write(all[i]);
                if (i === askedAt) {
                    asked = screen.frame();
                }
            }
            const frame = await asked;
            expect(frame, 'a frame on the alternate screen').to.not.equal(undefined);
            expect(frame!.seq, 'it stands for everything written when it was asked').to.be.at.least(askedAt + 1);

            // The frame stands for chunks 1..seq (numbered from 1): the view got the first ones, then the
            // frame; from then on it must show what a terminal sent every chunk shows, after each chunk.
            const reference = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
            const view = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
            all.slice(0, frame!.seq).forEach(c => reference.write(c));
            all.slice(0, sent).forEach(c => view.write(c));
            view.write(frame!.data);
            for (let i = frame!.seq; i <= all.length; i++) {
                await Promise.all([parsed(view), parsed(reference)]);
                expect(stateOf(view), `after chunk ${i}`).to.deep.equal(stateOf(reference));
                if (i < all.length) {
                    view.write(all[i]);
                    reference.write(all[i]);
                }
            }
            screen.dispose();
            reference.dispose();
            view.dispose();
        });
    }

    const everyState = '\x1b[?1h\x1b=\x1b[?2004h\x1b[4h\x1b[?45h\x1b[?7l\x1b[?25l\x1b[?1003h\x1b[?1006h\x1b[3;12r\x1b[?6h\x1b[5;7H'
        + '\x1b[1;2;3;4;5;7;9;53;38;2;1;2;3;48;5;100mstyled';
    const noState = '\x1b[?1l\x1b>\x1b[?2004l\x1b[4l\x1b[?45l\x1b[?7h\x1b[?25h\x1b[?1003l\x1b[?1006l\x1b[r\x1b[?6l\x1b[9;9H\x1b[0mplain';
    for (const [had, skipped] of [['', everyState], [everyState, noState]]) {
        it(`every piece of state the skipped output ${had ? 'turned off' : 'turned on'} is as it would have been, and stays so for what follows`, async () => {
            const screen = new ScreenState(COLS, ROWS, () => undefined);
            const view = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
            const reference = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
            const before = `\x1b[?1049hfirst line\r\n${had}`;
            for (const chunk of [before, skipped]) {
                screen.write(chunk);
                reference.write(chunk);
            }
            view.write(before);
            const frame = await screen.frame();
            view.write(frame!.data);
            await Promise.all([parsed(view), parsed(reference)]);
            expect(stateOf(view)).to.deep.equal(stateOf(reference));
            const after = ' then text that wraps and scrolls '.repeat(40) + '\r\n'.repeat(20) + 'last';
            view.write(after);
            reference.write(after);
            await Promise.all([parsed(view), parsed(reference)]);
            expect(stateOf(view)).to.deep.equal(stateOf(reference));
            screen.dispose();
        });
    }

    it('a view left in line-drawing characters by the output it was sent draws the frame and what follows in ASCII; a screen with G1–G3 designated gets no frame', async () => {
        const screen = new ScreenState(COLS, ROWS, () => undefined);
        const view = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
        const reference = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
        const sent = ['\x1b[?1049h', '\x1b(0qqq\x1b)0\x0e'];
        const skipped = ['qq\x0f\x1b(B\x1b)Bhello world'];
        for (const chunk of [...sent, ...skipped]) {
            screen.write(chunk);
            reference.write(chunk);
        }
        sent.forEach(c => view.write(c));
        const frame = await screen.frame();
        view.write(frame!.data + ' and after');
        reference.write(' and after');
        await Promise.all([parsed(view), parsed(reference)]);
        expect(stateOf(view)).to.deep.equal(stateOf(reference));
        expect(view.buffer.active.getLine(0)!.translateToString(true)).to.equal('─────hello world and after');

        screen.write('\x1b)0');
        expect(await screen.frame(), 'G1 is line drawing: sent as it is').to.equal(undefined);
        screen.dispose();
    });

    it('waits for a sequence cut between two chunks to end before it is made', async () => {
        const screen = new ScreenState(COLS, ROWS, () => undefined);
        screen.write('\x1b[?1049h');
        screen.write('one\r\n\x1b[3');
        let frame: ScreenFrame | undefined | 'pending' = 'pending';
        const asked = screen.frame().then(f => frame = f);
        await new Promise(resolve => setTimeout(resolve, FRAME_MID_SEQUENCE_WAIT_MS / 2));
        expect(frame, 'not made inside "ESC [ 3"').to.equal('pending');
        screen.write('1mred');
        await asked;
        expect(frame).to.not.equal(undefined);
        expect((frame as unknown as ScreenFrame).seq, 'it stands for the chunk that ended the sequence').to.equal(3);
        screen.dispose();
    });

    it('no frame for the normal screen (its scrollback is the user\'s: every byte is sent), nor for a stream that stops inside a sequence', async () => {
        const screen = new ScreenState(COLS, ROWS, () => undefined);
        screen.write('a line\r\n');
        expect(await screen.frame()).to.equal(undefined);
        screen.write('\x1b[?1049h\x1b]0;unfinished');
        const started = Date.now();
        expect(await screen.frame()).to.equal(undefined);
        expect(Date.now() - started, 'after waiting a little for the rest').to.be.at.least(FRAME_MID_SEQUENCE_WAIT_MS - 5);
        screen.dispose();
    });

    it('no frame while a character set is shifted in (a frame could not restore it)', async () => {
        const screen = new ScreenState(COLS, ROWS, () => undefined);
        screen.write('\x1b[?1049h');
        screen.write('\x1b(0lqqk');
        expect(await screen.frame()).to.equal(undefined);
        screen.write('\x1b(B');
        expect(await screen.frame()).to.not.equal(undefined);
        screen.dispose();
    });

    it('Attack: what the agent wrote reaches the view through a frame only as characters in cells — no OSC, no mode it chose that the frame does not name', async () => {
        const screen = new ScreenState(COLS, ROWS, () => undefined);
        screen.write('\x1b[?1049h');
        screen.write('\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07'
            + '\x1b]0;fake title\x07\x1b]9;approve?\x07\x1bP$qm\x1b\\\x1b[?1004h\x1b[?5h\x1b[?12h text \u009b31m');
        const frame = await screen.frame();
        expect(frame).to.not.equal(undefined);
        expect(frame!.data).to.not.match(/\x1b[\]P^_X]|[\x90-\x9f]|\x07/);
        // Focus reports, reverse video and blinking are not among the modes a frame sets.
        expect(frame!.data).to.not.match(/\?(1004|5|12)[hl]/);
        expect(frame!.data).to.contain('click').and.contain('text');
        screen.dispose();
    });
});
