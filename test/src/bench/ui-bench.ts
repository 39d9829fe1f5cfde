/**
 * Metrics measured through the running IDE: terminal throughput and keystroke echo in the sandy tab
 * and in Theia's own terminal, state polls with three windows, backend idle CPU with ten sessions.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { CATCH_UP, FLOW_CONTROL } from '@sandy-ui/core/common';
import { Backend, Scratch, readInvocations } from './app';
import { FloodProducer, floodBytes, floodProducer } from './flood';
import {
    AppPage, EchoResult, SANDY_ROWS, SANDY_TEXTAREA, TheiaTerminal, armEcho, armFlood, echoResult, floodResult, focusSandyTerminal,
    focusTheiaTerminal, launchProject, openApp, openTheiaTerminal, runPaletteCommand, sandyScreenText, showSandyView, theiaRunUntilTitle
} from './page';
import { CpuProbe, CpuSplit, summariseCpu } from './cpu-split';
import { clkTck, cpuTimes, processGroup, processesUnder } from './proc';
import { Metric, Report, delay, log, median, percentile, round, stats } from './report';

// ---- 1b / 1c: throughput ------------------------------------------------------------------------

export function throughputMetrics(report: Report, key: string, lines: number, ms: number[], description: string,
    details: Record<string, unknown>, target?: Metric['target']): void {
    const bytes = floodBytes(lines);
    const mbps = ms.map(t => bytes / 1e6 / (t / 1000));
    report.add({
        id: `throughput.${key}.mb_per_s`,
        description: `${description} MB = 10^6 bytes of flood output.`,
        value: ms.length ? round(median(mbps)) : null, unit: 'MB/s', samples: mbps.map(v => round(v)), stats: stats(mbps),
        ...(target ? { target } : {}),
        ...(ms.length ? {} : { notMeasured: `no run completed: ${JSON.stringify(details.failures ?? [])}` }),
        details: { lines, bytes, ...details }
    });
    report.add({
        id: `throughput.${key}.time_ms`,
        description: `Time to show ${lines} lines: ${description}`,
        value: ms.length ? round(median(ms), 1) : null, unit: 'ms', samples: ms.map(v => round(v, 1)), stats: stats(ms, 1),
        ...(ms.length ? {} : { notMeasured: 'no run completed (see the mb_per_s entry)' }),
        details: { lines, bytes }
    });
}

export const THROUGHPUT_TARGET: Metric['target'] = {
    description: "sandy tab throughput >= 2x Theia's terminal throughput (same bytes, both maximized, runs alternating)",
    comparator: '>=', threshold: null, reference: 'throughput.theia_terminal.mb_per_s', factor: 2
};

/** The second half of the throughput target (issue 14): the sandy tab keeps at least a quarter of the raw PTY's pace. */
export const RAW_SHARE_TARGET: Metric['target'] = {
    description: 'sandy tab throughput >= 25 % of the raw PTY (node-pty reading the fake\'s flood, no rendering; same run)',
    comparator: '>=', threshold: null, reference: 'throughput.raw_pty.fake.mb_per_s', factor: 0.25
};

export async function sandyTerminalSize(page: Page): Promise<string | undefined> {
    const all = [...(await sandyScreenText(page)).matchAll(/size: (\d+×\d+)/g)];
    return all[all.length - 1]?.[1];
}

interface FloodRun {
    ms?: number;
    /** Theia's terminal only: Enter -> marker written after cat (the PTY took every byte). */
    producerMs?: number;
    /** Sandy tab only: DOM updates of its rows during the run (about the frames drawn). */
    draws?: number;
    /** Sandy tab only: Enter keydown -> the fake began the flood, and -> it wrote its last line (FAKE_SANDY_EVENT_LOG). */
    producer?: FloodProducer;
    /** CPU from just before the Enter until the run was seen done (with a probe). */
    cpu?: CpuSplit;
    failure?: string;
}

/** Which screen a flood is drawn on: sandy's TUI draws on the alternate one; `normal` leaves it first (every byte drawn, as in a foreground agent's scrolling output). */
export type FloodScreen = 'alternate' | 'normal';

/**
 * Back to the alternate screen, where the sections after a normal-screen run expect sandy's TUI, with the
 * normal screen and its scrollback erased first: a replay (reattach, reload) carries the normal screen's
 * scrollback, and the floods there must not make it larger than it is without them.
 */
