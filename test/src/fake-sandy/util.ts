/*
 * Shared helpers for the fake sandy. Everything here mirrors a specific
 * behaviour of the real bash script (sandy 1.7.1-dev, rappdw/sandy c2c58ef);
 * the comments name the construct being imitated so a reader can check it
 * against CONTRACT.md. Only node built-ins are used: the fake must run in CI
 * without any dependency.
 */
import * as childProcess from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as tty from 'tty';

/**
 * Which sandy the fake speaks: `FAKE_SANDY_VERSION=2.7.1` for sandy 2.7.1 (schema 4), anything else for
 * 1.7.1-dev (schema 1, the only sandy that runs on this project's machines). In 2.7.1 mode the
 * introspection surface follows sandy's own documents (the real 2.7.1 `--print-schema` in
 * test/fixtures/sandy-2.7.1/, SPEC_INTROSPECTION.md's `--print-state` of schemas 2-4, the `--approvals`
 * description in that schema's cli_flags); everything else (launch, daemon mode, maintenance) stays
 * 1.7.1's, because nothing but documents says how 2.7.1 does it.
 */
export const FAKE_SPEAKS_2X = process.env.FAKE_SANDY_VERSION === '2.7.1';
export const SANDY_VERSION = FAKE_SPEAKS_2X ? '2.7.1' : '1.7.1-dev';
export const SCHEMA_VERSION = FAKE_SPEAKS_2X ? 4 : 1;
export const SANDBOX_MIN_COMPAT = '0.7.10';

/** Thrown to unwind to main() with an exit status, like bash `exit N`. */
export class ExitError extends Error {
    constructor(readonly code: number) {
        super(`exit ${code}`);
    }
}

export function exit(code: number): never {
    throw new ExitError(code);
}

export function sleepSync(ms: number): void {
    // Synchronous sleep without a busy loop: sandy's own waits (`sleep 1`) block
    // the whole script, and several call sites here are synchronous for the same
    // ordering reasons.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
}

export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
}

/**
 * Write synchronously and completely. sandy's stdout/stderr lines interleave in a
 * fixed order on a PTY (fixture 30), which only holds if every write has landed
 * before the next one is issued. EAGAIN is retried because a non-blocking pipe
 * can refuse a write; EPIPE is swallowed because a reader that went away must
 * not turn into a crash with a different exit code.
 */
export function writeFdSync(fd: number, data: string | Buffer): void {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) {
        try {
            off += fs.writeSync(fd, buf, off, buf.length - off);
        } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if (code === 'EAGAIN') {
                sleepSync(2);
                continue;
            }
            if (code === 'EPIPE' || code === 'EBADF' || code === 'EIO') {
                // reader gone or terminal hung up (closed PTY): drop the output
                return;
            }
            throw e;
        }
    }
}

export function out(s: string): void {
    writeFdSync(1, s);
}

export function err(s: string): void {
    writeFdSync(2, s);
}

export function isTty(fd: number): boolean {
    try {
        return tty.isatty(fd);
    } catch {
        return false;
    }
}

/**
 * `echo -e` escape interpretation. info()/warn()/error() use `echo -e`, so a
 * backslash sequence inside a path is rendered (fixture 59d: `\b` became 0x08).
 * Returns the rendered text and whether `\c` asked to stop all further output.
 */
export function echoE(s: string): { text: string; stop: boolean } {
    let res = '';
    for (let i = 0; i < s.length; i++) {
        const ch = s[i];
        if (ch !== '\\' || i + 1 >= s.length) {
            res += ch;
            continue;
        }
        const n = s[i + 1];
        const simple: Record<string, string> = {
            a: '\x07', b: '\x08', e: '\x1b', E: '\x1b', f: '\x0c', n: '\n', r: '\r', t: '\t', v: '\x0b', '\\': '\\'
        };
        if (n in simple) {
            res += simple[n];
            i++;
        } else if (n === 'c') {
            return { text: res, stop: true };
        } else if (n === '0') {
            const m = /^[0-7]{0,3}/.exec(s.slice(i + 2))![0];
            res += String.fromCharCode(m ? parseInt(m, 8) & 0xff : 0);
            i += 1 + m.length;
        } else if (n === 'x') {
            const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2));
            if (m) {
                res += String.fromCharCode(parseInt(m[0], 16));
                i += 1 + m[0].length;
            } else {
                res += '\\x';
                i++;
            }
        } else if (n === 'u' || n === 'U') {
            const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(s.slice(i + 2));
            if (m) {
                res += String.fromCodePoint(parseInt(m[0], 16));
                i += 1 + m[0].length;
            } else {
                res += '\\' + n;
                i++;
            }
        } else {
            res += '\\';
        }
    }
    return { text: res, stop: false };
}

