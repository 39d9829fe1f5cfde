/**
 * Runs the BUILT Sandy IDE backend (browser-app/lib/backend/main.js) against a scratch world: its
 * own HOME with a workspace folder, the fake sandy first on PATH, and the IDE's data directory
 * inside that HOME, so a run never reads or locks anything of the user's (or of another run).
 *
 * The backend is spawned detached (its own process group) and ended by signalling the group.
 * The sandy sessions it hosts live in sessions of their own (node-pty makes each a session
 * leader), so a final sweep ends any process that still carries this run's HOME.
 *
 * Knobs: SANDY_E2E_APP_DIR runs another copy of the built app (e.g. a snapshot of browser-app's
 * lib/, plugins/ and package.json, so a concurrent rebuild cannot pull native modules out from
 * under the running backend); SANDY_E2E_KEEP=1 keeps the scratch folders; SANDY_E2E_CHROMIUM
 * names the browser (default /usr/bin/chromium).
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { sandboxName } from '../fake-sandy/harness';
import { poll } from '../support/poll';
import { hasHome, killProcessesWithHome } from '../support/processes';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const APP_DIR = path.join(REPO_ROOT, 'browser-app');
export const BACKEND_MAIN = path.join('lib', 'backend', 'main.js');
export const FAKE_SANDY_BIN_DIR = path.join(REPO_ROOT, 'test', 'fake-sandy', 'bin');
/** Screenshots of failed tests and backend logs (test/results is gitignored); emptied once per run. */
export const RESULTS_DIR = path.join(REPO_ROOT, 'test', 'results', 'e2e');
let resultsReset = false;

function resetResultsDir(): void {
    if (!resultsReset) {
        // Yesterday's failure screenshots next to today's passing run would only mislead.
        fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
        resultsReset = true;
    }
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
}

/**
 * The fake's test knobs reach it only through the product's environment whitelist, i.e. through
 * the user's `sandy.passEnvironment` setting — the same door a real user has.
 */
const FAKE_KNOBS = ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER', 'FAKE_SANDY_CLEANUP_MS', 'FAKE_SANDY_ON_START', 'FAKE_SANDY_GH_TOKEN', 'FAKE_SANDY_GATE_DELAY_MS'];

export interface SandyIdeOptions {
    /** Names the scratch folder and the backend log. */
    label: string;
    /** Default true. False: PATH keeps only folders without any `sandy`, so sandy is "not installed". */
    sandyOnPath?: boolean;
    /** Extra environment for the backend (and, for FAKE_SANDY_* knobs, the sandy it starts). */
    env?: Record<string, string>;
    /** Basename of the workspace folder (the project's display name). */
    workspaceName?: string;
    /**
     * Puts files in place once the scratch HOME and workspace exist, before the backend starts
     * (e.g. more projects in `projects.json`, which the backend reads once).
     */
    seed?: (ide: SandyIde) => void;
    /**
     * Default true: the workspace is in the user's trusted folders (what Theia's "Trust" answer
     * writes to the user settings), so the window opens without the workspace trust dialog.
     */
    trustWorkspace?: boolean;
}

export interface ExitInfo {
    code: number | null;
    signal: NodeJS.Signals | null;
}

/** One running Sandy IDE backend over a scratch HOME. */
export class SandyIde {
    readonly root: string;
    readonly home: string;
    readonly workspace: string;
    readonly dataDir: string;
    readonly logFile: string;
    port = 0;
    protected child: ChildProcess | undefined;
    protected exit: ExitInfo | undefined;
    protected stopping = false;
    protected output = '';

    protected constructor(readonly options: SandyIdeOptions) {
        // realpath: sandy names sandboxes after the canonical path, and /tmp may be a symlink.
        this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sandy-e2e-${options.label}-`)));
        this.home = path.join(this.root, 'home');
        this.workspace = path.join(this.home, 'work', options.workspaceName ?? 'e2e-proj');
        this.dataDir = path.join(this.home, '.sandy-ide-data');
        this.logFile = path.join(RESULTS_DIR, `backend-${options.label}.log`);
    }

    /** Starts a backend and resolves once it listens. Fails clearly when the app is not built. */
    static async start(options: SandyIdeOptions): Promise<SandyIde> {
        const appDir = process.env.SANDY_E2E_APP_DIR || APP_DIR;
        const main = path.join(appDir, BACKEND_MAIN);
        if (!fs.existsSync(main)) {
            throw new Error(`${main} is missing: the end-to-end suite runs the built app. Build it with `
                + '`npx tsc -b configs/tsconfig.all.json && npm run build -w browser-app` (`npm run test:e2e` does this).');
        }
        const ide = new SandyIde(options);
        try {
            ide.prepare();
            await ide.spawnBackend(appDir, main);
        } catch (e) {
            await ide.stop();
            throw e;
        }
        return ide;
    }

    get url(): string {
        return `http://127.0.0.1:${this.port}/`;
    }

