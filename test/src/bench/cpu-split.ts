/**
 * Where the CPU of one measured run went: the Theia backend process, Chromium (all its processes:
 * browser, renderers, the GPU process that runs SwiftShader) and the session's own processes (the
 * fake sandy's supervisor and attach client, or bash and cat in Theia's terminal). Diagnostics for
 * the throughput runs, read from /proc (10 ms resolution).
 */
import * as fs from 'fs';
import { cpuDeltaMs, cpuOf, cpuTimes, descendants, machineCpu, processGroup, processesUnder } from './proc';
import { round } from './report';

export interface CpuSplit {
    backendMs: number;
    /**
     * Of backendMs, its main thread's (the one that reads the PTYs and serves the windows); the rest is its
     * other threads: the sessions' screen worker (core's ScreenThread), V8's and libuv's helpers.
     */
    backendMainThreadMs: number;
    /** backendMs by thread, largest first (thread ids are not named: the main thread is the pid, the screen worker is usually the next largest). */
    backendByThread: Array<{ tid: number; ms: number }>;
    browserMs: number;
    sessionMs: number;
    /** browserMs by Chromium process type (`--type=` of its command line; `browser` has none). */
    browserByType: Record<string, number>;
    /** Bytes the backend process wrote (write syscalls of any kind: mostly the websocket to the page), /proc/<pid>/io wchar. */
    backendWrittenMB: number;
    /** Wall time between the two snapshots (a little more than the run: its CPU is counted over this). */
    windowMs: number;
    /**
     * The whole machine's busy CPU over the window, in cores (/proc/stat; 2 = both cores of a 2-core machine
     * the whole time). It includes what no process of ours is charged with: the kernel's workers moving
     * PTY data, other load.
     */
    machineCores: number;
}

interface Snapshot {
    at: number;
    machineBusyMs: number;
    backendWchar: number;
    backend: number;
    backendMain: number;
    backendThreads: Map<number, number>;
    browser: Map<number, number>;
    session: Map<number, number>;
}

/** A Chromium process's `--type=` (renderer, gpu-process, utility, zygote…), `browser` for the main process. */
function chromiumType(pid: number): string {
    try {
        return /--type=([\w-]+)/.exec(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
    } catch {
        return 'gone';
    }
}

function isChromium(pid: number): boolean {
    try {
        return /chrom/i.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8'));
    } catch {
        return false;
    }
}

export class CpuProbe {
    constructor(protected readonly backendPid: number, protected readonly scratchRoot: string) { }

    protected sessionPids(): number[] {
        // Everything started in the scratch tree except the backend's own group (backend, plugin host):
        // PTY sessions and the fake's daemon supervisor lead their own groups.
        return processesUnder(this.scratchRoot).filter(pid => processGroup(pid) !== this.backendPid);
    }

    snapshot(): Snapshot {
        let backend = 0;
        let backendMain = 0;
        try {
            // Its own CPU only: reaped children (the --print-state polls) are not the terminal's work.
            backend = cpuTimes(this.backendPid).selfMs;
            backendMain = cpuTimes(this.backendPid, this.backendPid).selfMs;
        } catch {
            // The backend died; the run reports that elsewhere.
        }
        let backendWchar = 0;
        try {
            backendWchar = Number(/^wchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${this.backendPid}/io`, 'utf8'))?.[1] ?? 0);
        } catch {
            // Not readable: reported as 0.
        }
        return {
            at: performance.now(),
            machineBusyMs: machineCpu().busyMs,
            backendWchar,
            backend,
            backendMain,
            backendThreads: threadCpu(this.backendPid),
            browser: cpuOf(descendants(process.pid).filter(isChromium)),
            session: cpuOf(this.sessionPids())
        };
    }

    since(before: Snapshot): CpuSplit {
        const after = this.snapshot();
        return {
            backendMs: round(after.backend - before.backend, 0),
            backendMainThreadMs: round(after.backendMain - before.backendMain, 0),
            backendByThread: [...after.backendThreads].map(([tid, ms]) => ({ tid, ms: round(ms - (before.backendThreads.get(tid) ?? 0), 0) }))
                .filter(t => t.ms > 0).sort((a, b) => b.ms - a.ms),
            browserMs: round(cpuDeltaMs(before.browser, after.browser), 0),
            sessionMs: round(cpuDeltaMs(before.session, after.session), 0),
            backendWrittenMB: round((after.backendWchar - before.backendWchar) / 1e6, 2),
            browserByType: byType(before.browser, after.browser),
            windowMs: round(after.at - before.at, 0),
            machineCores: round((after.machineBusyMs - before.machineBusyMs) / Math.max(1, after.at - before.at), 2)
        };
    }
}

/** CPU (ms) of each thread of a process. */
function threadCpu(pid: number): Map<number, number> {
    const out = new Map<number, number>();
    try {
        for (const tid of fs.readdirSync(`/proc/${pid}/task`).map(Number)) {
            try {
                out.set(tid, cpuTimes(pid, tid).selfMs);
            } catch {
                // The thread ended.
            }
        }
    } catch {
        // The process ended.
    }
    return out;
}

function byType(before: Map<number, number>, after: Map<number, number>): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [pid, ms] of after) {
        const type = chromiumType(pid);
        out[type] = (out[type] ?? 0) + ms - (before.get(pid) ?? 0);
    }
    return out;
}

/** Per-run CPU splits as arrays, plus their medians. */
export function summariseCpu(runs: CpuSplit[]): Record<string, unknown> {
    const med = (xs: number[]) => {
        if (!xs.length) {
            return null;
        }
        const s = [...xs].sort((a, b) => a - b);
        const m = Math.floor(s.length / 2);
        return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
    };
    const backend = runs.map(r => r.backendMs);
    const backendMain = runs.map(r => r.backendMainThreadMs);
    const browser = runs.map(r => r.browserMs);
    const session = runs.map(r => r.sessionMs);
    const written = runs.map(r => r.backendWrittenMB);
    return {
        backendMs: backend, backendMainThreadMs: backendMain, backendByThread: runs.map(r => r.backendByThread), browserMs: browser, browserByType: runs.map(r => r.browserByType), sessionMs: session, backendWrittenMB: written,
        windowMs: runs.map(r => r.windowMs), coresBusy: runs.map(r => round((r.backendMs + r.browserMs + r.sessionMs) / Math.max(1, r.windowMs), 2)),
        machineCores: runs.map(r => r.machineCores),
        medianBackendMs: med(backend), medianBrowserMs: med(browser), medianSessionMs: med(session), medianBackendWrittenMB: med(written)
    };
}
