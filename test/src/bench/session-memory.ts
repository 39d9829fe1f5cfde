/**
 * memory.backend.per_session: what a hosted session costs the backend's JavaScript heap, measured in
 * Node without Theia: core's PtySupervisor hosts N daemon sessions of the fake sandy exactly as the
 * backend does (node-pty, `sandy --start` then the `sandy --attach` client, every byte into the
 * session's headless xterm, its attention tracker), each with one attachment. The heap is read after
 * a full garbage collection (V8's own `gc`, enabled for this process), with ArrayBuffers (where xterm
 * keeps a screen's cells), so the figure is live memory,
 * not what the collector has yet to return (the RSS-based estimate of the attention section can come
 * out negative for that reason). Twice: with the agents' screens only, and after each agent printed
 * more lines than the backend's replay scrollback holds. An attach client draws on the alternate
 * screen (sandy's `tmux attach`, as the fake's), which keeps no scrollback, so a third figure is the
 * worst case a session's screen can reach: one backend screen on the normal screen with its whole
 * scrollback filled (a foreground agent whose output scrolls).
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import * as vm from 'vm';
import * as pty from 'node-pty';
import { PtySupervisor, ptySpawnFrom, REPLAY_SCROLLBACK_LINES, ScreenState, ScreenThread, SessionAttachment } from '@sandy-ui/core/node';
import { FAKE_SANDY, Scratch } from './app';
import { PROMPT_HINT, ptyEnv, Tail } from './raw-pty';
import { Report, delay, log, round } from './report';

/** V8's collector, enabled at run time for this process (the bench does not control node's flags). */
function collector(): () => void {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    return () => {
        // Twice: weak references and finalizers let go on the second pass.
        gc();
        gc();
    };
}

/** Live JavaScript memory after a full collection: the heap plus ArrayBuffers, which V8 keeps outside it
 * (xterm's buffer lines are typed arrays, so a screen's cells are counted only there). */
function heapUsedAfterGc(gc: () => void): number {
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
}

/**
 * The screens are parsed on this thread here (the backend parses them in its screen worker, whose heap
 * this process cannot read): the same engines, so the same memory, counted where it can be.
 */
const onThisThread = new ScreenThread('local');

