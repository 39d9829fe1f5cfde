import { expect } from 'chai';
import { StatePoller } from './state-poller';

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>(r => resolve = r);
    return { promise, resolve };
}

const tick = (ms = 0) => new Promise(r => setTimeout(r, ms));

describe('StatePoller', () => {
    it('never runs two polls at once; a request during a poll queues exactly one more', async () => {
        let running = 0;
        let maxRunning = 0;
        const gates: Array<(v: number) => void> = [];
        const poller = new StatePoller<number>(() => {
            running++;
            maxRunning = Math.max(maxRunning, running);
            const d = deferred<number>();
            gates.push(v => { running--; d.resolve(v); });
            return d.promise;
        }, { visibleIntervalMs: 0, hiddenIntervalMs: 0 });
        const a = poller.pollNow();
        const b = poller.pollNow();
        const c = poller.pollNow();
        expect(poller.pollCount).to.equal(1);
        gates.shift()!(1);
        expect((await a).ok).to.equal(true);
        expect(await b).to.deep.equal(await a);
        await tick();
        expect(poller.pollCount).to.equal(2, 'one follow-up poll for the requests made while busy');
        gates.shift()!(2);
        await c;
        await tick();
        expect(maxRunning).to.equal(1);
        expect(poller.pollCount).to.equal(2);
        poller.dispose();
    });

    it('polls at the visible cadence while any viewer is visible, and stops when none is registered', async () => {
        let count = 0;
        const poller = new StatePoller<number>(async () => ++count, { visibleIntervalMs: 20, hiddenIntervalMs: 0 });
        poller.setVisible('w1', true);
        poller.setVisible('w2', true);
        poller.setVisible('w3', true);
        await tick(110);
        poller.removeViewer('w1');
        poller.removeViewer('w2');
        poller.removeViewer('w3');
        const atStop = count;
        // three viewers share one cadence: ~110/20 ≈ 5-6 polls, not 3×
        expect(atStop).to.be.within(3, 8);
        await tick(80);
        expect(count).to.be.at.most(atStop + 1);
        poller.dispose();
    });

    it('reports failures as outcomes, not rejections, and keeps polling', async () => {
        let n = 0;
        const poller = new StatePoller<number>(async () => {
            n++;
            if (n === 1) {
                throw new Error('boom');
            }
            return n;
        }, { visibleIntervalMs: 0, hiddenIntervalMs: 0 });
        const first = await poller.pollNow();
        expect(first.ok).to.equal(false);
        const second = await poller.pollNow();
        expect(second).to.include({ ok: true, value: 2 });
        poller.dispose();
    });
});
