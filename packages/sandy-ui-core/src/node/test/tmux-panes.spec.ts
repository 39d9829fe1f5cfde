/**
 * common/session/tmux-panes.ts on sandy's multi-agent window as a tmux 3.3a attach client draws it
 * (test/fixtures/agent-screens/sandy-tmux, README there): from the recorded text, and from the
 * recorded byte stream through the backend's own screen (ScreenState), then prompt detection per pane.
 */
import { expect } from 'chai';
import { detectPrompt } from '../../common/session/prompt-detect';
import { agentsOf, gridOfLines, PaneScreen, sandyPanes } from '../../common/session/tmux-panes';
import { ScreenState } from '../terminal/screen-state';
import { sandyTmuxRecording } from './agent-screens';

const COLS = 135;
const ROWS = 50;

function recordedLines(name: string): string[] {
    return sandyTmuxRecording(name, 'txt').replace(/\n$/, '').split('\n');
}

/** A border label replaced in place as tmux would draw it: the border's dashes give or take the difference, so no column moves. */
function relabel(line: string, from: string, to: string): string {
    return line.replace(new RegExp(`── ${from} (─*)`), (_m, dashes: string) => {
        const room = from.length + dashes.length;
        return `── ${to} ${'─'.repeat(Math.max(0, room - to.length))}`;
    });
}

async function throughScreen(name: string, agents: string[]): Promise<PaneScreen[] | undefined> {
    const screen = new ScreenState(COLS, ROWS, () => undefined);
    try {
        screen.write(sandyTmuxRecording(name, 'raw'));
        return await screen.panes(agents);
    } finally {
        screen.dispose();
    }
}

/** Per recording: the session's agents, and which pane's agent waits (with the kind) — the rest do not. */
const CASES: Array<{ name: string; agents: string[]; waiting: Record<string, string> }> = [
    { name: 'two-claude-permission', agents: ['claude', 'codex'], waiting: { claude: 'permission' } },
    { name: 'two-codex-working-claude-idle', agents: ['claude', 'codex'], waiting: {} },
    { name: 'three-codex-permission', agents: ['claude', 'codex', 'gemini'], waiting: { codex: 'permission' } },
    { name: 'four-gemini-permission', agents: ['claude', 'codex', 'gemini', 'opencode'], waiting: { gemini: 'permission' } }
];

describe('sandy\'s multi-agent window, pane by pane (unit, recorded tmux screens)', () => {
    for (const c of CASES) {
        for (const source of ['recorded text', 'the byte stream through ScreenState'] as const) {
            it(`${c.name} (${source}): each agent in its pane, and only ${Object.keys(c.waiting).join(' and ') || 'none'} waiting`, async () => {
                const panes = source === 'recorded text'
                    ? sandyPanes(gridOfLines(recordedLines(c.name), COLS), c.agents)
                    : await throughScreen(c.name, c.agents);
                expect(panes, 'the layout is recognised').to.not.equal(undefined);
                expect(panes!.map(p => p.agent).sort()).to.deep.equal([...c.agents].sort());
                // sandy's order: top-left, top-right, bottom-right, bottom-left; its agents in that order.
                expect(panes!.map(p => p.agent)).to.deep.equal(c.agents);
                for (const pane of panes!) {
                    expect(pane.lines.every(l => !/sandy · ★/.test(l)), 'tmux\'s status bar is no pane\'s').to.equal(true);
                    const found = detectPrompt(pane.lines, pane.agent);
                    expect(found?.kind, `${pane.agent}'s pane`).to.equal(c.waiting[pane.agent]);
                }
            });
        }
    }

    it('panes hold their own columns: claude\'s rows carry none of codex\'s text', () => {
        const panes = sandyPanes(gridOfLines(recordedLines('two-claude-permission'), COLS), ['claude', 'codex'])!;
        expect(panes[0].lines.join('\n')).to.include('Do you want to proceed?').and.not.include('Ask Codex');
        expect(panes[1].lines.join('\n')).to.include('Ask Codex to do anything').and.not.include('Do you want to proceed?');
        expect(panes[0].lines).to.have.length(ROWS - 2);
    });

    it('unlabelled panes (an image without @sandy_pane_agent: the window name) follow sandy\'s order', () => {
        const lines = recordedLines('three-codex-permission').map(l => relabel(relabel(relabel(l, 'claude', 'sandy: demo'), 'codex', 'sandy: demo'), 'gemini', 'sandy: demo'));
        const panes = sandyPanes(gridOfLines(lines, COLS), ['claude', 'codex', 'gemini'])!;
        expect(panes.map(p => p.agent)).to.deep.equal(['claude', 'codex', 'gemini']);
    });

    it('labels decide who is where when every pane names one of the session\'s agents', () => {
        const lines = recordedLines('two-claude-permission').map((l, y) => y === 0 ? relabel(relabel(relabel(l, 'claude', 'X'), 'codex', 'claude'), 'X', 'codex') : l);
        const panes = sandyPanes(gridOfLines(lines, COLS), ['claude', 'codex'])!;
        expect(panes.map(p => p.agent)).to.deep.equal(['codex', 'claude']);
    });

    describe('anything else is not the layout (the caller looks at the whole screen)', () => {
        const lines = recordedLines('two-claude-permission');
        const grid = (l: string[]) => gridOfLines(l, COLS);
        it('one agent, five agents, or a screen too small', () => {
            expect(sandyPanes(grid(lines), ['claude'])).to.equal(undefined);
            expect(sandyPanes(grid(lines), ['a', 'b', 'c', 'd', 'e'])).to.equal(undefined);
            expect(sandyPanes(gridOfLines(lines.slice(0, 3), COLS), ['claude', 'codex'])).to.equal(undefined);
        });
        it('a zoomed pane (no border column) or a different number of panes than agents', () => {
            expect(sandyPanes(grid(recordedLines('four-gemini-permission').map(l => l.replace(/[┬┼├┤│]/g, ' '))), ['claude', 'codex', 'gemini', 'opencode'])).to.equal(undefined);
            expect(sandyPanes(grid(lines), ['claude', 'codex', 'gemini'])).to.equal(undefined);
        });
        it('an agent cannot move a pane: border-like text inside claude\'s pane changes nothing', () => {
            const forged = lines.map((l, y) => y === 10 ? '├── codex ─┼──┤│' + l.slice(16) : l);
            const panes = sandyPanes(grid(forged), ['claude', 'codex'])!;
            expect(panes.map(p => p.agent)).to.deep.equal(['claude', 'codex']);
            expect(detectPrompt(panes[0].lines, 'claude')?.kind).to.equal('permission');
        });
    });
});

