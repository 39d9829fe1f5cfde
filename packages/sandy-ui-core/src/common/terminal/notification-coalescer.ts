import { systemTimers, Timers } from '../base/timers';
/**
 * One session's notifications on their way to host toasts. The agent decides how many it sends
 * (1,000 OSC 9 in a second costs it nothing), and neither host can take a toast back once shown
 * (Theia's MessageService and VS Code's showInformationMessage have no close), so the rate is
 * limited before a toast is made: the first notification shows at once; any that follow within the
 * window are folded into one toast at the window's end that shows the latest and counts the rest;
 * a session that keeps it up gets a longer window each time (up to {@link MAX_WINDOW_MS}), and a
 * quiet window starts it over. So a burst makes two toasts, and a sustained flood about one a minute.
 */

/** The clock the coalescer waits on (a fake one in tests): core's one-shot timers. */
export type CoalescerClock = Timers;

export const systemClock: CoalescerClock = systemTimers;

/** What one toast shows: the latest notification and how many others it stands for. */
export interface CoalescedNotification<T> {
    latest: T;
    /** Notifications folded into this toast besides `latest` (never shown on their own). */
    more: number;
}

export interface NotificationCoalescerOptions {
    /** The quiet time after a toast; default {@link WINDOW_MS}. */
    windowMs?: number;
    /** The longest window a sustained flood grows to; default {@link MAX_WINDOW_MS}. */
    maxWindowMs?: number;
    clock?: CoalescerClock;
}

export const WINDOW_MS = 5_000;
export const MAX_WINDOW_MS = 60_000;

/** Rate-limits one session's notifications into toasts (see the file comment). */
export class NotificationCoalescer<T> {
    protected readonly baseWindow: number;
    protected readonly maxWindow: number;
    protected readonly clock: CoalescerClock;
    protected window: number;
    protected timer: unknown;
    protected latest: { value: T } | undefined;
    protected count = 0;
    protected disposed = false;

    constructor(protected readonly show: (toast: CoalescedNotification<T>) => void, options: NotificationCoalescerOptions = {}) {
        this.baseWindow = Math.max(1, options.windowMs ?? WINDOW_MS);
        this.maxWindow = Math.max(this.baseWindow, options.maxWindowMs ?? MAX_WINDOW_MS);
        this.clock = options.clock ?? systemClock;
        this.window = this.baseWindow;
    }

    /** A notification arrived; `folded`: others it already stands for (coalesced before it came). */
    push(notification: T, folded = 0): void {
        if (this.disposed) {
            return;
        }
        const extra = Number.isSafeInteger(folded) && folded > 0 ? folded : 0;
        if (this.timer === undefined) {
            this.window = this.baseWindow;
            this.display({ latest: notification, more: extra });
            return;
        }
        this.latest = { value: notification };
        this.count += 1 + extra;
    }

    /** Notifications waiting for the end of the window. */
    get pending(): number {
        return this.count;
    }

    dispose(): void {
        this.disposed = true;
        if (this.timer !== undefined) {
            this.clock.clearTimeout(this.timer);
            this.timer = undefined;
        }
        this.latest = undefined;
        this.count = 0;
    }

    protected display(toast: CoalescedNotification<T>): void {
        this.timer = this.clock.setTimeout(() => this.windowEnded(), this.window);
        try {
            this.show(toast);
        } catch {
            // A host that failed to show one toast must still get the next.
        }
    }

    protected windowEnded(): void {
        this.timer = undefined;
        if (this.disposed || !this.latest) {
            return;
        }
        const toast = { latest: this.latest.value, more: this.count - 1 };
        this.latest = undefined;
        this.count = 0;
        this.window = Math.min(this.window * 2, this.maxWindow);
        this.display(toast);
    }
}
