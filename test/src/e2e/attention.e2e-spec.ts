/**
 * The attention queue end to end (issue 11), in the built browser-app with headless chromium and the
 * fake sandy in daemon mode: a session that asks for the user (OSC 9) while they look at another tab
 * leads the Sessions view's "Needs you" group and the status bar counts it; Ctrl+Shift+Alt+N shows its
 * tab and seeing it clears the wait. A notification while its tab is in view is no toast; with do not
 * disturb on the queue still counts, but nothing is toasted. While the window has no focus the toast
 * is also a system notification (text only), whose click shows the session's tab.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { E2eBrowser } from './browser';
import { useSandyIde } from './suite';
import { SandyIde } from './harness';
import { SandyApp } from './page-objects/sandy-app';
import { SandyTerminal } from './page-objects/sandy-terminal';
import { THEIA_TOASTS, ToastLog } from './page-objects/theia-widgets';
import { holdsFor } from '../support/poll';

/** Long enough for a toast that would come (the service batches notifications at most once a second). */
const QUIET_MS = 3_000;

describe('The attention queue: Needs you, the status bar, Go to the Session That Needs You, do not disturb (end to end)', () => {
    const OTHERS = ['attn-second', 'attn-third'];
    /** A project whose .sandy/config runs two agents (the multi-agent test only). */
    const PAIR = 'attn-pair';
    const suite = useSandyIde({
        label: 'attention',
        seed: ide => {
            const projects = [...OTHERS, PAIR].map(name => {
                const workspace = path.join(path.dirname(ide.workspace), name);
                fs.mkdirSync(workspace, { recursive: true });
                fs.writeFileSync(path.join(workspace, 'README.md'), `# ${name}\n`);
                if (name === PAIR) {
                    // Two agents in one session: sandy runs them as two panes of its tmux window.
                    fs.mkdirSync(path.join(workspace, '.sandy'));
                    fs.writeFileSync(path.join(workspace, '.sandy', 'config'), 'SANDY_AGENT=claude,codex\n');
                }
                return { workspace, addedAt: Date.now() };
            });
            fs.writeFileSync(path.join(ide.dataDir, 'projects.json'), JSON.stringify({ version: 1, projects }, undefined, 2) + '\n');
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

    async function openSession(app: SandyApp, name = ide.projectName): Promise<SandyTerminal> {
        const terminal = await app.launch(name);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${path.join(path.dirname(ide.workspace), name)}`);
        return terminal;
    }

    /** The Sessions view's rows of a group ('needs-you', 'working', 'idle', 'ended'). */
    function groupRows(app: SandyApp, group: string): Locator {
        return app.page.locator(`#sandy-sessions .sandy-session-group[data-group="${group}"] .sandy-session-row`);
    }

    const needsYouText = async (app: SandyApp): Promise<string | undefined> => /\d+ needs? you/.exec(await app.statusBar().text())?.[0];

    it('asked while the user looks elsewhere: leads Needs you, counted in the status bar; the keybinding shows its tab and clears it', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        const toasts = await ToastLog.install(app.page, THEIA_TOASTS);
        // Three projects running; the first one's agent is the one that asks.
        for (const name of OTHERS) {
            await openSession(app, name);
        }
        const terminal = await openSession(app);
        await app.openSandyView();
        await app.page.locator('#sandy-sessions').waitFor({ state: 'visible' });
        await app.poll(async () => (await groupRows(app, 'needs-you').count()) === 0 && (await app.page.locator('#sandy-sessions .sandy-session-row').count()) === 3,
            'three sessions in the Sessions view, none waiting');

        // In view: the agent's notification is read at once — no toast, no wait.
        await terminal.focus();
        await terminal.enter('osc9 in-view-ping');
        await terminal.waitForText('[osc9 sent]');
        await holdsFor(async () => toasts.count('in-view-ping') === 0 && await needsYouText(app) === undefined && await groupRows(app, 'needs-you').count() === 0,
            QUIET_MS, 'no toast and no wait for a notification whose tab is in view');

        // Out of view: it asks three seconds later, while the user reads the Welcome page.
        const away = ide.cue('osc9 asked-while-away');
        await terminal.enter(away.line);
        await terminal.waitForText(away.echo);
        await app.focusWelcomeTab();
        away.give();
        const row = groupRows(app, 'needs-you').first();
        await app.poll(async () => (await row.textContent())?.includes(ide.projectName), 'the session in the Needs you group', { timeout: 30_000 });
        expect(await app.page.locator('#sandy-sessions .sandy-session-group').first().getAttribute('data-group'), 'Needs you leads').to.equal('needs-you');
        expect(await app.page.locator('#sandy-sessions .sandy-session-group-needs-you .sandy-session-group-label').textContent()).to.equal('Needs you (1)');
        expect(await row.locator('.sandy-project-description').textContent()).to.match(/^asked for you /);
        expect(await groupRows(app, 'needs-you').count(), 'only the one that asked').to.equal(1);
        expect(await app.page.locator('#sandy-sessions .sandy-session-row').count(), 'the other two listed below it').to.equal(3);
        await app.poll(async () => await needsYouText(app) === '1 needs you', 'the status bar to count it');
        await app.notifications().waitFor(`sandy (${ide.projectName}): asked-while-away`);
        expect(toasts.count('asked-while-away'), 'one toast').to.equal(1);

        // The keybinding goes to it: the sandy tab in front, and seeing it ends the wait.
        await app.page.keyboard.press('Control+Shift+Alt+N');
        await app.poll(() => terminal.isCurrent(), 'Ctrl+Shift+Alt+N to bring the sandy tab to the front');
        await app.poll(async () => await needsYouText(app) === undefined && await groupRows(app, 'needs-you').count() === 0, 'the wait to end once the tab is seen');
        expect(await app.page.locator('#sandy-sessions .sandy-session-row').count(), 'all still listed, now working or idle').to.equal(3);
    });

    it('while the IDE\'s window has no focus the notification is also a system notification, as text; its click shows the session\'s tab', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        await app.page.context().grantPermissions(['notifications'], { origin: ide.origin });
        // The page's Notification API, recorded (and still called): the operating system's side cannot be seen from here.
        await app.page.evaluate(() => {
            const Real = window.Notification;
            const shown: Array<{ title: string; body?: string; tag?: string; notification: Notification }> = [];
            class Recorded extends Real {
                constructor(title: string, options?: NotificationOptions) {
                    super(title, options);
                    shown.push({ title, body: options?.body, tag: options?.tag, notification: this });
                }
            }
            Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
            Object.defineProperty(Recorded, 'requestPermission', { value: Real.requestPermission.bind(Real) });
            Object.assign(window, { Notification: Recorded, sandyShown: shown });
        });
        const shown = () => app.page.evaluate(() => (window as unknown as { sandyShown: Array<{ title: string; body?: string; tag?: string }> }).sandyShown
            .map(({ title, body, tag }) => ({ title, body, tag })));
        const toasts = await ToastLog.install(app.page, THEIA_TOASTS);
        const terminal = await openSession(app);

        // The window has the focus, the user reads another tab: the toast is enough.
        await terminal.focus();
        const focused = ide.cue('osc9 focused-window');
        await terminal.enter(focused.line);
        await terminal.waitForText(focused.echo);
        await app.focusWelcomeTab();
        focused.give();
        await app.notifications().waitFor(`sandy (${ide.projectName}): focused-window`);
        expect(await shown(), 'no system notification while the window has the focus').to.deep.equal([]);
        await terminal.tab.click();
        await app.poll(async () => await needsYouText(app) === undefined, 'the wait to end once the tab is seen');

        // The user goes to another program; the agent asks, with markup and an address in its message, and again later.
        await terminal.focus();
        const marked = ide.cue('osc777 <a href=https://evil.example/>Approve</a>;<b>now</b> & more');
        await terminal.enter(marked.line);
        await terminal.waitForText(marked.echo.slice(0, marked.echo.indexOf(' <a')));
        const again = ide.cue('osc9 asked-again');
        await terminal.enter(again.line);
        await terminal.waitForText(again.echo);
        await app.focusWelcomeTab();
        // Another window in front, and the IDE's page no longer told it has the focus (Playwright's emulation).
        const elsewhere = await app.page.context().newPage();
        await elsewhere.bringToFront();
        const cdp = await app.page.context().newCDPSession(app.page);
        await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
        expect(await app.page.evaluate(() => document.hasFocus()), 'the window lost the focus').to.equal(false);
        marked.give();
        const [system] = await app.poll(async () => {
            const all = await shown();
            return all.length > 0 && all;
        }, 'a system notification', { timeout: 30_000 });
        expect(system.title).to.equal(`sandy (${ide.projectName})`);
        expect(system.body!.replace(/\u2060/g, '')).to.equal('\ufe64a href=https://evil.example/\ufe65Approve\ufe64/a\ufe65: \ufe64b\ufe65now\ufe64/b\ufe65 \ufe60 more');
        expect(system.body, 'nothing a notification server could read as markup').to.not.match(/[<>&]/);
        expect(system.body, 'no address a notification server could make a link').to.not.match(/[a-z][\w+.-]*:\/\/|\bwww\.|evil\.example/i);
        expect(system.tag).to.equal(`sandy:${ide.workspace}`);
        // The toast is asked for first, but Theia draws it later than the page shows the system one, and the log hears of it later still.
        await app.poll(() => toasts.all.some(t => t.includes('now')), 'and its toast, for when the user comes back');
        expect(toasts.all.filter(t => t.includes('now')), 'one toast').to.have.length(1);
        // Asked again while the user is still away: a toast in the IDE, nothing more on the desktop.
        again.give();
        await app.notifications().waitFor(`sandy (${ide.projectName}): asked-again`);
        await holdsFor(async () => (await shown()).length === 1, QUIET_MS, 'one system notification per session until the user is back');

        // Its click brings the IDE back with the session's tab in front.
        expect(await terminal.isCurrent(), 'the Welcome page is in front').to.equal(false);
        await app.page.evaluate(() => (window as unknown as { sandyShown: Array<{ notification: Notification }> }).sandyShown[0].notification.dispatchEvent(new Event('click')));
        await elsewhere.close();
        await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
        await app.poll(() => terminal.isCurrent(), 'the click to bring the sandy tab to the front');
        await app.poll(async () => await needsYouText(app) === undefined, 'seeing it ends the wait');
    });

    it('do not disturb: the queue still counts, nothing is toasted; the status bar says it is on and a click turns it off', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        const toasts = await ToastLog.install(app.page, THEIA_TOASTS);
        const terminal = await openSession(app);
        await app.commandPalette().run('Sandy: Toggle Do Not Disturb');
        const dnd = app.page.locator('#theia-statusBar .element', { hasText: 'Do not disturb' });
        await dnd.waitFor({ state: 'visible', timeout: 30_000 });

        await terminal.focus();
        const dndCue = ide.cue('osc9 while-dnd');
        await terminal.enter(dndCue.line);
        await terminal.waitForText(dndCue.echo);
        await app.focusWelcomeTab();
        dndCue.give();
        await app.poll(async () => await needsYouText(app) === '1 needs you', 'the status bar to count the wait', { timeout: 30_000 });
        await holdsFor(() => toasts.count('while-dnd') === 0, QUIET_MS, 'no toast while do not disturb is on');

        await dnd.click();
        await dnd.waitFor({ state: 'detached', timeout: 30_000 });
        await terminal.tab.click();
        await app.poll(async () => await needsYouText(app) === undefined, 'the wait to end once the tab is seen');
    });

    it('an agent waiting at its own dialog (a real claude permission prompt) needs you without any notification; seeing it ends that', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        const toasts = await ToastLog.install(app.page, THEIA_TOASTS);
        const terminal = await openSession(app);
        await app.openSandyView();
        await terminal.focus();
        const dialog = ide.cue('show claude/permission-bash');
        await terminal.enter(dialog.line);
        await terminal.waitForText(dialog.echo);
        await app.focusWelcomeTab();
        dialog.give();
        const row = groupRows(app, 'needs-you').first();
        await app.poll(async () => (await row.locator('.sandy-project-description').textContent())?.startsWith('waiting at its prompt'),
            'the session in Needs you, waiting at its prompt', { timeout: 30_000 });
        await app.poll(async () => await needsYouText(app) === '1 needs you', 'the status bar to count it');
        expect(toasts.all.filter(t => t.includes(ide.projectName)), 'a prompt on screen is no toast').to.deep.equal([]);
        await terminal.tab.click();
        await terminal.waitForText('Do you want to proceed?');
        await app.poll(async () => await needsYouText(app) === undefined && await groupRows(app, 'needs-you').count() === 0, 'seeing it ends the wait');
        // Looked at, the dialog is no wait any more when the user looks away again.
        await app.focusWelcomeTab();
        await holdsFor(async () => await needsYouText(app) === undefined, QUIET_MS, 'a dialog the user has seen is no wait');
    });

    it('a multi-agent session (SANDY_AGENT=claude,codex): the agent waiting in its pane is named, while the other pane works; the dashboard shows each pane', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        const terminal = await openSession(app, PAIR);
        await app.openSandyView();
        await terminal.focus();
        // sandy's window: claude's permission dialog on the left, codex at work on the right.
        const tmuxWindow = ide.cue('panes claude/permission-bash codex/working');
        await terminal.enter(tmuxWindow.line);
        await terminal.waitForText(tmuxWindow.echo);
        await app.focusWelcomeTab();
        tmuxWindow.give();
        const row = groupRows(app, 'needs-you').first();
        try {
            await app.poll(async () => (await row.locator('.sandy-project-description').textContent())?.startsWith('claude waiting at its prompt'),
                'the session in Needs you, claude named as the one waiting', { timeout: 30_000 });
        } catch (e) {
            // What the backend saw: its copy of the screen (the dashboard's thumbnail) and the session's row.
            await app.commandPalette().run('Sandy: Show Dashboard');
            const thumb = app.page.locator('.sandy-dashboard-widget button.sandy-dashboard-tile').filter({
                has: app.page.locator('.sandy-dashboard-project').getByText(PAIR, { exact: true })
            }).locator('pre.sandy-dashboard-thumbnail');
            const screen = await thumb.textContent({ timeout: 15_000 }).catch(() => '(no thumbnail)');
            const rows = await app.page.locator('#sandy-sessions .sandy-session-row').allTextContents().catch(() => []);
            throw new Error(`${(e as Error).message}\nsessions: ${JSON.stringify(rows)}\nthe backend's screen:\n${screen}`);
        }
        expect(await row.getAttribute('title')).to.match(/Panes: claude waiting at its prompt · codex (working|idle)/);
        await app.poll(async () => await needsYouText(app) === '1 needs you', 'the status bar to count it');
        await app.commandPalette().run('Sandy: Show Dashboard');
        const tile = app.page.locator('.sandy-dashboard-widget button.sandy-dashboard-tile').filter({
            has: app.page.locator('.sandy-dashboard-project').getByText(PAIR, { exact: true })
        });
        await app.poll(async () => (await tile.locator('.sandy-dashboard-pane').allTextContents()).length === 2, 'the tile\'s panes', { timeout: 30_000 });
        const panes = await tile.locator('.sandy-dashboard-pane').allTextContents();
        expect(panes[0]).to.equal('claude waiting at its prompt');
        expect(panes[1]).to.match(/^codex (working|idle)$/);
        expect(await tile.locator('.sandy-dashboard-pane-waiting').allTextContents()).to.deep.equal(['claude waiting at its prompt']);
    });
});
