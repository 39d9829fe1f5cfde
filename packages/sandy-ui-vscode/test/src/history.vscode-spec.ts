/**
 * Issue 11's session history in a real VS Code (code-server, the linux .vsix): a daemon session of
 * the fake sandy is recorded; after Stop, "Sandy: Show History" lists it with its project, the search
 * finds it by a word typed into the agent (a nonsense word finds nothing), its record opens
 * read-only in a viewer webview that shows the word, and Relaunch starts the project again (sandy
 * --start, a sandy tab). The attack: a record planted in the plugin's history folder whose output
 * holds OSC 52, OSC 9/777, an OSC 8 link, a title and DSR/DA queries, and whose project name is
 * markup, opens without touching the clipboard, without a toast and without a reply to the running
 * session; its name is shown as text. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, chromium, Frame, Page } from 'playwright-core';
import { holdsFor } from '@sandy-ui/test/lib/support/poll';
import { readXtermAppearance } from '@sandy-ui/test/lib/support/xterm-dom';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { terminalText, ToastLog, typeInTerminal, VSCODE_TOASTS, Workbench } from './workbench';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const PROJECT = 'hist-one';
const DAEMON_STOPPED = 'The daemon session was stopped (sandy --stop).';
const EVIL_NAME = '<img src=x onerror="window.__sandyPwned=1">';
const EVIL_ID = '2026-01-02-evil';
const QUIET_MS = 2_000;
const tabOf = (name: string) => (t: string) => t.startsWith(`sandy: ${name}`);
const squeeze = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, '');

const HOSTILE_LOG = [
    'hostile-before\r\n',
    '\x1b]52;c;', Buffer.from('evil-clipboard').toString('base64'), '\x07',
    '\x1b]9;hostile-notify\x07',
    '\x1b]777;notify;hostile;notify-777\x1b\\',
    '\x1b]8;;https://example.invalid/pwn\x07click-me\x1b]8;;\x07\r\n',
    '\x1b]0;hostile-title\x07\x1b]2;hostile-title-2\x07',
    '\x1b[6n\x1b[c\x1b[>c\x1b]11;?\x07\x1b[18t',
    '\x07',
    'hostile-after\r\n'
].join('');

describe('Sandy plugin in code-server: session history (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;
    let toasts: ToastLog;
    let workspace: string;

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('history');
        workspace = world.workspace(PROJECT);
        const profile = 'export FAKE_SANDY_DOCKER=1\nexport SANDY_IDE_POLL_MS=500\n';
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, {
            label: 'history',
            vsix: platformVsix(),
            folder: workspace,
            // The user's terminal font: the viewer draws with it, as the sandy tab does.
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'], 'terminal.integrated.fontSize': 17 }
        });
        expect(server.installExtension()).to.contain('was successfully installed');
        // The hostile record, as the store writes them (0600 in a 0700 folder), in the plugin's data folder.
        const dir = path.join(server.pluginStorage, 'history');
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const startedAt = new Date(2026, 0, 2, 3, 4).getTime();
        fs.writeFileSync(path.join(dir, `${EVIL_ID}.log`), HOSTILE_LOG, { mode: 0o600 });
        fs.writeFileSync(path.join(dir, `${EVIL_ID}.json`), JSON.stringify({
            id: EVIL_ID, workspace: '/nonexistent/evil', project: EVIL_NAME, sandbox: 'evil', mode: 'daemon',
            startedAt, endedAt: startedAt + 60_000, exitCode: 0, bytes: Buffer.byteLength(HOSTILE_LOG), truncated: false
        }), { mode: 0o600 });
        await server.start();
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${server.port}` });
        page = await context.newPage();
        bench = new Workbench(page, () => server.deathNotice());
        toasts = await ToastLog.install(page, VSCODE_TOASTS);
        await page.goto(server.url);
        await bench.ready();
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('history', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        world?.sandy(['--stop'], workspace, { FAKE_SANDY_DOCKER: '1' });
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    const daemon = (): { ownerPid: number } | undefined => {
        const records = world.containerRecords(workspace).filter(r => r.daemon);
        return records.length === 1 ? records[0] : undefined;
    };

    async function launch(): Promise<Frame> {
        await bench.openSandyView();
        await bench.waitForProject(PROJECT);
        await bench.projectContextMenu(PROJECT, 'Launch');
        await bench.waitForTab(tabOf(PROJECT), `the sandy tab of ${PROJECT}`);
        const terminal = await bench.visibleWebview('terminal', 60_000);
        await poll(async () => squeeze(await terminalText(terminal)).includes(squeeze(`fake sandy 1.7.1-dev — ${workspace}`)),
            { message: `the agent's screen in the tab of ${PROJECT}`, timeout: 60_000 });
        return terminal;
    }

    async function openHistory(): Promise<Frame> {
        await bench.runCommand('Sandy: Show History');
        await bench.waitForTab(t => t.startsWith('Sandy History'), 'the History tab');
        return bench.visibleWebview('history', 60_000);
    }

    const rowOf = (frame: Frame, project: string) => frame.locator('.sandy-history-row').filter({
        has: frame.locator('.sandy-history-project-name').getByText(project, { exact: true })
    });
    const viewerText = async (frame: Frame): Promise<string> => (await terminalText(frame)).replace(/\u00a0/g, ' ');

    it('after Stop lists the session with its project; the search finds it by a word of its output (not by nonsense); it opens read-only with the word; Relaunch starts the project again', async () => {
        const word = `histword${Date.now().toString(36)}`;
        const terminal = await launch();
        const first = await poll(() => daemon(), { message: 'the daemon session', timeout: 60_000 });
        await typeInTerminal(page, terminal, `echo ${word}`);
        await poll(async () => (await terminalText(terminal)).split('\n').some(l => l.trim() === word), { message: `the agent to print ${word}` });
        await bench.projectContextMenu(PROJECT, 'Stop');
        await poll(async () => (await terminalText(terminal)).includes(DAEMON_STOPPED), { message: 'the exit line in the tab', timeout: 60_000 });

        const list = await openHistory();
        const row = rowOf(list, PROJECT);
        await poll(async () => await row.count() === 1, { message: `one history row of ${PROJECT}` });
        await poll(async () => /^(exit -?\d+|signal \d+|ended)$/.test(await row.locator('.sandy-history-exit').textContent() ?? ''), { message: 'the row to say how it ended' });
        expect(await list.locator('select.sandy-history-project option').allTextContents()).to.include(PROJECT).and.include(EVIL_NAME);

        const box = list.locator('input.sandy-history-search');
        await box.fill(word);
        await poll(async () => await list.locator('.sandy-history-row').count() === 1 && await row.count() === 1, { message: `only ${PROJECT}'s record to match` });
        await box.fill('zqxj-no-such-word-anywhere');
        await poll(async () => await list.locator('.sandy-history-row').count() === 0, { message: 'no record to match nonsense' });
        expect(await list.locator('.sandy-history-empty').textContent()).to.equal('No recorded session matches.');
        await box.fill(word);
        await poll(async () => await row.count() === 1, { message: 'the record back' });

        await row.locator('button.sandy-history-open').click();
        await bench.waitForTab(t => t.startsWith(`History: ${PROJECT}`), 'the viewer tab');
        const viewer = await bench.visibleWebview('history-viewer', 60_000);
        await poll(async () => (await viewer.$eval('.xterm', readXtermAppearance)).fontSize === '17px', { message: 'the viewer to draw with the user\'s terminal font size' });
        // Copy All: the whole recorded text (scrollback and screen) through the host's clipboard.
        await poll(async () => {
            await viewer.locator('button.sandy-history-copy-all').click();
            return (await bench.clipboard()).split('\n').some(l => l.trim() === word);
        }, { message: `Copy All to put the viewer's text, with ${word}, on the clipboard` });
        expect(await viewer.locator('.sandy-history-viewer-part-0').textContent()).to.equal(PROJECT);

        await viewer.locator('button.sandy-history-relaunch').click();
        const again = await poll(() => {
            const d = daemon();
            return d && d.ownerPid !== first.ownerPid ? d : undefined;
        }, { message: 'a new daemon session of the project (sandy --start)', timeout: 60_000 });
        expect(again.ownerPid).to.not.equal(first.ownerPid);
        await poll(async () => tabOf(PROJECT)((await bench.activeTabTitle()) ?? ''), { message: 'the project\'s sandy tab in front', timeout: 60_000 });
    });

    it('Attack: a record with OSC 52, OSC 9/777, an OSC 8 link, a title and DSR/DA queries, named with markup, opens without clipboard, toast or reply to any session', async () => {
        // The session of the first test runs (relaunched); a reply to the recorded queries, were it sent to it, would be echoed by its agent.
        await poll(() => daemon(), { message: 'the running session', timeout: 60_000 });
        const sentinel = `sentinel-${Date.now().toString(36)}`;
        await bench.setClipboard(sentinel);
        const shownBefore = toasts.all.length;

        const list = await openHistory();
        // The list of the first test may still be open, searching for its word.
        await list.locator('input.sandy-history-search').fill('');
        const evil = rowOf(list, EVIL_NAME);
        await poll(async () => await evil.count() === 1, { message: 'the planted record listed' });
        expect(await list.locator('img').count()).to.equal(0);
        await evil.locator('button.sandy-history-open').click();
        await bench.waitForTab(t => t.startsWith(`History: ${EVIL_NAME}`), 'the viewer tab of the planted record');
        const viewer = await bench.visibleWebview('history-viewer', 60_000);
        await poll(async () => (await viewerText(viewer)).includes('hostile-after'), { message: 'the viewer to show the record' });
        const shown = await viewerText(viewer);
        expect(shown).to.include('hostile-before').and.include('click-me');
        expect(shown).to.not.include('hostile-notify').and.not.include('hostile-title');
        expect(await viewer.locator('.sandy-history-viewer-part-0').textContent()).to.equal(EVIL_NAME);
        expect(await viewer.locator('img, a').count()).to.equal(0);

        await holdsFor(async () => await bench.clipboard() === sentinel && toasts.all.length === shownBefore
            && await viewer.evaluate(() => (window as unknown as { __sandyPwned?: number }).__sandyPwned === undefined),
        QUIET_MS, `the clipboard still ${sentinel}, no new toast (${JSON.stringify(toasts.all)}), no script run`);

        await bench.clickTab(tabOf(PROJECT));
        const terminal = await bench.visibleWebview('terminal', 60_000);
        expect(await terminalText(terminal)).to.not.match(/\d+;\d+R|\?1;2c|\[>0;/);
    });
});
