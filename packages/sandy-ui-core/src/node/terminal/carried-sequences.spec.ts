import { expect } from 'chai';
import { MAX_CLIPBOARD_PAYLOAD } from '../../common/terminal/osc';
import { MAX_CARRIED } from './carried-sequences';
import { ScreenEngine } from './screen-engine';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Writes each chunk, waits until all are parsed, and returns the screen. */
async function parsedScreen(chunks: string[]): Promise<ScreenEngine> {
    const screen = new ScreenEngine(80, 24, { notify: () => undefined, parsed: () => undefined });
    chunks.forEach((c, i) => screen.write(i + 1, c));
    await screen.serialize();
    return screen;
}

describe('CarriedSequences: what a catch-up frame carries of the output it replaces (unit, headless xterm)', () => {
    it('the newest clipboard write only: a read after it, a malformed or an oversized write does not replace it', async () => {
        const screen = await parsedScreen([
            `a\x1b]52;c;${b64('old')}\x07`,
            `b\x1b]52;c;${b64('new')}\x1b\\`,
            `\x1b]52;c;?\x07\x1b]52;c;<script>\x07\x1b]52;c;a b\x07\x1b]52;c;${'A'.repeat(MAX_CLIPBOARD_PAYLOAD + 20)}\x07\x1b]52;c\x07`,
            // What the view ignores too (its parseOsc52): nothing, bad base64, a target it does not know.
            '\x1b]52;c;\x07\x1b]52;c;A\x07\x1b]52;c;QUJD=\x07\x1b]52;c;=\x07\x1b]52;q;QUJD\x07'
        ]);
        expect(screen.carriedBetween(1, 4)).to.equal(`\x1b]52;c;${b64('new')}\x07`);
        screen.dispose();
    });

    it('any write the view acts on is the newest: many targets, tmux\'s none', async () => {
        const screen = await parsedScreen([`\x1b]52;c;${b64('old')}\x07\x1b]52;ccccccccc;${b64('many')}\x07`]);
        expect(screen.carriedBetween(1, 1)).to.equal(`\x1b]52;ccccccccc;${b64('many')}\x07`);
        screen.dispose();
    });

    it('tmux\'s form of a write (no selection) is carried as it came', async () => {
        const screen = await parsedScreen([`\x1b]52;;${b64('from tmux')}\x07`]);
        expect(screen.carriedBetween(1, 1)).to.equal(`\x1b]52;;${b64('from tmux')}\x07`);
        screen.dispose();
    });

    it('only what was parsed in the chunks the frame stands for', async () => {
        const screen = await parsedScreen([`\x1b]52;c;${b64('one')}\x07\x1b[c`, 'plain', `\x1b[6n`]);
        expect(screen.carriedBetween(1, 1), 'chunk 1').to.equal(`\x1b]52;c;${b64('one')}\x07\x1b[0c`);
        expect(screen.carriedBetween(2, 3), 'chunks 2-3: the query, not the clipboard write of chunk 1').to.equal('\x1b[6n');
        expect(screen.carriedBetween(4, 9)).to.equal('');
        screen.dispose();
    });

    it('the queries xterm answers and the colour changes, in order, re-encoded from their parameters', async () => {
        const screen = await parsedScreen([
            '\x1b[>c\x1b[?6n\x1b[5n\x1b[?2004$p\x1b[4$p\x1bP$q"q\x1b\\\x1b]11;?\x07\x1b]4;1;?\x1b\\\x1b]10;#ffffff\x07\x1b]111\x07'
        ]);
        expect(screen.carriedBetween(1, 1)).to.equal(
            '\x1b[>0c\x1b[?6n\x1b[5n\x1b[?2004$p\x1b[4$p\x1bP$q"q\x1b\\\x1b]11;?\x07\x1b]4;1;?\x07\x1b]10;#ffffff\x07\x1b]111;\x07');
        screen.dispose();
    });

    it('sub-parameters as they were written', async () => {
        const screen = await parsedScreen(['\x1b[6:n\x1b[?1:2:3$p\x1b[>1;2:3c']);
        expect(screen.carriedBetween(1, 1)).to.equal('\x1b[6:n\x1b[?1:2:3$p\x1b[>1;2:3c');
        screen.dispose();
    });

    it('nothing else an agent writes: titles, notifications, links, window reports, other DCS, the cursor moves, an odd colour payload', async () => {
        const screen = await parsedScreen([
            '\x1b]0;title\x07\x1b]9;hi\x07\x1b]8;;http://x\x07l\x1b]8;;\x07\x1b[21t\x1b[14t\x1b[?1049h\x1b[5;5H'
            + '\x1bP+q544e\x1b\\\x1b]11;rgb:00/00/00 `id`\x07\x1b]4;1;$(reboot)\x07'
        ]);
        expect(screen.carriedBetween(1, 1)).to.equal('');
        screen.dispose();
    });

    it('a flood of queries is carried as its newest MAX_CARRIED, each bounded', async () => {
        // (xterm keeps 32 parameters of at most 2^31 - 1: a query that long is no query xterm answers.)
        const screen = await parsedScreen(['\x1b[c'.repeat(10_000), `\x1b[${'2147483647;'.repeat(31)}2147483647c`]);
        expect(screen.carriedBetween(1, 2)).to.equal('\x1b[0c'.repeat(MAX_CARRIED));
        screen.dispose();
    });

    it('a disposed screen carries nothing', async () => {
        const screen = await parsedScreen([`\x1b]52;c;${b64('x')}\x07`]);
        screen.dispose();
        expect(screen.carriedBetween(1, 1)).to.equal('');
    });
});
