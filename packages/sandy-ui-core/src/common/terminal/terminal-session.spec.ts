import { expect } from 'chai';
import type { ApprovalRequest } from '../approvals/approval-model';
import type { LaunchOutcome } from '../service/service-protocol';
import { NOT_APPROVED_TEXT } from '../host/labels';
import { RESTORED_SESSION_ENDED_TEXT, SESSION_ENDED_TEXT, SESSION_GONE_TEXT } from '../host/labels';
import { TerminalSession } from './terminal-session';
import { FakeSurface, FakeWorld, sessionInfo, settle } from './terminal-fakes';

function approvalRequest(token: string): ApprovalRequest {
    return { workspace: '/home/u/proj', kind: 'approve', token, lines: [], removedKeys: [], hasPreviousApproval: false, approvalFilePath: '/a', notes: [], refusals: [] };
}

describe('TerminalSession: one sandy tab\'s lifecycle for every host (unit)', () => {
    const workspace = '/home/u/proj';
    let world: FakeWorld;

    beforeEach(() => {
        world = new FakeWorld();
    });

    it('launches at the measured size with the clearance once, connects, and sizes the PTY to the view', async () => {
        const tab = new TerminalSession({ workspace, clearance: { approvalToken: 't1' } }, world.deps());
        expect(world.surface.label).to.equal('sandy: proj');
        expect(world.surface.caption).to.equal(workspace);
        await tab.start();
        expect(world.launches).to.deep.equal([{ workspace, cols: 120, rows: 40, approvalToken: 't1' }]);
        expect(tab.session?.id).to.equal('s1');
        expect(world.stream?.sessionId).to.equal('s1');
        expect(world.resized).to.deep.equal(['s1 120x40']);
        expect(world.surface.log).to.deep.equal(['banner hidden']);
        expect(world.surface.caption).to.equal(`${workspace} — pid 102, running`);

        // A second start does nothing; the relaunch after the exit carries no clearance.
        await tab.start();
        expect(world.launches).to.have.length(1);
        world.stream!.sink.exit(sessionInfo('s1', workspace, { status: 'exited', exitCode: 0 }));
        await tab.relaunch();
        expect(world.launches[1]).to.deep.equal({ workspace, cols: 120, rows: 40 });
    });

    it('attaches to a running session without launching', async () => {
        world.running = [sessionInfo('live')];
        const tab = new TerminalSession({ workspace, sessionId: 'live' }, world.deps());
        await tab.start();
        expect(world.launches).to.deep.equal([]);
        expect(tab.session?.id).to.equal('live');
        expect(world.stream?.sessionId).to.equal('live');
        expect(world.resized).to.deep.equal(['live 120x40']);
    });

    it('says a session to attach to is gone and offers Relaunch; Relaunch launches', async () => {
        const tab = new TerminalSession({ workspace, sessionId: 'gone' }, world.deps());
        await tab.start();
        expect(world.launches).to.deep.equal([]);
        expect(world.streams).to.deep.equal([]);
        expect(world.surface.log).to.deep.equal([`exit-line ${SESSION_GONE_TEXT}`, `banner ${SESSION_ENDED_TEXT} [Relaunch]`]);
        await tab.relaunch();
        expect(world.launches).to.have.length(1);
        expect(world.surface.log.slice(2)).to.deep.equal(['clear', 'banner hidden']);
        expect(tab.session?.id).to.equal('s1');
    });

    it('a tab restored after a reload reattaches to its session, and never launches by itself', async () => {
        world.running = [sessionInfo('live')];
        const live = new TerminalSession({ workspace: '/placeholder' }, world.deps());
        live.restoreState({ workspace, sessionId: 'live' });
        expect(world.surface.label).to.equal('sandy: proj');
        await live.start();
        expect(live.session?.id).to.equal('live');
        expect(world.launches).to.deep.equal([]);

        const gone = new TerminalSession({ workspace }, world.deps(new FakeSurface()));
        gone.restoreState({ workspace, sessionId: 'dead' });
        await gone.start();
        expect(world.launches).to.deep.equal([]);

        const ended = new FakeSurface();
        const restored = new TerminalSession({ workspace }, world.deps(ended));
        restored.restoreState({ workspace });
        await restored.start();
        expect(world.launches).to.deep.equal([]);
        expect(ended.log).to.deep.equal([`exit-line ${RESTORED_SESSION_ENDED_TEXT}`, `banner ${SESSION_ENDED_TEXT} [Relaunch]`]);
        // The user's Relaunch does launch.
        await restored.relaunch();
        expect(world.launches).to.have.length(1);
    });

    it('stores the workspace and a live session (never a clearance, never an ended session); ignores a bad state', async () => {
        const tab = new TerminalSession({ workspace, clearance: { approvalToken: 'secret' } }, world.deps());
        expect(tab.storeState()).to.deep.equal({ workspace });
        await tab.start();
        expect(tab.storeState()).to.deep.equal({ workspace, sessionId: 's1' });
        world.stream!.sink.exit(sessionInfo('s1', workspace, { status: 'exited', exitCode: 1 }));
        expect(tab.storeState()).to.deep.equal({ workspace });

        // Restored but not yet started: the session to reattach is kept through another save.
        const pending = new TerminalSession({ workspace }, world.deps(new FakeSurface()));
        pending.restoreState({ workspace, sessionId: 'x' });
        expect(pending.storeState()).to.deep.equal({ workspace, sessionId: 'x' });

        const bad = new TerminalSession({ workspace }, world.deps(new FakeSurface()));
        bad.restoreState({ workspace: 7 });
        bad.restoreState(undefined);
        expect(bad.storeState()).to.deep.equal({ workspace });
        await bad.start();
        expect(world.launches, 'not a restored tab: it launches').to.have.length(2);
    });

    it('asks again while the files changed since the approval; no approval starts nothing and says so', async () => {
        world.outcomes = [{ kind: 'needs-approval', request: approvalRequest('t2') }];
        world.clearances = [{ approvalToken: 't2' }];
        const tab = new TerminalSession({ workspace, clearance: { approvalToken: 't1' } }, world.deps());
        await tab.start();
        expect(world.clears.map(r => r.token)).to.deep.equal(['t2']);
        expect(world.launches.map(l => l.approvalToken)).to.deep.equal(['t1', 't2']);
        expect(tab.session?.id).to.equal('s1');

        world.outcomes = [{ kind: 'needs-approval', request: approvalRequest('t3') }];
        world.clearances = [undefined];
        const surface = new FakeSurface();
        const refused = new TerminalSession({ workspace }, world.deps(surface));
        await refused.start();
        expect(refused.session).to.equal(undefined);
        expect(surface.log).to.deep.equal(['banner hidden', `exit-line ${NOT_APPROVED_TEXT}`, `banner ${NOT_APPROVED_TEXT} [Relaunch]`]);
        expect(world.streams).to.have.length(1);
    });

    it('a refusal says what happened and what to do, in the tab and as an error', async () => {
        world.outcomes = [{ kind: 'refused', problem: { code: 'locked', message: 'sandy already runs here.', hint: 'Stop it first.' } }];
        const tab = new TerminalSession({ workspace }, world.deps());
        await tab.start();
        expect(tab.session).to.equal(undefined);
        expect(world.surface.log).to.deep.equal(['banner hidden', 'exit-line Not launched: sandy already runs here.', 'banner sandy already runs here. Stop it first. [Relaunch]']);
        expect(world.errors).to.deep.equal(['Sandy: sandy already runs here. Stop it first.']);
    });

    it('shows each launch warning, and shows a session already running (another window launched it)', async () => {
        const warned = sessionInfo('w1');
        world.outcomes = [{ kind: 'launched', session: warned, warnings: ['unknown key FOO', 'old sandy'] }];
        const tab = new TerminalSession({ workspace }, world.deps());
        await tab.start();
        expect(world.warnings).to.deep.equal(['Sandy (proj): unknown key FOO', 'Sandy (proj): old sandy']);
        expect(world.stream?.sessionId).to.equal('w1');

        world.outcomes = [{ kind: 'already-running', session: sessionInfo('other') }];
        const second = new TerminalSession({ workspace }, world.deps(new FakeSurface()));
        await second.start();
        expect(second.session?.id).to.equal('other');
        expect(world.stream?.sessionId).to.equal('other');
        expect(world.warnings).to.have.length(2);
    });

    it('a launch that fails shows the failure with its hint, and offers Relaunch', async () => {
        world.outcomes = [async () => { throw Object.assign(new Error('wire text'), { data: { code: 'not-found', message: 'sandy was not found.', hint: 'Set sandy.path.' } }); }];
        const tab = new TerminalSession({ workspace }, world.deps());
        await tab.start();
        expect(world.surface.log).to.deep.equal(['banner hidden', 'exit-line Launch failed: sandy was not found. Set sandy.path.', 'banner Launch failed: sandy was not found. Set sandy.path. [Relaunch]']);
        expect(tab.launching).to.equal(false);
        await tab.relaunch();
        expect(tab.session?.id).to.equal('s1');
    });

    it('shows the replay and output of its stream, says how the session ended, and relaunches only then', async () => {
        const tab = new TerminalSession({ workspace }, world.deps());
        await tab.start();
        const first = world.stream!;
        first.sink.replay('earlier');
        first.sink.data('now');
        await tab.relaunch();
        expect(world.launches, 'nothing while it runs').to.have.length(1);
        first.sink.exit(sessionInfo('s1', workspace, { status: 'exited', exitCode: 130 }));
        expect(world.surface.label).to.equal('sandy: proj (ended)');
        expect(world.surface.log.slice(1)).to.deep.equal([
            'replay earlier', 'write now',
            'exit-line sandy stopped (interrupted, exit 130).', 'banner sandy stopped (interrupted, exit 130). [Relaunch]'
        ]);
        await tab.relaunch();
        expect(world.forgotten).to.deep.equal(['s1']);
        expect(first.disposed).to.equal(true);
        expect(world.surface.log.slice(5)).to.deep.equal(['clear', 'banner hidden']);
        expect(tab.session?.id).to.equal('s2');
        // The old stream is gone: what it still delivers is not shown.
        first.sink.data('late');
        expect(world.surface.log).to.not.include('write late');
    });

    it('routes input, acknowledgements and resizes to the current stream and the service', async () => {
        const tab = new TerminalSession({ workspace }, world.deps());
        tab.input('dropped before any stream');
        tab.resize(10, 10);
        await tab.start();
        tab.input('ls\r');
        tab.acknowledge(42);
        tab.resize(100, 30);
        expect(world.stream!.written).to.deep.equal(['ls\r']);
        expect(world.stream!.acked).to.deep.equal([42]);
        expect(world.resized).to.deep.equal(['s1 120x40', 's1 100x30']);
        world.stream!.sink.exit(sessionInfo('s1', workspace, { status: 'exited' }));
        tab.resize(90, 30);
        expect(world.resized, 'an ended session is not resized').to.have.length(2);
        tab.dispose();
        expect(world.stream!.disposed).to.equal(true);
    });

    it('reconnects a live session when the view lost its screen (the replay refills it)', async () => {
        const tab = new TerminalSession({ workspace }, world.deps());
        await tab.start();
        tab.reconnect();
        expect(world.streams.map(s => [s.sessionId, s.disposed])).to.deep.equal([['s1', true], ['s1', false]]);
        world.stream!.sink.exit(sessionInfo('s1', workspace, { status: 'exited' }));
        tab.reconnect();
        expect(world.streams).to.have.length(2);
    });

    it('does not resize a session to a view that is not laid out (a background tab after a reload)', async () => {
        world.running = [sessionInfo('live')];
        world.surface.size = undefined;
        const tab = new TerminalSession({ workspace, sessionId: 'live' }, world.deps());
        await tab.start();
        expect(world.stream?.sessionId).to.equal('live');
        expect(world.resized).to.deep.equal([]);
    });

    it('waits for the view to be laid out before a launch (never a default size), keeping the clearance', async () => {
        world.surface.size = undefined;
        const tab = new TerminalSession({ workspace, clearance: { acceptCompatWarning: true } }, world.deps());
        await tab.start();
        expect(world.launches).to.deep.equal([]);
        expect(tab.started).to.equal(false);
        world.surface.size = { cols: 90, rows: 20 };
        await tab.start();
        expect(world.launches).to.deep.equal([{ workspace, cols: 90, rows: 20, acceptCompatWarning: true }]);
    });

    it('marks a notification unread while the tab is not looked at, and clears it when it is', async () => {
        const tab = new TerminalSession({ workspace }, world.deps());
        const heard: string[] = [];
        tab.onDidNotify(n => heard.push(n.body));
        tab.notify({ body: 'seen', source: 'osc9' });
        expect(world.surface.label).to.equal('sandy: proj');
        world.surface.hasFocus = false;
        tab.notify({ body: 'unseen', source: 'osc777' });
        expect(world.surface.label).to.equal('● sandy: proj');
        expect(tab.hasUnreadNotification).to.equal(true);
        tab.clearUnread();
        expect(world.surface.label).to.equal('sandy: proj');
        expect(tab.hasUnreadNotification).to.equal(false);
        expect(heard).to.deep.equal(['seen', 'unseen']);
    });

    it('takes status changes of its own session from the service, and tells its listeners', async () => {
        const tab = new TerminalSession({ workspace }, world.deps());
        const changes: Array<string | undefined> = [];
        tab.onDidChangeSession(s => changes.push(s?.status));
        await tab.start();
        tab.updateSession(sessionInfo('other', workspace, { status: 'stopping' }));
        expect(tab.session?.status).to.equal('running');
        tab.updateSession(sessionInfo('s1', workspace, { status: 'stopping' }));
        expect(tab.session?.status).to.equal('stopping');
        expect(world.surface.caption).to.equal(`${workspace} — pid 102, stopping`);
        expect(changes).to.deep.equal(['running', 'stopping']);
    });

    it('detach asks the host to close the tab (once disposed, nothing)', () => {
        const tab = new TerminalSession({ workspace }, world.deps());
        tab.detach();
        expect(world.surface.log).to.deep.equal(['close']);
        tab.dispose();
        tab.detach();
        expect(world.surface.log).to.deep.equal(['close']);
    });

    it('a tab closed during its launch connects nothing (the session lives on, unviewed)', async () => {
        let release!: (o: LaunchOutcome) => void;
        world.outcomes = [() => new Promise<LaunchOutcome>(resolve => { release = resolve; })];
        const tab = new TerminalSession({ workspace }, world.deps());
        let closed = 0;
        tab.onDidDispose(() => closed++);
        const started = tab.start();
        await settle();
        tab.dispose();
        tab.dispose();
        expect(closed).to.equal(1);
        release({ kind: 'launched', session: sessionInfo('late'), warnings: [] });
        await started;
        expect(world.streams).to.deep.equal([]);
    });

    it('a relaunch while a launch is under way starts no second one and keeps no clearance', async () => {
        let release!: (o: LaunchOutcome) => void;
        world.outcomes = [() => new Promise<LaunchOutcome>(resolve => { release = resolve; })];
        const tab = new TerminalSession({ workspace }, world.deps());
        const started = tab.start();
        await settle();
        tab.setClearance({ approvalToken: 'late' });
        await tab.relaunch();
        release({ kind: 'refused', problem: { code: 'x', message: 'no.', hint: '' } });
        await started;
        expect(world.launches).to.have.length(1);
        await tab.relaunch();
        expect(world.launches[1].approvalToken).to.equal(undefined);
    });
});
