import { poll as pollUntil, PollOptions } from '@sandy-ui/test/lib/support/poll';

export { PollOptions };

/** The repository's poll, with the slower defaults a VS Code workbench in a browser needs (30 s, 150 ms). */
export function poll<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: PollOptions = {}): Promise<T> {
    return pollUntil(probe, { timeout: 30_000, interval: 150, ...options });
}
