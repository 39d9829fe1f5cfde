import { expect } from 'chai';
import { ActivityTracker, Attention, attentionOf, compareAttention, paneAttentionOf, SeenSessions, WORKING_WINDOW_MS } from './session-attention';
import type { SessionInfo } from './session-types';

type Ended = Pick<SessionInfo, 'status' | 'exitCode' | 'signal' | 'endReason' | 'endedAt'>;
const running: Ended = { status: 'running' };

describe('session attention: needs you / working / idle / exited / failed (unit)', () => {
    it('a running session is working while output is recent, idle once quiet, and needs you once it asked', () => {
        const t = new ActivityTracker();
        expect(attentionOf(running, t.current, 1_000).state, 'nothing yet').to.equal('idle');
        t.output(1_000);
        expect(attentionOf(running, t.current, 1_000 + WORKING_WINDOW_MS - 1)).to.deep.equal({ state: 'working', since: 1_000 });
        expect(attentionOf(running, t.current, 1_000 + WORKING_WINDOW_MS)).to.deep.equal({ state: 'idle', since: 1_000 });
        expect(attentionOf(running, t.current, 1_000 - 3_600_000), 'the clock set back an hour: not working for that hour').to.deep.equal({ state: 'idle', since: 1_000 });
        t.asked('bell', 2_000);
        t.output(2_500);
        // Output after asking does not end the wait: only the user seeing it does.
        expect(attentionOf(running, t.current, 2_600)).to.deep.equal({ state: 'needs-you', since: 2_000, waitingFor: 'bell' });
        t.asked('notification', 3_000);
        expect(attentionOf(running, t.current, 3_100), 'a notification says more; the wait keeps its start')
            .to.deep.equal({ state: 'needs-you', since: 2_000, waitingFor: 'notification' });
    });

    it('seeing the session clears the wait, and what it asks while seen is no wait', () => {
        const t = new ActivityTracker();
        t.asked('notification', 10);
        t.setSeen(true);
        expect(attentionOf(running, t.current, 20).state).to.equal('idle');
        t.asked('notification', 30);
        t.asked('bell', 31);
        expect(attentionOf(running, t.current, 40).state, 'asked while on screen').to.equal('idle');
        t.setSeen(false);
        t.asked('bell', 50);
        expect(attentionOf(running, t.current, 60)).to.deep.equal({ state: 'needs-you', since: 50, waitingFor: 'bell' });
    });

    it('an ended session is exited when it ended as asked, failed otherwise, whatever it asked before', () => {
        const t = new ActivityTracker();
        t.asked('notification', 1);
        const ended = (more: Partial<Ended>): string => attentionOf({ status: 'exited', endedAt: 99, ...more }, t.current, 100).state;
        expect(ended({ exitCode: 0 })).to.equal('exited');
        expect(ended({ exitCode: 0, endReason: 'agent-exited' })).to.equal('exited');
        expect(ended({ exitCode: 130 }), 'SIGINT, handled by sandy\'s trap (a stop)').to.equal('exited');
        expect(ended({ exitCode: 143 }), 'SIGTERM, handled by sandy\'s trap').to.equal('exited');
        expect(ended({ endReason: 'stopped', signal: 'SIGKILL' }), 'the user stopped it; the escalation killed it').to.equal('exited');
        expect(ended({ endReason: 'gone', exitCode: 0 })).to.equal('exited');
        expect(ended({ exitCode: 1 })).to.equal('failed');
        expect(ended({ signal: 'SIGKILL' }), 'killed by someone').to.equal('failed');
        expect(ended({ endReason: 'start-failed', exitCode: 0 }), 'sandy --start exited 0 but nothing came up').to.equal('failed');
        expect(ended({ endReason: 'start-failed', exitCode: 127 })).to.equal('failed');
        expect(ended({ endReason: 'approval-changed', exitCode: 0 }), 'the IDE stopped it: sandy approved what the user was not shown').to.equal('failed');
        expect(attentionOf({ status: 'exited', exitCode: 0, endedAt: 99 }, t.current, 100).since).to.equal(99);
    });

    it('orders the queue: needs you first, the oldest wait first; then working, idle, failed, exited, newest first', () => {
        const a = (state: Attention['state'], since?: number): Attention => ({ state, since });
        const queue = [a('exited', 5), a('idle', 3), a('needs-you', 20), a('failed', 4), a('working', 8), a('needs-you', 10), a('idle', 7), a('exited', 9)];
        expect(queue.sort(compareAttention).map(x => `${x.state}@${x.since}`)).to.deep.equal([
            'needs-you@10', 'needs-you@20', 'working@8', 'idle@7', 'idle@3', 'failed@4', 'exited@9', 'exited@5'
        ]);
    });
});

