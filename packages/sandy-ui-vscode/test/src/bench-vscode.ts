/**
 * `npm run bench`, section `vscode`: the sandy tab's throughput in a real VS Code (code-server, the
 * linux .vsix, Chromium as the bench's), measured as the Theia tab is (test/src/bench/ui-bench.ts):
 * `flood <n>` typed into the fake sandy's daemon session, from the Enter keydown until `flood done <n>`
 * is in the webview's xterm rows, the tab taking the window (side bar and panel closed). The bench runs
 * this file as a child process (it lives with the plugin's tests, which own code-server): the result
 * as JSON on stdout, progress on stderr. Not a test: nothing here passes or fails.
 */
import * as fs from 'fs';
import * as path from 'path';
import { floodProducer } from '@sandy-ui/test/lib/bench/flood';
import { armFlood, floodResult } from '@sandy-ui/test/lib/bench/page';
import { cpuOf, cpuTimes, descendants, machineCpu } from '@sandy-ui/test/lib/bench/proc';
import { CpuProfile, summariseProfile } from '@sandy-ui/test/lib/bench/profiler';
import type { VscodeFloodResult } from '@sandy-ui/test/lib/bench/vscode-result';
import { CodeServer } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, terminalText } from './workbench';

const NAME = 'bench-vsx';


/** A process's role for the CPU split: Chromium's `--type=`, code-server's (extensionHost, ptyHost…), or node's script and first flag (the fake's supervisor, attach client). */
function role(pid: number): string {
    try {
        const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        const argv = cmdline.split('\0').filter(Boolean);
        // Chromium's zygote children rewrite their command line into one space-separated string.
        const type = /(?:^|[\s\0])--type=([\w-]+)/.exec(cmdline)?.[1];
        if (/chrom/i.test(comm)) {
            return `chromium ${type ?? 'browser'}`;
        }
        if (type) {
            return `${comm} ${type}`;
        }
        const script = argv.findIndex(a => a.endsWith('.js'));
        return script < 0 ? comm : `${comm} ${path.basename(argv[script])}${argv[script + 1]?.startsWith('--') ? ` ${argv[script + 1]}` : ''}`;
    } catch {
        return 'gone';
    }
}

/** CPU (ms) of the world's processes (code-server, its extension host, the sessions) and of this process's Chromium, by role. */
function cpuRoles(world: World): Map<number, { role: string; ms: number }> {
    const pids = [...new Set([...world.processes(), ...descendants(process.pid)])];
    const out = new Map<number, { role: string; ms: number }>();
    for (const [pid, ms] of cpuOf(pids)) {
        const r = role(pid);
        out.set(pid, { role: r, ms });
        if (r === 'node extensionHost') {
            // Of it, its main thread's (the rest: the sessions' screen worker, V8's and libuv's helpers); not counted twice.
            try {
                out.set(-pid, { role: `${r} ${MAIN_THREAD_OF_IT}`, ms: cpuTimes(pid, pid).selfMs });
            } catch {
                // Gone.
            }
        }
    }
    return out;
}

/** The role suffix of a part of a process already counted whole. */
const MAIN_THREAD_OF_IT = '(of it, its main thread)';

/**
 * CPU (ms) by role between two snapshots taken `windowMs` apart, with their total in cores over that window
 * and the whole machine's (`machineBusyMs`: /proc/stat's busy time over the window, kernel work included).
 */
function cpuSince(before: Map<number, { role: string; ms: number }>, after: Map<number, { role: string; ms: number }>, windowMs: number, machineBusyMs: number): Record<string, number> {
    const split: Record<string, number> = {};
    let total = 0;
    for (const [pid, { role: r, ms }] of after) {
        const used = ms - (before.get(pid)?.ms ?? 0);
        if (used > 0) {
            split[r] = (split[r] ?? 0) + used;
            total += r.endsWith(MAIN_THREAD_OF_IT) ? 0 : used;
        }
    }
    const cores = (ms: number) => Math.round(ms / Math.max(1, windowMs) * 100) / 100;
    return { ...split, windowMs: Math.round(windowMs), coresBusy: cores(total), machineCores: cores(machineBusyMs) };
}

function log(message: string): void {
    process.stderr.write(`[bench vscode] ${message}\n`);
}

