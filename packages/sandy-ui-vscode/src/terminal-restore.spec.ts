import { FakeWebviewPanel, recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SessionInfo } from '@sandy-ui/core/common';
import { messageSchema, RESTORED_SESSION_ENDED_TEXT, SESSION_GONE_TEXT } from '@sandy-ui/core/common';
import { daemonSessionId } from '@sandy-ui/core/node';
import type * as vscode from 'vscode';
import { TerminalPanels } from './terminal-panel';
import { daemonSession, FakeTerminalCore } from './testing/fake-terminal-core';
import { terminalTabState, terminalToView } from './webview/terminal-protocol';

/**
 * A window reload: VS Code hands the panel serializer a sandy tab and the state its page saved
 * (extension.ts → TerminalPanels.restore). That state is the webview's word: the tab only ever
 * reattaches to a running session, a state that does not check out closes the tab, and nothing in
 * it can make the plugin launch sandy. Deactivation leaves the tabs for VS Code and stops nothing.
 */
describe('VS Code plugin: a sandy tab restored after a window reload (unit)', () => {
    let root: string;
    let home: string;
    let workspace: string;
    let panels: TerminalPanels;
    let world: FakeTerminalCore;
    /** The workspace's daemon session id (core's: the same in every extension host). */
    let id: string;

    const session = (id: string, ws: string): SessionInfo => daemonSession(id, ws);

    beforeEach(() => {
        resetFakeVscode();
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-restore-spec-')));
        home = path.join(root, 'home');
        workspace = path.join(home, 'proj');
        fs.mkdirSync(workspace, { recursive: true });
        world = new FakeTerminalCore(home);
        panels = new TerminalPanels(world.deps());
        id = daemonSessionId(workspace);
    });

    afterEach(() => {
        panels.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    /** A panel as VS Code revives it: no page yet, our options to be given again. */
    function revived(): { panel: FakeWebviewPanel; closed: () => boolean } {
        const panel = new FakeWebviewPanel('sandy: proj');
        let closed = false;
        panel.disposed.event(() => closed = true);
        return { panel, closed: () => closed };
    }

    async function restore(state: unknown): Promise<{ panel: FakeWebviewPanel; closed: () => boolean; restored: boolean }> {
        const r = revived();
        const tab = await panels.restore(r.panel as unknown as vscode.WebviewPanel, state);
        await settle();
        return { ...r, restored: !!tab };
    }

    async function settle(): Promise<void> {
        for (let i = 0; i < 10; i++) {
            await new Promise(resolve => setTimeout(resolve, 1));
        }
    }

    const posted = (panel: FakeWebviewPanel, type: string) => panel.posted.filter(m => (m as { type: string }).type === type);

    it('reattaches to its session if that still runs: its screen, typed input to it, and no launch', async () => {
        world.live = [session(id, workspace)];
        const { panel, closed, restored } = await restore({ workspace, sessionId: id });
        expect(restored).to.equal(true);
        expect(closed()).to.equal(false);
        expect(panels.tabs.all).to.have.length(1);
        // Before its page is shown (VS Code loads a background tab's page lazily), the tab is on its session.
        expect(panels.tabs.tabBySession(id)).to.equal(panels.tabs.all[0]);
        expect((panel.webview as unknown as { options: { enableScripts: boolean; enableCommandUris: boolean } }).options)
            .to.include({ enableScripts: true, enableCommandUris: false });
        expect(world.attached).to.deep.equal([id]);
        expect(posted(panel, 'replay')).to.deep.equal([{ type: 'replay', data: `screen of ${id}` }]);

        panel.fromPage.fire({ type: 'ready', cols: 100, rows: 30 });
        await settle();
        panel.fromPage.fire({ type: 'input', data: 'echo hi\r' });
        expect(world.written).to.deep.equal(['echo hi\r']);
        expect(world.launches).to.deep.equal([]);
        // What the page saves for the next reload: the same workspace and session.
        expect(posted(panel, 'state').at(-1)).to.deep.equal({ type: 'state', workspace, sessionId: id });
    });

    it('says its session ended when it no longer runs, saves a state without it, and world.launches nothing', async () => {
        const { panel, restored } = await restore({ workspace, sessionId: id });
        expect(restored).to.equal(true);
        panel.fromPage.fire({ type: 'ready', cols: 100, rows: 30 });
        await settle();
        expect(posted(panel, 'exitBanner')).to.deep.equal([{ type: 'exitBanner', text: SESSION_GONE_TEXT }]);
        expect(posted(panel, 'banner').at(-1)).to.deep.include({ action: 'Relaunch' });
        expect(posted(panel, 'state').at(-1)).to.deep.equal({ type: 'state', workspace });
        expect(world.launches).to.deep.equal([]);
        expect(world.attached).to.deep.equal([]);
    });

    it('a tab saved without a session (it had ended) says so after the reload and world.launches nothing', async () => {
        const { panel } = await restore({ workspace });
        panel.fromPage.fire({ type: 'ready', cols: 100, rows: 30 });
        await settle();
        expect(posted(panel, 'exitBanner')).to.deep.equal([{ type: 'exitBanner', text: RESTORED_SESSION_ENDED_TEXT }]);
        expect(world.launches).to.deep.equal([]);
        expect(world.sessionsAsked).to.equal(0);
    });

    it('attack: a state the page was made to save closes the tab, and nothing is world.attached, asked or launched', async () => {
        fs.symlinkSync(workspace, path.join(home, 'link'));
        fs.writeFileSync(path.join(home, 'file'), 'x');
        const hostile: Array<[string, unknown]> = [
            ['nothing saved', undefined],
            ['not an object', 'proj'],
            ['an array', [workspace]],
            ['no workspace', { sessionId: 'daemon-0123456789abcdef' }],
            ['a number for the workspace', { workspace: 7 }],
            ['an empty workspace', { workspace: '' }],
            ['a relative workspace', { workspace: 'proj' }],
            ['dot-dot in the workspace', { workspace: `${home}/other/../proj` }],
            ['a trailing slash', { workspace: `${workspace}/` }],
            ['a symlink to the workspace', { workspace: path.join(home, 'link') }],
            ['a file', { workspace: path.join(home, 'file') }],
            ['a folder that does not exist', { workspace: path.join(home, 'gone') }],
            ['HOME itself', { workspace: home }],
            ['the file system root', { workspace: '/' }],
            ['a NUL in the workspace', { workspace: `${workspace}\0/x` }],
            ['a huge workspace', { workspace: `/${'a'.repeat(5000)}` }],
            ['a session id with a path in it', { workspace, sessionId: '../../etc/passwd' }],
            ['a session id with a space', { workspace, sessionId: 'daemon-0 1' }],
            ['a session id that is an object', { workspace, sessionId: { toString: 'daemon-0' } }],
            ['a clearance smuggled in', { workspace, clearance: { approvalToken: 'forged' } }],
            ['an auto-launch flag smuggled in', { workspace, launch: true, args: ['--rebuild'] }],
            ['a prototype key', JSON.parse(`{"workspace":${JSON.stringify(workspace)},"__proto__":{"sessionId":"x"}}`)]
        ];
        world.live = [session(id, workspace)];
        for (const [what, state] of hostile) {
            const before = world.logged.warn.length;
            const { closed, restored } = await restore(state);
            expect(restored, what).to.equal(false);
            expect(closed(), `${what}: the tab is closed`).to.equal(true);
            expect(world.logged.warn.length, `${what}: the log says why`).to.equal(before + 1);
            expect(world.logged.warn.at(-1), what).to.match(/^sandy terminal: not restoring a sandy tab after the reload: /);
        }
        expect(panels.tabs.all).to.deep.equal([]);
        expect(world.launches).to.deep.equal([]);
        expect(world.attached).to.deep.equal([]);
        expect(world.sessionsAsked).to.equal(0);
        expect(recorded.panels, 'no tab of its own opened instead').to.deep.equal([]);
    });

    it('attack: a state naming another workspace\'s running session restores the tab without attaching it there', async () => {
        const other = path.join(home, 'other');
        fs.mkdirSync(other);
        world.live = [session(daemonSessionId(other), other)];
        const { panel, restored } = await restore({ workspace, sessionId: daemonSessionId(other) });
        expect(restored).to.equal(true);
        panel.fromPage.fire({ type: 'ready', cols: 100, rows: 30 });
        await settle();
        expect(world.attached).to.deep.equal([]);
        expect(panels.tabs.tabBySession(daemonSessionId(other))).to.equal(undefined);
        expect(posted(panel, 'exitBanner')).to.deep.equal([{ type: 'exitBanner', text: RESTORED_SESSION_ENDED_TEXT }]);
        expect(world.logged.warn.at(-1)).to.contain(`named session ${daemonSessionId(other)}, which is not its workspace's`);
        expect(world.launches).to.deep.equal([]);
    });

    it('the page saves only a state of this shape (it checks the host\'s message like every other)', () => {
        const toView = messageSchema(terminalToView);
        expect(toView.safeParse({ type: 'state', workspace, sessionId: id }).success).to.equal(true);
        expect(toView.safeParse({ type: 'state', workspace }).success).to.equal(true);
        expect(toView.safeParse({ type: 'state', workspace: 7 }).success).to.equal(false);
        expect(toView.safeParse({ type: 'state', workspace, clearance: { approvalToken: 't' } }).success).to.equal(false);
        expect(toView.safeParse({ type: 'state', workspace, sessionId: 'a b' }).success).to.equal(false);
        expect(terminalTabState.safeParse({ workspace, sessionId: null }).success, 'JSON null: no session').to.equal(true);
    });

    it('deactivation (a window reload) leaves the tabs for VS Code to restore and world.stops no session', async () => {
        world.live = [session(id, workspace)];
        const { panel, closed } = await restore({ workspace, sessionId: id });
        const tab = panels.tabs.all[0];
        panel.fromPage.fire({ type: 'ready', cols: 100, rows: 30 });
        await settle();
        const before = panel.posted.length;
        panels.dispose();
        await settle();
        expect(closed(), 'the panel stays: VS Code saves and restores it').to.equal(false);
        expect(tab.terminal.isDisposed, 'its controller ended').to.equal(true);
        expect(world.stops).to.deep.equal([]);
        expect(recorded.infos, 'no "detached" prompt while the window goes away').to.deep.equal([]);
        expect(panel.posted.length, 'nothing more is sent to the page').to.equal(before);
    });
});
