/**
 * Daemon sessions end to end (issue 10): the built browser-app backend, headless chromium and the
 * fake sandy in daemon mode (`sandy --start` / `--attach` / `--stop`; its "containers" are records
 * in `$SANDY_HOME/.fake-docker`, its supervisor runs the agent and holds the workspace lock). See
 * sandy-ide.e2e-spec.ts for the set-up. Every test asserts what the user sees and what really
 * happened: which sandy processes run (/proc), the lock, the container records, the clipboard, and
 * what a terminal of the user's own got.
 *
 * The tests share one backend and HOME; each brings its sessions to the state it needs, and the
 * clean-up after each ends every daemon session it left (`sandy --stop`, then SIGKILL).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { E2eBrowser } from './browser';
import { useSandyIde } from './suite';
import { pidAlive, SandyIde } from './harness';
import { holdsFor, poll } from '../support/poll';
import { parentOf } from '../support/proc-stat';
import { isGone } from '../support/processes';
import { SandyApp } from './page-objects/sandy-app';
import { SandyTerminal } from './page-objects/sandy-terminal';
import { THEIA_TOASTS, ToastLog } from './page-objects/theia-widgets';

const SHELL_PROJECT = 'shell-proj';

const BURST = Array.from({ length: 10 }, (_, i) => `burst-${String(i + 1).padStart(2, '0')}`);
/** The tab's exit line after Stop of a daemon session (labels.ts describeExit). */
const DAEMON_STOPPED = 'The daemon session was stopped (sandy --stop).';
/** How long "nothing happens" is watched after a reload or a reattach. */
const QUIET_MS = 2_000;

