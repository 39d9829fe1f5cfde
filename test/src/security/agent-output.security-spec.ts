/**
 * Attack: the agent in the sandbox owns its terminal's output, so it writes escape sequences that
 * the IDE turns into UI — notifications (OSC 9, 777, 99, sent through tmux's DCS passthrough as it
 * must from inside sandy's tmux, CONTRACT §7), hyperlinks (OSC 8), a window title (OSC 2) — hoping
 * the host renders them as markup: a `[Show details](command:workbench.action.terminal.sendSequence?…)`
 * in a notification typed `touch …` into the user's host shell on one click (issue 8 item 3), a
 * `<command:terminal:new>` autolink opened a host terminal, an OSC 8 link to `command:` or
 * `file:///etc/passwd` would run or open on the host, and 1,000 notifications a second would bury
 * the window in toasts.
 *
 * Run against the BUILT browser-app with the fake sandy imitating sandy's tmux (FAKE_SANDY_TMUX_FILTER=1:
 * raw OSC 9/99/777/8/2 swallowed, DCS-passthrough ones unwrapped and forwarded). A Theia terminal is open
 * on the host, so a `sendSequence` would have a shell to type into. Each test asserts the harm did not
 * happen (no marker file, no terminal, no editor on /etc/passwd, no request before a click) and that the
 * legitimate path still works (the text is shown as sent, Show reveals the tab, an http link opens after
 * the click and the confirmation, a file link inside the workspace opens in an editor).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { E2eBrowser } from '../e2e/browser';
import { SandyIde } from '../e2e/harness';
import { SandyApp } from '../e2e/page-objects/sandy-app';
import { SandyTerminal } from '../e2e/page-objects/sandy-terminal';
import { useSandyIde } from '../e2e/suite';
import { holdsFor, poll } from '../support/poll';
import { processesWithHome } from '../support/processes';

/** A symlink the agent planted in its (read-write) workspace, pointing out of it. */
const ESCAPE_LINK = 'escape-passwd';

/** Theia's terminal widgets (the host's shells), wherever they are docked. */
const HOST_TERMINALS = '.terminal-container';