/** Colours follow sandy:296-303: on iff stdout is a TTY or we are the daemon supervisor. */
export function colorsOn(): boolean {
    return isTty(1) || process.env.SANDY_DAEMON_SUPERVISOR === '1';
}

const GREEN = '\x1b[0;32m';
const YELLOW = '\x1b[1;33m';
const RED = '\x1b[0;31m';
const NC = '\x1b[0m';

function tagged(color: string, msg: string): string {
    const c = colorsOn();
    const r = echoE(`${c ? color : ''}[sandy]${c ? NC : ''} ${msg}`);
    return r.stop ? r.text : r.text + '\n';
}

/** info(): green `[sandy]` on STDOUT (sandy:305). */
export function info(msg: string): void {
    out(tagged(GREEN, msg));
}

/** warn(): yellow `[sandy]` on STDOUT, not stderr (sandy:306). */
export function warn(msg: string): void {
    out(tagged(YELLOW, msg));
}

/** error(): red `[sandy]` on stderr; the colour decision still follows stdout (sandy:307). */
export function error(msg: string): void {
    err(tagged(RED, msg));
}

/** The many raw `echo "[sandy] ERROR: ..." >&2` call sites: plain, never coloured. */
export function rawErr(line: string): void {
    err(line + '\n');
}

export function sha256Hex(data: string | Buffer): string {
    return crypto.createHash('sha256').update(data).digest('hex');
}

/** `cd DIR && pwd -P`, or undefined when the cd would fail. */
export function pwdP(dir: string): string | undefined {
    try {
        const real = fs.realpathSync(dir);
        return fs.statSync(real).isDirectory() ? real : undefined;
    } catch {
        return undefined;
    }
}

/**
 * Bash `pwd` (logical): $PWD when it is absolute and names the current
 * directory, else the physical path. sandy records it as
 * workspace_path_uncanonicalized when it differs from `pwd -P`.
 */
export function pwdLogical(): string {
    const pwd = process.env.PWD;
    const cwd = process.cwd();
    if (pwd && path.isAbsolute(pwd)) {
        try {
            const a = fs.statSync(pwd);
            const b = fs.statSync(cwd);
            if (a.ino === b.ino && a.dev === b.dev && !pwd.split('/').includes('..') && !pwd.split('/').includes('.')) {
                return pwd;
            }
        } catch {
            // fall through to the physical path, as bash does for a stale $PWD
        }
    }
    return cwd;
}

/** `dirname` semantics for the validate-config canonicalisation (not path.dirname quirks). */
export function shDirname(p: string): string {
    if (p === '') {
        return '.';
    }
    let s = p.replace(/\/+$/, '');
    if (s === '') {
        return '/';
    }
    const idx = s.lastIndexOf('/');
    if (idx < 0) {
        return '.';
    }
    s = s.slice(0, idx).replace(/\/+$/, '');
    return s === '' ? '/' : s;
}

/** `basename` semantics (trailing slashes ignored). */
export function shBasename(p: string): string {
    if (p === '') {
        return '';
    }
    const s = p.replace(/\/+$/, '');
    if (s === '') {
        return '/';
    }
    return s.slice(s.lastIndexOf('/') + 1);
}

/** `[ "$x" -eq "$x" ] 2>/dev/null` — bash's integer test, used for every pid. */
export function isBashInt(s: string): boolean {
    return /^\s*[+-]?[0-9]+\s*$/.test(s);
}

/**
 * `kill -0 PID`. EPERM counts as "not running" because that is what the shell
 * builtin's exit status says, and sandy only looks at the status.
 */
