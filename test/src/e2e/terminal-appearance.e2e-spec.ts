/*
 * The sandy tab draws with the user's terminal settings (Theia's `terminal.integrated.*`, read by core's
 * terminal-appearance.ts): a steady cursor by default, as Theia's own terminal (a blinking one repaints
 * the page twice a second while nothing happens), the user's font and cursor as soon as they change them,
 * the PTY following the new size, and a workspace's absurd or CSS-injecting value (the agent writes
 * `.theia/settings.json` in its read-write workspace) never drawn.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { SandyIde } from './harness';
import { useSandyIde } from './suite';
import { outputChannelText } from './page-objects/theia-widgets';

describe('The sandy tab follows the user\'s terminal settings (end to end)', () => {
    // The workspace has a settings file already (empty), as many projects do; the attack below rewrites it.
    // Theia's watcher of a settings file that does not exist yet polls until it appears and only then starts
    // watching its folder, so the creation itself is seen only if a recursive watcher of the workspace happens
    // to run: CI once never saw the file written (the cursor style not read in 20 s).
    const suite = useSandyIde({
        label: 'terminal-appearance',
        seed: (ide: SandyIde) => {
            fs.mkdirSync(path.join(ide.workspace, '.theia'), { recursive: true });
            fs.writeFileSync(path.join(ide.workspace, '.theia', 'settings.json'), '{}\n');
        }
    });

    it('a steady block cursor by default; the user\'s font and cursor once set, with the PTY resized; a workspace\'s font size and CSS ignored', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        await app.openSandyView();
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText("type 'help' for commands", 60_000);
        await app.poll(async () => !await terminal.banner.isVisible(), 'the daemon banner to go once attached');
        await terminal.focus();
        const before = await terminal.appearance();
        expect(before.cursor, 'the focused cursor: a block, not blinking').to.deep.equal(['xterm-cursor-block']);
        // Theia's `terminal.integrated.fontSize` defaults to the editor's default size, 14 (the sandy tab drew 13 before).
        expect(before.fontSize, 'the font size of Theia\'s own terminal').to.equal('14px');
        const geometry = await terminal.geometry();

        // The user's settings file, as the settings editor writes it.
        const settingsFile = path.join(ide.home, '.sandy-ide', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        fs.writeFileSync(settingsFile, JSON.stringify({
            ...settings,
            'terminal.integrated.fontSize': 20,
            'terminal.integrated.cursorBlinking': true,
            'terminal.integrated.cursorStyle': 'underline'
        }, undefined, 4));
        await app.poll(async () => (await terminal.appearance()).fontSize === '20px', 'the tab to take the user\'s font size');
        await terminal.focus();
        expect((await terminal.appearance()).cursor).to.deep.equal(['xterm-cursor-blink', 'xterm-cursor-underline']);
        const bigger = await app.poll(async () => {
            const g = await terminal.geometry();
            return g.cols < geometry.cols && g.rows < geometry.rows ? g : undefined;
        }, 'fewer, larger cells');
        // The agent redraws its box at the new size: the PTY followed the tab.
        await terminal.waitForText(`size: ${bigger.rows}\u00d7${bigger.cols}`);
        expect(await terminal.reportedSize()).to.deep.equal(bigger);

        // The attack: the workspace's settings (which the agent can write) ask for a font 100 px high (in
        // range, but it would leave the agent two rows), and a font family that closes the CSS rule xterm
        // writes it into and adds a rule of its own (3 px rows). The cursor style in the same file shows Theia read it.
        fs.writeFileSync(path.join(ide.workspace, '.theia', 'settings.json'), JSON.stringify({
            'terminal.integrated.fontSize': 100,
            'terminal.integrated.fontFamily': 'evil, monospace; } .xterm-rows { font-size: 3px !important; } .x {',
            'terminal.integrated.cursorStyle': 'line'
        }));
        await terminal.focus();
        await app.poll(async () => (await terminal.appearance()).cursor.includes('xterm-cursor-bar'), 'the workspace\'s valid cursor style to be read');
        const after = await terminal.appearance();
        expect(after.fontSize, 'the user\'s font size, not the workspace\'s').to.equal('20px');
        expect(after.fontFamily).to.not.contain('evil');
        expect(await terminal.geometry()).to.deep.equal(bigger);
        expect(await terminal.reportedSize()).to.deep.equal(bigger);
        // Theia never saw the family either (its own terminal and editor write it into CSS too): dropped where the file is read, and said.
        expect(await outputChannelText(app, 'Sandy')).to.match(/ignored "terminal\.integrated\.fontFamily" in .*\.theia\/settings\.json: a workspace's font family must be a list of font names/);
    });
});
