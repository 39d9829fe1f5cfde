/** Polls a probe until it yields a value; a timeout reports the last thing seen, never a bare "timed out". */
export interface PollOptions {
    timeout?: number;
    interval?: number;
    message?: string;
    /** A reason to give up at once (the server died). */
    abort?: () => string | undefined;
}

export async function poll<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: PollOptions = {}): Promise<T> {
    const timeout = options.timeout ?? 30_000;
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
            const seen = lastError ? `last error: ${lastError instanceof Error ? lastError.message : String(lastError)}` : `last value: ${JSON.stringify(last)?.slice(0, 1000)}`;
            throw new Error(`Timed out after ${timeout} ms waiting for ${options.message ?? 'a condition'} (${seen})`);
        }
        await new Promise(resolve => setTimeout(resolve, options.interval ?? 150));
    }
}
