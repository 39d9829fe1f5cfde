/**
 * throughput.backend_pipeline: the backend half of the sandy tab's throughput, in Node without Theia
 * or a browser. Core's PtySupervisor hosts a daemon session of the fake sandy exactly as the backend
 * does (node-pty, `sandy --start`, then its `sandy --attach` client, every byte into the session's
 * headless xterm), one attachment acknowledges everything at once (a view that keeps up), and
 * `flood N` is typed. Rounds alternate with the same pipeline whose headless screen ignores its input
 * (a bench-only patch of that one session's ScreenState.write), which isolates what parsing the
 * stream once in the backend costs.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as pty from 'node-pty';
import { HostedSession, PtySupervisor, ptySpawnFrom, ScreenThread, SessionAttachment } from '@sandy-ui/core/node';
import { cpuTimes } from './proc';
import { FAKE_SANDY, Scratch } from './app';
import { floodBytes } from './flood';
import { PROMPT_HINT, ptyEnv, Tail } from './raw-pty';
import { Report, delay, log, median, round, stats } from './report';

class BenchSupervisor extends PtySupervisor {
    hosted(id: string): HostedSession | undefined {
        return this.sessions.get(id);
    }
}

interface PipelineRun {
    /** Enter → `flood done N` delivered to the attachment. */
    deliveredMs: number;
    /** Enter → the headless screen has parsed it all (serialize() resolved, minus its own cost is not subtracted). */
    parsedMs: number;
    /** CPU of this Node process during the run (user+system), ms. */
    cpuMs: number;
    /** Of it, its main thread's (the rest: the screen worker, V8's and libuv's helpers); /proc, 10 ms resolution. */
    mainThreadCpuMs: number;
}

function run(file: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<{ exitCode?: number; stdout: string; stderr: string }> {
    return new Promise(resolve => {
        execFile(file, args, { cwd, env, timeout: timeoutMs }, (error, stdout, stderr) => {
            const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : undefined) : 0;
            resolve({ exitCode: code, stdout: String(stdout), stderr: String(stderr) });
        });
    });
}

