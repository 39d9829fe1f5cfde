/**
 * Issue 10 in a real VS Code (code-server 4.100.3, the linux .vsix): daemon sessions outlive the
 * window. A window reload brings the sandy tab back (the plugin's webview panel serializer) on the
 * same running session, with its screen, and typing reaches the agent; a second window on the same
 * workspace lists the session as running, not "Locked", and its tab offers Take Back instead of
 * silently taking the first window's attach client; Stop ends it with no process, lock or container
 * left. The fake sandy runs in daemon mode with its Docker engine reported (FAKE_SANDY_DOCKER=1,
 * passed as a user passes variables: the login shell and sandy.passEnvironment). (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { agentPrinted, terminalBanner as banner, terminalText, typeInTerminal, Workbench } from './workbench';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const PROJECT = 'dmn-proj';
const isTab = (t: string) => t.startsWith(`sandy: ${PROJECT}`);

describe('Sandy plugin in code-server: daemon sessions survive a window reload and are shared by windows (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let bench: Workbench;
    let second: Page | undefined;
    let project: string;

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('daemon');
        project = world.workspace(PROJECT);
        const profile = 'export FAKE_SANDY_DOCKER=1\nexport SANDY_IDE_POLL_MS=500\n';
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, {
            label: 'daemon',
            vsix: platformVsix(),
            folder: project,
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'] }
        });
        expect(server.installExtension()).to.contain('was successfully installed');
        await server.start();
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        page = await context.newPage();
        bench = new Workbench(page, () => server.deathNotice());
        await page.goto(server.url);
        await bench.ready();
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed') {
            if (page) {
                await saveFailureEvidence('daemon', this.currentTest.title, page, server);
            }
            if (second) {
                await saveFailureEvidence('daemon-second-window', this.currentTest.title, second, server);
            }
        }
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    let containerId: string;

    it('Launch starts a daemon session (sandy --start, then an attach client) in a sandy tab', async () => {
        await bench.openSandyView();
        await bench.waitForProject(PROJECT);
        await bench.clickProjectRow(PROJECT);
        await bench.waitForTab(isTab, 'the sandy terminal tab');
        const terminal = await bench.webview('terminal');
        await poll(async () => /fake sandy 1\.7\.1-dev/.test(await terminalText(terminal)), { message: 'the agent\'s screen in the tab', timeout: 60_000 });
        await typeInTerminal(page, terminal, 'echo before-reload');
        await poll(async () => agentPrinted(await terminalText(terminal), 'before-reload'), { message: 'the agent to print before-reload' });
        const containers = await poll(() => {
            const found = world.runningContainers(project).filter(c => c.daemon);
            return found.length === 1 && found[0].attached_clients === 1 && found;
        }, { message: 'one daemon container with our attach client' });
        containerId = containers[0].id;

        // Detach: the session runs on (the window keeps its one attach client, for the attention queue) and the
        // row says no tab shows it; Reattach brings the tab back on the same session.
        const label = async () => (await bench.projectRows()).find(r => r.startsWith(`${PROJECT},`));
        await poll(async () => await label() === `${PROJECT}, Running — daemon session, in a Sandy terminal tab`, { message: 'the row: shown in a tab' });
        await bench.clickTab(isTab);
        await bench.runCommand('Sandy: Detach');
        await poll(async () => await label() === `${PROJECT}, Running — daemon session, no tab shows it (Reattach)`, { message: 'the row: no tab shows it, once detached' });
        await bench.projectContextMenu(PROJECT, 'Reattach');
        await poll(async () => await label() === `${PROJECT}, Running — daemon session, in a Sandy terminal tab`, { message: 'the row: shown in a tab again' });
        await bench.waitForTab(isTab, 'the sandy tab back');
        expect(world.runningContainers(project).filter(c => c.daemon).map(c => c.id), 'the same session').to.deep.equal([containerId]);
    });

    it('a window reload brings the tab back on the same session: its screen, and typed input reaches the agent', async () => {
        const reloaded = page.waitForEvent('framenavigated', { predicate: f => f === page.mainFrame(), timeout: 60_000 });
        await bench.runCommand('Developer: Reload Window');
        await reloaded;
        await bench.ready();
        await bench.waitForTab(isTab, 'the sandy tab after the reload');
        const terminal = await bench.webview('terminal', 60_000);
        // The replay is the session's screen as the new extension host's headless terminal holds it: the
        // agent's TUI as it redraws for the new attach client (the fake redraws from scratch, without
        // the lines above; sandy's tmux would repaint the pane with them).
        const screen = await poll(async () => {
            const text = await terminalText(terminal);
            return /fake sandy 1\.7\.1-dev/.test(text) && /mode: daemon/.test(text) && text;
        }, { message: 'the agent\'s screen in the restored tab', timeout: 60_000 });
        expect(screen).to.contain(project);
        expect(await banner(terminal), 'the restored tab is attached: no banner').to.equal(undefined);
        await typeInTerminal(page, terminal, 'echo after-reload');
        await poll(async () => agentPrinted(await terminalText(terminal), 'after-reload'), { message: 'the agent to print after-reload' });
        const containers = world.runningContainers(project).filter(c => c.daemon);
        expect(containers.map(c => c.id), 'the same daemon session, not a new one').to.deep.equal([containerId]);
        // The reloaded window's extension host let go of its client (and stopped nothing); the new one attached.
        expect(containers[0].attached_clients, 'one attach client: the reloaded window\'s').to.equal(1);
        expect(server.pluginLog()).to.match(/restored the tab of .*dmn-proj \(session daemon-[0-9a-f]{16}\)/);
    });

    it('a second window lists the session as running, not Locked, and its tab offers Take Back instead of taking the first window\'s client', async () => {
        second = await context.newPage();
        const other = new Workbench(second, () => server.deathNotice());
        await second.goto(server.url);
        await other.ready();
        await other.openSandyView();
        const row = await poll(async () => (await other.projectRows()).find(r => r.startsWith(`${PROJECT},`) && /Running — daemon session/.test(r)),
            { message: 'the project listed as running in the second window', timeout: 60_000 });
        expect(row).not.to.contain('Locked');

        await other.clickProjectRow(PROJECT);
        await other.waitForTab(isTab, 'the sandy tab in the second window');
        // VS Code may restore the first window's editors here too (same folder): still one tab per session.
        await new Promise(r => setTimeout(r, 1000));
        expect((await other.tabTitles()).filter(isTab), 'one sandy tab for the session').to.have.length(1);
        const secondTerminal = await other.webview('terminal');
        const offered = await poll(() => banner(secondTerminal), { message: 'the banner of the second window\'s tab' });
        expect(offered.action).to.equal('Take Back');
        expect(offered.text).to.contain('Attached in another terminal');

        // The first window kept its client: what is typed there still reaches the agent and shows there.
        const first = await bench.webview('terminal');
        await typeInTerminal(page, first, 'echo still-first');
        await poll(async () => agentPrinted(await terminalText(first), 'still-first'), { message: 'the first window to stay attached' });
        expect(await banner(first)).to.equal(undefined);
        expect(world.runningContainers(project).find(c => c.id === containerId)?.attached_clients, 'one client: the first window\'s').to.equal(1);
        expect(agentPrinted(await terminalText(secondTerminal), 'still-first'), 'the second window is not attached').to.equal(false);

        // Take Back: now the second window has it, and the first says where it went.
        await secondTerminal.locator('.sandy-terminal-banner button.sandy-relaunch').click();
        await poll(async () => !await banner(secondTerminal), { message: 'the second window\'s banner to go once it took the session back' });
        await typeInTerminal(second, secondTerminal, 'echo from-second');
        await poll(async () => agentPrinted(await terminalText(secondTerminal), 'from-second'), { message: 'the agent to answer the second window' });
        const moved = await poll(() => banner(first), { message: 'the first window to say the session is attached elsewhere' });
        expect(moved.action).to.equal('Take Back');
    });

    it('Stop ends the daemon session (sandy --stop): both tabs say so, and no process, lock or container is left', async () => {
        const other = new Workbench(second!, () => server.deathNotice());
        await other.clickTab(isTab);
        await other.runCommand('Sandy: Stop');
        await other.waitForNotification(`Sandy: ${PROJECT} stopped.`);
        const secondTerminal = await other.webview('terminal');
        await poll(async () => (await terminalText(secondTerminal)).includes('The daemon session was stopped (sandy --stop).'), { message: 'the exit banner in the stopping window' });
        const first = await bench.webview('terminal');
        await poll(async () => (await banner(first))?.action === 'Relaunch', { message: 'the first window\'s tab to say its session ended', timeout: 60_000 });

        await poll(() => world.runningContainers(project).length === 0, { message: 'no container left' });
        await poll(() => world.locks().length === 0, { message: 'no workspace lock left' });
        await poll(() => world.sandyProcesses().length === 0, { message: 'no sandy process left (supervisor, attach clients)' });
        expect(world.sandyProcesses()).to.deep.equal([]);
    });
});
