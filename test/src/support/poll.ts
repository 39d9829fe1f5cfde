/**
 * Waiting without fixed sleeps, for every test tree (e2e, benchmarks, the plugin's suites): the
 * backend, the PTY and the browser all run asynchronously, so tests poll a probe until it yields a
 * value, and a timeout reports the last thing seen instead of a bare "timed out".
 */

export interface PollOptions {
    /** Default 20 s: generous, because CI machines are slow and a hit returns at once anyway. */
    timeout?: number;
    /** Default 100 ms. */
    interval?: number;
    /** What we were waiting for, for the timeout message. */
    message?: string;
    /**
     * Returns a reason to give up at once (e.g. the backend died): waiting out the timeout would
     * only hide the real failure behind a generic one.
     */
    abort?: () => string | undefined;
}

export const DEFAULT_TIMEOUT_MS = 20_000;

/** Polls `probe` until it returns something other than undefined/null/false and returns that. */
export async function poll<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: PollOptions = {}): Promise<T> {
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const interval = options.interval ?? 100;
    const deadline = Date.now() + timeout;
    let last: unknown;
    let lastError: unknown;
    for (;;) {
        const aborted = options.abort?.();
        if (aborted) {
            throw new Error(`Gave up waiting for ${options.message ?? 'a condition'}: ${aborted}`);
        }
        try {
            const value = await probe();
            if (value !== undefined && value !== null && value !== false) {
                return value;
            }
            last = value;
            lastError = undefined;
        } catch (e) {
            lastError = e;
        }
        if (Date.now() >= deadline) {
            const seen = lastError ? `last error: ${lastError instanceof Error ? lastError.message : String(lastError)}` : `last value: ${describe(last)}`;
            throw new Error(`Timed out after ${timeout} ms waiting for ${options.message ?? 'a condition'} (${seen})`);
        }
        await new Promise(resolve => setTimeout(resolve, interval));
    }
}

function describe(value: unknown): string {
    try {
        const text = JSON.stringify(value);
        return text === undefined ? String(value) : text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
    } catch {
        return String(value);
    }
}

/**
 * The other half of polling: a condition that must STAY true (nothing starts after a Reject, say).
 * Checks `probe` every `interval` ms for `duration` ms and throws with `message` the first time it fails.
 */
export async function holdsFor(probe: () => boolean | Promise<boolean>, duration: number, message: string, interval = 100): Promise<void> {
    const deadline = Date.now() + duration;
    for (;;) {
        if (!await probe()) {
            throw new Error(`Expected ${message} for ${duration} ms, but it stopped holding`);
        }
        if (Date.now() >= deadline) {
            return;
        }
        await new Promise(resolve => setTimeout(resolve, interval));
    }
}
