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
import { AgentCue, AgentCues } from '../support/agent-cue';
import { markOnboarded } from '../support/onboarded';
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as pty from 'node-pty';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { readSessionRecords, SessionRecord } from '../fake-sandy/docker';
import { sandboxName } from '../fake-sandy/harness';
import { poll } from '../support/poll';
import { parentOf } from '../support/proc-stat';
import { hasHome, killProcessesWithHome, processesWithHome } from '../support/processes';
import { ShellSandy } from '../support/shell-sandy';

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
const FAKE_KNOBS = ['FAKE_SANDY_NODE', 'FAKE_SANDY_VERSION', 'FAKE_SANDY_DOCKER', 'FAKE_SANDY_CLEANUP_MS', 'FAKE_SANDY_ON_START', 'FAKE_SANDY_GH_TOKEN', 'FAKE_SANDY_GATE_DELAY_MS'];

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
    /** More user settings (`~/.sandy-ide/settings.json`), e.g. `{ 'sandy.sessionMode': 'foreground' }`. */
    settings?: Record<string, unknown>;
    /**
     * Default true: this HOME has been through Get Started (`~/.sandy-ui/onboarding.json` says finished), so
     * the wizard does not open by itself while sandy is found. False: a newcomer's fresh HOME.
     */
    onboarded?: boolean;
    /** Folders put first on the backend's PATH (after the scratch HOME exists), e.g. `~/.local/bin` where sandy's installer puts sandy. */
    pathPrepend?: (ide: SandyIde) => string[];
}

/**
 * A "container" of the fake Docker engine (`$SANDY_HOME/.fake-docker/sessions/<id>.json`, test/src/fake-sandy/docker.ts):
 * `ownerPid` is the daemon supervisor's pid (a bare launch: sandy's), `attached` the clients attached to its session.
 */
export type FakeContainer = SessionRecord;

/** A daemon session as sandy left it ({@link SandyIde.runningDaemon}). */
export interface RunningDaemon {
    container: FakeContainer;
    /** The supervisor: runs the agent, holds the workspace lock, owns the container. */
    supervisor: number;
    /** `sandy --attach` clients in the workspace. */
    clients: number[];
}

/** One fake sandy process of this run, as /proc shows it. */
export interface SandyProcess {
    pid: number;
    /** argv after the launcher (`--attach`, `--start`, … or nothing for a bare launch). */
    args: string[];
    cwd: string | undefined;
    /** It has a controlling terminal (a PTY of the IDE or of a test). */
    tty: boolean;
    /** A daemon session's supervisor (`SANDY_DAEMON_SUPERVISOR=1`): it runs the agent and holds the lock. */
    supervisor: boolean;
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
    /** Where the Theia host keeps session history by default (`~/.local/state/sandy-ide/history`: XDG_STATE_HOME is unset here). */
    readonly historyDir: string;
    readonly logFile: string;
    port = 0;
    protected child: ChildProcess | undefined;
    protected exit: ExitInfo | undefined;
    protected stopping = false;
    protected output = '';
    /** sandy runs of a "shell" of this test ({@link runInTerminal}), ended by {@link stop}. */
    protected readonly terminals: ShellSandy[] = [];
    /** How many times {@link restartBackend} ran (each new backend appends to the same log). */
    protected restarts = 0;
    /** The pids (= process groups: each is spawned detached) of the backends {@link restartBackend} killed. */
    protected readonly killedBackends: number[] = [];
    /** Flag files (outside every workspace) that let an agent's command run when the test says. */
    protected readonly cues: AgentCues;

