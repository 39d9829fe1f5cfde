import type { FloodProducer } from './flood';
import type { ProfileSummary } from './profiler';

/**
 * What the plugin's side of the `vscode` section (packages/sandy-ui-vscode/test/src/bench-vscode.ts, a child
 * process) prints as JSON, and vscode-bench.ts reads: one type for both.
 */
export interface VscodeFloodResult {
    lines: number;
    /** One time per completed run (ms), warm-up excluded. */
    ms: number[];
    failures: string[];
    warmupMs?: number;
    terminalSize?: string;
    /** The renderer the tab drew with (its `data-sandy-renderer`: `dom` or `webgl`). */
    renderer?: string;
    codeServer: string;
    /** Per measured run: CPU (ms, /proc utime+stime, 10 ms resolution) by process role, the window's wall time and the cores busy over it. */
    cpuPerRun: Array<Record<string, number>>;
    /** Per measured run: when the fake began the flood and wrote its last line (ms after the Enter keydown), null when not logged. */
    producerPerRun: Array<FloodProducer | null>;
    /** BENCH_PROFILE=1: the page's CPU profile over one extra run (self time by file and function). */
    pageProfile?: ProfileSummary;
}
