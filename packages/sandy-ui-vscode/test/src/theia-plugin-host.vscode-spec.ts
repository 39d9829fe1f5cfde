/**
 * The same .vsix in the Sandy IDE's plugin host (the built browser-app, a private copy): the plugin
 * runs as a guest — its own Projects view, whose clicks run the IDE's own `sandy.*` commands — and
 * the IDE's native Sandy commands keep working beside it. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, chromium, Page } from 'playwright-core';
import { poll } from './poll';
import { SandyIdeWithPlugin } from './theia';
import { platformVsix, requireCompiledFake, RESULTS_DIR, World } from './world';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const PLUGIN_CONTAINER_TAB = '[id="shell-tab-plugin-view-container:workbench.view.extension.sandy-explorer"]';
const PLUGIN_TREE = '[id="sandy.projects"]';
const MAIN_TABS = '#theia-main-content-panel .lm-TabBar-tab';

describe('Sandy plugin in the Sandy IDE\'s plugin host (Theia) (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let ide: SandyIdeWithPlugin;
    let browser: Browser;
    let page: Page;

    const abort = () => ide?.deathNotice();
    const mainTabs = () => page.$$eval(MAIN_TABS, tabs => tabs.map(t => t.textContent ?? ''));
    const terminalText = () => page.$eval('#theia-main-content-panel .sandy-terminal-widget .xterm-rows', el => (el as HTMLElement).innerText).catch(() => '');

    before(async function (): Promise<void> {
        requireCompiledFake();
        SandyIdeWithPlugin.requireBuilt();
        world = new World('theia');
        const workspace = world.workspace('theia-proj');
        const other = world.workspace('other-proj');
        expect(world.sandy(['-p', 'hello'], other).status).to.equal(0);
        ide = new SandyIdeWithPlugin(world, platformVsix(), workspace);
        ide.prepare();
        expect(fs.existsSync(path.join(ide.pluginsDir, 'rappdw.sandy-ui', 'package.json')), 'the unpacked plugin has package.json on top').to.equal(true);
        await ide.start();
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
        await page.goto(ide.url);
        await page.waitForSelector('#theia-app-shell', { timeout: 90_000 });
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            fs.mkdirSync(RESULTS_DIR, { recursive: true });
            const slug = (this.currentTest.title || 'failed').replace(/[^a-zA-Z0-9]+/g, '-').slice(0, 80);
            await page.screenshot({ path: path.join(RESULTS_DIR, `theia-${slug}.png`) }).catch(() => undefined);
        }
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    it('shows the plugin\'s own Projects view, as a guest, listing the fake sandy\'s sandbox and the open folder', async () => {
        const tab = page.locator(PLUGIN_CONTAINER_TAB);
        await tab.waitFor({ state: 'attached', timeout: 60_000 });
        // Retitled once the plugin has activated (with the window: `*`) and detected the Sandy IDE, with no action of the user's.
        await poll(async () => (await tab.textContent())?.includes('Projects (plugin)'), { message: 'the guest\'s view title', timeout: 60_000, abort });
        await tab.click();
        const rows = await poll(async () => {
            const texts = await page.$$eval(`${PLUGIN_TREE} .theia-TreeNode`, nodes => nodes.map(n => n.textContent ?? ''));
            return texts.some(t => t.startsWith('theia-proj')) && texts.some(t => t.startsWith('other-proj')) && texts;
        }, { message: 'the plugin tree\'s rows', abort });
        expect(rows).to.have.length(2);
        expect(await page.locator(`${PLUGIN_TREE} .theia-TreeViewInfo`).textContent()).to.contain('belongs to the Sandy plugin');
    });

    it('a click in the plugin\'s view runs the IDE\'s own sandy.launch: the native terminal tab starts sandy', async () => {
        await page.locator(`${PLUGIN_TREE} .theia-TreeNode`, { hasText: 'theia-proj' }).first().click();
        await poll(async () => (await mainTabs()).some(t => t.includes('sandy: theia-proj')), { message: 'the IDE\'s sandy tab', abort });
        await poll(async () => /fake sandy 1\.7\.1-dev/.test(await terminalText()), { message: 'the fake sandy\'s TUI in the IDE\'s terminal', abort });
    });

    it('the IDE\'s own `sandy.*` commands are not shadowed by the plugin\'s: Sandy: Stop from the palette stops it', async () => {
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill('>Sandy: Stop');
        const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Sandy: Stop' }).first();
        await row.waitFor({ state: 'visible', timeout: 10_000 });
        await row.click();
        // Well under Theia's 30 s wait for a plugin handler that never comes.
        // The IDE's sessions are daemon sessions (its default): its Stop is sandy --stop.
        await poll(async () => (await terminalText()).includes('The daemon session was stopped (sandy --stop).'), { message: 'the IDE to stop the session', timeout: 15_000, abort });
    });
});
