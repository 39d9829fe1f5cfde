/**
 * Session history end to end (issue 11), in the built browser-app with headless chromium and the
 * fake sandy in daemon mode (see sandy-ide.e2e-spec.ts for the set-up): a session's output is
 * recorded; after Stop, "Sandy: Show History" lists it with its project, the search finds it by a
 * word typed into the agent (and a nonsense word finds nothing), its record opens read-only in a
 * viewer tab that shows the word, and Relaunch starts the project again (sandy --start, a sandy tab).
 * The attack: a record planted in the history folder whose output holds OSC 52, OSC 9/777, an OSC 8
 * link, a title and DSR/DA queries, and whose project name is markup, opens without touching the
 * clipboard, without a toast, without opening anything and without sending anything to the running
 * session; its name is shown as text.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { E2eBrowser } from './browser';
import { useSandyIde } from './suite';
import { SandyIde } from './harness';
import { holdsFor } from '../support/poll';
import { readXtermAppearance } from '../support/xterm-dom';
import { SandyApp } from './page-objects/sandy-app';
import { THEIA_TOASTS, ToastLog } from './page-objects/theia-widgets';

const HISTORY_TAB = '#theia-main-content-panel .lm-TabBar-tab[id="shell-tab-sandy-history"]';
const DAEMON_STOPPED = 'The daemon session was stopped (sandy --stop).';
const EVIL_NAME = '<img src=x onerror="window.__sandyPwned=1">';
const EVIL_ID = '2026-01-02-evil';
const QUIET_MS = 2_000;

/** The hostile log: everything a replay could act on, around two plain words. */
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

