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
import { E2eSuite, useSandyIde } from './suite';
import { pidAlive, PROBE_FLAGS, SandyIde } from './harness';
import { httpGet, tryWebSocket } from './http-probe';
import { holdsFor, poll } from '../support/poll';
import { escapeRegExp, SandyApp } from './page-objects/sandy-app';
import { SandyTerminal } from './page-objects/sandy-terminal';
import { THEIA_TOASTS, ToastLog } from './page-objects/theia-widgets';

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

            // Side effects: a daemon session (the default mode) runs: sandy's supervisor holds the
            // workspace lock and owns the container, and the IDE's attach client shows it.
            const daemon = await ide.attachedDaemon();
            expect(pidAlive(daemon.supervisor), `supervisor ${daemon.supervisor} alive`).to.equal(true);
            expect(ide.lockHolder()).to.equal(daemon.supervisor);
            await app.poll(async () => (await app.statusBar().activeSession())?.startsWith('daemon · '), 'the status bar to show the daemon session');
            expect(await app.statusBar().sessionCount()).to.equal(1);

            // The PTY has the tab's size, not a default 80×24. The tab's banner ("Starting the daemon
            // session…") went once the IDE's client attached, and the xterm grew: the new size goes
            // as an RPC and reaches the agent through the attach client's PTY while the keys of
            // `size` travel on the terminal channel, so first wait until the agent has redrawn its
            // box at the tab's size.
            await app.poll(async () => !await terminal.banner.isVisible(), 'the daemon banner to go once attached');
            const geometry = await app.poll(async () => {
                const g = await terminal.geometry();
                return (await terminal.text()).includes(`size: ${g.rows}\u00d7${g.cols}`) ? g : undefined;
            }, 'the agent to draw its box at the tab\'s size');
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
        it('turns OSC 9 into a notification with Show when its tab is not in view, and marks the tab unread; none while it is', async () => {
            const first = await browser.openApp(ide);
            const toasts = await ToastLog.install(first.page, THEIA_TOASTS);
            const firstTerminal = await openSession(first);

            // Focused tab: the user is looking at it — no toast, nothing to mark.
            await firstTerminal.enter('osc9 focused-ping-e2e');
            await firstTerminal.waitForText('[osc9 sent]');
            await holdsFor(async () => toasts.count('focused-ping-e2e') === 0 && await firstTerminal.title() === `sandy: ${ide.projectName}`, 3_000,
                'no toast and no mark for a notification whose tab is in view');

            // The tab out of view: the agent pings while the user reads the Welcome page.
            const ping = ide.cue('osc9 ping-e2e');
            await firstTerminal.enter(ping.line);
            await firstTerminal.waitForText(ping.echo);
            await first.focusWelcomeTab();
            ping.give();
            const toast = await first.notifications().waitFor(`sandy (${ide.projectName}): ping-e2e`);
            await first.poll(async () => (await firstTerminal.title()) === `● sandy: ${ide.projectName}`, 'the tab title to get the ● prefix');

            // Show brings the tab back and clears the mark.
            await first.notifications().action(toast, 'Show').click();
            await first.poll(() => firstTerminal.isCurrent(), 'Show to bring the sandy tab to the front');
            await first.poll(async () => (await firstTerminal.title()) === `sandy: ${ide.projectName}`, 'the ● prefix to go');

            // A second window showing the session (its tab in view there): the user sees it, so no window toasts;
            // the first window's tab, out of view, is still marked.
            await first.focusWelcomeTab();
            const second = await browser.openApp(ide);
            const secondToasts = await ToastLog.install(second.page, THEIA_TOASTS);
            const secondTerminal = await openSession(second);
            await secondTerminal.enter('osc9 seen-in-second-e2e');
            await secondTerminal.waitForText('[osc9 sent]');
            await first.poll(async () => (await firstTerminal.title()) === `● sandy: ${ide.projectName}`, 'the first window\'s tab to be marked');
            await holdsFor(() => toasts.count('seen-in-second-e2e') + secondToasts.count('seen-in-second-e2e') === 0, 3_000,
                'no toast in either window while the session is in view in one');
        });

        it('copies OSC 52 text to the browser clipboard', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await app.page.evaluate(() => navigator.clipboard.writeText('before-e2e'));
            await terminal.enter('osc52 clip-e2e');
            await terminal.waitForText('[osc52 sent]');
            await app.poll(async () => (await app.page.evaluate(() => navigator.clipboard.readText())) === 'clip-e2e', 'the clipboard to hold clip-e2e');
        });

        it('copies an OSC 52 write made in the middle of a flood the tab could not draw (it came after a catch-up frame)', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await app.page.evaluate(() => navigator.clipboard.writeText('before-flood-e2e'));
            // 3.7 MB on the alternate screen: the tab is sent a fraction of it, the rest replaced by frames.
            await terminal.enter('floodclip 50000 mid-flood-e2e');
            await terminal.waitForText('flood done 50000', 90_000);
            await app.poll(async () => (await app.page.evaluate(() => navigator.clipboard.readText())) === 'mid-flood-e2e', 'the clipboard to hold mid-flood-e2e');
            // The tests after this one share the session and look for its header: the fake draws it again.
            await terminal.enter('clear');
            await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        });
    });

    describeLifecycle(() => suite, 'daemon');

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

