/**
 * A scratch world for the plugin's end-to-end suites: its own HOME (with sandy's state in it), the
 * fake sandy first on PATH, workspaces, and a sweep that ends every process started with this HOME
 * (node-pty puts each sandy session in a session of its own, outside the server's process group).
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as pty from 'node-pty';
import { readSessionRecords, SessionRecord } from '@sandy-ui/test/lib/fake-sandy/docker';
import { freePort, processesWithHome } from '@sandy-ui/test/lib/support/processes';
import { markOnboarded } from '@sandy-ui/test/lib/support/onboarded';
import { AgentCue, AgentCues } from '@sandy-ui/test/lib/support/agent-cue';
import { ShellSandy } from '@sandy-ui/test/lib/support/shell-sandy';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const PLUGIN_DIR = path.join(REPO_ROOT, 'packages', 'sandy-ui-vscode');
export const VSIX_DIR = path.join(PLUGIN_DIR, 'dist-vsix');
export const FAKE_SANDY_BIN = path.join(REPO_ROOT, 'test', 'fake-sandy', 'bin');
export const RESULTS_DIR = path.join(PLUGIN_DIR, 'test', 'results');
export const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'sandy-1.7.1');

/** The platform .vsix of this machine (the suite installs what users install), or the universal one. */
export function platformVsix(universal = false): string {
    const manifest = JSON.parse(fs.readFileSync(path.join(PLUGIN_DIR, 'package.json'), 'utf8'));
    const target = `${process.platform}-${process.arch}`;
    const file = path.join(VSIX_DIR, universal ? `${manifest.name}-${manifest.version}.vsix` : `${manifest.name}-${target}-${manifest.version}.vsix`);
    if (!fs.existsSync(file)) {
        throw new Error(`${file} is missing: build the packages first (npm run package -w sandy-ui).`);
    }
    return file;
}

export function requireCompiledFake(): void {
    if (!fs.existsSync(path.join(REPO_ROOT, 'test', 'lib', 'fake-sandy', 'main.js'))) {
        throw new Error('The fake sandy is not compiled: run `npx tsc -b configs/tsconfig.all.json` first.');
    }
}

export { freePort };

export class World {
    readonly root: string;
    readonly home: string;
    readonly tmp: string;
    protected readonly children: ChildProcess[] = [];
    protected readonly shells: ShellSandy[] = [];
    protected readonly cues: AgentCues;

    /**
     * `onboarded` (default true): this HOME has been through Get Started (`~/.sandy-ui/onboarding.json`
     * says finished), so the wizard does not open by itself while sandy is found. False: a newcomer's HOME.
     */
    constructor(label: string, onboarded = true) {
        // realpath: sandy names sandboxes after the canonical path, and /tmp may be a symlink.
        this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sandy-vsx-${label}-`)));
        this.home = this.dir('home');
        this.tmp = this.dir('tmp');
        // VS Code's extension host takes PATH from a login shell (it "resolves the shell environment"),
        // not from the server's environment: put the fake sandy on PATH the way a user puts sandy there.
        const profile = `export PATH="${FAKE_SANDY_BIN}:$PATH"\nexport FAKE_SANDY_NODE="${process.execPath}"\n`;
        fs.writeFileSync(path.join(this.home, '.profile'), profile);
        fs.writeFileSync(path.join(this.home, '.bashrc'), profile);
        if (onboarded) {
            markOnboarded(this.home);
        }
        this.cues = new AgentCues(path.join(this.root, 'cues'));
    }

    /**
     * An agent command that runs when the test calls `give()` (type `line`, wait for `echo`): "the agent
     * asks while the user looks elsewhere" without a clock racing the look-away.
     */
    cue(command: string): AgentCue {
        return this.cues.next(command);
    }

    dir(...parts: string[]): string {
        const d = path.join(this.root, ...parts);
        fs.mkdirSync(d, { recursive: true });
        return d;
    }

    /** A workspace folder under HOME (sandy refuses HOME itself), with optional `.sandy/config`. */
    workspace(name: string, config?: string): string {
        const ws = this.dir('home', 'work', name);
        if (config !== undefined) {
            fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(ws, '.sandy', 'config'), config);
        }
        return ws;
    }

    get sandyHome(): string {
        return path.join(this.home, '.sandy');
    }

    /** The environment every process of this world gets: scratch HOME, the fake sandy first on PATH. */
    env(extra: Record<string, string> = {}): Record<string, string> {
        const keep = ['LANG', 'LC_ALL', 'USER', 'LOGNAME', 'SHELL'];
        const base: Record<string, string> = {};
        for (const k of keep) {
            if (process.env[k]) {
                base[k] = process.env[k]!;
            }
        }
        return {
            ...base,
            HOME: this.home,
            TMPDIR: this.tmp,
            XDG_CONFIG_HOME: path.join(this.home, '.config'),
            XDG_DATA_HOME: path.join(this.home, '.local', 'share'),
            PATH: `${FAKE_SANDY_BIN}:${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
            FAKE_SANDY_NODE: process.execPath,
            ...extra
        };
    }

