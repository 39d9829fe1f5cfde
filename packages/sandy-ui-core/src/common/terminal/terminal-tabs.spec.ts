import { expect } from 'chai';
import type { SessionInfo } from '../session/session-types';
import type { SessionNotification } from '../service/service-protocol';
import { SimpleEmitter } from '../base/event';
import { detachedText, notificationText, systemNotificationContent } from '../host/labels';
import type { CoalescerClock } from './notification-coalescer';
import type { NotificationRenderer } from './notification-text';
import type { TerminalNotification } from './osc-dispatch';
import type { SessionTabs } from './session-tabs';
import { TerminalSession } from './terminal-session';
import { SystemNotifications, TerminalTab, TerminalTabOptions, TerminalTabs, TerminalTabsHost } from './terminal-tabs';
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
    system?: FakeDesktop;
}

/** The desktop's notifications: what was shown, and a click on the last one. */
class FakeDesktop implements SystemNotifications {
    readonly shown: Array<{ title: string; body: string; tag: string }> = [];
    readonly clicks: Array<(clicked: boolean) => void> = [];
    on = true;
    focused = false;
    enabled(): boolean {
        return this.on;
    }
    windowFocused(): boolean {
        return this.focused;
    }
    show(content: { title: string; body: string; tag: string }): Promise<boolean> {
        this.shown.push(content);
        return new Promise(resolve => this.clicks.push(resolve));
    }
}