export async function benchBackendPipeline(report: Report, s: Scratch, lines: number, rounds: number, cols = 135, rows = 50): Promise<void> {
    const workspace = path.join(s.root, 'pipeline-ws');
    fs.mkdirSync(workspace, { recursive: true });
    const env = ptyEnv(s);
    const supervisor = new BenchSupervisor(ptySpawnFrom(pty as unknown as Parameters<typeof ptySpawnFrom>[0]));
    supervisor.setSessionPort({
        commandLine: () => ({ sandyPath: FAKE_SANDY, env }),
        run: (args, cwd, timeoutMs) => run(FAKE_SANDY, args, cwd, env, timeoutMs),
        remember: () => undefined,
        forget: () => undefined
    });
    const info = supervisor.startDaemon({ sandyPath: FAKE_SANDY, args: [], workspace, env, cols, rows });
    let attachment: SessionAttachment | undefined;
    try {
        const deadline = Date.now() + 60_000;
        while (supervisor.get(info.id)?.link !== 'attached') {
            const now = supervisor.get(info.id);
            if (Date.now() > deadline || now?.status === 'exited') {
                throw new Error(`the fake's daemon session did not attach: ${JSON.stringify(now)}`);
            }
            await delay(50);
        }
        const hosted = supervisor.hosted(info.id)!;
        const a = attachment = await supervisor.attach(info.id);
        const tail = new Tail();
        tail.push(a.replay);
        // A view that keeps up: everything is acknowledged as it arrives (flow control never pauses).
        a.onData(d => {
            tail.push(d);
            a.acknowledge(d.length);
        });
        await tail.until(t => t.includes(PROMPT_HINT), 30_000, 'the fake sandy prompt');
        await delay(300);
        const realWrite = hosted.screen.write.bind(hosted.screen);
        const once = async (withScreen: boolean): Promise<PipelineRun> => {
            (hosted.screen as { write: (d: string) => void }).write = withScreen ? realWrite : () => undefined;
            tail.text = '';
            const cpu0 = process.cpuUsage();
            const main0 = cpuTimes(process.pid, process.pid).selfMs;
            const t0 = performance.now();
            a.write(`flood ${lines}\r`);
            await tail.until(t => t.includes(`flood done ${lines}`), 180_000, `flood done ${lines}`);
            const delivered = performance.now() - t0;
            await hosted.screen.serialize();
            const parsed = performance.now() - t0;
            const cpu = process.cpuUsage(cpu0);
            const mainMs = cpuTimes(process.pid, process.pid).selfMs - main0;
            (hosted.screen as { write: (d: string) => void }).write = realWrite;
            await delay(200);
            return { deliveredMs: delivered, parsedMs: parsed, cpuMs: (cpu.user + cpu.system) / 1000, mainThreadCpuMs: mainMs };
        };
        const withScreen: PipelineRun[] = [];
        const without: PipelineRun[] = [];
        for (let i = -1; i < rounds; i++) {
            const x = await once(true);
            const y = await once(false);
            log(`  backend pipeline ${i < 0 ? 'warm-up' : `${i + 1}/${rounds}`}: with the headless screen ${round(x.parsedMs, 0)} ms (delivered ${round(x.deliveredMs, 0)}, CPU ${round(x.cpuMs, 0)}, main thread ${round(x.mainThreadCpuMs, 0)}), without ${round(y.deliveredMs, 0)} ms (CPU ${round(y.cpuMs, 0)})`);
            if (i >= 0) {
                withScreen.push(x);
                without.push(y);
            }
        }
        const bytes = floodBytes(lines);
        const add = (id: string, description: string, runs: PipelineRun[], pick: (r: PipelineRun) => number, details: Record<string, unknown>) => {
            const ms = runs.map(pick);
            const mbps = ms.map(t => bytes / 1e6 / (t / 1000));
            report.add({
                id, description: `${description} MB = 10^6 bytes of flood output.`, unit: 'MB/s',
                value: round(median(mbps)), samples: mbps.map(v => round(v)), stats: stats(mbps),
                details: {
                    lines, bytes, cols, rows, timeMs: ms.map(v => round(v, 1)),
                    nodeCpuMsPerRun: runs.map(r => round(r.cpuMs, 0)), medianNodeCpuMs: round(median(runs.map(r => r.cpuMs)), 0),
                    mainThreadCpuMsPerRun: runs.map(r => round(r.mainThreadCpuMs, 0)), screenThread: ScreenThread.shared().kind, ...details
                }
            });
        };
        add('throughput.backend_pipeline.mb_per_s',
            `Backend half of the sandy tab in Node: core's PtySupervisor hosting the fake sandy's daemon session (node-pty, --start then --attach), one attachment acknowledging at once; from writing \`flood ${lines}\\r\` until \`flood done ${lines}\` was delivered to the attachment and the session's headless xterm had parsed everything (its serialize() resolved).`,
            withScreen, r => r.parsedMs, {
                deliveredMs: withScreen.map(r => round(r.deliveredMs, 1)),
                backlogMs: withScreen.map(r => round(r.parsedMs - r.deliveredMs, 1)),
                backlogNote: 'parsed - delivered: how far the headless xterm was behind the stream when the last byte reached the view (includes one serialize of the screen)'
            });
        add('throughput.backend_pipeline_without_screen.mb_per_s',
            'The same pipeline, rounds alternating with the one above, with that session\'s headless xterm not fed (bench-only patch of its ScreenState.write): the cost of everything but the backend\'s parse.',
            without, r => r.deliveredMs, {});
    } finally {
        attachment?.dispose();
        await supervisor.stop(info.id).catch(() => undefined);
        await supervisor.dispose();
    }
}
