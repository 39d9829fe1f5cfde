import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CONNECTION_TOKEN_FILE, persistentConnectionToken } from './connection-token';

/**
 * Attack: whoever can write the IDE's data folder replaces the kept connection token (a regular
 * 0600 file of ours) with a link or a FIFO, between the backend writing it and the next backend
 * reading it — or, in the reader that checked the name and then read it again by name, between
 * the check and the read. What is read must be the very file that was checked: a link is not
 * followed (a token of the attacker's choosing), a FIFO does not hang the backend's start, and
 * /dev/zero is not read without end. Each case ends with a fresh token of the backend's own.
 */
describe('Attack: the connection token file is swapped for a link or a FIFO (unit)', () => {
    let dir: string;
    let data: string;
    let file: string;

    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-token-race-'));
        data = path.join(dir, 'data');
        file = path.join(data, CONNECTION_TOKEN_FILE);
    });

    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    /**
     * Runs a backend start (persistentConnectionToken) in a child process on the token file the last
     * start wrote; `swap`: the moment the reader first touches that name (its check, whichever call
     * it is), the file is replaced by a symlink to `target` — the race, won. Returns what the start
     * printed, whether the swap happened, and whether it hung (killed after 5 s).
     */
    function startSwappingTo(target: string): { hung: boolean; swapped: boolean; token: string; kept: string } {
        const kept = persistentConnectionToken(data).value;
        expect(kept).to.match(/^[0-9a-f]{64}$/);
        const moduleFile = path.join(__dirname, 'connection-token.js');
        const script = `const fs = require('fs');
            let swapped = false;
            for (const name of ['lstatSync', 'statSync', 'openSync', 'readFileSync', 'existsSync', 'accessSync']) {
                const original = fs[name];
                fs[name] = function (p, ...rest) {
                    const result = original.call(this, p, ...rest);
                    if (!swapped && String(p) === ${JSON.stringify(file)}) {
                        swapped = true;
                        fs.rmSync(p);
                        fs.symlinkSync(${JSON.stringify(target)}, p);
                    }
                    return result;
                };
            }
            const { persistentConnectionToken } = require(${JSON.stringify(moduleFile)});
            const value = persistentConnectionToken(${JSON.stringify(data)}).value;
            process.stdout.write(JSON.stringify({ swapped, value }));`;
        const run = spawnSync(process.execPath, ['-e', script], { timeout: 5_000, encoding: 'utf8' });
        if (run.signal !== null) {
            return { hung: true, swapped: true, token: '', kept };
        }
        const out = JSON.parse(run.stdout) as { swapped: boolean; value: string };
        return { hung: false, swapped: out.swapped, token: out.value, kept };
    }

    it('a link to a planted token (0600, ours, well formed) is not followed: the planted token is not the backend\'s', () => {
        const planted = path.join(dir, 'planted');
        fs.writeFileSync(planted, `${'a'.repeat(64)}\n`, { mode: 0o600 });
        const { hung, swapped, token, kept } = startSwappingTo(planted);
        expect(swapped, 'the swap happened').to.equal(true);
        expect(hung).to.equal(false);
        expect(token, 'the token read through the planted link').to.not.equal('a'.repeat(64));
        // What was read is the file that was checked: the token the last start kept.
        expect(token).to.equal(kept);
        // The next start finds the link in place: not followed, replaced by a fresh file of our own.
        const next = persistentConnectionToken(data).value;
        expect(next).to.match(/^[0-9a-f]{64}$/);
        expect(next).to.not.equal('a'.repeat(64));
        expect(fs.lstatSync(file).isSymbolicLink(), 'the link was replaced by a file of our own').to.equal(false);
        expect(persistentConnectionToken(data).value, 'and that is the token kept from then on').to.equal(next);
        expect(fs.readFileSync(planted, 'utf8'), 'the planted file was not written through').to.equal(`${'a'.repeat(64)}\n`);
    });

    it('a FIFO in place of the token does not hang the backend\'s start', function () {
        this.timeout(20_000);
        const fifo = path.join(dir, 'fifo');
        if (spawnSync('mkfifo', [fifo]).status !== 0) {
            this.skip();
        }
        const { hung, swapped, token } = startSwappingTo(fifo);
        expect(swapped, 'the swap happened').to.equal(true);
        expect(hung, 'the backend hung opening the FIFO and was killed after 5 s').to.equal(false);
        expect(token).to.match(/^[0-9a-f]{64}$/);
    });

    it('/dev/zero in place of the token is not read without end', function () {
        this.timeout(20_000);
        const { hung, swapped, token } = startSwappingTo('/dev/zero');
        expect(swapped, 'the swap happened').to.equal(true);
        expect(hung, 'the backend read /dev/zero until it was killed').to.equal(false);
        expect(token).to.match(/^[0-9a-f]{64}$/);
    });

    it('a regular token file that others can read, or a huge one, is not kept', () => {
        persistentConnectionToken(data);
        fs.writeFileSync(file, `${'b'.repeat(64)}\n`, { mode: 0o644 });
        fs.chmodSync(file, 0o644);
        expect(persistentConnectionToken(data).value).to.not.equal('b'.repeat(64));
        fs.writeFileSync(file, `${'c'.repeat(64)}\n${' '.repeat(1 << 20)}`, { mode: 0o600 });
        expect(persistentConnectionToken(data).value).to.not.equal('c'.repeat(64));
        // The file the backend wrote itself is kept across starts.
        const own = persistentConnectionToken(data).value;
        expect(persistentConnectionToken(data).value).to.equal(own);
    });
});
