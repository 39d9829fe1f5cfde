/**
 * The built Sandy IDE (browser-app) with this plugin in its plugin host, over a scratch {@link World}.
 * Runs from a private copy of browser-app/lib: a rebuild of browser-app overwrites native .node
 * files in place and would crash a backend that has them mapped (other work may rebuild meanwhile).
 * The plugin goes in unpacked, as Theia reads it: the .vsix's `extension/` folder, package.json on top.
 */
import { ChildProcess, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { poll } from './poll';
import { freePort, REPO_ROOT, RESULTS_DIR, World } from './world';

export const BROWSER_APP = process.env.SANDY_E2E_APP_DIR || path.join(REPO_ROOT, 'browser-app');

export class SandyIdeWithPlugin {
    readonly appDir: string;
    readonly pluginsDir: string;
    readonly logFile: string;
    port = 0;
    protected child: ChildProcess | undefined;
    protected exited: string | undefined;

    constructor(readonly world: World, readonly vsix: string, readonly folder: string) {
        this.appDir = world.dir('app');
        this.pluginsDir = world.dir('app', 'plugins');
        this.logFile = path.join(RESULTS_DIR, 'theia-plugin-host.log');
    }

    static requireBuilt(): void {
        for (const f of ['backend/main.js', 'frontend/bundle.js']) {
            if (!fs.existsSync(path.join(BROWSER_APP, 'lib', f))) {
                throw new Error(`${BROWSER_APP}/lib/${f} is missing: build the IDE first (npm run build).`);
            }
        }
    }

    /** A private copy of the app, its bundled plugins, and this plugin unpacked beside them. */
    prepare(): void {
        SandyIdeWithPlugin.requireBuilt();
        fs.cpSync(path.join(BROWSER_APP, 'lib'), path.join(this.appDir, 'lib'), { recursive: true, filter: src => !src.endsWith('.map') });
        fs.copyFileSync(path.join(BROWSER_APP, 'package.json'), path.join(this.appDir, 'package.json'));
        const builtins = path.join(BROWSER_APP, 'plugins');
        if (fs.existsSync(builtins)) {
            fs.cpSync(builtins, this.pluginsDir, { recursive: true });
        }
        const unpacked = this.world.dir('vsix-unpacked');
        execFileSync('unzip', ['-q', '-o', this.vsix, 'extension/*', '-d', unpacked]);
        fs.renameSync(path.join(unpacked, 'extension'), path.join(this.pluginsDir, 'rappdw.sandy-ui'));
        // The app has workspace trust on, and Theia starts no `untrustedWorkspaces: false` plugin in an
        // untrusted folder: the folder is one the user trusted before (what the dialog's "Yes" writes).
        const settingsDir = path.join(this.world.home, '.sandy-ide');
        fs.mkdirSync(settingsDir, { recursive: true });
        fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({
            'security.workspace.trust.trustedFolders': [pathToFileURL(this.folder).toString()]
        }, undefined, 4));
    }

    async start(): Promise<void> {
        this.port = await freePort();
        const env = this.world.env({ THEIA_DEFAULT_PLUGINS: `local-dir:${this.pluginsDir}`, SHELL: '/bin/bash' });
        this.child = this.world.start(process.execPath, [path.join(this.appDir, 'lib', 'backend', 'main.js'), this.folder,
            '--hostname', '127.0.0.1', '--port', String(this.port)], { cwd: this.appDir, env, logFile: this.logFile });
        this.child.on('exit', (code, signal) => this.exited = `the Sandy IDE backend exited (${code ?? signal}); see ${this.logFile}`);
        await poll(() => this.httpOk(), { timeout: 90_000, message: 'the Sandy IDE backend to listen', abort: () => this.exited });
    }

    get url(): string {
        return `http://127.0.0.1:${this.port}/`;
    }

    deathNotice(): string | undefined {
        return this.exited;
    }

    log(): string {
        try {
            return fs.readFileSync(this.logFile, 'utf8');
        } catch {
            return '';
        }
    }

    protected httpOk(): Promise<boolean> {
        return new Promise(resolve => {
            const req = http.get({ host: '127.0.0.1', port: this.port, path: '/', timeout: 2000 }, res => {
                res.resume();
                resolve((res.statusCode ?? 500) < 400);
            });
            req.on('error', () => resolve(false));
            req.on('timeout', () => { req.destroy(); resolve(false); });
        });
    }
}
