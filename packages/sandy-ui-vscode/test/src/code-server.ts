/**
 * code-server (VS Code 1.100.3 in the browser) over a scratch {@link World}: the plugin's platform
 * .vsix installed the way a user installs it, the server bound to loopback without auth, telemetry
 * and update checks off. Installed outside the workspace by scripts/install-code-server.sh.
 */
import { ChildProcess, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { isGone } from '@sandy-ui/test/lib/support/processes';
import { poll } from './poll';
import { freePort, REPO_ROOT, RESULTS_DIR, World } from './world';

export const CODE_SERVER_PREFIX = process.env.SANDY_CODE_SERVER_PREFIX || path.join(REPO_ROOT, 'node_modules', '.cache', 'code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_PREFIX, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export interface CodeServerOptions {
    label: string;
    vsix: string;
    /** The folder the window opens. */
    folder: string;
    /** User settings (settings.json). */
    settings?: Record<string, unknown>;
    /** More environment for code-server (and so its extension host), beside the world's. */
    env?: Record<string, string>;
}

export class CodeServer {
    readonly userDataDir: string;
    readonly extensionsDir: string;
    readonly logFile: string;
    port = 0;
    protected child: ChildProcess | undefined;
    protected exited: string | undefined;

    constructor(readonly world: World, readonly options: CodeServerOptions) {
        this.userDataDir = world.dir('code-user-data');
        this.extensionsDir = world.dir('code-extensions');
        this.logFile = path.join(RESULTS_DIR, `code-server-${options.label}.log`);
    }

    static requireInstalled(): void {
        if (!fs.existsSync(CODE_SERVER_ENTRY)) {
            throw new Error(`code-server is not installed (${CODE_SERVER_ENTRY}). Run scripts/install-code-server.sh first.`);
        }
    }

    protected baseArgs(): string[] {
        return ['--user-data-dir', this.userDataDir, '--extensions-dir', this.extensionsDir];
    }

    /** `code-server --install-extension file.vsix`, as a user would. */
    installExtension(): string {
        return execFileSync(process.execPath, [CODE_SERVER_ENTRY, ...this.baseArgs(), '--install-extension', this.options.vsix],
            { env: this.world.env(), encoding: 'utf8', timeout: 120_000 });
    }

    /** The globalStorage folder of the plugin (its projects list lives there). */
    get pluginStorage(): string {
        return path.join(this.userDataDir, 'User', 'globalStorage', 'rappdw.sandy-ui');
    }

    /**
     * Starts the server. Started again (after {@link crash}) it keeps its port: the page's origin, and
     * with it the browser's storage of the workbench (open editors, webview states), stay the same.
     */
    async start(): Promise<void> {
        CodeServer.requireInstalled();
        const settings = {
            'workbench.startupEditor': 'none',
            'workbench.welcomePage.walkthroughs.openOnInstall': false,
            'workbench.tips.enabled': false,
            'security.workspace.trust.enabled': false,
            'telemetry.telemetryLevel': 'off',
            'update.mode': 'none',
            'extensions.autoCheckUpdates': false,
            'extensions.autoUpdate': false,
            'extensions.ignoreRecommendations': true,
            'git.enabled': false,
            'window.restoreWindows': 'none',
            ...this.options.settings
        };
        fs.mkdirSync(path.join(this.userDataDir, 'User'), { recursive: true });
        fs.writeFileSync(path.join(this.userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
        this.port ||= await freePort();
        this.exited = undefined;
        const child = this.child = this.world.start(process.execPath, [
            CODE_SERVER_ENTRY, ...this.baseArgs(),
            '--auth', 'none', '--bind-addr', `127.0.0.1:${this.port}`, '--disable-telemetry', '--disable-update-check',
            '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened', this.options.folder
        ], { cwd: this.options.folder, env: this.world.env(this.options.env), logFile: this.logFile });
        child.on('exit', (code, signal) => {
            if (this.child === child) {
                this.exited = `code-server exited (${code ?? signal}); see ${this.logFile}`;
            }
        });
        await poll(() => this.httpOk('/healthz'), { timeout: 60_000, message: 'code-server to listen', abort: () => this.exited });
    }

    /** The server's process group (code-server's launcher, the server, its extension hosts, pty host, watchers). */
    processGroup(): number[] {
        const pgid = this.child?.pid;
        if (!pgid) {
            return [];
        }
        return fs.readdirSync('/proc').filter(e => /^[0-9]+$/.test(e)).map(Number).filter(pid => {
            try {
                const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
                return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid && !isGone(pid);
            } catch {
                return false;
            }
        });
    }

    /** The extension host processes of this server (VS Code forks them with `--type=extensionHost`). */
    extensionHosts(): number[] {
        return this.processGroup().filter(pid => {
            try {
                return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--type=extensionHost');
            } catch {
                return false;
            }
        });
    }

    /**
     * `kill -9` of the server: SIGKILL to its whole process group at once, so the extension host dies
     * with it (no graceful stop, no deactivate), as when the machine's OOM killer or a crash takes it.
     * Resolves with the pids that were killed once every one of them is gone.
     */
    async crash(): Promise<number[]> {
        const child = this.child;
        if (!child?.pid) {
            throw new Error('code-server is not running');
        }
        const group = this.processGroup();
        this.child = undefined;
        process.kill(-child.pid, 'SIGKILL');
        await poll(() => group.every(isGone), { message: `code-server's processes ${group.join(', ')} to be gone`, timeout: 15_000 });
        return group;
    }

    get url(): string {
        return `http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(this.options.folder)}`;
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

    /** The plugin's "Sandy" log output channel, as the extension host wrote it. */
    pluginLog(): string {
        return this.logFiles((name, full) => /Sandy\.log$/.test(name) || full.includes('rappdw.sandy-ui'))
            .map(f => `== ${f}\n${fs.readFileSync(f, 'utf8')}`).join('\n');
    }

    /** VS Code's extension host logs (code-server's `remoteexthost.log`): which extension it activated, and on which event. */
    extensionHostLog(): string {
        return this.logFiles(name => /exthost\.log$/.test(name)).map(f => fs.readFileSync(f, 'utf8')).join('\n');
    }

    /** VS Code's Git output (its git extension's log): the repositories it opened and the git commands it ran. */
    gitLog(): string {
        return this.logFiles(name => name === 'Git.log').map(f => fs.readFileSync(f, 'utf8')).join('\n');
    }

    /** The files under this server's logs folder that `match`. */
    protected logFiles(match: (name: string, full: string) => boolean): string[] {
        const found: string[] = [];
        const walk = (dir: string) => {
            for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
                const full = path.join(dir, entry.name);
                if (entry.isDirectory()) {
                    walk(full);
                } else if (match(entry.name, full)) {
                    found.push(full);
                }
            }
        };
        walk(path.join(this.userDataDir, 'logs'));
        return found;
    }

    protected httpOk(pathname: string): Promise<boolean> {
        return new Promise(resolve => {
            const req = http.get({ host: '127.0.0.1', port: this.port, path: pathname, timeout: 2000 }, res => {
                res.resume();
                resolve((res.statusCode ?? 500) < 400);
            });
            req.on('error', () => resolve(false));
            req.on('timeout', () => { req.destroy(); resolve(false); });
        });
    }
}

/** A failed test's screenshot and the plugin's log, under the results folder, named `<prefix>-<test>`. */
export async function saveFailureEvidence(
    prefix: string, title: string | undefined, page: { screenshot(o: { path: string }): Promise<unknown> }, server: CodeServer
): Promise<void> {
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const slug = (title || 'failed').replace(/[^a-zA-Z0-9]+/g, '-').slice(0, 80);
    await page.screenshot({ path: path.join(RESULTS_DIR, `${prefix}-${slug}.png`) }).catch(() => undefined);
    fs.writeFileSync(path.join(RESULTS_DIR, `${prefix}-${slug}.plugin.log`), server.pluginLog());
}
