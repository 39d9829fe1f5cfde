import { expect } from 'chai';
import { FakeTimers, flushPromises } from '../base/fake-timers';
import { SimpleEmitter } from '../base/event';
import type { SessionInfo } from './session-types';
import type { DashboardSnapshot } from './dashboard-types';
import { DashboardController, DASHBOARD_CHANGE_DEBOUNCE_MS, DASHBOARD_REFRESH_MS } from './dashboard-controller';
import { SandyError } from '../sandy/errors';
import { boundedThumbnail, thumbnailLine, THUMBNAIL_MAX_COLS, THUMBNAIL_MAX_LINES } from './dashboard-types';

/** Timers driven by the spec: `advance(ms)` runs what is due, in order. */

const session = (id: string): SessionInfo => ({ id, pid: 1, mode: 'daemon', origin: 'ide', workspace: `/w/${id}`, args: [], startedAt: 0, status: 'running', attachedViews: 0 });
const snapshotOf = (n: number): DashboardSnapshot => ({ tiles: [], docker: { state: 'ok' }, at: n });

function world(options: { fail?: boolean } = {}) {
    const timers = new FakeTimers();
    const changes = new SimpleEmitter<SessionInfo>();
    const calls = { dashboard: 0, attached: [] as string[], shown: [] as number[], problems: [] as string[] };
    let sessions = [session('a'), session('b')];
    const controller = new DashboardController({
        service: {
            dashboard: async () => {
                calls.dashboard++;
                if (options.fail) {
                    throw new SandyError('timeout', 'backend went away', 'Reload the window.');
                }
                return snapshotOf(calls.dashboard);
            },
            sessions: async () => sessions
        },
        tabs: { attach: async s => { calls.attached.push(s.id); } },
        view: { show: s => calls.shown.push(s.at), showProblem: text => calls.problems.push(text) },
        onDidChangeSession: changes.event,
        timers
    });
    return { timers, changes, calls, controller, setSessions: (s: SessionInfo[]) => { sessions = s; } };
}

describe('DashboardController (unit)', () => {
    it('asks nothing while hidden; once visible, at once and then every 3 s; hidden again, nothing more', async () => {
        const w = world();
        await w.timers.advance(DASHBOARD_REFRESH_MS * 5);
        w.changes.fire(session('a'));
        await w.timers.advance(DASHBOARD_REFRESH_MS);
        expect(w.calls.dashboard).to.equal(0);

        w.controller.setVisible(true);
        await flushPromises();
        expect(w.calls.shown).to.deep.equal([1]);
        await w.timers.advance(DASHBOARD_REFRESH_MS - 1);
        expect(w.calls.dashboard).to.equal(1);
        await w.timers.advance(1);
        expect(w.calls.dashboard).to.equal(2);
        await w.timers.advance(DASHBOARD_REFRESH_MS * 2);
        expect(w.calls.shown).to.deep.equal([1, 2, 3, 4]);

        w.controller.setVisible(false);
        await w.timers.advance(DASHBOARD_REFRESH_MS * 10);
        w.changes.fire(session('a'));
        await w.timers.advance(DASHBOARD_REFRESH_MS);
        expect(w.calls.dashboard).to.equal(4);
        expect(w.timers.pending.size).to.equal(0);
    });

    it('a burst of session changes while visible is one early refresh, debounced', async () => {
        const w = world();
        w.controller.setVisible(true);
        await flushPromises();
        expect(w.calls.dashboard).to.equal(1);
        for (let i = 0; i < 20; i++) {
            w.changes.fire(session('a'));
            await w.timers.advance(DASHBOARD_CHANGE_DEBOUNCE_MS / 4);
        }
        expect(w.calls.dashboard).to.equal(1);
        // The last change was a quarter of the debounce ago: the refresh comes the rest of it later.
        await w.timers.advance(DASHBOARD_CHANGE_DEBOUNCE_MS * 3 / 4 - 1);
        expect(w.calls.dashboard).to.equal(1);
        await w.timers.advance(1);
        expect(w.calls.dashboard).to.equal(2);
        // Then the regular cadence again.
        await w.timers.advance(DASHBOARD_REFRESH_MS - 1);
        expect(w.calls.dashboard).to.equal(2);
        await w.timers.advance(1);
        expect(w.calls.dashboard).to.equal(3);
    });

    it('a tile\'s click shows that session\'s tab; a session gone meanwhile is said, and the tiles refreshed', async () => {
        const w = world();
        await w.controller.open('b');
        expect(w.calls.attached).to.deep.equal(['b']);
        w.setSessions([session('a')]);
        await w.controller.open('b');
        expect(w.calls.attached).to.deep.equal(['b']);
        expect(w.calls.problems).to.have.length(1);
        await flushPromises();
        expect(w.calls.dashboard).to.equal(1);
    });

    it('a failing backend is said on the view (its problem, with what to do), and the polling goes on; dispose stops everything', async () => {
        const w = world({ fail: true });
        w.controller.setVisible(true);
        await flushPromises();
        expect(w.calls.problems).to.deep.equal(['backend went away Reload the window.']);
        await w.timers.advance(DASHBOARD_REFRESH_MS);
        expect(w.calls.dashboard).to.equal(2);
        w.controller.dispose();
        await w.timers.advance(DASHBOARD_REFRESH_MS * 3);
        w.changes.fire(session('a'));
        await w.timers.advance(DASHBOARD_REFRESH_MS);
        expect(w.calls.dashboard).to.equal(2);
    });
});

describe('dashboard thumbnails (unit)', () => {
    it('Attack: whatever crosses as a thumbnail (a webview message, a hostile screen) is bounded plain text', () => {
        const huge = 'x'.repeat(10 * 1024 * 1024);
        const started = Date.now();
        expect(Array.from(thumbnailLine(huge)).length).to.equal(THUMBNAIL_MAX_COLS);
        expect(Date.now() - started).to.be.lessThan(200);
        expect(thumbnailLine('\x1b[31mred\x1b]0;t\x07\u202egnp.exe\u2066\u200f\r\n\u0000\u009b')).to.equal(' [31mred ]0;t  gnp.exe');
        // Lone surrogates become spaces; a whole astral character is one column.
        expect(thumbnailLine('a\ud800b\udc00c\u{1f600}')).to.equal('a b c\u{1f600}');
        expect(thumbnailLine(42)).to.equal('');
        const t = boundedThumbnail([...Array.from({ length: 5000 }, (_, i) => `row ${i}`), '', '  '], 1e9, -5);
        expect(t.lines.length).to.equal(THUMBNAIL_MAX_LINES);
        expect(t.cols).to.equal(THUMBNAIL_MAX_COLS);
        expect(t.rows).to.equal(0);
        expect(boundedThumbnail('not a list' as unknown as string[], NaN, NaN)).to.deep.equal({ cols: 0, rows: 0, lines: [] });
    });
});