    /** Run the fake sandy to completion (e.g. a headless `-p` run that creates a sandbox). */
    sandy(args: string[], cwd: string, extraEnv: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
        const r = spawnSync(path.join(FAKE_SANDY_BIN, 'sandy'), args, { cwd, env: this.env(extraEnv), encoding: 'utf8', timeout: 30_000 });
        return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    }

    /** The daemon containers sandy lists now (`--print-state` with the fake's Docker engine up: every workspace's). */
    runningContainers(cwd: string): Array<{ id: string; sandbox?: string; daemon?: boolean; attached_clients?: number | null }> {
        const r = this.sandy(['--print-state'], cwd, { FAKE_SANDY_DOCKER: '1' });
        if (r.status !== 0) {
            throw new Error(`sandy --print-state exited ${r.status}: ${r.stderr}`);
        }
        return JSON.parse(r.stdout).running_containers ?? [];
    }

    /**
     * The fake Docker engine's container records (`$SANDY_HOME/.fake-docker/sessions/*.json`), read
     * directly: what is left of a session whatever `--print-state` makes of it. `ownerPid` is a daemon
     * session's supervisor.
     */
    containerRecords(workspace?: string): SessionRecord[] {
        return readSessionRecords(this.sandyHome).filter(r => workspace === undefined || r.workspace === workspace);
    }

    /**
     * The fake sandy in a terminal of the user's own (a PTY, cwd = the workspace), with the
     * environment the plugin gives sandy: this HOME and PATH, the fake's Docker engine up. Ended by
     * {@link dispose} if it still runs.
     */
    shell(args: string[], cwd: string): ShellSandy {
        const shell = new ShellSandy(pty.spawn(path.join(FAKE_SANDY_BIN, 'sandy'), args, {
            name: 'xterm-256color', cols: 100, rows: 30, cwd, env: this.env({ FAKE_SANDY_DOCKER: '1', TERM: 'xterm-256color' })
        }), args);
        this.shells.push(shell);
        return shell;
    }

    /** The workspace locks held in this world's sandy home (`.<sandbox>.lock` folders). */
    locks(): string[] {
        const sandboxes = path.join(this.sandyHome, 'sandboxes');
        return fs.existsSync(sandboxes) ? fs.readdirSync(sandboxes).filter(f => f.endsWith('.lock')) : [];
    }

    /**
     * Live processes of this world that run the fake sandy as a session: a foreground sandy, a daemon's
     * supervisor, `--start`, an attach client — not the IDE's one-shot questions (`--print-state` polls).
     */
    sandyProcesses(): Array<{ pid: number; cmdline: string }> {
        return this.processes().flatMap(pid => {
            try {
                const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
                // The sandy itself is the program run (node on main.js, or bash on the launcher before its
                // exec) — not a helper the launcher runs with the launcher's path as argument (`dirname …/sandy`).
                const at = argv.findIndex(a => a.endsWith(path.join('fake-sandy', 'main.js')) || a === path.join(FAKE_SANDY_BIN, 'sandy'));
                const sandy = at === 0 || (at === 1 && /^(node|bash|sh)$/.test(path.basename(argv[0])));
                const question = /^(--print-state|--print-schema|--print-version|--print-protected-paths|--validate-config|-v|--version)$/.test(argv[at + 1] ?? '');
                return sandy && !question ? [{ pid, cmdline: argv.join(' ') }] : [];
            } catch {
                return [];
            }
        });
    }

    /** A long-running child in its own process group, its output appended to `logFile`. */
    start(command: string, args: string[], options: { cwd: string; env: Record<string, string>; logFile: string }): ChildProcess {
        fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
        const log = fs.openSync(options.logFile, 'w');
        const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', log, log] });
        fs.closeSync(log);
        this.children.push(child);
        return child;
    }

    /** Live processes started with this HOME (zombies excluded). */
    processes(): number[] {
        return processesWithHome(this.home);
    }

    /** Ends the children's process groups, then anything else still carrying this HOME. */
    async dispose(keep = false): Promise<void> {
        for (const shell of this.shells) {
            shell.kill();
        }
        for (const child of this.children) {
            if (child.pid && child.exitCode === null) {
                try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
            }
        }
        const deadline = Date.now() + 5000;
        while (this.processes().length && Date.now() < deadline) {
            await new Promise(r => setTimeout(r, 200));
        }
        for (const pid of this.processes()) {
            try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
        }
        if (!keep) {
            fs.rmSync(this.root, { recursive: true, force: true });
        }
    }
}