async function backToAlternateScreen(page: Page): Promise<void> {
    await focusSandyTerminal(page);
    await page.keyboard.type('raw \\e[H\\e[2J\\e[3J\\e[?1049h');
    await page.keyboard.press('Enter');
    await page.keyboard.type('clear');
    await page.keyboard.press('Enter');
    await delay(500);
}

/** One `flood N` in the sandy tab, from the Enter keydown to `flood done N` in the DOM rows. */
async function sandyFloodOnce(page: Page, eventLog: string, lines: number, screen: FloodScreen = 'alternate', cpu?: CpuProbe): Promise<FloodRun> {
    await focusSandyTerminal(page);
    if (screen === 'normal') {
        // The fake prints the sequence as it is (no prompt after it): the view and the backend's screen leave
        // the alternate screen, and the flood scrolls into the scrollback.
        await page.keyboard.type('raw \\e[?1049l');
        await page.keyboard.press('Enter');
        await delay(300);
    }
    if ((await sandyScreenText(page)).includes('flood done')) {
        // Start from a clean screen so the previous run's last line cannot end this one.
        await page.keyboard.type('clear');
        await page.keyboard.press('Enter');
        await page.waitForFunction(sel => !(document.querySelector(sel)?.textContent ?? '').includes('flood done'), SANDY_ROWS, { timeout: 30_000 });
        await delay(300);
    }
    await page.keyboard.type(`flood ${lines}`);
    await armFlood(page, { rowsSelector: SANDY_ROWS, doneText: `flood done ${lines}`, timeoutMs: 180_000 });
    const before = cpu?.snapshot();
    await page.keyboard.press('Enter');
    const r = await floodResult(page);
    const used = before && cpu!.since(before);
    await delay(300);
    return r.ok ? { ms: r.ms, draws: r.draws, producer: floodProducer(eventLog, r.startEpochMs, lines), cpu: used } : { failure: r.reason ?? 'failed' };
}

/**
 * One run of the same bytes in Theia's terminal: `bench-flood` cats them in the alternate screen,
 * writes a marker file, then retitles the tab (OSC 0); done = the tab shows the title.
 */
async function theiaFloodOnce(page: Page, t: TheiaTerminal, s: Scratch, tag: string, screen: FloodScreen = 'alternate', cpu?: CpuProbe): Promise<FloodRun> {
    await focusTheiaTerminal(page, t);
    const title = `done-${tag}`;
    // Relative to the scratch root (the shell was cd'ed there): a short line to type.
    await page.keyboard.type(`bin/bench-flood${screen === 'normal' ? '-normal' : ''} markers/${tag} ${title}`);
    await armFlood(page, { tabId: t.tabId, doneText: title, timeoutMs: 180_000 });
    const before = cpu?.snapshot();
    await page.keyboard.press('Enter');
    const r = await floodResult(page);
    const used = before && cpu!.since(before);
    await delay(300);
    if (!r.ok) {
        return { failure: r.reason ?? 'failed' };
    }
    let producerMs: number | undefined;
    try {
        producerMs = fs.statSync(path.join(s.markerDir, tag)).mtimeMs - r.startEpochMs;
    } catch {
        // No marker: the producer time is simply not recorded.
    }
    return { ms: r.ms, producerMs, cpu: used };
}

/** Put Theia's shell in the scratch root, so the flood command line stays short. */
export async function prepareTheiaShell(page: Page, t: TheiaTerminal, s: Scratch): Promise<void> {
    await theiaRunUntilTitle(page, t, `cd ${s.root}; printf '\\033]0;bench-cd\\007'`, 'bench-cd');
}

async function theiaTerminalSize(page: Page, t: TheiaTerminal, s: Scratch, tag: string): Promise<string | undefined> {
    try {
        await theiaRunUntilTitle(page, t, `stty size > markers/size-${tag}; printf '\\033]0;size-${tag}\\007'`, `size-${tag}`);
        const [rows, cols] = fs.readFileSync(path.join(s.markerDir, `size-${tag}`), 'utf8').trim().split(/\s+/);
        return `${rows}×${cols}`;
    } catch {
        return undefined;
    }
}

