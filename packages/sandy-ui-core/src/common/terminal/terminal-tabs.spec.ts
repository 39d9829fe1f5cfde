import { expect } from 'chai';
import type { SessionInfo } from '../session/session-types';
import { SimpleEmitter } from '../base/event';
import { detachedText, notificationText } from '../host/labels';
import type { CoalescerClock } from './notification-coalescer';
import type { NotificationRenderer } from './notification-text';
import type { SessionTabs } from './session-tabs';
import { TerminalSession } from './terminal-session';
import { TerminalTab, TerminalTabOptions, TerminalTabs, TerminalTabsHost } from './terminal-tabs';
import { FakeSurface, FakeWorld, sessionInfo, settle } from './terminal-fakes';

type ManualClock = CoalescerClock & { advance(ms: number): void };

/** The coalescer's clock, moved by hand: `advance` runs the timers due by then. */
function manualClock(): ManualClock {
    let now = 0;
    let ids = 0;
    const timers = new Map<number, { at: number; run: () => void }>();
    return {
        setTimeout: (run, ms) => {
            timers.set(++ids, { at: now + ms, run });
            return ids;
        },
        clearTimeout: id => { timers.delete(id as number); },
        advance: ms => {
            now += ms;
            for (const [id, timer] of [...timers].filter(([, t]) => t.at <= now)) {
                timers.delete(id);
                timer.run();
            }
        }
    };
}

class FakeTab implements TerminalTab {
    readonly surface = new FakeSurface();
    readonly terminal: TerminalSession;

    constructor(world: FakeWorld, readonly options: TerminalTabOptions) {
        this.terminal = new TerminalSession(options, world.deps(this.surface));
        // Closing a tab disposes its controller, as both hosts do.
        this.surface.onClose = () => this.terminal.dispose();
    }

    get session(): SessionInfo | undefined {
        return this.terminal.session;
    }

    detach(): void {
        this.terminal.detach();
    }
}

class FakeHost implements TerminalTabsHost<FakeTab> {
    readonly created: FakeTab[] = [];
    readonly revealed: FakeTab[] = [];
    readonly toasts: Array<{ message: string; actions: string[] }> = [];
    toastAnswer: string | undefined;
    enabled = true;
    activeTab: FakeTab | undefined;

    constructor(protected readonly world: FakeWorld, readonly renderer: NotificationRenderer = 'markdown') { }

    async createTab(options: TerminalTabOptions): Promise<FakeTab> {
        const tab = new FakeTab(this.world, options);
        this.created.push(tab);
        return tab;
    }
    async reveal(tab: FakeTab): Promise<void> {
        this.revealed.push(tab);
    }
    isActive(tab: FakeTab): boolean {
        return tab === this.activeTab;
    }
    async toast(message: string, ...actions: string[]): Promise<string | undefined> {
        this.toasts.push({ message, actions });
        return this.toastAnswer;
    }
    notificationsEnabled(): boolean {
        return this.enabled;
    }
}

