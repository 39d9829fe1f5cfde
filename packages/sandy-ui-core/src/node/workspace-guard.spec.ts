import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkWorkspace } from './workspace-guard';

describe('checkWorkspace (unit)', () => {
    let root: string;
    let home: string;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ws-')));
        home = path.join(root, 'home', 'u');
        fs.mkdirSync(path.join(home, 'proj'), { recursive: true });
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const refused = async (ws: string, pattern: RegExp): Promise<void> => {
        try {
            await checkWorkspace(ws, home);
        } catch (e) {
            const err = e as { code: string; message: string; hint: string };
            expect(err.code).to.equal('usage');
            expect(err.message).to.match(pattern);
            expect(err.hint).to.be.a('string').and.not.equal('');
            return;
        }
        expect.fail(`${ws} should be refused`);
    };

    it('returns the canonical path of a project folder', async () => {
        const link = path.join(root, 'link');
        fs.symlinkSync(path.join(home, 'proj'), link);
        expect(await checkWorkspace(link, home)).to.equal(path.join(home, 'proj'));
    });

    it('refuses empty, relative, missing and file paths', async () => {
        await refused('', /No workspace/);
        await refused('   ', /No workspace/);
        await refused('proj', /not an absolute path/);
        await refused(path.join(root, 'nope'), /does not exist/);
        fs.writeFileSync(path.join(root, 'file'), 'x');
        await refused(path.join(root, 'file'), /is a file/);
    });

    it('refuses /, $HOME (also through a symlink) and folders containing $HOME', async () => {
        await refused('/', /root/);
        await refused(home, /home folder/);
        await refused(`${home}/`, /home folder/);
        const link = path.join(root, 'homelink');
        fs.symlinkSync(home, link);
        await refused(link, /home folder/);
        await refused(path.join(root, 'home'), /contains your home folder/);
    });
});
