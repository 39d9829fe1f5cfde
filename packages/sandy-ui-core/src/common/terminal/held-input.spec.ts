import { expect } from 'chai';
import { HeldInput, heldInputDroppedText, MAX_HELD_INPUT_CHARS } from './held-input';

describe('HeldInput: keys typed while a view attaches', () => {
    it('holds them in order and gives them to the attachment first, then passes every later write straight on', () => {
        const got: string[] = [];
        const input = new HeldInput();
        input.write('echo ');
        input.write('hi\r');
        expect(got).to.deep.equal([]);
        input.open(d => got.push(d));
        expect(got).to.deep.equal(['echo ', 'hi\r']);
        input.write('x');
        expect(got).to.deep.equal(['echo ', 'hi\r', 'x']);
    });

    it('refuses, and says, a write that would hold more than its bound; what it held still goes', () => {
        const refused: number[] = [];
        const input = new HeldInput(chars => refused.push(chars));
        const big = 'a'.repeat(MAX_HELD_INPUT_CHARS - 1);
        input.write(big);
        input.write('bc');
        input.write('d');
        expect(refused).to.deep.equal([2]);
        const got: string[] = [];
        input.open(d => got.push(d));
        expect(got).to.deep.equal([big, 'd']);
        expect(heldInputDroppedText(2)).to.contain('2 characters').and.contain(String(MAX_HELD_INPUT_CHARS));
    });

    it('after dispose (the tab closed while attaching) holds and passes nothing', () => {
        const got: string[] = [];
        const input = new HeldInput();
        input.write('before');
        input.dispose();
        input.open(d => got.push(d));
        input.write('after');
        expect(got).to.deep.equal([]);
    });
});
