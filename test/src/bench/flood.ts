/**
 * The bytes of the fake sandy's `flood <n>` (test/src/fake-sandy/tui.ts), so every terminal is fed
 * the same text: the fake itself in the sandy tab and the raw PTY run, a file with the same lines
 * `cat` through a cooked PTY elsewhere (its `\n` becomes `\r\n` by the tty's onlcr, as the fake writes).
 */
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
