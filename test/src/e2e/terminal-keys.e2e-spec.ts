/*
 * Which keys a sandy tab leaves to the IDE (issue 12's frictions, issue 14's keys): with the focus in
 * the tab, F1 and Ctrl+P open the palette and Quick Open instead of reaching the agent as ^[OP and ^P,
 * the Sandy chords (Ctrl+Shift+Alt+X: Stop) act on the tab's session, every other key (Ctrl+R here)
 * reaches the agent, and the list is the user's: with
 * `sandy.terminal.ideKeys` set to ["F1"] in the user settings, Ctrl+P goes to the agent.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { useSandyIde } from './suite';

describe('Keys in a sandy tab: the IDE\'s list, the rest the agent\'s (end to end)', () => {
    const suite = useSandyIde({ label: 'terminal-keys' });

    it('F1 and Ctrl+P reach the IDE by default, Ctrl+R the agent; the user\'s sandy.terminal.ideKeys changes that', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        const page = app.page;
        await app.openSandyView();
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText("type 'help' for commands", 60_000);
        // The Sandy chords are the IDE's too: Ctrl+Shift+Alt+X with the focus in the tab stops its session.
        await terminal.focus();
        await page.keyboard.press('Control+Shift+Alt+X');
        await app.poll(async () => (await terminal.title()) === `sandy: ${ide.projectName} (ended)`, 'Ctrl+Shift+Alt+X in the tab to stop its session');
        expect(ide.sandySessions(), 'no session left').to.deep.equal([]);
        await terminal.relaunchButton.click();
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        await terminal.enter('keys');
        await terminal.waitForText('[keys: press keys, q ends]');
        const quickInput = page.locator('.quick-input-widget');
        const pressIn = async (key: string): Promise<void> => {
            await terminal.focus();
            await page.keyboard.press(key);
        };

        await pressIn('F1');
        await quickInput.waitFor({ state: 'visible' });
        expect(await page.locator('.quick-input-widget .quick-input-box input').inputValue(), 'the command palette').to.equal('>');
        await page.keyboard.press('Escape');
        await quickInput.waitFor({ state: 'hidden' });
        await pressIn('Control+P');
        await quickInput.waitFor({ state: 'visible' });
        expect(await page.locator('.quick-input-widget .quick-input-box input').inputValue(), 'Quick Open').to.equal('');
        await page.keyboard.press('Escape');
        await quickInput.waitFor({ state: 'hidden' });
        await pressIn('Control+R');
        await terminal.waitForText('[^R]');
        const screen = await terminal.text();
        expect(screen).to.not.contain('[^P]');
        expect(screen).to.not.contain('[^[]');

        // The user gives Ctrl+P to the agent (their own settings file, as the settings editor writes it).
        const settingsFile = path.join(ide.home, '.sandy-ide', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'sandy.terminal.ideKeys': ['F1'] }, undefined, 4));
        await app.poll(async () => {
            await pressIn('Control+P');
            if (await quickInput.isVisible()) {
                await page.keyboard.press('Escape');
                return false;
            }
            return (await terminal.text()).includes('[^P]');
        }, 'Ctrl+P to reach the agent once the setting is read', { timeout: 30_000 });
        await pressIn('F1');
        await quickInput.waitFor({ state: 'visible' });
        await page.keyboard.press('Escape');
        await pressIn('q');
        await terminal.waitForText('[keys done]');
    });
});
