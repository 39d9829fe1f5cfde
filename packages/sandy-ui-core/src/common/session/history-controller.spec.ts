import { expect } from 'chai';
import { FakeTimers, flushPromises } from '../base/fake-timers';
import { SimpleEmitter } from '../base/event';
import type { SessionInfo } from './session-types';
import type { HistoryChunk, HistoryQuery, HistoryRecord } from './history-types';
import { MAX_HISTORY_QUERY_TEXT } from './history-types';
import type { DerivedProject } from '../projects/project-state';
import {
    HistoryController, HistoryListState, HISTORY_CHANGE_DEBOUNCE_MS, HISTORY_MAX_PAGES, HISTORY_SEARCH_DEBOUNCE_MS,
    loadHistoryTranscript
} from './history-controller';
import { SandyError } from '../sandy/errors';
import { HISTORY_DELETE_RUNNING_TEXT, HISTORY_RECORD_GONE_TEXT, historyProjectGoneText } from '../host/labels';


const record = (id: string, project: string, extra: Partial<HistoryRecord> = {}): HistoryRecord => ({
    id, workspace: `/w/${project}`, project, sandbox: project, mode: 'daemon', startedAt: 1000, endedAt: 2000, exitCode: 0, bytes: 10, truncated: false, ...extra
});

const project = (name: string): DerivedProject => ({ key: name, name, workspacePath: `/w/${name}`, displayPath: `/w/${name}`, displayName: name, state: 'stopped' } as unknown as DerivedProject);

const session = (status: SessionInfo['status']): SessionInfo => ({ id: 's', pid: 1, mode: 'daemon', origin: 'ide', workspace: '/w/a', args: [], startedAt: 0, status, attachedViews: 0 });

function world(options: { records?: HistoryRecord[]; fail?: boolean; confirm?: boolean; removed?: boolean } = {}) {
    const timers = new FakeTimers();
    const changes = new SimpleEmitter<SessionInfo>();
    let records = options.records ?? [record('2026-12-01-alpha', 'alpha'), record('2026-12-01-beta', 'beta'), record('2026-12-01-alpha-2', 'alpha', { endedAt: undefined, exitCode: undefined })];
    const calls = {
        queries: [] as Array<HistoryQuery | undefined>, shown: [] as HistoryListState[], problems: [] as string[], errors: [] as string[],
        confirms: [] as string[], removed: [] as string[], launched: [] as string[], viewed: [] as string[]
    };
    const controller = new HistoryController({
        service: {
            listHistory: async query => {
                calls.queries.push(query);
                if (options.fail) {
                    throw new SandyError('timeout', 'the backend went away', 'Reload the window.');
                }
                return records.filter(r => !query?.text || r.id.includes(query.text));
            },
            removeHistory: async id => {
                calls.removed.push(id);
                records = records.filter(r => r.id !== id);
                return options.removed ?? true;
            }
        },
        ui: {
            confirm: async o => {
                calls.confirms.push(o.message);
                return options.confirm ?? true;
            },
            error: async message => {
                calls.errors.push(message);
                return undefined;
            }
        },
        view: { show: state => calls.shown.push(state), showProblem: text => calls.problems.push(text) },
        projects: () => [project('alpha'), project('beta')],
        launch: async p => {
            calls.launched.push(p.workspacePath!);
        },
        openViewer: r => {
            calls.viewed.push(r.id);
        },
        onDidChangeSession: changes.event,
        timers
    });
    return { controller, timers, changes, calls };
}