export function pidAlive(pidText: string | number): boolean {
    const pid = typeof pidText === 'number' ? pidText : parseInt(String(pidText).trim(), 10);
    if (!Number.isFinite(pid)) {
        return false;
    }
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

/** `$(cat FILE)`: contents minus trailing newlines, or undefined when unreadable. */
export function catFile(file: string): string | undefined {
    try {
        return fs.readFileSync(file, 'utf8').replace(/\n+$/, '');
    } catch {
        return undefined;
    }
}

export function headLine(file: string): string | undefined {
    try {
        const t = fs.readFileSync(file, 'utf8');
        const i = t.indexOf('\n');
        return i < 0 ? t : t.slice(0, i);
    } catch {
        return undefined;
    }
}

export function isDir(p: string): boolean {
    try {
        return fs.statSync(p).isDirectory();
    } catch {
        return false;
    }
}

export function isFile(p: string): boolean {
    try {
        return fs.statSync(p).isFile();
    } catch {
        return false;
    }
}

export function exists(p: string): boolean {
    try {
        fs.statSync(p);
        return true;
    } catch {
        return false;
    }
}

function pad(n: number | bigint, w = 2): string {
    return String(n).padStart(w, '0');
}

/**
 * GNU `stat -c %y FILE | awk '{print $1"T"$2"Z"}'` (sandy:1752-1757): LOCAL
 * wall-clock time with nanoseconds and a literal Z that does not mean UTC.
 * Empty string when the file is absent, exactly like the real helper.
 */
export function statMtimeIso(file: string): string {
    let st: fs.BigIntStats;
    try {
        st = fs.lstatSync(file, { bigint: true });
    } catch {
        return '';
    }
    const ns = st.mtimeNs;
    const ms = Number(ns / 1000000n);
    const frac = ((ns % 1000000000n) + 1000000000n) % 1000000000n;
    const d = new Date(ms);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(frac, 9)}Z`;
}

/** `date -u +%Y-%m-%dT%H:%M:%SZ` */
export function utcNowIso(): string {
    return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Docker's `{{.CreatedAt}}` text for containers: `2026-11-30 09:58:38 +0000 UTC` (local zone). */
export function dockerCreatedAt(ms: number): string {
    const d = new Date(ms);
    const offMin = -d.getTimezoneOffset();
    const sign = offMin >= 0 ? '+' : '-';
    const abs = Math.abs(offMin);
    let zone = 'UTC';
    try {
        const part = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
            .formatToParts(d).find(p => p.type === 'timeZoneName');
        if (part) {
            zone = part.value;
        }
    } catch {
        // keep UTC
    }
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ` +
        `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)} ${zone}`;
}

/** Docker's `{{.Created}}` for images: RFC 3339 with nanoseconds, UTC. */
export function dockerImageCreated(ms: number): string {
    return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/**
 * `_json_escape` (sandy:801-809): escapes only backslash, quote, \n, \r and \t.
 * Other control characters pass through raw, so a path containing ESC yields
 * invalid JSON on stdout with exit 0 — the real bug (D1) is reproduced on
 * purpose so a UI's tolerance for it can be tested.
 */
export function jsonEscape(s: string): string {
    return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t') + '"';
}

/** Strict byte-order comparison, standing in for `sort` under LANG=C.UTF-8 (the fixtures' locale). */
export function byteCompare(a: string, b: string): number {
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** `printf '%s\n' ... | sort -u` */
export function sortUnique(lines: string[]): string[] {
    const sorted = [...lines].sort(byteCompare);
    return sorted.filter((v, i) => i === 0 || v !== sorted[i - 1]);
}

/** Shell glob `DIR/*\/` order: non-hidden directories, byte order (C.UTF-8 collation). */
export function globDirs(dir: string): string[] {
    let names: string[];
    try {
        names = fs.readdirSync(dir);
    } catch {
        return [];
    }
    return names.filter(n => !n.startsWith('.') && isDir(path.join(dir, n))).sort(byteCompare);
}

/**
 * `du -sk` equivalent: allocated 1K blocks of a tree on one filesystem, hard
 * links counted once. Used for size_bytes (×1024) and the `du -sh` columns.
 */
export function duKiB(root: string): number | undefined {
    let rootSt: fs.Stats;
    try {
        rootSt = fs.lstatSync(root);
    } catch {
        return undefined;
    }
    const seen = new Set<string>();
    let blocks = 0;
    const walk = (p: string, st: fs.Stats): void => {
        const key = `${st.dev}:${st.ino}`;
        if (st.nlink > 1 && !st.isDirectory()) {
            if (seen.has(key)) {
                return;
            }
            seen.add(key);
        }
        blocks += st.blocks;
        if (st.isDirectory() && st.dev === rootSt.dev) {
            let entries: string[] = [];
            try {
                entries = fs.readdirSync(p);
            } catch {
                return;
            }
            for (const e of entries) {
                const c = path.join(p, e);
                try {
                    walk(c, fs.lstatSync(c));
                } catch {
                    // unreadable entries are skipped, as du does after a warning
                }
            }
        }
    };
    walk(root, rootSt);
    return Math.ceil((blocks * 512) / 1024);
}

/** `du -sh` rendering: 0, 4.0K, 12K, 1.5M ... (one decimal below 10, ceiling rounding). */
export function duHuman(root: string): string {
    const kib = duKiB(root);
    if (kib === undefined) {
        return '?';
    }
    if (kib === 0) {
        return '0';
    }
    const units = ['K', 'M', 'G', 'T', 'P'];
    let v = kib;
    let u = 0;
    while (v >= 1024 && u < units.length - 1) {
        v /= 1024;
        u++;
    }
    if (v < 10) {
        const r = Math.ceil(v * 10) / 10;
        return r >= 10 ? `${Math.ceil(r)}${units[u]}` : `${r.toFixed(1)}${units[u]}`;
    }
    return `${Math.ceil(v)}${units[u]}`;
}

export function hostName(): string {
    try {
        return os.hostname();
    } catch {
        return '';
    }
}

/** The `--print-schema` document of the sandy the fake speaks: its own schema.json, or the real 2.7.1 one. */
export function schemaResource(): string {
    return FAKE_SPEAKS_2X
        ? fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'sandy-2.7.1', 'print-schema.json'), 'utf8')
        : readResource('schema.json');
}