export async function benchSessionMemory(report: Report, s: Scratch, sessions: number, cols = 135, rows = 50): Promise<void> {
    const gc = collector();
    const env = ptyEnv(s);
    const supervisor = new PtySupervisor(ptySpawnFrom(pty as unknown as Parameters<typeof ptySpawnFrom>[0]), { screenThread: onThisThread });
    supervisor.setSessionPort({
        commandLine: () => ({ sandyPath: FAKE_SANDY, env }),
        run: (args, cwd, timeoutMs) => new Promise(resolve => execFile(FAKE_SANDY, args, { cwd, env, timeout: timeoutMs }, (error, stdout, stderr) => {
            const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : undefined) : 0;
            resolve({ exitCode: code, stdout: String(stdout), stderr: String(stderr) });
        })),
        remember: () => undefined,
        forget: () => undefined
    });
    const ids: string[] = [];
    const attachments: SessionAttachment[] = [];
    const tails: Tail[] = [];
    try {
        const before = heapUsedAfterGc(gc);
        for (let i = 0; i < sessions; i++) {
            const workspace = path.join(s.root, `memory-ws-${i + 1}`);
            fs.mkdirSync(workspace, { recursive: true });
            ids.push(supervisor.startDaemon({ sandyPath: FAKE_SANDY, args: [], workspace, env, cols, rows }).id);
        }
        const deadline = Date.now() + 120_000;
        for (const id of ids) {
            while (supervisor.get(id)?.link !== 'attached') {
                if (Date.now() > deadline || supervisor.get(id)?.status === 'exited') {
                    throw new Error(`a daemon session of the fake did not attach: ${JSON.stringify(supervisor.get(id))}`);
                }
                await delay(50);
            }
            const a = await supervisor.attach(id);
            const tail = new Tail();
            tail.push(a.replay);
            a.onData(d => {
                tail.push(d);
                a.acknowledge(d.length);
            });
            attachments.push(a);
            tails.push(tail);
            await tail.until(t => t.includes(PROMPT_HINT), 30_000, 'the fake sandy prompt');
        }
        await delay(1000);
        const screens = heapUsedAfterGc(gc);
        // Each agent prints more lines than the backend's screen keeps above it.
        const lines = REPLAY_SCROLLBACK_LINES + rows * 2;
        for (let i = 0; i < ids.length; i++) {
            tails[i].text = '';
            attachments[i].write(`flood ${lines}\r`);
            await tails[i].until(t => t.includes(`flood done ${lines}`), 120_000, `flood done ${lines}`);
        }
        await delay(1000);
        const full = heapUsedAfterGc(gc);
        // What the backend kept: a view attaching now gets the screen and its scrollback back.
        const probe = await supervisor.attach(ids[0]);
        const replayLines = probe.replay.split('\n').length;
        probe.dispose();
        const kb = (bytes: number) => round(bytes / 1024 / sessions, 0);
        const worst = await worstCaseScreen(gc, cols, rows, lines);
        log(`  backend heap per session: ${kb(screens - before)} kB with the screen, ${kb(full - before)} kB after ${lines} lines; a screen with its scrollback full: ${round(worst / 1024, 0)} kB`);
        const details = { sessions, cols, rows, heapBeforeKb: round(before / 1024, 0), heapScreensKb: round(screens / 1024, 0), heapFullKb: round(full / 1024, 0) };
        report.add({
            id: 'memory.backend.per_session_kb',
            description: `The backend's JavaScript heap and ArrayBuffers per hosted session (core's PtySupervisor in Node: the attach client's PTY, the headless ${cols}×${rows} screen, the attention tracker, one attachment), live after a full garbage collection, ${sessions} daemon sessions of the fake sandy showing their first screen, over the sessions.`,
            value: kb(screens - before), unit: 'kB per session', samples: [], details
        });
        report.add({
            id: 'memory.backend.per_session_after_flood_kb',
            description: `The same after each agent printed ${lines} lines. The attach client draws on the alternate screen (as sandy's tmux attach does), which keeps no scrollback: \`replayLines\` is what a view attaching then gets back.`,
            value: kb(full - before), unit: 'kB per session', samples: [], details: { ...details, linesPrinted: lines, replayLines }
        });
        report.add({
            id: 'memory.backend.screen_full_scrollback_kb',
            description: `The most one session's backend screen holds: core's ScreenState (${cols}×${rows}) on the normal screen after ${lines} lines, i.e. its ${REPLAY_SCROLLBACK_LINES} lines of scrollback full (a foreground agent whose output scrolls), live heap and ArrayBuffers after a full garbage collection.`,
            value: round(worst / 1024, 0), unit: 'kB', samples: [], details: { cols, rows, linesPrinted: lines }
        });
    } finally {
        for (const a of attachments) {
            a.dispose();
        }
        for (const id of ids) {
            await supervisor.stop(id).catch(() => undefined);
        }
        await supervisor.dispose();
    }
}

/** One backend screen filled to its scrollback limit on the normal screen: its live cost in bytes. */
async function worstCaseScreen(gc: () => void, cols: number, rows: number, lines: number): Promise<number> {
    const before = heapUsedAfterGc(gc);
    const screen = new ScreenState(cols, rows, () => undefined, onThisThread);
    const filler = 'the quick brown fox jumps over the lazy dog 0123456789 '.repeat(3).slice(0, cols - 12);
    for (let i = 0; i < lines; i++) {
        screen.write(`${String(i).padStart(6)} ${filler}\r\n`);
    }
    // Everything written is parsed once serialize resolves; the replay itself is not kept.
    const kept = (await screen.serialize()).split('\n').length;
    const after = heapUsedAfterGc(gc);
    screen.dispose();
    if (kept < REPLAY_SCROLLBACK_LINES) {
        throw new Error(`the worst-case screen kept only ${kept} lines`);
    }
    return after - before;
}
