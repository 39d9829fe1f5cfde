import { expect } from 'chai';
import type { ApprovalRequest } from '../approvals/approval-model';
import type { LaunchOutcome } from '../service/service-protocol';
import type { SessionInfo } from '../session/session-types';
import { CLOSED_GATE_TEXT, describeExit, launchWarningText, NOT_APPROVED_TEXT, sessionLinkBanner } from '../host/labels';
import { RESTORED_SESSION_ENDED_TEXT, SESSION_ENDED_TEXT, SESSION_GONE_TEXT } from '../host/labels';
import { TerminalSession } from './terminal-session';
import { AreaSizes } from './area-sizes';
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
        // Hidden while it launches, and the live session has nothing to say (a foreground session, no gate closed).
        expect(world.surface.log).to.deep.equal(['banner hidden', 'banner hidden']);
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
        expect(world.surface.log.slice(2)).to.deep.equal(['clear', 'banner hidden', 'banner hidden']);
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

    it('a restored tab whose session id is gone shows the live session of its workspace (an orphan under another id), not an ended or another one', async () => {
        world.running = [
            sessionInfo('ended', workspace, { status: 'exited' }), sessionInfo('elsewhere', '/home/u/other'),
            sessionInfo('orphan-1', workspace, { origin: 'orphan', pid: 4242 })
        ];
        const tab = new TerminalSession({ workspace }, world.deps());
        tab.restoreState({ workspace, sessionId: 'daemon-before-the-crash' });
        await tab.start();
        expect(tab.session?.id).to.equal('orphan-1');
        expect(world.stream?.sessionId).to.equal('orphan-1');
        expect(world.surface.log.slice(-1)[0]).to.contain('[Stop]');
        expect(world.launches).to.deep.equal([]);

        world.running = world.running.slice(0, 2);
        const none = new FakeSurface();
        const gone = new TerminalSession({ workspace }, world.deps(none));
        gone.restoreState({ workspace, sessionId: 'daemon-before-the-crash' });
        await gone.start();
        expect(gone.session).to.equal(undefined);
        expect(none.log).to.deep.equal([`exit-line ${SESSION_GONE_TEXT}`, `banner ${SESSION_ENDED_TEXT} [Relaunch]`]);
    });

    it('a restored state naming a session of another workspace does not attach the tab to it', async () => {
        world.running = [sessionInfo('theirs', '/home/u/other')];
        const tab = new TerminalSession({ workspace }, world.deps());
        tab.restoreState({ workspace, sessionId: 'theirs' });
        await tab.start();
        expect(tab.session).to.equal(undefined);
        expect(world.streams).to.deep.equal([]);
        expect(world.surface.log).to.deep.equal([`exit-line ${SESSION_GONE_TEXT}`, `banner ${SESSION_ENDED_TEXT} [Relaunch]`]);
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
        expect(world.surface.log.slice(2)).to.deep.equal([
            'replay earlier', 'write now',
            'exit-line sandy stopped (interrupted, exit 130).', 'banner sandy stopped (interrupted, exit 130). [Relaunch]'
        ]);
        await tab.relaunch();
        expect(world.forgotten).to.deep.equal(['s1']);
        expect(first.disposed).to.equal(true);
        expect(world.surface.log.slice(6)).to.deep.equal(['clear', 'banner hidden', 'banner hidden']);
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

    describe('a tab covered by the next one before it was laid out (ten quick clicks down the list)', () => {
        /** A view in `area` of a window whose tabs share `sizes`: `size` undefined while it is hidden. */
        function areaSurface(area: string, size?: { cols: number; rows: number }): FakeSurface & { sizedTo: string[] } {
            const surface = Object.assign(new FakeSurface(), { sizedTo: [] as string[] });
            surface.size = size;
            Object.assign(surface, {
                area: () => area,
                sizeTo: (s: { cols: number; rows: number }) => surface.sizedTo.push(`${s.cols}x${s.rows}`)
            });
            return surface;
        }

        it('launches at the size its area\'s tabs measured, and sizes its view to it before it is shown', async () => {
            const sizes = new AreaSizes();
            const shown = new TerminalSession({ workspace: '/w/shown' }, { ...world.deps(areaSurface('main', { cols: 132, rows: 41 })), sizes });
            await shown.start();
            const hiddenSurface = areaSurface('main');
            const hidden = new TerminalSession({ workspace: '/w/hidden', clearance: { approvalToken: 'h' } }, { ...world.deps(hiddenSurface), sizes });
            await hidden.start();
            expect(world.launches.map(l => `${l.workspace} ${l.cols}x${l.rows}`)).to.deep.equal(['/w/shown 132x41', '/w/hidden 132x41']);
            expect(world.launches[1].approvalToken, 'the clearance goes with that launch').to.equal('h');
            expect(hiddenSurface.sizedTo).to.deep.equal(['132x41']);
            // Another area's size is not its size: a tab in the bottom panel waits for its own.
            const bottom = new TerminalSession({ workspace: '/w/bottom' }, { ...world.deps(areaSurface('bottom')), sizes });
            await bottom.start();
            expect(world.launches).to.have.length(2);
            expect(bottom.started).to.equal(false);
        });

        it('with no tab of its area measured yet, launches as soon as one is (the last tab opened is shown)', async () => {
            const sizes = new AreaSizes();
            const first = new TerminalSession({ workspace: '/w/first' }, { ...world.deps(areaSurface('main')), sizes });
            const second = new TerminalSession({ workspace: '/w/second' }, { ...world.deps(areaSurface('main')), sizes });
            await first.start();
            await second.start();
            expect(world.launches, 'neither could measure').to.deep.equal([]);
            const closed = new TerminalSession({ workspace: '/w/closed' }, { ...world.deps(areaSurface('main')), sizes });
            await closed.start();
            closed.dispose();
            const last = new TerminalSession({ workspace: '/w/last' }, { ...world.deps(areaSurface('main', { cols: 100, rows: 30 })), sizes });
            await last.start();
            await settle();
            expect(world.launches.map(l => `${l.workspace} ${l.cols}x${l.rows}`).sort(), 'a closed tab launches nothing')
                .to.deep.equal(['/w/first 100x30', '/w/last 100x30', '/w/second 100x30']);
            expect(first.started && second.started).to.equal(true);
        });

        it('without the window\'s sizes (or an area) it waits to be laid out itself, as before', async () => {
            const hidden = new TerminalSession({ workspace: '/w/h' }, world.deps(areaSurface('main')));
            await hidden.start();
            const noArea = new FakeSurface();
            noArea.size = undefined;
            const sizes = new AreaSizes();
            sizes.note('main', { cols: 80, rows: 20 });
            const other = new TerminalSession({ workspace: '/w/o' }, { ...world.deps(noArea), sizes });
            await other.start();
            expect(world.launches).to.deep.equal([]);
        });

        it('a view\'s resize is its area\'s size from then on', async () => {
            const sizes = new AreaSizes();
            const tab = new TerminalSession({ workspace: '/w/a' }, { ...world.deps(areaSurface('main', { cols: 90, rows: 30 })), sizes });
            await tab.start();
            tab.resize(150, 50);
            expect(sizes.get('main')).to.deep.equal({ cols: 150, rows: 50 });
        });
    });

    it('marks a notification of its session unread while the tab is not looked at, and clears it when it is', async () => {
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

    describe('daemon sessions and orphans: the banner says how the tab is linked, its button acts', () => {
        /** A daemon session (its id is its workspace's), shown live by default. */
        const daemon = (id: string, more: Partial<SessionInfo> = {}) => sessionInfo(id, workspace, { mode: 'daemon', origin: 'ide', link: 'attached', pid: 0, ...more });
        const banner = (info: SessionInfo) => `banner ${sessionLinkBanner(info)}`;
        const lastBanner = (surface = world.surface) => [...surface.log].reverse().find(line => line.startsWith('banner'));

        it('a launch shows "starting" while sandy --start runs (no button), then nothing once attached', async () => {
            const starting = daemon('d1', { link: 'starting' });
            world.outcomes = [{ kind: 'launched', session: starting, warnings: [] }];
            world.running = [starting];
            const tab = new TerminalSession({ workspace }, world.deps());
            await tab.start();
            expect(world.surface.log).to.deep.equal(['banner hidden', banner(starting)]);
            expect(world.stream?.sessionId, 'the tab shows --start\'s progress').to.equal('d1');
            tab.updateSession(daemon('d1'));
            expect(lastBanner()).to.equal('banner hidden');
            // No button: a click does nothing.
            await tab.bannerAction();
            expect([world.takenBack, world.stopped, world.launches.length]).to.deep.equal([[], [], 1]);
        });

        it('attached in another terminal: Take Back; its click takes the session back and the tab shows it live again', async () => {
            const elsewhere = daemon('d1', { link: 'elsewhere' });
            world.running = [elsewhere];
            const tab = new TerminalSession({ workspace, sessionId: 'd1' }, world.deps());
            await tab.start();
            expect(lastBanner()).to.equal(`${banner(elsewhere)} [Take Back]`);
            await tab.bannerAction();
            expect(world.takenBack).to.deep.equal(['d1']);
            expect(tab.session?.link).to.equal('attached');
            expect(lastBanner()).to.equal('banner hidden');
            // The same stream goes on showing it (the service's new attach client feeds the same session).
            expect(world.streams.map(s => [s.sessionId, s.disposed])).to.deep.equal([['d1', false]]);
            await tab.bannerAction();
            expect(world.takenBack, 'the button went with the banner').to.deep.equal(['d1']);
        });

        it('a session taken by another terminal while the tab shows it offers Take Back; a failed Take Back says why, the button stays', async () => {
            world.running = [daemon('d1')];
            const tab = new TerminalSession({ workspace, sessionId: 'd1' }, world.deps());
            await tab.start();
            tab.updateSession(daemon('d1', { link: 'elsewhere' }));
            expect(lastBanner()).to.contain('[Take Back]');
            world.service.takeBack = async () => { throw Object.assign(new Error('x'), { data: { code: 'attach', message: 'sandy --attach failed (exit 1).', hint: 'Start Docker.' } }); };
            await tab.bannerAction();
            expect(world.errors).to.deep.equal(['Sandy: sandy --attach failed (exit 1). Start Docker.']);
            expect(tab.session?.link).to.equal('elsewhere');
            expect(lastBanner()).to.contain('[Take Back]');
        });

        it('a shell\'s session nobody is attached to: Attach (the same service call), then it is shown here', async () => {
            const outside = daemon('d1', { origin: 'outside', link: 'detached' });
            world.running = [outside];
            const tab = new TerminalSession({ workspace, sessionId: 'd1' }, world.deps());
            await tab.start();
            expect(lastBanner()).to.equal(`${banner(outside)} [Attach]`);
            await tab.bannerAction();
            expect(world.takenBack).to.deep.equal(['d1']);
            expect(tab.session).to.include({ origin: 'outside', link: 'attached' });
            expect(lastBanner()).to.equal('banner hidden');
        });

        it('an orphan: Stop, whose click stops it through the service; its end then offers Relaunch', async () => {
            const orphan = sessionInfo('o1', workspace, { origin: 'orphan', pid: 4242 });
            world.running = [orphan];
            const tab = new TerminalSession({ workspace, sessionId: 'o1' }, world.deps());
            await tab.start();
            expect(lastBanner()).to.equal(`${banner(orphan)} [Stop]`);
            await tab.bannerAction();
            expect(world.stopped).to.deep.equal(['o1']);
            expect(world.takenBack).to.deep.equal([]);
            world.stream!.sink.exit({ ...orphan, status: 'exited', exitCode: 0, endReason: 'stopped' });
            expect(lastBanner()).to.equal('banner sandy was stopped. [Relaunch]');
        });

        it('a failing Stop of an orphan is said with its hint', async () => {
            world.running = [sessionInfo('o1', workspace, { origin: 'orphan', pid: 4242 })];
            world.service.stop = async () => { throw Object.assign(new Error('x'), { data: { code: 'stop', message: 'Could not stop pid 4242.', hint: 'Kill it yourself.' } }); };
            const tab = new TerminalSession({ workspace, sessionId: 'o1' }, world.deps());
            await tab.start();
            await tab.bannerAction();
            expect(world.errors).to.deep.equal(['Sandy: Could not stop pid 4242. Kill it yourself.']);
        });

        it('a problem on the session is shown with its hint, and goes when it is solved', async () => {
            const problem = { message: 'The daemon session did not stop within 15 s (sandy --stop, exit 5).', hint: 'Stop again, or run sandy --stop in the workspace to see why.' };
            world.running = [daemon('d1')];
            const tab = new TerminalSession({ workspace, sessionId: 'd1' }, world.deps());
            await tab.start();
            tab.updateSession(daemon('d1', { problem }));
            expect(lastBanner(), 'attached: nothing to take back').to.equal(`banner ${problem.message} ${problem.hint}`);
            tab.updateSession(daemon('d1'));
            expect(lastBanner()).to.equal('banner hidden');
            // Our own attach client failed: the session runs detached, Attach tries again.
            const failed = { message: 'sandy --attach failed (exit 1).', hint: 'sandy could not reach Docker: start Docker, then Attach.' };
            tab.updateSession(daemon('d1', { link: 'detached', problem: failed }));
            expect(lastBanner()).to.equal(`banner ${failed.message} ${failed.hint} [Attach]`);
            await tab.bannerAction();
            expect(world.takenBack).to.deep.equal(['d1']);
        });

        it('closed launch gates are warned once per session and shown in the banner', async () => {
            world.running = [daemon('d1', { link: 'starting' })];
            const tab = new TerminalSession({ workspace, sessionId: 'd1' }, world.deps());
            await tab.start();
            expect(world.warnings).to.deep.equal([]);
            tab.updateSession(daemon('d1', { closedGates: ['dropped-keys'] }));
            expect(world.warnings).to.deep.equal([launchWarningText(workspace, CLOSED_GATE_TEXT['dropped-keys'])]);
            expect(world.warnings[0]).to.equal(`Sandy (proj): ${CLOSED_GATE_TEXT['dropped-keys']}`);
            expect(lastBanner()).to.equal(`banner ${CLOSED_GATE_TEXT['dropped-keys']}`);
            tab.updateSession(daemon('d1', { closedGates: ['dropped-keys'], attachedViews: 2 }));
            tab.updateSession(daemon('d1', { closedGates: ['dropped-keys', 'skipped-dockerfile'] }));
            expect(world.warnings).to.deep.equal([
                launchWarningText(workspace, CLOSED_GATE_TEXT['dropped-keys']), launchWarningText(workspace, CLOSED_GATE_TEXT['skipped-dockerfile'])
            ]);
            // What the link says comes first; the gates were said already.
            tab.updateSession(daemon('d1', { closedGates: ['dropped-keys', 'skipped-dockerfile'], link: 'elsewhere' }));
            expect(lastBanner()).to.equal(`${banner(daemon('d1', { link: 'elsewhere' }))} [Take Back]`);
            expect(world.warnings).to.have.length(2);
        });

        it('a relaunched session whose gates sandy closed again is warned again (it is a new session)', async () => {
            const gated = daemon('d1', { closedGates: ['dropped-keys'] });
            world.outcomes = [{ kind: 'launched', session: gated, warnings: [] }, { kind: 'launched', session: { ...gated, startedAt: 9 }, warnings: [] }];
            const tab = new TerminalSession({ workspace }, world.deps());
            await tab.start();
            expect(world.warnings).to.have.length(1);
            world.stream!.sink.exit({ ...gated, status: 'exited', exitCode: 0, endReason: 'agent-exited' });
            await tab.relaunch();
            expect(world.launches).to.have.length(2);
            expect(world.warnings).to.deep.equal([
                launchWarningText(workspace, CLOSED_GATE_TEXT['dropped-keys']), launchWarningText(workspace, CLOSED_GATE_TEXT['dropped-keys'])
            ]);
        });

        it('an ended session that runs again under the same id (another window relaunched it) is shown again: the stream reconnects', async () => {
            world.running = [daemon('d1')];
            const tab = new TerminalSession({ workspace, sessionId: 'd1' }, world.deps());
            await tab.start();
            const first = world.stream!;
            const stopped = daemon('d1', { status: 'exited', exitCode: 0, endReason: 'stopped', link: 'detached' });
            first.sink.exit(stopped);
            expect(lastBanner()).to.equal(`banner ${describeExit(stopped)} [Relaunch]`);
            tab.updateSession(stopped);
            expect(world.streams, 'still ended: nothing to show').to.have.length(1);
            tab.updateSession(daemon('other', { link: 'starting' }));
            expect(world.streams, 'not its session').to.have.length(1);

            const log = world.surface.log.length;
            const again = daemon('d1', { link: 'starting', startedAt: 5 });
            tab.updateSession(again);
            expect(first.disposed).to.equal(true);
            expect(world.streams.map(s => [s.sessionId, s.disposed])).to.deep.equal([['d1', true], ['d1', false]]);
            expect(world.surface.log.slice(log)).to.deep.equal([banner(again), 'clear']);
            expect(world.resized).to.deep.equal(['d1 120x40', 'd1 120x40']);
            expect(world.surface.label).to.equal('sandy: proj');
            expect(tab.storeState()).to.deep.equal({ workspace, sessionId: 'd1' });
            // The new stream is the one shown; the Relaunch of the ended one is gone.
            world.stream!.sink.data('fresh');
            first.sink.data('stale');
            expect(world.surface.log.slice(-1)).to.deep.equal(['write fresh']);
            await tab.bannerAction();
            expect(world.launches, 'no button while it starts').to.deep.equal([]);
        });
    });
});
