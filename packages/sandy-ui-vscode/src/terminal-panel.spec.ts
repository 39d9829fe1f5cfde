import { FakeUri, FakeWebviewPanel, recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SessionInfo } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { LINK_REFUSED_TEXT } from '@sandy-ui/core/common';
import { WORD_JOINER } from '@sandy-ui/core/common';
import { TerminalPanels, TerminalPanelsDeps } from './terminal-panel';

/** VS Code's notification link grammar (linked text): `[label](https?://…|command:…|file:…)`. */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)\3)?\)/i;

const ATTACK = '[Show details](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22touch%20PWNED%5Cn%22%7D)';

describe('VS Code plugin: a sandy terminal tab shows agent output as text (unit)', () => {
    let root: string;
    let workspace: string;
    let panels: TerminalPanels;
    let panel: FakeWebviewPanel;

    beforeEach(() => {
        resetFakeVscode();
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-panel-spec-')));
        workspace = path.join(root, 'proj');
        fs.mkdirSync(workspace);
        fs.writeFileSync(path.join(workspace, 'README.md'), '# hi\n');
        fs.symlinkSync('/etc/passwd', path.join(workspace, 'escape'));
        const core = { sessions: (): SessionInfo[] => [], forgetSession: () => undefined, supervisor: { get: () => undefined } };
        const deps: TerminalPanelsDeps = {
            core: core as unknown as SandyServiceCore,
            state: { onDidChangeSession: () => ({ dispose: () => undefined }) } as unknown as TerminalPanelsDeps['state'],
            log: { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as TerminalPanelsDeps['log'],
            extensionUri: FakeUri.file('/ext') as unknown as TerminalPanelsDeps['extensionUri'],
            clearForLaunch: async () => undefined
        };
        panels = new TerminalPanels(deps);
        panels.attach({ id: 's1', workspace, pid: 1, status: 'running', startedAt: 0 } as unknown as SessionInfo);
        panel = recorded.panels[0];
        panel.fromPage.fire({ type: 'ready', cols: 80, rows: 24 });
    });

    afterEach(() => {
        panels.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    function fromPage(message: unknown): void {
        panel.fromPage.fire(message);
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

    it('tells the page the workspace, so only file links inside it are drawn as links', () => {
        expect(panel.posted).to.deep.include({ type: 'links', workspace });
    });

    it('passes showInformationMessage only text that forms no link, and shows it as sent', () => {
        fromPage({ type: 'notify', title: '<a href="command:terminal:new">x</a> $(zap)', body: ATTACK, source: 'osc777' });
        expect(recorded.infos).to.have.length(1);
        const { message, items } = recorded.infos[0];
        expect(message).to.not.match(VSCODE_LINK);
        expect(message).to.not.match(/\$\(/);
        expect(message.split(WORD_JOINER).join('')).to.equal(`sandy (proj): <a href="command:terminal:new">x</a> $(zap): ${ATTACK}`);
        expect(items).to.deep.equal(['Show']);
    });

    it('strips controls and bidi overrides, and caps a long message', () => {
        fromPage({ type: 'notify', body: `a\u202egnp.exe\x1b[2J ${'x'.repeat(4000)}`, source: 'osc9' });
        const { message } = recorded.infos[0];
        expect(message).to.not.match(/[\u0000-\u001f\u202e]/);
        expect(message.startsWith('sandy (proj): agnp.exe[2J x')).to.equal(true);
        expect(message.length).to.be.lessThan(500);
        expect(message.endsWith('\u2026')).to.equal(true);
    });

    it('makes one toast of 1,000 notifications in a burst (the rest come folded into one, later)', () => {
        for (let i = 1; i <= 1000; i++) {
            fromPage({ type: 'notify', body: `flood ${i}`, source: 'osc9' });
        }
        expect(recorded.infos.map(i => i.message)).to.deep.equal(['sandy (proj): flood 1']);
    });

    it('shows nothing when sandy.notifications is off', () => {
        recorded.settings.notifications = false;
        fromPage({ type: 'notify', body: 'quiet', source: 'osc9' });
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
