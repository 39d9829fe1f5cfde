/**
 * A multi-agent session's attention, pane by pane, in the supervisor: the recorded tmux streams of
 * sandy's window (test/fixtures/agent-screens/sandy-tmux) fed through a scripted PTY, core's real
 * prompt detector, a fake clock.
 */
import { expect } from 'chai';
import { detectPrompt } from '../../common/session/prompt-detect';
import { PANE_LOOK_MS, PROMPT_QUIET_MS, PtySupervisor } from './pty-supervisor';
import { ScriptedPty } from '../test/scripted-pty';
import { sandyTmuxRecording } from '../test/agent-screens';

/** gemini's permission dialog as recorded (gemini/permission-shell in the four-pane recording), each row at most 60 columns. */
const geminiDialog = sandyTmuxRecording('four-gemini-permission', 'txt').split('\n').slice(35, 46).map(l => Array.from(l).slice(68, 128).join(''));

/** `lines` drawn from row `top`, column `left` (1-based), as an agent's redraw inside its pane would be. */
function drawn(lines: readonly string[], top: number, left: number): string {
    return lines.map((l, i) => `\x1b[${top + i};${left}H${l}`).join('');
}

describe('Multi-agent sessions: attention per pane (unit, recorded tmux streams)', () => {
    let pty: ScriptedPty;
    let supervisor: PtySupervisor;
    let now: number;

    beforeEach(() => {
        pty = new ScriptedPty();
        now = 1_000_000;
        supervisor = new PtySupervisor(() => pty, {
            timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined, clock: () => now, attentionTickMs: 5,
            promptDetector: (lines, agent) => detectPrompt(lines, agent) !== undefined
        });
    });
    afterEach(async () => {
        await supervisor.dispose();
    });

    const until = async (probe: () => boolean, what: string) => {
        const deadline = Date.now() + 5_000;
        while (!probe()) {
            expect(Date.now(), what).to.be.below(deadline);
            await new Promise(r => setTimeout(r, 10));
        }
    };
    const launch = (agent: string) => supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 135, rows: 50, agent });
    const panes = (id: string) => supervisor.get(id)!.attention?.panes?.map(p => `${p.agent}:${p.state}`).join(' ');

    it('claude waiting in its pane while codex keeps the stream busy: needs-you within a look, without a quiet spell', async () => {
        const { id } = launch('claude,codex');
        pty.emit(sandyTmuxRecording('two-claude-permission', 'raw'));
        await until(() => panes(id) !== undefined, 'the panes looked at');
        expect(panes(id)).to.match(/^claude:waiting codex:(working|idle)$/);
        expect(supervisor.get(id)!.attention).to.deep.include({ state: 'needs-you', waitingFor: 'prompt' });
        // codex's pane keeps changing (output every moment): claude's wait stands.
        for (let i = 0; i < 3; i++) {
            now += PANE_LOOK_MS;
            pty.emit(`\x1b[45;70Hline ${i} of codex's output`);
            await new Promise(r => setTimeout(r, 30));
        }
        await until(() => panes(id) === 'claude:waiting codex:working', 'codex working beside the wait');
        expect(supervisor.get(id)!.attention?.state).to.equal('needs-you');
    });

    it('seeing the session clears the wait; another pane\'s prompt is a new wait, the same prompt again is not', async () => {
        const { id } = launch('claude,codex,gemini');
        pty.emit(sandyTmuxRecording('three-codex-permission', 'raw'));
        await until(() => supervisor.get(id)!.attention?.state === 'needs-you', 'codex waiting');
        expect(panes(id)).to.match(/^claude:\w+ codex:waiting gemini:\w+$/);
        supervisor.setSeen(id, true);
        supervisor.setSeen(id, false);
        expect(supervisor.get(id)!.attention?.state, 'seen: no wait').not.to.equal('needs-you');
        // codex's dialog is still up when the panes are looked at again: still seen.
        now += PANE_LOOK_MS;
        pty.emit('\x1b[30;80H.');
        await until(() => supervisor.get(id)!.attention?.panes?.[2].state === 'working', 'gemini\'s pane changed');
        expect(supervisor.get(id)!.attention?.state).not.to.equal('needs-you');
        // Now gemini (bottom right: rows 26-49, columns 69-135) draws its permission dialog: another prompt.
        now += PANE_LOOK_MS;
        pty.emit(drawn(geminiDialog, 36, 69));
        await until(() => supervisor.get(id)!.attention?.state === 'needs-you', 'gemini\'s prompt a new wait');
        expect(panes(id)).to.match(/^claude:\w+ codex:waiting gemini:waiting$/);
    });

    it('the clock set back an hour: the panes are still looked at as output comes', async () => {
        const { id } = launch('claude,codex,gemini');
        pty.emit(sandyTmuxRecording('three-codex-permission', 'raw'));
        await until(() => supervisor.get(id)!.attention?.state === 'needs-you', 'codex waiting');
        supervisor.setSeen(id, true);
        supervisor.setSeen(id, false);
        now -= 3_600_000;
        pty.emit(drawn(geminiDialog, 36, 69));
        await until(() => supervisor.get(id)!.attention?.panes?.[2].state === 'waiting', 'gemini\'s prompt seen in its pane');
        expect(supervisor.get(id)!.attention?.state).to.equal('needs-you');
    });

    it('a first look taken mid-draw (not the layout yet), then the whole window after a quiet spell: the waiting pane counts, the whole-screen look does not undo it', async () => {
        // The whole screen of a multi-agent window is no one agent's prompt (as at the e2e's 123 columns).
        const wholeScreenLooks: string[] = [];
        await supervisor.dispose();
        supervisor = new PtySupervisor(() => pty, {
            timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined, clock: () => now, attentionTickMs: 5,
            promptDetector: (lines, agent) => {
                if (agent?.includes(',')) {
                    wholeScreenLooks.push(agent);
                    return false;
                }
                return detectPrompt(lines, agent) !== undefined;
            }
        });
        const { id } = launch('claude,codex');
        // sandy's window half drawn when the panes are first looked at: no layout, no panes.
        pty.emit('\x1b[H\x1b[2J\x1b[1;1H── claude ──');
        await new Promise(r => setTimeout(r, 50));
        expect(supervisor.get(id)!.attention?.panes).to.equal(undefined);
        // The rest arrives; then quiet long enough for both a pane look and a whole-screen look in the same tick.
        now += 1;
        pty.emit(sandyTmuxRecording('two-claude-permission', 'raw'));
        now += PANE_LOOK_MS + PROMPT_QUIET_MS;
        await until(() => panes(id) !== undefined, 'the panes looked at');
        await new Promise(r => setTimeout(r, 100));
        expect(supervisor.get(id)!.attention).to.deep.include({ state: 'needs-you', waitingFor: 'prompt' });
        expect(wholeScreenLooks, 'no whole-screen look while the panes are being looked at').to.deep.equal([]);
        expect(panes(id)).to.match(/^claude:waiting codex:(working|idle)$/);
    });

    it('Attack: a screen that stops being the layout (an agent breaking a border, a zoomed pane) does not end a known wait', async () => {
        const { id } = launch('claude,codex');
        pty.emit(sandyTmuxRecording('two-claude-permission', 'raw'));
        await until(() => supervisor.get(id)!.attention?.state === 'needs-you', 'claude waiting');
        // The border column gone from one row (as a width trick or a zoom would leave it).
        now += PANE_LOOK_MS;
        pty.emit('\x1b[20;60H' + 'x'.repeat(20));
        now += PANE_LOOK_MS * 5;
        pty.emit('\x1b[21;60H' + 'y'.repeat(20));
        await new Promise(r => setTimeout(r, 100));
        expect(supervisor.get(id)!.attention).to.deep.include({ state: 'needs-you', waitingFor: 'prompt' });
        expect(panes(id)).to.equal('claude:waiting codex:idle');
    });

    it('a screen that is not sandy\'s layout falls back to the whole screen (no panes reported)', async () => {
        const { id } = launch('claude,codex');
        pty.emit('\x1b[2J\x1b[Hjust a shell, no tmux\r\n');
        now += PANE_LOOK_MS;
        await new Promise(r => setTimeout(r, 50));
        expect(supervisor.get(id)!.attention?.panes).to.equal(undefined);
    });

    it('one agent: no panes, whatever the screen shows', async () => {
        const { id } = launch('claude');
        pty.emit(sandyTmuxRecording('two-claude-permission', 'raw'));
        now += PANE_LOOK_MS;
        await new Promise(r => setTimeout(r, 50));
        expect(supervisor.get(id)!.attention?.panes).to.equal(undefined);
    });
});
