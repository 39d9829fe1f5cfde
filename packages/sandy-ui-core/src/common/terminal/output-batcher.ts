/**
 * Coalesces terminal output into fewer, larger messages (as Theia's BufferingStream does for its
 * terminal channel): a PTY emits many tiny chunks, and one message per chunk costs more in framing
 * and rendering than the bytes themselves. Chunks are flushed after `intervalMs` or at `maxChunk`.
 */
export class OutputBatcher {
    protected buffer = '';
    protected timer: ReturnType<typeof setTimeout> | undefined;

    constructor(
        protected readonly emit: (data: string) => void,
        protected readonly intervalMs = 8,
        protected readonly maxChunk = 256 * 1024
    ) { }

    push(data: string): void {
        if (!data) {
            return;
        }
        this.buffer += data;
        if (this.buffer.length >= this.maxChunk) {
            this.flush();
        } else if (!this.timer) {
            this.timer = setTimeout(() => this.flush(), this.intervalMs);
        }
    }

    flush(): void {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = undefined;
        }
        while (this.buffer.length) {
            const chunk = this.buffer.slice(0, this.maxChunk);
            this.buffer = this.buffer.slice(chunk.length);
            this.emit(chunk);
        }
    }

    dispose(): void {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = undefined;
        }
        this.buffer = '';
    }
}
