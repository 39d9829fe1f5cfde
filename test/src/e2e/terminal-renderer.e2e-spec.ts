/*
 * The sandy tab's renderer (core's terminal-renderer.ts): xterm's WebGL renderer where the browser draws WebGL
 * with a GPU, its DOM renderer otherwise, under the user's `terminal.integrated.gpuAcceleration`. This Chromium
 * runs with `--disable-gpu`: its WebGL is SwiftShader, a software rasterizer, on which WebGL draws slower than
 * the DOM (`npm run bench`), so `auto` must keep the DOM; `on` must take WebGL all the same; a lost GPU must give
 * the screen back to the DOM renderer with nothing lost; a workspace (which the agent can write) never chooses.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { SandyIde } from './harness';
import { useSandyIde } from './suite';

describe('The sandy tab draws with WebGL only where it is faster (end to end)', () => {
    const suite = useSandyIde({
        label: 'terminal-renderer',
        seed: (ide: SandyIde) => {
            fs.mkdirSync(path.join(ide.workspace, '.theia'), { recursive: true });
            fs.writeFileSync(path.join(ide.workspace, '.theia', 'settings.json'), '{}\n');
        }
    });

    it('the DOM on a software WebGL (auto), not WebGL from a workspace, WebGL when the user turns it on, the DOM again when the GPU is lost', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        await app.openSandyView();
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText("type 'help' for commands", 60_000);
        expect(await terminal.renderer(), 'auto on SwiftShader').to.deep.equal({ said: 'dom', canvases: 0, domRows: true });

        // The attack: the workspace's settings ask for WebGL (on a software rasterizer it would slow every sandy tab of
        // the window). The cursor style in the same file shows that Theia read the file.
        fs.writeFileSync(path.join(ide.workspace, '.theia', 'settings.json'), JSON.stringify({
            'terminal.integrated.gpuAcceleration': 'on',
            'terminal.integrated.cursorStyle': 'line'
        }));
        await terminal.focus();
        await app.poll(async () => (await terminal.appearance()).cursor.includes('xterm-cursor-bar'), 'the workspace\'s cursor style to be read');
        expect((await terminal.renderer()).said, 'a workspace\'s gpuAcceleration').to.equal('dom');

        // The user turns it on.
        await terminal.enter('echo before-webgl');
        await terminal.waitForText(/^before-webgl$/m);
        const settingsFile = path.join(ide.home, '.sandy-ide', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'terminal.integrated.gpuAcceleration': 'on' }, undefined, 4));
        const webgl = await app.poll(async () => {
            const r = await terminal.renderer();
            return r.said === 'webgl' ? r : undefined;
        }, 'the tab to draw with WebGL');
        expect(webgl.canvases, 'xterm\'s WebGL canvas').to.be.greaterThan(0);
        expect(webgl.domRows, 'the DOM renderer\'s rows gone').to.equal(false);
        // Keys still reach the agent and its output is parsed (what the canvas shows is not in the DOM to read).
        await terminal.widget.locator('textarea.xterm-helper-textarea').focus();
        await app.page.keyboard.type('echo during-webgl');
        await app.page.keyboard.press('Enter');

        // The GPU is lost and does not come back: xterm gives up on it after 3 s, the tab draws with the DOM, the
        // whole screen there (what the agent printed while WebGL drew included).
        expect(await terminal.loseWebglContext(), 'a WebGL context to lose').to.equal(true);
        await app.poll(async () => (await terminal.renderer()).said === 'dom' ? true : undefined, 'the tab to fall back to the DOM', { timeout: 20_000 });
        expect(await terminal.renderer()).to.deep.equal({ said: 'dom', canvases: 0, domRows: true });
        await terminal.waitForText(/^during-webgl$/m);
        expect(await terminal.text()).to.match(/^before-webgl$/m);
        await terminal.enter('echo after-loss');
        await terminal.waitForText(/^after-loss$/m);
    });

    it('an agent printing screens of cells each in its own colours (the WebGL glyph atlas without bound) gets the tab back to the DOM, drawing, not frozen', async () => {
        const { ide, browser } = suite;
        const settingsFile = path.join(ide.home, '.sandy-ide', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        const gpu = (value: string) => fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'terminal.integrated.gpuAcceleration': value }, undefined, 4));
        gpu('auto');
        // A new window: a page where no WebGL context was lost yet.
        const app = await browser.openApp(ide);
        const errors: string[] = [];
        app.page.on('pageerror', e => errors.push(e.message));
        await app.openSandyView();
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText("type 'help' for commands", 60_000);
        await app.poll(async () => !await terminal.banner.isVisible(), 'the daemon banner to go once attached');
        await terminal.enter('echo attached');
        await terminal.waitForText(/^attached$/m, 60_000);
        gpu('on');
        await app.poll(async () => (await terminal.renderer()).said === 'webgl' ? true : undefined, 'the tab to draw with WebGL (the user\'s "on")', { timeout: 30_000 });
        await terminal.widget.locator('textarea.xterm-helper-textarea').focus();
        await app.page.keyboard.type('colours 100 250');
        await app.page.keyboard.press('Enter');
        await app.poll(async () => (await terminal.renderer()).said === 'dom' ? true : undefined, 'the tab to give up WebGL past the atlas budget', { timeout: 60_000 });
        await terminal.waitForText(/^colours done 100$/m, 60_000);
        await terminal.enter('echo after-colours');
        await terminal.waitForText(/^after-colours$/m);
        expect(errors, 'no error thrown in the page').to.deep.equal([]);
    });
});
