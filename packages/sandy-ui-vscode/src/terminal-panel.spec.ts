import { changeSettings, FakeUri, FakeWebviewPanel, recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { LaunchOutcome, LaunchRequest, SessionInfo, SessionNotification, TerminalNotification } from '@sandy-ui/core/common';
import { detachedText, sessionLinkBanner, SimpleEmitter } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { LINK_REFUSED_TEXT } from '@sandy-ui/core/common';
import { WORD_JOINER } from '@sandy-ui/core/common';
import { TerminalPanels, TerminalPanelsDeps } from './terminal-panel';

/** What the window's state hears from the service: session changes, and the notifications core's supervisor parsed. */
interface FakeStateEvents {
    sessions: SimpleEmitter<SessionInfo>;
    notifications: SimpleEmitter<SessionNotification>;
    configuration: { notifications?: boolean; doNotDisturb?: boolean };
}

function stateEvents(): FakeStateEvents {
    return { sessions: new SimpleEmitter<SessionInfo>(), notifications: new SimpleEmitter<SessionNotification>(), configuration: {} };
}

/** The panels' deps around a fake core (the parts of SandyServiceCore a spec drives). */
function panelDeps(core: object, events: FakeStateEvents = stateEvents()): TerminalPanelsDeps {
    return {
        core: core as unknown as SandyServiceCore,
        state: {
            onDidChangeSession: events.sessions.event, onDidNotify: events.notifications.event, setSeen: () => undefined,
            onDidChange: () => ({ dispose: () => undefined }),
            // The user's settings as the window sent them (sandy.notifications, sandy.doNotDisturb).
            get configuration() { return events.configuration; }
        } as unknown as TerminalPanelsDeps['state'],
        log: { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as TerminalPanelsDeps['log'],
        extensionUri: FakeUri.file('/ext') as unknown as TerminalPanelsDeps['extensionUri'],
        clearForLaunch: async () => undefined
    };
}

/** VS Code's notification link grammar (linked text): `[label](https?://…|command:…|file:…)`. */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)\3)?\)/i;

const ATTACK = '[Show details](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22touch%20PWNED%5Cn%22%7D)';

