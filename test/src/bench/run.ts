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
import { Report, delay, log, round } from './report';
import {
    THROUGHPUT_TARGET, benchFloodComparison, benchIdleCpu, benchPolls, benchSandyEcho, benchTheiaEcho, benchTheiaFloodPanel, exitSandySession,
    exitTheiaTerminal, launchProject, openTheiaTerminal, prepareTheiaShell, theiaRunUntilTitle
} from './ui-bench';

function intEnv(name: string, fallback: number): number {
    const v = Number(process.env[name]);
    return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

const PRODUCT_POLL_MS = 5000;
const config = {
    floodLines: intEnv('BENCH_FLOOD_LINES', 50000),
    floodSamples: intEnv('BENCH_FLOOD_SAMPLES', 5),
    echoSamples: intEnv('BENCH_ECHO_SAMPLES', 200),
    /** SANDY_IDE_POLL_MS for the backend; unset = the product's 5 s (the idle-CPU number then reflects the default). */
    pollMs: process.env.BENCH_POLL_MS ? intEnv('BENCH_POLL_MS', PRODUCT_POLL_MS) : undefined,
    pollWindowS: intEnv('BENCH_POLL_WINDOW_S', 30),
    idleSessions: intEnv('BENCH_IDLE_SESSIONS', 10),
    idleWindowS: intEnv('BENCH_IDLE_WINDOW_S', 20),
    inPlace: process.env.BENCH_IN_PLACE === '1',
    keepScratch: process.env.BENCH_KEEP === '1',
    only: (process.env.BENCH_ONLY ?? '').split(',').map(x => x.trim()).filter(Boolean)
};
const SECTIONS = ['raw', 'flood', 'echo', 'polls', 'idle'] as const;
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

function chromiumVersion(): string | undefined {
    return browser?.version();
}

async function main(): Promise<number> {
    const s = scratch = createScratch(config.floodLines, config.idleSessions);
    log(`scratch ${s.root}`);
    const cadenceMs = config.pollMs ?? PRODUCT_POLL_MS;

    if (enabled('raw')) {
        await section('1a raw PTY throughput', () => benchRawPty(report, s, config.floodLines, config.floodSamples));
    }
    const needUi = SECTIONS.filter(x => x !== 'raw').some(enabled);
    if (needUi) {
        const started = await section('start backend and Chromium', async () => {
            backend = await Backend.start(s, { inPlace: config.inPlace, pollMs: config.pollMs });
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
            if (page && (enabled('flood') || enabled('echo'))) {
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
                    () => benchFloodComparison(report, page, t, s, config.floodLines, config.floodSamples));
                await section("1c' Theia terminal throughput in its default bottom panel",
                    () => benchTheiaFloodPanel(report, page, t, s, config.floodLines, Math.min(3, config.floodSamples)));
            }
            if (page) {
                await section('close the measured terminals', async () => {
                    if (t) {
                        await exitTheiaTerminal(page, t);
                    }
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
            }
            if (b && !b.alive) {
                report.errors.push({ section: 'backend', message: `the backend exited during the run; see ${b.logFile}` });
            }
        }
    }
    // Comparisons whose reference could not be measured are recorded as such, never guessed.
    if (enabled('flood') && !report.get('throughput.sandy_tab.mb_per_s')) {
        report.notMeasured('throughput.sandy_tab.mb_per_s', 'sandy tab throughput', 'MB/s', 'the section did not run (see errors)', THROUGHPUT_TARGET);
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
        config: { ...config, pollMs: config.pollMs ?? `${PRODUCT_POLL_MS} (product default)`, app: config.inPlace ? 'browser-app in place' : 'private copy of browser-app/lib' }
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
