/**
 * What the IDE reads from `sandy --start` output (CONTRACT §6.3, fx 93, 33; sandy:6090, 8025): the
 * container of the session that became ready, and the launch gates sandy closed by itself because
 * it could not ask (a sandy whose `--start` has no TTY pre-pass drops pending privileged keys and
 * skips the project Dockerfile instead of prompting). Pure: ANSI colours are stripped first, because
 * `--start` forces them even without a TTY.
 */

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]/g;

export function stripAnsi(text: string): string {
    return text.replace(ANSI, '');
}

/** A launch gate sandy closed without asking: the session runs, tighter than the user configured. */
export type ClosedGate = 'dropped-keys' | 'skipped-dockerfile';

const CLOSED_GATES: ReadonlyArray<[ClosedGate, RegExp]> = [
    ['dropped-keys', /^\[sandy\] Non-interactive session\s+\S+\s+dropping these keys/],
    ['skipped-dockerfile', /^\[sandy\] Non-interactive session\s+\S+\s+NOT building the project image/]
];

/**
 * Reads `--start` output as it streams: whole lines only (a chunk may end mid-line), at most a
 * bounded tail kept (a hostile agent cannot grow it: `--start` output is sandy's own, but the
 * supervisor log it streams includes the container's).
 */
export class DaemonStartReader {
    protected partial = '';
    containerId: string | undefined;
    readonly closedGates = new Set<ClosedGate>();
    /** How far `--start` got: building images, starting the container, ready to attach. */
    phase: 'building' | 'starting' | 'ready' | undefined;

    push(data: string): void {
        const text = this.partial + data;
        const lines = text.split(/\r?\n|\r/);
        this.partial = (lines.pop() ?? '').slice(-4096);
        for (const raw of lines) {
            this.line(stripAnsi(raw));
        }
    }

    /** The end of the output: a last line without its newline counts too. */
    end(): void {
        if (this.partial) {
            this.line(stripAnsi(this.partial));
            this.partial = '';
        }
    }

    protected line(line: string): void {
        // `Daemon session ready: <name> (container <12 hex>)` and `Daemon session already running for <ws>: <name> (container <12>)`.
        // sandy's own lines only: a container's log tail in the same stream cannot pose as one.
        const ready = /^\[sandy\] Daemon session (?:ready|already running for .*?): \S+ \(container ([0-9a-z]{12})\)\s*$/.exec(line);
        if (ready) {
            this.containerId = ready[1];
            this.phase = 'ready';
        } else if (/^\[sandy\] (Building|Rebuilding) .*image/.test(line) && this.phase === undefined) {
            this.phase = 'building';
        } else if (/^\[sandy\] (Creating new sandbox|Reusing sandbox|Launching .* sandbox)/.test(line) && this.phase !== 'ready') {
            this.phase = 'starting';
        }
        for (const [gate, re] of CLOSED_GATES) {
            if (re.test(line)) {
                this.closedGates.add(gate);
            }
        }
    }
}
