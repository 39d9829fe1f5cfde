import { expect } from 'chai';
import type { SessionInfo } from '../../common/session/session-types';
import type { DockerResult } from '../sandy/docker-client';
import { SessionDashboard, THUMBNAIL_REFRESH_MS, THUMBNAIL_TIMEOUT_MS } from './dashboard';

type Screen = { cols: number; rows: number; lines: string[] };

function session(id: string, workspace: string): SessionInfo {
    return { id, pid: 10, mode: 'daemon', origin: 'ide', workspace, args: [], startedAt: 1000, status: 'running', attachedViews: 0 };
}

/**
 * The dashboard against an agent that floods its screen: the backend's headless xterm parses a
 * flood for seconds (44 MB of coloured output took 8.8 s here), and the screen answers
 * `visibleText` only after it. Docker is not the point here: it answers at once (no containers).
 */
describe('SessionDashboard attacks: a flooding agent\'s screen, every window asking at once (unit)', () => {
    let clock: number;
    let asked: Map<string, number>;
    let answers: Map<string, Array<(s: Screen) => void>>;
    let slow: Set<string>;

    beforeEach(() => {
        clock = 100_000;
        asked = new Map();
        answers = new Map();
        slow = new Set();
    });

    function dashboard(sessions: SessionInfo[]): SessionDashboard {
        return new SessionDashboard({
            supervisor: {
                list: () => sessions,
                screenOf: id => ({
                    visibleText: () => {
                        asked.set(id, (asked.get(id) ?? 0) + 1);
                        if (!slow.has(id)) {
                            return Promise.resolve({ cols: 80, rows: 24, lines: [`screen of ${id} #${asked.get(id)}`] });
                        }
                        // Still parsing the flood: answers when the spec says so.
                        return new Promise<Screen>(resolve => answers.set(id, [...answers.get(id) ?? [], resolve]));
                    }
                })
            },
            projects: async () => [],
            docker: {
                ping: async (): Promise<DockerResult<never> & { reachable: true }> => ({ reachable: true }) as never,
                stats: async () => ({ reachable: true, ok: false }) as never
            },
            clock: () => clock
        });
    }

    it('five windows refreshing together on one session change make one thumbnail per session, not five', async () => {
        const d = dashboard([session('a', '/w/alpha'), session('b', '/w/beta')]);
        const snapshots = await Promise.all(Array.from({ length: 5 }, () => d.snapshot()));
        expect(asked.get('a'), 'screen a serialised once').to.equal(1);
        expect(asked.get('b'), 'screen b serialised once').to.equal(1);
        for (const s of snapshots) {
            expect(s.tiles.map(t => t.thumbnail?.lines[0]).sort()).to.deep.equal(['screen of a #1', 'screen of b #1']);
        }
    });

    it('a flooding session\'s screen holds back neither the dashboard nor the other tiles: its tile keeps its last thumbnail', async function () {
        this.timeout(THUMBNAIL_TIMEOUT_MS * 4 + 5000);
        const d = dashboard([session('a', '/w/alpha'), session('b', '/w/beta')]);
        const first = await d.snapshot();
        expect(first.tiles.find(t => t.sessionId === 'a')!.thumbnail!.lines).to.deep.equal(['screen of a #1']);
        // The agent of a floods: its screen answers only after a long parse.
        slow.add('a');
        clock += THUMBNAIL_REFRESH_MS;
        const started = Date.now();
        const second = await d.snapshot();
        const took = Date.now() - started;
        expect(took, 'the dashboard answers within the thumbnail bound').to.be.below(THUMBNAIL_TIMEOUT_MS + 500);
        expect(second.tiles.find(t => t.sessionId === 'b')!.thumbnail!.lines, 'the quiet session is fresh').to.deep.equal(['screen of b #2']);
        expect(second.tiles.find(t => t.sessionId === 'a')!.thumbnail!.lines, 'the flooding one shows what it showed').to.deep.equal(['screen of a #1']);
        // Windows keep asking while a is still parsing: no pile of waiting serialisations behind the flood.
        clock += THUMBNAIL_REFRESH_MS;
        await d.snapshot();
        clock += THUMBNAIL_REFRESH_MS;
        await d.snapshot();
        expect(asked.get('a'), 'one serialisation of a waits at a time').to.equal(2);
        // The parse ends: the next refresh shows the screen as it answered.
        answers.get('a')!.forEach(resolve => resolve({ cols: 80, rows: 24, lines: ['after the flood'] }));
        await new Promise(resolve => setImmediate(resolve));
        clock += THUMBNAIL_REFRESH_MS;
        const later = await d.snapshot();
        expect(later.tiles.find(t => t.sessionId === 'a')!.thumbnail!.lines).to.deep.equal(['after the flood']);
    });
});
