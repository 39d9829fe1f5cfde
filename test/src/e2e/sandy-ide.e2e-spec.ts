/**
 * The Sandy IDE end to end: the built browser-app backend, headless chromium, and the fake sandy
 * (test/fake-sandy) standing in for sandy + Docker. Tests assert what a user would see (DOM) and
 * what really happened (processes, lock files, clipboard, HTTP status), and wait by polling.
 *
 * Each test opens its own windows (fresh browser contexts) and brings the session to the state it
 * needs, so one test can run alone (`--grep`). They share one backend, so sessions started by one
 * test are still running in the next — as they would for a user.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import { E2eBrowser } from './browser';
import { useSandyIde } from './suite';
import { pidAlive, SandyIde } from './harness';
import { httpGet, tryWebSocket } from './http-probe';
import { poll } from '../support/poll';
import { escapeRegExp, SandyApp } from './page-objects/sandy-app';
import { SandyTerminal } from './page-objects/sandy-terminal';

/** kill(pid, 0) must fail with ESRCH: the process is really gone, not merely unreachable. */
function processGone(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return false;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
}

describe('Sandy IDE (end to end)', () => {
    const suite = useSandyIde({ label: 'main' });
    let ide: SandyIde;
    let browser: E2eBrowser;

    before(() => {
        ({ ide, browser } = suite);
    });

    /** The project's terminal, its session up and drawn (launched now, or the running one shown). */
    async function openSession(app: SandyApp): Promise<SandyTerminal> {
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        return terminal;
    }

    /** The pid shown in the status bar for the focused sandy tab. */
    function activePid(app: SandyApp): Promise<number> {
        return app.poll(() => app.statusBar().activePid(), 'the status bar to show the session pid');
    }

    describe('Projects view', () => {
        it('lists the open workspace as a fresh project with its ~ path', async () => {
            const app = await browser.openApp(ide);
            await app.openSandyView();
            const row = app.projectRow(ide.projectName);
            await row.waitFor({ state: 'visible' });
            // Nothing has been launched yet in this HOME: no sandbox, so "fresh".
            expect(await row.getAttribute('data-state')).to.equal('fresh');
            expect(await row.getAttribute('data-project-key')).to.match(new RegExp(`^${ide.projectName}-[0-9a-f]{8}$`));
            expect((await row.locator('.sandy-project-description').textContent())?.trim()).to.equal(`~/work/${ide.projectName}`);
            expect(await app.page.locator('#sandy-projects .sandy-not-found').count()).to.equal(0);
        });
    });

    describe('a sandy session in a terminal tab', () => {
        it('launches on click, sizes the PTY to the tab and passes typing through', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            expect(await terminal.title()).to.equal(`sandy: ${ide.projectName}`);
            expect(await terminal.isCurrent()).to.equal(true);

            // Side effects: a real process holds sandy's workspace lock.
            const pid = await activePid(app);
            expect(pidAlive(pid), `sandy pid ${pid} alive`).to.equal(true);
            await app.poll(() => ide.lockHolder() === pid, `the workspace lock to name pid ${pid}`);
            expect(await app.statusBar().sessionCount()).to.equal(1);

            // The PTY has the tab's size, not a default 80×24.
            const geometry = await terminal.geometry();
            expect(await terminal.reportedSize()).to.deep.equal(geometry);
            expect(geometry).to.not.deep.equal({ rows: 24, cols: 80 });

            // ...and follows the tab when the window changes size (the fake redraws its box on SIGWINCH).
            await app.page.setViewportSize({ width: 1000, height: 640 });
            const resized = await app.poll(async () => {
                const g = await terminal.geometry();
                return g.cols !== geometry.cols && g.rows !== geometry.rows ? g : undefined;
            }, 'the xterm to refit to the smaller window');
            await terminal.waitForText(`size: ${resized.rows}\u00d7${resized.cols}`);
            expect(await terminal.reportedSize()).to.deep.equal(await terminal.geometry());

            await terminal.enter('echo hello-e2e');
            await terminal.waitForText(/^hello-e2e$/m);

            // sandy's environment is the whitelist plus sandy.passEnvironment, not the IDE's own.
            await terminal.enter('env');
            await terminal.waitForText(new RegExp(`^HOME=${escapeRegExp(ide.home)}$`, 'm'));
            const env = await terminal.text();
            expect(env).to.match(/^FAKE_SANDY_DOCKER=1$/m);
            expect(env).to.not.match(/^SANDY_IDE_/m);

            // Ctrl keys belong to sandy while its tab has focus: Ctrl-C reaches the TUI (which
            // echoes ^C and drops the line) instead of Theia's Copy; Ctrl-L redraws instead of nothing.
            await terminal.focus();
            await app.page.keyboard.type('half-typed');
            await app.page.keyboard.press('Control+C');
            await terminal.waitForText(/half-typed\^C$/m);
            await terminal.enter('echo after-ctrl-c');
            await terminal.waitForText(/^after-ctrl-c$/m);
        });
    });

    describe('notifications', () => {
        it('turns OSC 9 into a notification with Show, and marks the tab unread when it is not in view', async () => {
            const first = await browser.openApp(ide);
            const firstTerminal = await openSession(first);

            // Focused tab: a notification, but nothing to mark.
            await firstTerminal.enter('osc9 focused-ping-e2e');
            const focusedToast = await first.notifications().waitFor(`sandy (${ide.projectName}): focused-ping-e2e`);
            expect(await first.notifications().action(focusedToast, 'Show').isVisible()).to.equal(true);
            expect(await firstTerminal.title()).to.equal(`sandy: ${ide.projectName}`);

            // The tab out of view: the agent pings while the user reads the Welcome page. The keystrokes
            // come from a second window on the same session, since this one's keyboard is elsewhere.
            await first.focusWelcomeTab();
            const second = await browser.openApp(ide);
            const secondTerminal = await openSession(second);
            await secondTerminal.enter('osc9 ping-e2e');

            const toast = await first.notifications().waitFor(`sandy (${ide.projectName}): ping-e2e`);
            await first.poll(async () => (await firstTerminal.title()) === `● sandy: ${ide.projectName}`, 'the tab title to get the ● prefix');
            // The window whose tab had focus shows the notification too, without the mark.
            await second.notifications().waitFor(`sandy (${ide.projectName}): ping-e2e`);
            expect(await secondTerminal.title()).to.equal(`sandy: ${ide.projectName}`);

            // Show brings the tab back and clears the mark.
            await first.notifications().action(toast, 'Show').click();
            await first.poll(() => firstTerminal.isCurrent(), 'Show to bring the sandy tab to the front');
            await first.poll(async () => (await firstTerminal.title()) === `sandy: ${ide.projectName}`, 'the ● prefix to go');
        });

        it('copies OSC 52 text to the browser clipboard', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await app.page.evaluate(() => navigator.clipboard.writeText('before-e2e'));
            await terminal.enter('osc52 clip-e2e');
            await terminal.waitForText('[osc52 sent]');
            await app.poll(async () => (await app.page.evaluate(() => navigator.clipboard.readText())) === 'clip-e2e', 'the clipboard to hold clip-e2e');
        });
    });

    describe('lifecycle', () => {
        it('stops the session from the command palette, then relaunches it', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await terminal.focus();
            const pid = await activePid(app);
            await app.poll(() => ide.lockHolder() === pid, `the workspace lock to name pid ${pid}`);

            await app.commandPalette().run('Sandy: Stop');

            await app.poll(() => processGone(pid), `sandy pid ${pid} to exit (kill -0 → ESRCH)`);
            await app.poll(() => !fs.existsSync(ide.lockDir), `the lock ${ide.lockDir} to be released`);
            await terminal.waitForText(/^sandy stopped \(.*\)\.$/m);
            expect(await terminal.banner.isVisible()).to.equal(true);
            expect(await terminal.banner.textContent()).to.match(/^sandy stopped/);
            await app.poll(async () => (await terminal.title()) === `sandy: ${ide.projectName} (ended)`, 'the tab title to say (ended)');
            await app.poll(async () => await app.statusBar().sessionCount() === 0, 'the status bar to count no sessions');
            expect(ide.sandySessions()).to.deep.equal([]);

            await terminal.relaunchButton.click();
            await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
            const newPid = await app.poll(async () => {
                const p = await app.statusBar().activePid();
                return p !== undefined && p !== pid ? p : undefined;
            }, 'a new session pid in the status bar');
            expect(pidAlive(newPid)).to.equal(true);
            await app.poll(() => ide.lockHolder() === newPid, `the lock to name the new pid ${newPid}`);
            expect(await terminal.banner.isVisible()).to.equal(false);
            expect(await terminal.title()).to.equal(`sandy: ${ide.projectName}`);
            expect(await app.statusBar().sessionCount()).to.equal(1);
        });

        it('reattaches after a reload without a new process, and from a second window', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await terminal.enter('echo before-reload-e2e');
            await terminal.waitForText(/^before-reload-e2e$/m);
            const pid = await activePid(app);
            expect(ide.sandySessions()).to.deep.equal([pid]);

            await app.reload();
            // The layout restorer brings the tab back; the Welcome page may be in front of it.
            const restored = await app.terminal(ide.projectName, 30_000);
            await restored.activate();
            await restored.waitForText(/^before-reload-e2e$/m);
            expect(await activePid(app)).to.equal(pid);
            expect(ide.sandySessions()).to.deep.equal([pid]);
            expect(ide.lockHolder()).to.equal(pid);
            await restored.enter('echo after-reload-e2e');
            await restored.waitForText(/^after-reload-e2e$/m);

            // A second window (fresh profile, nothing restored) joins through the Projects menu.
            const second = await browser.openApp(ide);
            await second.openSandyView();
            await second.poll(async () => await second.projectRow(ide.projectName).getAttribute('data-state', { timeout: 1000 }) === 'running', 'the project to show as running');
            await second.projectMenu(ide.projectName, 'Reattach');
            const joined = await second.terminal(ide.projectName);
            await joined.waitForText(/^after-reload-e2e$/m);
            expect(await activePid(second)).to.equal(pid);
            await joined.enter('echo from-second-window-e2e');
            await joined.waitForText(/^from-second-window-e2e$/m);
            // Both windows view the one session.
            await restored.waitForText(/^from-second-window-e2e$/m);
            expect(ide.sandySessions()).to.deep.equal([pid]);

            // Close the tab (it only detaches) and Reattach in the same page: a live tab, not a blank one
            // whose channel collides with the closed tab's.
            await joined.tab.locator('.lm-TabBar-tabCloseIcon').click();
            await second.poll(async () => await second.terminalTabs(ide.projectName).count() === 0, 'the closed tab to go');
            await second.projectMenu(ide.projectName, 'Reattach');
            const again = await second.terminal(ide.projectName);
            await again.waitForText(/^from-second-window-e2e$/m);
            await again.enter('echo reattached-same-page-e2e');
            await again.waitForText(/^reattached-same-page-e2e$/m);
            await restored.waitForText(/^reattached-same-page-e2e$/m);
            expect(ide.sandySessions()).to.deep.equal([pid]);
        });
    });

    describe('host guard', () => {
        it('refuses a foreign Origin or Host and accepts the IDE\'s own', async () => {
            const own = `127.0.0.1:${ide.port}`;
            const evil = `evil.example:${ide.port}`;

            expect((await httpGet(ide.port, '/', { Host: evil })).status, 'GET with a foreign Host').to.equal(403);
            expect((await httpGet(ide.port, '/', { Host: own, Origin: 'http://evil.example' })).status, 'GET with a foreign Origin').to.equal(403);
            expect((await httpGet(ide.port, '/', { Host: `localhost:${ide.port}` })).status, 'GET via localhost').to.equal(200);
            const page = await httpGet(ide.port, '/', { Host: own });
            expect(page.status, 'GET with our own Host').to.equal(200);

            // Theia also wants its connection-token cookie (set by the first page load) on every socket;
            // every probe carries it, so a refusal below is the Origin/Host check, not a missing cookie.
            const cookie = page.cookies.join('; ');
            expect(cookie).to.match(/theia-connection-token=/);
            const socketUrl = `ws://127.0.0.1:${ide.port}/socket.io/?EIO=4&transport=websocket`;
            // engine.io answers every refused upgrade with 400.
            const refusedBy = async (headers: Record<string, string>): Promise<void> => {
                const outcome = await tryWebSocket(socketUrl, { Cookie: cookie, ...headers });
                expect(outcome.kind, `${JSON.stringify(headers)} → ${JSON.stringify(outcome)}`).to.not.equal('open');
                if (outcome.kind === 'refused') {
                    expect(outcome.status).to.be.within(400, 499);
                }
            };
            // A foreign page opening a socket to us (cross-site WebSocket hijacking).
            await refusedBy({ Origin: 'http://evil.example' });
            // DNS rebinding: evil.example resolves to 127.0.0.1, so Origin and Host agree — only the Host check stops it.
            await refusedBy({ Origin: `http://${evil}`, Host: evil });

            const accepted = await tryWebSocket(socketUrl, { Cookie: cookie, Origin: ide.origin });
            expect(accepted.kind, JSON.stringify(accepted)).to.equal('open');
            expect(accepted.kind === 'open' && accepted.firstMessage).to.match(/^0\{.*"sid"/);

            // The refusals were the Sandy guard's: it logs each with its reason (the log reaches the file asynchronously).
            for (const reason of ['Origin http://evil.example is not this IDE', `Host ${evil} is not this IDE`]) {
                await poll(() => fs.readFileSync(ide.logFile, 'utf8').includes(`refused WebSocket upgrade: ${reason}`),
                    { message: `the backend log to record "${reason}"`, timeout: 5_000 });
            }
        });
    });
});

describe('Sandy IDE without sandy (end to end)', () => {
    // PATH without the fake (and without any other sandy): sandy is not installed.
    const suite = useSandyIde({ label: 'no-sandy', sandyOnPath: false });

    it('shows the install instructions instead of projects', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        const projects = await app.openSandyView();
        const notFound = projects.locator('.sandy-not-found');
        await notFound.waitFor({ state: 'visible' });
        expect(await notFound.textContent()).to.contain('sandy was not found.');
        expect((await notFound.locator('.sandy-install-command').textContent())?.trim())
            .to.equal('curl -fsSL https://raw.githubusercontent.com/rappdw/sandy/main/install.sh | bash');
        expect(await app.projectRow(ide.projectName).count()).to.equal(0);
    });
});
