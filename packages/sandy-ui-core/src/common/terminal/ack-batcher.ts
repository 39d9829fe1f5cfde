import { CATCH_UP } from '../session/session-types';

/**
 * Parsed characters are acknowledged once this many are owed: half of what a view caught up by frames
 * may have in flight, so what it still owes never holds its next frame back, nor a paused session (it
 * resumes below the low mark)…
 */
export const ACK_BATCH_CHARS = CATCH_UP.windowChars / 4;
/** …or this long after the first of them was parsed: an agent printing a line at a time costs one message a second, not one per line. */
export const ACK_DELAY_MS = 1000;

/**
 * A view's acknowledgements of parsed output, sent in batches ({@link ACK_BATCH_CHARS}, or after
 * {@link ACK_DELAY_MS}). Each acknowledgement is a message to the backend; one per chunk doubled the
 * traffic of every busy session, shown or not.
 */
export class AckBatcher {
    protected owed = 0;
    protected timer: ReturnType<typeof setTimeout> | undefined;

    constructor(
        protected readonly send: (chars: number) => void,
        protected readonly batchChars = ACK_BATCH_CHARS,
        protected readonly delayMs = ACK_DELAY_MS
    ) { }

    /** `chars` more were parsed. */
    owe(chars: number): void {
        if (!(chars > 0)) {
            return;
        }
        this.owed += chars;
        if (this.owed >= this.batchChars) {
            this.pay();
        } else if (!this.timer) {
            this.timer = setTimeout(() => this.pay(), this.delayMs);
        }
    }

    /** Acknowledge everything owed now (a view detaching, or going away). */
    pay(): void {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = undefined;
        }
        if (this.owed > 0) {
            const chars = this.owed;
            this.owed = 0;
            this.send(chars);
        }
    }

    dispose(): void {
        this.pay();
    }
}
