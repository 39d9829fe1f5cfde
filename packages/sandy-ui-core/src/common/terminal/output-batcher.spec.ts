import { expect } from 'chai';
import { OutputBatcher } from './output-batcher';

describe('OutputBatcher', () => {
    it('coalesces small chunks into one emission after the interval', async () => {
        const out: string[] = [];
        const b = new OutputBatcher(d => out.push(d), 5);
        b.push('a');
        b.push('b');
        b.push('c');
        expect(out).to.deep.equal([]);
        await new Promise(r => setTimeout(r, 20));
        expect(out).to.deep.equal(['abc']);
    });

    it('flushes at once when the chunk limit is reached, in limit-sized pieces', () => {
        const out: string[] = [];
        const b = new OutputBatcher(d => out.push(d), 1000, 4);
        b.push('0123456789');
        expect(out).to.deep.equal(['0123', '4567', '89']);
        b.dispose();
    });

    it('drops pending output on dispose', async () => {
        const out: string[] = [];
        const b = new OutputBatcher(d => out.push(d), 5);
        b.push('x');
        b.dispose();
        await new Promise(r => setTimeout(r, 15));
        expect(out).to.deep.equal([]);
    });
});