/**
 * Stop, Relaunch, reload and a second window: the same for both session modes, with what really
 * runs checked per mode. Foreground: one sandy on the IDE's PTY, which holds the lock and shows its
 * pid in the status bar. Daemon: sandy's supervisor (holds the lock, owns the container) and the
 * IDE's one attach client.
 */
function describeLifecycle(getSuite: () => E2eSuite, mode: 'daemon' | 'foreground'): void {
    describe(`lifecycle (${mode} sessions)`, () => {
        let ide: SandyIde;
        let browser: E2eBrowser;

        before(() => {
            ({ ide, browser } = getSuite());
        });

        async function openSession(app: SandyApp): Promise<SandyTerminal> {
            const terminal = await app.launch(ide.projectName);
            await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
            return terminal;
        }

        /** The processes that are the session (the lock holder first), once it holds the lock; the status bar agrees. */
        async function sessionProcesses(app: SandyApp, not?: number): Promise<number[]> {
            if (mode === 'foreground') {
                const pid = await app.poll(async () => {
                    const p = await app.statusBar().activePid();
                    return p !== undefined && p !== not ? p : undefined;
                }, 'the status bar to show the session pid');
                await app.poll(() => ide.lockHolder() === pid, `the workspace lock to name pid ${pid}`);
                return [pid];
            }
            const daemon = await poll(() => {
                const d = ide.runningDaemon();
                return d && d.supervisor !== not && d.clients.length === 1 && d.container.attached === 1 ? d : undefined;
            }, { message: 'the daemon session: its supervisor holding the lock, its container, one attach client', abort: () => ide.deathNotice() });
            await app.poll(async () => (await app.statusBar().activeSession())?.startsWith('daemon · '), 'the status bar to show the daemon session');
            return [daemon.supervisor, ...daemon.clients];
        }

        /** The session's processes as they are now (the same shape as {@link sessionProcesses}). */
        function runningNow(): number[] {
            if (mode === 'foreground') {
                return ide.sandySessions();
            }
            const d = ide.runningDaemon();
            return d ? [d.supervisor, ...d.clients] : [];
        }

        /** How the tab says the session ended after Stop. */
        const STOPPED = mode === 'foreground' ? /^sandy stopped \(.*\)\.$/m : /^The daemon session was stopped \(sandy --stop\)\.$/m;

        it('stops the session from the command palette, then relaunches it', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await terminal.focus();
            const pids = await sessionProcesses(app);

            await app.commandPalette().run('Sandy: Stop');

            for (const pid of pids) {
                await app.poll(() => processGone(pid), `sandy pid ${pid} to exit (kill -0 → ESRCH)`);
            }
            await app.poll(() => !fs.existsSync(ide.lockDir), `the lock ${ide.lockDir} to be released`);
            await terminal.waitForText(STOPPED);
            expect(await terminal.banner.isVisible()).to.equal(true);
            expect(await terminal.banner.textContent()).to.match(new RegExp(STOPPED.source.replace(/\$$/, '')));
            await app.poll(async () => (await terminal.title()) === `sandy: ${ide.projectName} (ended)`, 'the tab title to say (ended)');
            await app.poll(async () => await app.statusBar().sessionCount() === 0, 'the status bar to count no sessions');
            expect(ide.sandySessions()).to.deep.equal([]);
            expect(ide.leftovers(), 'sandy processes, lock and containers left').to.deep.equal([]);

            await terminal.relaunchButton.click();
            await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
            const relaunched = await sessionProcesses(app, pids[0]);
            expect(pidAlive(relaunched[0])).to.equal(true);
            expect(ide.lockHolder()).to.equal(relaunched[0]);
            expect(await terminal.banner.isVisible()).to.equal(false);
            expect(await terminal.title()).to.equal(`sandy: ${ide.projectName}`);
            expect(await app.statusBar().sessionCount()).to.equal(1);
        });

        it('reattaches after a reload without a new process, and from a second window', async () => {
            const app = await browser.openApp(ide);
            const terminal = await openSession(app);
            await terminal.enter('echo before-reload-e2e');
            await terminal.waitForText(/^before-reload-e2e$/m);
            const pids = await sessionProcesses(app);
            expect(runningNow()).to.deep.equal(pids);

            await app.reload();
            // The layout restorer brings the tab back; the Welcome page may be in front of it.
            const restored = await app.terminal(ide.projectName, 30_000);
            await restored.activate();
            await restored.waitForText(/^before-reload-e2e$/m);
            expect(await sessionProcesses(app)).to.deep.equal(pids);
            expect(runningNow()).to.deep.equal(pids);
            expect(ide.lockHolder()).to.equal(pids[0]);
            await restored.enter('echo after-reload-e2e');
            await restored.waitForText(/^after-reload-e2e$/m);

            // A second window (fresh profile, nothing restored) joins through the Projects menu.
            const second = await browser.openApp(ide);
            await second.openSandyView();
            await second.poll(async () => await second.projectRow(ide.projectName).getAttribute('data-state', { timeout: 1000 }) === 'running', 'the project to show as running');
            await second.projectMenu(ide.projectName, 'Reattach');
            const joined = await second.terminal(ide.projectName);
            await joined.waitForText(/^after-reload-e2e$/m);
            // One tab of the session in each window: the second window's Reattach opened none twice.
            expect(await second.terminalTabs(ide.projectName).count(), 'the second window\'s tabs of the session').to.equal(1);
            expect(await app.terminalTabs(ide.projectName).count(), 'the first window\'s tabs of the session').to.equal(1);
            expect(await sessionProcesses(second)).to.deep.equal(pids);
            await joined.enter('echo from-second-window-e2e');
            await joined.waitForText(/^from-second-window-e2e$/m);
            // Both windows view the one session (a daemon's through the IDE's one attach client).
            await restored.waitForText(/^from-second-window-e2e$/m);
            expect(runningNow()).to.deep.equal(pids);

            // Close the tab (it only detaches) and Reattach in the same page: a live tab, not a blank one
            // whose channel collides with the closed tab's.
            await joined.tab.locator('.lm-TabBar-tabCloseIcon').click();
            await second.poll(async () => await second.terminalTabs(ide.projectName).count() === 0, 'the closed tab to go');
            await second.projectMenu(ide.projectName, 'Reattach');
            const again = await second.terminal(ide.projectName);
            await again.waitForText(/^from-second-window-e2e$/m);
            expect(await second.terminalTabs(ide.projectName).count(), 'tabs after the same-page Reattach').to.equal(1);
            await again.enter('echo reattached-same-page-e2e');
            await again.waitForText(/^reattached-same-page-e2e$/m);
            await restored.waitForText(/^reattached-same-page-e2e$/m);
            expect(runningNow()).to.deep.equal(pids);
        });
    });
}

