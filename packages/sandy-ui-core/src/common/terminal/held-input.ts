/** Characters of input a view holds for a stream still attaching; what would pass it is refused. */
export const MAX_HELD_INPUT_CHARS = 1_000_000;

/**
 * Held input older than this when the attachment comes is not sent: it was typed at a screen that long
 * out of date (a backend restarting, a session flooding while its screen is serialised), and the session
 * it would reach may not be the one the user saw.
 */
export const MAX_HELD_INPUT_AGE_MS = 2_000;

/** Why held input did not reach the session: past the bound, held too long, or what it waited for ended first. */
export type HeldInputDrop = 'too-much' | 'too-old' | 'ended';

/** The log line for input typed while attaching that did not reach the session. */
export function heldInputDroppedText(chars: number, why: HeldInputDrop = 'too-much'): string {
    const reason = why === 'too-much' ? `more than the tab holds (${MAX_HELD_INPUT_CHARS} characters)`
        : why === 'too-old' ? `typed more than ${MAX_HELD_INPUT_AGE_MS / 1000} s before it attached`
            : 'the sandy --attach client it waited for ended first';
    return `sandy terminal: ${chars} characters of input typed while the tab was attaching to its session did not reach the session: ${reason}`;
}

/**
 * Input typed into a view while its stream to the session is still attaching: a reattach, a reloaded
 * page, where the view already shows the screen (the old one, or the new client's redraw) before the
 * attachment can take keys. It is held, in order, and goes to the session once the attachment is there
 * ({@link open}); before, it was dropped, and keys typed right after a window reload vanished. Bounded:
 * once a write would hold more than {@link MAX_HELD_INPUT_CHARS}, it and everything after it until the
 * attachment are refused (a paste must not arrive without its start, nor an Enter without its paste);
 * input held longer than {@link MAX_HELD_INPUT_AGE_MS} is not sent. Both are said ({@link heldInputDroppedText}).
 */
export class HeldInput {
    protected held: string[] = [];
    protected chars = 0;
    /** When the oldest held input was typed. */
    protected since = 0;
    protected refused = false;
    protected target: ((data: string) => void) | undefined;
    protected disposed = false;

    /** A view's held input whose drops go to `warn` (the host's log), said as core says them. */
    static logging(warn: (line: string) => void, maxAgeMs = MAX_HELD_INPUT_AGE_MS): HeldInput {
        return new HeldInput((chars, why) => warn(heldInputDroppedText(chars, why)), Date.now, maxAgeMs);
    }

    /**
     * `onDropped`: input that did not reach the session, its size and why (the host logs {@link heldInputDroppedText}).
     * `maxAgeMs`: held longer than this, it is not sent (Infinity where the wait itself is bounded).
     */
    constructor(
        protected readonly onDropped?: (chars: number, why: HeldInputDrop) => void, protected readonly now: () => number = Date.now,
        protected readonly maxAgeMs = MAX_HELD_INPUT_AGE_MS
    ) { }

    write(data: string): void {
        if (this.disposed || !data) {
            return;
        }
        if (this.target) {
            this.target(data);
        } else if (!this.refused && this.chars + data.length <= MAX_HELD_INPUT_CHARS) {
            if (!this.held.length) {
                this.since = this.now();
            }
            this.held.push(data);
            this.chars += data.length;
        } else {
            this.refused = true;
            this.onDropped?.(data.length, 'too-much');
        }
    }

    /** The attachment is there: what was held goes to it first (unless too old), then every later write. */
    open(target: (data: string) => void): void {
        if (this.disposed) {
            return;
        }
        this.target = target;
        const held = this.held;
        const chars = this.chars;
        this.held = [];
        this.chars = 0;
        this.refused = false;
        if (held.length && this.now() - this.since > this.maxAgeMs) {
            this.onDropped?.(chars, 'too-old');
            return;
        }
        for (const data of held) {
            target(data);
        }
    }

    /** Nothing more goes anywhere; `ended`: what was held is said dropped (what it waited for is gone). */
    dispose(ended = false): void {
        if (ended && !this.disposed && this.chars) {
            this.onDropped?.(this.chars, 'ended');
        }
        this.disposed = true;
        this.target = undefined;
        this.held = [];
        this.chars = 0;
    }
}
