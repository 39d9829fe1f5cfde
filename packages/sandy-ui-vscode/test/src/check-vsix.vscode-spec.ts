/**
 * `npm run check-vsix` models what Open VSX checks before it publishes: it passes on every package the
 * build made, and fails, naming each problem, on a deliberately broken one (no licence file, an SVG
 * icon, no repository/bugs/homepage, proposed API, a 0.x version without `preview`, README images that the
 * listing cannot show).
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { probeScreenWorker } from '@sandy-ui/test/lib/support/screen-worker-probe';

const PKG = path.resolve(__dirname, '..', '..');
const CHECK = path.join(PKG, 'scripts', 'check-vsix.mjs');

describe('npm run check-vsix: what Open VSX would refuse', () => {
    it('passes on every package the build made', () => {
        const r = spawnSync(process.execPath, [CHECK], { cwd: PKG, encoding: 'utf8' });
        expect(r.status, r.stdout + r.stderr).to.equal(0);
        expect(r.stdout).to.contain('passes the Open VSX checks');
    });

    it('the listing\'s README shows its screenshots: packaged with https URLs of the repository\'s plugin folder', () => {
        const readme = spawnSync('unzip', ['-p', path.join(PKG, 'dist-vsix', 'sandy-ui-0.1.0.vsix'), 'extension/readme.md'], { encoding: 'utf8' }).stdout;
        const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map(m => m[1]);
        const manifest = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
        expect(images.length, 'three screenshots').to.equal(3);
        for (const image of images) {
            expect(image).to.match(new RegExp(`^${manifest.repository.url.replace(/[.]/g, '\\.')}/raw/HEAD/${manifest.repository.directory}/media/screenshots/[a-z-]+\\.png$`));
            expect(fs.existsSync(path.join(PKG, image.split(`/raw/HEAD/${manifest.repository.directory}/`)[1])), `${image} is a file of this folder`).to.equal(true);
        }
    });

    it('the package carries the sessions\' screen worker beside extension.js (check-vsix requires it in every one), and it parses a screen', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-vsix-worker-'));
        try {
            const worker = path.join(dir, 'screen-worker.js');
            fs.writeFileSync(worker, spawnSync('unzip', ['-p', path.join(PKG, 'dist-vsix', 'sandy-ui-0.1.0.vsix'), 'extension/dist/screen-worker.js']).stdout);
            const { replay, notifications } = await probeScreenWorker(worker, '\x1b]9;x\x07parsed in the plugin\'s worker\r\n');
            expect(replay).to.contain('parsed in the plugin\'s worker');
            expect(notifications, 'its OSC 9 parsed there').to.deep.equal(['osc9:x']);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it('fails on a broken package and names each problem', () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-vsix-'));
        try {
            const broken = path.join(dir, 'broken.vsix');
            fs.copyFileSync(path.join(PKG, 'dist-vsix', 'sandy-ui-0.1.0.vsix'), broken);
            const manifest = JSON.parse(spawnSync('unzip', ['-p', broken, 'extension/package.json'], { encoding: 'utf8' }).stdout);
            const { repository: _r, bugs: _b, homepage: _h, preview: _p, ...rest } = manifest;
            fs.mkdirSync(path.join(dir, 'extension'));
            fs.writeFileSync(path.join(dir, 'extension', 'package.json'), JSON.stringify({ ...rest, icon: 'media/sandy.svg', enabledApiProposals: ['terminalDataWriteEvent'] }));
            fs.writeFileSync(path.join(dir, 'extension', 'readme.md'), ['# Broken', '', '![shot](media/screenshots/dashboard.png)', '<img alt="x" src="./media/sandy-128.png">',
                '![by reference][ref]', '', '[ref]: media/ref.png', '<img src=https://example.com/ok.png srcset="media/a.png 1x, https://example.com/b.png 2x">', ''].join('\n'));
            expect(spawnSync('zip', ['-q', '-d', broken, 'extension/LICENSE.txt', 'extension/package.json', 'extension/readme.md']).status).to.equal(0);
            expect(spawnSync('zip', ['-q', broken, 'extension/package.json', 'extension/readme.md'], { cwd: dir }).status).to.equal(0);
            const r = spawnSync(process.execPath, [CHECK, broken], { cwd: PKG, encoding: 'utf8' });
            expect(r.status).to.equal(1);
            for (const problem of ['no LICENSE file', 'icon media/sandy.svg is not a PNG', 'no repository', 'no bugs', 'no homepage',
                'uses proposed API (terminalDataWriteEvent)', 'version 0.1.0 without "preview": true',
                'readme.md image media/screenshots/dashboard.png is not an https URL', 'readme.md image ./media/sandy-128.png is not an https URL',
                'readme.md image media/ref.png is not an https URL', 'readme.md image media/a.png is not an https URL']) {
                expect(r.stderr, problem).to.contain(problem);
            }
            expect(r.stderr, 'https images are fine').to.not.contain('example.com');
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