/** What producerPerRun says (the sandy tab in both hosts). */
export const PRODUCER_NOTE = 'producerPerRun: per measured run, ms after the Enter keydown when the fake sandy began the flood (startMs) and handed its last line to its PTY or, in a daemon session, to its socket (writtenMs), from its FAKE_SANDY_EVENT_LOG; the run\'s time less writtenMs is what followed: what was still in the fake\'s relay (its attach client) and the IDE. null: not logged.';
const CPU_NOTE = 'CPU time (ms, /proc utime+stime, 10 ms resolution) used from just before each measured run\'s Enter until it was seen done by the Theia backend process itself, by all Chromium processes (renderer, GPU process with SwiftShader, browser), and by the session\'s own processes (sandy tab: the fake sandy\'s daemon supervisor and its --attach client; Theia: bash, sh and cat); windowMs: the wall time the CPU was counted over (the run and a little around it), coresBusy: that CPU over that time, in cores (2 = both cores of a 2-core machine the whole time); machineCores: the whole machine\'s busy CPU over the same time (/proc/stat: with the kernel\'s own work, such as moving PTY data, which no process is charged with). Diagnostics, not part of the value.';

/** Backend CPU profiling of one extra run per terminal (BENCH_PROFILE=1). */
export interface FloodProfiler {
    start(): Promise<void>;
    stop(label: string, runMs: number | undefined): Promise<void>;
}

const THEIA_METHOD = 'Theia\'s terminal (xterm.js 5.3 + WebGL addon) runs `cat` of a file with the same lines in the alternate screen (as sandy\'s TUI draws), then a marker file is written and the tab is retitled by OSC 0; from the Enter keydown until the tab shows that title (xterm parses in order, so everything before it was processed).';

/** Theia's terminal where it opens by default: the bottom panel (about a third of the sandy tab's rows). */
export async function benchTheiaFloodPanel(report: Report, page: Page, t: TheiaTerminal, s: Scratch, lines: number, samples: number): Promise<void> {
    const ms: number[] = [];
    const producer: number[] = [];
    const failures: string[] = [];
    let warmupMs: number | undefined;
    for (let i = -1; i < samples; i++) {
        const r = await theiaFloodOnce(page, t, s, `panel-${i + 1}`);
        log(`  Theia terminal (bottom panel) flood ${i < 0 ? 'warm-up' : `${i + 1}/${samples}`}: ${r.ms !== undefined ? `${round(r.ms, 0)} ms` : r.failure}`);
        if (r.failure) {
            failures.push(r.failure);
        } else if (i < 0) {
            warmupMs = round(r.ms!, 1);
        } else {
            ms.push(r.ms!);
            if (r.producerMs !== undefined) {
                producer.push(round(r.producerMs, 1));
            }
        }
    }
    throughputMetrics(report, 'theia_terminal_default_panel', lines, ms, `${THEIA_METHOD} Layout: the default bottom panel. Not the target's reference (fewer rows to draw).`, {
        terminalSize: await theiaTerminalSize(page, t, s, 'panel'), failures, warmupMs, producerDoneMs: producer
    });
}

async function toggleMaximized(page: Page, focus: () => Promise<void>): Promise<void> {
    await focus();
    await runPaletteCommand(page, 'View: Toggle Maximized');
    // Let the layout settle and xterm refit (the PTY gets the new size, the fake redraws).
    await delay(1200);
}

/**
 * The target's comparison: sandy tab and Theia's terminal each maximized (the whole window), one
 * run of each per round, alternating, so load changes on the machine hit both alike. Round 0 is a
 * warm-up (JIT, buffers) reported apart.
 */