describe('VS Code plugin: a sandy terminal tab shows agent output as text (unit)', () => {
    let root: string;
    let workspace: string;
    let panels: TerminalPanels;
    let panel: FakeWebviewPanel;
    let events: FakeStateEvents;
    let session: SessionInfo;

    beforeEach(async () => {
        resetFakeVscode();
        events = stateEvents();
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-panel-spec-')));
        workspace = path.join(root, 'proj');
        fs.mkdirSync(workspace);
        fs.writeFileSync(path.join(workspace, 'README.md'), '# hi\n');
        fs.symlinkSync('/etc/passwd', path.join(workspace, 'escape'));
        session = { id: 's1', workspace, pid: 1, mode: 'daemon', origin: 'ide', link: 'attached', status: 'running', startedAt: 0, args: [], attachedViews: 1 };
        const core = {
            sessions: async (): Promise<SessionInfo[]> => [session], forgetSession: async () => undefined, resize: async () => undefined,
            supervisor: { get: () => undefined }
        };
        panels = new TerminalPanels(panelDeps(core, events));
        await panels.tabs.attachTab(session);
        panel = recorded.panels[0];
        panel.fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
        // The tab found its session.
        await new Promise(resolve => setTimeout(resolve, 0));
        expect(panels.tabs.tabBySession('s1')).to.not.equal(undefined);
        // The user works in another window: each notification is toasted (none while the tab is looked at).
        recorded.windowFocused = false;
    });

    afterEach(() => {
        panels.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    function fromPage(message: unknown): void {
        panel.fromPage.fire(message);
    }

    /** A notification core's supervisor parsed from the session's stream (the only way one reaches a toast). */
    function notified(notification: TerminalNotification): void {
        events.notifications.fire({ session, notification });
    }

    /** Waits for the panel's link opener (it resolves paths on the disk) to have done `count` things. */
    async function settle(count: () => number, expected: number): Promise<void> {
        const deadline = Date.now() + 2000;
        while (count() < expected && Date.now() < deadline) {
            await new Promise(resolve => setTimeout(resolve, 5));
        }
        // Anything beyond what was expected would show up now.
        await new Promise(resolve => setTimeout(resolve, 20));
    }

    it('a page message off the terminal protocol reaches nothing: no clipboard write, no link, no crash', async () => {
        fromPage({ type: 'clipboard', text: 'pwned', __proto__: { polluted: true } });
        fromPage(JSON.parse('{"type":"clipboard","text":"pwned","__proto__":{"polluted":1}}'));
        fromPage({ type: 'clipboard', text: 42 });
        fromPage({ type: 'openLink', uri: 'https://example.com', extra: 1 });
        fromPage({ type: 'toString' });
        fromPage(null);
        await settle(() => recorded.clipboard.length + recorded.commands.length + recorded.external.length, 0);
        expect(recorded.clipboard).to.deep.equal([]);
        expect(recorded.external).to.deep.equal([]);
        expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
        // The protocol itself still works after the refusals.
        fromPage({ type: 'clipboard', text: 'copied' });
        await settle(() => recorded.clipboard.length, 1);
        expect(recorded.clipboard).to.deep.equal(['copied']);
    });

    it('tells the page the workspace, so only file links inside it are drawn as links', () => {
        expect(panel.posted).to.deep.include({ type: 'links', workspace });
    });

    it('gives a page that says hello VS Code\'s terminal settings before it measures, and each change of them after', () => {
        changeSettings({ 'terminal.integrated.fontSize': 18, 'terminal.integrated.cursorBlinking': true });
        panel.posted.length = 0;
        // A reloaded page: it says hello, and is sent the appearance again although nothing changed.
        fromPage({ type: 'hello' });
        expect(panel.posted).to.deep.equal([{ type: 'appearance', cursorBlink: true, cursorStyle: 'block', fontSize: 18, gpuAcceleration: 'auto' }]);
        changeSettings({ 'terminal.integrated.cursorStyle': 'line' });
        expect(panel.posted.slice(1)).to.deep.equal([{ type: 'appearance', cursorBlink: true, cursorStyle: 'bar', fontSize: 18, gpuAcceleration: 'auto' }]);
        changeSettings({ 'editor.fontSize': 30, 'terminal.integrated.cursorStyle': 'line' });
        expect(panel.posted, 'nothing new: not sent again').to.have.length(2);
        // The page's settings message off its schema is refused by the page's messenger (zod), e.g. CSS as a family;
        // core never builds one: the host's own read refuses it.
        changeSettings({ 'terminal.integrated.fontFamily': 'mono; } * { color: red } .x {' });
        expect(panel.posted, 'the family refused: the same appearance, not sent').to.have.length(2);
    });

    it('the page cannot make a toast: its notify message (gone from the protocol) is refused, and nothing is shown', async () => {
        panel.active = false;
        fromPage({ type: 'notify', title: 'Approve?', body: ATTACK, source: 'osc777' });
        fromPage({ type: 'notify', body: 'done', source: 'osc9' });
        await settle(() => recorded.infos.length, 0);
        expect(recorded.infos).to.deep.equal([]);
        expect(panel.title, 'nor an unread mark').to.equal('sandy: proj');
    });

    it('passes showInformationMessage only text that forms no link, and shows it as sent', () => {
        notified({ title: '<a href="command:terminal:new">x</a> $(zap)', body: ATTACK, source: 'osc777' });
        expect(recorded.infos).to.have.length(1);
        const { message, items } = recorded.infos[0];
        expect(message).to.not.match(VSCODE_LINK);
        expect(message).to.not.match(/\$\(/);
        expect(message.split(WORD_JOINER).join('')).to.equal(`sandy (proj): <a href="command:terminal:new">x</a> $(zap): ${ATTACK}`);
        expect(items).to.deep.equal(['Show']);
    });

    it('strips controls and bidi overrides, and caps a long message', () => {
        notified({ body: `a\u202egnp.exe\x1b[2J ${'x'.repeat(4000)}`, source: 'osc9' });
        const { message } = recorded.infos[0];
        expect(message).to.not.match(/[\u0000-\u001f\u202e]/);
        expect(message.startsWith('sandy (proj): agnp.exe[2J x')).to.equal(true);
        expect(message.length).to.be.lessThan(500);
        expect(message.endsWith('\u2026')).to.equal(true);
    });

    it('makes one toast of 1,000 notifications in a burst (the rest come folded into one, later)', () => {
        for (let i = 1; i <= 1000; i++) {
            notified({ body: `flood ${i}`, source: 'osc9' });
        }
        expect(recorded.infos.map(i => i.message)).to.deep.equal(['sandy (proj): flood 1']);
    });

    it('shows nothing when sandy.notifications is off, nor while do not disturb is on', () => {
        events.configuration = { doNotDisturb: true };
        notified({ body: 'do not disturb', source: 'osc9' });
        expect(recorded.infos).to.deep.equal([]);
        events.configuration = { notifications: false };
        notified({ body: 'quiet', source: 'osc9' });
        expect(recorded.infos).to.deep.equal([]);
        // Nor for a session without a tab.
        events.notifications.fire({ session: { ...session, id: 's9', workspace: '/elsewhere' }, notification: { body: 'quiet', source: 'osc9' } });
        expect(recorded.infos).to.deep.equal([]);
    });

    it('opens http(s) links through openExternal (the editor confirms), and nothing else of another scheme', async () => {
        fromPage({ type: 'openLink', uri: 'https://example.com/docs' });
        const refused = ['command:workbench.action.terminal.sendSequence?%7B%7D', 'vscode://vscode.git/clone', 'javascript:alert(1)', 'data:text/html,x', 'mailto:a@b.c'];
        for (const uri of refused) {
            fromPage({ type: 'openLink', uri });
        }
        await settle(() => recorded.external.length + recorded.warnings.length, 1 + refused.length);
        expect(recorded.external).to.deep.equal(['https://example.com/docs']);
        expect(recorded.commands).to.deep.equal([]);
        expect(new Set(recorded.warnings)).to.deep.equal(new Set([LINK_REFUSED_TEXT.scheme]));
    });

    it('opens a file link inside the workspace, and refuses /etc/passwd, ../ escapes and a symlink out', async () => {
        fromPage({ type: 'openLink', uri: `file://${workspace}/README.md` });
        await settle(() => recorded.commands.length, 1);
        expect(recorded.commands.map(c => [c.id, String(c.args[0])])).to.deep.equal([['vscode.open', `file://${workspace}/README.md`]]);

        recorded.commands.length = 0;
        for (const uri of ['file:///etc/passwd', `file://${workspace}/../../../../etc/passwd`, `file://${workspace}/escape`, `file://${workspace}/missing`]) {
            fromPage({ type: 'openLink', uri });
        }
        await settle(() => recorded.warnings.length, 4);
        expect(recorded.commands, 'opened').to.deep.equal([]);
        expect(recorded.warnings).to.have.length(4);
        expect(new Set(recorded.warnings)).to.deep.equal(new Set([LINK_REFUSED_TEXT['outside-workspace']]));
    });
});

describe('VS Code plugin: a sandy terminal tab is core\'s TerminalSession over the webview and the supervisor (unit)', () => {
    const workspace = '/home/u/proj';
    let panels: TerminalPanels;
    let sessions: Map<string, SessionInfo>;
    let attachments: Array<{ id: string; written: string[]; acked: number[]; disposed: boolean; data: SimpleEmitter<string>; exit: SimpleEmitter<SessionInfo> }>;
    /** While set, the supervisor answers an attach only once it settles (the screen is being serialised). */
    let attachGate: Promise<void> | undefined;
    let calls: string[];
    let next: number;
    let events: FakeStateEvents;

    beforeEach(() => {
        resetFakeVscode();
        events = stateEvents();
        sessions = new Map();
        attachGate = undefined;
        attachments = [];
        calls = [];
        next = 0;
        const supervisor = {
            get: (id: string) => sessions.get(id),
            // Async: the supervisor serialises the session's screen before it answers.
            attach: async (id: string) => {
                await attachGate;
                const a = { id, written: [] as string[], acked: [] as number[], disposed: false, data: new SimpleEmitter<string>(), exit: new SimpleEmitter<SessionInfo>() };
                attachments.push(a);
                return {
                    replay: `earlier ${id}`, onData: a.data.event, onExit: a.exit.event,
                    write: (d: string) => a.written.push(d), acknowledge: (n: number) => a.acked.push(n), dispose: () => { a.disposed = true; }
                };
            }
        };
        const core = {
            supervisor,
            launch: async (r: LaunchRequest): Promise<LaunchOutcome> => {
                calls.push(`launch ${r.cols}x${r.rows}${r.approvalToken ? ` ${r.approvalToken}` : ''}`);
                const session = { id: `s${++next}`, workspace, pid: 7, mode: 'foreground', origin: 'ide', status: 'running', startedAt: 0, args: [], attachedViews: 0 } as SessionInfo;
                sessions.set(session.id, session);
                return { kind: 'launched', session, warnings: ['check FOO'] };
            },
            sessions: async () => [...sessions.values()],
            resize: async (id: string, cols: number, rows: number) => { calls.push(`resize ${id} ${cols}x${rows}`); },
            forgetSession: async (id: string) => { calls.push(`forget ${id}`); },
            stop: async (id: string) => { calls.push(`stop ${id}`); return undefined; },
            takeBack: async (id: string) => {
                calls.push(`takeBack ${id}`);
                const taken = { ...sessions.get(id)!, link: 'attached' as const };
                sessions.set(id, taken);
                return taken;
            }
        };
        panels = new TerminalPanels(panelDeps(core, events));
    });

    afterEach(() => {
        panels.dispose();
    });

    async function settle(): Promise<void> {
        await new Promise(resolve => setTimeout(resolve, 20));
    }

    it('a new page that says hello is given VS Code\'s terminal settings before it measures; nothing launches until it is ready', async () => {
        changeSettings({ 'terminal.integrated.fontSize': 18, 'terminal.integrated.cursorStyle': 'underline' });
        await panels.tabs.openTab(workspace, {});
        const panel = recorded.panels[0];
        const appearances = () => panel.posted.filter(m => (m as { type: string }).type === 'appearance');
        expect(appearances(), 'none before the page listens').to.deep.equal([]);
        panel.fromPage.fire({ type: 'hello' });
        expect(appearances()).to.deep.equal([{ type: 'appearance', cursorBlink: false, cursorStyle: 'underline', fontSize: 18, gpuAcceleration: 'auto' }]);
        await settle();
        expect(calls, 'no launch before the page measured itself with that font').to.deep.equal([]);
        panel.fromPage.fire({ type: 'ready', cols: 70, rows: 20 });
        await settle();
        expect(calls[0]).to.equal('launch 70x20');
        expect(appearances(), 'not sent again at ready').to.have.length(1);
    });

    it('launches at the page\'s size once it is ready, shows the stream, passes input on, and says how it ended', async () => {
        await panels.tabs.openTab(workspace, { approvalToken: 't1' });
        const panel = recorded.panels[0];
        expect(calls, 'nothing before the page measured itself').to.deep.equal([]);
        panel.fromPage.fire({ type: 'ready', cols: 100, rows: 30 });
        await settle();
        expect(calls).to.deep.equal(['launch 100x30 t1', 'resize s1 100x30']);
        expect(recorded.warnings).to.deep.equal(['Sandy (proj): check FOO']);
        expect(panel.posted).to.deep.include({ type: 'replay', data: 'earlier s1' });

        panel.fromPage.fire({ type: 'input', data: 'ls\r' });
        panel.fromPage.fire({ type: 'ack', chars: 12 });
        panel.fromPage.fire({ type: 'resize', cols: 90, rows: 20 });
        attachments[0].data.fire('output');
        await settle();
        expect(attachments[0].written).to.deep.equal(['ls\r']);
        expect(attachments[0].acked).to.deep.equal([12]);
        expect(calls.slice(2)).to.deep.equal(['resize s1 90x20']);
        expect(panel.posted).to.deep.include({ type: 'data', data: 'output' });

        attachments[0].exit.fire({ ...sessions.get('s1')!, status: 'exited', exitCode: 0 });
        expect(panel.title).to.equal('sandy: proj (ended)');
        expect(panel.posted.slice(-2)).to.deep.equal([
            { type: 'exitBanner', text: 'sandy exited normally.' }, { type: 'banner', text: 'sandy exited normally.', action: 'Relaunch' }
        ]);

        // The page's banner button: the controller knows it is Relaunch now.
        panel.fromPage.fire({ type: 'bannerAction' });
        await settle();
        expect(calls.slice(3)).to.deep.equal(['forget s1', 'launch 90x20', 'resize s2 90x20']);
        expect(attachments[0].disposed).to.equal(true);
        expect(panel.posted).to.deep.include({ type: 'clear' });
    });

    it('keys typed while a reloaded page reattaches (its screen already shown) reach the session once attached, in order', async () => {
        await panels.tabs.openTab(workspace, {});
        const panel = recorded.panels[0];
        panel.fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
        await settle();
        expect(attachments).to.have.length(1);

        // The page reloads: its ready attaches again, and the supervisor answers once the screen is serialised.
        let serialised!: () => void;
        attachGate = new Promise<void>(resolve => serialised = resolve);
        panel.fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
        panel.fromPage.fire({ type: 'input', data: 'echo after-' });
        panel.fromPage.fire({ type: 'input', data: 'reload\r' });
        await settle();
        expect(attachments, 'still attaching').to.have.length(1);
        serialised();
        await settle();
        expect(attachments).to.have.length(2);
        expect(attachments[1].written).to.deep.equal(['echo after-', 'reload\r']);
        expect(attachments[0].written, 'nothing to the old attachment').to.deep.equal([]);
        panel.fromPage.fire({ type: 'input', data: 'x' });
        expect(attachments[1].written).to.deep.equal(['echo after-', 'reload\r', 'x']);
    });

    it('a service notification for the tab\'s session marks it unread in the title while the tab is not active, until it is', async () => {
        await panels.tabs.openTab(workspace, {});
        const panel = recorded.panels[0];
        panel.fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
        await settle();
        panel.active = false;
        events.notifications.fire({ session: sessions.get('s1')!, notification: { body: 'done', source: 'osc9' } });
        expect(panel.title).to.equal('● sandy: proj');
        expect(recorded.infos.map(i => [i.message, i.items])).to.deep.equal([['sandy (proj): done', ['Show']]]);
        // Another session's notification is not this tab's.
        panel.active = true;
        panel.viewState.fire();
        panel.active = false;
        events.notifications.fire({ session: { ...sessions.get('s1')!, id: 's7', workspace: '/home/u/other' }, notification: { body: 'other', source: 'osc9' } });
        expect(panel.title).to.equal('sandy: proj');
        panel.active = true;
        panel.viewState.fire();
        expect(panel.title).to.equal('sandy: proj');
    });

    it('a daemon session attached in another terminal: the page shows Take Back, and its click takes it back through the service', async () => {
        const elsewhere = { id: 'daemon-1', workspace, pid: 0, mode: 'daemon', origin: 'ide', link: 'elsewhere', status: 'running', startedAt: 0, args: [], attachedViews: 0 } as SessionInfo;
        sessions.set(elsewhere.id, elsewhere);
        await panels.tabs.attachTab(elsewhere);
        const panel = recorded.panels[0];
        panel.fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
        await settle();
        const banners = () => panel.posted.filter(m => (m as { type: string }).type === 'banner');
        expect(banners().slice(-1)).to.deep.equal([{ type: 'banner', text: sessionLinkBanner(elsewhere), action: 'Take Back' }]);
        panel.fromPage.fire({ type: 'bannerAction' });
        await settle();
        expect(calls).to.include('takeBack daemon-1');
        expect(banners().slice(-1)).to.deep.equal([{ type: 'banner' }]);
        expect(calls.filter(c => c.startsWith('launch')), 'nothing launched').to.deep.equal([]);
    });

    it('a closed tab on a live session offers Reattach or Stop; closing the window asks nothing', async () => {
        await panels.tabs.openTab(workspace, {});
        recorded.panels[0].fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
        await settle();
        recorded.infoAnswer = 'Stop';
        recorded.panels[0].dispose();
        await settle();
        expect(recorded.infos.map(i => [i.message, i.items])).to.deep.equal([[detachedText(workspace), ['Reattach', 'Stop']]]);
        expect(calls).to.include('stop s1');
        expect(panels.tabs.all).to.deep.equal([]);

        await panels.tabs.openTab(workspace, {});
        recorded.panels[1].fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
        await settle();
        panels.dispose();
        await settle();
        expect(recorded.infos).to.have.length(1);
    });
});
