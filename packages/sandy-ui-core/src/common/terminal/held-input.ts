/** Characters of input a view holds for a stream still attaching; what would pass it is refused. */
export const MAX_HELD_INPUT_CHARS = 1_000_000;

/** The log line for input refused while attaching (past {@link MAX_HELD_INPUT_CHARS}). */
export function heldInputDroppedText(chars: number): string {
    return `sandy terminal: ${chars} characters of input typed while the tab was attaching to its session were more than it holds (${MAX_HELD_INPUT_CHARS}) and did not reach the session`;
}

/**
 * Input typed into a view while its stream to the session is still attaching: a reattach, a reloaded
 * page, a restarted backend, where the view already shows the screen (the old one, or the new client's
 * redraw) before the attachment can take keys. It is held, in order, and goes to the session once the
 * attachment is there ({@link open}); before, it was dropped, and keys typed right after a window reload
 * vanished. Bounded: a paste larger than {@link MAX_HELD_INPUT_CHARS} while attaching is refused and said.
 */
export class HeldInput {
    protected held: string[] = [];
    protected chars = 0;
    protected target: ((data: string) => void) | undefined;
    protected disposed = false;

    /** `onRefused`: input past the bound, with its size (the host logs {@link heldInputDroppedText}). */
    constructor(protected readonly onRefused?: (chars: number) => void) { }

    write(data: string): void {
        if (this.disposed || !data) {
            return;
        }
        if (this.target) {
            this.target(data);
        } else if (this.chars + data.length <= MAX_HELD_INPUT_CHARS) {
            this.held.push(data);
            this.chars += data.length;
        } else {
            this.onRefused?.(data.length);
        }
    }

    /** The attachment is there: what was held goes to it first, then every later write. */
    open(target: (data: string) => void): void {
        if (this.disposed) {
            return;
        }
        this.target = target;
        const held = this.held;
        this.held = [];
        this.chars = 0;
        for (const data of held) {
            target(data);
        }
    }

    dispose(): void {
        this.disposed = true;
        this.target = undefined;
        this.held = [];
        this.chars = 0;
    }
}