describe('HistoryController (unit)', () => {
    it('asks nothing while hidden; on show it lists every project\'s records and offers their projects as the filter', async () => {
        const { controller, calls, changes, timers } = world();
        controller.setSearch('alpha');
        changes.fire(session('exited'));
        await timers.advance(10_000);
        expect(calls.queries).to.deep.equal([]);
        controller.setVisible(true);
        await flushPromises();
        expect(calls.queries).to.deep.equal([{ text: 'alpha' }]);
        const shown = calls.shown.at(-1)!;
        expect(shown.records.map(r => r.id)).to.deep.equal(['2026-12-01-alpha', '2026-12-01-alpha-2']);
        expect(shown.projects).to.deep.equal(['alpha']);
        expect(shown.text).to.equal('alpha');
    });

    it('the project filter narrows the rows at once (its choices stay every project); all projects again with undefined', async () => {
        const { controller, calls } = world();
        controller.setVisible(true);
        await flushPromises();
        controller.setProject('beta');
        await flushPromises();
        const shown = calls.shown.at(-1)!;
        expect(shown.records.map(r => r.project)).to.deep.equal(['beta']);
        expect(shown.projects).to.deep.equal(['alpha', 'beta']);
        expect(shown.project).to.equal('beta');
        controller.setProject('');
        await flushPromises();
        expect(calls.shown.at(-1)!.records).to.have.length(3);
        expect(calls.shown.at(-1)!.project).to.equal(undefined);
    });

    it('the search is debounced: a burst of keys is one request, with the last text, cut to the bound', async () => {
        const { controller, calls, timers } = world();
        controller.setVisible(true);
        await flushPromises();
        calls.queries.length = 0;
        controller.setSearch('a');
        controller.setSearch('al');
        await timers.advance(HISTORY_SEARCH_DEBOUNCE_MS - 1);
        expect(calls.queries).to.deep.equal([]);
        controller.setSearch('beta');
        await timers.advance(HISTORY_SEARCH_DEBOUNCE_MS);
        expect(calls.queries).to.deep.equal([{ text: 'beta' }]);
        controller.setSearch('x'.repeat(MAX_HISTORY_QUERY_TEXT + 500));
        await timers.advance(HISTORY_SEARCH_DEBOUNCE_MS);
        expect(calls.queries.at(-1)!.text).to.have.length(MAX_HISTORY_QUERY_TEXT);
        controller.setSearch({ not: 'text' });
        await timers.advance(HISTORY_SEARCH_DEBOUNCE_MS);
        expect(calls.queries.at(-1)).to.equal(undefined);
    });

    it('a session that ends while visible refreshes the list once (a burst is one); other changes do not', async () => {
        const { controller, calls, changes, timers } = world();
        controller.setVisible(true);
        await flushPromises();
        calls.queries.length = 0;
        changes.fire(session('running'));
        await timers.advance(HISTORY_CHANGE_DEBOUNCE_MS * 2);
        expect(calls.queries).to.have.length(0);
        changes.fire(session('exited'));
        changes.fire(session('exited'));
        await timers.advance(HISTORY_CHANGE_DEBOUNCE_MS);
        expect(calls.queries).to.have.length(1);
        controller.setVisible(false);
        changes.fire(session('exited'));
        await timers.advance(HISTORY_CHANGE_DEBOUNCE_MS * 2);
        expect(calls.queries).to.have.length(1);
        controller.setVisible(true);
        await flushPromises();
        expect(calls.queries, 'shown again: asked again').to.have.length(2);
    });

    it('an answer to an older search than the current one is not shown; the current one is asked next', async () => {
        const w = world();
        let release: (() => void) | undefined;
        const slow = w.controller as unknown as { deps: { service: { listHistory: (q?: HistoryQuery) => Promise<HistoryRecord[]> } } };
        const real = slow.deps.service.listHistory;
        slow.deps.service.listHistory = async q => {
            if (q?.text === 'alpha') {
                await new Promise<void>(r => { release = r; });
            }
            return real(q);
        };
        w.controller.setSearch('alpha');
        w.controller.setVisible(true);
        await flushPromises();
        w.controller.setSearch('beta');
        await w.timers.advance(HISTORY_SEARCH_DEBOUNCE_MS);
        release!();
        await flushPromises();
        await flushPromises();
        expect(w.calls.shown.every(s => s.text === 'beta')).to.equal(true);
        expect(w.calls.shown.at(-1)!.records.map(r => r.id)).to.deep.equal(['2026-12-01-beta']);
    });

    it('a failure is said with its hint, the rows kept', async () => {
        const { controller, calls } = world({ fail: true });
        controller.setVisible(true);
        await flushPromises();
        expect(calls.problems).to.have.length(1);
        expect(calls.problems[0]).to.include('the backend went away').and.include('Reload the window.');
    });

    it('open shows the listed record in the viewer; an id it did not list (or not an id) is said gone and nothing opens', async () => {
        const { controller, calls } = world();
        controller.setVisible(true);
        await flushPromises();
        await controller.open('2026-12-01-beta');
        expect(calls.viewed).to.deep.equal(['2026-12-01-beta']);
        await controller.open('2026-12-01-nope');
        await controller.open('../../etc/passwd');
        expect(calls.viewed).to.deep.equal(['2026-12-01-beta']);
        expect(calls.errors).to.deep.equal([HISTORY_RECORD_GONE_TEXT, HISTORY_RECORD_GONE_TEXT]);
    });

    it('relaunch launches the window\'s project of the record\'s workspace; a project no longer listed is said, nothing launched', async () => {
        const { controller, calls } = world({ records: [record('2026-12-01-alpha', 'alpha'), record('2026-12-01-gone', 'gone')] });
        controller.setVisible(true);
        await flushPromises();
        await controller.relaunch('2026-12-01-alpha');
        expect(calls.launched).to.deep.equal(['/w/alpha']);
        await controller.relaunch('2026-12-01-gone');
        expect(calls.launched).to.deep.equal(['/w/alpha']);
        expect(calls.errors).to.deep.equal([historyProjectGoneText('gone', '/w/gone')]);
    });

    it('delete asks first; declined deletes nothing; confirmed deletes and lists again; a running record is refused without asking', async () => {
        const declined = world({ confirm: false });
        declined.controller.setVisible(true);
        await flushPromises();
        await declined.controller.remove('2026-12-01-beta');
        expect(declined.calls.confirms).to.have.length(1);
        expect(declined.calls.removed).to.deep.equal([]);

        const w = world();
        w.controller.setVisible(true);
        await flushPromises();
        await w.controller.remove('2026-12-01-alpha-2');
        expect(w.calls.confirms).to.deep.equal([]);
        expect(w.calls.removed).to.deep.equal([]);
        expect(w.calls.errors).to.deep.equal([HISTORY_DELETE_RUNNING_TEXT]);
        await w.controller.remove('2026-12-01-beta');
        expect(w.calls.confirms[0]).to.include('beta');
        expect(w.calls.removed).to.deep.equal(['2026-12-01-beta']);
        await flushPromises();
        expect(w.calls.shown.at(-1)!.records.map(r => r.id)).to.not.include('2026-12-01-beta');
    });

    it('after dispose nothing is asked or shown', async () => {
        const { controller, calls, changes, timers } = world();
        controller.setVisible(true);
        await flushPromises();
        controller.dispose();
        const shown = calls.shown.length;
        controller.setVisible(true);
        controller.setSearch('beta');
        changes.fire(session('exited'));
        await timers.advance(10_000);
        expect(calls.queries).to.have.length(1);
        expect(calls.shown).to.have.length(shown);
    });
});