async function main(): Promise<VscodeFloodResult> {
    const lines = Number(process.env.BENCH_FLOOD_LINES) || 50_000;
    const samples = Number(process.env.BENCH_FLOOD_SAMPLES) || 5;
    requireCompiledFake();
    CodeServer.requireInstalled();
    const world = new World('bench');
    const workspace = world.workspace(NAME);
    // The fake logs when each flood starts and ends (its FAKE_SANDY_EVENT_LOG, passed to sandy as a user's setting would).
    const eventLog = path.join(world.root, 'fake-events.log');
    const server = new CodeServer(world, {
        label: 'bench', vsix: platformVsix(), folder: workspace, env: { FAKE_SANDY_EVENT_LOG: eventLog },
        settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_EVENT_LOG'] }
    });
    let browser: Awaited<ReturnType<typeof openWorkbench>>['browser'] | undefined;
    try {
        server.installExtension();
        await server.start();
        const opened = await openWorkbench(server);
        browser = opened.browser;
        const { page, bench } = opened;
        await bench.openSandyView();
        await bench.waitForProject(NAME);
        await bench.projectContextMenu(NAME, 'Launch');
        await bench.waitForTab(t => t.startsWith(`sandy: ${NAME}`), 'the sandy tab');
        const terminal = await bench.visibleWebview('terminal', 60_000);
        // The agent first: the new tab takes the focus when it is drawn, which would close a palette opened before.
        await poll(async () => (await terminalText(terminal)).includes('type \'help\' for commands'), { message: 'the agent', timeout: 60_000 });
        await bench.runCommand('View: Close Primary Side Bar');
        await bench.runCommand('View: Close Panel').catch(() => undefined);
        await new Promise(r => setTimeout(r, 1500));
        const textarea = terminal.locator('.xterm-helper-textarea');
        const result: VscodeFloodResult = { lines, ms: [], failures: [], codeServer: '4.100.3', cpuPerRun: [], producerPerRun: [] };
        // The fake draws its size in its box (rows×cols), which the floods then scroll away.
        const sizes = [...(await terminalText(terminal)).matchAll(/size: (\d+×\d+)/g)];
        result.terminalSize = sizes[sizes.length - 1]?.[1];
        result.renderer = await terminal.$eval('[data-sandy-renderer]', el => (el as HTMLElement).dataset.sandyRenderer).catch(() => undefined);
        // BENCH_PROFILE=1: one more run, not measured, with a CPU profile of the page (the workbench and its webviews share a renderer).
        const profiled = process.env.BENCH_PROFILE === '1' ? samples : -2;
        for (let i = -1; i < samples || i === profiled; i++) {
            await textarea.focus();
            if ((await terminalText(terminal)).includes('flood done')) {
                // A clean screen, so the last run's final line cannot end this one.
                await page.keyboard.type('clear');
                await page.keyboard.press('Enter');
                await poll(async () => !(await terminalText(terminal)).includes('flood done'), { message: 'a clear screen' });
                await new Promise(r => setTimeout(r, 300));
            }
            await page.keyboard.type(`flood ${lines}`);
            await armFlood(terminal, { rowsSelector: '.xterm-rows', doneText: `flood done ${lines}`, timeoutMs: 180_000 });
            const cdp = i === profiled ? await page.context().newCDPSession(page) : undefined;
            if (cdp) {
                await cdp.send('Profiler.enable');
                await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
                await cdp.send('Profiler.start');
            }
            const cpuBefore = cpuRoles(world);
            const machineBefore = machineCpu().busyMs;
            const cpuFrom = performance.now();
            await page.keyboard.press('Enter');
            const r = await floodResult(terminal);
            const cpuAfter = cpuRoles(world);
            const cpu = cpuSince(cpuBefore, cpuAfter, performance.now() - cpuFrom, machineCpu().busyMs - machineBefore);
            if (cdp) {
                const { profile } = await cdp.send('Profiler.stop');
                result.pageProfile = summariseProfile(profile as unknown as CpuProfile, undefined, '', 30);
                log(`flood profiled: ${r.ok ? `${Math.round(r.ms)} ms` : r.reason}`);
                await cdp.detach();
                continue;
            }
            log(`flood ${i < 0 ? 'warm-up' : `${i + 1}/${samples}`}: ${r.ok ? `${Math.round(r.ms)} ms` : r.reason}`);
            if (!r.ok) {
                result.failures.push(r.reason ?? 'failed');
            } else if (i < 0) {
                result.warmupMs = Math.round(r.ms * 10) / 10;
            } else {
                result.ms.push(r.ms);
                result.cpuPerRun.push(cpu);
                result.producerPerRun.push(floodProducer(eventLog, r.startEpochMs, lines) ?? null);
            }
            await new Promise(r2 => setTimeout(r2, 300));
        }
        return result;
    } finally {
        world.sandy(['--stop'], workspace);
        await browser?.close().catch(() => undefined);
        await world.dispose(!!process.env.BENCH_KEEP);
    }
}

if (require.main === module) {
    main().then(result => {
        process.stdout.write(JSON.stringify(result) + '\n');
        process.exit(0);
    }, e => {
        log(e instanceof Error ? (e.stack ?? e.message) : String(e));
        process.exit(1);
    });
}
