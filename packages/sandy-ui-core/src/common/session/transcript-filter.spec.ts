import { expect } from 'chai';
import { displayTranscript, plainTranscript, TranscriptFilter, TranscriptMode } from './transcript-filter';

/** Anything that could start a control string in a terminal fed this text. */
const INTRODUCER = /\x1b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f]/;

function pushed(mode: TranscriptMode, pieces: string[]): string {
    const f = new TranscriptFilter(mode);
    return pieces.map(p => f.push(p)).join('');
}

/** A small deterministic PRNG, so a failure is reproducible. */
function rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
    };
}

describe('transcript filter: what a recorded session may show on replay, and its plain text (unit)', () => {
    it('display keeps colours and cursor moves and removes every OSC, DCS, APC, PM, SOS string and BEL', () => {
        const raw = '\x1b[31mred\x1b[0m \x1b[2J\x1b[H'
            + 'a\x1b]9;you are needed\x07b'                      // OSC 9, BEL-terminated
            + 'c\x1b]52;c;ZXZpbA==\x1b\\d'                     // OSC 52 clipboard, ST-terminated
            + 'e\x1bPtmux;\x1b\x1b]777;notify;t;b\x07\x1b\\f'   // tmux passthrough wrapping OSC 777
            + 'g\x1b_apc\x1b\\h\x1b^pm\x1b\\i\x1bXsos\x1b\\j'
            + 'k\u009d0;title\u009cl\u0090dcs\u009cm'             // C1 introducers
            + '\x07bell\x1b(Bcharset\x1b7saved';
        expect(displayTranscript(raw)).to.equal('\x1b[31mred\x1b[0m \x1b[2J\x1b[H'
            + 'ab' + 'cd' + 'ef' + 'ghij' + 'klm' + 'bell\x1b(Bcharset\x1b7saved');
    });

    it('a string ended by ESC and another sequence ends there, and the sequence after it is kept', () => {
        expect(displayTranscript('x\x1b]0;title\x1b[1mbold')).to.equal('x\x1b[1mbold');
        expect(displayTranscript('x\x1b]0;t\x1b\x1b]52;c;QQ==\x07y')).to.equal('xy');
    });

    it('plain text has no sequences or controls, CR as LF, and reads what was on the screen', () => {
        expect(plainTranscript('\x1b[31mhel\x1b[0mlo\r\nwor\x1b]9;x\x07ld\t!\x07\x1b[?25l\u009b5m')).to.equal('hello\n\nworld\t!5m');
        expect(plainTranscript('\x1b(Babc\x1b=\x1b>')).to.equal('abc');
    });

    it('cutting the stream anywhere gives the same result as filtering it whole', () => {
        const raw = '\x1b[38;5;196mé\x1b]9;n\x07ü\x1b]52;c;QUJD\x1b\\€\x1bPtmux;\x1b\x1b]9;x\x07\x1b\\z\u009d1;x\u009c\x1b[0m\r\n';
        for (const mode of ['display', 'plain'] as const) {
            const whole = new TranscriptFilter(mode).push(raw);
            for (let i = 0; i <= raw.length; i++) {
                for (let j = i; j <= raw.length; j += 3) {
                    expect(pushed(mode, [raw.slice(0, i), raw.slice(i, j), raw.slice(j)]), `${mode} cut at ${i},${j}`).to.equal(whole);
                }
            }
        }
    });

    it('ATTACK: no bytes, however cut, make the display text start a control string', () => {
        const alphabet = ['\x1b', ']', 'P', 'X', '^', '_', '[', '\\', '\x07', '\x18', '\x1a', '\n', '\r', 'a', '9', ';', '(',
            '\u0090', '\u0098', '\u009b', '\u009c', '\u009d', '\u009e', '\u009f', 'é', '\x00', '\x7f'];
        const random = rng(11);
        for (let round = 0; round < 3000; round++) {
            let raw = '';
            const length = 1 + Math.floor(random() * 40);
            for (let i = 0; i < length; i++) {
                raw += alphabet[Math.floor(random() * alphabet.length)];
            }
            const pieces: string[] = [];
            let rest = raw;
            while (rest.length > 0) {
                const n = 1 + Math.floor(random() * 5);
                pieces.push(rest.slice(0, n));
                rest = rest.slice(n);
            }
            const out = pushed('display', pieces);
            expect(INTRODUCER.test(out), JSON.stringify(raw) + ' → ' + JSON.stringify(out)).to.equal(false);
            expect(out.includes('\x07'), 'no bell').to.equal(false);
            // Every ESC shown is followed, in the same text, by a byte that makes it harmless (never last).
            expect(/\x1b(?![\x20-\x4f\x51-\x57\x59-\x5b\x60-\x7e])/.test(out), JSON.stringify(raw) + ' → ' + JSON.stringify(out)).to.equal(false);
            expect(plainTranscript(out).includes('\x1b'), 'plain text has no ESC').to.equal(false);
        }
    });

    it('says where a held sequence began and where one held from before let go', () => {
        const f = new TranscriptFilter('display');
        expect(f.push('abc\x1b]52;c;AAA')).to.equal('abc');
        expect(f.holding).to.equal(true);
        expect(f.pendingStart).to.equal(3);
        expect(f.push('BBB')).to.equal('');
        expect(f.pendingStart, 'began in an earlier piece').to.equal(-1);
        expect(f.push('CC\x07rest')).to.equal('rest');
        expect(f.firstRelease).to.deep.equal({ at: 2, after: true });
        expect(f.holding).to.equal(false);

        const g = new TranscriptFilter('display');
        g.push('\x1b]0;t');
        expect(g.push('itle\x1b[1mB')).to.equal('\x1b[1mB');
        expect(g.firstRelease, 'at the ESC that ended the string').to.deep.equal({ at: 4, after: false });
        g.push('\x1b]0;t\x1b');
        expect(g.push('[2m')).to.equal('\x1b[2m');
        expect(g.firstRelease, 'the ESC was the last character before').to.deep.equal({ at: -1, after: false });
    });
});
