/*
 * Helpers for the fake-sandy contract test: reading the captured fixtures,
 * recreating their scratch homes/workspaces under a fresh temp "probe" root,
 * running the fake (or a real sandy, SANDY_BIN) the way the capture did, and
 * comparing JSON by shape (key order + types) and by value.
 *
 * Sandbox and approval names embed sha256 of the workspace path, and our probe
 * root is not the capture's, so every recreated name is re-derived from the new
 * path and the expected text is translated with the same mapping — that keeps
 * the comparisons exact instead of pattern-based.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'sandy-1.7.1');
export const FAKE_BIN = path.resolve(__dirname, '..', '..', 'fake-sandy', 'bin', 'sandy');

export function sha256(s: string): string {
    return crypto.createHash('sha256').update(s).digest('hex');
}

/** Independent re-implementation of sandy's naming (sandy:6468-6474), to cross-check the fake. */
export function sandboxName(workDir: string): string {
    const base = Buffer.from(path.basename(workDir), 'utf8');
    const kept = Array.from(base).map(b => String.fromCharCode(b)).filter(c => /[a-zA-Z0-9._-]/.test(c)).join('');
    return `${kept || 'project'}-${sha256(workDir).slice(0, 8)}`;
}

export class Fixture {
    readonly dir: string;

    constructor(readonly id: string) {
        const name = fs.readdirSync(FIXTURES).find(n => n === id || n.startsWith(`${id}-`));
        if (!name) {
            throw new Error(`no fixture ${id}`);
        }
        this.dir = path.join(FIXTURES, name);
    }

    get name(): string {
        return path.basename(this.dir);
    }

    read(file: string): string | undefined {
        try {
            return fs.readFileSync(path.join(this.dir, file), 'utf8');
        } catch {
            return undefined;
        }
    }

    get cmd(): string {
        return (this.read('cmd.txt') ?? '').trim();
    }

    get stdout(): string {
        return this.read('stdout.json') ?? this.read('stdout.txt') ?? '';
    }

    get isJson(): boolean {
        return this.read('stdout.json') !== undefined;
    }

    get stderr(): string {
        return this.read('stderr.txt') ?? '';
    }

    get exitcode(): number {
        return parseInt((this.read('exitcode.txt') ?? '0').trim(), 10);
    }
}

/** Minimal POSIX shell word splitting for cmd.txt (quotes and backslashes). */
export function shellWords(s: string): string[] {
    const words: string[] = [];
    let cur = '';
    let inWord = false;
    let i = 0;
    while (i < s.length) {
        const c = s[i];
        if (c === '\'') {
            const j = s.indexOf('\'', i + 1);
            cur += s.slice(i + 1, j);
            i = j + 1;
            inWord = true;
        } else if (c === '"') {
            i++;
            while (i < s.length && s[i] !== '"') {
                if (s[i] === '\\' && '"\\$`'.includes(s[i + 1])) {
                    cur += s[i + 1];
                    i += 2;
                } else {
                    cur += s[i++];
                }
            }
            i++;
            inWord = true;
        } else if (c === '\\') {
            cur += s[i + 1] ?? '';
            i += 2;
            inWord = true;
        } else if (/\s/.test(c)) {
            if (inWord) {
                words.push(cur);
                cur = '';
                inWord = false;
            }
            i++;
        } else {
            cur += c;
            inWord = true;
            i++;
        }
    }
    if (inWord) {
        words.push(cur);
    }
    return words;
}

export interface ParsedCmd {
    cwd: string;
    env: Record<string, string>;
    args: string[];
}

/** `cd <cwd> && [setsid] env -i K=V ... sandy ARGS` */
export function parseCmd(cmd: string): ParsedCmd {
    const w = shellWords(cmd);
    const cwd = w[w.indexOf('cd') + 1];
    const envAt = w.findIndex((x, i) => x === 'env' && w[i + 1] === '-i');
    const env: Record<string, string> = {};
    let i = envAt + 2;
    for (; i < w.length && w[i] !== 'sandy'; i++) {
        const eq = w[i].indexOf('=');
        env[w[i].slice(0, eq)] = w[i].slice(eq + 1);
    }
    const args: string[] = [];
    for (i++; i < w.length; i++) {
        if (/^[<>&;|]/.test(w[i])) {
            break;
        }
        args.push(w[i]);
    }
    return { cwd, env, args };
}

