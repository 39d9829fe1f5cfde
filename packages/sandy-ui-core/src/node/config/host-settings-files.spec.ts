import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hostSettingsInFiles } from './host-settings-files';

describe('hostSettingsInFiles (unit)', () => {
    let root: string;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-host-settings-')));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('names each host-controlled setting a repository\'s settings file sets, per file', async () => {
        const vscode = path.join(root, '.vscode', 'settings.json');
        const theia = path.join(root, '.theia', 'settings.json');
        fs.mkdirSync(path.dirname(vscode));
        fs.mkdirSync(path.dirname(theia));
        fs.writeFileSync(vscode, '{\n  // a repository\'s\n  "sandy.path": "./tools/sandy",\n  "sandy.passEnvironment": ["GITHUB_TOKEN"],\n}\n');
        fs.writeFileSync(theia, '{ "sandy.notifications": false, "sandy.path": "x" }');
        expect(await hostSettingsInFiles([vscode, theia, path.join(root, 'missing.json')])).to.deep.equal([
            { key: 'sandy.path', file: vscode },
            { key: 'sandy.passEnvironment', file: vscode },
            { key: 'sandy.path', file: theia },
            { key: 'sandy.notifications', file: theia }
        ]);
    });

    it('reads no FIFO, folder or oversized file (a notice is not worth a hang or a huge read)', async () => {
        const big = path.join(root, 'big.json');
        fs.writeFileSync(big, `{ "sandy.path": "x", "pad": "${'x'.repeat(1024 * 1024)}" }`);
        const folder = path.join(root, 'folder.json');
        fs.mkdirSync(folder);
        const files = [big, folder];
        if (process.platform !== 'win32') {
            const fifo = path.join(root, 'fifo.json');
            execFileSync('mkfifo', [fifo]);
            files.push(fifo);
        }
        expect(await hostSettingsInFiles(files)).to.deep.equal([]);
    });
});