describe('SeenSessions: a session is seen while any window shows it (unit)', () => {
    it('says which sessions changed; a window that goes away sees nothing; junk from a window counts as nothing', () => {
        const seen = new SeenSessions();
        expect(seen.set('w1', ['a'])).to.deep.equal([{ id: 'a', seen: true }]);
        expect(seen.set('w2', ['a', 'b'])).to.deep.equal([{ id: 'b', seen: true }]);
        expect(seen.set('w1', []), 'w2 still shows a').to.deep.equal([]);
        expect(seen.has('a')).to.equal(true);
        expect(seen.set('w2', [])).to.deep.equal([{ id: 'a', seen: false }, { id: 'b', seen: false }]);
        expect(seen.set('w3', 'a')).to.deep.equal([]);
        expect(seen.set('w3', [1, { id: 'a' }, 'x'.repeat(500), 'c'])).to.deep.equal([{ id: 'c', seen: true }]);
        expect(seen.set('w3', Array.from({ length: 1000 }, (_, i) => `s${i}`)).filter(c => c.seen)).to.have.length(64);
    });
});

describe('ActivityTracker: an agent waiting at its own prompt (unit)', () => {
    it('a prompt on screen is a wait from when it was seen on screen; it ends when the prompt goes or the user looks', () => {
        const t = new ActivityTracker();
        expect(t.prompt(true, 100)).to.equal(true);
        expect(t.current).to.include({ waitingSince: 100, waitingFor: 'prompt' });
        expect(t.prompt(true, 200), 'the same prompt still there: no change').to.equal(false);
        expect(t.current.waitingSince).to.equal(100);
        expect(t.prompt(false, 300), 'answered elsewhere, or gone by itself').to.equal(true);
        expect(t.current.waitingSince).to.equal(undefined);
        t.prompt(true, 400);
        t.setSeen(true);
        t.setSeen(false);
        expect(t.prompt(true, 500), 'a prompt the user has seen is no wait').to.equal(false);
        expect(t.current.waitingSince).to.equal(undefined);
        t.prompt(false, 600);
        expect(t.prompt(true, 700), 'the next prompt is').to.equal(true);
        expect(t.current).to.include({ waitingSince: 700, waitingFor: 'prompt' });
    });

    it('a prompt does not end a notification\'s wait, nor take its start', () => {
        const t = new ActivityTracker();
        t.asked('notification', 50);
        expect(t.prompt(true, 100)).to.equal(false);
        expect(t.prompt(false, 150)).to.equal(false);
        expect(t.current).to.include({ waitingSince: 50, waitingFor: 'notification' });
    });
});


describe('paneAttentionOf: one pane of a multi-agent session (unit)', () => {
    it('waiting while its agent waits; else working within the window of its last change, then idle by the clock alone', () => {
        expect(paneAttentionOf({ agent: 'codex', waitingSince: 500, changedAt: 900 }, 1000)).to.deep.equal({ agent: 'codex', state: 'waiting', since: 500 });
        expect(paneAttentionOf({ agent: 'claude', changedAt: 1000 }, 1000 + WORKING_WINDOW_MS - 1).state).to.equal('working');
        expect(paneAttentionOf({ agent: 'claude', changedAt: 1000 }, 1000 + WORKING_WINDOW_MS)).to.deep.equal({ agent: 'claude', state: 'idle', since: 1000 });
        expect(paneAttentionOf({ agent: 'claude', changedAt: 1000 }, 1000 - 3_600_000).state, 'the clock set back').to.equal('idle');
    });
});