export async function benchFloodComparison(report: Report, page: Page, t: TheiaTerminal, s: Scratch, lines: number, rounds: number,
    cpu?: CpuProbe, profile?: FloodProfiler, screen: FloodScreen = 'alternate'): Promise<void> {
    const sandy: number[] = [];
    const sandyCpu: CpuSplit[] = [];
    const theiaCpu: CpuSplit[] = [];
    const theia: number[] = [];
    const producer: number[] = [];
    const sandyProducer: Array<FloodProducer | null> = [];
    const eventLog = path.join(s.root, 'fake-events.log');
    const ratios: number[] = [];
    const sandyFailures: string[] = [];
    const theiaFailures: string[] = [];
    const warmup: Record<string, number | undefined> = {};
    let sandySize: string | undefined;
    let sandyRenderer: string | undefined;
    let theiaSize: string | undefined;
    const focusSandy = () => focusSandyTerminal(page);
    const focusTheia = () => focusTheiaTerminal(page, t);
    try {
        for (let i = -1; i < rounds; i++) {
            const label = i < 0 ? 'warm-up' : `${i + 1}/${rounds}`;
            await toggleMaximized(page, focusSandy);
            let a: FloodRun;
            try {
                // The resize made the fake redraw its header, which states the PTY size.
                sandySize ??= await sandyTerminalSize(page);
                sandyRenderer ??= await page.$eval('.sandy-terminal-widget:not(.lm-mod-hidden) [data-sandy-renderer]', el => (el as HTMLElement).dataset.sandyRenderer).catch(() => undefined);
                a = await sandyFloodOnce(page, eventLog, lines, screen, cpu);
                if (a.cpu && i >= 0 && a.ms !== undefined) {
                    sandyCpu.push(a.cpu);
                }
            } finally {
                await toggleMaximized(page, focusSandy);
            }
            await toggleMaximized(page, focusTheia);
            let b: FloodRun;
            try {
                b = await theiaFloodOnce(page, t, s, `${screen === 'normal' ? 'normal' : 'max'}-${i + 1}`, screen, cpu);
                if (b.cpu && i >= 0 && b.ms !== undefined) {
                    theiaCpu.push(b.cpu);
                }
                theiaSize ??= await theiaTerminalSize(page, t, s, 'max');
            } finally {
                await toggleMaximized(page, focusTheia);
            }
            log(`  round ${label}: sandy tab ${a.ms !== undefined ? `${round(a.ms, 0)} ms, ${a.draws} draws` : a.failure}${i >= 0 && sandyCpu.length ? ` (CPU ${JSON.stringify(sandyCpu[sandyCpu.length - 1])})` : ''}, Theia terminal ${b.ms !== undefined ? `${round(b.ms, 0)} ms` : b.failure}${i >= 0 && theiaCpu.length ? ` (CPU ${JSON.stringify(theiaCpu[theiaCpu.length - 1])})` : ''}`);
            if (i < 0) {
                warmup.sandyMs = a.ms && round(a.ms, 1);
                warmup.theiaMs = b.ms && round(b.ms, 1);
                continue;
            }
            if (a.failure) {
                sandyFailures.push(a.failure);
            } else {
                sandy.push(a.ms!);
                sandyProducer.push(a.producer ?? null);
            }
            if (b.failure) {
                theiaFailures.push(b.failure);
            } else {
                theia.push(b.ms!);
                if (b.producerMs !== undefined) {
                    producer.push(round(b.producerMs, 1));
                }
            }
            if (a.ms !== undefined && b.ms !== undefined) {
                // Throughput ratio sandy/Theia of this round = Theia's time / sandy's time.
                ratios.push(round(b.ms / a.ms, 3));
            }
        }
    } finally {
        if (screen === 'normal') {
            await backToAlternateScreen(page);
        }
    }
    if (profile) {
        // Extra runs with the backend's CPU profiler on (it slows what it watches): never in the numbers above.
        for (const which of ['sandy_tab', 'theia_terminal'] as const) {
            const focus = which === 'sandy_tab' ? focusSandy : focusTheia;
            await toggleMaximized(page, focus);
            try {
                await profile.start();
                const r = which === 'sandy_tab' ? await sandyFloodOnce(page, eventLog, lines) : await theiaFloodOnce(page, t, s, 'profiled');
                await profile.stop(which, r.ms);
                log(`  profiled ${which} run: ${r.ms !== undefined ? `${round(r.ms, 0)} ms` : r.failure}`);
            } finally {
                await toggleMaximized(page, focus);
            }
        }
    }
    const normal = screen === 'normal';
    const normalNote = 'Context, no target: the byte path, where every byte reaches the view and the session waits for it (flowControl); issue 14\'s target is measured on the alternate screen, where sandy\'s tmux draws.';
    const key = normal ? 'normal_screen.' : '';
    throughputMetrics(report, `${key}sandy_tab`, lines, sandy, normal
        ? `The sandy tab, maximized, on the normal screen: the fake leaves the alternate screen (\`raw \\e[?1049l\`), then \`flood ${lines}\`; from the Enter keydown until \`flood done ${lines}\` is in .xterm-rows. A foreground agent's scrolling output takes this path (sandy's tmux in daemon mode never leaves the alternate screen). Runs alternate with throughput.normal_screen.theia_terminal. ${normalNote}`
        : `The sandy tab, maximized (xterm.js 5.5 DOM renderer): \`flood ${lines}\` typed into the fake sandy; from the Enter keydown until \`flood done ${lines}\` is in .xterm-rows. Runs alternate with throughput.theia_terminal. `
            + `A daemon session's attach client draws on the alternate screen, where a tab more than catchUp.windowChars behind is sent frames of the screen in place of the output it has not drawn (node/terminal/screen-frame.ts); on the normal screen (throughput.normal_screen.*) every byte is drawn, paused by flowControl.`,
        {
            sessionMode: process.env.BENCH_SESSION_MODE ?? 'daemon (default)', ...(normal ? {} : { catchUp: CATCH_UP }), flowControl: FLOW_CONTROL,
            terminalSize: sandySize, renderer: sandyRenderer, failures: sandyFailures, warmupMs: warmup.sandyMs, pairedRatiosSandyOverTheia: ratios, medianPairedRatio: ratios.length ? median(ratios) : null,
            ...(cpu ? { cpuPerRun: summariseCpu(sandyCpu), cpuNote: CPU_NOTE } : {}),
            producerPerRun: sandyProducer, producerNote: PRODUCER_NOTE
        },
        normal ? undefined : THROUGHPUT_TARGET);
    throughputMetrics(report, `${key}theia_terminal`, lines, theia, normal
        ? `Theia's terminal, maximized, \`cat\` of the same lines on the normal screen (bin/bench-flood-normal), then the marker and the OSC 0 title as in throughput.theia_terminal. ${normalNote}`
        : `${THEIA_METHOD} Layout: its panel maximized (the whole window, as the sandy tab). The target's reference.`, {
        terminalSize: theiaSize, failures: theiaFailures, warmupMs: warmup.theiaMs, producerDoneMs: producer,
        ...(cpu ? { cpuPerRun: summariseCpu(theiaCpu), cpuNote: CPU_NOTE } : {}),
        producerNote: 'producerDoneMs: Enter keydown -> marker file written right after cat finished (the PTY took all bytes); not a render time'
    });
}