describe('Sandy IDE with foreground sessions (end to end)', () => {
    // The user chose foreground sessions (sandy.sessionMode): sandy on the IDE's PTY, no daemon.
    const suite = useSandyIde({ label: 'foreground', settings: { 'sandy.sessionMode': 'foreground' } });

    describeLifecycle(() => suite, 'foreground');

    it('runs no daemon: no supervisor, no container, sandy itself holds the lock', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        const pid = await app.poll(() => app.statusBar().activePid(), 'the status bar to show the session pid');
        await app.poll(() => ide.lockHolder() === pid, `the workspace lock to name pid ${pid}`);
        const processes = ide.sandyProcesses().filter(p => p.cwd === ide.workspace && !PROBE_FLAGS.has(p.args[0] ?? ''));
        expect(processes.map(p => ({ pid: p.pid, supervisor: p.supervisor, tty: p.tty, daemonClient: p.args.some(a => a === '--start' || a === '--attach') })))
            .to.deep.equal([{ pid, supervisor: false, tty: true, daemonClient: false }]);
        expect(ide.containers().filter(c => c.daemon)).to.deep.equal([]);
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
        // The status bar says so too, and its click is Get Started (closed first: it opened by itself, sandy missing).
        const item = app.page.locator('#theia-statusBar .element', { hasText: 'sandy not found' });
        await item.waitFor({ state: 'visible' });
        expect(await app.statusBar().text(), 'no "Looking for sandy…" once the search ended').to.not.contain('Looking for sandy');
        const wizard = app.page.locator('.sandy-wizard');
        await wizard.waitFor({ state: 'visible' });
        await app.page.locator('#theia-main-content-panel .lm-TabBar-tab[id="shell-tab-sandy-get-started"] .lm-TabBar-tabCloseIcon').click();
        await wizard.waitFor({ state: 'detached' });
        await item.click();
        await wizard.waitFor({ state: 'visible' });
    });
});