describe('TerminalTabs: a window\'s sandy tabs for every host (unit)', () => {
    const workspace = '/home/u/proj';
    let world: FakeWorld;
    let host: FakeHost;
    let clock: ManualClock;
    let sessionEvents: SimpleEmitter<SessionInfo>;
    let notificationEvents: SimpleEmitter<SessionNotification>;
    let tabs: TerminalTabs<FakeTab>;
    let changes: number;

    function registry(renderer: NotificationRenderer = 'markdown'): TerminalTabs<FakeTab> {
        host = new FakeHost(world, renderer);
        const created = new TerminalTabs<FakeTab>({
            host, service: world.service, ui: world.ui, onSession: sessionEvents.event, onNotification: notificationEvents.event, coalescer: { clock }
        });
        created.onDidChange(() => changes++);
        return created;
    }

    beforeEach(() => {
        world = new FakeWorld();
        clock = manualClock();
        sessionEvents = new SimpleEmitter<SessionInfo>();
        notificationEvents = new SimpleEmitter<SessionNotification>();
        changes = 0;
        tabs = registry();
    });

    /** The service parsed a notification from the session's stream (the tabs never parse one themselves). */
    function notify(session: SessionInfo, notification: TerminalNotification): void {
        notificationEvents.fire({ session, notification });
    }

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
        tab.surface.hasFocus = false;
        const attack = { title: '[x](command:workbench.action.terminal.sendSequence)', body: '*loud* <b>', source: 'osc9' as const };
        notify(tab.session!, attack);
        for (let i = 1; i <= 1000; i++) {
            notify(tab.session!, { body: `flood ${i}`, source: 'osc9' });
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
        tabs.dispose();
        const vscodeTabs = registry('linked-text');
        const other = await vscodeTabs.openTab(workspace, {});
        await other.terminal.start();
        other.surface.hasFocus = false;
        notify(other.session!, attack);
        expect(host.toasts).to.deep.equal([{ message: notificationText(workspace, attack, 'linked-text'), actions: ['Show'] }]);
        expect(host.toasts[0].message).to.not.equal(notificationText(workspace, attack, 'markdown'));
    });

    it('a service notification for the tab\'s session: none while the tab is looked at; else the tab is marked unread and a toast with Show comes', async () => {
        const tab = await launched();
        const other = await launched('/home/u/other');
        notify(tab.session!, { body: 'seen', source: 'osc9' });
        expect(tab.surface.label, 'looked at: read at once').to.equal('sandy: proj');
        expect(host.toasts, 'no toast for what the user is looking at').to.deep.equal([]);
        tab.surface.hasFocus = false;
        notify(tab.session!, { body: 'unseen', source: 'osc777' });
        expect(tab.surface.label).to.equal('● sandy: proj');
        expect(tab.terminal.hasUnreadNotification).to.equal(true);
        expect(other.terminal.hasUnreadNotification, 'only the session\'s own tab').to.equal(false);
        expect(host.toasts).to.deep.equal([{ message: notificationText(workspace, { body: 'unseen' }, 'markdown'), actions: ['Show'] }]);
        notify(tab.session!, { body: 'again', source: 'osc9' });
        expect(host.toasts, 'one toast per burst').to.have.length(1);
        clock.advance(5_000);
        expect(host.toasts.map(t => t.message)).to.deep.equal([
            notificationText(workspace, { body: 'unseen' }, 'markdown'), notificationText(workspace, { body: 'again' }, 'markdown')
        ]);
    });

    it('a session the user is looking at in another window (the service says it waits for nobody) is toasted nowhere', async () => {
        const tab = await launched();
        tab.surface.hasFocus = false;
        notify({ ...tab.session!, attention: { state: 'working', since: 1 } }, { body: 'seen elsewhere', source: 'osc9' });
        expect(host.toasts).to.deep.equal([]);
        expect(tab.terminal.hasUnreadNotification, 'this window\'s tab is still marked').to.equal(true);
        notify({ ...sessionInfo('other', '/home/u/other', { attachedViews: 0 }), attention: { state: 'idle' } }, { body: 'seen in a tab elsewhere', source: 'osc9' });
        expect(host.toasts).to.deep.equal([]);
        notify({ ...tab.session!, attention: { state: 'needs-you', since: 1, waitingFor: 'notification' } }, { body: 'nobody looks', source: 'osc9' });
        expect(host.toasts.map(t => t.message)).to.deep.equal([notificationText(workspace, { body: 'nobody looks' }, 'markdown')]);
    });

    it('tells the window which sessions the user sees (focused tabs), on every change of the tabs or their focus', async () => {
        const told: string[][] = [];
        host = new FakeHost(world);
        tabs = new TerminalTabs<FakeTab>({ host, service: world.service, ui: world.ui, coalescer: { clock }, seen: ids => told.push(ids) });
        const tab = await launched();
        expect(told.at(-1), 'the launched, focused tab').to.deep.equal([tab.session!.id]);
        tab.surface.hasFocus = false;
        tabs.fireChange();
        expect(told.at(-1), 'focus left it').to.deep.equal([]);
        tab.surface.hasFocus = true;
        tabs.fireChange();
        expect(told.at(-1)).to.deep.equal([tab.session!.id]);
        tab.detach();
        expect(told.at(-1), 'a closed tab shows nothing').to.deep.equal([]);
    });

    it('a toast is also a system notification while the window has no focus, as text only; its click shows the tab', async () => {
        const desktop = host.system = new FakeDesktop();
        const tab = await launched();
        const other = await launched('/home/u/other');
        tab.surface.hasFocus = false;
        desktop.focused = true;
        notify(tab.session!, { body: 'in the IDE', source: 'osc9' });
        expect(host.toasts, 'the toast').to.have.length(1);
        expect(desktop.shown, 'the window has the focus: the toast is enough').to.deep.equal([]);

        clock.advance(5_000);
        desktop.focused = false;
        const attack = { title: '<a href="https://evil.example/">Approve</a>', body: '<img src=https://evil.example/x> &amp; <b>now</b>' };
        notify(tab.session!, { ...attack, source: 'osc777' });
        expect(desktop.shown).to.deep.equal([{ ...systemNotificationContent(workspace, attack), tag: `sandy:${workspace}` }]);
        expect(desktop.shown[0].title).to.equal('sandy (proj)');
        const { body } = desktop.shown[0];
        expect(body, 'no tag or entity a notification server could read as markup').to.not.match(/[<>&]/);
        // GNOME Shell's and Cinnamon's address finders (scheme://… and www.…): nothing a click would open instead of the IDE.
        expect(body, 'no address a notification server could make a link').to.not.match(/[a-z][\w+.-]*:\/\/|\bwww\.|[\w-]+\.(example|com|org|net)\b/i);
        expect(body.replace(/\u2060/g, '')).to.equal('\ufe64a href="https://evil.example/"\ufe65Approve\ufe64/a\ufe65: \ufe64img src=https://evil.example/x\ufe65 \ufe60amp; \ufe64b\ufe65now\ufe64/b\ufe65');
        notify(tab.session!, { body: 'again', source: 'osc9' });
        expect(desktop.shown, 'one per burst, as the toasts').to.have.length(1);
        clock.advance(5_000);
        expect(host.toasts.map(t => t.message).at(-1), 'the burst\'s later toast').to.equal(notificationText(workspace, { body: 'again' }, 'markdown'));
        notify(tab.session!, { body: 'and again, later', source: 'osc9' });
        clock.advance(60_000);
        expect(desktop.shown, 'one per session until the user is back in the window').to.have.length(1);

        await tabs.reveal(other);
        const revealed = host.revealed.length;
        desktop.clicks[0](true);
        await settle();
        expect(host.revealed.slice(revealed), 'the click shows the session\'s tab').to.deep.equal([tab]);

        // Back in the window, then away again: the session's next request reaches the desktop once more.
        desktop.focused = true;
        tabs.fireChange();
        desktop.focused = false;
        tab.surface.hasFocus = false;
        notify(tab.session!, { body: 'a new request', source: 'osc9' });
        clock.advance(60_000);
        expect(desktop.shown.map(d => d.body)).to.deep.equal([body, 'a new request']);
    });

    it('a desktop side that throws loses nothing: the toast is shown and the failure said', async () => {
        const desktop = host.system = new FakeDesktop();
        desktop.windowFocused = () => {
            throw new Error('no window');
        };
        const tab = await launched();
        tab.surface.hasFocus = false;
        notify(tab.session!, { body: 'still toasted', source: 'osc9' });
        await settle();
        expect(host.toasts.map(t => t.message)).to.deep.equal([notificationText(workspace, { body: 'still toasted' }, 'markdown')]);
        expect(world.errors.join('\n')).to.contain('no window');
        expect(() => tabs.fireChange(), 'nor does a change of the tabs throw').to.not.throw();
    });

    it('no system notification while sandy.systemNotifications is off, while notifications are off, or for a session the user looks at', async () => {
        const desktop = host.system = new FakeDesktop();
        const tab = await launched();
        notify(tab.session!, { body: 'looked at', source: 'osc9' });
        tab.surface.hasFocus = false;
        desktop.on = false;
        notify(tab.session!, { body: 'setting off', source: 'osc9' });
        expect(host.toasts, 'the toast still comes').to.have.length(1);
        clock.advance(5_000);
        desktop.on = true;
        host.enabled = false;
        notify(tab.session!, { body: 'do not disturb', source: 'osc9' });
        expect(desktop.shown).to.deep.equal([]);
        expect(host.toasts).to.have.length(1);
    });

    it('a session no tab shows: the system notification\'s click opens a tab on it; an unclicked one does nothing', async () => {
        const desktop = host.system = new FakeDesktop();
        const session = sessionInfo('far', '/home/u/far', { attachedViews: 0 });
        world.running.push(session);
        notify(session, { body: 'nobody has a tab', source: 'osc9' });
        expect(desktop.shown.map(d => d.tag)).to.deep.equal(['sandy:/home/u/far']);
        desktop.clicks[0](false);
        await settle();
        expect(host.created, 'dismissed: nothing opens').to.deep.equal([]);
        clock.advance(5_000);
        desktop.focused = true;
        tabs.fireChange();
        desktop.focused = false;
        notify(session, { body: 'again', source: 'osc9' });
        desktop.clicks[1](true);
        await settle();
        expect(host.created.map(t => t.options)).to.deep.equal([{ workspace: '/home/u/far', sessionId: 'far' }]);
    });

    it('shows no toast while sandy.notifications is off (the tab still marks it unread)', async () => {
        const tab = await launched();
        host.enabled = false;
        tab.surface.hasFocus = false;
        notify(tab.session!, { body: 'quiet', source: 'osc9' });
        expect(host.toasts).to.deep.equal([]);
        expect(tab.surface.label).to.equal('● sandy: proj');
        host.enabled = true;
        notify(tab.session!, { body: 'loud', source: 'osc9' });
        expect(host.toasts).to.have.length(1);
    });

    it('a closed tab\'s notifications still waiting for their toast are dropped', async () => {
        const tab = await launched();
        tab.surface.hasFocus = false;
        const session = tab.session!;
        notify(session, { body: 'first', source: 'osc9' });
        notify(session, { body: 'waiting', source: 'osc9' });
        tab.detach();
        clock.advance(60_000);
        expect(host.toasts.map(t => t.message)).to.deep.equal([notificationText(workspace, { body: 'first' }, 'markdown')]);

        // The session lives on without a tab: its next notification is still said, and Show opens a tab on it again.
        await settle();
        host.toastAnswer = 'Show';
        notify(session, { body: 'after close', source: 'osc9' });
        await settle();
        expect(host.toasts.map(t => t.message).slice(1)).to.deep.equal([notificationText(workspace, { body: 'after close' }, 'markdown')]);
        expect(host.created.map(t => t.options).slice(1)).to.deep.equal([{ workspace, sessionId: session.id }]);
    });

    it('Show brings the tab to the front; not once the tab is closed', async () => {
        const tab = await launched();
        tab.surface.hasFocus = false;
        host.revealed.length = 0;
        host.toastAnswer = 'Show';
        notify(tab.session!, { body: 'done', source: 'osc9' });
        await settle();
        expect(host.revealed).to.deep.equal([tab]);

        host.toastAnswer = undefined;
        const dismissed = await launched('/home/u/other');
        dismissed.surface.hasFocus = false;
        host.revealed.length = 0;
        notify(dismissed.session!, { body: 'ignored', source: 'osc9' });
        await settle();
        expect(host.revealed).to.deep.equal([]);

        let answer!: (action: string | undefined) => void;
        host.toast = async () => new Promise<string | undefined>(resolve => { answer = resolve; });
        clock.advance(60_000);
        notify(tab.session!, { body: 'late', source: 'osc9' });
        tab.detach();
        answer('Show');
        await settle();
        expect(host.revealed).to.deep.equal([]);
    });

    describe('a notification of a session no tab of this window shows', () => {
        const live = sessionInfo('live', workspace, { mode: 'daemon', link: 'detached', pid: 0 });

        it('toasts with Show, coalesced per session; Show opens a tab on the live session', async () => {
            world.running = [live];
            host.toastAnswer = 'Show';
            notify(live, { body: 'done', source: 'osc9' });
            for (let i = 1; i <= 1000; i++) {
                notify(live, { body: `flood ${i}`, source: 'osc9' });
            }
            expect(host.toasts).to.deep.equal([{ message: notificationText(workspace, { body: 'done' }, 'markdown'), actions: ['Show'] }]);
            await settle();
            expect(host.created.map(t => t.options)).to.deep.equal([{ workspace, sessionId: 'live' }]);
            const tab = host.created[0];
            expect(tabs.all).to.deep.equal([tab]);
            expect(host.revealed).to.deep.equal([tab]);
            await tab.terminal.start();
            expect(world.launches, 'it attaches, never launches').to.deep.equal([]);
            expect(world.stream?.sessionId).to.equal('live');

            // The burst's folded toast still comes (its Show reveals the tab now there), then the tab has them.
            clock.advance(5_000);
            expect(host.toasts[1].message).to.equal(notificationText(workspace, { body: 'flood 1000' }, 'markdown', 999));
            await settle();
            expect(host.created).to.have.length(1);
            expect(host.revealed).to.deep.equal([tab, tab]);
            tab.surface.hasFocus = false;
            notify(live, { body: 'to the tab', source: 'osc9' });
            expect(tab.terminal.hasUnreadNotification).to.equal(true);
        });

        it('a session another window shows is left to that window: no toast here (its Show would open a second tab)', () => {
            notify({ ...live, attachedViews: 1 }, { body: 'theirs', source: 'osc9' });
            expect(host.toasts).to.deep.equal([]);
            expect(host.created).to.deep.equal([]);
            notify(live, { body: 'nobody shows it', source: 'osc9' });
            expect(host.toasts).to.have.length(1);
        });

        it('the sessions\' toasts are coalesced each on its own', () => {
            notify(live, { body: 'one', source: 'osc9' });
            notify(sessionInfo('other', '/home/u/other'), { body: 'two', source: 'osc9' });
            notify(live, { body: 'three', source: 'osc9' });
            expect(host.toasts.map(t => t.message)).to.deep.equal([
                notificationText(workspace, { body: 'one' }, 'markdown'), notificationText('/home/u/other', { body: 'two' }, 'markdown')
            ]);
        });

        it('Show for a session that ended meanwhile opens nothing; a dismissed toast opens nothing', async () => {
            world.running = [{ ...live, status: 'exited' }];
            host.toastAnswer = 'Show';
            notify(live, { body: 'done', source: 'osc9' });
            await settle();
            host.toastAnswer = undefined;
            world.running = [live];
            notify(sessionInfo('another', '/home/u/other'), { body: 'ignored', source: 'osc9' });
            await settle();
            expect(host.created).to.deep.equal([]);
        });

        it('shows nothing while sandy.notifications is off, not even later', () => {
            host.enabled = false;
            notify(live, { body: 'quiet', source: 'osc9' });
            notify(live, { body: 'quieter', source: 'osc9' });
            clock.advance(60_000);
            host.enabled = true;
            clock.advance(60_000);
            expect(host.toasts).to.deep.equal([]);
            notify(live, { body: 'loud', source: 'osc9' });
            expect(host.toasts.map(t => t.message)).to.deep.equal([notificationText(workspace, { body: 'loud' }, 'markdown')]);
        });

        it('a session that ended: what its toasts still waited for is dropped; when it runs again its next one shows at once', () => {
            notify(live, { body: 'first', source: 'osc9' });
            notify(live, { body: 'waiting', source: 'osc9' });
            sessionEvents.fire({ ...live, status: 'exited' });
            clock.advance(60_000);
            expect(host.toasts.map(t => t.message)).to.deep.equal([notificationText(workspace, { body: 'first' }, 'markdown')]);
            // Another window relaunched it (a daemon session's id is its workspace's).
            sessionEvents.fire(live);
            notify(live, { body: 'again', source: 'osc9' });
            expect(host.toasts.map(t => t.message)).to.deep.equal([
                notificationText(workspace, { body: 'first' }, 'markdown'), notificationText(workspace, { body: 'again' }, 'markdown')
            ]);
        });

        it('the window closing drops what waits, and a Show answered after it opens nothing', async () => {
            world.running = [live];
            let answer!: (action: string | undefined) => void;
            host.toast = async (message, ...actions) => {
                host.toasts.push({ message, actions });
                return new Promise<string | undefined>(resolve => { answer = resolve; });
            };
            notify(live, { body: 'first', source: 'osc9' });
            notify(live, { body: 'waiting', source: 'osc9' });
            tabs.dispose();
            answer('Show');
            clock.advance(60_000);
            await settle();
            expect(host.toasts).to.have.length(1);
            expect(host.created).to.deep.equal([]);
        });
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
        expect(notificationEvents.hasListeners).to.equal(false);
    });

    it('a restored tab still waiting to attach counts as its session\'s tab: Reattach or a tree click reveals it, no duplicate', async () => {
        world.running = [sessionInfo('live')];
        const restored = new FakeTab(world, { workspace });
        restored.terminal.restoreState({ workspace, sessionId: 'live' });
        tabs.add(restored);
        // Not started yet (a background tab, or discovery still under way after a restart).
        await tabs.attach(sessionInfo('live'));
        expect(host.created).to.deep.equal([]);
        expect(host.revealed).to.deep.equal([restored]);
    });

    it('takes in a tab the host restored (not opened through the registry) once', async () => {
        world.running = [sessionInfo('live')];
        const restored = new FakeTab(world, { workspace });
        restored.terminal.restoreState({ workspace, sessionId: 'live' });
        tabs.add(restored);
        tabs.add(restored);
        expect(tabs.all).to.deep.equal([restored]);
        expect(changes).to.equal(1);
        await restored.terminal.start();
        restored.surface.hasFocus = false;
        notify(sessionInfo('live'), { body: 'hi', source: 'osc9' });
        expect(host.toasts).to.have.length(1);
        expect(restored.terminal.hasUnreadNotification).to.equal(true);
        expect(host.created, 'its own tab: none opened').to.deep.equal([]);
        const closed = new FakeTab(world, { workspace });
        closed.detach();
        tabs.add(closed);
        expect(tabs.all).to.deep.equal([restored]);
    });
});