describe('TerminalTabs: a window\'s sandy tabs for every host (unit)', () => {
    const workspace = '/home/u/proj';
    let world: FakeWorld;
    let host: FakeHost;
    let clock: ManualClock;
    let sessionEvents: SimpleEmitter<SessionInfo>;
    let tabs: TerminalTabs<FakeTab>;
    let changes: number;

    function registry(renderer: NotificationRenderer = 'markdown'): TerminalTabs<FakeTab> {
        host = new FakeHost(world, renderer);
        const created = new TerminalTabs<FakeTab>({ host, service: world.service, ui: world.ui, onSession: sessionEvents.event, coalescer: { clock } });
        created.onDidChange(() => changes++);
        return created;
    }

    beforeEach(() => {
        world = new FakeWorld();
        clock = manualClock();
        sessionEvents = new SimpleEmitter<SessionInfo>();
        changes = 0;
        tabs = registry();
    });

    /** A tab opened and started (the host starts it once its view is laid out). */
    async function launched(ws = workspace): Promise<FakeTab> {
        const tab = await tabs.openTab(ws, {});
        await tab.terminal.start();
        return tab;
    }

    it('opens a tab that launches with the clearance, reveals the one already open, and relaunches an ended one', async () => {
        const tab = await tabs.openTab(workspace, { approvalToken: 't1' });
        expect(host.created.map(t => t.options)).to.deep.equal([{ workspace, clearance: { approvalToken: 't1' } }]);
        expect(host.revealed).to.deep.equal([tab]);
        await tab.terminal.start();
        expect(world.launches.map(l => l.approvalToken)).to.deep.equal(['t1']);

        await tabs.openForWorkspace(workspace, { approvalToken: 'unused' });
        expect(host.created).to.have.length(1);
        expect(host.revealed).to.deep.equal([tab, tab]);
        expect(world.launches, 'a live tab is only revealed').to.have.length(1);

        world.stream!.sink.exit(sessionInfo('s1', workspace, { status: 'exited', exitCode: 0 }));
        await tabs.openForWorkspace(workspace, { approvalToken: 't2' });
        await settle();
        expect(host.created).to.have.length(1);
        expect(world.launches.map(l => l.approvalToken)).to.deep.equal(['t1', 't2']);
        expect(tab.session?.id).to.equal('s2');
    });

    it('attaches a tab to a running session, or reveals the one attached to it', async () => {
        world.running = [sessionInfo('live')];
        const tab = await tabs.attachTab(sessionInfo('live'));
        expect(host.created.map(t => t.options)).to.deep.equal([{ workspace, sessionId: 'live' }]);
        await tab.terminal.start();
        expect(world.launches).to.deep.equal([]);
        expect(tabs.tabBySession('live')).to.equal(tab);

        await tabs.attach(sessionInfo('live'));
        expect(host.created).to.have.length(1);
        expect(host.revealed).to.deep.equal([tab, tab]);
        expect(tabs.tabBySession('other')).to.equal(undefined);
    });

    it('finds a workspace\'s live tab before its ended one, and the active tab as the host says', async () => {
        const ended = await launched();
        world.stream!.sink.exit(sessionInfo('s1', workspace, { status: 'exited' }));
        expect(tabs.tabByWorkspace(workspace)).to.equal(ended);
        world.running = [sessionInfo('live')];
        const live = await tabs.attachTab(sessionInfo('live'));
        await live.terminal.start();
        expect(tabs.tabByWorkspace(workspace)).to.equal(live);
        expect(tabs.tabByWorkspace('/elsewhere')).to.equal(undefined);
        expect(tabs.all).to.deep.equal([ended, live]);

        // The commands controller sees the registry as its SessionTabs port: the tabs' controllers.
        const port: SessionTabs = tabs;
        expect(port.active).to.equal(undefined);
        host.activeTab = ended;
        expect(tabs.activeTab).to.equal(ended);
        expect(port.active).to.equal(ended.terminal);
        expect(port.active?.session?.status).to.equal('exited');
        expect(port.findByWorkspace(workspace)).to.equal(live.terminal);
        expect(port.findByWorkspace('/elsewhere')).to.equal(undefined);
        port.findByWorkspace(workspace)!.detach();
        expect(live.surface.log).to.include('close');
        expect(tabs.all).to.deep.equal([ended]);
    });

    it('passes the service\'s status changes to the tab of that session, and tells its listeners', async () => {
        const tab = await launched();
        const before = changes;
        sessionEvents.fire(sessionInfo('s1', workspace, { status: 'stopping' }));
        sessionEvents.fire(sessionInfo('nobody', workspace, { status: 'exited' }));
        expect(tab.session?.status).to.equal('stopping');
        expect(tab.surface.caption).to.contain('stopping');
        expect(changes).to.equal(before + 1);
    });

    it('toasts a notification as text for the host\'s renderer, and folds a burst into one later toast', async () => {
        const tab = await launched();
        const attack = { title: '[x](command:workbench.action.terminal.sendSequence)', body: '*loud* <b>', source: 'osc9' as const };
        tab.terminal.notify(attack);
        for (let i = 1; i <= 1000; i++) {
            tab.terminal.notify({ body: `flood ${i}`, source: 'osc9' });
        }
        expect(host.toasts).to.deep.equal([{ message: notificationText(workspace, attack, 'markdown'), actions: ['Show'] }]);
        expect(host.toasts[0].message).to.not.contain('[x](');
        clock.advance(5_000);
        expect(host.toasts.map(t => t.message)).to.deep.equal([
            notificationText(workspace, attack, 'markdown'),
            notificationText(workspace, { body: 'flood 1000' }, 'markdown', 999)
        ]);
        expect(host.toasts[1].message).to.contain('and 999 more');

        // The plugin's renderer: the same words, broken for VS Code's link grammar instead.
        const vscodeTabs = registry('linked-text');
        const other = await vscodeTabs.openTab(workspace, {});
        other.terminal.notify(attack);
        expect(host.toasts).to.deep.equal([{ message: notificationText(workspace, attack, 'linked-text'), actions: ['Show'] }]);
        expect(host.toasts[0].message).to.not.equal(notificationText(workspace, attack, 'markdown'));
    });

    it('shows no toast while sandy.notifications is off (the tab still marks it unread)', async () => {
        const tab = await launched();
        host.enabled = false;
        tab.surface.hasFocus = false;
        tab.terminal.notify({ body: 'quiet', source: 'osc9' });
        expect(host.toasts).to.deep.equal([]);
        expect(tab.surface.label).to.equal('● sandy: proj');
        host.enabled = true;
        tab.terminal.notify({ body: 'loud', source: 'osc9' });
        expect(host.toasts).to.have.length(1);
    });

    it('a closed tab\'s notifications still waiting for their toast are dropped', async () => {
        const tab = await launched();
        tab.terminal.notify({ body: 'first', source: 'osc9' });
        tab.terminal.notify({ body: 'waiting', source: 'osc9' });
        tab.detach();
        clock.advance(60_000);
        expect(host.toasts.map(t => t.message)).to.deep.equal([notificationText(workspace, { body: 'first' }, 'markdown')]);
    });

    it('Show brings the tab to the front; not once the tab is closed', async () => {
        const tab = await launched();
        host.revealed.length = 0;
        host.toastAnswer = 'Show';
        tab.terminal.notify({ body: 'done', source: 'osc9' });
        await settle();
        expect(host.revealed).to.deep.equal([tab]);

        host.toastAnswer = undefined;
        const dismissed = await launched('/home/u/other');
        host.revealed.length = 0;
        dismissed.terminal.notify({ body: 'ignored', source: 'osc9' });
        await settle();
        expect(host.revealed).to.deep.equal([]);

        let answer!: (action: string | undefined) => void;
        host.toast = async () => new Promise<string | undefined>(resolve => { answer = resolve; });
        clock.advance(60_000);
        tab.terminal.notify({ body: 'late', source: 'osc9' });
        tab.detach();
        answer('Show');
        await settle();
        expect(host.revealed).to.deep.equal([]);
    });

    it('after a tab on a live session closed: says it keeps running; Reattach opens a tab on it', async () => {
        const tab = await launched();
        world.infoAnswer = 'Reattach';
        const before = changes;
        tab.detach();
        expect(tabs.all).to.deep.equal([]);
        expect(changes).to.equal(before + 1);
        await settle();
        expect(world.infos).to.deep.equal([{ message: detachedText(workspace), actions: ['Reattach', 'Stop'] }]);
        expect(host.created.map(t => t.options)).to.deep.equal([{ workspace, clearance: {} }, { workspace, sessionId: 's1' }]);
        expect(tabs.all).to.deep.equal([host.created[1]]);
        expect(world.stopped).to.deep.equal([]);
    });

    it('Reattach to a session that ended meanwhile opens nothing; Stop stops it', async () => {
        const gone = await launched();
        world.infoAnswer = 'Reattach';
        world.running = [sessionInfo('s1', workspace, { status: 'exited' }), sessionInfo('another')];
        gone.detach();
        await settle();
        expect(host.created).to.have.length(1);

        const stopped = await launched('/home/u/other');
        world.infoAnswer = 'Stop';
        stopped.detach();
        await settle();
        expect(world.stopped).to.deep.equal(['s2']);
        expect(host.created).to.have.length(2);
    });

    it('an ended session\'s tab closing forgets the session without asking; a tab that never ran says nothing', async () => {
        const ended = await launched();
        world.stream!.sink.exit(sessionInfo('s1', workspace, { status: 'exited', exitCode: 0 }));
        ended.detach();
        await settle();
        expect(world.forgotten).to.deep.equal(['s1']);
        expect(world.infos).to.deep.equal([]);

        world.outcomes = [{ kind: 'refused', problem: { code: 'x', message: 'no.', hint: '' } }];
        const never = await launched();
        never.detach();
        await settle();
        expect(world.infos).to.deep.equal([]);
        expect(world.forgotten).to.deep.equal(['s1']);
    });

    it('a failing Stop after close is said with its hint', async () => {
        const tab = await launched();
        world.infoAnswer = 'Stop';
        world.service.stop = async () => { throw Object.assign(new Error('x'), { data: { code: 'c', message: 'Could not stop.', hint: 'Try again.' } }); };
        tab.detach();
        await settle();
        expect(world.errors).to.deep.equal(['Sandy: Could not stop. Try again.']);
    });

    it('closing the window closes every tab without asking, and hears the service no more', async () => {
        const one = await launched();
        const two = await launched('/home/u/other');
        tabs.dispose();
        await settle();
        expect(one.terminal.isDisposed && two.terminal.isDisposed).to.equal(true);
        expect(tabs.all).to.deep.equal([]);
        expect(world.infos).to.deep.equal([]);
        expect(sessionEvents.hasListeners).to.equal(false);
    });

    it('takes in a tab the host restored (not opened through the registry) once', async () => {
        const restored = new FakeTab(world, { workspace });
        tabs.add(restored);
        tabs.add(restored);
        expect(tabs.all).to.deep.equal([restored]);
        expect(changes).to.equal(1);
        restored.surface.hasFocus = false;
        restored.terminal.notify({ body: 'hi', source: 'osc9' });
        expect(host.toasts).to.have.length(1);
        const closed = new FakeTab(world, { workspace });
        closed.detach();
        tabs.add(closed);
        expect(tabs.all).to.deep.equal([restored]);
    });
});