// ---- 2: keystroke echo ----------------------------------------------------------------------------

/** Deterministic letters; each line starts with a different letter so an earlier line never matches. */
function echoLines(samples: number, lineLength: number): string[] {
    const starts = 'vwxyzqjkmnbcdfghlprst';
    const lines: string[] = [];
    let seed = 12345;
    let left = samples;
    for (let i = 0; left > 0; i++) {
        let line = starts[i % starts.length];
        while (line.length < Math.min(lineLength, left)) {
            seed = (seed * 1103515245 + 12345) & 0x7fffffff;
            line += String.fromCharCode(97 + (seed >> 16) % 26);
        }
        lines.push(line);
        left -= line.length;
    }
    return lines;
}

interface EchoRun {
    results: EchoResult[];
    lost: number;
}

async function typeAndMeasure(page: Page, samples: number, arm: (lineSoFar: string) => Parameters<typeof armEcho>[1]): Promise<EchoRun> {
    const results: EchoResult[] = [];
    let lost = 0;
    for (const line of echoLines(samples, 40)) {
        for (let k = 0; k < line.length; k++) {
            await armEcho(page, arm(line.slice(0, k + 1)));
            await page.keyboard.type(line[k]);
            const r = await echoResult(page);
            if (r.parse === null && r.dom === null) {
                lost++;
            } else {
                results.push(r);
            }
            await delay(15);
        }
        // Enter ends the line: the fake answers "unknown command", bash "command not found", then a fresh
        // prompt. (Not Ctrl-C: in the sandy tab Theia's copy keybinding swallows it, see README.)
        await page.keyboard.press('Enter');
        await delay(400);
    }
    return { results, lost };
}

