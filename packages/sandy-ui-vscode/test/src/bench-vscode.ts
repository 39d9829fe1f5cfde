/**
 * `npm run bench`, section `vscode`: the sandy tab's throughput in a real VS Code (code-server, the
 * linux .vsix, Chromium as the bench's), measured as the Theia tab is (test/src/bench/ui-bench.ts):
 * `flood <n>` typed into the fake sandy's daemon session, from the Enter keydown until `flood done <n>`
 * is in the webview's xterm rows, the tab taking the window (side bar and panel closed). The bench runs
 * this file as a child process (it lives with the plugin's tests, which own code-server): the result
 * as JSON on stdout, progress on stderr. Not a test: nothing here passes or fails.
 */
import { armFlood, floodResult } from '@sandy-ui/test/lib/bench/page';
import { CodeServer } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, terminalText } from './workbench';

const NAME = 'bench-vsx';

export interface VscodeFloodResult {
    lines: number;
    /** One time per completed run (ms), warm-up excluded. */
    ms: number[];
    failures: string[];
    warmupMs?: number;
    terminalSize?: string;
    codeServer: string;
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
    const server = new CodeServer(world, { label: 'bench', vsix: platformVsix(), folder: workspace, settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE'] } });
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
        const result: VscodeFloodResult = { lines, ms: [], failures: [], codeServer: '4.100.3' };
        for (let i = -1; i < samples; i++) {
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
            await page.keyboard.press('Enter');
            const r = await floodResult(terminal);
            log(`flood ${i < 0 ? 'warm-up' : `${i + 1}/${samples}`}: ${r.ok ? `${Math.round(r.ms)} ms` : r.reason}`);
            if (!r.ok) {
                result.failures.push(r.reason ?? 'failed');
            } else if (i < 0) {
                result.warmupMs = Math.round(r.ms * 10) / 10;
            } else {
                result.ms.push(r.ms);
            }
            await new Promise(r2 => setTimeout(r2, 300));
        }
        const sizes = [...(await terminalText(terminal)).matchAll(/size: (\d+×\d+)/g)];
        result.terminalSize = sizes[sizes.length - 1]?.[1];
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
