import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { REPO } from './app';
import { Report, log } from './report';
import { PRODUCER_NOTE, RAW_SHARE_TARGET, THROUGHPUT_TARGET, throughputMetrics } from './ui-bench';
import type { VscodeFloodResult } from './vscode-result';

const VSCODE_CPU_NOTE = 'cpuPerRun: CPU time (ms, /proc utime+stime, 10 ms resolution) during each measured run by role: code-server\'s processes (the extension host hosts the PTY and core\'s supervisor), the fake sandy\'s (--start: its daemon supervisor, --attach: its client) and Chromium\'s by type; windowMs: the wall time it was counted over, coresBusy: that CPU over that time, in cores, machineCores: the whole machine\'s busy CPU over the same time (/proc/stat, kernel work included). Diagnostics, not part of the value.';

/** The plugin's side of the section (it owns code-server): packages/sandy-ui-vscode/test/src/bench-vscode.ts. */
const SCRIPT = path.join(REPO, 'packages', 'sandy-ui-vscode', 'test', 'lib', 'bench-vscode.js');


/**
 * 1d: the sandy tab in a real VS Code (code-server 4.100.3, the linux .vsix), `flood <n>` measured as
 * in the Sandy IDE (1b), then set against the same targets: 2x the Theia terminal of this run (the
 * reference the issue names for a terminal) and a quarter of the raw PTY.
 */
export async function benchVscodeFlood(report: Report, lines: number, samples: number): Promise<void> {
    if (!fs.existsSync(SCRIPT)) {
        throw new Error(`${path.relative(REPO, SCRIPT)} is not built: npx tsc -b packages/sandy-ui-vscode/test (and npm run package -w sandy-ui for the .vsix)`);
    }
    const result = await new Promise<VscodeFloodResult>((resolve, reject) => {
        const child = spawn(process.execPath, [SCRIPT], {
            env: { ...process.env, BENCH_FLOOD_LINES: String(lines), BENCH_FLOOD_SAMPLES: String(samples) },
            stdio: ['ignore', 'pipe', 'pipe']
        });
        let out = '';
        let err = '';
        child.stdout.on('data', d => out += d);
        child.stderr.on('data', d => {
            err += d;
            for (const line of String(d).split('\n').filter(l => l.startsWith('[bench vscode]'))) {
                log(`  ${line.slice('[bench vscode] '.length)}`);
            }
        });
        child.on('error', reject);
        child.on('exit', code => {
            try {
                if (code !== 0) {
                    throw new Error(`exit ${code}: ${err.split('\n').slice(-8).join('\n')}`);
                }
                resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as VscodeFloodResult);
            } catch (e) {
                reject(e);
            }
        });
    });
    throughputMetrics(report, 'vscode_sandy_tab', result.lines, result.ms,
        `The sandy tab in VS Code (code-server ${result.codeServer}, the linux .vsix; a webview running core's xterm.js view, the PTY in the extension host), the editor taking the window (side bar and panel closed): \`flood ${result.lines}\` typed into the fake sandy; from the Enter keydown until \`flood done ${result.lines}\` is in the webview's .xterm-rows.`,
        { terminalSize: result.terminalSize, renderer: result.renderer, failures: result.failures, warmupMs: result.warmupMs, cpuPerRun: result.cpuPerRun, cpuNote: VSCODE_CPU_NOTE, producerPerRun: result.producerPerRun, producerNote: PRODUCER_NOTE, ...(result.pageProfile ? { pageProfile: result.pageProfile } : {}) },
        THROUGHPUT_TARGET);
    const tab = report.get('throughput.vscode_sandy_tab.mb_per_s');
    report.add({
        id: 'throughput.vscode_sandy_tab_share_of_raw_pty.mb_per_s',
        description: 'the sandy tab in VS Code (the value of throughput.vscode_sandy_tab.mb_per_s), against 25 % of the raw PTY\'s',
        value: tab?.value ?? null, unit: 'MB/s', samples: tab?.samples ?? [],
        ...(tab?.value === null || tab?.value === undefined ? { notMeasured: 'the VS Code tab was not measured' } : {}),
        target: { ...RAW_SHARE_TARGET! }
    });
}
