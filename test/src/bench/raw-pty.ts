/**
 * Metric 1a: how fast Node drains a PTY with nothing drawing it — the ceiling for any terminal view.
 * node-pty (the module the backend uses) runs (1) the fake sandy's `flood N` and (2) `cat` of a file
 * holding the same bytes.
 */
import * as path from 'path';
import * as pty from 'node-pty';
import { floodBytes } from './flood';
import { FAKE_SANDY, Scratch } from './app';
import { Report, delay, log, median, round, stats } from './report';

/** What the fake sandy's prompt says once it is ready for input. */
export const PROMPT_HINT = "type 'help'";

export function ptyEnv(s: Scratch): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
        if (v !== undefined && !k.startsWith('SANDY_') && !k.startsWith('FAKE_SANDY_')) {
            env[k] = v;
        }
    }
    return { ...env, HOME: s.home, TMPDIR: path.join(s.root, 'tmp'), TERM: 'xterm-256color', FAKE_SANDY_DOCKER: '1', FAKE_SANDY_GH_TOKEN: '1' };
}

/** The last 4 KiB of a stream, and a wait until a test holds for it (checks that bounded tail only). */
export class Tail {
    text = '';
    protected waiter: { test: (tail: string) => boolean; resolve: () => void } | undefined;

    push(d: string): void {
        this.text = (this.text + d).slice(-4096);
        if (this.waiter?.test(this.text)) {
            const w = this.waiter;
            this.waiter = undefined;
            w.resolve();
        }
    }

    until(test: (tail: string) => boolean, timeoutMs: number, what: string): Promise<void> {
        if (test(this.text)) {
            return Promise.resolve();
        }
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
                this.waiter = undefined;
                reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
            }, timeoutMs);
            this.waiter = { test, resolve: () => { clearTimeout(timer); resolve(); } };
        });
    }
}

/** A PTY's output: its {@link Tail}, and how many bytes came in all. */
class Drain extends Tail {
    bytes = 0;

    constructor(p: pty.IPty) {
        super();
        p.onData(d => {
            this.bytes += Buffer.byteLength(d);
            this.push(d);
        });
    }
}

/** Floods run before the fake's samples, not counted (see {@link fakeFlood}). */
const FAKE_WARMUP_RUNS = 3;

/**
 * Warm-up runs first, not counted, as every other throughput metric has one: the fake (a Node process) and this
 * reader speed up over their first floods (measured: 37, 51, 56, 59, 64, then 60–72 MB/s; with one warm-up run
 * still 41, 55, 62, 67, 62), so without them the median was of a ceiling still warming up: lower than the
 * ceiling, which flattered every share of it. `warmupMs`: the last warm-up run's time.
 */
async function fakeFlood(s: Scratch, lines: number, samples: number): Promise<{ ms: number[]; received: number[]; warmupMs?: number }> {
    const p = pty.spawn(FAKE_SANDY, [], { name: 'xterm-256color', cols: 135, rows: 50, cwd: s.rawWorkspace, env: ptyEnv(s) });
    const drain = new Drain(p);
    const exited = new Promise<void>(resolve => p.onExit(() => resolve()));
    const ms: number[] = [];
    const received: number[] = [];
    let warmupMs: number | undefined;
    try {
        await drain.until(t => t.includes(PROMPT_HINT), 30_000, 'the fake sandy prompt');
        await delay(200);
        for (let i = -FAKE_WARMUP_RUNS; i < samples; i++) {
            drain.text = '';
            const before = drain.bytes;
            const t0 = performance.now();
            p.write(`flood ${lines}\r`);
            await drain.until(t => t.includes(`flood done ${lines}`), 120_000, `flood done ${lines}`);
            if (i < 0) {
                warmupMs = round(performance.now() - t0, 1);
            } else {
                ms.push(performance.now() - t0);
                received.push(drain.bytes - before);
            }
            await delay(100);
        }
        p.write('exit\r');
        await Promise.race([exited, delay(5000)]);
    } finally {
        try {
            p.kill('SIGKILL');
        } catch {
            // Exited already.
        }
    }
    return { ms, received, warmupMs };
}

async function catFile(s: Scratch, lines: number, samples: number): Promise<{ ms: number[]; received: number[]; warmupMs?: number }> {
    const ms: number[] = [];
    const received: number[] = [];
    let warmupMs: number | undefined;
    // A warm-up spawn first, not counted, as for the fake.
    for (let i = -1; i < samples; i++) {
        // The shell stays (sleep) after cat: node-pty can drop the last chunk when the child exits at once.
        const t0 = performance.now();
        const p = pty.spawn('/bin/sh', ['-c', 'cat "$0"; exec sleep 60', s.floodFile], { name: 'xterm-256color', cols: 135, rows: 50, cwd: s.rawWorkspace, env: ptyEnv(s) });
        const drain = new Drain(p);
        try {
            await drain.until(t => t.includes(`flood done ${lines}`), 60_000, `flood done ${lines}`);
            if (i < 0) {
                warmupMs = round(performance.now() - t0, 1);
            } else {
                ms.push(performance.now() - t0);
                received.push(drain.bytes);
            }
        } finally {
            p.kill('SIGKILL');
        }
    }
    return { ms, received, warmupMs };
}

export async function benchRawPty(report: Report, s: Scratch, lines: number, samples: number): Promise<void> {
    const bytes = floodBytes(lines);
    const describe = (what: string, ms: number[], received: number[], warmupMs: number | undefined) => {
        const mbps = ms.map(t => bytes / 1e6 / (t / 1000));
        report.add({
            id: `throughput.raw_pty.${what}.mb_per_s`,
            description: `Node draining a PTY (node-pty, no rendering): ${what === 'fake' ? `the fake sandy's \`flood ${lines}\` from Enter to \`flood done ${lines}\`` : `\`cat\` of a file with the same ${lines} lines, spawn to exit`}. MB = 10^6 bytes of flood output.`,
            value: round(median(mbps)), unit: 'MB/s', samples: mbps.map(v => round(v)), stats: stats(mbps),
            details: { lines, bytes, bytesReceived: received, warmupMs, warmupNote: `runs before the samples, not counted (the fake: ${FAKE_WARMUP_RUNS}, cat: 1; both speed up over their first floods); warmupMs is the last one's time` }
        });
        report.add({
            id: `throughput.raw_pty.${what}.time_ms`,
            description: `Time for ${lines} lines through the raw PTY (${what}).`,
            value: round(median(ms), 1), unit: 'ms', samples: ms.map(v => round(v, 1)), stats: stats(ms, 1),
            details: { lines, bytes }
        });
    };
    log(`raw PTY: fake sandy flood ${lines} x${samples}`);
    const fake = await fakeFlood(s, lines, samples);
    describe('fake', fake.ms, fake.received, fake.warmupMs);
    log(`raw PTY: cat x${samples}`);
    const cat = await catFile(s, lines, samples);
    describe('cat', cat.ms, cat.received, cat.warmupMs);
}
