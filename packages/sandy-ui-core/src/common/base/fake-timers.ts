import type { Timers } from './timers';

/** Timers driven by a spec: `advance(ms)` runs what is due, in order, letting promises settle after each. */
export class FakeTimers implements Timers {
    now = 0;
    protected next = 1;
    readonly pending = new Map<number, { at: number; run: () => void }>();

    setTimeout(run: () => void, ms: number): unknown {
        const id = this.next++;
        this.pending.set(id, { at: this.now + ms, run });
        return id;
    }

    clearTimeout(handle: unknown): void {
        this.pending.delete(handle as number);
    }

    async advance(ms: number): Promise<void> {
        const until = this.now + ms;
        for (;;) {
            const due = [...this.pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
            if (!due) {
                break;
            }
            this.pending.delete(due[0]);
            this.now = due[1].at;
            due[1].run();
            await flushPromises();
        }
        this.now = until;
        await flushPromises();
    }
}

/** Lets chains of resolved promises run (a controller's request, then its answer). */
export async function flushPromises(): Promise<void> {
    for (let i = 0; i < 20; i++) {
        await Promise.resolve();
    }
}
