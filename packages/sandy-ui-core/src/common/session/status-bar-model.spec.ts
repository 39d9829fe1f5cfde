import { expect } from 'chai';
import type { SessionInfo } from './session-types';
import { SimpleEmitter } from '../base/event';
import { StatusBarClock, StatusBarItems, StatusBarModel } from './status-bar-model';

function session(id: string, workspace: string, extra: Partial<SessionInfo> = {}): SessionInfo {
    return { id, pid: 40 + id.length, mode: 'foreground', origin: 'ide', workspace, args: [], startedAt: 0, status: 'running', attachedViews: 1, ...extra };
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
        const state = {
            liveSessions: [] as SessionInfo[], onDidChange: changed.event, onDidChangeSession: sessionChanged.event,
            configuration: undefined as { longRunningHours?: number } | undefined
        };
        let focused: SessionInfo | undefined;
        const rendered: StatusBarItems[] = [];
        const clock = new FakeClock();
        const model = new StatusBarModel({ state, focusedSession: () => focused }, { render: items => rendered.push(items) }, clock);
        return { state, changed, sessionChanged, rendered, clock, model, focus: (s: SessionInfo | undefined) => { focused = s; } };
    }

    it('says "Looking for sandy…" while sandy is looked for and "sandy not found" (click: Get Started) after; nothing when found, or when the window does not look', () => {
        const changed = new SimpleEmitter<unknown>();
        const state = { liveSessions: [] as SessionInfo[], onDidChange: changed.event, onDidChangeSession: new SimpleEmitter<SessionInfo>().event };
        let sandy: ReturnType<NonNullable<ConstructorParameters<typeof StatusBarModel>[0]['sandy']>>;
        const rendered: StatusBarItems[] = [];
        new StatusBarModel({ state, focusedSession: () => undefined, sandy: () => sandy }, { render: items => rendered.push(items) }, new FakeClock());
        expect(rendered.pop(), 'a window that does not look at sandy').to.deep.equal({});
        sandy = { state: 'locating' };
        changed.fire(undefined);
        expect(rendered.pop()?.sandy).to.deep.equal({ text: '$(sync~spin) Looking for sandy…', tooltip: 'Sandy is looking for the sandy command and asking its version and settings schema.' });
        sandy = { state: 'notFound', problem: 'sandy was not found on PATH.' };
        changed.fire(undefined);
        const notFound = rendered.pop()?.sandy;
        expect(notFound?.text).to.equal('$(warning) sandy not found');
        expect(notFound?.tooltip).to.match(/^sandy was not found on PATH\. Click for Sandy: Get Started/);
        expect(notFound?.command).to.equal('sandy.getStarted');
        sandy = { state: 'ready' };
        changed.fire(undefined);
        expect(rendered.pop(), 'found: nothing to say').to.deep.equal({});
    });

    it('shows nothing without sessions, and no ticker runs', () => {
        const { rendered, clock, model } = make();
        expect(rendered).to.deep.equal([{}]);
        expect(model.ticking).to.equal(false);
        expect(clock.intervals.size).to.equal(0);
    });

    it('counts the live sessions, with each workspace, how it runs, its age and pid in the tooltip, and a click switches', () => {
        const { state, changed, rendered, clock } = make();
        clock.time = 3 * 3_600_000 + 5 * 60_000;
        state.liveSessions = [session('a', '/home/u/alpha'), session('bb', '/home/u/beta', { startedAt: clock.time - 30_000 })];
        changed.fire(undefined);
        expect(rendered.at(-1)).to.deep.equal({
            sessions: {
                text: '$(terminal) 2 sandy sessions',
                tooltip: 'alpha — foreground, running 3 h 5 min, pid 41\nbeta — foreground, running under a minute, pid 42\nClick to switch',
                command: 'sandy.switchSession'
            }
        });
        state.liveSessions = [session('a', '/home/u/alpha')];
        changed.fire(undefined);
        expect(rendered.at(-1)?.sessions?.text).to.equal('$(terminal) 1 sandy session');
    });

    it('the tooltip says a daemon session\'s link and who started it (no pid without an attach client), and marks one running for a day', () => {
        const { state, changed, rendered, clock } = make();
        clock.time = 25 * 3_600_000;
        state.liveSessions = [
            session('a', '/home/u/alpha', { mode: 'daemon', link: 'attached', pid: 0 }),
            session('b', '/home/u/beta', { mode: 'daemon', origin: 'outside', link: 'elsewhere', pid: 0, startedAt: clock.time - 60 * 60_000 }),
            session('c', '/home/u/gamma', { origin: 'orphan', pid: 4242, startedAt: clock.time - 2 * 60_000 })
        ];
        changed.fire(undefined);
        expect(rendered.at(-1)?.sessions?.tooltip).to.equal([
            'alpha — daemon, running 25 h 0 min (long-running)',
            'beta — daemon, attached in another terminal, started outside the IDE, running 1 h 0 min',
            'gamma — orphaned foreground sandy, running 2 min, pid 4242',
            'Click to switch'
        ].join('\n'));
    });

    it('marks long-running by the user\'s sandy.longRunningHours: 0 never, 2 after two hours', () => {
        const { state, changed, rendered, clock } = make();
        clock.time = 30 * 3_600_000;
        state.liveSessions = [session('a', '/home/u/alpha', { startedAt: clock.time - 3 * 3_600_000 })];
        state.configuration = { longRunningHours: 0 };
        changed.fire(undefined);
        expect(rendered.at(-1)?.sessions?.tooltip).to.not.contain('long-running');
        state.configuration = { longRunningHours: 2 };
        changed.fire(undefined);
        expect(rendered.at(-1)?.sessions?.tooltip).to.contain('running 3 h 0 min (long-running)');
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
        // A daemon session's pid is only its attach client's: its mode is shown instead.
        focus({ ...s, mode: 'daemon', pid: 0 });
        model.update();
        expect(rendered.at(-1)?.active?.text).to.equal('daemon · claude · 6s');
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

    it('counts the sessions that need you (click: the longest wait) and shows do not disturb while it is on (click: off)', () => {
        const changed = new SimpleEmitter<unknown>();
        const state = { liveSessions: [] as SessionInfo[], onDidChange: changed.event, onDidChangeSession: new SimpleEmitter<SessionInfo>().event };
        let dnd = false;
        const rendered: StatusBarItems[] = [];
        const clock = new FakeClock();
        clock.time = 1_000_000;
        new StatusBarModel({ state, focusedSession: () => undefined, doNotDisturb: () => dnd }, { render: items => rendered.push(items) }, clock);
        state.liveSessions = [
            session('a', '/home/u/alpha', { attention: { state: 'needs-you', since: clock.time - 120_000, waitingFor: 'notification' } }),
            session('b', '/home/u/beta', { attention: { state: 'needs-you', since: clock.time - 5_000, waitingFor: 'bell' } }),
            session('c', '/home/u/gamma', { attention: { state: 'working', since: clock.time } })
        ];
        changed.fire(undefined);
        const last = rendered[rendered.length - 1];
        expect(last.needsYou).to.deep.equal({
            text: '$(bell-dot) 2 need you', command: 'sandy.nextWaiting',
            tooltip: 'alpha — asked for you 2 min ago\nbeta — rang the bell just now\nClick to go to the one that has waited longest'
        });
        expect(last.doNotDisturb).to.equal(undefined);
        dnd = true;
        state.liveSessions = state.liveSessions.slice(1);
        changed.fire(undefined);
        const after = rendered[rendered.length - 1];
        expect(after.needsYou?.text).to.equal('$(bell-dot) 1 needs you');
        expect(after.doNotDisturb).to.include({ text: '$(bell-slash) Do not disturb', command: 'sandy.toggleDoNotDisturb' });
        state.liveSessions = [];
        dnd = false;
        changed.fire(undefined);
        expect(rendered[rendered.length - 1]).to.deep.equal({});
    });
});