describe('Daemon sessions (end to end)', () => {
    const suite = useSandyIde({
        label: 'daemon',
        // More projects known from the start (as after Add Project): one for a shell's session, ten for the burst.
        seed: ide => {
            const projects = [SHELL_PROJECT, ...BURST].map(name => {
                const workspace = path.join(path.dirname(ide.workspace), name);
                fs.mkdirSync(workspace, { recursive: true });
                fs.writeFileSync(path.join(workspace, 'README.md'), `# ${name}\n`);
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

    function workspaceOf(name: string): string {
        return path.join(path.dirname(ide.workspace), name);
    }

    /** The project's terminal, its session up and drawn (launched now, or the running one shown). */
    async function openSession(app: SandyApp, name = ide.projectName): Promise<SandyTerminal> {
        const terminal = await app.launch(name);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${workspaceOf(name)}`);
        return terminal;
    }

    /** The row's state and its words (aria-label: `<name>, <state text>`). */
    async function rowState(app: SandyApp, name: string): Promise<{ state: string | null; label: string | null }> {
        const row = app.projectRow(name);
        return { state: await row.getAttribute('data-state', { timeout: 1000 }), label: await row.getAttribute('aria-label', { timeout: 1000 }) };
    }

    /** Stop from the project's context menu; then nothing of the session is left anywhere. */
    async function stopAndExpectNothingLeft(app: SandyApp, terminal: SandyTerminal, name: string, supervisor: number): Promise<void> {
        const workspace = workspaceOf(name);
        await app.projectMenu(name, 'Stop');
        await terminal.activate();
        await terminal.waitForText(DAEMON_STOPPED);
        expect(await terminal.banner.textContent()).to.contain(DAEMON_STOPPED);
        await app.poll(() => isGone(supervisor), `the supervisor ${supervisor} to exit`);
        let left: string[] = [];
        await app.poll(() => {
            left = [...ide.leftovers(workspace), ...ide.strayProcesses()];
            return left.length === 0;
        }, `no sandy process, lock or container of ${name} to remain`).catch(e => {
            throw new Error(`${(e as Error).message}; left: ${JSON.stringify(left)}`);
        });
        expect(fs.existsSync(ide.lockDirOf(workspace)), 'the workspace lock').to.equal(false);
        expect(ide.containers(workspace), 'container records').to.deep.equal([]);
        await app.poll(async () => (await rowState(app, name)).state !== 'running', `${name} to be listed as not running`);
        await app.poll(async () => (await terminal.title()) === `sandy: ${name} (ended)`, 'the tab title to say (ended)');
    }

    it('outlives kill -9 of the backend: listed as running, its tab back with the screen, typing reaches the agent, Stop leaves nothing', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        const terminal = await openSession(app);
        const before = await ide.attachedDaemon();
        await app.poll(async () => (await app.statusBar().activeSession())?.startsWith('daemon · '), 'the status bar to show the daemon session');
        await terminal.enter('echo before-crash-e2e');
        await terminal.waitForText(/^before-crash-e2e$/m);

        const backend = ide.backendPid!;
        await ide.restartBackend();
        expect(pidAlive(backend), `the killed backend ${backend}`).to.equal(false);
        // The session did not go with the backend: same supervisor, same container; only the old
        // backend's attach client ended with its PTY.
        expect(pidAlive(before.supervisor), `supervisor ${before.supervisor}`).to.equal(true);
        expect(ide.containers(ide.workspace).map(c => c.id)).to.deep.equal([before.container.id]);
        await poll(() => isGone(before.clients[0]), { message: `the old backend's attach client ${before.clients[0]} to end`, timeout: 10_000 });

        // The open page reconnects by itself (no reload): the new backend finds the session, attaches
        // again and the same tab shows it, live.
        await app.poll(async () => !/\bOffline\b/.test(await app.statusBar().text()), 'the page to be back online', { timeout: 60_000 });
        const after = await ide.attachedDaemon(ide.workspace, { not: before.clients[0] });
        expect(after.supervisor).to.equal(before.supervisor);
        expect(after.container.id).to.equal(before.container.id);
        await app.openSandyView();
        await app.poll(async () => {
            const { state, label } = await rowState(app, ide.projectName);
            return state === 'running' && label === `${ide.projectName}, Running — daemon session, in a Sandy terminal tab`;
        }, 'the project to be listed as a running daemon session shown in a tab', { timeout: 30_000 });
        expect(await app.terminalTabs(ide.projectName).count()).to.equal(1);
        await terminal.activate();
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`, 30_000);
        await terminal.enter('echo after-restart-e2e');
        await terminal.waitForText(/^after-restart-e2e$/m);

        // A reload after the restart: the restored tab finds the session in the new backend and
        // shows its screen from the replay (a fresh page has nothing else to show).
        await app.reload();
        const restored = await app.terminal(ide.projectName, 30_000);
        await restored.activate();
        await restored.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        await restored.enter('echo after-reload-e2e');
        await restored.waitForText(/^after-reload-e2e$/m);
        // Still the one session and the new backend's one client: the reload started nothing.
        expect(ide.runningDaemon()?.clients).to.deep.equal(after.clients);
        expect(ide.supervisors()).to.deep.equal([before.supervisor]);

        await stopAndExpectNothingLeft(app, restored, ide.projectName, before.supervisor);
    });

    it('reload and close-tab + Reattach fire no old notification again and leave the clipboard alone', async () => {
        const app = await browser.openApp(ide);
        const toasts = await ToastLog.install(app.page, THEIA_TOASTS);
        const terminal = await openSession(app);
        await ide.attachedDaemon();
        const ping = `sandy (${ide.projectName}): replay-ping-e2e`;

        // The agent notifies once: one toast. Cleared, so the same message coming back would be a new toast.
        // While the user looks away (a notification whose tab has the focus is no toast).
        const asks = ide.cue('osc9 replay-ping-e2e');
        await terminal.enter(asks.line);
        await terminal.waitForText(asks.echo);
        await app.lookAway();
        asks.give();
        const toast = await app.notifications().waitFor(ping);
        expect(toasts.count(ping), JSON.stringify(toasts.all)).to.equal(1);
        await app.notifications().clear(toast);

        // The agent writes the clipboard once (OSC 52 works live); then the user copies something else.
        await terminal.enter('osc52 replay-clip-e2e');
        await app.poll(async () => await app.page.evaluate(() => navigator.clipboard.readText()) === 'replay-clip-e2e', 'the clipboard to hold the agent\'s text');
        const sentinel = `sentinel-${Date.now().toString(36)}`;
        await app.page.evaluate(text => navigator.clipboard.writeText(text), sentinel);
        const clipboard = (): Promise<string> => app.page.evaluate(() => navigator.clipboard.readText());
        const untouched = async (when: string): Promise<void> => {
            await holdsFor(async () => toasts.count(ping) === 1 && await clipboard() === sentinel, QUIET_MS,
                `one "${ping}" toast in all and the clipboard still holding ${sentinel} ${when}`);
        };

        // Reload: the restored tab is filled from the session's screen, and nothing of the past fires.
        await app.reload();
        const restored = await app.terminal(ide.projectName, 30_000);
        await restored.activate();
        await restored.waitForText('[osc52 sent]');
        await restored.enter('echo after-reload-e2e');
        await restored.waitForText(/^after-reload-e2e$/m);
        await untouched('after the reload');

        // Close the tab and Reattach in the same page: the same.
        await restored.tab.locator('.lm-TabBar-tabCloseIcon').click();
        await app.poll(async () => await app.terminalTabs(ide.projectName).count() === 0, 'the closed tab to go');
        await app.projectMenu(ide.projectName, 'Reattach');
        const again = await app.terminal(ide.projectName);
        await again.activate();
        await again.waitForText(/^after-reload-e2e$/m);
        await again.enter('echo reattached-e2e');
        await again.waitForText(/^reattached-e2e$/m);
        await untouched('after close + Reattach');

        // The notification path still works: a new ping is a new toast (the count above could see one).
        const asksAgain = ide.cue('osc9 fresh-ping-e2e');
        await again.enter(asksAgain.line);
        await again.waitForText(asksAgain.echo);
        await app.lookAway();
        asksAgain.give();
        await app.notifications().waitFor(`sandy (${ide.projectName}): fresh-ping-e2e`);
        expect(toasts.count(ping), JSON.stringify(toasts.all)).to.equal(1);
    });

    it('shows a session started with sandy --start in a shell as started outside the IDE; Attach shows it, Stop ends it', async () => {
        const workspace = workspaceOf(SHELL_PROJECT);
        const shell = ide.runInTerminal(['--start'], workspace);
        const exit = await poll(() => shell.exit, { message: 'the shell\'s sandy --start to finish', timeout: 60_000 });
        expect(exit.code, shell.output).to.equal(0);
        expect(shell.output).to.contain('Daemon session ready:');
        const started = await poll(() => ide.runningDaemon(workspace), { message: `the daemon session of ${workspace}` });
        expect(started.clients).to.deep.equal([]);

        const app = await browser.openApp(ide);
        await app.openSandyView();
        await app.poll(async () => {
            const { state, label } = await rowState(app, SHELL_PROJECT);
            return state === 'running' && label === `${SHELL_PROJECT}, Running — daemon session, started outside the IDE, no tab shows it (Reattach)`;
        }, `${SHELL_PROJECT} to be listed as running, started outside the IDE`);
        // Listed, not taken: nobody attached to it yet.
        expect(ide.attachClients(workspace)).to.deep.equal([]);

        await app.projectMenu(SHELL_PROJECT, 'Reattach');
        const terminal = await app.terminal(SHELL_PROJECT);
        await terminal.activate();
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${workspace}`);
        const attached = await ide.attachedDaemon(workspace);
        expect(attached.supervisor).to.equal(started.supervisor);
        await terminal.enter('echo from-the-ide-e2e');
        await terminal.waitForText(/^from-the-ide-e2e$/m);
        await app.poll(async () => (await rowState(app, SHELL_PROJECT)).label === `${SHELL_PROJECT}, Running — daemon session, started outside the IDE, in a Sandy terminal tab`,
            'the row to say a tab shows it');

        await stopAndExpectNothingLeft(app, terminal, SHELL_PROJECT, started.supervisor);
    });

    it('ten launches clicked within two seconds all run (launches queue through sandy\'s build)', async function () {
        this.timeout(300_000);
        const app = await browser.openApp(ide);
        // The rows' second line (path · agent · state) changes height as ten sessions start, which would move the
        // rows under the clicks measured beforehand: this test is about the launches, so the rows keep one line.
        await app.page.addStyleTag({ content: '.sandy-project-description { display: none !important; }' });
        await app.openSandyView();
        for (const name of BURST) {
            await app.projectRow(name).waitFor({ state: 'visible' });
        }
        // Watch the process table while they start: never two `sandy --start` clients at once. Its
        // supervisor carries `--start` too and lives on (only the clients are the build step), and
        // a child it is forking shows its parent's command line until it execs: both are left out.
        let mostStarts = 0;
        let overlap = '';
        let watching = true;
        // Bounded: a failed expectation below must not leave this loop keeping mocha alive.
        const watchUntil = Date.now() + 300_000;
        const watcher = (async () => {
            while (watching && Date.now() < watchUntil) {
                const candidates = ide.sandyProcesses().filter(p => p.args[0] === '--start' && !p.supervisor);
                const pids = new Set(candidates.map(p => p.pid));
                const starts = candidates.filter(p => !pids.has(parentOf(p.pid) ?? 0));
                if (starts.length > mostStarts) {
                    mostStarts = starts.length;
                    overlap = JSON.stringify(starts.map(p => ({ pid: p.pid, cwd: p.cwd && path.basename(p.cwd), args: p.args, ppid: parentOf(p.pid) })));
                }
                await new Promise(resolve => setTimeout(resolve, 25));
            }
        })();
        // Where each row is, once the view has stopped moving (each point must land on its row's
        // name), then ten clicks of the mouse in a row, as fast as a user clicks down a list.
        const measure = async (): Promise<Array<{ x: number; y: number }>> => {
            const centres: Array<{ x: number; y: number }> = [];
            for (const name of BURST) {
                const box = (await app.projectRow(name).locator('.sandy-project-name').boundingBox())!;
                centres.push({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
            }
            return centres;
        };
        await app.projectRow(BURST[BURST.length - 1]).scrollIntoViewIfNeeded();
        // The user's hand is on the list already: a click in its empty part below the rows gives the
        // view focus (the first click into a side panel that is not active may not reach a row).
        const lastRow = (await app.projectRow(BURST[BURST.length - 1]).boundingBox())!;
        const below = { x: lastRow.x + 20, y: lastRow.y + lastRow.height * 3 };
        expect(await app.page.evaluate(p => {
            const hit = document.elementFromPoint(p.x, p.y);
            return !!hit?.closest('#theia-left-side-panel') && !hit.closest('.sandy-project-row');
        }, below), 'the point below the rows is in the side panel, on no row').to.equal(true);
        await app.page.mouse.click(below.x, below.y);
        await new Promise(resolve => setTimeout(resolve, 500));
        let last = '';
        const centres = await app.poll(async () => {
            const now = await measure();
            const hits = await app.page.evaluate(points => points.map(p => document.elementFromPoint(p.x, p.y)?.textContent ?? ''), now);
            const settled = JSON.stringify(now) === last && hits.every((text, i) => text === BURST[i]);
            last = JSON.stringify(now);
            return settled ? now : undefined;
        }, 'the Projects rows to stay where they are', { interval: 300 });
        // The clicks go out as a user's hand makes them, without waiting for the page to have handled
        // the one before (Playwright's mouse waits for each; a page busy opening tabs makes that ~0.2 s
        // a click on a loaded machine). The page records which row each click reached.
        await app.page.evaluate(() => {
            const w = window as unknown as { __e2eRowClicks: string[] };
            w.__e2eRowClicks = [];
            document.addEventListener('click', e => {
                const row = (e.target as Element | null)?.closest('.sandy-project-row');
                w.__e2eRowClicks.push(row?.querySelector('.sandy-project-name')?.textContent ?? `(not a row: ${(e.target as Element | null)?.className})`);
            }, true);
        });
        const cdp = await app.page.context().newCDPSession(app.page);
        const sent: Array<Promise<unknown>> = [];
        const first = Date.now();
        for (const { x, y } of centres) {
            sent.push(cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y }));
            sent.push(cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 }));
            sent.push(cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 }));
            await new Promise(resolve => setTimeout(resolve, 50));
        }
        const clicking = Date.now() - first;
        await Promise.all(sent);
        await cdp.detach();
        expect(clicking, 'the ten clicks took').to.be.below(2_000);
        expect(await app.page.evaluate(() => (window as unknown as { __e2eRowClicks: string[] }).__e2eRowClicks), 'the rows the clicks reached').to.deep.equal(BURST);

        try {
            let pending: string[] = [];
            await app.poll(() => {
                pending = BURST.filter(name => ide.runningDaemon(workspaceOf(name))?.clients.length !== 1);
                return pending.length === 0;
            }, 'ten daemon sessions, each with its supervisor, container and attach client', { timeout: 180_000, interval: 500 }).catch(async e => {
                const tabs = await app.page.locator('#theia-main-content-panel .lm-TabBar-tab .lm-TabBar-tabLabel').allTextContents();
                const details: string[] = [];
                for (const name of pending) {
                    const terminal = await app.terminal(name, 1_000).catch(() => undefined);
                    await terminal?.activate().catch(() => undefined);
                    const screen = terminal ? (await terminal.text().catch(() => '')).split('\n').filter(Boolean).slice(-8).join(' | ') : '(no tab)';
                    const banner = terminal && await terminal.banner.isVisible() ? await terminal.banner.textContent() : '';
                    details.push(`${name}: left ${JSON.stringify(ide.leftovers(workspaceOf(name)))}; banner "${banner}"; screen: ${screen}`);
                }
                throw new Error(`${(e as Error).message}; not running: ${pending.join(', ')}; tabs: ${JSON.stringify(tabs)}\n${details.join('\n')}`);
            });
        } finally {
            watching = false;
            await watcher;
        }
        expect(mostStarts, `sandy --start clients at once (${overlap})`).to.equal(1);
        for (const name of BURST) {
            const terminal = await app.terminal(name);
            await terminal.activate();
            await terminal.waitForText(`fake sandy 1.7.1-dev — ${workspaceOf(name)}`);
            expect(await terminal.title()).to.equal(`sandy: ${name}`);
            expect(await terminal.banner.isVisible(), `${name}'s banner`).to.equal(false);
            expect(await app.terminalTabs(name).count(), `${name}'s tabs`).to.equal(1);
        }
        // Most tabs were covered by the next one before they were drawn: they launched at the size of
        // the sandy tabs beside them, which is their own (no default 80×24 for the agent to draw into).
        for (const name of [BURST[0], BURST[4]]) {
            const terminal = await app.terminal(name);
            await terminal.activate();
            const geometry = await terminal.geometry();
            expect(await terminal.reportedSize(), `${name}'s PTY size`).to.deep.equal(geometry);
            expect(geometry).to.not.deep.equal({ rows: 24, cols: 80 });
        }
        await app.poll(async () => await app.statusBar().sessionCount() === BURST.length, `the status bar to count ${BURST.length} sessions`);
        for (const name of BURST) {
            expect((await rowState(app, name)).state, name).to.equal('running');
        }
    });

    it('says when another terminal ran sandy --attach on the session, and Take Back shows it in the IDE again', async () => {
        const app = await browser.openApp(ide);
        const terminal = await openSession(app);
        const ours = await ide.attachedDaemon();

        // Last attach wins in sandy: the shell's client takes the session, the IDE's client is told to detach.
        const shell = ide.runInTerminal(['--attach']);
        await poll(() => shell.output.includes(`fake sandy 1.7.1-dev — ${ide.workspace}`), { message: 'the shell\'s client to show the session' });
        await poll(() => isGone(ours.clients[0]), { message: `the IDE's attach client ${ours.clients[0]} to be detached` });
        await app.poll(async () => await terminal.banner.isVisible()
            && (await terminal.banner.textContent() ?? '').startsWith('Attached in another terminal (sandy --attach there took it over).'),
        'the tab\'s banner to say it is attached in another terminal');
        expect((await terminal.relaunchButton.textContent())?.trim()).to.equal('Take Back');
        expect(ide.attachClients(ide.workspace)).to.deep.equal([shell.pid]);
        // Typing in the tab does not reach the agent meanwhile; the shell's typing does.
        shell.write('echo from-the-shell-e2e\r');
        await poll(() => /(^|\n)from-the-shell-e2e\r?\n/.test(shell.output), { message: 'the shell\'s typing to reach the agent' });

        await terminal.relaunchButton.click();
        // The IDE's new client takes it back; the shell's client is detached (exit 3, as sandy --attach says).
        const exit = await poll(() => shell.exit, { message: 'the shell\'s sandy --attach to be detached' });
        expect(exit.code, shell.output.slice(-500)).to.equal(3);
        expect(shell.output).to.contain('[detached (from session sandy)]');
        const back = await ide.attachedDaemon(ide.workspace, { not: ours.clients[0] });
        expect(back.supervisor).to.equal(ours.supervisor);
        await app.poll(async () => !await terminal.banner.isVisible(), 'the banner to go');
        await terminal.enter('echo taken-back-e2e');
        await terminal.waitForText(/^taken-back-e2e$/m);
    });
});
