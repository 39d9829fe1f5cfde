import { expect } from 'chai';
import { JSDOM } from 'jsdom';
import type { DashboardSnapshot, DashboardTile } from '../../common/session/dashboard-types';
import { DashboardView } from './dashboard-view';

const NOW = 1_000_000;

function tile(id: string, extra: Partial<DashboardTile> = {}): DashboardTile {
    return {
        sessionId: id, workspace: `/w/${id}`, project: id, mode: 'daemon', origin: 'ide', attention: { state: 'idle' },
        startedAt: NOW - 192_000, lastOutputAt: NOW - 12_000, ...extra
    };
}

describe('DashboardView (unit, jsdom)', () => {
    let dom: JSDOM;
    let root: HTMLElement;
    let opened: string[];
    let view: DashboardView;
    beforeEach(() => {
        dom = new JSDOM('<!doctype html><html><body><div id="c"></div></body></html>', { pretendToBeVisual: true });
        root = dom.window.document.getElementById('c')!;
        opened = [];
        view = new DashboardView(root, { open: id => opened.push(id) });
    });

    const snapshot = (tiles: DashboardTile[], docker: DashboardSnapshot['docker'] = { state: 'ok' }): DashboardSnapshot => ({ tiles, docker, at: NOW });
    const tiles = (): HTMLButtonElement[] => [...root.querySelectorAll<HTMLButtonElement>('button.sandy-dashboard-tile')];

    it('tiles in the attention order (needs-you first), each with project, agent, badge, elapsed, last activity, CPU, memory and its thumbnail', () => {
        view.render(snapshot([
            tile('idle-one'),
            tile('asker', { agent: 'claude', attention: { state: 'needs-you', since: NOW - 5000 }, cpuPercent: 12.34, memoryBytes: 300 * 1024 * 1024, memoryLimit: 2 * 1024 ** 3,
                thumbnail: { cols: 80, rows: 24, lines: ['fake sandy 1.7.1-dev — /w/asker', 'prompt>'] } }),
            tile('busy', { attention: { state: 'working', since: NOW } })
        ]), NOW);
        expect(tiles().map(t => t.dataset.sessionId)).to.deep.equal(['asker', 'busy', 'idle-one']);
        const asker = tiles()[0];
        expect(asker.classList.contains('sandy-dashboard-tile-needs-you')).to.equal(true);
        expect(asker.getAttribute('aria-label')).to.equal('asker, Needs you, claude');
        expect(asker.querySelector('.sandy-dashboard-badge')!.textContent).to.equal('Needs you');
        expect(asker.querySelector('.sandy-dashboard-elapsed')!.textContent).to.equal('running 3m 12s');
        expect(asker.querySelector('.sandy-dashboard-activity')!.textContent).to.equal('12 s ago');
        expect(asker.querySelector('.sandy-dashboard-cpu')!.textContent).to.equal('CPU 12 %');
        expect(asker.querySelector('.sandy-dashboard-memory')!.textContent).to.equal('Mem 300 MiB / 2.0 GiB');
        expect(asker.querySelector('pre.sandy-dashboard-thumbnail')!.textContent).to.equal('fake sandy 1.7.1-dev — /w/asker\nprompt>');
        expect(tiles()[1].querySelector('.sandy-dashboard-cpu')!.textContent).to.equal('CPU —');
        expect(root.querySelector<HTMLElement>('.sandy-dashboard-docker')!.hidden).to.equal(true);
    });

    it('a multi-agent tile shows each agent\'s pane, the waiting one marked; single-agent tiles show none', () => {
        view.render(snapshot([
            tile('pair', { agent: 'claude,codex', attention: { state: 'needs-you', since: NOW - 5000, waitingFor: 'prompt', panes: [{ agent: 'claude', state: 'working' }, { agent: 'codex', state: 'waiting' }] } }),
            tile('solo', { agent: 'claude' })
        ]), NOW);
        const [pair, solo] = tiles();
        expect([...pair.querySelectorAll('.sandy-dashboard-pane')].map(p => [p.textContent, p.classList.contains('sandy-dashboard-pane-waiting')]))
            .to.deep.equal([['claude working', false], ['codex waiting at its prompt', true]]);
        expect(pair.getAttribute('aria-label')).to.equal('pair, Needs you, claude working · codex waiting at its prompt');
        expect(solo.querySelector('.sandy-dashboard-panes')).to.equal(null);
    });

    it('a click, or Enter on a focused tile, asks for that session\'s tab; the arrow keys move the focus; one tab stop', () => {
        view.render(snapshot([tile('a'), tile('b'), tile('c')]), NOW);
        tiles()[1].click();
        expect(opened).to.deep.equal(['b']);
        expect(tiles().map(t => t.tabIndex)).to.deep.equal([0, -1, -1]);
        tiles()[0].focus();
        tiles()[0].dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
        expect(dom.window.document.activeElement).to.equal(tiles()[1]);
        tiles()[1].dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'End', bubbles: true }));
        expect(dom.window.document.activeElement).to.equal(tiles()[2]);
        expect(tiles().map(t => t.tabIndex)).to.deep.equal([-1, -1, 0]);
        // A redraw keeps the focused tile focused.
        view.render(snapshot([tile('a'), tile('b'), tile('c')]), NOW);
        expect((dom.window.document.activeElement as HTMLElement).dataset.sessionId).to.equal('c');
        // Buttons: Enter activates them natively (a click event), which is what opens the tab.
        expect(tiles().every(t => t.type === 'button')).to.equal(true);
    });

    it('Docker unreachable is a banner with its reason as text; an empty dashboard says how to get tiles', () => {
        view.render(snapshot([], { state: 'unreachable', reason: 'no Docker socket at /var/run/docker.sock <b>x</b>' }), NOW);
        const banner = root.querySelector<HTMLElement>('.sandy-dashboard-docker')!;
        expect(banner.hidden).to.equal(false);
        expect(banner.textContent).to.equal('Docker unreachable — no Docker socket at /var/run/docker.sock <b>x</b>');
        expect(banner.children.length).to.equal(0);
        expect(root.querySelector('.sandy-dashboard-empty')!.textContent).to.match(/^No sandy sessions/);
    });

    it('Attack: a thumbnail, a project name and an agent that carry markup, escapes or bidi overrides are shown as bounded text, never markup', () => {
        view.render(snapshot([tile('x', {
            project: '<img src=x onerror=alert(1)>',
            agent: '<script>alert(1)</script>',
            thumbnail: { cols: 1e9, rows: 1e9, lines: ['<svg onload=alert(1)>', '\x1b]52;c;ZXZpbA==\x07\u202eexe.txt', 'y'.repeat(5_000_000), ...Array(5000).fill('row')] }
        })]), NOW);
        expect(root.querySelectorAll('img, script, svg').length).to.equal(0);
        const t = tiles()[0];
        expect(t.querySelector('.sandy-dashboard-project')!.textContent).to.equal('<img src=x onerror=alert(1)>');
        const pre = t.querySelector('pre')!;
        expect(pre.children.length).to.equal(0);
        const lines = pre.textContent!.split('\n');
        expect(lines.length).to.be.at.most(60);
        expect(lines.every(l => l.length <= 240)).to.equal(true);
        expect(pre.textContent).to.not.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    });

    it('a problem is said above the tiles, which stay', () => {
        view.render(snapshot([tile('a')]), NOW);
        view.showProblem('the backend went away');
        expect(root.querySelector('.sandy-dashboard-problem')!.textContent).to.equal('the backend went away');
        expect(tiles()).to.have.length(1);
    });
});