function latencyMetrics(report: Report, idPrefix: string, description: string, values: number[], lost: number, details: Record<string, unknown>,
    target?: Metric['target']): void {
    const rounded = values.map(v => round(v, 2));
    const base = { unit: 'ms', samples: rounded, stats: stats(values), details: { lost, ...details } };
    report.add({
        id: `${idPrefix}.p50_ms`, description: `${description} (median)`, value: values.length ? round(percentile(values, 50)) : null, ...base,
        ...(target ? { target } : {})
    });
    report.add({ id: `${idPrefix}.p99_ms`, description: `${description} (99th percentile)`, value: values.length ? round(percentile(values, 99)) : null, ...base });
}

const PAINT_METHOD = 'keydown (capture listener) -> xterm re-positions its helper textarea (it parsed the echo and moved the cursor) -> end of the next animation frame (requestAnimationFrame + setTimeout 0), i.e. the frame that paints it';

export async function benchSandyEcho(report: Report, page: Page, samples: number): Promise<void> {
    await focusSandyTerminal(page);
    await delay(300);
    const run = await typeAndMeasure(page, samples, lineSoFar => ({
        textareaSelector: SANDY_TEXTAREA, rowsSelector: SANDY_ROWS, expect: `> ${lineSoFar}`, timeoutMs: 2000
    }));
    const dom = run.results.map(r => r.dom).filter((v): v is number => v !== null);
    const paint = run.results.map(r => r.paint).filter((v): v is number => v !== null);
    latencyMetrics(report, 'latency.echo.sandy_tab.dom',
        'Keystroke echo in the sandy tab: keydown -> the character is in .xterm-rows (MutationObserver, performance.now()); the fake sandy echoes in raw mode',
        dom, run.lost + (run.results.length - dom.length), { method: 'keydown -> MutationObserver sees "> <typed so far>" in the xterm DOM rows' });
    latencyMetrics(report, 'latency.echo.sandy_tab.paint',
        'Keystroke echo in the sandy tab, measured like Theia\'s terminal (for the comparison)',
        paint, run.lost + (run.results.length - paint.length), { method: PAINT_METHOD }, {
            description: "sandy tab echo p50 <= Theia's terminal echo p50 (same method)",
            comparator: '<=', threshold: null, reference: 'latency.echo.theia_terminal.paint.p50_ms'
        });
}

export async function benchTheiaEcho(report: Report, page: Page, t: TheiaTerminal, samples: number): Promise<void> {
    await focusTheiaTerminal(page, t);
    await delay(300);
    const run = await typeAndMeasure(page, samples, () => ({ textareaSelector: t.textarea, timeoutMs: 2000 }));
    const paint = run.results.map(r => r.paint).filter((v): v is number => v !== null);
    latencyMetrics(report, 'latency.echo.theia_terminal.paint',
        "Keystroke echo in Theia's terminal (bash readline echo). Its WebGL renderer puts no text in the DOM, so the echo is detected through xterm's helper textarea following the cursor",
        paint, run.lost + (run.results.length - paint.length), { method: PAINT_METHOD });
}

// ---- 3: state polls with three windows ------------------------------------------------------------

export async function benchPolls(report: Report, browser: Browser, backend: Backend, s: Scratch, main: Page, cadenceMs: number, windowS: number): Promise<void> {
    const extra: AppPage[] = [];
    try {
        await showSandyView(main);
        for (let i = 0; i < 2; i++) {
            log(`  opening window ${i + 2}/3`);
            const app = await openApp(browser, backend.url);
            extra.push(app);
            await showSandyView(app.page);
        }
        // Let the polls the page loads ask for (refresh on connect) pass, then count.
        await delay(cadenceMs + 2000);
        const visible = [];
        for (const p of [main, ...extra.map(a => a.page)]) {
            visible.push(await p.locator('li.sandy-project-row').first().isVisible());
        }
        log(`  counting --print-state for ${windowS} s with 3 windows (Sandy view visible: ${visible.join(', ')})`);
        const t0 = Date.now();
        await delay(windowS * 1000);
        const t1 = Date.now();
        const polls = readInvocations(s).filter(r => r.args.startsWith('--print-state') && r.at >= t0 && r.at < t1);
        const intervals = polls.slice(1).map((p, i) => p.at - polls[i].at);
        const expected = 60000 / cadenceMs;
        const perMinute = polls.length * 60000 / (t1 - t0);
        report.add({
            id: 'polls.three_windows.per_minute',
            description: `sandy --print-state invocations per minute with three browser windows showing the Sandy view (counted by a logging shim in front of the fake on PATH over ${windowS} s, scaled to a minute). Samples: intervals between consecutive polls (ms).`,
            value: round(perMinute, 1), unit: 'polls/min', samples: intervals, sampleUnit: 'ms between polls',
            target: {
                description: `one shared poll per cadence whatever the window count: about 60000/${cadenceMs} = ${round(expected, 1)}/min (the next poll is timed from the end of the previous one, so a little less), not 3x; pass if <= 1.5 x that`,
                comparator: '<=', threshold: round(expected * 1.5, 1)
            },
            details: {
                windows: 3, sandyViewVisible: visible, cadenceMs, expectedPerMinute: round(expected, 1), windowS: round((t1 - t0) / 1000, 1),
                pollsInWindow: polls.length, medianIntervalMs: intervals.length ? median(intervals) : null,
                pollArgs: [...new Set(polls.map(p => p.args))]
            }
        });
    } finally {
        for (const a of extra) {
            await a.context.close().catch(() => undefined);
        }
    }
}

