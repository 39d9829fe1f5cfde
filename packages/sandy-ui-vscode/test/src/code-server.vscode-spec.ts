/**
 * The plugin in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) with the linux .vsix installed,
 * the fake sandy on PATH, driven by playwright-core in Debian's chromium. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, chromium, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { FIXTURES, platformVsix, requireCompiledFake, World } from './world';
import { agentPrinted, terminalText, typeInTerminal, Workbench } from './workbench';
import { holdsFor } from '@sandy-ui/test/lib/support/poll';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const HOSTILE_CONFIG = path.join(FIXTURES, '21-validate-special-chars-values', 'input.config');
/** Lines, comments and a blank line the settings save must leave exactly as they are. */
const PROJECT_CONFIG = '# vsx-proj sandy settings, written by hand\nSANDY_AGENT=claude\n\n# memory for the sandbox\nSANDY_MEM=4g\n';

describe('Sandy plugin in code-server (VS Code 1.100.3) (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;
    let project: string;
    let hostile: string;
    const consoleErrors: string[] = [];

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('code-server');
        project = world.workspace('vsx-proj', PROJECT_CONFIG);
        hostile = world.workspace('hostile-proj', fs.readFileSync(HOSTILE_CONFIG, 'utf8'));
        // A sandbox sandy already has (a headless run): the tree must list it from `--print-state`.
        const other = world.workspace('other-proj');
        const run = world.sandy(['-p', 'hello'], other);
        expect(run.status, run.stderr).to.equal(0);

        server = new CodeServer(world, {
            label: 'suite',
            vsix: platformVsix(),
            folder: project,
            // The fake's knobs reach it the way a user's variables would: sandy.passEnvironment.
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'] }
        });
        fs.appendFileSync(path.join(world.home, '.profile'), 'export FAKE_SANDY_DOCKER=1\n');
        fs.appendFileSync(path.join(world.home, '.bashrc'), 'export FAKE_SANDY_DOCKER=1\n');
        expect(server.installExtension()).to.contain('was successfully installed');
        // A project added earlier (the plugin keeps its list in its global storage).
        fs.mkdirSync(server.pluginStorage, { recursive: true });
        fs.writeFileSync(path.join(server.pluginStorage, 'projects.json'),
            JSON.stringify({ version: 1, projects: [{ workspace: hostile, addedAt: Date.now() }] }));
        await server.start();

        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${server.port}` });
        page = await context.newPage();
        page.on('console', m => {
            if (m.type() === 'error' && /Content Security Policy|sandy/i.test(m.text())) {
                consoleErrors.push(m.text());
            }
        });
        bench = new Workbench(page, () => server.deathNotice());
        await page.goto(server.url);
        await bench.ready();
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('code-server', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    it('activates with node-pty and lists the fake sandy\'s sandboxes, the open folder and added projects', async () => {
        await bench.openSandyView();
        expect(await bench.waitForProject('other-proj')).to.contain('Current');
        expect(await bench.waitForProject('vsx-proj')).to.contain('Fresh');
        expect(await bench.waitForProject('hostile-proj')).to.contain('Fresh');
        const log = await poll(() => /node-pty loaded from .*dist\/node_modules\/node-pty/.test(server.pluginLog()) && server.pluginLog(),
            { message: 'the plugin log to say node-pty loaded from the .vsix' });
        expect(log).to.contain('activating in code-server');
    });

    it('Launch opens sandy in a webview terminal tab sized to it; OSC 9 becomes a notification, `● ` marks the tab until it is focused; OSC 52 in a flood reaches the clipboard', async () => {
        await bench.clickProjectRow('vsx-proj');
        await bench.waitForTab(t => t.startsWith('sandy: vsx-proj'), 'the sandy terminal tab');
        const terminal = await bench.webview('terminal');
        await poll(async () => /fake sandy 1\.7\.1-dev/.test(await terminalText(terminal)), { message: 'the fake sandy\'s TUI in the webview' });
        const size = await terminal.$eval('.xterm-rows', el => el.children.length);
        expect(size, 'rows fill the tab, not a default 24').to.be.greaterThan(24);

        // In view: the user is looking at it — no toast, no mark.
        await typeInTerminal(page, terminal, 'osc9 ping');
        await poll(async () => agentPrinted(await terminalText(terminal), '[osc9 sent]'), { message: 'the agent to send it' });
        await holdsFor(async () => !(await bench.notifications()).some(n => n.includes('sandy (vsx-proj): ping')), 3_000, 'no toast for a notification whose tab is in view');
        expect(await bench.activeTabTitle(), 'focused: no unread mark').to.match(/^sandy: vsx-proj/);

        // A notification while the tab is in the background, after a flood: the agent sends it on the
        // test's cue once we moved away (typed `osc9` raced the flood's end against the move away: the
        // faster the tab, the likelier it was sent while the tab was still in front, rightly unannounced).
        const ping = world.cue('osc9 background-ping');
        // (The flood writes the clipboard halfway: the tab, behind, gets it after a catch-up frame.)
        await typeInTerminal(page, terminal, 'floodclip 60000 mid-flood-vsx');
        await typeInTerminal(page, terminal, ping.line);
        await poll(async () => (await terminalText(terminal)).includes(ping.echo), { message: 'the flood to end and the agent to schedule the ping', timeout: 90_000 });
        await poll(async () => await bench.clipboard() === 'mid-flood-vsx', { message: 'the clipboard to hold what the agent wrote to it mid-flood' });
        await bench.projectContextMenu('vsx-proj', 'Open Settings');
        await bench.waitForTab(t => t.startsWith('Sandy Settings: vsx-proj'), 'the settings tab');
        ping.give();
        await bench.waitForNotification('sandy (vsx-proj): background-ping', 90_000);
        expect(await bench.waitForTab(t => t.startsWith('● sandy: vsx-proj'), 'the unread mark on the terminal tab')).to.match(/^● /);

        await bench.clickNotificationButton('background-ping', 'Show');
        await poll(async () => (await bench.activeTabTitle())?.startsWith('sandy: vsx-proj'), { message: '"Show" to reveal the tab and clear the mark' });
        expect(await bench.tabTitles()).not.to.include.members(['● sandy: vsx-proj']);
        expect(await terminalText(terminal)).to.contain('flood done 60000');
    });

    it('the status bar counts the session and shows mode · agent · elapsed for the focused tab', async () => {
        const items = await poll(async () => {
            const texts = await page.$$eval('.statusbar-item', els => els.map(e => e.textContent?.trim() ?? ''));
            // A daemon session (the default): its mode, not our attach client's pid.
            return texts.some(t => t.includes('1 sandy session')) && texts.some(t => /daemon · claude · \d+/.test(t)) && texts;
        }, { message: 'the Sandy status bar items' });
        expect(items.join(' | ')).to.match(/1 sandy session/);
    });

    it('shows the hostile fixture\'s privileged lines verbatim in the approval webview, and Reject launches nothing', async () => {
        // The context menu's Launch (the click on a row is covered above).
        await bench.projectContextMenu('hostile-proj', 'Launch');
        await bench.waitForTab(t => t.startsWith('Approve: hostile-proj'), 'the approval tab');
        const approval = await bench.webview('approval');
        const shown = await poll(async () => {
            const rows = await approval.$$eval('.sandy-approval-line', els => els.map(el => ({
                where: el.querySelector('.sandy-approval-location')?.textContent ?? '',
                text: el.querySelector('pre')?.textContent ?? ''
            })));
            return rows.length > 0 && rows;
        }, { message: 'approval lines' });
        const fileLines = fs.readFileSync(HOSTILE_CONFIG, 'utf8').split('\n');
        for (const row of shown) {
            const line = Number(/line (\d+)/.exec(row.where)?.[1]);
            expect(row.text, `line ${line}`).to.equal(fileLines[line - 1]);
        }
        expect(shown.map(r => r.text)).to.include('SANDY_AGENT_ARGS=--mcp-config "/path with spaces/mcp.json" <b>bold</b> & echo hi');
        expect(await approval.$('.sandy-approval script, .sandy-approval b'), 'no markup was created from the file').to.equal(null);

        await approval.locator('.sandy-approval-actions button', { hasText: 'Reject' }).click();
        await poll(async () => !(await bench.tabTitles()).some(t => t.startsWith('Approve: hostile-proj')), { message: 'the approval tab to close' });
        await new Promise(r => setTimeout(r, 1500));
        expect(await bench.tabTitles(), 'rejecting starts no session').not.to.satisfy((ts: string[]) => ts.some(t => t.includes('sandy: hostile-proj')));
    });

    it('the settings webview saves a changed key into .sandy/config and leaves every other line as it was', async () => {
        await bench.clickTab(t => t.includes('Sandy Settings: vsx-proj'));
        const settings = await bench.webview('settings');
        const input = settings.locator('[data-key="SANDY_MODEL"] input').first();
        await input.waitFor({ state: 'visible', timeout: 30_000 });
        await input.fill('claude-sonnet-5');
        await poll(async () => (await bench.tabTitles()).some(t => t.startsWith('● Sandy Settings: vsx-proj')), { message: 'the unsaved mark on the settings tab' });
        await settings.locator('button.sandy-settings-save').click();
        const file = path.join(project, '.sandy', 'config');
        const written = await poll(() => {
            const text = fs.readFileSync(file, 'utf8');
            return text.includes('SANDY_MODEL=claude-sonnet-5') && text;
        }, { message: 'SANDY_MODEL in the workspace config' });
        expect(written.split('\n').filter(l => !l.startsWith('SANDY_MODEL='))).to.deep.equal(PROJECT_CONFIG.split('\n'));
        await poll(async () => (await bench.tabTitles()).some(t => t.startsWith('Sandy Settings: vsx-proj')), { message: 'the unsaved mark to clear' });
    });

    it('Stop ends the daemon session (sandy --stop) and the tab says so', async () => {
        await bench.clickTab(t => t.includes('sandy: vsx-proj'));
        await bench.runCommand('Sandy: Stop');
        await bench.waitForNotification('Sandy: vsx-proj stopped.');
        const terminal = await bench.webview('terminal');
        await poll(async () => (await terminalText(terminal)).includes('The daemon session was stopped (sandy --stop).'), { message: 'the exit banner' });
        expect(consoleErrors.filter(e => /Content Security Policy/.test(e)), 'no CSP violations in the webviews').to.deep.equal([]);
    });
});
