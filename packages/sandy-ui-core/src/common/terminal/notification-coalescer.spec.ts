import { expect } from 'chai';
import { CoalescedNotification, CoalescerClock, MAX_WINDOW_MS, NotificationCoalescer, WINDOW_MS } from './notification-coalescer';

/** A clock that only moves when the test says so. */
class FakeClock implements CoalescerClock {
    now = 0;
    protected timers: Array<{ at: number; callback: () => void; id: number }> = [];
    protected nextId = 1;

    setTimeout(callback: () => void, ms: number): unknown {
        const id = this.nextId++;
        this.timers.push({ at: this.now + ms, callback, id });
        return id;
    }

    clearTimeout(handle: unknown): void {
        this.timers = this.timers.filter(t => t.id !== handle);
    }

    /** Moves time forward, firing due timers in order (timers they set fire too, if due). */
    advance(ms: number): void {
        const end = this.now + ms;
        for (;;) {
            const due = this.timers.filter(t => t.at <= end).sort((a, b) => a.at - b.at)[0];
            if (!due) {
                break;
            }
            this.timers = this.timers.filter(t => t !== due);
            this.now = due.at;
            due.callback();
        }
        this.now = end;
    }

    get pendingTimers(): number {
        return this.timers.length;
    }
}

describe('NotificationCoalescer', () => {
    let clock: FakeClock;
    let toasts: Array<CoalescedNotification<string> & { at: number }>;
    let coalescer: NotificationCoalescer<string>;

    beforeEach(() => {
        clock = new FakeClock();
        toasts = [];
        coalescer = new NotificationCoalescer<string>(t => toasts.push({ ...t, at: clock.now }), { clock });
    });

    it('shows the first notification at once', () => {
        coalescer.push('a');
        expect(toasts).to.deep.equal([{ latest: 'a', more: 0, at: 0 }]);
    });

    it('turns 1,000 notifications in a second into two toasts: the first, then the latest counting the rest', () => {
        for (let i = 1; i <= 1000; i++) {
            clock.advance(1);
            coalescer.push(`n${i}`);
        }
        expect(toasts).to.have.length(1);
        clock.advance(WINDOW_MS);
        expect(toasts).to.deep.equal([{ latest: 'n1', more: 0, at: 1 }, { latest: 'n1000', more: 998, at: 1 + WINDOW_MS }]);
        clock.advance(10 * MAX_WINDOW_MS);
        expect(toasts).to.have.length(2);
        expect(clock.pendingTimers).to.equal(0);
    });

    it('shows a single late notification as it is, at the end of the window', () => {
        coalescer.push('a');
        clock.advance(1000);
        coalescer.push('b');
        clock.advance(WINDOW_MS - 1001);
        expect(toasts).to.have.length(1);
        clock.advance(1);
        expect(toasts[1]).to.deep.equal({ latest: 'b', more: 0, at: WINDOW_MS });
    });

    it('starts over after a quiet window: the next notification shows at once', () => {
        coalescer.push('a');
        clock.advance(WINDOW_MS);
        clock.advance(1);
        coalescer.push('b');
        expect(toasts.map(t => [t.latest, t.at])).to.deep.equal([['a', 0], ['b', WINDOW_MS + 1]]);
    });

    it('lengthens the window while a flood goes on, up to the maximum, so a steady flood makes about one toast a minute', () => {
        // One notification every 100 ms for ten minutes.
        for (let t = 0; t < 600_000; t += 100) {
            coalescer.push(`t${t}`);
            clock.advance(100);
        }
        const gaps = toasts.slice(1).map((t, i) => t.at - toasts[i].at);
        expect(gaps.slice(0, 4)).to.deep.equal([WINDOW_MS, 2 * WINDOW_MS, 4 * WINDOW_MS, 8 * WINDOW_MS]);
        expect(Math.max(...gaps)).to.equal(MAX_WINDOW_MS);
        expect(toasts.length).to.be.lessThan(16);
        // Every notification is accounted for: shown, or counted in a toast.
        expect(toasts.reduce((n, t) => n + 1 + t.more, 0) + coalescer.pending).to.equal(6000);
    });

    it('is back to the short window once the flood stops', () => {
        for (let t = 0; t < 60_000; t += 100) {
            coalescer.push('x');
            clock.advance(100);
        }
        clock.advance(2 * MAX_WINDOW_MS);
        const before = toasts.length;
        coalescer.push('a');
        coalescer.push('b');
        clock.advance(WINDOW_MS);
        expect(toasts.slice(before).map(t => t.latest)).to.deep.equal(['a', 'b']);
    });

    it('shows nothing more once disposed', () => {
        coalescer.push('a');
        coalescer.push('b');
        coalescer.dispose();
        clock.advance(MAX_WINDOW_MS);
        coalescer.push('c');
        expect(toasts.map(t => t.latest)).to.deep.equal(['a']);
        expect(clock.pendingTimers).to.equal(0);
    });

    it('keeps going when the host fails to show a toast', () => {
        const shown: string[] = [];
        const failing = new NotificationCoalescer<string>(t => {
            shown.push(t.latest);
            throw new Error('host down');
        }, { clock });
        failing.push('a');
        failing.push('b');
        clock.advance(WINDOW_MS);
        expect(shown).to.deep.equal(['a', 'b']);
    });

    it('takes its windows from the options', () => {
        const quick = new NotificationCoalescer<string>(t => toasts.push({ ...t, at: clock.now }), { clock, windowMs: 10, maxWindowMs: 15 });
        for (let i = 0; i < 100; i++) {
            quick.push('q');
            clock.advance(1);
        }
        const gaps = toasts.slice(1).map((t, i) => t.at - toasts[i].at);
        expect(gaps.slice(0, 3)).to.deep.equal([10, 15, 15]);
    });
});