/** Files shipped next to the source (schema.json, help.txt). */
export function readResource(name: string): string {
    // tsc does not copy .json/.txt files into lib/, and the test project's
    // tsconfig only includes *.ts, so look next to this file first and then
    // in the sibling src/ tree this file was compiled from.
    const candidates = [
        path.join(__dirname, name),
        path.join(__dirname, '..', '..', 'src', 'fake-sandy', name)
    ];
    for (const c of candidates) {
        try {
            return fs.readFileSync(c, 'utf8');
        } catch {
            // try the next location
        }
    }
    throw new Error(`fake sandy: resource ${name} not found (looked in ${candidates.join(', ')})`);
}

export function sandyHome(): string {
    // SANDY_HOME="${SANDY_HOME:-$HOME/.sandy}": an empty value also falls back.
    const sh = process.env.SANDY_HOME;
    return sh ? sh : `${process.env.HOME ?? ''}/.sandy`;
}

/** `tr -cd 'a-zA-Z0-9._-'` on the bytes of the basename, "project" if nothing is left. */
export function sandboxNameFor(workDir: string): string {
    const base = Buffer.from(shBasename(workDir), 'utf8');
    let kept = '';
    for (const b of base) {
        const c = String.fromCharCode(b);
        if (/[a-zA-Z0-9._-]/.test(c)) {
            kept += c;
        }
    }
    return `${kept || 'project'}-${sha256Hex(workDir).slice(0, 8)}`;
}

export function mkdirp(p: string): void {
    fs.mkdirSync(p, { recursive: true });
}

export function rmrf(p: string): void {
    try {
        fs.rmSync(p, { recursive: true, force: true });
    } catch {
        // `rm -rf ... 2>/dev/null || true`
    }
}

export function envTruthy1(name: string): boolean {
    return process.env[name] === '1';
}

export function envNumber(name: string, dflt: number): number {
    const v = process.env[name];
    if (v === undefined || v === '') {
        return dflt;
    }
    const n = Number(v);
    return Number.isFinite(n) ? n : dflt;
}

/**
 * How sandy reads a prompt's answer, as a `/bin/sh` script: `IFS= read -r v </dev/tty || v=""` (the
 * workspace-key and Dockerfile gates, sandy:6098, 8032, and the maintenance prompts), or the symlink
 * gate's `read -r REPLY` on stdin (sandy:9190: default IFS, a partial last line kept). Like bash
 * without a trap for it, the reader ignores SIGQUIT.
 */
export function answerScript(from: 'tty' | 'stdin'): string {
    return from === 'tty'
        ? 'trap "" QUIT; IFS= read -r v </dev/tty || v=""; printf %s "$v"'
        : 'trap "" QUIT; read -r v; printf %s "$v"';
}

/**
 * A prompt's answer from the controlling terminal, for the prompts outside a launch (no trap is set
 * there: a signal ends this process and the reader alike). A launch's gates use `Runtime.read`,
 * which keeps taking signals while it waits.
 */
export function readTtyLine(): string {
    const r = childProcess.spawnSync('/bin/sh', ['-c', answerScript('tty')], { stdio: ['ignore', 'pipe', 'inherit'] });
    return r.stdout?.toString('utf8') ?? '';
}
