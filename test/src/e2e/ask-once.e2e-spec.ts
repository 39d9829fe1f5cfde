/**
 * Ask the agent once end to end (issue 13's headless one-shot), in the built browser-app with headless
 * Chromium and the fake sandy (held to sandy 1.7.1's `-p` output, fixture 52): "Sandy: Ask the Agent
 * Once…" in a window with one folder takes a prompt in the quick input, runs `sandy -p` there, opens the
 * answer read-only in the history viewer (sandy's lines below it) and says its first line.
 */
import { expect } from 'chai';
import { E2eBrowser } from './browser';
import { useSandyIde } from './suite';
import { SandyIde } from './harness';

describe('Ask the agent once (end to end)', () => {
    const suite = useSandyIde({ label: 'ask-once' });
    let ide: SandyIde;
    let browser: E2eBrowser;

    before(() => {
        ({ ide, browser } = suite);
    });
    afterEach(async function () {
        this.timeout(60_000);
        await browser.closeContexts();
    });

    it('a prompt, then the answer in a read-only viewer tab and a notification; an option-like prompt is refused in the box', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        await app.openSandyView();
        const page = app.page;
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.fill('>Sandy: Ask the Agent Once');
        const focused = page.locator('.quick-input-widget .monaco-list-row.focused');
        await app.poll(async () => (await focused.getAttribute('aria-label', { timeout: 500 }))?.startsWith('Sandy: Ask the Agent Once'), 'the command');
        await page.keyboard.press('Enter');
        await app.poll(async () => (await input.getAttribute('placeholder', { timeout: 500 }))?.includes('It answers once'), 'the prompt box');

        await input.fill('--rebuild');
        await app.poll(async () => (await page.locator('.quick-input-widget').innerText()).includes('A prompt cannot start with "-".'), 'the refusal in the box');
        const prompt = 'list the <b>files</b> here';
        await input.fill(prompt);
        await page.keyboard.press('Enter');

        await app.notifications().waitFor(`Sandy: ${ide.projectName} answered: FAKE-AGENT-ANSWER: ${prompt}`);
        const viewer = page.locator('.sandy-history-viewer-widget:visible');
        await viewer.locator('.xterm-rows').waitFor({ state: 'visible', timeout: 60_000 });
        await app.poll(async () => ((await viewer.locator('.xterm-rows').textContent()) ?? '').replace(/\u00a0/g, ' ').includes(`FAKE-AGENT-ANSWER: ${prompt}`), 'the answer in the viewer');
        const text = ((await viewer.locator('.xterm-rows').textContent()) ?? '').replace(/\u00a0/g, ' ');
        expect(text).to.contain('--- sandy ---').and.contain('[sandy]');
        // The agent's text is text: no element was made of it.
        expect(await page.locator('.theia-notification-message b').count()).to.equal(0);
    });
});
