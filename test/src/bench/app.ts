/**
 * Scratch environment and the built Sandy IDE backend for the benchmarks.
 *
 * The backend runs from a private copy of browser-app/lib (source maps left out): a rebuild of
 * browser-app overwrites the native .node files in place and would crash a backend that has them
 * mapped, and other work in this tree may rebuild while the bench runs.
 */
import { markOnboarded } from '../support/onboarded';
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { floodFileText } from './flood';
import { freePort } from '../support/processes';
import { isAlive, killGroup, killProcessesUnder } from './proc';
import { delay, log } from './report';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const FAKE_SANDY = path.join(REPO, 'test', 'fake-sandy', 'bin', 'sandy');
export const BROWSER_APP = path.join(REPO, 'browser-app');

export interface Scratch {
    root: string;
    home: string;
    bin: string;
    /** The folder the IDE opens; its project is launched in the sandy tab. */
    workspace: string;
    /** Workspace of the raw node-pty runs (never the IDE's, so locks never collide). */
    rawWorkspace: string;
    /** Ten project folders for the idle-CPU run, pre-registered in projects.json. */
    idleWorkspaces: string[];
    /** One line per sandy invocation: `<epoch ms> <args>` (written by the shim). */
    invocationLog: string;
    floodFile: string;
    floodLines: number;
    markerDir: string;
}

export interface InvocationRecord {
    at: number;
    args: string;
}

export function createScratch(floodLines: number, idleSessions: number, sessionMode?: 'daemon' | 'foreground'): Scratch {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-bench-')));
    const s: Scratch = {
        root,
        home: path.join(root, 'home'),
        bin: path.join(root, 'bin'),
        workspace: path.join(root, 'bench-ws'),
        rawWorkspace: path.join(root, 'raw-ws'),
        idleWorkspaces: Array.from({ length: idleSessions }, (_, i) => path.join(root, 'idle', `bench-idle-${String(i + 1).padStart(2, '0')}`)),
        invocationLog: path.join(root, 'sandy-invocations.log'),
        floodFile: path.join(root, 'flood.txt'),
        floodLines,
        markerDir: path.join(root, 'markers')
    };
    for (const dir of [s.home, s.bin, s.workspace, s.rawWorkspace, s.markerDir, path.join(root, 'tmp'), ...s.idleWorkspaces]) {
        fs.mkdirSync(dir, { recursive: true });
    }
    // The shim: first `sandy` on PATH, logs each invocation then execs the fake. Paths are baked in
    // because the backend passes sandy a whitelisted environment (no test variables get through).
    fs.writeFileSync(path.join(s.bin, 'sandy'), [
        '#!/usr/bin/env bash',
        '# sandy-ui bench shim: log the invocation, then run the fake sandy.',
        'if [ -n "${EPOCHREALTIME:-}" ]; then now="${EPOCHREALTIME/[.,]/}"; now="${now:0:13}"; else now="$(date +%s%3N)"; fi',
        `printf '%s %s\\n' "$now" "$*" >> ${shellQuote(s.invocationLog)}`,
        // A reachable (fake) Docker engine and a gh token: the state a working install reports.
        'export FAKE_SANDY_DOCKER=1 FAKE_SANDY_GH_TOKEN=1',
        // The fake's scheduled commands (`later`) log when they run: the attention bench times from there.
        `export FAKE_SANDY_EVENT_LOG=${shellQuote(path.join(root, 'fake-events.log'))}`,
        `exec ${shellQuote(FAKE_SANDY)} "$@"`,
        ''
    ].join('\n'), { mode: 0o755 });
    // For Theia's terminal: the flood's bytes in the alternate screen (as sandy's TUI draws them),
    // then a marker file (producer finished) and a title change (the frontend has parsed it all).
    fs.writeFileSync(path.join(s.bin, 'bench-flood'), [
        '#!/bin/sh',
        `printf '\\033[?1049h'; cat ${shellQuote(s.floodFile)}; : > "$1"; printf '\\033[?1049l\\033]0;%s\\007' "$2"`,
        ''
    ].join('\n'), { mode: 0o755 });
    fs.writeFileSync(path.join(s.bin, 'bench-flood-normal'), [
        '#!/bin/sh',
        `cat ${shellQuote(s.floodFile)}; : > "$1"; printf '\\033]0;%s\\007' "$2"`,
        ''
    ].join('\n'), { mode: 0o755 });
    fs.writeFileSync(s.floodFile, floodFileText(floodLines));
    // The idle-CPU projects appear as rows in the Sandy view.
    const dataDir = path.join(s.home, '.sandy-ide');
    fs.mkdirSync(dataDir, { recursive: true });
    // The app's Theia configuration folder is ~/.sandy-ide too (browser-app/package.json). Trust the
    // workspace, or Theia's modal trust dialog blocks every click (as the e2e harness does); no Welcome
    // page at startup, or after a reload it comes up in front of the restored sandy tab (Theia's
    // default `welcomePage`), whose rows then never draw (attach.latency.reload).
    fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({
        'security.workspace.trust.trustedFolders': [pathToFileURL(s.workspace).toString()],
        'workbench.startupEditor': 'none',
        // BENCH_SESSION_MODE: unset = the product's default (daemon sessions).
        ...(sessionMode ? { 'sandy.sessionMode': sessionMode } : {})
    }, undefined, 4));
    fs.writeFileSync(path.join(dataDir, 'projects.json'), JSON.stringify({
        version: 1,
        projects: s.idleWorkspaces.map(workspace => ({ workspace, addedAt: Date.now() }))
    }, undefined, 2));
    return s;
}