/** A throw-away root standing in for the capture's <PROBE>. */
export class Probe {
    readonly root: string;
    /** fixture sandbox name -> name derived from our paths */
    readonly names = new Map<string, string>();
    /** fixture 16-hex workspace hash -> ours */
    readonly hashes = new Map<string, string>();

    constructor() {
        this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fsp-')));
        fs.mkdirSync(path.join(this.root, 'homes'));
        fs.mkdirSync(path.join(this.root, 'workspaces'));
        fs.mkdirSync(path.join(this.root, 'tmp'));
    }

    home(name: string): string {
        return path.join(this.root, 'homes', name);
    }

    get ws(): string {
        return path.join(this.root, 'workspaces');
    }

    get tmp(): string {
        return path.join(this.root, 'tmp');
    }

    /** Placeholders -> our paths, then fixture names/hashes -> ours. */
    subst(text: string): string {
        let t = text.replace(/<HOME:([^>]+)>/g, (_m, n: string) => this.home(n))
            .replace(/<WS>/g, this.ws).replace(/<PROBE>/g, this.root);
        for (const [a, b] of this.names) {
            t = t.split(a).join(b);
        }
        for (const [a, b] of this.hashes) {
            t = t.split(a).join(b);
        }
        return t;
    }

    /** Register the name a workspace gets from our probe (for expected-text translation). */
    mapName(fixtureName: string, workspace: string): string {
        const ours = sandboxName(workspace);
        this.names.set(fixtureName, ours);
        return ours;
    }

    write(file: string, content: string, mode?: number): void {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
        if (mode !== undefined) {
            fs.chmodSync(file, mode);
        }
    }

    cleanup(): void {
        fs.rmSync(this.root, { recursive: true, force: true });
    }
}

export interface RunResult {
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
}