// ---- 4: backend idle CPU with ten sessions --------------------------------------------------------

function sessionPids(root: string): number[] {
    return processesUnder(root).filter(pid => {
        try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('fake-sandy/main.js');
        } catch {
            return false;
        }
    });
}

function groupMembers(pgid: number, except: number): number[] {
    return fs.readdirSync('/proc').filter(e => /^\d+$/.test(e)).map(Number).filter(pid => pid !== except && processGroup(pid) === pgid);
}

function groupCpuMs(pids: number[]): number {
    let total = 0;
    for (const pid of pids) {
        try {
            total += cpuTimes(pid).selfMs;
        } catch {
            // Exited meanwhile.
        }
    }
    return total;
}

export async function benchIdleCpu(report: Report, backend: Backend, s: Scratch, page: Page, windowS: number, cadenceMs: number): Promise<void> {
    for (const ws of s.idleWorkspaces) {
        log(`  launching ${path.basename(ws)} from its row in the Sandy view`);
        await launchProject(page, path.basename(ws), ws);
    }
    const idleRoot = path.dirname(s.idleWorkspaces[0]);
    const sessions = sessionPids(idleRoot);
    // A daemon session is two fake processes (its supervisor and our --attach client), both in the workspace.
    const liveSessions = new Set(sessions.map(pid => {
        try {
            return fs.readlinkSync(`/proc/${pid}/cwd`);
        } catch {
            return `gone-${pid}`;
        }
    })).size;
    // Launches ask for polls and the tabs settle their sizes; let that pass.
    await delay(3000);
    const others = groupMembers(backend.pid, backend.pid);
    const start = cpuTimes(backend.pid);
    const startOthers = groupCpuMs(others);
    const startSessions = groupCpuMs(sessions);
    const t0 = performance.now();
    const tEpoch0 = Date.now();
    const perSecond: number[] = [];
    let prev = start.selfMs;
    let prevT = t0;
    log(`  sampling backend pid ${backend.pid} CPU for ${windowS} s with ${liveSessions} live sessions (${sessions.length} fake sandy processes)`);
    for (let i = 0; i < windowS; i++) {
        await delay(1000);
        const now = cpuTimes(backend.pid).selfMs;
        const t = performance.now();
        perSecond.push(round((now - prev) / (t - prevT) * 100, 2));
        prev = now;
        prevT = t;
    }
    const end = cpuTimes(backend.pid);
    const wall = performance.now() - t0;
    const tEpoch1 = Date.now();
    const pct = (end.selfMs - start.selfMs) / wall * 100;
    report.add({
        id: 'cpu.backend_idle.ten_sessions.percent_of_core',
        description: `CPU of the Theia backend process (node lib/backend/main.js; utime+stime from /proc/<pid>/stat) over ${windowS} s of idleness, with ${s.idleWorkspaces.length} fake sandy sessions launched by clicking their rows in the Sandy view (each tab open and attached, one window showing the Sandy view so state polls continue at the ${cadenceMs} ms cadence). Percent of one core. Samples: per-second values.`,
        value: round(pct, 2), unit: '% of one core', samples: perSecond, sampleUnit: '% of one core per 1 s',
        details: {
            liveSessions, sessionProcesses: sessions.length, windowS: round(wall / 1000, 1), cpuMs: round(end.selfMs - start.selfMs, 0),
            resolutionMs: 1000 / clkTck(),
            reapedChildrenCpuMs: round(end.childrenMs - start.childrenMs, 0),
            reapedChildrenNote: 'CPU of child processes the backend waited for in the window (the --print-state polls), not included in value',
            otherProcessesInBackendGroupPercent: round((groupCpuMs(others) - startOthers) / wall * 100, 2),
            otherProcessesNote: 'plugin host and other helpers in the backend\'s process group, not included in value',
            sessionsPercent: round((groupCpuMs(sessions) - startSessions) / wall * 100, 2),
            sessionsNote: 'CPU of the fake sandy processes of the ten sessions (daemon mode: each session\'s supervisor and its --attach client), not included in value'
        }
    });
    const polls = readInvocations(s).filter(r => r.args.startsWith('--print-state') && r.at >= tEpoch0 && r.at < tEpoch1);
    report.add({
        id: 'polls.one_window.per_minute',
        description: `Reference for polls.three_windows: --print-state per minute with one window, counted during the idle-CPU window (${windowS} s).`,
        value: round(polls.length * 60000 / (tEpoch1 - tEpoch0), 1), unit: 'polls/min',
        samples: polls.slice(1).map((p, i) => p.at - polls[i].at), sampleUnit: 'ms between polls',
        details: { windows: 1, cadenceMs, pollsInWindow: polls.length }
    });
}

