import { expect } from 'chai';
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import Ajv from 'ajv';
import { freePort } from '../support/processes';
import { probeScreenWorker } from '../support/screen-worker-probe';

/*
 * The desktop Sandy IDE, tested without Electron's binary (it cannot be downloaded on the build
 * machines): its electron-builder configuration validates against electron-builder's own schema,
 * and its backend bundle starts under Node and serves the Sandy service (sandy located, guard on).
 */

const root = path.resolve(__dirname, '..', '..', '..');
const app = path.join(root, 'electron-app');

function get(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/', headers: { host } }, res => {
            res.resume();
            resolve(res.statusCode ?? 0);
        }).on('error', reject);
    });
}

describe('electron-app (without the Electron binary)', function () {
    this.timeout(60000);

    it('has an electron-builder configuration that validates against electron-builder\'s schema', () => {
        // electron-builder ships js-yaml (untyped here) and its JSON schema (draft-07).
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const yaml = require('js-yaml') as { load(text: string): unknown };
        const schema = JSON.parse(fs.readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
        const config = yaml.load(fs.readFileSync(path.join(app, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
        const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
        const validate = ajv.compile(schema);
        const ok = validate(config);
        expect(ok, JSON.stringify(validate.errors, undefined, 2)).to.equal(true);
        // What the issue asks the package to be: named, with icons, for every desktop platform.
        expect(config.productName).to.equal('Sandy IDE');
        expect(config.linux.target).to.include.members(['AppImage', 'deb']);
        expect(config.mac.target).to.include('dmg');
        expect(config.win.target).to.include('nsis');
        for (const icon of [config.mac.icon, config.win.icon]) {
            expect(fs.existsSync(path.join(app, icon)), icon).to.equal(true);
        }
        expect(fs.readdirSync(path.join(app, config.linux.icon)).filter(f => f.endsWith('.png')).length).to.be.at.least(4);
    });

    it('carries the sessions\' screen worker beside its backend, and that worker parses a screen', async () => {
        // (electron-app/esbuild.mjs adds the entry: without it core's ScreenThread parses on the backend's main thread.)
        const { replay, notifications } = await probeScreenWorker(path.join(app, 'lib', 'backend', 'screen-worker.js'), '\x1b]9;x\x07parsed in the electron-app\'s worker\r\n');
        expect(replay).to.contain('parsed in the electron-app\'s worker');
        expect(notifications, 'its OSC 9 parsed there').to.deep.equal(['osc9:x']);
    });

    describe('backend bundle under Node', () => {
        let proc: ChildProcess | undefined;
        let home: string;
        let log = '';

        before(function () {
            if (!fs.existsSync(path.join(app, 'lib', 'backend', 'main.js'))) {
                throw new Error('electron-app is not built: run `npm run build -w electron-app` first.');
            }
        });

        afterEach(() => {
            if (proc?.pid) {
                try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ }
            }
            fs.rmSync(home, { recursive: true, force: true });
        });

        it('starts, finds sandy, and serves the IDE only to its own host', async () => {
            home = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-electron-'));
            const ws = path.join(home, 'ws');
            fs.mkdirSync(ws);
            const port = await freePort();
            proc = spawn(process.execPath, [path.join(app, 'lib', 'backend', 'main.js'), ws, '--hostname', '127.0.0.1', '--port', String(port)], {
                cwd: app,
                detached: true,
                env: { ...process.env, HOME: home, PATH: `${path.join(root, 'test', 'fake-sandy', 'bin')}${path.delimiter}${process.env.PATH}` },
                stdio: ['ignore', 'pipe', 'pipe']
            });
            proc.stdout!.on('data', d => log += d);
            proc.stderr!.on('data', d => log += d);
            const deadline = Date.now() + 45000;
            while (!/sandy: .*fake-sandy\/bin\/sandy 1\.7\.1-dev/.test(log)) {
                if (Date.now() > deadline || proc.exitCode !== null) {
                    throw new Error(`backend did not locate sandy:\n${log.slice(-3000)}`);
                }
                await new Promise(r => setTimeout(r, 200));
            }
            expect(log, 'the bundle finds its screen worker beside it').to.not.contain('screen-worker.js is missing');
            expect(await get(port, `127.0.0.1:${port}`)).to.equal(200);
            expect(await get(port, `evil.example:${port}`)).to.equal(403);
        });
    });
});