describe('Agent output is text (security)', () => {
    const suite = useSandyIde({
        label: 'sec-agent-output',
        env: { FAKE_SANDY_TMUX_FILTER: '1' },
        seed: ide => {
            // The knob reaches the fake only through the user's sandy.passEnvironment, like the others.
            const settings = path.join(ide.home, '.sandy-ide', 'settings.json');
            const json = JSON.parse(fs.readFileSync(settings, 'utf8')) as Record<string, string[]>;
            json['sandy.passEnvironment'] = [...json['sandy.passEnvironment'], 'FAKE_SANDY_TMUX_FILTER'];
            fs.writeFileSync(settings, JSON.stringify(json, undefined, 4));
            fs.symlinkSync('/etc/passwd', path.join(ide.workspace, ESCAPE_LINK));
        }
    });
    let ide: SandyIde;
    let browser: E2eBrowser;
    /** What the agent's `sendSequence` would create through the host shell. */
    let marker: string;

    before(() => {
        ({ ide, browser } = suite);
        marker = path.join(ide.root, 'PWNED');
    });

    beforeEach(() => {
        // One test's success at the attack must not decide the next one's.
        fs.rmSync(marker, { force: true });
    });

    /** The project's sandy tab with its session drawn. */
    async function openSession(app: SandyApp): Promise<SandyTerminal> {
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText("type 'help' for commands");
        return terminal;
    }

    /** A host shell in a Theia terminal (the bottom panel), as a user has one open: what sendSequence types into. */
    async function openHostTerminal(app: SandyApp): Promise<void> {
        const before = await app.page.locator(HOST_TERMINALS).count();
        const shells = new Set(hostShells());
        await app.commandPalette().run('Terminal: Create New Terminal (In Active Workspace)');
        await app.poll(async () => await app.page.locator(HOST_TERMINALS).count() > before, 'a host terminal to open');
        await app.poll(() => hostShells().some(pid => !shells.has(pid)), 'the host terminal\'s shell to start');
    }

    /**
     * Interactive shells of this run's HOME: the host terminals' shells and whatever they fork. (The fake
     * sandy's launcher is a bash script too, for an instant before it execs node: its command line names it.)
     */
    function hostShells(): number[] {
        return processesWithHome(ide.home).filter(pid => {
            try {
                const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
                const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
                return /^(ba|da|z)?sh$/.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()) && Number(fields[4]) !== 0
                    && !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('fake-sandy');
            } catch {
                return false;
            }
        });
    }

    /** Output lines that end an agent command (`[osc9 sent]`, `[repeat 1000 done]`). */
    const SENT = /^\[(osc\d+|title|bell) sent\]$|^\[repeat \d+ done\]$/m;

    /**
     * The agent runs a command of its TUI (the keyboard stands in for the agent) and waits for `done` on
     * the screen; by default the screen is cleared first, since one session serves every test.
     */
    async function agent(terminal: SandyTerminal, line: string, done: RegExp = SENT, clearFirst = true): Promise<void> {
        if (clearFirst) {
            await terminal.enter('clear');
            await poll(async () => !done.test(await terminal.text()), { message: `the screen to clear before ${line}` });
        }
        await terminal.enter(line);
        await terminal.waitForText(done);
    }

    /**
     * The same, sent once the user looks away (the Projects view has the keyboard; the
     * sandy tab stays in view): a notification whose tab has the focus is no toast, and these attacks are on toasts.
     */
    async function agentWhileAway(app: SandyApp, terminal: SandyTerminal, line: string, done: RegExp = SENT): Promise<void> {
        await terminal.enter('clear');
        await poll(async () => !done.test(await terminal.text()), { message: `the screen to clear before ${line}` });
        const cue = ide.cue(line);
        await terminal.enter(cue.line);
        await app.lookAway();
        cue.give();
        // A scheduled command prints after the prompt that followed it: "> [osc9 sent]".
        await terminal.waitForText(new RegExp(done.source.replace(/\^/g, '^(?:> )?'), done.flags));
    }

    /** The toasts' messages as text, and the toasts' elements a click could act on. */
    function toasts(app: SandyApp): Locator {
        return app.page.locator('.theia-notification-toasts .theia-notification-list-item');
    }

    /** Clicks every element of a toast's message (links included, if any), then waits for side effects. */
    async function clickEverythingIn(app: SandyApp, toast: Locator): Promise<number> {
        const message = toast.locator('.theia-notification-message');
        const parts = await message.locator('*').all();
        for (const part of [message, ...parts]) {
            await part.click({ timeout: 2_000 }).catch(() => undefined);
        }
        return parts.length + 1;
    }

    /** Nothing the agent asked for happened on the host: no marker, no new host terminal. */
    async function assertNoHarm(app: SandyApp, hostTerminals: number, duration = 2_000): Promise<void> {
        const shells = new Set(hostShells());
        let harm = '';
        await holdsFor(async () => {
            const terminals = await app.page.locator(HOST_TERMINALS).count();
            const newShells = hostShells().filter(pid => !shells.has(pid));
            harm = fs.existsSync(marker) ? `${marker} was created: the agent's text ran a command in a host shell`
                : terminals !== hostTerminals ? `${terminals} host terminals instead of ${hostTerminals}: the agent's text opened one`
                    : newShells.length ? `new host shell(s) ${newShells.join(', ')}` : '';
            return !harm;
        }, duration, 'nothing to happen on the host').catch(e => {
            throw new Error(`${(e as Error).message}: ${harm}`);
        });
    }

    /** Elements inside a toast's rendered message (Theia puts the rendered HTML into one span): none for text. */
    async function markupIn(message: Locator): Promise<string[]> {
        return message.locator(':scope > span *').evaluateAll(els => els.map(e => e.outerHTML));
    }

    /** How many notifications the window holds (toasts and the notification center alike). */
    async function notificationCount(page: Page): Promise<number> {
        const label = await page.locator('#status-bar-theia-notification-center').textContent({ timeout: 2_000 }).catch(() => '');
        const m = /(\d+)/.exec(label ?? '');
        return m ? Number(m[1]) : 0;
    }

    it('an OSC 9 markdown command: link is shown as text, and clicking everything in the toast runs nothing', async () => {
        const app = await browser.openApp(ide);
        const terminal = await openSession(app);
        await openHostTerminal(app);
        const hostTerminals = await app.page.locator(HOST_TERMINALS).count();

        const link = `[Show details](command:workbench.action.terminal.sendSequence?${encodeURIComponent(JSON.stringify({ text: `touch ${marker}\n` }))})`;
        await agentWhileAway(app, terminal, `tmux osc9 ${link}`);

        const toast = await app.notifications().waitFor('Show details');
        await clickEverythingIn(app, toast);
        await assertNoHarm(app, hostTerminals);

        // Shown as sent: the brackets, the command: URI, every character — and nothing to click.
        const message = toast.locator('.theia-notification-message');
        expect((await message.textContent())?.trim()).to.equal(`sandy (${ide.projectName}): ${link}`);
        expect(await message.locator('a, img, [href], [src]').count(), 'links or images in the toast').to.equal(0);
        expect(await markupIn(message), 'markup in the toast').to.deep.equal([]);

        // The legitimate action still works: Show brings the sandy tab to the front.
        await app.notifications().action(toast, 'Show').click();
        await app.poll(() => terminal.isCurrent(), 'Show to bring the sandy tab to the front');
        await assertNoHarm(app, hostTerminals, 500);
    });

    it('OSC 777 HTML and markdown, an OSC 99 autolink and an OSC 2 title are text; a bell notifies nothing', async () => {
        const app = await browser.openApp(ide);
        const terminal = await openSession(app);
        await openHostTerminal(app);
        const hostTerminals = await app.page.locator(HOST_TERMINALS).count();

        const title = '<a href="command:terminal:new">Build</a>';
        const body = '<img src=x onerror=alert(1)> **bold** _it_ `code` ~~gone~~ &amp; \\*star $(zap) ![x](http://127.0.0.1:9/pixel)';
        await agentWhileAway(app, terminal, `tmux osc777 ${title};${body}`);
        const htmlToast = await app.notifications().waitFor('Build');
        await clickEverythingIn(app, htmlToast);
        await assertNoHarm(app, hostTerminals);
        const htmlMessage = htmlToast.locator('.theia-notification-message');
        expect((await htmlMessage.textContent())?.trim()).to.equal(`sandy (${ide.projectName}): ${title}: ${body}`);
        expect(await markupIn(htmlMessage), 'markup in the toast').to.deep.equal([]);

        await agentWhileAway(app, terminal, 'tmux osc99 <command:terminal:new> opens a terminal');
        const autolinkToast = await app.notifications().waitFor('opens a terminal');
        await clickEverythingIn(app, autolinkToast);
        await assertNoHarm(app, hostTerminals);
        const autolinkMessage = autolinkToast.locator('.theia-notification-message');
        expect((await autolinkMessage.textContent())?.trim()).to.equal(`sandy (${ide.projectName}): <command:terminal:new> opens a terminal`);
        expect(await markupIn(autolinkMessage), 'markup in the toast').to.deep.equal([]);

        // A title is not something the terminal stream may set: the tab keeps the IDE's own.
        const before = await notificationCount(app.page);
        await agent(terminal, 'tmux title [evil](command:terminal:new)');
        await agent(terminal, 'bell');
        // (Its ● is the unread mark of the notifications above, sent while the user looked away.)
        await holdsFor(async () => (await terminal.title()).replace(/^● /, '') === `sandy: ${ide.projectName}` && !(await app.page.title()).includes('evil'), 1_000,
            'the tab and window titles to stay the IDE\'s');
        expect(await notificationCount(app.page), 'notifications after a title and a bell').to.equal(before);
    });

    it('1,000 OSC 9 notifications in a burst make a handful of toasts, the last one counting the rest', async () => {
        const app = await browser.openApp(ide);
        const terminal = await openSession(app);
        await agentWhileAway(app, terminal, 'repeat 1000 tmux osc9 flood-{n}-e2e');

        // The first shows at once; the rest are folded into one that names the latest and counts the others.
        await app.notifications().waitFor('flood-1000-e2e');
        await holdsFor(async () => await notificationCount(app.page) <= 3, 3_000, 'at most a handful of notifications');
        const shown = (await toasts(app).locator('.theia-notification-message').allTextContents()).filter(m => m.includes('flood-'));
        expect(shown.length, JSON.stringify(shown)).to.be.within(1, 3);
        expect(shown.some(m => /flood-1000-e2e.*998 more/.test(m)), JSON.stringify(shown)).to.equal(true);
        expect(await toasts(app).count()).to.be.at.most(3);

        // A window that attaches later is shown the history, not notified of it again.
        const later = await browser.openApp(ide);
        const again = await openSession(later);
        await again.waitForText('[repeat 1000 done]');
        await holdsFor(async () => await notificationCount(later.page) === 0, 3_000, 'no notification in a window that attached after the flood');
    });

    describe('OSC 8 hyperlinks', () => {
        let server: http.Server;
        let hits: string[];
        let webUrl: string;

        before(async () => {
            hits = [];
            server = http.createServer((req, res) => {
                hits.push(req.url ?? '');
                res.setHeader('Content-Type', 'text/html');
                res.end('<title>agent link</title>landed');
            });
            await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
            webUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/agent-link-e2e`;
        });

        after(async () => {
            await new Promise(resolve => server.close(resolve));
        });

        /** The centre of `text` where it stands alone on a row of the terminal (the link's own line, not the typed command). */
        async function locate(terminal: SandyTerminal, text: string): Promise<{ x: number; y: number; rowHeight: number; screenTop: number }> {
            return terminal.widget.evaluate((node, t) => {
                const screen = node.querySelector<HTMLElement>('.xterm-screen')!;
                const measure = node.querySelector<HTMLElement>('.xterm-char-measure-element')!;
                const cell = measure.getBoundingClientRect().width / (measure.textContent ?? '').length;
                const rows = Array.from(node.querySelectorAll<HTMLElement>('.xterm-rows > div'));
                const row = rows.filter(r => (r.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd() === t).pop();
                if (!row) {
                    throw new Error(`no row showing just ${t}`);
                }
                const box = row.getBoundingClientRect();
                const screenBox = screen.getBoundingClientRect();
                return { x: screenBox.left + cell * t.length / 2, y: box.top + box.height / 2, rowHeight: box.height, screenTop: screenBox.top };
            }, text);
        }

        /**
         * Hovers `text`; true when xterm offers it as a link (pointer cursor over the cells). The pointer comes
         * from another row: xterm (5.5, and 6.0) keeps the links it found on the row under the pointer until the
         * pointer changes rows or the terminal is resized, so a link printed on the row where the pointer already
         * rests (the screen scrolled under it) is not offered until the pointer leaves that row.
         */
        async function hover(app: SandyApp, terminal: SandyTerminal, text: string): Promise<boolean> {
            const at = await locate(terminal, text);
            await app.page.mouse.move(at.x, at.y > at.screenTop + 2 * at.rowHeight ? at.y - 2 * at.rowHeight : at.y + 2 * at.rowHeight);
            await app.page.mouse.move(at.x, at.y - 3);
            await app.page.mouse.move(at.x, at.y);
            await new Promise(resolve => setTimeout(resolve, 300));
            return terminal.widget.locator('.xterm-screen.xterm-cursor-pointer, .xterm.xterm-cursor-pointer').count().then(n => n > 0);
        }

        async function click(app: SandyApp, terminal: SandyTerminal, text: string): Promise<void> {
            await hover(app, terminal, text);
            await app.page.mouse.down();
            await app.page.mouse.up();
        }

        /** The editor tabs of the main area, by label. */
        async function editorTabs(app: SandyApp): Promise<string[]> {
            return (await app.page.locator('#theia-main-content-panel .lm-TabBar-tab .lm-TabBar-tabLabel').allTextContents()).map(t => t.trim());
        }

        it('command:, javascript:, data: and file: outside the workspace are no links; http opens only after a click and a confirmation', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await openHostTerminal(app);
            const hostTerminals = await app.page.locator(HOST_TERMINALS).count();
            const popups: string[] = [];
            app.page.context().on('page', p => popups.push(p.url()));

            const refused: Array<[string, string]> = [
                ['command:terminal:new', 'cmd-link-e2e'],
                [`command:workbench.action.terminal.sendSequence?${encodeURIComponent(JSON.stringify({ text: `touch ${marker}\n` }))}`, 'seq-link-e2e'],
                ['javascript:alert(1)', 'js-link-e2e'],
                ['data:text/html,<b>x</b>', 'data-link-e2e'],
                ['file:///etc/passwd', 'passwd-link-e2e'],
                [`file://${ide.workspace}/../../../../etc/passwd`, 'dotdot-link-e2e']
            ];
            const tabsBefore = await editorTabs(app);
            await agent(terminal, 'echo links-e2e', /^links-e2e$/m);
            for (const [url, text] of refused) {
                await agent(terminal, `tmux osc8 ${url} ${text}`, new RegExp(`^${text}$`, 'm'), false);
                expect(await hover(app, terminal, text), `${url} offered as a link`).to.equal(false);
                await click(app, terminal, text);
            }
            await assertNoHarm(app, hostTerminals);
            expect(popups, 'windows opened').to.deep.equal([]);
            expect(await editorTabs(app), 'editor tabs after clicking the refused links').to.deep.equal(tabsBefore);
            expect(hits, 'requests to the web link').to.deep.equal([]);

            // A path inside the workspace is a link; the planted symlink under it leads out, so the click opens nothing.
            await agent(terminal, `tmux osc8 file://${ide.workspace}/${ESCAPE_LINK} symlink-link-e2e`, /^symlink-link-e2e$/m, false);
            await click(app, terminal, 'symlink-link-e2e');
            await app.notifications().waitFor('points outside the project folder');
            expect(await editorTabs(app), 'editor tabs after clicking the symlink link').to.deep.equal(tabsBefore);

            await agent(terminal, `tmux osc8 ${webUrl} web-link-e2e`, /^web-link-e2e$/m, false);
            // The web link is a link, but nothing is fetched until the user clicks it and confirms the exact URL.
            expect(await hover(app, terminal, 'web-link-e2e'), 'the http link offered as a link').to.equal(true);
            await holdsFor(() => hits.length === 0 && popups.length === 0, 1_000, 'no request before the click');
            await click(app, terminal, 'web-link-e2e');
            const dialog = app.page.locator('.dialogOverlay');
            await dialog.waitFor({ state: 'visible' });
            expect(await dialog.textContent()).to.contain(webUrl);
            expect(hits, 'requests while the confirmation is open').to.deep.equal([]);
            await dialog.locator('button.main').click();
            await app.poll(() => hits.includes('/agent-link-e2e'), 'the confirmed link to open');
        });

        it('a file: link inside the workspace opens in an editor', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await agent(terminal, `tmux osc8 file://${ide.workspace}/README.md readme-link-e2e`, /^readme-link-e2e$/m);
            expect(await hover(app, terminal, 'readme-link-e2e'), 'the file link offered as a link').to.equal(true);
            await click(app, terminal, 'readme-link-e2e');
            await app.poll(async () => (await editorTabs(app)).includes('README.md'), 'README.md to open in an editor');
        });
    });
});
