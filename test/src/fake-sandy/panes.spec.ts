/**
 * The fake's `panes` command draws sandy's multi-agent window as its tmux does: the IDE's pane reader
 * (core's tmux-panes.ts through the backend's ScreenState) must read it as it reads the real recordings.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { detectPrompt } from '@sandy-ui/core/common';
import { ScreenState } from '@sandy-ui/core/node';
import { sandyPanesScreen } from './tui';

const SCREENS = path.resolve(__dirname, '..', '..', 'fixtures', 'agent-screens');
const recorded = (name: string) => fs.readFileSync(path.join(SCREENS, `${name}.txt`), 'utf8').replace(/\n$/, '').split('\n');

describe('fake sandy: `panes`, sandy\'s multi-agent window (unit)', () => {
    const layouts = [
        ['claude/permission-bash', 'codex/idle-input'],
        ['claude/idle-after-tool', 'codex/permission-exec', 'gemini/working'],
        ['claude/working', 'codex/working', 'gemini/permission-shell', 'opencode/idle-input']
    ].map(l => l.map(n => n.replace('claude/working', 'claude/working-thinking')));
    for (const [cols, rows] of [[80, 24], [135, 50], [200, 60]]) {
        for (const names of layouts) {
            it(`${names.length} panes at ${cols}×${rows}: read back pane by pane, agents in sandy's order${cols >= 135 ? ', the waiting one waiting' : ''}`, async () => {
                const agents = names.map(n => n.split('/')[0]);
                const screen = new ScreenState(cols, rows, () => undefined);
                try {
                    screen.write(sandyPanesScreen(names.map((n, i) => ({ agent: agents[i], lines: recorded(n) })), cols, rows));
                    const panes = await screen.panes(agents);
                    expect(panes?.map(p => p.agent)).to.deep.equal(agents);
                    if (cols >= 135) {
                        const waiting = panes!.filter(p => detectPrompt(p.lines, p.agent)).map(p => p.agent);
                        expect(waiting).to.deep.equal(names.filter(n => /permission/.test(n)).map(n => n.split('/')[0]));
                    }
                } finally {
                    screen.dispose();
                }
            });
        }
    }
});
