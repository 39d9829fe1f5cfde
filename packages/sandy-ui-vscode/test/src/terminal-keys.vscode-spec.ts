/**
 * Keys with the focus in a sandy tab in a real VS Code (code-server, the linux .vsix): F1 and Ctrl+P
 * open the command palette and Quick Open (core's default `sandy.terminal.ideKeys`) instead of reaching
 * the agent as ^[OP and ^P, Ctrl+Shift+Alt+Y shows the Sandy view, Ctrl+Shift+Alt+X stops the session, while Ctrl+R still reaches the agent —
 * the same list as the Theia tab. Then the tab's appearance follows VS Code's `terminal.integrated.*`
 * settings (core's terminal-appearance.ts), as the Theia tab follows Theia's.
 * (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Frame, Page } from 'playwright-core';
import { loseXtermWebglContext, readXtermAppearance, readXtermGeometry, readXtermRenderer } from '@sandy-ui/test/lib/support/xterm-dom';
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

    it('F1, Ctrl+P and Ctrl+Shift+Alt+Y reach VS Code with the focus in the sandy tab; Ctrl+R reaches the agent; Ctrl+Shift+Alt+X stops the session', async () => {
        await bench.openSandyView();
        await bench.waitForProject(NAME);
        await bench.projectContextMenu(NAME, 'Launch');
        await bench.waitForTab(t => t.startsWith(`sandy: ${NAME}`), 'the sandy tab');
        const terminal = await bench.visibleWebview('terminal', 60_000);
        await poll(async () => (await terminalText(terminal)).includes('type \'help\' for commands'), { message: 'the agent', timeout: 60_000 });
        await typeInTerminal(page, terminal, 'keys');
        await poll(async () => (await terminalText(terminal)).includes('[keys: press keys, q ends]'), { message: 'the keys mode' });
        const quickInput = page.locator('.quick-input-widget');
        // The key goes in once the tab's terminal has the focus: after Escape, VS Code gives the focus
        // back to the webview asynchronously, and a key pressed before that lands is not in the tab.
        const pressInTerminal = async (key: string): Promise<void> => {
            const textarea = terminal.locator('.xterm-helper-textarea');
            await poll(async () => {
                await textarea.focus();
                return terminal.evaluate(() => document.hasFocus() && !!document.activeElement?.classList.contains('xterm-helper-textarea'));
            }, { message: 'the focus in the sandy tab\'s terminal', timeout: 15_000 });
            await page.keyboard.press(key);
        };
        /** The quick input opened by a key in the tab; if it does not, where the key went (the agent echoes what it gets). */
        const expectQuickInput = async (key: string, value: string, what: string): Promise<void> => {
            await pressInTerminal(key);
            try {
                await quickInput.waitFor({ state: 'visible', timeout: 15_000 });
            } catch (e) {
                const focus = await page.evaluate(() => `${document.activeElement?.tagName}.${document.activeElement?.className}`);
                throw new Error(`${key} did not open ${what}; the page's focus: ${focus}; the tab shows:\n${await terminalText(terminal)}\n${e}`);
            }
            expect(await page.locator('.quick-input-widget input.input').inputValue(), what).to.equal(value);
            await page.keyboard.press('Escape');
            await quickInput.waitFor({ state: 'hidden' });
        };

        await expectQuickInput('F1', '>', 'the command palette');
        await expectQuickInput('Control+P', '', 'Quick Open');

        // The chord that shows the Sandy view (the Sandy IDE's, kept from the agent in both hosts): from the tab, with the
        // Explorer in the side bar (the same width: no resize, so the agent does not redraw over what the next keys print).
        await bench.runCommand('View: Show Explorer');
        const sandyView = page.locator('.part.sidebar .composite.title', { hasText: /sandy/i });
        await sandyView.waitFor({ state: 'hidden' });
        await pressInTerminal('Control+Shift+Alt+Y');
        await sandyView.waitFor({ state: 'visible', timeout: 15_000 });
        // The Projects view takes the focus; the next key goes into the tab only once that has happened.
        await poll(() => page.evaluate(() => !!document.activeElement?.closest('.part.sidebar')), { message: 'the focus in the Sandy view', timeout: 15_000 });

        await pressInTerminal('Control+R');
        await poll(async () => (await terminalText(terminal)).includes('[^R]'), { message: 'Ctrl+R at the agent' });
        const text = await terminalText(terminal);
        expect(text).to.not.contain('[^P]');
        expect(text).to.not.contain('[^Y]');
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

    it('the tab draws with VS Code\'s terminal settings: a steady cursor by default, the user\'s font and cursor once set (the PTY resized), a workspace\'s font size and CSS ignored', async () => {
        let terminal = await bench.visibleWebview('terminal', 30_000);
        await terminal.locator('.sandy-terminal-banner button.sandy-relaunch').click();
        await poll(async () => (await terminalText(terminal)).includes('type \'help\' for commands'), { message: 'the relaunched agent', timeout: 60_000 });
        await terminal.locator('.xterm-helper-textarea').focus();
        const before = await appearance(terminal);
        expect(before.cursor, 'the focused cursor: a block, not blinking (VS Code\'s terminal default)').to.deep.equal(['xterm-cursor-block']);
        expect(before.fontSize, 'VS Code\'s terminal.integrated.fontSize default').to.equal('14px');
        const first = await geometry(terminal);

        // In the user's settings, through VS Code's own editor (code-server does not notice a file written behind its back).
        const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        await editSettingsJson('Preferences: Open User Settings (JSON)', settingsFile, {
            ...settings, 'terminal.integrated.fontSize': 20, 'terminal.integrated.cursorBlinking': true, 'terminal.integrated.cursorStyle': 'underline'
        });
        await bench.clickTab(t => t.startsWith(`sandy: ${NAME}`));
        terminal = await bench.visibleWebview('terminal', 30_000);
        await poll(async () => (await appearance(terminal)).fontSize === '20px', { message: 'the tab to take the user\'s font size', timeout: 30_000 });
        await terminal.locator('.xterm-helper-textarea').focus();
        expect((await appearance(terminal)).cursor).to.deep.equal(['xterm-cursor-blink', 'xterm-cursor-underline']);
        const bigger = await poll(async () => {
            const g = await geometry(terminal);
            return g.cols < first.cols && g.rows < first.rows ? g : undefined;
        }, { message: 'fewer, larger cells' });
        await poll(async () => (await terminalText(terminal)).includes(`size: ${bigger.rows}\u00d7${bigger.cols}`), { message: 'the agent to redraw at the new size (the PTY followed)' });

        // The attack: the repository's .vscode/settings.json asks for a font 100 px high (in range, but
        // it would leave the agent two rows) and a font family that closes xterm's CSS rule and adds one (3 px rows); the
        // cursor style in the same file shows VS Code read it.
        const workspace = world.workspace(NAME);
        await editSettingsJson('Preferences: Open Workspace Settings (JSON)', path.join(workspace, '.vscode', 'settings.json'), {
            'terminal.integrated.fontSize': 100, 'terminal.integrated.fontFamily': 'evil, monospace; } .xterm-rows { font-size: 3px !important; } .x {', 'terminal.integrated.cursorStyle': 'line'
        });
        await bench.clickTab(t => t.startsWith(`sandy: ${NAME}`));
        terminal = await bench.visibleWebview('terminal', 30_000);
        await terminal.locator('.xterm-helper-textarea').focus();
        await poll(async () => (await appearance(terminal)).cursor.includes('xterm-cursor-bar'), { message: 'the workspace\'s valid cursor style to be read', timeout: 30_000 });
        const after = await appearance(terminal);
        expect(after.fontSize, 'the user\'s font size, not the workspace\'s').to.equal('20px');
        expect(after.fontFamily).to.not.contain('evil');
        expect(await geometry(terminal)).to.deep.equal(bigger);
    });

    it('the tab draws with the DOM on a software WebGL (auto), not WebGL from a workspace, WebGL when the user turns it on, the DOM again when the GPU is lost', async () => {
        // This Chromium runs with --disable-gpu: its WebGL 2 is SwiftShader, where WebGL draws slower than the DOM.
        let terminal = await bench.visibleWebview('terminal', 30_000);
        expect(await terminal.locator('body').evaluate(readXtermRenderer)).to.deep.equal({ said: 'dom', canvases: 0, domRows: true });

        // The attack: the repository's settings ask for WebGL; a cursor style other than the tab's, in the same file, shows VS Code read it.
        await terminal.locator('.xterm-helper-textarea').focus();
        const [style, cursorClass] = (await appearance(terminal)).cursor.includes('xterm-cursor-bar') ? ['block', 'xterm-cursor-block'] : ['line', 'xterm-cursor-bar'];
        const workspace = world.workspace(NAME);
        await editSettingsJson('Preferences: Open Workspace Settings (JSON)', path.join(workspace, '.vscode', 'settings.json'), {
            'terminal.integrated.gpuAcceleration': 'on', 'terminal.integrated.cursorStyle': style
        });
        await bench.clickTab(t => t.startsWith(`sandy: ${NAME}`));
        terminal = await bench.visibleWebview('terminal', 30_000);
        await terminal.locator('.xterm-helper-textarea').focus();
        await poll(async () => (await appearance(terminal)).cursor.includes(cursorClass), { message: 'the workspace\'s cursor style to be read', timeout: 30_000 });
        expect((await terminal.locator('body').evaluate(readXtermRenderer)).said, 'a workspace\'s gpuAcceleration').to.equal('dom');

        // The user turns it on.
        await typeInTerminal(page, terminal, 'echo before-webgl');
        await poll(async () => /^before-webgl$/m.test(await terminalText(terminal)), { message: 'the echo before WebGL' });
        const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        await editSettingsJson('Preferences: Open User Settings (JSON)', settingsFile, { ...settings, 'terminal.integrated.gpuAcceleration': 'on' });
        await bench.clickTab(t => t.startsWith(`sandy: ${NAME}`));
        terminal = await bench.visibleWebview('terminal', 30_000);
        const webgl = await poll(async () => {
            const r = await terminal.locator('body').evaluate(readXtermRenderer);
            return r.said === 'webgl' ? r : undefined;
        }, { message: 'the tab to draw with WebGL', timeout: 30_000 });
        expect(webgl.canvases).to.be.greaterThan(0);
        expect(webgl.domRows).to.equal(false);

        // The GPU is lost for good: after xterm's 3 s wait for it, the DOM draws the whole screen again.
        expect(await terminal.locator('body').evaluate(loseXtermWebglContext)).to.equal(true);
        await poll(async () => (await terminal.locator('body').evaluate(readXtermRenderer)).said === 'dom' ? true : undefined, { message: 'the tab to fall back to the DOM', timeout: 30_000 });
        expect(await terminal.locator('body').evaluate(readXtermRenderer)).to.deep.equal({ said: 'dom', canvases: 0, domRows: true });
        expect(await terminalText(terminal)).to.match(/^before-webgl$/m);
        await typeInTerminal(page, terminal, 'echo after-loss');
        await poll(async () => /^after-loss$/m.test(await terminalText(terminal)), { message: 'the echo after the loss' });
    });

    /** Replaces a settings file's text in VS Code's JSON editor (pasted, so no auto-closing brackets), saves it, and waits for the file. */
    async function editSettingsJson(command: string, file: string, value: Record<string, unknown>): Promise<void> {
        await bench.runCommand(command);
        const editor = page.locator('.editor-instance .monaco-editor textarea').first();
        await editor.waitFor({ state: 'attached', timeout: 30_000 });
        await poll(async () => ((await bench.activeTabTitle()) ?? '').includes('settings.json'), { message: `${command} to open settings.json` });
        await editor.focus();
        await bench.setClipboard(JSON.stringify(value, undefined, 2));
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Control+V');
        await page.keyboard.press('Control+S');
        const key = Object.keys(value).find(k => k.startsWith('terminal.'))!;
        await poll(() => fs.existsSync(file) && JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8'))[key]) === JSON.stringify(value[key]), { message: `${file} saved` });
    }
});

const appearance = (frame: Frame) => frame.$eval('.xterm', readXtermAppearance);
const geometry = (frame: Frame) => frame.$eval('.xterm', readXtermGeometry);