/**
 * What a terminal costs the page while nothing happens: the focused sandy tab, then Theia's focused terminal
 * (the reference), each maximized and left alone, `windowS` seconds each after 3 s to settle; CPU of all the
 * bench's Chromium processes (renderer, GPU process, browser). A blinking cursor or caret makes the page
 * repaint all the time (issue 14: the sandy tab used about 14 % of a core so before its cursor stopped blinking).
 */
export async function benchPageIdle(report: Report, page: Page, t: TheiaTerminal, probe: CpuProbe, windowS: number): Promise<void> {
    const terminals: Array<{ key: string; label: string; show: () => Promise<void> }> = [
        { key: 'sandy_tab', label: 'the sandy tab', show: () => focusSandyTerminal(page) },
        { key: 'theia_terminal', label: 'Theia\'s terminal', show: () => focusTheiaTerminal(page, t) }
    ];
    for (const terminal of terminals) {
        await toggleMaximized(page, terminal.show);
        await terminal.show();
        await delay(3000);
        const perSecond: number[] = [];
        const byType: Array<Record<string, number>> = [];
        let total = 0;
        log(`  ${terminal.label} focused and idle for ${windowS} s`);
        for (let i = 0; i < windowS; i++) {
            const before = probe.snapshot();
            await delay(1000);
            const cpu = probe.since(before);
            perSecond.push(round(cpu.browserMs / 10, 1));
            byType.push(cpu.browserByType);
            total += cpu.browserMs;
        }
        const sum = (type: string) => byType.reduce((n, b) => n + (b[type] ?? 0), 0);
        report.add({
            id: `cpu.page_idle.${terminal.key}.percent_of_core`,
            description: `CPU of all Chromium processes while ${terminal.label}, maximized, has the focus and nothing is written to it, over ${windowS} s. Percent of one core; samples per second (10 ms resolution).`
                + (terminal.key === 'sandy_tab' ? ' The sandy tab\'s cursor follows terminal.integrated.cursorBlinking (off by default).' : ' The reference.'),
            value: round(total / windowS / 10, 2), unit: '% of one core', samples: perSecond, sampleUnit: '% of one core per 1 s',
            details: { windowS, rendererMs: sum('renderer'), gpuProcessMs: sum('gpu-process'), browserMs: sum('browser') }
        });
        await toggleMaximized(page, terminal.show);
    }
}

export async function exitSandySession(page: Page): Promise<void> {
    await focusSandyTerminal(page);
    await page.keyboard.type('exit');
    await page.keyboard.press('Enter');
}

export async function exitTheiaTerminal(page: Page, t: TheiaTerminal): Promise<void> {
    await focusTheiaTerminal(page, t);
    await page.keyboard.type('exit');
    await page.keyboard.press('Enter');
}

export { launchProject, openApp, openTheiaTerminal, theiaRunUntilTitle };
