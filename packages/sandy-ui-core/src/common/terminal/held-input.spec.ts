import { expect } from 'chai';
import { HeldInput, heldInputDroppedText, MAX_HELD_INPUT_AGE_MS, MAX_HELD_INPUT_CHARS } from './held-input';

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

    it('refuses, and says, a write that would hold more than its bound and everything after it (no Enter without its paste); what it held before still goes', () => {
        const dropped: string[] = [];
        const input = new HeldInput((chars, why) => dropped.push(`${chars} ${why}`));
        const big = 'a'.repeat(MAX_HELD_INPUT_CHARS - 1);
        input.write(big);
        input.write('bc');
        input.write('\r');
        expect(dropped).to.deep.equal(['2 too-much', '1 too-much']);
        const got: string[] = [];
        input.open(d => got.push(d));
        expect(got).to.deep.equal([big]);
        input.write('after');
        expect(got).to.deep.equal([big, 'after']);
        expect(heldInputDroppedText(2)).to.contain('2 characters').and.contain(String(MAX_HELD_INPUT_CHARS));
    });

    it('does not send input typed longer than MAX_HELD_INPUT_AGE_MS before the attachment came (a screen that out of date), and says so', () => {
        let now = 1000;
        const dropped: string[] = [];
        const input = new HeldInput((chars, why) => dropped.push(`${chars} ${why}`), () => now);
        input.write('y');
        now += MAX_HELD_INPUT_AGE_MS / 2;
        input.write('\r');
        now += MAX_HELD_INPUT_AGE_MS / 2 + 1;
        const got: string[] = [];
        input.open(d => got.push(d));
        expect(got).to.deep.equal([]);
        expect(dropped).to.deep.equal(['2 too-old']);
        expect(heldInputDroppedText(2, 'too-old')).to.contain(`${MAX_HELD_INPUT_AGE_MS / 1000} s`);
        input.write('fresh');
        expect(got).to.deep.equal(['fresh']);
    });

    it('a second open (a new channel after a reconnect) gets nothing the first was given: nothing twice', () => {
        const first: string[] = [];
        const second: string[] = [];
        const input = new HeldInput();
        input.write('once');
        input.open(d => first.push(d));
        input.open(d => second.push(d));
        input.write('next');
        expect(first).to.deep.equal(['once']);
        expect(second).to.deep.equal(['next']);
    });

    it('a wait bounded elsewhere holds without an age limit; what it held when what it waited for ended is said lost', () => {
        let now = 0;
        const dropped: string[] = [];
        const input = new HeldInput((chars, why) => dropped.push(`${chars} ${why}`), () => now, Infinity);
        input.write('abc');
        now += 60_000;
        const got: string[] = [];
        input.open(d => got.push(d));
        expect(got).to.deep.equal(['abc']);
        const ended = new HeldInput((chars, why) => dropped.push(`${chars} ${why}`));
        ended.write('xy');
        ended.dispose(true);
        ended.dispose(true);
        expect(dropped).to.deep.equal(['2 ended']);
        expect(heldInputDroppedText(2, 'ended')).to.contain('--attach client');
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
