/**
 * Fleet maintenance in a real VS Code (code-server, the linux .vsix) with the fake sandy: "Sandy: Fleet
 * Maintenance…" → "Remove orphaned sandboxes" shows sandy's dry-run plan and what the plugin leaves
 * alone in VS Code's modal dialog; Remove removes the sandbox whose project folder is gone, by name,
 * and keeps the one whose path sandy cut at a `"`. "Sandy: Ask the Agent Once…" runs `sandy -p` in the
 * window's folder and opens the answer in the history viewer. "Sandy: Launch with…" starts the session with
 * the options ticked in VS Code's multi-select pick. The same core controller as the Theia IDE's.
 * (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, terminalText, Workbench } from './workbench';

const NAME = 'fleet-main';
const ACTION = 'Remove orphaned sandboxes';

describe('Sandy plugin in code-server: fleet maintenance, the headless one-shot, Launch with… (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;
    let goneBox: string;
    let quotedBox: string;

    /** A first headless run of sandy in `ws` (makes its sandbox); the sandbox folder. */
    function sandboxOf(ws: string): string {
        const r = world.sandy(['-p', 'hi'], ws);
        expect(r.status, r.stderr).to.equal(0);
        const prefix = `${path.basename(ws).replace(/[^a-zA-Z0-9._-]/g, '')}-`;
        const dir = path.join(world.sandyHome, 'sandboxes');
        const made = fs.readdirSync(dir).filter(n => n.startsWith(prefix) && fs.statSync(path.join(dir, n)).isDirectory());
        expect(made).to.have.length(1);
        return path.join(dir, made[0]);
    }

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('fleet');
        const workspace = world.workspace(NAME);
        const gone = world.workspace('fleet-gone');
        const quoted = world.workspace('fleet "quoted" one');
        goneBox = sandboxOf(gone);
        quotedBox = sandboxOf(quoted);
        fs.rmSync(gone, { recursive: true });
        server = new CodeServer(world, { label: 'fleet', vsix: platformVsix(), folder: workspace, settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE'] } });
        expect(server.installExtension()).to.contain('was successfully installed');
        await server.start();
        ({ browser, page, bench } = await openWorkbench(server));
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('fleet', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    it('shows sandy\'s plan in a modal, and Remove removes only the orphan whose folder is really gone', async () => {
        await bench.openSandyView();
        await bench.waitForProject(NAME);
        await bench.runCommand('Sandy: Fleet Maintenance…');
        const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: ACTION }).first();
        await row.waitFor({ state: 'visible', timeout: 30_000 });
        await row.click();
        const dialog = page.locator('.monaco-dialog-box');
        await dialog.waitFor({ state: 'visible', timeout: 60_000 });
        const text = await dialog.innerText();
        expect(text).to.contain('sandy --remove-sandbox: 2 target(s)');
        expect(text).to.contain(`Not removed: ${path.basename(quotedBox)}`);
        expect(text).to.contain(`Will be removed (1): ${path.basename(goneBox)}`);
        expect(fs.existsSync(goneBox), 'nothing removed before the answer').to.equal(true);
        await dialog.locator('.monaco-button', { hasText: 'Remove' }).click();
        await bench.waitForNotification(`${ACTION} finished`, 60_000);
        await poll(async () => !fs.existsSync(goneBox), { message: 'the orphan to be removed' });
        expect(fs.existsSync(quotedBox), 'the sandbox of the project with a " in its path is kept').to.equal(true);
    });

    /** The fake sandy processes started in `cwd`, with their arguments and whether each is a daemon supervisor. */
    function sandyProcessesIn(cwd: string): Array<{ args: string[]; supervisor: boolean }> {
        const found: Array<{ args: string[]; supervisor: boolean }> = [];
        for (const entry of fs.readdirSync('/proc').filter(e => /^\d+$/.test(e))) {
            try {
                const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
                const main = argv.findIndex(a => /fake-sandy[\\/]main\.js$/.test(a));
                if (main >= 0 && fs.readlinkSync(`/proc/${entry}/cwd`) === cwd) {
                    const supervisor = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes('SANDY_DAEMON_SUPERVISOR=1');
                    found.push({ args: argv.slice(main + 1), supervisor });
                }
            } catch {
                // gone meanwhile, or not ours
            }
        }
        return found;
    }

    it('Launch with…: the ticked options go to sandy --start for this launch', async () => {
        const workspace = fs.realpathSync(world.workspace(NAME));
        await bench.runCommand('Sandy: Launch with…');
        const row = (label: string) => page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
        await row('Start a fresh conversation').waitFor({ state: 'visible', timeout: 30_000 });
        await row('Rebuild sandy\'s images first').locator('.quick-input-list-checkbox, [role="checkbox"]').first().click();
        await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
        await bench.waitForTab(t => t.includes(NAME) && t.startsWith('sandy'), 'the sandy tab');
        const supervisor = await poll(async () => sandyProcessesIn(workspace).find(p => p.supervisor),
            { message: 'the daemon session\'s supervisor', timeout: 60_000 });
        expect(supervisor.args.filter((a, i, all) => a !== '--workspace' && all[i - 1] !== '--workspace')).to.deep.equal(['--start', '--rebuild']);
        await bench.runCommand('Sandy: Stop');
        await poll(async () => !sandyProcessesIn(workspace).some(p => p.supervisor), { message: 'the session to stop', timeout: 60_000 });
    });

    it('asks the agent once: a prompt in the input box, sandy -p in the folder, the answer in the history viewer', async () => {
        await bench.runCommand('Sandy: Ask the Agent Once…');
        const input = page.locator('.quick-input-widget input.input');
        await poll(async () => (await input.getAttribute('placeholder'))?.includes('It answers once'), { message: 'the prompt box' });
        const prompt = 'list the <b>files</b> here';
        await input.fill(prompt);
        await page.keyboard.press('Enter');
        await bench.waitForTab(t => t.startsWith(`History: ${NAME}`), 'the viewer tab');
        const viewer = await bench.visibleWebview('history-viewer', 60_000);
        await poll(async () => (await terminalText(viewer)).includes(`FAKE-AGENT-ANSWER: ${prompt}`), { message: 'the answer in the viewer', timeout: 60_000 });
        expect(await terminalText(viewer)).to.contain('--- sandy ---');
        // The answer's first line as text (the plugin's messages show '<' in a form no renderer reads as markup).
        const toast = await bench.waitForNotification(`${NAME} answered: FAKE-AGENT-ANSWER: list the`, 60_000);
        expect(toast).to.contain('files');
        expect(await page.locator('.notifications-toasts b, .notification-list-item-message b').count()).to.equal(0);
    });
});
