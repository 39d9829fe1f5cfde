import { expect } from 'chai';
import type { SessionInfo } from './session-types';
import { SimpleEmitter } from '../base/event';
import { StatusBarClock, StatusBarItems, StatusBarModel } from './status-bar-model';

function session(id: string, workspace: string, extra: Partial<SessionInfo> = {}): SessionInfo {
    return { id, pid: 40 + id.length, workspace, args: [], startedAt: 0, status: 'running', attachedViews: 1, ...extra };
}

/** A clock whose one interval the test fires by hand. */
class FakeClock implements StatusBarClock {
    time = 0;
    intervals = new Map<number, () => void>();
    protected nextId = 1;
    now(): number {
        return this.time;
    }
    setInterval(callback: () => void, ms: number): unknown {
        expect(ms).to.equal(1000);
        const id = this.nextId++;
        this.intervals.set(id, callback);
        return id;
    }
    clearInterval(handle: unknown): void {
        this.intervals.delete(handle as number);
    }
    tick(ms = 1000): void {
        this.time += ms;
        for (const cb of [...this.intervals.values()]) {
            cb();
        }
    }
}

describe('StatusBarModel: the status bar of every host (unit)', () => {
    function make() {
        const changed = new SimpleEmitter<unknown>();
        const sessionChanged = new SimpleEmitter<SessionInfo>();
        const state = { liveSessions: [] as SessionInfo[], onDidChange: changed.event, onDidChangeSession: sessionChanged.event };
        let focused: SessionInfo | undefined;
        const rendered: StatusBarItems[] = [];
        const clock = new FakeClock();
        const model = new StatusBarModel({ state, focusedSession: () => focused }, { render: items => rendered.push(items) }, clock);
        return { state, changed, sessionChanged, rendered, clock, model, focus: (s: SessionInfo | undefined) => { focused = s; } };
    }

    it('shows nothing without sessions, and no ticker runs', () => {
        const { rendered, clock, model } = make();
        expect(rendered).to.deep.equal([{}]);
        expect(model.ticking).to.equal(false);
        expect(clock.intervals.size).to.equal(0);
    });

    it('counts the live sessions, with each workspace and pid in the tooltip, and a click switches', () => {
        const { state, changed, rendered } = make();
        state.liveSessions = [session('a', '/home/u/alpha'), session('bb', '/home/u/beta')];
        changed.fire(undefined);
        expect(rendered.at(-1)).to.deep.equal({
            sessions: { text: '$(terminal) 2 sandy sessions', tooltip: 'alpha — pid 41\nbeta — pid 42\nClick to switch', command: 'sandy.switchSession' }
        });
        state.liveSessions = [session('a', '/home/u/alpha')];
        changed.fire(undefined);
        expect(rendered.at(-1)?.sessions?.text).to.equal('$(terminal) 1 sandy session');
    });

    it('the focused tab\'s session: pid · agent · elapsed, ticking each second while shown', () => {
        const { state, sessionChanged, rendered, clock, model, focus } = make();
        const s = session('a', '/home/u/alpha', { agent: 'claude', startedAt: 0 });
        state.liveSessions = [s];
        focus(s);
        clock.time = 5000;
        model.update();
        expect(rendered.at(-1)?.active).to.deep.equal({ text: 'pid 41 · claude · 5s', tooltip: 'sandy in /home/u/alpha' });
        expect(model.ticking).to.equal(true);
        clock.tick();
        expect(rendered.at(-1)?.active?.text).to.equal('pid 41 · claude · 6s');
        // A second update does not start a second ticker.
        sessionChanged.fire(s);
        expect(clock.intervals.size).to.equal(1);
    });

    it('renders only what changed (an hour-long session re-renders once a minute, not each second)', () => {
        const { state, rendered, clock, model, focus } = make();
        const s = session('a', '/w', { startedAt: 0 });
        state.liveSessions = [s];
        focus(s);
        clock.time = 3_600_000;
        model.update();
        const count = rendered.length;
        clock.tick();
        clock.tick();
        expect(rendered.length).to.equal(count);
        clock.tick(60_000);
        expect(rendered.length).to.equal(count + 1);
    });

    it('stops the ticker when the focus leaves the tab or its session ends, and says stopping', () => {
        const { state, sessionChanged, rendered, clock, model, focus } = make();
        const s = session('a', '/w');
        state.liveSessions = [s];
        focus({ ...s, status: 'stopping' });
        model.update();
        expect(rendered.at(-1)?.active?.tooltip).to.equal('sandy in /w (stopping…)');
        focus(undefined);
        model.update();
        expect(rendered.at(-1)?.active).to.equal(undefined);
        expect(model.ticking).to.equal(false);
        focus(s);
        model.update();
        expect(model.ticking).to.equal(true);
        const ended = { ...s, status: 'exited' as const };
        focus(ended);
        state.liveSessions = [];
        sessionChanged.fire(ended);
        expect(rendered.at(-1)).to.deep.equal({});
        expect(clock.intervals.size).to.equal(0);
    });

    it('the ticker itself notices a session that ended between events', () => {
        const { state, rendered, clock, model, focus } = make();
        const s = session('a', '/w');
        state.liveSessions = [s];
        focus(s);
        model.update();
        focus({ ...s, status: 'exited' });
        clock.tick();
        expect(rendered.at(-1)?.active).to.equal(undefined);
        expect(model.ticking).to.equal(false);
    });

    it('dispose stops the ticker and stops hearing the state', () => {
        const { state, changed, rendered, clock, model, focus } = make();
        const s = session('a', '/w');
        state.liveSessions = [s];
        focus(s);
        model.update();
        model.dispose();
        expect(clock.intervals.size).to.equal(0);
        const count = rendered.length;
        state.liveSessions = [];
        changed.fire(undefined);
        expect(rendered.length).to.equal(count);
    });
});
