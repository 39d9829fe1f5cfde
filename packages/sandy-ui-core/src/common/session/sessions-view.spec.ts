import { expect } from 'chai';
import type { SessionInfo } from './session-types';
import { nextWaiting, sessionGroups, waitingSessions } from './sessions-view';

const NOW = 10_000_000;

function session(id: string, workspace: string, extra: Partial<SessionInfo> = {}): SessionInfo {
    return { id, pid: 0, mode: 'daemon', origin: 'ide', workspace, args: [], startedAt: NOW - 3_600_000, status: 'running', attachedViews: 1, ...extra };
}

describe('Sessions view: the attention queue of every host (unit)', () => {
    const waitingLong = session('a', '/w/alpha', { agent: 'claude', attention: { state: 'needs-you', since: NOW - 600_000, waitingFor: 'notification' } });
    const waitingShort = session('b', '/w/beta', { attention: { state: 'needs-you', since: NOW - 5_000, waitingFor: 'bell' } });
    const working = session('c', '/w/gamma', { attention: { state: 'working', since: NOW - 1_000 }, lastOutputAt: NOW - 1_000 });
    const idle = session('d', '/w/delta', { attention: { state: 'idle', since: NOW - 300_000 }, lastOutputAt: NOW - 300_000 });
    const failed = session('e', '/w/eps', { status: 'exited', exitCode: 2, endedAt: NOW - 60_000, attention: { state: 'failed', since: NOW - 60_000 } });

    it('groups them Needs you (counted, the longest wait first), Working, Idle, Ended; empty groups are left out', () => {
        const groups = sessionGroups([idle, failed, working, waitingShort, waitingLong], NOW);
        expect(groups.map(g => [g.label, g.rows.map(r => r.sessionId)])).to.deep.equal([
            ['Needs you (2)', ['a', 'b']], ['Working', ['c']], ['Idle', ['d']], ['Ended', ['e']]
        ]);
        expect(sessionGroups([working], NOW).map(g => g.id)).to.deep.equal(['working']);
        expect(sessionGroups([], NOW)).to.deep.equal([]);
    });

    it('each row says what the user needs at a glance: the project, how long it has waited and for what, the agent, its age', () => {
        const [needs, , , ended] = sessionGroups([waitingLong, waitingShort, working, idle, failed], NOW, ws => ws === '/w/alpha' ? 'Alpha Project' : undefined);
        expect(needs.rows[0]).to.include({ label: 'Alpha Project', description: 'asked for you 10 min ago · claude · 1 h 0 min', icon: 'bell-dot', state: 'needs-you' });
        expect(needs.rows[1]).to.include({ label: 'beta', description: 'rang the bell just now · 1 h 0 min' });
        expect(needs.rows[0].tooltip).to.contain('/w/alpha').and.contain('Agent: claude');
        expect(ended.rows[0]).to.include({ description: 'failed (exit 2) · ran 59 min', icon: 'error' });
        const prompt = session('q', '/w/q', { attention: { state: 'needs-you', since: NOW - 180_000, waitingFor: 'prompt' } });
        expect(sessionGroups([prompt], NOW)[0].rows[0].description).to.equal('waiting at its prompt for 3 min · 1 h 0 min');
        const idleRow = sessionGroups([idle], NOW)[0].rows[0];
        expect(idleRow.description).to.equal('idle, last output 5 min ago · 1 h 0 min');
    });

    it('a multi-agent session names the agent that waits, and its tooltip each pane', () => {
        const multi = session('m', '/w/multi', {
            agent: 'claude,codex,gemini',
            attention: {
                state: 'needs-you', since: NOW - 5_000, waitingFor: 'prompt',
                panes: [{ agent: 'claude', state: 'working' }, { agent: 'codex', state: 'waiting', since: NOW - 5_000 }, { agent: 'gemini', state: 'idle' }]
            }
        });
        const row = sessionGroups([multi], NOW)[0].rows[0];
        expect(row.description).to.equal('codex waiting at its prompt · claude,codex,gemini · 1 h 0 min');
        expect(row.tooltip).to.contain('Panes: claude working · codex waiting at its prompt · gemini idle');
        const both = session('n', '/w/n', { attention: { state: 'needs-you', since: NOW - 120_000, waitingFor: 'prompt', panes: [{ agent: 'claude', state: 'waiting' }, { agent: 'codex', state: 'waiting' }] } });
        expect(sessionGroups([both], NOW)[0].rows[0].description).to.equal('claude and codex waiting at their prompts for 2 min · 1 h 0 min');
    });

    it('a session the backend did not rate (an older backend) is rated from its info: running is idle, ended is exited or failed', () => {
        const plain = session('p', '/w/plain');
        const gone = session('g', '/w/gone', { status: 'exited', endReason: 'stopped', exitCode: 0 });
        expect(sessionGroups([plain, gone], NOW).map(g => [g.id, g.rows.map(r => r.state)])).to.deep.equal([['idle', ['idle']], ['ended', ['exited']]]);
    });

    it('the next session that needs you: the longest wait that is not the one on screen; none when nobody waits', () => {
        const all = [working, waitingShort, waitingLong];
        expect(waitingSessions(all, NOW).map(s => s.id)).to.deep.equal(['a', 'b']);
        expect(nextWaiting(all, undefined, NOW)?.id).to.equal('a');
        expect(nextWaiting(all, 'c', NOW)?.id).to.equal('a');
        expect(nextWaiting(all, 'a', NOW)?.id, 'pressing again moves down the queue').to.equal('b');
        expect(nextWaiting([waitingLong], 'a', NOW)?.id, 'the only one, even on screen').to.equal('a');
        expect(nextWaiting([working, idle], undefined, NOW)).to.equal(undefined);
        expect(waitingSessions([{ ...waitingLong, status: 'exited' }], NOW), 'an ended session waits for nobody').to.deep.equal([]);
    });
});
