import { SimpleEmitter } from '../../common/base/event';

export interface StatePollerOptions {
    /** Cadence while at least one viewer shows sandy state (spec: 5 s). */
    visibleIntervalMs: number;
    /** Cadence while nobody looks; 0 = do not poll at all. */
    hiddenIntervalMs: number;
}

/** `at`: when the poll finished; `startedAt`: when it began (what it says was true at some moment between). */
export type PollOutcome<T> = { ok: true; value: T; at: number; startedAt: number } | { ok: false; error: unknown; at: number; startedAt: number };

/**
 * One shared poller per backend, whatever the number of windows: viewers register their
 * visibility, the cadence follows the most demanding one, a request for an immediate poll
 * (after a launch or stop) coalesces with a poll in flight — never two polls at once.
 */
export class StatePoller<T> {
    protected readonly visibility = new Map<string, boolean>();
    protected timer: ReturnType<typeof setTimeout> | undefined;
    protected inFlight: Promise<PollOutcome<T>> | undefined;
    protected again = false;
    protected disposed = false;
    protected last: PollOutcome<T> | undefined;
    protected readonly onDidPollEmitter = new SimpleEmitter<PollOutcome<T>>();
    readonly onDidPoll = this.onDidPollEmitter.event;
    /** Number of polls started, for benchmarks and tests. */
    pollCount = 0;

    constructor(protected readonly fetch: () => Promise<T>, protected readonly options: StatePollerOptions) { }

    get lastOutcome(): PollOutcome<T> | undefined {
        return this.last;
    }

    setVisible(viewerId: string, visible: boolean): void {
        const wasVisible = this.anyVisible();
        this.visibility.set(viewerId, visible);
        if (!wasVisible && this.anyVisible()) {
            // Someone just started looking: give them fresh data now rather than up to one period late.
            void this.pollNow();
        } else {
            this.schedule();
        }
    }

    removeViewer(viewerId: string): void {
        this.visibility.delete(viewerId);
        this.schedule();
    }

    /** Poll as soon as possible; joins the poll in flight (and queues one more after it). */
    pollNow(): Promise<PollOutcome<T>> {
        if (this.inFlight) {
            this.again = true;
            return this.inFlight;
        }
        return this.run();
    }

    /**
     * A poll that begins after this call: what a Refresh (or a change just made) must be answered
     * with — a poll already under way may have read sandy's state before the change.
     */
    async pollFresh(): Promise<PollOutcome<T>> {
        if (this.inFlight) {
            this.again = true;
            await this.inFlight;
        }
        // The queued poll began as the one under way ended (or none was queued: begin one now).
        return this.inFlight ?? this.run();
    }

    protected run(): Promise<PollOutcome<T>> {
        if (this.disposed) {
            // The service is shutting down: no sandy is started any more (it would recreate ~/.sandy).
            const now = Date.now();
            return Promise.resolve(this.last ?? { ok: false as const, error: new Error('The state poller was disposed.'), at: now, startedAt: now });
        }
        this.clearTimer();
        this.pollCount++;
        const startedAt = Date.now();
        const started = this.fetch().then(
            value => ({ ok: true as const, value, at: Date.now(), startedAt }),
            error => ({ ok: false as const, error, at: Date.now(), startedAt }));
        this.inFlight = started.then(outcome => {
            this.inFlight = undefined;
            this.last = outcome;
            if (!this.disposed) {
                this.onDidPollEmitter.fire(outcome);
                if (this.again) {
                    this.again = false;
                    void this.run();
                } else {
                    this.schedule();
                }
            }
            return outcome;
        });
        return this.inFlight;
    }

    protected anyVisible(): boolean {
        for (const v of this.visibility.values()) {
            if (v) {
                return true;
            }
        }
        return false;
    }

    protected currentInterval(): number {
        if (this.anyVisible()) {
            return this.options.visibleIntervalMs;
        }
        return this.visibility.size > 0 ? this.options.hiddenIntervalMs : 0;
    }

    protected schedule(): void {
        if (this.disposed || this.inFlight) {
            return;
        }
        this.clearTimer();
        const interval = this.currentInterval();
        if (interval > 0) {
            const since = this.last ? Date.now() - this.last.at : interval;
            this.timer = setTimeout(() => void this.run(), Math.max(0, interval - since));
            this.timer.unref?.();
        }
    }

    protected clearTimer(): void {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = undefined;
        }
    }

    dispose(): void {
        this.disposed = true;
        this.clearTimer();
        this.onDidPollEmitter.dispose();
    }
}
