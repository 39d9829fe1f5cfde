import { fakeVscode, FakeWebviewPanel, recorded, resetFakeVscode } from './testing/fake-vscode';
import { daemonSession, FakeTerminalCore } from './testing/fake-terminal-core';
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { daemonSessionId } from '@sandy-ui/core/node';
import type * as vscode from 'vscode';
import { REMEMBERED_TABS_KEY, TerminalPanels } from './terminal-panel';

/**
 * Attack: after code-server or its extension host was killed, the plugin reopens the tabs it
 * remembered in the window's workspace state (TerminalPanels.reopenLostTabs). That memento is read
 * back at activation, so treat it as hostile: junk, another workspace's session, a symlinked or
 * non-canonical path, sessions that are not this IDE's daemon sessions attached here, a huge list.
 * Expected: activation does not fail, nothing is ever launched, and a tab is reopened only on a
 * daemon session this extension host holds attached again, of the very workspace the entry names.
 */
describe('Attack: a hostile remembered-tabs memento makes the plugin attach or launch (unit)', () => {
    let root: string;
    let home: string;
    let workspace: string;
    let panels: TerminalPanels | undefined;
    let world: FakeTerminalCore;
    /** What the window wrote to its workspace state, in order. */
    let updates: unknown[];
    let tabGroups: Array<{ tabs: Array<{ input: unknown }> }>;
    const window = fakeVscode.window as unknown as Record<string, unknown>;

    const session = daemonSession;

    const folder = (name: string): string => {
        const dir = path.join(home, name);
        fs.mkdirSync(dir, { recursive: true });
        return dir;
    };

    before(() => {
        // The fake vscode has no tab groups; with none restored by VS Code, reopenLostTabs goes on.
        window.tabGroups = { get all() { return tabGroups; } };
    });

    after(() => {
        delete window.tabGroups;
    });

    beforeEach(() => {
        resetFakeVscode();
        tabGroups = [];
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-reopen-attack-')));
        home = path.join(root, 'home');
        workspace = folder('proj');
        world = new FakeTerminalCore(home);
        updates = [];
        panels = undefined;
    });

    afterEach(() => {
        panels?.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    function open(remembered: unknown): TerminalPanels {
        const memento = {
            get: (key: string) => key === REMEMBERED_TABS_KEY ? remembered : undefined,
            update: async (_key: string, value: unknown) => {
                updates.push(JSON.parse(JSON.stringify(value)));
            },
            keys: () => [REMEMBERED_TABS_KEY]
        };
        panels = new TerminalPanels(world.deps({ memento: memento as unknown as vscode.Memento }));
        return panels;
    }

    async function settle(): Promise<void> {
        for (let i = 0; i < 10; i++) {
            await new Promise(resolve => setTimeout(resolve, 1));
        }
    }

    /** Every reopened tab's page loads and lays out: whatever it would start, it starts now. */
    async function showPages(): Promise<void> {
        for (const panel of recorded.panels) {
            panel.fromPage.fire({ type: 'ready', cols: 100, rows: 30 });
        }
        await settle();
    }

    it('of a memento of hostile entries, only the entry naming this workspace\'s world.attached daemon session reopens a tab, which only attaches', async () => {
        const id = daemonSessionId(workspace);
        const elsewhere = folder('elsewhere');
        const shell = folder('shell');
        const ended = folder('ended');
        const foreground = folder('foreground');
        const mismatched = folder('mismatched');
        const idle = folder('idle');
        fs.symlinkSync(workspace, path.join(home, 'link'));
        world.live = [
            session(id, workspace),
            // Another terminal (or window) holds it: not this window's to show.
            session(daemonSessionId(elsewhere), elsewhere, { link: 'elsewhere' }),
            // Started in a shell, not by the IDE: never opened unasked.
            session(daemonSessionId(shell), shell, { origin: 'outside' }),
            session(daemonSessionId(ended), ended, { status: 'exited', exitCode: 0 }),
            session('fg-1234', foreground, { mode: 'foreground' }),
            // A listing whose id is one workspace's and whose workspace is another's.
            session(daemonSessionId(mismatched), workspace)
        ];
        const hostile: unknown[] = [
            null, 7, 'proj', [workspace], {},
            { sessionId: id },
            { workspace: 'proj', sessionId: id },
            { workspace: `${workspace}/`, sessionId: id },
            { workspace: `${home}/x/../proj`, sessionId: id },
            { workspace: path.join(home, 'link'), sessionId: id },
            { workspace: home, sessionId: daemonSessionId(home) },
            { workspace: '/', sessionId: daemonSessionId('/') },
            { workspace: `${workspace}\0`, sessionId: id },
            { workspace, sessionId: id, launch: true, args: ['--rebuild'] },
            { workspace, sessionId: id, clearance: { approvalToken: 'forged' } },
            JSON.parse(`{"workspace":${JSON.stringify(workspace)},"__proto__":{"sessionId":${JSON.stringify(id)}}}`),
            // This workspace, but another workspace's session.
            { workspace, sessionId: daemonSessionId(elsewhere) },
            { workspace: elsewhere, sessionId: daemonSessionId(elsewhere) },
            { workspace: shell, sessionId: daemonSessionId(shell) },
            { workspace: ended, sessionId: daemonSessionId(ended) },
            { workspace: foreground, sessionId: 'fg-1234' },
            { workspace: mismatched, sessionId: daemonSessionId(mismatched) },
            // A remembered tab whose session is gone: nothing to reattach, so no tab (and no launch).
            { workspace: idle, sessionId: daemonSessionId(idle) },
            { workspace: idle },
            // The one genuine entry, last (a junk entry before it must not stop the loop), and again.
            { workspace, sessionId: id },
            { workspace, sessionId: id }
        ];
        const tabs = open(hostile);
        await tabs.reopenLostTabs();
        await settle();
        await showPages();

        expect(tabs.tabs.all.map(t => t.terminal.workspace), 'one tab, of this workspace').to.deep.equal([workspace]);
        expect(recorded.panels, 'one webview panel').to.have.length(1);
        expect(world.attached, 'world.attached to its own session only').to.deep.equal([id]);
        expect(tabs.tabs.tabBySession(id)).to.equal(tabs.tabs.all[0]);
        expect(world.launches, 'nothing launched').to.deep.equal([]);
        expect(world.lines.filter(t => /reopened the tab/.test(t))).to.deep.equal([
            `sandy terminal: reopened the tab of ${workspace} (session ${id}): VS Code did not restore it`
        ]);
    });

    it('a memento that is no list, or a huge one, neither fails activation nor costs more than 64 checks', async () => {
        for (const remembered of [undefined, null, 'x', 42, { length: 3, 0: { workspace } }, { [Symbol.iterator]: 1 }]) {
            const tabs = open(remembered);
            await tabs.reopenLostTabs();
            tabs.dispose();
        }
        expect(world.sessionsAsked, 'nothing asked for a memento that is no list').to.equal(0);
        expect(recorded.panels).to.deep.equal([]);

        world.live = [session(daemonSessionId(workspace), workspace)];
        const many = Array.from({ length: 100_000 }, (_, i) => i % 2 ? { workspace, sessionId: daemonSessionId(workspace) } : { workspace: `/nope/${i}` });
        const tabs = open(many);
        await tabs.reopenLostTabs();
        await settle();
        expect(world.canonicalAsked, 'at most 64 entries are checked').to.be.at.most(64);
        expect(tabs.tabs.all).to.have.length(1);
        expect(world.launches).to.deep.equal([]);
    });

    it('a tab the user closed is forgotten (a later window does not bring it back)', async () => {
        world.live = [session(daemonSessionId(workspace), workspace)];
        const tabs = open([{ workspace, sessionId: daemonSessionId(workspace) }]);
        await tabs.reopenLostTabs();
        await settle();
        await showPages();
        expect(updates.at(-1)).to.deep.equal([{ workspace, sessionId: daemonSessionId(workspace) }]);
        (recorded.panels[0] as FakeWebviewPanel).dispose();
        await settle();
        expect(updates.at(-1), 'closed by the user: not brought back').to.deep.equal([]);
    });
});
