/**
 * Issue 11 in a real VS Code (code-server 4.100.3, the linux .vsix): the attention queue. A session
 * that asks for the user (OSC 9) while they look at another editor leads the Sessions view's
 * "Needs you" group and the status bar counts it; Ctrl+Shift+Alt+N shows its tab and seeing it ends
 * the wait. A notification while its tab is in view is no toast. With do not disturb on (Sandy:
 * Toggle Do Not Disturb, written to the user's settings) the queue still counts and nothing is toasted.
 * (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { holdsFor } from '@sandy-ui/test/lib/support/poll';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { agentPrinted, terminalText, ToastLog, typeInTerminal, VSCODE_TOASTS, Workbench } from './workbench';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const PROJECT = 'attn-proj';
const isTab = (t: string) => t.startsWith(`sandy: ${PROJECT}`) || t.startsWith(`● sandy: ${PROJECT}`);
const QUIET_MS = 3_000;

describe('Sandy plugin in code-server: the attention queue — Needs you, the status bar, the keybinding, do not disturb (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let bench: Workbench;
    let toasts: ToastLog;
    let project: string;

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('attention');
        project = world.workspace(PROJECT);
        const profile = 'export FAKE_SANDY_DOCKER=1\nexport SANDY_IDE_POLL_MS=500\n';
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, {
            label: 'attention',
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
        toasts = await ToastLog.install(page, VSCODE_TOASTS);
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('attention', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    /** aria-labels of the Sessions view's rows: its groups (`Needs you (1)`) and sessions (`<name> session: <state>`). */
    const sessionsRows = async (): Promise<string[]> => {
        const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header h3.title', { hasText: /^Sessions$/ }) });
        return (await pane.locator('.monaco-list-row').all().then(rows => Promise.all(rows.map(r => r.getAttribute('aria-label'))))).map(l => l ?? '');
    };
    const statusBarText = (): Promise<string> => page.$$eval('.statusbar-item', items => items.map(i => i.textContent ?? '').join('\n'));
    const needsYou = async (): Promise<string | undefined> => /\d+ needs? you/.exec(await statusBarText())?.[0];

    /** Another editor in front: the Welcome page (the sandy tab is neither visible nor focused). */
    async function lookElsewhere(): Promise<void> {
        await bench.runCommand('Help: Welcome');
        await poll(async () => !isTab(await bench.activeTabTitle() ?? ''), { message: 'another editor in front of the sandy tab' });
    }

    it('asked while the user looks elsewhere: leads Needs you, counted in the status bar; Ctrl+Shift+Alt+N shows its tab and ends the wait; none toasted while in view', async () => {
        await bench.openSandyView();
        await bench.waitForProject(PROJECT);
        await bench.clickProjectRow(PROJECT);
        await bench.waitForTab(isTab, 'the sandy terminal tab');
        const terminal = await bench.visibleWebview('terminal');
        await poll(async () => (await terminalText(terminal)).includes(`fake sandy 1.7.1-dev — ${project}`), { message: 'the agent\'s screen', timeout: 60_000 });
        await poll(async () => (await sessionsRows()).some(r => r.startsWith(`${PROJECT} session:`)), { message: 'the session in the Sessions view' });

        await typeInTerminal(page, terminal, 'osc9 in-view-vsx');
        await poll(async () => agentPrinted(await terminalText(terminal), '[osc9 sent]'), { message: 'the agent to send it' });
        await holdsFor(async () => toasts.count('in-view-vsx') === 0 && await needsYou() === undefined, QUIET_MS, 'no toast and no wait while the tab is in view');

        const away = world.cue('osc9 away-vsx');
        await typeInTerminal(page, terminal, away.line);
        await poll(async () => (await terminalText(terminal)).includes(away.echo), { message: 'the agent to schedule it' });
        await lookElsewhere();
        away.give();
        await poll(async () => {
            const rows = await sessionsRows();
            return rows[0]?.trim() === 'Needs you (1)' && rows[1]?.startsWith(`${PROJECT} session: asked for you`);
        }, { message: 'Needs you to lead the Sessions view with the session', timeout: 30_000 }).catch(async e => {
            throw new Error(`${(e as Error).message}; the Sessions view's rows: ${JSON.stringify(await sessionsRows())}`);
        });
        await poll(async () => await needsYou() === '1 needs you', { message: 'the status bar to count it' });
        await bench.waitForNotification(`sandy (${PROJECT}): away-vsx`);
        expect(toasts.count('away-vsx'), JSON.stringify(toasts.all)).to.equal(1);

        await page.keyboard.press('Control+Shift+Alt+N');
        await poll(async () => isTab(await bench.activeTabTitle() ?? ''), { message: 'Ctrl+Shift+Alt+N to bring the sandy tab to the front' });
        await poll(async () => await needsYou() === undefined && !(await sessionsRows()).some(r => r.trim() === 'Needs you (1)'), { message: 'the wait to end once the tab is seen' });
    });

    it('do not disturb: the queue still counts, nothing is toasted; the status bar says it is on and a click turns it off', async () => {
        await bench.runCommand('Sandy: Toggle Do Not Disturb');
        const dnd = page.locator('.statusbar-item', { hasText: 'Do not disturb' });
        await dnd.first().waitFor({ state: 'visible', timeout: 30_000 });
        const settings = fs.readFileSync(path.join(server.userDataDir, 'User', 'settings.json'), 'utf8');
        expect(JSON.parse(settings)['sandy.doNotDisturb'], 'written to the user\'s settings').to.equal(true);

        await bench.clickTab(isTab);
        const terminal = await bench.visibleWebview('terminal');
        const dndCue = world.cue('osc9 dnd-vsx');
        await typeInTerminal(page, terminal, dndCue.line);
        await poll(async () => (await terminalText(terminal)).includes(dndCue.echo), { message: 'the agent to schedule it' });
        await lookElsewhere();
        dndCue.give();
        await poll(async () => await needsYou() === '1 needs you', { message: 'the status bar to count the wait', timeout: 30_000 });
        await holdsFor(() => toasts.count('dnd-vsx') === 0, QUIET_MS, 'no toast while do not disturb is on');

        await dnd.first().click();
        await dnd.first().waitFor({ state: 'detached', timeout: 30_000 });
        // Stop acts on the sandy tab in front (with another editor in front it would ask which session).
        await bench.clickTab(isTab);
        await bench.runCommand('Sandy: Stop');
        await bench.waitForNotification(`Sandy: ${PROJECT} stopped.`);
    });

    it('a multi-agent session (SANDY_AGENT=claude,codex): the agent waiting in its pane is named in the Sessions view; the dashboard shows each pane', async () => {
        // The project now runs two agents: sandy draws them as two panes of its tmux window.
        fs.mkdirSync(path.join(project, '.sandy'), { recursive: true });
        fs.writeFileSync(path.join(project, '.sandy', 'config'), 'SANDY_AGENT=claude,codex\n');
        await bench.clickProjectRow(PROJECT);
        await bench.waitForTab(isTab, 'the sandy terminal tab');
        const terminal = await bench.visibleWebview('terminal');
        await poll(async () => (await terminalText(terminal)).includes(`fake sandy 1.7.1-dev — ${project}`), { message: 'the agent\'s screen', timeout: 60_000 });
        const tmuxWindow = world.cue('panes claude/permission-bash codex/working');
        await typeInTerminal(page, terminal, tmuxWindow.line);
        await poll(async () => (await terminalText(terminal)).includes(tmuxWindow.echo), { message: 'the agent to schedule it' });
        await lookElsewhere();
        tmuxWindow.give();
        await poll(async () => (await sessionsRows()).some(r => r.startsWith(`${PROJECT} session: claude waiting at its prompt`)),
            { message: 'the session in Needs you, claude named as the one waiting', timeout: 30_000 }).catch(async e => {
            throw new Error(`${(e as Error).message}; the Sessions view's rows: ${JSON.stringify(await sessionsRows())}`);
        });
        await poll(async () => await needsYou() === '1 needs you', { message: 'the status bar to count it' });
        await bench.runCommand('Sandy: Show Dashboard');
        const dashboard = await bench.visibleWebview('dashboard', 60_000);
        const panes = dashboard.locator('button.sandy-dashboard-tile .sandy-dashboard-pane');
        await poll(async () => (await panes.count()) === 2, { message: 'the tile\'s two panes', timeout: 30_000 });
        const texts = await panes.allTextContents();
        expect(texts[0]).to.equal('claude waiting at its prompt');
        expect(texts[1]).to.match(/^codex (working|idle)$/);
        expect(await dashboard.locator('.sandy-dashboard-pane-waiting').allTextContents()).to.deep.equal(['claude waiting at its prompt']);
    });
});
