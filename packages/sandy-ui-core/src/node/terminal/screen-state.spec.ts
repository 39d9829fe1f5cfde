import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MAX_REPLAY_CHARS, ScreenState } from './screen-state';
import { SessionRecords } from './session-records';

describe('ScreenState: the backend\'s copy of a session\'s screen', () => {
    it('a reattach gets the screen and its scrollback, as drawing commands only', async () => {
        const screen = new ScreenState(80, 10, () => undefined);
        for (let i = 0; i < 30; i++) {
            screen.write(`line ${i}\r\n`);
        }
        screen.write('\x1b]0;title\x07\x1b[31mred prompt>\x1b[0m ');
        const replay = await screen.serialize();
        expect(replay).to.contain('line 0').and.contain('line 29').and.contain('red prompt>');
        expect(replay).to.not.contain('\x1b]');
    });

    it('Attack: an agent that paints every cell in its own colours cannot make each attach megabytes (less scrollback, then the screen alone)', async () => {
        const screen = new ScreenState(120, 40, () => undefined);
        let paint = '';
        for (let row = 0; row < 1500; row++) {
            for (let col = 0; col < 120; col++) {
                paint += `\x1b[38;2;${row % 256};${col % 256};${(row * col) % 256}m\x1b[48;2;${col % 256};${row % 256};7mX`;
            }
            paint += row === 1499 ? 'LAST' : '\r\n';
        }
        screen.write(paint);
        const replay = await screen.serialize();
        expect(replay.length).to.be.at.most(MAX_REPLAY_CHARS);
        expect(replay, 'the screen itself is always there').to.contain('LAST');
    });

    it('Attack: a FIFO or an oversized file at sessions.json is never read (it would hang or bloat the start)', function () {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-'));
        try {
            const fifo = path.join(dir, 'sessions.json');
            execFileSync('mkfifo', [fifo]);
            const started = Date.now();
            const records = new SessionRecords(fifo);
            expect(Date.now() - started).to.be.below(1000);
            expect(records.daemons).to.deep.equal({});
            const big = path.join(dir, 'big.json');
            fs.writeFileSync(big, JSON.stringify({ version: 1, daemons: { '/w': 'aaaaaaaaaaaa' }, pad: 'x'.repeat(2 * 1024 * 1024) }));
            expect(new SessionRecords(big).daemons).to.deep.equal({});
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
