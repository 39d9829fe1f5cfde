/**
 * Attack: the size a sandy tab launches or resizes at. Since core's AreaSizes a hidden tab launches
 * at the size another tab of its area measured or reported, so whatever size reaches a window's
 * AreaSizes reaches the next PTY spawn. Expected: every size is clamped by the supervisor (2..1000
 * columns, 1..500 rows) before node-pty sees it, a size that is no number is refused without a
 * spawn and without hurting the supervisor, and the agent's own window-size sequences (CSI 8/4/3 t,
 * DECCOLM) resize neither its PTY nor the screen the backend keeps and replays.
 */
import { expect } from 'chai';
import { AreaSizes } from '../../common/terminal/area-sizes';
import { PtySupervisor } from './pty-supervisor';
import type { PtySpawnOptions } from './pty-supervisor';
import { ScreenState } from './screen-state';
import { ScriptedPty } from '../test/scripted-pty';

class SizedPty extends ScriptedPty {
    readonly resizes: string[] = [];
    override resize(cols?: number, rows?: number): void {
        this.resizes.push(`${cols}x${rows}`);
    }
}

describe('Attack: a size borrowed from the area or sent by the agent reaches the PTY (unit)', () => {
    let spawned: string[];
    let ptys: SizedPty[];
    let supervisors: PtySupervisor[];

    beforeEach(() => {
        spawned = [];
        ptys = [];
        supervisors = [];
    });

    afterEach(async () => {
        for (const pty of ptys) {
            pty.exit(0);
        }
        await Promise.all(supervisors.map(s => s.dispose()));
    });

    /** A supervisor of its own per launch (launches queue behind each other's build step). */
    function supervisor(): PtySupervisor {
        const created = new PtySupervisor((_file: string, _args: string[], options: PtySpawnOptions) => {
            spawned.push(`${options.cols}x${options.rows}`);
            const pty = new SizedPty();
            ptys.push(pty);
            return pty;
        }, { interruptGraceMs: 10, terminateGraceMs: 10 }, () => undefined);
        supervisors.push(created);
        return created;
    }

    const launch = (cols: number, rows: number, on = supervisor()) => ({
        on, info: on.launch({ sandyPath: '/x/sandy', args: [], workspace: '/home/u/proj', env: {}, cols, rows })
    });

    it('an area size of 0, negative, fractional or 100000 cells is clamped before node-pty spawns', () => {
        // AreaSizes keeps what it is told (its sources are measurements); the clamp is the supervisor's.
        const sizes = new AreaSizes();
        sizes.note('main', { cols: 100000, rows: 100000 });
        const borrowed = sizes.get('main')!;
        launch(borrowed.cols, borrowed.rows);
        launch(0, 0);
        launch(-5, -1);
        launch(80.9, 24.2);
        launch(Number.MAX_SAFE_INTEGER, 1);
        expect(spawned).to.deep.equal(['1000x500', '2x1', '2x1', '80x24', '1000x1']);
        sizes.dispose();
    });

    it('a resize of 0 or 100000 cells is clamped before node-pty resizes', () => {
        const { on, info } = launch(80, 24);
        on.resize(info.id, 100000, 100000);
        on.resize(info.id, 0, 0);
        on.resize(info.id, -3, 7.5);
        expect(ptys[0].resizes).to.deep.equal(['1000x500', '2x1', '2x7']);
    });

    it('a size that is no number (NaN, Infinity, a string over RPC) is refused: no spawn, no resize, the supervisor still works', () => {
        for (const [cols, rows] of [[NaN, 24], [80, Infinity], [-Infinity, 24], ['80' as unknown as number, 24], [null as unknown as number, 24]]) {
            expect(() => launch(cols, rows), `${cols}x${rows}`).to.throw(/Invalid terminal size/);
        }
        expect(spawned, 'nothing spawned').to.deep.equal([]);
        const on = supervisor();
        for (const [cols, rows] of [[NaN, 24], [80, Infinity]]) {
            expect(() => launch(cols, rows, on), `${cols}x${rows} on the same supervisor`).to.throw(/Invalid terminal size/);
        }
        const { info } = launch(80, 24, on);
        expect(() => on.resize(info.id, NaN, 24)).to.throw(/Invalid terminal size/);
        expect(() => on.resize(info.id, 80, Infinity)).to.throw(/Invalid terminal size/);
        expect(ptys[0].resizes).to.deep.equal([]);
        expect(spawned).to.deep.equal(['80x24']);
        expect(on.get(info.id)!.status).to.equal('running');
    });

    it('the agent\'s own window-size sequences resize neither its PTY nor the screen the backend keeps', async () => {
        const { on, info } = launch(80, 24);
        const hostile = [
            '\x1b[8;500;100000t', // resize the text area to 500 rows, 100000 columns
            '\x1b[8;0;0t',
            '\x1b[4;100000;100000t', // resize the window in pixels
            '\x1b[3;0;0t', // move the window
            '\x1b[?40h\x1b[?3h', // allow 80→132, then DECCOLM 132 columns
            '\x1b[9;1t', // maximise
            '\x1b[10;1t' // full screen
        ].join('');
        ptys[0].emit(hostile);
        const view = await on.attach(info.id);
        expect(ptys[0].resizes, 'no PTY resize').to.deep.equal([]);
        expect(on.get(info.id)!.status).to.equal('running');
        view.dispose();

        // The screen itself, as the session keeps it (replays are drawn from it).
        const screen = new ScreenState(80, 24, () => undefined);
        screen.write(hostile);
        const term = await screen.visibleText();
        expect(`${term.cols}x${term.rows}`).to.equal('80x24');
        screen.dispose();
    });
});
