/**
 * Issue 11's Sessions dashboard in a real VS Code (code-server, the linux .vsix): three projects
 * running as daemon sessions of the fake sandy, "Sandy: Show Dashboard" from the command palette
 * opens the dashboard webview with a tile per session (its project's name, a live thumbnail of its
 * screen from core's headless terminal: what an agent prints later appears), says that Docker is
 * unreachable (no Docker API here: the fake's FAKE_SANDY_DOCKER only fills --print-state;
 * DOCKER_HOST names a socket that does not exist), and a tile's click or Enter brings that project's sandy tab to the front. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, chromium, Frame, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { terminalText, typeInTerminal, Workbench } from './workbench';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const FIRST = 'dash-one';
const SECOND = 'dash-two';
const THIRD = 'dash-three';
const tabOf = (name: string) => (t: string) => t.startsWith(`sandy: ${name}`);
/** Text without white space: a long path wraps onto the next row of the screen (and of its thumbnail). */
const squeeze = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, '');

describe('Sandy plugin in code-server: the Sessions dashboard (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;
    const workspaces: Record<string, string> = {};

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('dashboard');
        workspaces[FIRST] = world.workspace(FIRST);
        workspaces[SECOND] = world.workspace(SECOND);
        workspaces[THIRD] = world.workspace(THIRD);
        const profile = 'export FAKE_SANDY_DOCKER=1\nexport SANDY_IDE_POLL_MS=500\nexport DOCKER_HOST=unix:///nonexistent/sandy-e2e-no-docker.sock\n';
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, {
            label: 'dashboard',
            vsix: platformVsix(),
            folder: workspaces[FIRST],
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'] }
        });
        expect(server.installExtension()).to.contain('was successfully installed');
        // The other projects were added earlier (the plugin keeps its list in its global storage).
        fs.mkdirSync(server.pluginStorage, { recursive: true });
        fs.writeFileSync(path.join(server.pluginStorage, 'projects.json'),
            JSON.stringify({ version: 1, projects: [SECOND, THIRD].map(name => ({ workspace: workspaces[name], addedAt: Date.now() })) }));
        await server.start();
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        page = await context.newPage();
        bench = new Workbench(page, () => server.deathNotice());
        await page.goto(server.url);
        await bench.ready();
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('dashboard', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        for (const workspace of Object.values(workspaces)) {
            world?.sandy(['--stop'], workspace, { FAKE_SANDY_DOCKER: '1' });
        }
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    async function launch(name: string): Promise<Frame> {
        await bench.openSandyView();
        await bench.waitForProject(name);
        // The context menu's Launch (it checks that its menu closed, i.e. the entry ran): the tree is
        // redrawn at every state poll, and a plain click on a row being redrawn can be lost.
        await bench.projectContextMenu(name, 'Launch');
        await bench.waitForTab(tabOf(name), `the sandy tab of ${name}`);
        const terminal = await bench.visibleWebview('terminal', 60_000);
        await poll(async () => squeeze(await terminalText(terminal)).includes(squeeze(`fake sandy 1.7.1-dev — ${workspaces[name]}`)),
            { message: `the agent's screen in the tab of ${name}`, timeout: 60_000 });
        return terminal;
    }

    const tile = (frame: Frame, name: string) => frame.locator('button.sandy-dashboard-tile').filter({
        has: frame.locator('.sandy-dashboard-project').getByText(name, { exact: true })
    });

    it('shows a tile per session with its project and screen, says Docker is unreachable, and a tile (click or Enter) focuses that project\'s tab', async () => {
        await launch(FIRST);
        await launch(SECOND);
        const third = await launch(THIRD);
        // The third agent prints a line later, while the dashboard is in front (`{n}` becomes 1 only when
        // it prints: the command line on its screen does not say live-1-thumbnail).
        const live = world.cue('repeat 1 echo live-{n}-thumbnail');
        await typeInTerminal(page, third, live.line);
        await poll(async () => squeeze(await terminalText(third)).includes(squeeze(live.echo)), { message: 'the agent to schedule it' });

        await bench.runCommand('Sandy: Show Dashboard');
        await bench.waitForTab(t => t.startsWith('Sandy Dashboard'), 'the dashboard tab');
        const dashboard = await bench.visibleWebview('dashboard', 60_000);
        await poll(async () => (await dashboard.locator('button.sandy-dashboard-tile').count()) === 3, { message: 'three tiles on the dashboard' });
        for (const name of [FIRST, SECOND, THIRD]) {
            const t = tile(dashboard, name);
            await poll(async () => squeeze(await t.locator('pre.sandy-dashboard-thumbnail').textContent()).includes(squeeze(`fake sandy 1.7.1-dev — ${workspaces[name]}`)),
                { message: `the thumbnail of ${name} to show its screen` });
            expect(await t.locator('.sandy-dashboard-badge').textContent()).to.match(/^(Working|Idle|Needs you)$/);
            expect(await t.locator('.sandy-dashboard-cpu').textContent()).to.equal('CPU —');
        }
        const thumbnail = tile(dashboard, THIRD).locator('pre.sandy-dashboard-thumbnail');
        expect(await thumbnail.textContent(), 'not printed yet').to.not.contain('live-1-thumbnail');
        live.give();
        await poll(async () => (await thumbnail.textContent())?.includes('live-1-thumbnail'), { message: 'the third tile\'s thumbnail to show what its agent printed later', timeout: 60_000 });
        expect(await tile(dashboard, SECOND).locator('pre.sandy-dashboard-thumbnail').textContent(), 'only in its own tile').to.not.contain('live-1-thumbnail');
        const banner = dashboard.locator('.sandy-dashboard-docker');
        await poll(async () => await banner.isVisible() && /^Docker unreachable — \S/.test((await banner.textContent()) ?? ''), { message: 'the Docker unreachable banner' });

        await tile(dashboard, FIRST).click();
        await poll(async () => tabOf(FIRST)((await bench.activeTabTitle()) ?? ''), { message: `the ${FIRST} sandy tab to be in front` });
        expect((await bench.tabTitles()).filter(tabOf(FIRST)), 'no second tab on the session').to.have.length(1);

        await bench.clickTab(t => t.startsWith('Sandy Dashboard'));
        const again = await bench.visibleWebview('dashboard', 60_000);
        await tile(again, SECOND).focus();
        await page.keyboard.press('Enter');
        await poll(async () => tabOf(SECOND)((await bench.activeTabTitle()) ?? ''), { message: `the ${SECOND} sandy tab to be in front` });
        expect((await bench.tabTitles()).filter(tabOf(SECOND))).to.have.length(1);
    });
});
