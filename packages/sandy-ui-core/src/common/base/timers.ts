/** One-shot timers, as a controller asks for them (a spec hands in its own: base/fake-timers.ts). */
export interface Timers {
    setTimeout(run: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: handle => clearTimeout(handle as ReturnType<typeof setTimeout>)
};
