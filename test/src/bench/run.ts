/**
 * `npm run bench`: performance numbers of the Sandy IDE as one JSON document on stdout (also written
 * to test/results/bench-<date>.json). Benchmarks, not tests: a missed target is reported, it does
 * not fail the run; the exit code is 1 only when a section could not run. See README.md here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, Browser } from 'playwright-core';
import { Backend, REPO, Scratch, createScratch, killScratchProcesses } from './app';
import { CHROMIUM, CHROMIUM_ARGS, focusTheiaTerminal, openApp, showSandyView, TheiaTerminal, webglRenderer } from './page';
import { benchRawPty } from './raw-pty';
import { benchBackendAttach, benchReattach, benchReload } from './attach-bench';
import { benchBackendPipeline } from './backend-pipeline';
import { benchSessionMemory } from './session-memory';
import { benchAttention } from './attention-bench';
import { benchVscodeFlood } from './vscode-bench';
import { CpuProbe } from './cpu-split';
import { summariseTrace, TRACE_CATEGORIES, TraceEvent } from './trace';
import { BundleMap, CpuProfile, InspectorSession, summariseProfile } from './profiler';
import { freePort } from '../support/processes';
import { Report, delay, log, round } from './report';
import {
    FloodProfiler, RAW_SHARE_TARGET, THROUGHPUT_TARGET, benchFloodComparison, benchIdleCpu, benchPageIdle, benchPolls, benchSandyEcho, benchTheiaEcho, benchTheiaFloodPanel, exitSandySession,
    exitTheiaTerminal, launchProject, openTheiaTerminal, prepareTheiaShell, theiaRunUntilTitle
} from './ui-bench';

function intEnv(name: string, fallback: number): number {
    const v = Number(process.env[name]);
    return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

function sessionModeEnv(): 'daemon' | 'foreground' | undefined {
    const v = process.env.BENCH_SESSION_MODE;
    if (v && v !== 'daemon' && v !== 'foreground') {
        throw new Error(`BENCH_SESSION_MODE must be daemon or foreground, not ${v}`);
    }
    return v === 'daemon' || v === 'foreground' ? v : undefined;
}

const PRODUCT_POLL_MS = 5000;
const config = {
    floodLines: intEnv('BENCH_FLOOD_LINES', 50000),
    floodSamples: intEnv('BENCH_FLOOD_SAMPLES', 5),
    pageIdleWindowS: intEnv('BENCH_PAGE_IDLE_WINDOW_S', 10),
    echoSamples: intEnv('BENCH_ECHO_SAMPLES', 200),
    /** SANDY_IDE_POLL_MS for the backend; unset = the product's 5 s (the idle-CPU number then reflects the default). */
    pollMs: process.env.BENCH_POLL_MS ? intEnv('BENCH_POLL_MS', PRODUCT_POLL_MS) : undefined,
    pollWindowS: intEnv('BENCH_POLL_WINDOW_S', 30),
    idleSessions: intEnv('BENCH_IDLE_SESSIONS', 10),
    idleWindowS: intEnv('BENCH_IDLE_WINDOW_S', 20),
    attentionWindowS: intEnv('BENCH_ATTENTION_WINDOW_S', 30),
    attachSamples: intEnv('BENCH_ATTACH_SAMPLES', 5),
    /** A CPU profile of the backend during one extra flood run per terminal (--inspect on the backend). */
    profile: process.env.BENCH_PROFILE === '1',
    /** `screen-on-main-thread`: the private copy's backend parses the sessions' screens on its main thread (an A/B experiment, see README). */
    experiment: process.env.BENCH_EXPERIMENT || undefined,
    /** `sandy.sessionMode` in the scratch user settings; unset = the product default (daemon). */
    sessionMode: sessionModeEnv(),
    inPlace: process.env.BENCH_IN_PLACE === '1',
    keepScratch: process.env.BENCH_KEEP === '1',
    trace: process.env.BENCH_TRACE === '1',
    only: (process.env.BENCH_ONLY ?? '').split(',').map(x => x.trim()).filter(Boolean)
};
const SECTIONS = ['raw', 'pipeline', 'memory', 'flood', 'normal', 'pageidle', 'echo', 'attach', 'polls', 'idle', 'attention', 'vscode'] as const;
/** Sections that need no Sandy IDE (Node alone, or their own code-server). */
const NODE_ONLY: readonly Section[] = ['raw', 'pipeline', 'vscode'];
type Section = typeof SECTIONS[number];
const enabled = (s: Section) => !config.only.length || config.only.includes(s);

