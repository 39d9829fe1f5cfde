/**
 * Keys with the focus in a sandy tab in a real VS Code (code-server, the linux .vsix): F1 and Ctrl+P
 * open the command palette and Quick Open (core's default `sandy.terminal.ideKeys`) instead of reaching
 * the agent as ^[OP and ^P, Ctrl+Shift+Alt+X stops the session, while Ctrl+R still reaches the agent —
 * the same list as the Theia tab.
 * (integration)
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, terminalText, typeInTerminal, Workbench } from './workbench';

const NAME = 'keys-proj';

describe('Sandy plugin in code-server: the IDE\'s keys in a sandy tab (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('keys');
        const workspace = world.workspace(NAME);
        server = new CodeServer(world, { label: 'keys', vsix: platformVsix(), folder: workspace, settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE'] } });
        expect(server.installExtension()).to.contain('was successfully installed');
        await server.start();
        ({ browser, page, bench } = await openWorkbench(server));
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('keys', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        world?.sandy(['--stop'], world.workspace(NAME));
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    it('F1 and Ctrl+P reach VS Code with the focus in the sandy tab; Ctrl+R reaches the agent; Ctrl+Shift+Alt+X stops the session', async () => {
        await bench.openSandyView();
        await bench.waitForProject(NAME);
        await bench.projectContextMenu(NAME, 'Launch');
        await bench.waitForTab(t => t.startsWith(`sandy: ${NAME}`), 'the sandy tab');
        const terminal = await bench.visibleWebview('terminal', 60_000);
        await poll(async () => (await terminalText(terminal)).includes('type \'help\' for commands'), { message: 'the agent', timeout: 60_000 });
        await typeInTerminal(page, terminal, 'keys');
        await poll(async () => (await terminalText(terminal)).includes('[keys: press keys, q ends]'), { message: 'the keys mode' });
        const quickInput = page.locator('.quick-input-widget');
        const pressInTerminal = async (key: string): Promise<void> => {
            await terminal.locator('.xterm-helper-textarea').focus();
            await page.keyboard.press(key);
        };

        await pressInTerminal('F1');
        await quickInput.waitFor({ state: 'visible', timeout: 15_000 });
        expect(await page.locator('.quick-input-widget input.input').inputValue(), 'the command palette').to.equal('>');
        await page.keyboard.press('Escape');
        await quickInput.waitFor({ state: 'hidden' });

        await pressInTerminal('Control+P');
        await quickInput.waitFor({ state: 'visible', timeout: 15_000 });
        expect(await page.locator('.quick-input-widget input.input').inputValue(), 'Quick Open').to.equal('');
        await page.keyboard.press('Escape');
        await quickInput.waitFor({ state: 'hidden' });

        await pressInTerminal('Control+R');
        await poll(async () => (await terminalText(terminal)).includes('[^R]'), { message: 'Ctrl+R at the agent' });
        const text = await terminalText(terminal);
        expect(text).to.not.contain('[^P]');
        expect(text).to.not.contain('[^[]');

        // Stop's chord: VS Code's webview host in a browser takes Ctrl+…+X for the browser's cut and
        // passes it nowhere; the page reports it and the plugin runs Stop.
        await pressInTerminal('Control+Shift+Alt+X');
        await poll(async () => (await terminalText(terminal)).includes('The daemon session was stopped (sandy --stop).'), { message: 'Ctrl+Shift+Alt+X in the tab to stop its session' });
        expect(await terminalText(terminal), 'the chord never reached the agent').to.not.match(/\[\^X\]|\[\^\[\]/);
        // One press, one report (a held key's repeats are not reported).
        await new Promise(r => setTimeout(r, 1500));
        expect(server.pluginLog().split('sandy.stop by its key').length - 1, 'sandy.stop relayed once').to.equal(1);
    });
});