    get origin(): string {
        return `http://127.0.0.1:${this.port}`;
    }

    get sandyHome(): string {
        return path.join(this.home, '.sandy');
    }

    get projectName(): string {
        return path.basename(this.workspace);
    }

    /** Where sandy (and the fake) hold the workspace lock while a session runs. */
    get lockDir(): string {
        return this.lockDirOf(this.workspace);
    }

    /** The lock folder of any workspace (canonical path) in this run's SANDY_HOME. */
    lockDirOf(workspace: string): string {
        return path.join(this.sandyHome, 'sandboxes', `.${sandboxName(workspace)}.lock`);
    }

    /** The pid written into the workspace lock, if the lock exists. */
    lockHolder(): number | undefined {
        try {
            return parseInt(fs.readFileSync(path.join(this.lockDir, 'pid'), 'utf8').trim(), 10) || undefined;
        } catch {
            return undefined;
        }
    }

    /** Why the backend is gone, if it died while tests still needed it (for poll's `abort`). */
    deathNotice(): string | undefined {
        if (!this.exit || this.stopping) {
            return undefined;
        }
        const how = this.exit.signal ? `signal ${this.exit.signal}` : `exit code ${this.exit.code}`;
        const hint = this.exit.signal === 'SIGSEGV' ? ' (was browser-app rebuilt while the suite ran? A rebuild overwrites its native modules.)' : '';
        return `the Sandy IDE backend died with ${how}${hint}; see ${this.logFile}`;
    }

    /**
     * Interactive sandy sessions of this run: processes carrying our HOME that have a controlling
     * terminal (the short `--print-state` probes run on pipes and are left out).
     */
    sandySessions(): number[] {
        const pids: number[] = [];
        for (const entry of fs.readdirSync('/proc')) {
            if (!/^\d+$/.test(entry)) {
                continue;
            }
            try {
                const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
                if (!cmdline.includes('fake-sandy') || !this.ownsProcess(entry)) {
                    continue;
                }
                // Field 7 of /proc/<pid>/stat is tty_nr; the command name (field 2) may hold spaces, so split after it.
                const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
                const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
                if (fields[0] !== 'Z' && Number(fields[4]) !== 0) {
                    pids.push(Number(entry));
                }
            } catch {
                // The process ended while we looked.
            }
        }
        return pids;
    }

    /** The interactive sandy sessions ({@link sandySessions}) running in `workspace` (their cwd). */
    sandySessionsIn(workspace: string): number[] {
        return this.sandySessions().filter(pid => {
            try {
                return fs.readlinkSync(`/proc/${pid}/cwd`) === workspace;
            } catch {
                return false;
            }
        });
    }

    /** The environment of a process of this run, from /proc/<pid>/environ (what it really got). */
    processEnv(pid: number): Record<string, string> {
        const env: Record<string, string> = {};
        for (const entry of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
            const eq = entry.indexOf('=');
            if (eq > 0) {
                env[entry.slice(0, eq)] = entry.slice(eq + 1);
            }
        }
        return env;
    }

    /** Ends the backend's process group, then anything else still running with this run's HOME. */
    async stop(): Promise<void> {
        this.stopping = true;
        const child = this.child;
        if (child?.pid && !this.exit) {
            signalGroup(child.pid, 'SIGTERM');
            // Theia's onStop ends the sandy sessions gracefully; give it time, then insist.
            const exited = await poll(() => !!this.exit, { timeout: 10_000, message: 'the backend to exit' }).catch(() => false);
            if (!exited) {
                signalGroup(child.pid, 'SIGKILL');
                await poll(() => !!this.exit, { timeout: 5_000, message: 'the backend to die' }).catch(() => undefined);
            }
        }
        this.sweep();
        if (!process.env.SANDY_E2E_KEEP) {
            fs.rmSync(this.root, { recursive: true, force: true });
        }
    }

