/**
 * BENCH_PROFILE=1: a CPU profile of the Theia backend during one extra flood run per terminal,
 * taken through the backend's inspector (the backend is started with --inspect on a free port).
 * The backend is one esbuild bundle (lib/backend/main.js); esbuild writes `// <path>` before each
 * module it inlines, so a profile's line numbers map back to the package and file they came from
 * (xterm's headless build is minified: its function names say little, its file says enough).
 */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import WebSocket from 'ws';
import { round } from './report';

interface CallFrame {
    functionName: string;
    url: string;
    lineNumber: number;
    columnNumber: number;
}

interface ProfileNode {
    id: number;
    callFrame: CallFrame;
    children?: number[];
}

export interface CpuProfile {
    nodes: ProfileNode[];
    startTime: number;
    endTime: number;
    samples: number[];
    timeDeltas: number[];
}

function getJson(url: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
        http.get(url, res => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', d => body += d);
            res.on('end', () => {
                try {
                    resolve(JSON.parse(body));
                } catch (e) {
                    reject(e);
                }
            });
        }).on('error', reject);
    });
}

/** A DevTools-protocol session with a Node process's inspector. */
export class InspectorSession {
    protected nextId = 1;
    protected readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

    protected constructor(protected readonly socket: WebSocket) {
        socket.on('message', raw => {
            const msg = JSON.parse(String(raw)) as { id?: number; result?: unknown; error?: { message: string } };
            const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
            if (p) {
                this.pending.delete(msg.id!);
                if (msg.error) {
                    p.reject(new Error(msg.error.message));
                } else {
                    p.resolve(msg.result);
                }
            }
        });
    }

    static async connect(port: number): Promise<InspectorSession> {
        const targets = await getJson(`http://127.0.0.1:${port}/json/list`) as Array<{ webSocketDebuggerUrl: string }>;
        if (!targets.length) {
            throw new Error(`no inspector target on port ${port}`);
        }
        const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
        await new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('error', reject);
        });
        return new InspectorSession(socket);
    }

    post<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
        const id = this.nextId++;
        return new Promise<T>((resolve, reject) => {
            this.pending.set(id, { resolve: v => resolve(v as T), reject });
            this.socket.send(JSON.stringify({ id, method, params }));
        });
    }

    close(): void {
        this.socket.close();
    }
}

/** `// ../node_modules/@xterm/headless/lib-headless/xterm-headless.js` lines of an esbuild bundle. */
export class BundleMap {
    protected readonly starts: number[] = [];
    protected readonly files: string[] = [];

    constructor(bundleFile: string) {
        const lines = fs.readFileSync(bundleFile, 'utf8').split('\n');
        for (let i = 0; i < lines.length; i++) {
            // The backend bundle has them at column 0, the frontend bundle indented.
            const m = /^\s*\/\/ ((?:\.\.\/)*[^\s]+\.(?:js|mjs|cjs|json|css))$/.exec(lines[i]);
            if (m) {
                this.starts.push(i);
                this.files.push(m[1].replace(/^(\.\.\/)+/, ''));
            }
        }
    }

    /** The inlined file a 0-based line of the bundle belongs to. */
    fileAt(line: number): string {
        let lo = 0;
        let hi = this.starts.length - 1;
        let found = -1;
        while (lo <= hi) {
            const mid = (lo + hi) >> 1;
            if (this.starts[mid] <= line) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? '(bundle prelude)' : this.files[found];
    }
}

/** The package a bundled file came from: `@xterm/headless`, `ws`, `packages/sandy-ui-core`, … */
export function packageOf(file: string): string {
    const nm = file.lastIndexOf('node_modules/');
    if (nm >= 0) {
        const rest = file.slice(nm + 'node_modules/'.length).split('/');
        return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    }
    const pk = /(?:^|\/)packages\/([^/]+)\//.exec(file);
    return pk ? `packages/${pk[1]}` : file;
}

export interface ProfileSummary {
    sampledMs: number;
    wallMs: number;
    /** Self time by package (idle excluded from the shares). */
    byPackage: Array<{ name: string; ms: number; share: number }>;
    byFile: Array<{ name: string; ms: number }>;
    byFunction: Array<{ name: string; ms: number }>;
}

/** Self time per package, file and function; `(idle)` is reported but not in the shares. */
export function summariseProfile(profile: CpuProfile, bundle: BundleMap | undefined, bundleUrlPart: string, top = 20): ProfileSummary {
    const nodes = new Map(profile.nodes.map(n => [n.id, n]));
    const self = new Map<number, number>();
    for (let i = 0; i < profile.samples.length; i++) {
        // timeDeltas[i] is the time since the previous sample; it belongs to sample i (Chrome DevTools' reading).
        self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
    const byPackage = new Map<string, number>();
    const byFile = new Map<string, number>();
    const byFunction = new Map<string, number>();
    let busy = 0;
    let total = 0;
    for (const [id, us] of self) {
        const cf = nodes.get(id)!.callFrame;
        total += us;
        let file: string;
        if (!cf.url) {
            file = cf.functionName || '(native)';
        } else if (bundle && cf.url.includes(bundleUrlPart)) {
            file = bundle.fileAt(cf.lineNumber);
        } else {
            file = cf.url.replace(/^file:\/\//, '').replace(/^node:/, 'node:');
        }
        const pkg = cf.url ? (file.startsWith('node:') ? 'node (built-in)' : packageOf(file)) : file;
        if (pkg !== '(idle)') {
            busy += us;
        }
        byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
        byFile.set(file, (byFile.get(file) ?? 0) + us);
        const fn = `${cf.functionName || '(anonymous)'} ${path.basename(file)}:${cf.lineNumber + 1}`;
        byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    }
    const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
    return {
        sampledMs: round(total / 1000, 1),
        wallMs: round((profile.endTime - profile.startTime) / 1000, 1),
        byPackage: sorted(byPackage).map(([name, us]) => ({ name, ms: round(us / 1000, 1), share: name === '(idle)' ? 0 : round(us / Math.max(1, busy), 3) })),
        byFile: sorted(byFile).map(([name, us]) => ({ name, ms: round(us / 1000, 1) })),
        byFunction: sorted(byFunction).map(([name, us]) => ({ name, ms: round(us / 1000, 1) }))
    };
}