describe('Attack: an agent\'s characters that tmux and xterm measure differently (unit, recorded stream + hostile bytes)', () => {
    // U+1AB0 (a combining mark newer than xterm's Unicode 6 tables): tmux adds it to the cell before,
    // the backend's xterm gives it a column of its own — every pair shifts the rest of the row by one.
    const shifted = (pairs: number) => 'a\u1ab0'.repeat(pairs);

    async function panesAfter(name: string, agents: string[], hostile: string): Promise<PaneScreen[] | undefined> {
        const screen = new ScreenState(COLS, ROWS, () => undefined);
        try {
            screen.write(sandyTmuxRecording(name, 'raw'));
            screen.write(hostile);
            return await screen.panes(agents);
        } finally {
            screen.dispose();
        }
    }

    it('claude\'s pane pushes "│esc to interrupt" onto the border and into codex\'s pane: codex still waits', async () => {
        // Row 24 (codex's last row, under its dialog): 20 pairs (40 columns to xterm, 20 to tmux) + 27 spaces land the │ on the border.
        const panes = await panesAfter('three-codex-permission', ['claude', 'codex', 'gemini'], `\x1b[24;1H${shifted(20)}${' '.repeat(27)}\u2502esc to interrupt`);
        expect(panes?.map(p => p.agent)).to.deep.equal(['claude', 'codex', 'gemini']);
        expect(detectPrompt(panes![1].lines, 'codex')?.kind, 'codex\'s dialog is still seen').to.equal('permission');
        expect(panes![1].lines.join('\n')).not.to.include('esc to interrupt');
    });

    it('a row shifted past the border does not make the layout unrecognisable', async () => {
        const panes = await panesAfter('two-claude-permission', ['claude', 'codex'], `\x1b[10;1H${shifted(3)}${'-'.repeat(66)}`);
        expect(panes?.map(p => p.agent)).to.deep.equal(['claude', 'codex']);
        expect(detectPrompt(panes![0].lines, 'claude')?.kind).to.equal('permission');
    });

    it('the real agents\' dialogs are still read: their arrows, bullets and frames are not in doubt', () => {
        for (const c of CASES) {
            const panes = sandyPanes(gridOfLines(recordedLines(c.name), COLS), c.agents)!;
            const waiting = panes.filter(p => detectPrompt(p.lines, p.agent)).map(p => p.agent);
            expect(waiting, c.name).to.deep.equal(Object.keys(c.waiting));
        }
    });
});

describe('agentsOf: the session\'s agents from SANDY_AGENT (unit)', () => {
    it('names in order, each once, at most four; nothing else', () => {
        expect(agentsOf('claude,codex')).to.deep.equal(['claude', 'codex']);
        expect(agentsOf(' Claude , codex,claude ')).to.deep.equal(['claude', 'codex']);
        expect(agentsOf('a,b,c,d,e')).to.deep.equal(['a', 'b', 'c', 'd']);
        expect(agentsOf('claude;rm -rf /,\u001b]9;x\u0007')).to.deep.equal([]);
        expect(agentsOf(undefined)).to.deep.equal([]);
        expect(agentsOf('x'.repeat(500))).to.deep.equal([]);
    });
});