    protected prepare(): void {
        fs.mkdirSync(this.workspace, { recursive: true });
        fs.writeFileSync(path.join(this.workspace, 'README.md'), '# e2e project\n');
        fs.mkdirSync(this.dataDir, { recursive: true });
        fs.mkdirSync(path.join(this.root, 'tmp'), { recursive: true });
        // The app's Theia configuration folder is ~/.sandy-ide (browser-app/package.json).
        const settingsDir = path.join(this.home, '.sandy-ide');
        fs.mkdirSync(settingsDir, { recursive: true });
        fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({
            'sandy.passEnvironment': FAKE_KNOBS,
            ...this.options.trustWorkspace === false ? {} : { 'security.workspace.trust.trustedFolders': [pathToFileURL(this.workspace).toString()] }
        }, undefined, 4));
        resetResultsDir();
        this.options.seed?.(this);
    }

    protected backendEnv(appDir: string): NodeJS.ProcessEnv {
        const env: NodeJS.ProcessEnv = {};
        for (const [name, value] of Object.entries(process.env)) {
            // A developer's own sandy or IDE settings must not steer the run.
            if (!/^(SANDY_|FAKE_SANDY_|THEIA_)/.test(name)) {
                env[name] = value;
            }
        }
        const basePath = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
        const sandyOnPath = this.options.sandyOnPath ?? true;
        const searchPath = sandyOnPath
            ? [FAKE_SANDY_BIN_DIR, ...basePath]
            : basePath.filter(dir => dir !== FAKE_SANDY_BIN_DIR && !fs.existsSync(path.join(dir, 'sandy')));
        Object.assign(env, {
            HOME: this.home,
            TMPDIR: path.join(this.root, 'tmp'),
            PATH: searchPath.join(path.delimiter),
            SANDY_IDE_DATA_DIR: this.dataDir,
            // The IDE polls sandy's state every second, so state changes show up quickly.
            SANDY_IDE_POLL_MS: '1000',
            FAKE_SANDY_NODE: process.execPath,
            // A reachable (fake) Docker, as on a developer's machine.
            FAKE_SANDY_DOCKER: '1',
            FAKE_SANDY_GH_TOKEN: '1',
            ...this.options.env
        });
        const plugins = path.join(appDir, 'plugins');
        if (fs.existsSync(plugins)) {
            env.THEIA_DEFAULT_PLUGINS = `local-dir:${plugins}`;
        }
        return env;
    }

    protected async spawnBackend(appDir: string, main: string): Promise<void> {
        const log = fs.createWriteStream(this.logFile);
        // Port 0: the kernel picks a free port and the backend prints it — no race with other runs.
        const child = spawn(process.execPath, [main, this.workspace, '--hostname', '127.0.0.1', '--port', '0'], {
            cwd: appDir,
            env: this.backendEnv(appDir),
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe']
        });
        this.child = child;
        const collect = (chunk: Buffer): void => {
            log.write(chunk);
            if (!this.port) {
                this.output += chunk.toString();
                const m = /listening on https?:\/\/[^\s:]+:(\d+)/.exec(this.output);
                if (m) {
                    this.port = Number(m[1]);
                }
            }
        };
        child.stdout!.on('data', collect);
        child.stderr!.on('data', collect);
        child.on('exit', (code, signal) => {
            this.exit = { code, signal };
            log.end();
        });
        await poll(() => {
            if (this.exit) {
                throw new Error(`the backend exited (${this.exit.signal ?? this.exit.code}) before listening:\n${this.output.slice(-3000)}`);
            }
            return this.port || undefined;
        }, { timeout: 60_000, message: `the backend to listen (log: ${this.logFile})` });
    }

    /** True if the process has this run's HOME: a process this run started, directly or not. */
    protected ownsProcess(pid: string): boolean {
        return hasHome(Number(pid), this.home);
    }

    protected sweep(): void {
        killProcessesWithHome(this.home);
    }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
    try {
        process.kill(-pid, signal);
    } catch {
        // The group is already gone.
    }
}

/** process.kill(pid, 0): true while the process exists (a zombie counts, as with `kill -0`). */
export function pidAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
}
