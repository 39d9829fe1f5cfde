/**
 * A bounded buffer of the most recent terminal output, so a view that (re)attaches to a running
 * session is not blank (as Theia's TerminalProcess keeps a ring buffer for reconnects).
 *
 * Trimming never cuts inside an escape sequence the naive way would leave half-printed: we drop whole
 * chunks first and, when one chunk must be cut, we cut at a line boundary where possible.
 */
export class ReplayBuffer {
    protected chunks: string[] = [];
    protected size = 0;

    constructor(readonly capacity = 512 * 1024) { }

    push(data: string): void {
        if (!data) {
            return;
        }
        this.chunks.push(data);
        this.size += data.length;
        while (this.size > this.capacity && this.chunks.length > 1) {
            this.size -= this.chunks.shift()!.length;
        }
        if (this.size > this.capacity) {
            const only = this.chunks[0];
            let cut = only.length - this.capacity;
            const nl = only.indexOf('\n', cut);
            if (nl >= 0 && nl - cut < 4096) {
                cut = nl + 1;
            }
            this.chunks[0] = only.slice(cut);
            this.size = this.chunks[0].length;
        }
    }

    /** Everything still held, oldest first. */
    contents(): string {
        if (this.chunks.length > 1) {
            this.chunks = [this.chunks.join('')];
        }
        return this.chunks[0] ?? '';
    }

    get length(): number {
        return this.size;
    }

    clear(): void {
        this.chunks = [];
        this.size = 0;
    }
}