const report = new Report();
let scratch: Scratch | undefined;
let backend: Backend | undefined;
let browser: Browser | undefined;
let cleaning: Promise<void> | undefined;
let webgl: string | undefined;
const loadAtStart = round(os.loadavg()[0], 2);

let interrupted = false;
/** The main page, for a screenshot when a section fails. */
let failurePage: import('playwright-core').Page | undefined;

async function section(name: string, body: () => Promise<void>): Promise<boolean> {
    if (interrupted) {
        return false;
    }
    const t0 = Date.now();
    log(`${name}…`);
    try {
        await body();
        log(`${name} done in ${round((Date.now() - t0) / 1000, 1)} s`);
        return true;
    } catch (e) {
        if (interrupted) {
            return false;
        }
        const message = e instanceof Error ? (e.stack ?? e.message) : String(e);
        report.errors.push({ section: name, message: message.split('\n').slice(0, 6).join('\n') });
        log(`${name} FAILED: ${message}`);
        if (failurePage && scratch) {
            // What the page showed when the section failed (kept with BENCH_KEEP=1).
            const shot = path.join(scratch.root, `failed-${name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}.png`);
            await failurePage.screenshot({ path: shot, timeout: 10_000 }).then(() => log(`  screenshot: ${shot}`), () => undefined);
        }
        return false;
    }
}

function cleanup(): Promise<void> {
    if (!cleaning) {
        cleaning = (async () => {
            await browser?.close().catch(() => undefined);
            await backend?.stop().catch(() => undefined);
            if (scratch) {
                const leftovers = killScratchProcesses(scratch);
                if (leftovers.length) {
                    log(`killed ${leftovers.length} leftover process(es) under ${scratch.root}`);
                }
                if (config.keepScratch) {
                    log(`scratch kept: ${scratch.root}`);
                } else {
                    await delay(200);
                    fs.rmSync(scratch.root, { recursive: true, force: true, maxRetries: 3 });
                }
            }
        })();
    }
    return cleaning;
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
        interrupted = true;
        log(`${sig}: cleaning up`);
        void cleanup().finally(() => process.exit(130));
    });
}

/**
 * BENCH_PROFILE=1: CPU profiles of one extra flood run per terminal, of the backend (its inspector)
 * and of the page (Chromium's DevTools protocol), summarised into `profiles`.
 */
