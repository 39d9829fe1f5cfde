import { expect } from 'chai';
import { headlessPromptProblem, headlessRecordText, splitHeadlessOutput } from './headless';

describe('headless one-shot: sandy -p output and prompts (unit)', () => {
    it('tells sandy\'s [sandy] lines from the answer (they share stdout, fixture 52), colours removed', () => {
        const stdout = '[sandy] Build files updated.\n[sandy]   Working directory: /w\n\n\x1b[1mFAKE-AGENT-ANSWER:\x1b[0m hello\nsecond line\n[sandy] Session ended.\n\n';
        expect(splitHeadlessOutput(stdout)).to.deep.equal({
            answer: 'FAKE-AGENT-ANSWER: hello\nsecond line',
            sandyLines: ['[sandy] Build files updated.', '[sandy]   Working directory: /w', '[sandy] Session ended.']
        });
        expect(splitHeadlessOutput('')).to.deep.equal({ answer: '', sandyLines: [] });
    });

    it('a prompt is text for the agent: never empty, never an option of sandy\'s or the agent\'s, bounded', () => {
        expect(headlessPromptProblem('explain main.ts')).to.equal(undefined);
        for (const bad of ['', '   ', '--rebuild', ' -p x', 'x'.repeat(8001), 'a\u0000b', undefined, 42]) {
            expect(headlessPromptProblem(bad), JSON.stringify(bad)?.slice(0, 20)).to.be.a('string');
        }
    });

    it('the history keeps the prompt, the answer and sandy\'s lines apart, as a terminal shows them', () => {
        const text = headlessRecordText('say "hi"', { answer: 'hi', sandyLines: ['[sandy] x'], exitCode: 0, stderr: '' });
        expect(text).to.equal('$ sandy -p "say \\"hi\\""\r\n\r\nhi\r\n\r\n--- sandy ---\r\n[sandy] x\r\n\r\n(exit 0)\r\n');
    });

    it('a multi-line answer is kept line by line as a terminal shows it (no staircase), whatever its line ends', () => {
        const text = headlessRecordText('p', { answer: 'one\ntwo\rthree\r\nfour', sandyLines: [], exitCode: 0, stderr: '' });
        expect(text).to.contain('one\r\ntwo\r\nthree\r\nfour\r\n');
        expect(text.replace(/\r\n/g, '')).to.not.match(/[\r\n]/);
    });
});