describe('Session history (end to end)', () => {
    const suite = useSandyIde({
        label: 'history',
        seed: ide => {
            // A record as the store writes them (0600 in a 0700 folder), with a hostile log and name.
            const dir = ide.historyDir;
            fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
            const startedAt = new Date(2026, 0, 2, 3, 4).getTime();
            fs.writeFileSync(path.join(dir, `${EVIL_ID}.log`), HOSTILE_LOG, { mode: 0o600 });
            fs.writeFileSync(path.join(dir, `${EVIL_ID}.json`), JSON.stringify({
                id: EVIL_ID, workspace: '/nonexistent/evil', project: EVIL_NAME, sandbox: 'evil', mode: 'daemon',
                startedAt, endedAt: startedAt + 60_000, exitCode: 0, bytes: Buffer.byteLength(HOSTILE_LOG), truncated: false
            }), { mode: 0o600 });
        }
    });
    let ide: SandyIde;
    let browser: E2eBrowser;

    before(() => {
        ({ ide, browser } = suite);
    });

    afterEach(async function () {
        this.timeout(60_000);
        await browser.closeContexts();
        await ide.stopDaemons();
    });

    const rows = (app: SandyApp): Locator => app.page.locator('.sandy-history-widget .sandy-history-row');
    const rowOf = (app: SandyApp, project: string): Locator => rows(app).filter({
        has: app.page.locator('.sandy-history-project-name').getByText(project, { exact: true })
    });
    const viewer = (app: SandyApp): Locator => app.page.locator('.sandy-history-viewer-widget:visible');
    const viewerText = async (app: SandyApp): Promise<string> => (await viewer(app).locator('.xterm-rows').textContent() ?? '').replace(/\u00a0/g, ' ');

    async function openHistory(app: SandyApp): Promise<void> {
        await app.commandPalette().run('Sandy: Show History');
        const tab = app.page.locator(HISTORY_TAB);
        await tab.waitFor({ state: 'visible' });
        await app.poll(async () => /\blm-mod-current\b/.test((await tab.getAttribute('class')) ?? ''), 'the History tab in front');
    }

    async function search(app: SandyApp, text: string): Promise<void> {
        await app.page.locator('.sandy-history-widget input.sandy-history-search').fill(text);
    }

    it('after Stop lists the session with its project; the search finds it by a word of its output (not by nonsense); it opens read-only with the word; Relaunch starts the project again', async function () {
        this.timeout(240_000);
        const word = `histword${Date.now().toString(36)}`;
        const app = await browser.openApp(ide);
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        const first = await ide.attachedDaemon();
        await terminal.enter(`echo ${word}`);
        await terminal.waitForText(new RegExp(`^${word}$`, 'm'));
        await app.projectMenu(ide.projectName, 'Stop');
        await terminal.waitForText(DAEMON_STOPPED);

        await openHistory(app);
        const row = rowOf(app, ide.projectName);
        await app.poll(async () => await row.count() === 1, `one history row of ${ide.projectName}`);
        await app.poll(async () => /^(exit -?\d+|signal \d+|ended)$/.test(await row.locator('.sandy-history-exit').textContent() ?? ''), 'the row to say how it ended');
        expect(await row.locator('.sandy-history-started').textContent()).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
        expect(await row.locator('.sandy-history-size').textContent()).to.match(/^\d+(\.\d)? (B|KiB|MiB)$/);
        // The project filter offers the projects of the records.
        const options = await app.page.locator('.sandy-history-widget select.sandy-history-project option').allTextContents();
        expect(options).to.include(ide.projectName).and.include(EVIL_NAME);

        await search(app, word);
        await app.poll(async () => await rows(app).count() === 1 && await row.count() === 1, `only ${ide.projectName}'s record to match "${word}"`);
        await search(app, 'zqxj-no-such-word-anywhere');
        await app.poll(async () => await rows(app).count() === 0, 'no record to match nonsense');
        expect(await app.page.locator('.sandy-history-widget .sandy-history-empty').textContent()).to.equal('No recorded session matches.');
        await search(app, word);
        await app.poll(async () => await row.count() === 1, 'the record back');

        // The user's terminal font (as the settings editor writes it): the viewer draws as the sandy tab does.
        const settingsFile = path.join(ide.home, '.sandy-ide', 'settings.json');
        const userSettings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        const setFontSize = (size: number) => fs.writeFileSync(settingsFile, JSON.stringify({ ...userSettings, 'terminal.integrated.fontSize': size }, undefined, 4));
        const viewerFontSize = async () => (await viewer(app).evaluate(readXtermAppearance)).fontSize;
        try {
            setFontSize(17);
            await app.poll(async () => (await terminal.appearance()).fontSize === '17px', 'the sandy tab to take the user\'s font size');
            await row.locator('button.sandy-history-open').click();
            await viewer(app).waitFor({ state: 'visible' });
            expect(await viewerFontSize(), 'the user\'s terminal font size').to.equal('17px');
            setFontSize(19);
            await app.poll(async () => await viewerFontSize() === '19px', 'the open viewer to follow the user\'s change');
            // And the colour theme: the open viewer repaints in the terminal colours of the theme the user picks.
            const brightness = () => viewer(app).locator('.xterm-viewport').evaluate(e => {
                const [r, g, b] = (getComputedStyle(e).backgroundColor.match(/\d+/g) ?? []).map(Number);
                return (r + g + b) / 3;
            });
            for (const [colorTheme, isIt] of [['dark', (v: number) => v < 128], ['light', (v: number) => v >= 128]] as const) {
                fs.writeFileSync(settingsFile, JSON.stringify({ ...userSettings, 'workbench.colorTheme': colorTheme }, undefined, 4));
                await app.poll(async () => isIt(await brightness()), `the open viewer to draw on the ${colorTheme} theme's background`);
            }
        } finally {
            // The suite's other tests start from the user's settings as they were.
            fs.writeFileSync(settingsFile, JSON.stringify(userSettings, undefined, 4));
        }
        // Copy All: the whole recorded text (scrollback and screen) through the host's clipboard.
        const clipboard = (): Promise<string> => app.page.evaluate(() => navigator.clipboard.readText());
        await app.poll(async () => {
            await viewer(app).locator('button.sandy-history-copy-all').click();
            return (await clipboard()).split('\n').some(l => l.trim() === word);
        }, `Copy All to put the viewer's text, with ${word}, on the clipboard`);
        expect(await viewer(app).locator('.sandy-history-viewer-part-0').textContent()).to.equal(ide.projectName);
        // Read-only: what is typed goes nowhere (no session runs; nothing is echoed into the record's screen).
        await viewer(app).locator('.xterm').click();
        await app.page.keyboard.type('typed-into-viewer');
        await holdsFor(async () => !(await viewerText(app)).includes('typed-into-viewer'), 1000, 'nothing typed to show in the viewer');

        await viewer(app).locator('button.sandy-history-relaunch').click();
        const again = await ide.attachedDaemon(ide.workspace, { not: first.clients[0] });
        expect(again.supervisor).to.not.equal(first.supervisor);
        await app.poll(async () => await app.terminalTabs(ide.projectName).count() >= 1, 'a sandy tab of the project');
        const tab = await app.terminal(ide.projectName);
        await app.poll(async () => !(await tab.title()).includes('(ended)'), 'the project\'s tab to show the new session');
    });

    it('Attack: a record with OSC 52, OSC 9/777, an OSC 8 link, a title and DSR/DA queries, named with markup, opens without clipboard, toast, window or reply to any session', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        const toasts = await ToastLog.install(app.page, THEIA_TOASTS);
        // A live session: a reply to the recorded queries, were it sent anywhere, would be echoed by its agent.
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        const sentinel = `sentinel-${Date.now().toString(36)}`;
        await app.page.evaluate(text => navigator.clipboard.writeText(text), sentinel);
        const pages = app.page.context().pages().length;

        await openHistory(app);
        const evil = rowOf(app, EVIL_NAME);
        await app.poll(async () => await evil.count() === 1, 'the planted record listed');
        expect(await app.page.locator('.sandy-history-widget img').count(), 'no element made of the name').to.equal(0);
        await evil.locator('button.sandy-history-open').click();
        await viewer(app).waitFor({ state: 'visible' });
        await app.poll(async () => (await viewerText(app)).includes('hostile-after'), 'the viewer to show the record');
        const shown = await viewerText(app);
        expect(shown).to.include('hostile-before').and.include('click-me');
        expect(shown).to.not.include('hostile-notify').and.not.include('hostile-title');
        expect(await viewer(app).locator('.sandy-history-viewer-part-0').textContent()).to.equal(EVIL_NAME);
        expect(await viewer(app).locator('img, a').count()).to.equal(0);

        await holdsFor(async () => await app.page.evaluate(() => navigator.clipboard.readText()) === sentinel
            && toasts.all.length === 0
            && app.page.context().pages().length === pages
            && await app.page.evaluate(() => (window as unknown as { __sandyPwned?: number }).__sandyPwned === undefined),
        QUIET_MS, `the clipboard still ${sentinel}, no toast (${JSON.stringify(toasts.all)}), no new window, no script run`);
        const viewerTab = app.page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel');
        expect(await viewerTab.textContent()).to.equal(`History: ${EVIL_NAME} 2026-01-02 03:04`);
        // Nothing reached the live session: its agent echoes what it is sent, and a DSR/DA reply would show as "[1;1R" / "[?1;2c".
        await terminal.activate();
        const live = await terminal.text();
        expect(live).to.not.match(/\d+;\d+R|\?1;2c|\[>0;/);
        expect(toasts.all, 'no toast at all').to.deep.equal([]);
    });
});