const profiles: Record<string, unknown> = {};
function profiler(b: Backend, page: import('playwright-core').Page): FloodProfiler {
    let backendSession: InspectorSession | undefined;
    let pageSession: import('playwright-core').CDPSession | undefined;
    const bundles = new Map<string, BundleMap>();
    const bundle = (file: string) => {
        let m = bundles.get(file);
        if (!m) {
            m = new BundleMap(file);
            bundles.set(file, m);
        }
        return m;
    };
    const save = (label: string, profile: CpuProfile) => {
        const file = path.join(REPO, 'test', 'results', `bench-profile-${label}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify(profile));
        return path.relative(REPO, file);
    };
    return {
        async start() {
            backendSession ??= await InspectorSession.connect(b.inspectPort!);
            pageSession ??= await page.context().newCDPSession(page);
            for (const post of [(m: string, p?: Record<string, unknown>) => backendSession!.post(m, p), (m: string, p?: Record<string, unknown>) => pageSession!.send(m as 'Profiler.enable', p)]) {
                await post('Profiler.enable');
                await post('Profiler.setSamplingInterval', { interval: 250 });
                await post('Profiler.start');
            }
            if (config.trace) {
                await browser!.startTracing(page, { categories: TRACE_CATEGORIES });
            }
        },
        async stop(label, runMs) {
            const { profile: backendProfile } = await backendSession!.post<{ profile: CpuProfile }>('Profiler.stop');
            const { profile: pageProfile } = await pageSession!.send('Profiler.stop') as unknown as { profile: CpuProfile };
            const run = runMs === undefined ? null : round(runMs, 1);
            profiles[`backend.${label}`] = {
                runMs: run, file: save(`backend-${label}`, backendProfile),
                ...summariseProfile(backendProfile, bundle(path.join(b.appDir, 'lib', 'backend', 'main.js')), 'lib/backend/main.js')
            };
            profiles[`page.${label}`] = {
                runMs: run, file: save(`page-${label}`, pageProfile),
                ...summariseProfile(pageProfile, bundle(path.join(b.appDir, 'lib', 'frontend', 'bundle.js')), 'bundle.js')
            };
            if (config.trace) {
                const trace = JSON.parse((await browser!.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
                profiles[`trace.${label}`] = summariseTrace(trace.traceEvents);
            }
        }
    };
}

let chromiumSeen: string | undefined;

function chromiumVersion(): string | undefined {
    return browser?.version() ?? chromiumSeen;
}

/** The IDE's browser and backend closed (the scratch stays for the report's cleanup). */
async function closeIde(): Promise<void> {
    chromiumSeen = chromiumVersion();
    await browser?.close().catch(() => undefined);
    browser = undefined;
    await backend?.stop().catch(() => undefined);
    backend = undefined;
}

async function main(): Promise<number> {
    const s = scratch = createScratch(config.floodLines, config.idleSessions, config.sessionMode);
    log(`scratch ${s.root}`);
    const cadenceMs = config.pollMs ?? PRODUCT_POLL_MS;

    if (enabled('raw')) {
        await section('1a raw PTY throughput', () => benchRawPty(report, s, config.floodLines, config.floodSamples));
    }
    if (enabled('pipeline')) {
        await section("1a' backend pipeline in Node (core's supervisor, the fake's daemon session, headless screen on/off)",
            () => benchBackendPipeline(report, s, config.floodLines, config.floodSamples));
    }
    if (enabled('memory')) {
        await section(`7 backend heap per session in Node (${config.idleSessions} daemon sessions of the fake)`, () => benchSessionMemory(report, s, config.idleSessions));
    }
    if (enabled('attach')) {
        await section('5a backend attach latency in Node', () => benchBackendAttach(report, 20));
    }
    const needUi = SECTIONS.filter(x => !NODE_ONLY.includes(x)).some(enabled);
    if (needUi) {
        const started = await section('start backend and Chromium', async () => {
            backend = await Backend.start(s, { inPlace: config.inPlace, pollMs: config.pollMs, inspectPort: config.profile ? await freePort() : undefined, experiment: config.experiment });
            // Our signal handlers clean up (backend, sessions, scratch); Playwright's would exit first.
            browser = await chromium.launch({
                executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false
            });
        });
        if (started && backend && browser) {
            const b = backend;
            const br = browser;
            let main: Awaited<ReturnType<typeof openApp>> | undefined;
            let sandyReady = false;
            await section('open the IDE and launch the project from the Sandy view', async () => {
                main = await openApp(br, b.url);
                failurePage = main.page;
                webgl = await webglRenderer(main.page);
                await showSandyView(main.page);
                await launchProject(main.page, path.basename(s.workspace), s.workspace);
                sandyReady = true;
            });
            const page = main?.page;
            let theia: TheiaTerminal | undefined;
            if (page && sandyReady && enabled('echo')) {
                await section('2a sandy tab keystroke echo', () => benchSandyEcho(report, page, config.echoSamples));
            }
            if (page && (enabled('flood') || enabled('normal') || enabled('echo') || enabled('pageidle'))) {
                await section("open Theia's terminal", async () => {
                    const t = await openTheiaTerminal(page);
                    await focusTheiaTerminal(page, t);
                    // bash is up once it runs a command that retitles the tab.
                    await theiaRunUntilTitle(page, t, `printf '\\033]0;bench-ready\\007'`, 'bench-ready', 60_000);
                    await prepareTheiaShell(page, t, s);
                    theia = t;
                });
            }
            const t = theia;
            if (page && t && enabled('echo')) {
                await section('2b Theia terminal keystroke echo', () => benchTheiaEcho(report, page, t, config.echoSamples));
            }
            if (page && t && sandyReady && enabled('flood')) {
                await section('1b/1c throughput: sandy tab and Theia terminal, both maximized, alternating',
                    () => benchFloodComparison(report, page, t, s, config.floodLines, config.floodSamples, new CpuProbe(b.pid, s.root), config.profile ? profiler(b, page) : undefined));
                await section("1c' Theia terminal throughput in its default bottom panel",
                    () => benchTheiaFloodPanel(report, page, t, s, config.floodLines, Math.min(3, config.floodSamples)));
            }
            if (page && t && sandyReady && enabled('normal')) {
                await section('1d throughput on the normal screen (every byte drawn): sandy tab and Theia terminal, maximized, alternating',
                    () => benchFloodComparison(report, page, t, s, config.floodLines, Math.min(3, config.floodSamples), new CpuProbe(b.pid, s.root), undefined, 'normal'));
            }
            if (page && t && sandyReady && enabled('pageidle')) {
                await section('6 page CPU with a focused, idle terminal: sandy tab and Theia terminal, maximized',
                    () => benchPageIdle(report, page, t, new CpuProbe(b.pid, s.root), config.pageIdleWindowS));
            }
            if (page && t) {
                await section("close Theia's terminal", async () => {
                    await exitTheiaTerminal(page, t);
                    await delay(1000);
                });
            }
            if (page && sandyReady && enabled('attach')) {
                await section('5b reattach after closing the sandy tab', () => benchReattach(report, page, config.attachSamples));
                await section('5c reload with the sandy tab in front', () => benchReload(report, page, config.attachSamples));
            }
            if (page) {
                await section('close the sandy session', async () => {
                    if (sandyReady) {
                        await exitSandySession(page);
                    }
                    await delay(1500);
                });
            }
            if (page && enabled('polls')) {
                await section('3 state polls with three windows', () => benchPolls(report, br, b, s, page, cadenceMs, config.pollWindowS));
            }
            if (page && enabled('idle')) {
                await section(`4 backend idle CPU with ${config.idleSessions} sessions`, () => benchIdleCpu(report, b, s, page, config.idleWindowS, cadenceMs));
                if (enabled('attention')) {
                    await section('6 attention: ten sessions, three busy, the dashboard open; OSC 9 to the status bar',
                        () => benchAttention(report, b, s, page, br, config.attentionWindowS, cadenceMs, config.profile ? profiler(b, page) : undefined));
                }
            }
            if (b && !b.alive) {
                report.errors.push({ section: 'backend', message: `the backend exited during the run; see ${b.logFile}` });
            }
        }
    }
    if (enabled('vscode')) {
        // Last: its own code-server and Chromium, after the IDE's browser and backend are gone.
        await closeIde();
        await section('1d throughput: the sandy tab in VS Code (code-server, the .vsix)', () => benchVscodeFlood(report, config.floodLines, config.floodSamples));
    }
    // Comparisons whose reference could not be measured are recorded as such, never guessed.
    if (enabled('flood') && !report.get('throughput.sandy_tab.mb_per_s')) {
        report.notMeasured('throughput.sandy_tab.mb_per_s', 'sandy tab throughput', 'MB/s', 'the section did not run (see errors)', THROUGHPUT_TARGET);
    }
    if (enabled('flood')) {
        // The same runs against the raw PTY: its own entry, so each half of the target passes or fails on its own.
        const tab = report.get('throughput.sandy_tab.mb_per_s');
        report.add({
            id: 'throughput.sandy_tab_share_of_raw_pty.mb_per_s',
            description: 'sandy tab throughput (the value of throughput.sandy_tab.mb_per_s), against 25 % of the raw PTY\'s',
            value: tab?.value ?? null, unit: 'MB/s', samples: tab?.samples ?? [],
            ...(tab?.value === null || tab?.value === undefined ? { notMeasured: 'the sandy tab was not measured' } : {}),
            target: { ...RAW_SHARE_TARGET! }
        });
    }
    if (enabled('flood') && !report.get('throughput.theia_terminal.mb_per_s')) {
        report.notMeasured('throughput.theia_terminal.mb_per_s', "Theia's terminal throughput", 'MB/s', 'the section did not run (see errors)');
    }
    if (enabled('echo') && !report.get('latency.echo.theia_terminal.paint.p50_ms')) {
        report.notMeasured('latency.echo.theia_terminal.paint.p50_ms', "Theia's terminal keystroke echo", 'ms', 'the section did not run (see errors)');
    }
    return report.errors.length ? 1 : 0;
}

async function finish(code: number): Promise<void> {
    const version = chromiumVersion();
    await cleanup();
    const doc = report.toJSON({
        host: { loadAverage1mAtEnd: round(os.loadavg()[0], 2), loadAverage1mAtStart: loadAtStart, platform: `${os.type()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGB: round(os.totalmem() / 2 ** 30, 1), node: process.version, chromium: version, webgl },
        config: { ...config, pollMs: config.pollMs ?? `${PRODUCT_POLL_MS} (product default)`, sessionMode: config.sessionMode ?? 'daemon (product default)', app: config.inPlace ? 'browser-app in place' : 'private copy of browser-app/lib' },
        ...(Object.keys(profiles).length ? { profiles } : {})
    });
    const text = JSON.stringify(doc, undefined, 2);
    const dir = path.join(REPO, 'test', 'results');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `bench-${new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
    fs.writeFileSync(file, text + '\n');
    log(`written ${path.relative(REPO, file)}`);
    process.exitCode = code;
    process.stdout.write(text + '\n', () => {
        // Everything was closed; if some handle still keeps Node alive, do not hang.
        setTimeout(() => process.exit(code), 2000).unref();
    });
}

main().then(finish, async e => {
    report.errors.push({ section: 'bench', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    log(`fatal: ${e instanceof Error ? e.message : String(e)}`);
    await finish(1);
});
