/**
 * `BENCH_TRACE=1` (with `BENCH_PROFILE=1`): a Chromium trace of the same profiled flood run, summarised
 * per thread by the time its top-level tasks and the timeline events inside them took: where the page's
 * work goes beyond JavaScript (style, layout, paint, raster, compositing), which a CPU profile only shows
 * as "(program)".
 */

export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'blink', 'cc', 'gpu', 'viz'];

export interface TraceEvent {
    name: string;
    ph: string;
    pid: number;
    tid: number;
    ts: number;
    dur?: number;
    tdur?: number;
    args?: { name?: string };
}

/** Milliseconds per thread: its tasks' wall time (`RunTask` and the like), and the named events within, biggest first. */
export function summariseTrace(events: readonly TraceEvent[]): Record<string, unknown> {
    const threadNames = new Map<string, string>();
    for (const e of events) {
        if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) {
            threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
        }
    }
    const byThread = new Map<string, Map<string, number>>();
    for (const e of events) {
        if (e.ph !== 'X' || !e.dur) {
            continue;
        }
        const thread = `${threadNames.get(`${e.pid}:${e.tid}`) ?? 'thread'} (${e.pid}:${e.tid})`;
        const names = byThread.get(thread) ?? new Map<string, number>();
        byThread.set(thread, names);
        names.set(e.name, (names.get(e.name) ?? 0) + e.dur / 1000);
    }
    const out: Record<string, unknown> = {};
    const ranked = [...byThread].map(([thread, names]) => ({ thread, tasks: (names.get('RunTask') ?? 0) + (names.get('ThreadControllerImpl::RunTask') ?? 0), names }))
        .sort((a, b) => b.tasks - a.tasks).slice(0, 8);
    for (const { thread, tasks, names } of ranked) {
        out[thread] = {
            tasksMs: Math.round(tasks),
            eventsMs: Object.fromEntries([...names].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([n, ms]) => [n, Math.round(ms * 10) / 10]))
        };
    }
    return out;
}