describe('loadHistoryTranscript (unit)', () => {
    const rec = record('2026-12-01-alpha', 'alpha');
    function pages(n: number, options: { stuck?: boolean } = {}) {
        const reads: number[] = [];
        return {
            reads,
            service: {
                readHistory: async (id: string, offset = 0): Promise<HistoryChunk | undefined> => {
                    reads.push(offset);
                    if (id !== rec.id) {
                        return undefined;
                    }
                    const index = offset / 10;
                    const last = index >= n - 1;
                    return { record: rec, text: `page${index};`, offset, nextOffset: last ? undefined : options.stuck ? offset : offset + 10, size: n * 10 };
                }
            }
        };
    }
    const sink = () => {
        const out = { records: [] as string[], text: '', done: [] as Array<{ cut?: number }> };
        return { out, sink: { record: (r: HistoryRecord) => out.records.push(r.id), write: (t: string) => { out.text += t; }, done: (d: { cut?: number }) => out.done.push(d) } };
    };

    it('feeds every page in order while the backend says there is more, then done', async () => {
        const p = pages(3);
        const s = sink();
        expect(await loadHistoryTranscript(p.service, rec.id, s.sink)).to.equal(true);
        expect(s.out.records).to.deep.equal([rec.id]);
        expect(s.out.text).to.equal('page0;page1;page2;');
        expect(s.out.done).to.deep.equal([{}]);
        expect(p.reads).to.deep.equal([0, 10, 20]);
    });

    it('stops after the page bound and says where; an offset that does not advance ends it', async () => {
        const p = pages(HISTORY_MAX_PAGES + 10);
        const s = sink();
        await loadHistoryTranscript(p.service, rec.id, s.sink);
        expect(p.reads).to.have.length(HISTORY_MAX_PAGES);
        expect(s.out.done).to.deep.equal([{ cut: HISTORY_MAX_PAGES * 10 }]);
        const stuck = pages(5, { stuck: true });
        const s2 = sink();
        await loadHistoryTranscript(stuck.service, rec.id, s2.sink);
        expect(stuck.reads).to.deep.equal([0]);
        expect(s2.out.done).to.deep.equal([{}]);
    });

    it('no record: false, nothing written; not a history id: not even asked', async () => {
        const p = pages(2);
        const s = sink();
        expect(await loadHistoryTranscript(p.service, '2026-12-01-other', s.sink)).to.equal(false);
        expect(await loadHistoryTranscript(p.service, '../x', s.sink)).to.equal(false);
        expect(p.reads).to.deep.equal([0]);
        expect(s.out).to.deep.equal({ records: [], text: '', done: [] });
    });
});