export function readInvocations(s: Scratch): InvocationRecord[] {
    let text = '';
    try {
        text = fs.readFileSync(s.invocationLog, 'utf8');
    } catch {
        return [];
    }
    return text.split('\n').filter(Boolean).map(line => {
        const sp = line.indexOf(' ');
        return { at: Number(line.slice(0, sp)), args: sp < 0 ? '' : line.slice(sp + 1) };
    });
}

export function shellQuote(s: string): string {
    return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Copy browser-app/lib (without source maps) and the bundled plugins next to the scratch dir. */
export function snapshotApp(s: Scratch, experiment?: string): string {
    const app = path.join(s.root, 'app');
    const lib = path.join(BROWSER_APP, 'lib');
    if (!fs.existsSync(path.join(lib, 'backend', 'main.js')) || !fs.existsSync(path.join(lib, 'frontend', 'bundle.js'))) {
        throw new Error('browser-app is not built: run `npm run build` first.');
    }
    fs.mkdirSync(app, { recursive: true });
    fs.cpSync(lib, path.join(app, 'lib'), { recursive: true, filter: src => !src.endsWith('.map') });
    fs.copyFileSync(path.join(BROWSER_APP, 'package.json'), path.join(app, 'package.json'));
    const plugins = path.join(BROWSER_APP, 'plugins');
    if (fs.existsSync(plugins)) {
        fs.cpSync(plugins, path.join(app, 'plugins'), { recursive: true });
    }
    if (experiment === 'screen-on-main-thread') {
        // Without its file, core's ScreenThread parses the sessions' screens on the backend's main thread (as before 2026-12-06).
        fs.rmSync(path.join(app, 'lib', 'backend', 'screen-worker.js'));
    } else if (experiment) {
        throw new Error(`unknown BENCH_EXPERIMENT ${experiment}`);
    }
    return app;
}

function httpStatus(url: string): Promise<number> {
    return new Promise(resolve => {
        const req = http.get(url, res => {
            res.resume();
            resolve(res.statusCode ?? 0);
        });
        req.on('error', () => resolve(0));
        req.setTimeout(2000, () => {
            req.destroy();
            resolve(0);
        });
    });
}

export interface BackendOptions {
    /** Run browser-app/lib in place instead of a private copy. */
    inPlace: boolean;
    /** SANDY_IDE_POLL_MS; undefined = the product default (5 s). */
    pollMs?: number;
    /** Start the backend with its inspector on this port (BENCH_PROFILE: CPU profiles of flood runs). */
    inspectPort?: number;
    /** BENCH_EXPERIMENT: a patched private copy (see patchNoBackendScreen). */
    experiment?: string;
}

export class Backend {
    readonly url: string;
    protected exited = false;
    readonly logFile: string;

    protected constructor(readonly child: ChildProcess, readonly port: number, readonly appDir: string, s: Scratch, readonly inspectPort?: number) {
        this.url = `http://127.0.0.1:${port}/`;
        this.logFile = path.join(s.root, 'backend.log');
        child.on('exit', () => this.exited = true);
    }

    get pid(): number {
        return this.child.pid!;
    }

    get alive(): boolean {
        return !this.exited && isAlive(this.pid);
    }

    static async start(s: Scratch, options: BackendOptions): Promise<Backend> {
        if (options.inPlace && options.experiment) {
            throw new Error('BENCH_EXPERIMENT patches the private copy; it cannot run with BENCH_IN_PLACE=1');
        }
        const appDir = options.inPlace ? BROWSER_APP : snapshotApp(s, options.experiment);
        // The scratch HOME has been through Get Started: the wizard would otherwise open in front of what is measured.
        markOnboarded(s.home);
        const port = await freePort();
        const logFd = fs.openSync(path.join(s.root, 'backend.log'), 'a');
        const env: NodeJS.ProcessEnv = {
            ...process.env,
            HOME: s.home,
            PATH: `${s.bin}${path.delimiter}${process.env.PATH ?? ''}`,
            SHELL: '/bin/bash',
            // sandy writes its per-launch env file under TMPDIR; keep that in the scratch tree.
            TMPDIR: path.join(s.root, 'tmp'),
            THEIA_DEFAULT_PLUGINS: `local-dir:${path.join(appDir, 'plugins')}`
        };
        for (const name of Object.keys(env)) {
            // An inherited sandy state root or poll cadence would bypass the scratch setup.
            if (name === 'SANDY_HOME' || name === 'SANDY_IDE_DATA_DIR' || name === 'SANDY_IDE_POLL_MS' || name.startsWith('FAKE_SANDY_')) {
                delete env[name];
            }
        }
        if (options.pollMs) {
            env.SANDY_IDE_POLL_MS = String(options.pollMs);
        }
        // BENCH_BACKEND_NODE_ARGS: Node flags for the backend (e.g. `--trace-gc`; its output goes to backend.log, kept with BENCH_KEEP=1).
        const extraArgs = (process.env.BENCH_BACKEND_NODE_ARGS ?? '').split(/\s+/).filter(a => a.startsWith('--'));
        const nodeArgs = [...extraArgs, ...options.inspectPort ? [`--inspect=127.0.0.1:${options.inspectPort}`] : []];
        const child = spawn(process.execPath, [...nodeArgs, path.join(appDir, 'lib', 'backend', 'main.js'), s.workspace, '--hostname', '127.0.0.1', '--port', String(port)], {
            cwd: appDir,
            env,
            // Own process group: cleanup kills the backend and its plugin host together.
            detached: true,
            stdio: ['ignore', logFd, logFd]
        });
        fs.closeSync(logFd);
        const backend = new Backend(child, port, appDir, s, options.inspectPort);
        const deadline = Date.now() + 90_000;
        while (Date.now() < deadline) {
            if (!backend.alive) {
                throw new Error(`the backend exited during startup; see ${backend.logFile}`);
            }
            if (await httpStatus(backend.url) === 200) {
                log(`backend pid ${backend.pid} listening on ${backend.url} (${options.inPlace ? 'browser-app in place' : `copy in ${appDir}`})`);
                return backend;
            }
            await delay(250);
        }
        await backend.stop();
        throw new Error(`the backend did not answer on ${backend.url} within 90 s; see ${backend.logFile}`);
    }

    /** SIGTERM the group (sessions get sandy's cleanup), SIGKILL what is left after a grace. */
    async stop(): Promise<void> {
        if (this.alive) {
            killGroup(this.pid, 'SIGTERM');
            const deadline = Date.now() + 10_000;
            while (this.alive && Date.now() < deadline) {
                await delay(100);
            }
        }
        killGroup(this.pid, 'SIGKILL');
    }
}

/** Last resort: anything still running with a working directory in the scratch tree. */
export function killScratchProcesses(s: Scratch): number[] {
    return killProcessesUnder(s.root);
}