/** Environment for the fake: an `env -i` world plus what the launcher needs to find node. */
export function fakeEnv(extra: Record<string, string>): Record<string, string> {
    return { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', TZ: 'UTC', ...extra, FAKE_SANDY_NODE: process.execPath };
}

export function runSync(bin: string, args: string[], cwd: string, env: Record<string, string>, input = ''): RunResult {
    const r = spawnSync(bin, args, { cwd, env, input, timeout: 30000 });
    if (r.error) {
        throw r.error;
    }
    return { code: r.status, signal: r.signal, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

/** A long-running child with incremental output and an awaitable exit. */
export class Proc {
    readonly child: ChildProcess;
    stdout = '';
    stderr = '';
    readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
    exitInfo?: { code: number | null; signal: NodeJS.Signals | null };

    constructor(bin: string, args: string[], cwd: string, env: Record<string, string>, opts: { detached?: boolean; stdin?: 'pipe' | 'ignore' } = {}) {
        this.child = spawn(bin, args, { cwd, env, detached: opts.detached ?? false, stdio: [opts.stdin ?? 'pipe', 'pipe', 'pipe'] });
        this.child.stdout!.on('data', d => {
            this.stdout += d.toString('utf8');
        });
        this.child.stderr!.on('data', d => {
            this.stderr += d.toString('utf8');
        });
        this.exited = new Promise(resolve => {
            this.child.on('close', (code, signal) => {
                this.exitInfo = { code, signal };
                resolve({ code, signal });
            });
        });
    }

    get pid(): number {
        return this.child.pid as number;
    }

    write(s: string): void {
        this.child.stdin!.write(s);
    }

    async waitFor(what: string | RegExp, timeoutMs = 8000): Promise<void> {
        const start = Date.now();
        for (;;) {
            const hit = typeof what === 'string' ? this.stdout.includes(what) : what.test(this.stdout);
            if (hit) {
                return;
            }
            if (this.exitInfo) {
                throw new Error(`process exited (${JSON.stringify(this.exitInfo)}) before ${what}; stdout=${this.stdout.slice(-500)} stderr=${this.stderr}`);
            }
            if (Date.now() - start > timeoutMs) {
                throw new Error(`timeout waiting for ${what}; stdout tail=${JSON.stringify(this.stdout.slice(-400))}`);
            }
            await new Promise(r => setTimeout(r, 25));
        }
    }
}

export async function waitUntil(pred: () => boolean, timeoutMs = 8000, what = 'condition'): Promise<void> {
    const start = Date.now();
    while (!pred()) {
        if (Date.now() - start > timeoutMs) {
            throw new Error(`timeout waiting for ${what}`);
        }
        await new Promise(r => setTimeout(r, 25));
    }
}

export function pidAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

/** A PID that is certainly dead: a child we already reaped. */
export function deadPid(): number {
    return spawnSync('true').pid as number;
}

/* ------------------------------------------------------------------ */
/* JSON shape comparison                                               */
/* ------------------------------------------------------------------ */

function typeOf(v: unknown): string {
    if (v === null) {
        return 'null';
    }
    if (Array.isArray(v)) {
        return 'array';
    }
    return typeof v;
}

interface Tpl {
    types: Set<string>;
    /** object elements grouped by their exact key sequence */
    groups: Map<string, { keys: string[]; props: Map<string, unknown[]> }>;
    items: unknown[];
}

function template(values: unknown[]): Tpl {
    const t: Tpl = { types: new Set(), groups: new Map(), items: [] };
    for (const v of values) {
        const ty = typeOf(v);
        t.types.add(ty);
        if (ty === 'object') {
            const keys = Object.keys(v as object);
            const sig = keys.join(',');
            if (!t.groups.has(sig)) {
                t.groups.set(sig, { keys, props: new Map(keys.map(k => [k, []])) });
            }
            const g = t.groups.get(sig)!;
            for (const k of keys) {
                g.props.get(k)!.push((v as Record<string, unknown>)[k]);
            }
        } else if (ty === 'array') {
            t.items.push(...(v as unknown[]));
        }
    }
    return t;
}

/**
 * Same keys in the same order and the same JSON types at every path; array
 * elements are checked against the union of the expected elements' shapes
 * (e.g. lock_holder_pid may be a string in one sandbox and null in another).
 * Objects in one array may legitimately differ in their key sets (schema keys
 * only carry `choices` when they are enums), so an element must match one of
 * the expected key sequences exactly.
 */
export function assertSameShape(actual: unknown, expected: unknown, where = '$'): void {
    checkAgainst(actual, template([expected]), where);
}

function checkAgainst(actual: unknown, t: Tpl, where: string): void {
    const ty = typeOf(actual);
    if (!t.types.has(ty)) {
        throw new Error(`${where}: type ${ty}, expected ${[...t.types].join('|')}`);
    }
    if (ty === 'object') {
        const keys = Object.keys(actual as object);
        const g = t.groups.get(keys.join(','));
        if (!g) {
            throw new Error(`${where}: keys [${keys.join(',')}] match none of ${[...t.groups.keys()].map(k => `[${k}]`).join(' ')}`);
        }
        for (const k of keys) {
            checkAgainst((actual as Record<string, unknown>)[k], template(g.props.get(k) ?? []), `${where}.${k}`);
        }
    } else if (ty === 'array' && t.items.length > 0) {
        const it = template(t.items);
        (actual as unknown[]).forEach((el, i) => checkAgainst(el, it, `${where}[${i}]`));
    }
}

/* ------------------------------------------------------------------ */
/* home reconstruction from home-tree.txt                              */
/* ------------------------------------------------------------------ */

const DIR_NAMES = new Set(['cargo', 'claude', 'go', 'handoff', 'npm-global', 'pip', 'uv', 'approvals', 'sandboxes', '.empty-ro-dir', '.sandy']);

export interface HomeSpec {
    /** fixture pid -> pid to write instead */
    pids: Map<string, string>;
    /** workspace basenames that must NOT exist (deleted after launch in the capture) */
    missingWorkspaces: string[];
    /** expected print-state sandboxes, for the marker mtimes */
    stateSandboxes?: Array<{ name: string; created_at: string; last_used_at: string }>;
}

/**
 * Recreate `<HOME:name>` from a fixture's home-tree.txt: listed entries become
 * dirs or files, the dumped contents are written back, sandbox/lock/approval
 * names are re-derived for our paths, workspaces are created, and the version
 * markers get the capture's mtimes (the test runs the CLI with TZ=UTC, the
 * capture's zone).
 */
export function buildHome(probe: Probe, homeName: string, tree: string, spec: HomeSpec): void {
    const home = probe.home(homeName);
    const [listing, ...rest] = tree.split(/\n(?=----- )/);
    const entries = listing.split('\n').map(l => l.trim()).filter(l => l.startsWith('./')).map(l => l.slice(2));
    const contents = new Map<string, string>();
    for (const sec of rest) {
        const nl = sec.indexOf('\n');
        const rel = sec.slice('----- '.length, nl);
        contents.set(rel, sec.slice(nl + 1));
    }
    // Name mapping from the WORKSPACE.json markers and approval headers.
    for (const [rel, body] of contents) {
        const m = /^\.sandy\/sandboxes\/([^/]+)\/WORKSPACE\.json$/.exec(rel);
        if (m) {
            const wsPath = JSON.parse(probe.subst(body).replace(/\n$/, '')).workspace_path as string;
            probe.mapName(m[1], wsPath);
            const base = path.basename(wsPath);
            if (!spec.missingWorkspaces.includes(base)) {
                fs.mkdirSync(wsPath, { recursive: true });
            }
        }
        const a = /^\.sandy\/approvals\/(passive|dockerfile)-([0-9a-f]{16})\.list$/.exec(rel);
        const ws = /^# workspace: (.*)$/m.exec(body);
        if (a && ws) {
            probe.hashes.set(a[2], sha256(probe.subst(ws[1])).slice(0, 16));
        }
    }
    const isDirEntry = (e: string): boolean => {
        const base = path.basename(e);
        return entries.some(o => o.startsWith(e + '/')) || base.endsWith('.lock') || DIR_NAMES.has(base) ||
            (path.dirname(e) === '.sandy/sandboxes' && !base.endsWith('.json'));
    };
    fs.mkdirSync(home, { recursive: true });
    for (const e of entries) {
        const target = path.join(home, probe.subst(e));
        if (isDirEntry(e)) {
            fs.mkdirSync(target, { recursive: true });
            continue;
        }
        let body = contents.has(e) ? probe.subst(contents.get(e) as string) : '';
        if (/\.lock\/pid$/.test(e)) {
            const old = body.trim();
            body = `${spec.pids.get(old) ?? old}\n`;
        }
        probe.write(target, body);
    }
    for (const sb of spec.stateSandboxes ?? []) {
        const dir = path.join(home, '.sandy', 'sandboxes', probe.subst(sb.name));
        const setTime = (file: string, iso: string): void => {
            if (iso && fs.existsSync(file)) {
                // local time in the capture == UTC (TZ=UTC); utimes keeps ~µs precision
                const t = Date.parse(iso.slice(0, 23) + 'Z') / 1000 + parseInt(iso.slice(23, 29).padEnd(6, '0'), 10) / 1e9;
                fs.utimesSync(file, t, t);
            }
        };
        setTime(path.join(dir, '.sandy_created_version'), sb.created_at);
        setTime(path.join(dir, '.sandy_last_version'), sb.last_used_at);
    }
}

/** The part of a launch's stdout before the agent TUI takes over the screen. */
export function preamble(stdout: string): string {
    const i = stdout.indexOf('\x1b[?1049h');
    return i < 0 ? stdout : stdout.slice(0, i);
}

/** Fixture stderr without the stub docker's own chatter. */
export function withoutStub(text: string): string {
    return text.split('\n').filter(l => !l.startsWith('[stub-docker]')).join('\n');
}
