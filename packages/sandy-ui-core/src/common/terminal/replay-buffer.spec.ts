import { expect } from 'chai';
import { ReplayBuffer } from './replay-buffer';

describe('ReplayBuffer', () => {
    it('keeps everything below capacity, in order', () => {
        const b = new ReplayBuffer(100);
        b.push('abc');
        b.push('def');
        expect(b.contents()).to.equal('abcdef');
        expect(b.length).to.equal(6);
    });

    it('drops the oldest chunks once over capacity', () => {
        const b = new ReplayBuffer(10);
        b.push('1111');
        b.push('2222');
        b.push('3333');
        expect(b.contents()).to.equal('22223333');
    });

    it('cuts a single oversized chunk at a line boundary when one is near', () => {
        const b = new ReplayBuffer(10);
        b.push('aaaaa\nbbbbbbbb\ncccccc');
        const out = b.contents();
        expect(out.length).to.be.at.most(10);
        expect(out).to.equal('cccccc');
    });

    it('ignores empty pushes and clears', () => {
        const b = new ReplayBuffer(10);
        b.push('');
        expect(b.contents()).to.equal('');
        b.push('x');
        b.clear();
        expect(b.length).to.equal(0);
    });
});
