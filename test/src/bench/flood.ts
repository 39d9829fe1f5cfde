/**
 * The bytes of the fake sandy's `flood <n>` (test/src/fake-sandy/tui.ts), so every terminal is fed
 * the same text: the fake itself in the sandy tab and the raw PTY run, a file with the same lines
 * `cat` through a cooked PTY elsewhere (its `\n` becomes `\r\n` by the tty's onlcr, as the fake writes).
 */
import * as fs from 'fs';

const FILLER = 'the quick brown fox jumps over the lazy dog 0123456789';

export function floodLines(n: number): string[] {
    const lines: string[] = [];
    for (let k = 1; k <= n; k++) {
        lines.push(`flood ${k}/${n} ${FILLER}`);
    }
    lines.push(`flood done ${n}`);
    return lines;
}

/** Bytes the terminal receives for `flood <n>` (lines end in CR LF; all ASCII). */
export function floodBytes(n: number): number {
    return floodLines(n).reduce((sum, line) => sum + line.length + 2, 0);
}

/** File content whose `cat` on a tty yields exactly the flood's bytes. */
export function floodFileText(n: number): string {
    return floodLines(n).join('\n') + '\n';
}

/** When the fake began a flood and wrote its last line, in ms after the Enter keydown (its FAKE_SANDY_EVENT_LOG). */
export interface FloodProducer {
    startMs: number;
    writtenMs: number;
}

/**
 * The fake's `flood-start <n>` and `flood-written <n>` for the run whose Enter keydown was at `enterEpochMs`
 * (the first pair logged after it), or undefined when the fake logged none. Both clocks are the machine's.
 */
export function floodProducer(eventLog: string, enterEpochMs: number, n: number): FloodProducer | undefined {
    let text: string;
    try {
        text = fs.readFileSync(eventLog, 'utf8');
    } catch {
        return undefined;
    }
    let start: number | undefined;
    for (const line of text.split('\n')) {
        const [at, event, count] = line.split(' ');
        const t = Number(at);
        // The page's clock (timeOrigin + now) and the fake's Date.now() are the same wall clock, rounded differently.
        if (count !== String(n) || !(t >= enterEpochMs - 50)) {
            continue;
        }
        if (event === 'flood-start' && start === undefined) {
            start = t;
        } else if (event === 'flood-written' && start !== undefined) {
            return { startMs: tenths(start - enterEpochMs), writtenMs: tenths(t - enterEpochMs) };
        }
    }
    return undefined;
}

function tenths(ms: number): number {
    return Math.round(ms * 10) / 10;
}
