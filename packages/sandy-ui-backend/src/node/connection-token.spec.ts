import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CONNECTION_TOKEN_FILE, persistentConnectionToken } from './connection-token';

describe('persistentConnectionToken', () => {
    let dir: string;
    let file: string;

    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-token-'));
        file = path.join(dir, 'data', CONNECTION_TOKEN_FILE);
    });

    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('gives the next backend the token of the last one (a page open across a restart reconnects)', () => {
        const first = persistentConnectionToken(path.join(dir, 'data'));
        expect(first.value).to.match(/^[0-9a-f]{64}$/);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        expect(persistentConnectionToken(path.join(dir, 'data')).value).to.equal(first.value);
    });

    it('replaces a file others can read, a link or something that is not a token with a fresh token', () => {
        const data = path.join(dir, 'data');
        const kept = persistentConnectionToken(data).value;

        fs.chmodSync(file, 0o644);
        const afterOpen = persistentConnectionToken(data).value;
        expect(afterOpen).to.not.equal(kept);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);

        // A link planted in the data folder is neither read nor written through.
        const planted = path.join(dir, 'planted');
        fs.writeFileSync(planted, `${'a'.repeat(64)}\n`, { mode: 0o600 });
        fs.rmSync(file);
        fs.symlinkSync(planted, file);
        const afterLink = persistentConnectionToken(data).value;
        expect(afterLink).to.not.equal('a'.repeat(64));
        expect(fs.readFileSync(planted, 'utf8')).to.equal(`${'a'.repeat(64)}\n`);
        expect(fs.lstatSync(file).isSymbolicLink()).to.equal(false);

        fs.writeFileSync(file, 'not-a-token\n', { mode: 0o600 });
        expect(persistentConnectionToken(data).value).to.match(/^[0-9a-f]{64}$/);
    });

    it('still gives a token when the folder cannot be written (it then lives as long as the process)', () => {
        const blocked = path.join(dir, 'blocked');
        fs.writeFileSync(blocked, '');
        const token = persistentConnectionToken(path.join(blocked, 'data'));
        expect(token.value).to.match(/^[0-9a-f]{64}$/);
        expect(persistentConnectionToken(path.join(blocked, 'data')).value).to.not.equal(token.value);
    });
});
