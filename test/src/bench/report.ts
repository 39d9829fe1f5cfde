/**
 * The JSON document `npm run bench` prints: one entry per metric with its value, unit, the raw
 * samples it was computed from and, where the spec sets one, the target and whether it was met.
 */

export interface Target {
    /** What the target says, in words. */
    description: string;
    /** `value <comparator> threshold` must hold. */
    comparator: '<=' | '>=';
    /** The threshold; null when the reference it depends on could not be measured. */
    threshold: number | null;
    /** The metric the threshold comes from, when it is another measurement. */
    reference?: string;
    /** The threshold is the reference's value times this (default 1). */
    factor?: number;
}

export interface Metric {
    id: string;
    description: string;
    /** null = not measured (see `notMeasured`). */
    value: number | null;
    unit: string;
    samples: number[];
    sampleUnit?: string;
    stats?: Stats;
    target?: Target;
    /** Only present with a target: true/false, or null when either side was not measured. */
    pass?: boolean | null;
    /** value / threshold, to tell a clear result from one within noise. */
    ratioToTarget?: number | null;
    /** Why there is no value (never a made-up number). */
    notMeasured?: string;
    details?: Record<string, unknown>;
}

export interface Stats {
    n: number;
    min: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    mean: number;
}

/** Nearest-rank percentile of an unsorted array. */
export function percentile(values: number[], p: number): number {
    if (!values.length) {
        return NaN;
    }
    const sorted = [...values].sort((a, b) => a - b);
    const rank = Math.ceil((p / 100) * sorted.length);
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function median(values: number[]): number {
    if (!values.length) {
        return NaN;
    }
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function round(n: number, digits = 2): number {
    const f = 10 ** digits;
    return Math.round(n * f) / f;
}

export function stats(values: number[], digits = 2): Stats | undefined {
    if (!values.length) {
        return undefined;
    }
    return {
        n: values.length,
        min: round(Math.min(...values), digits),
        p50: round(percentile(values, 50), digits),
        p90: round(percentile(values, 90), digits),
        p99: round(percentile(values, 99), digits),
        max: round(Math.max(...values), digits),
        mean: round(values.reduce((a, b) => a + b, 0) / values.length, digits)
    };
}

export class Report {
    readonly metrics = new Map<string, Metric>();
    readonly errors: Array<{ section: string; message: string }> = [];
    readonly startedAt = new Date();

    add(metric: Metric): Metric {
        this.metrics.set(metric.id, metric);
        return metric;
    }

    /** Record a metric that could not be measured, with the reason (no number is invented). */
    notMeasured(id: string, description: string, unit: string, reason: string, target?: Target): Metric {
        return this.add({ id, description, value: null, unit, samples: [], notMeasured: reason, ...(target ? { target, pass: null } : {}) });
    }

    get(id: string): Metric | undefined {
        return this.metrics.get(id);
    }

    /** Resolve targets that refer to other metrics, then decide pass/fail. */
    evaluateTargets(): void {
        for (const m of this.metrics.values()) {
            if (!m.target) {
                continue;
            }
            if (m.target.reference) {
                const ref = this.metrics.get(m.target.reference);
                m.target.threshold = ref?.value === null || ref?.value === undefined ? null : round(ref.value * (m.target.factor ?? 1), 3);
            }
            if (m.value === null || m.target.threshold === null || !Number.isFinite(m.value) || !Number.isFinite(m.target.threshold)) {
                m.pass = null;
                m.ratioToTarget = null;
            } else {
                m.pass = m.target.comparator === '<=' ? m.value <= m.target.threshold : m.value >= m.target.threshold;
                m.ratioToTarget = m.target.threshold ? round(m.value / m.target.threshold, 2) : null;
            }
        }
    }

    toJSON(extra: Record<string, unknown>): Record<string, unknown> {
        this.evaluateTargets();
        const metrics = [...this.metrics.values()];
        const withTargets = metrics.filter(m => m.target);
        return {
            benchmark: 'sandy-ui',
            startedAt: this.startedAt.toISOString(),
            durationS: round((Date.now() - this.startedAt.getTime()) / 1000, 1),
            ...extra,
            summary: {
                targets: withTargets.length,
                passed: withTargets.filter(m => m.pass === true).length,
                failed: withTargets.filter(m => m.pass === false).map(m => m.id),
                undecided: withTargets.filter(m => m.pass === null || m.pass === undefined).map(m => m.id),
                notMeasured: metrics.filter(m => m.value === null).map(m => m.id)
            },
            metrics,
            errors: this.errors
        };
    }
}

export function log(message: string): void {
    // stdout carries only the JSON document; progress goes to stderr.
    process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export function delay(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
}