    protected constructor(readonly options: SandyIdeOptions) {
        // realpath: sandy names sandboxes after the canonical path, and /tmp may be a symlink.
        this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sandy-e2e-${options.label}-`)));
        this.home = path.join(this.root, 'home');
        this.workspace = path.join(this.home, 'work', options.workspaceName ?? 'e2e-proj');
        this.dataDir = path.join(this.home, '.sandy-ide-data');
        this.historyDir = path.join(this.home, '.local', 'state', 'sandy-ide', 'history');
        this.logFile = path.join(RESULTS_DIR, `backend-${options.label}.log`);
        this.cues = new AgentCues(path.join(this.root, 'cues'));
    }

    /**
     * An agent command that runs when the test calls `give()` (type `line`, wait for `echo`): "the agent
     * asks while the user looks elsewhere" without a clock racing the look-away.
     */
    cue(command: string): AgentCue {
        return this.cues.next(command);
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

    /** Every live fake sandy process of this run (zombies excluded), with what /proc says about it. */
    sandyProcesses(): SandyProcess[] {
        const found: SandyProcess[] = [];
        for (const entry of fs.readdirSync('/proc')) {
            if (!/^\d+$/.test(entry)) {
                continue;
            }
            try {
                const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
                const main = argv.findIndex(a => /fake-sandy[\\/]main\.js$/.test(a));
                if (main < 0 || !this.ownsProcess(entry)) {
                    continue;
                }
                const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
                const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
                if (fields[0] === 'Z') {
                    continue;
                }
                let cwd: string | undefined;
                try {
                    cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
                } catch {
                    cwd = undefined;
                }
                found.push({
                    pid: Number(entry), args: argv.slice(main + 1), cwd, tty: Number(fields[4]) !== 0,
                    supervisor: this.processEnv(Number(entry)).SANDY_DAEMON_SUPERVISOR === '1'
                });
            } catch {
                // The process ended while we looked.
            }
        }
        return found;
    }

    /** The daemon supervisors running (in `workspace`, when given): the processes that run the agents of daemon sessions. */
    supervisors(workspace?: string): number[] {
        return this.sandyProcesses().filter(p => p.supervisor && (!workspace || p.cwd === workspace)).map(p => p.pid);
    }

    /** The `sandy --attach` clients running (in `workspace`, when given): the IDE's, or a test's. */
    attachClients(workspace?: string): number[] {
        return this.sandyProcesses().filter(p => p.args[0] === '--attach' && (!workspace || p.cwd === workspace)).map(p => p.pid);
    }

    /** The fake Docker engine's container records (`$SANDY_HOME/.fake-docker/sessions`), of `workspace` when given. */
    containers(workspace?: string): FakeContainer[] {
        return readSessionRecords(this.sandyHome).filter(r => !workspace || r.workspace === workspace);
    }

    /**
     * The running daemon session of `workspace`, as sandy left it: exactly one daemon container
     * record whose supervisor is alive, runs in the workspace and holds its lock; plus the attach
     * clients in the workspace. Undefined while that is not (yet) so.
     */
    runningDaemon(workspace = this.workspace): RunningDaemon | undefined {
        const containers = this.containers(workspace).filter(c => c.daemon);
        if (containers.length !== 1) {
            return undefined;
        }
        const container = containers[0];
        const supervisors = this.supervisors(workspace);
        if (supervisors.length !== 1 || supervisors[0] !== container.ownerPid || this.lockHolderOf(workspace) !== container.ownerPid) {
            return undefined;
        }
        return { container, supervisor: container.ownerPid, clients: this.attachClients(workspace) };
    }

    /**
     * Waits for the workspace's daemon session ({@link runningDaemon}) with exactly one attach client
     * that its container counts as attached (`not`: a client other than that one, e.g. after a restart).
     */
    attachedDaemon(workspace = this.workspace, options: { not?: number; timeout?: number } = {}): Promise<RunningDaemon> {
        return poll(() => {
            const d = this.runningDaemon(workspace);
            return d?.clients.length === 1 && d.clients[0] !== options.not && d.container.attached === 1 ? d : undefined;
        }, {
            timeout: options.timeout, abort: () => this.deathNotice(),
            message: `the daemon session of ${workspace}: its container, its supervisor holding the lock, one attach client${options.not ? ` other than ${options.not}` : ''}`
        });
    }

    /** What is left of a workspace's sessions: its sandy processes, its lock, its container records ([] = nothing). */
    leftovers(workspace = this.workspace): string[] {
        const left: string[] = [];
        for (const p of this.sandyProcesses().filter(p => p.cwd === workspace && !PROBE_FLAGS.has(p.args[0] ?? ''))) {
            left.push(`process ${p.pid} (sandy ${p.args.join(' ') || '(launch)'}${p.supervisor ? ', supervisor' : ''})`);
        }
        if (fs.existsSync(this.lockDirOf(workspace))) {
            left.push(`lock ${this.lockDirOf(workspace)} (pid ${this.lockHolderOf(workspace) ?? '?'})`);
        }
        for (const c of this.containers(workspace)) {
            left.push(`container ${c.id.slice(0, 12)} (owner ${c.ownerPid})`);
        }
        return left;
    }

    /**
     * What runs with this run's HOME that should not after every session ended: any process outside
     * the backend's own tree (a session's processes live in sessions of their own), and any fake
     * sandy other than the backend's short `--print-state`-style probes. [] = nothing.
     */
    strayProcesses(): string[] {
        const backend = this.exit ? undefined : this.child?.pid;
        const stray: string[] = [];
        for (const pid of processesWithHome(this.home)) {
            if (pid === backend || this.theiaOrphans().includes(pid)) {
                continue;
            }
            let argv: string[];
            try {
                argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
            } catch {
                continue;
            }
            const main = argv.findIndex(a => /fake-sandy[\\/]main\.js$/.test(a));
            const inBackend = backend !== undefined && descendsFrom(pid, backend);
            const probe = main >= 0 && PROBE_FLAGS.has(argv[main + 1] ?? '');
            if (!inBackend || (main >= 0 && !probe)) {
                stray.push(`${pid}: ${argv.join(' ').slice(0, 200)}`);
            }
        }
        return stray;
    }

    /**
     * Theia's own children of a backend that {@link restartBackend} killed, still running: its plugin
     * host has no parent-death check (and stops plugins from exiting it), so it outlives a `kill -9`
     * of its backend. Not sandy's; {@link strayProcesses} leaves them out, and {@link stop} ends them.
     */
    theiaOrphans(): number[] {
        return processesWithHome(this.home).filter(pid => {
            try {
                const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
                const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
                return this.killedBackends.includes(pgid) && !/fake-sandy/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
            } catch {
                return false;
            }
        });
    }

    /** The pid written into a workspace's lock, if the lock exists. */
    lockHolderOf(workspace: string): number | undefined {
        try {
            return parseInt(fs.readFileSync(path.join(this.lockDirOf(workspace), 'pid'), 'utf8').trim(), 10) || undefined;
        } catch {
            return undefined;
        }
    }

    /**
     * The environment of a user's shell in this scratch world, for running sandy "by hand" (e.g.
     * `sandy --start` in a terminal): this run's HOME, TMPDIR and PATH (the fake first), and the
     * fake's knobs as the backend has them.
     */
    shellEnv(): Record<string, string> {
        const env: Record<string, string> = {};
        for (const [name, value] of Object.entries(this.backendEnv())) {
            if (value !== undefined && !/^(SANDY_IDE_|THEIA_)/.test(name)) {
                env[name] = value;
            }
        }
        return env;
    }

    /**
     * sandy typed into a terminal of the user's (not the IDE's): `sandy <args>` on a PTY of its own
     * (node-pty), in `cwd`, with {@link shellEnv}. Ended by {@link stop} at the latest.
     */
    runInTerminal(args: string[], cwd = this.workspace): ShellSandy {
        const shell = new ShellSandy(pty.spawn(path.join(FAKE_SANDY_BIN_DIR, 'sandy'), args, {
            name: 'xterm-256color', cols: 100, rows: 30, cwd, env: this.shellEnv()
        }), args);
        this.terminals.push(shell);
        return shell;
    }

    /**
     * Ends every daemon session of this run as a user would from a shell (`sandy --stop` in its
     * workspace), then kills whatever of them is left: a test's clean-up, so the next test starts
     * with no session of an earlier one.
     */
    async stopDaemons(): Promise<void> {
        for (const shell of this.terminals.splice(0)) {
            shell.kill();
        }
        const workspaces = new Set(this.containers().filter(c => c.daemon).map(c => c.workspace));
        for (const workspace of workspaces) {
            spawnSync(path.join(FAKE_SANDY_BIN_DIR, 'sandy'), ['--stop'], { cwd: workspace, env: this.shellEnv(), timeout: 30_000, stdio: 'ignore' });
        }
        for (const p of this.sandyProcesses().filter(p => p.supervisor || p.args[0] === '--attach' || p.args[0] === '--start')) {
            try {
                process.kill(p.pid, 'SIGKILL');
            } catch {
                // Gone meanwhile.
            }
        }
        await poll(() => this.containers().length === 0 && this.supervisors().length === 0,
            { timeout: 20_000, message: 'the daemon sessions of the test to end' }).catch(() => undefined);
    }

    /**
     * A test's clean-up for the next one: daemon sessions end as a user ends them ({@link stopDaemons}),
     * foreground ones by their SIGTERM; then waits until nothing of `workspaces` is left
     * ({@link leftovers}), and fails naming what outlived it.
     */
    async endSessions(workspaces: readonly string[] = [this.workspace]): Promise<void> {
        await this.stopDaemons();
        for (const pid of this.sandySessions()) {
            try {
                process.kill(pid, 'SIGTERM');
            } catch {
                // Ended meanwhile (its daemon session just stopped).
            }
        }
        const left = (): string[] => [...this.sandySessions().map(pid => `session ${pid}`), ...workspaces.flatMap(w => this.leftovers(w))];
        await poll(() => left().length === 0, { timeout: 15_000, message: 'the sessions of the previous test to end' })
            .catch(() => { throw new Error(`left running by the previous test after its clean-up: ${left().join('; ')}`); });
    }

    /** The backend's pid (the Node process of lib/backend/main.js). */
    get backendPid(): number | undefined {
        return this.child?.pid;
    }

    /**
     * The backend crashes: `kill -9` of its process (no graceful stop, no onStop), then a new
     * backend on the same port, HOME and data dir (so the page's origin, its stored layout and the
     * IDE's records are the same). What the old one started in sessions of its own lives on, as it would.
     */
    async restartBackend(): Promise<void> {
        const child = this.child;
        if (!child?.pid || this.exit) {
            throw new Error(`restartBackend: the backend is not running${this.exit ? ` (${this.deathNotice() ?? 'it exited'})` : ''}`);
        }
        const port = this.port;
        this.stopping = true;
        this.killedBackends.push(child.pid);
        process.kill(child.pid, 'SIGKILL');
        await poll(() => !!this.exit, { timeout: 10_000, message: 'the killed backend to exit' });
        this.restarts++;
        this.stopping = false;
        this.exit = undefined;
        this.port = 0;
        this.output = '';
        const appDir = process.env.SANDY_E2E_APP_DIR || APP_DIR;
        await this.spawnBackend(appDir, path.join(appDir, BACKEND_MAIN), port);
        if (this.port !== port) {
            throw new Error(`the restarted backend listens on ${this.port}, not on ${port}`);
        }
    }

    /** Ends the backend's process group, then anything else still running with this run's HOME. */
    async stop(): Promise<void> {
        this.stopping = true;
        for (const shell of this.terminals.splice(0)) {
            shell.kill();
        }
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
            ...this.options.settings,
            ...this.options.trustWorkspace === false ? {} : { 'security.workspace.trust.trustedFolders': [pathToFileURL(this.workspace).toString()] }
        }, undefined, 4));
        if (this.options.onboarded ?? true) {
            markOnboarded(this.home);
        }
        resetResultsDir();
        this.options.seed?.(this);
    }

    protected backendEnv(): NodeJS.ProcessEnv {
        const env: NodeJS.ProcessEnv = {};
        for (const [name, value] of Object.entries(process.env)) {
            // A developer's own sandy or IDE settings, or their XDG folders, must not steer the run.
            if (!/^(SANDY_|FAKE_SANDY_|THEIA_|XDG_)/.test(name)) {
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
            PATH: [...this.options.pathPrepend?.(this) ?? [], ...searchPath].join(path.delimiter),
            SANDY_IDE_DATA_DIR: this.dataDir,
            // The IDE polls sandy's state every second, so state changes show up quickly.
            SANDY_IDE_POLL_MS: '1000',
            FAKE_SANDY_NODE: process.execPath,
            // A reachable (fake) Docker, as on a developer's machine.
            FAKE_SANDY_DOCKER: '1',
            FAKE_SANDY_GH_TOKEN: '1',
            ...this.options.env
        });
        // No THEIA_DEFAULT_PLUGINS: the app finds its bundled plugins (git: Source Control) by itself,
        // however it is started (sandy-ui-backend's bundled-plugins.ts).
        return env;
    }

    protected async spawnBackend(appDir: string, main: string, port = 0): Promise<void> {
        const log = fs.createWriteStream(this.logFile, { flags: this.restarts ? 'a' : 'w' });
        if (this.restarts) {
            log.write(`\n----- [e2e] backend restarted after kill -9 (${this.restarts}) -----\n`);
        }
        // Port 0: the kernel picks a free port and the backend prints it — no race with other runs.
        const child = spawn(process.execPath, [main, this.workspace, '--hostname', '127.0.0.1', '--port', String(port)], {
            cwd: appDir,
            env: this.backendEnv(),
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
            if (this.child === child) {
                this.exit = { code, signal };
            }
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

/** sandy's fast paths the backend runs on pipes to read state (not sessions). */
export const PROBE_FLAGS: ReadonlySet<string> = new Set(['--print-state', '--print-schema', '--print-version', '--print-protected-paths', '--validate-config', '--version', '-v']);

/** True if `ancestor` is `pid`'s parent, grandparent, … (/proc/<pid>/stat field 4). */
function descendsFrom(pid: number, ancestor: number): boolean {
    let current = pid;
    for (let depth = 0; depth < 64 && current > 1; depth++) {
        const parent = parentOf(current);
        if (parent === undefined) {
            return false;
        }
        current = parent;
        if (current === ancestor) {
            return true;
        }
    }
    return false;
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
