/**
 * Issue 10's "Done when", in the plugin in a real VS Code (code-server 4.100.3, the linux .vsix, in
 * Chromium), against the fake sandy in daemon mode with its Docker engine reported (FAKE_SANDY_DOCKER=1,
 * passed as a user passes variables: the login shell and sandy.passEnvironment):
 *  - kill -9 of code-server (server and extension host, no graceful stop) → code-server started again
 *    on the same user data, extensions and HOME → the page's own "Reload Window" (it cannot reconnect):
 *    the session is listed as running, its tab comes back with the agent's screen, typing reaches the
 *    agent, Stop leaves no process, lock or container;
 *  - close-tab + Reattach and a window reload fire no old notification (toasts counted over the whole
 *    test) and write no old OSC 52 into the clipboard (a sentinel set after the agent's write stays);
 *  - a session started from a shell with `sandy --start` is listed as started outside the IDE,
 *    attached from the tree and stopped from the plugin;
 *  - ten launches clicked within two seconds all run.
 * Every check looks at what really happened too: the fake's container records and supervisors, the
 * attach clients (/proc), the workspace locks, the browser clipboard. (integration)
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { holdsFor } from '@sandy-ui/test/lib/support/poll';
import { parentOf } from '@sandy-ui/test/lib/support/proc-stat';
import { isGone } from '@sandy-ui/test/lib/support/processes';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { FAKE_SANDY_BIN, platformVsix, requireCompiledFake, World } from './world';
import { agentPrinted, terminalBanner as banner, terminalText, ToastLog, typeInTerminal, VSCODE_TOASTS, Workbench } from './workbench';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const CRASH_PROJECT = 'crash-proj';
const REPLAY_PROJECT = 'replay-proj';
const SHELL_PROJECT = 'shell-proj';
const BURST = Array.from({ length: 10 }, (_, i) => `burst-${String(i + 1).padStart(2, '0')}`);
/** The tab's exit line after Stop of a daemon session (core labels.ts describeExit). */
const DAEMON_STOPPED = 'The daemon session was stopped (sandy --stop).';
/** How long "nothing happens" is watched after a reattach or a reload. */
const QUIET_MS = 2_500;

/** A sandy tab's title (`● ` marks unread, ` (ended)` an ended session). */
const isTab = (name: string) => (t: string) => new RegExp(`^(● )?sandy: ${name}( |$)`).test(t);

function cwdOf(pid: number): string {
    try {
        return fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
        return '?';
    }
}

function pidAlive(pid: number): boolean {
    return !isGone(pid);
}

describe('Sandy plugin in code-server: daemon sessions outlive a crash, replay without side effects, come from shells, launch in bursts (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let bench: Workbench;
    let toasts: ToastLog;
    const workspaces = new Map<string, string>();
    const ws = (name: string) => workspaces.get(name)!;

    /** The fake sandy's processes of one workspace, by their first argument (`--attach`, `--start`, the supervisor's `--start --workspace`). */
    function sandyProcessesOf(workspace: string): Array<{ pid: number; cmdline: string }> {
        return world.sandyProcesses().filter(p => {
            if (p.cmdline.includes(`--workspace ${workspace}`)) {
                return true;
            }
            try {
                return fs.readlinkSync(`/proc/${p.pid}/cwd`) === workspace;
            } catch {
                return false;
            }
        });
    }

    /** The `sandy --attach` clients of a workspace (the IDE's, or a shell's). */
    function attachClients(workspace: string): number[] {
        return sandyProcessesOf(workspace).filter(p => / --attach( |$)/.test(p.cmdline)).map(p => p.pid);
    }

    /** The workspace's one daemon container record, once it has exactly `clients` attach clients (sandy's own count). */
    async function daemonWith(workspace: string, clients: number, message: string): Promise<{ id: string; ownerPid: number; sandbox: string }> {
        return poll(() => {
            const records = world.containerRecords(workspace).filter(r => r.daemon);
            const listed = world.runningContainers(workspace).filter(c => c.daemon && c.sandbox === records[0]?.sandbox);
            return records.length === 1 && listed.length === 1 && listed[0].attached_clients === clients
                && attachClients(workspace).length === clients && records[0];
        }, { message, timeout: 60_000, abort: () => server.deathNotice() });
    }

    /** After Stop: nothing of the workspace's session is left anywhere. */
    async function expectNothingLeft(workspace: string, session: { ownerPid: number; sandbox: string }): Promise<void> {
        await poll(() => isGone(session.ownerPid), { message: `the supervisor ${session.ownerPid} to exit` });
        let left: unknown[] = [];
        await poll(() => {
            left = [
                ...world.containerRecords(workspace).map(r => `container ${r.id.slice(0, 12)}`),
                ...world.locks().filter(l => l === `.${session.sandbox}.lock`).map(l => `lock ${l}`),
                ...sandyProcessesOf(workspace).map(p => `process ${p.pid} ${p.cmdline}`)
            ];
            return left.length === 0;
        }, { message: `no container, lock or sandy process of ${workspace} to remain` }).catch(e => {
            throw new Error(`${(e as Error).message}; left: ${JSON.stringify(left)}`);
        });
        expect(world.runningContainers(workspace).filter(c => c.sandbox === session.sandbox), 'sandy --print-state lists no container of it').to.deep.equal([]);
    }

    /** The project's row label in the tree (`<name>, <state words>`). */
    async function rowLabel(name: string): Promise<string | undefined> {
        return (await bench.projectRows()).find(r => r.startsWith(`${name},`));
    }

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('recovery');
        for (const name of [CRASH_PROJECT, REPLAY_PROJECT, SHELL_PROJECT, ...BURST]) {
            const workspace = world.workspace(name);
            fs.writeFileSync(path.join(workspace, 'README.md'), `# ${name}\n`);
            workspaces.set(name, workspace);
        }
        const profile = 'export FAKE_SANDY_DOCKER=1\nexport SANDY_IDE_POLL_MS=500\n';
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, {
            label: 'recovery',
            vsix: platformVsix(),
            folder: ws(CRASH_PROJECT),
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'] }
        });
        expect(server.installExtension()).to.contain('was successfully installed');
        // The other projects were added earlier (the plugin keeps its list in its global storage).
        // The burst's projects were used before (a headless run each made its sandbox): their rows stay
        // where they are while the clicks come (a project's row moves up once sandy lists its sandbox).
        for (const name of BURST) {
            const run = world.sandy(['-p', 'hello'], ws(name));
            expect(run.status, run.stderr).to.equal(0);
        }
        fs.mkdirSync(server.pluginStorage, { recursive: true });
        fs.writeFileSync(path.join(server.pluginStorage, 'projects.json'), JSON.stringify({
            version: 1, projects: [REPLAY_PROJECT, SHELL_PROJECT, ...BURST].map(name => ({ workspace: ws(name), addedAt: Date.now() }))
        }));
        await server.start();
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
        // The restarted server keeps its port, so these stay granted to the page.
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${server.port}` });
        page = await context.newPage();
        bench = new Workbench(page, () => server.deathNotice());
        toasts = await ToastLog.install(page, VSCODE_TOASTS);
        await page.goto(server.url);
        await bench.ready();
        await bench.openSandyView();
    });

    afterEach(async function (): Promise<void> {
        this.timeout(90_000);
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('recovery', this.currentTest.title, page, server);
        }
        // Each test starts with no session of an earlier one: stopped as a user would from a shell.
        for (const workspace of new Set(world.containerRecords().filter(r => r.daemon).map(r => r.workspace))) {
            spawnSync(path.join(FAKE_SANDY_BIN, 'sandy'), ['--stop'], { cwd: workspace, env: world.env({ FAKE_SANDY_DOCKER: '1' }), timeout: 30_000, stdio: 'ignore' });
        }
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    it('outlives kill -9 of code-server: after a restart and a page reload it is listed as running, its tab shows the screen, typing reaches the agent, Stop leaves nothing', async () => {
        const workspace = ws(CRASH_PROJECT);
        await bench.waitForProject(CRASH_PROJECT);
        await bench.clickProjectRow(CRASH_PROJECT);
        await bench.waitForTab(isTab(CRASH_PROJECT), 'the sandy terminal tab');
        let terminal = await bench.visibleWebview('terminal');
        await poll(async () => (await terminalText(terminal)).includes(`fake sandy 1.7.1-dev — ${workspace}`), { message: 'the agent\'s screen in the tab', timeout: 60_000 });
        await typeInTerminal(page, terminal, 'echo before-crash');
        await poll(async () => agentPrinted(await terminalText(terminal), 'before-crash'), { message: 'the agent to print before-crash' });
        const session = await daemonWith(workspace, 1, 'one daemon container with the extension host\'s attach client');
        const [oldClient] = attachClients(workspace);
        expect(world.locks(), 'the workspace lock, held by the supervisor').to.include(`.${session.sandbox}.lock`);

        const hosts = server.extensionHosts();
        expect(hosts, 'one extension host').to.have.length(1);
        const killed = await server.crash();
        expect(killed, 'the extension host was killed with the server').to.include.members(hosts);
        // The session did not go with them: the same supervisor and container; only the dead extension
        // host's attach client ended, with its PTY.
        expect(pidAlive(session.ownerPid), `supervisor ${session.ownerPid}`).to.equal(true);
        expect(world.containerRecords(workspace).map(r => r.id)).to.deep.equal([session.id]);
        await poll(() => isGone(oldClient), { message: `the dead extension host's attach client ${oldClient} to end`, timeout: 15_000 });

        await server.start();
        // The open page cannot get its connection back from a new server: VS Code says so and offers to
        // reload the window, and the user takes that. (This reload drops VS Code's own webview tabs of
        // the dead extension host: the plugin brings its tab back itself.)
        const dialog = page.locator('.monaco-dialog-box', { hasText: 'Cannot reconnect' });
        await dialog.waitFor({ state: 'visible', timeout: 90_000 });
        const reloaded = page.waitForEvent('framenavigated', { predicate: f => f === page.mainFrame(), timeout: 60_000 });
        await dialog.locator('.monaco-button', { hasText: 'Reload Window' }).click();
        await reloaded;
        await bench.ready();
        await bench.waitForTab(isTab(CRASH_PROJECT), 'the sandy tab after the restart');
        terminal = await bench.visibleWebview('terminal', 60_000);
        const screen = await poll(async () => {
            const text = await terminalText(terminal);
            return text.includes(`fake sandy 1.7.1-dev — ${workspace}`) && /mode: daemon/.test(text) && text;
        }, { message: 'the agent\'s screen in the tab after the restart', timeout: 60_000 });
        expect(screen).to.contain('> ');
        await poll(async () => await banner(terminal) === undefined, { message: 'the tab to be attached (no banner)' });
        await typeInTerminal(page, terminal, 'echo after-crash');
        await poll(async () => agentPrinted(await terminalText(terminal), 'after-crash'), { message: 'the agent to print after-crash' });

        await bench.openSandyView();
        await poll(async () => await rowLabel(CRASH_PROJECT) === `${CRASH_PROJECT}, Running — daemon session, in a Sandy terminal tab`,
            { message: 'the project to be listed as a running daemon session shown in a tab', timeout: 30_000 });
        const after = await daemonWith(workspace, 1, 'the new extension host\'s one attach client');
        expect(after.id, 'the same container').to.equal(session.id);
        expect(after.ownerPid, 'the same supervisor').to.equal(session.ownerPid);
        expect(attachClients(workspace)).not.to.include(oldClient);
        expect((await bench.tabTitles()).filter(isTab(CRASH_PROJECT)), 'one tab for the session').to.have.length(1);
        expect(server.pluginLog()).to.match(/(restored|reopened) the tab of .*crash-proj \(session daemon-[0-9a-f]{16}\)/);

        await bench.projectContextMenu(CRASH_PROJECT, 'Stop');
        await bench.waitForNotification(`Sandy: ${CRASH_PROJECT} stopped.`);
        await poll(async () => (await terminalText(terminal)).includes(DAEMON_STOPPED), { message: 'the exit line in the tab' });
        await expectNothingLeft(workspace, session);
        expect(world.sandyProcesses(), 'no sandy process of this HOME at all').to.deep.equal([]);
        await poll(async () => !/Running/.test(await rowLabel(CRASH_PROJECT) ?? 'Running'), { message: 'the project to be listed as not running' });
    });

    it('close-tab + Reattach and a window reload fire no old notification again and leave the clipboard alone', async () => {
        const workspace = ws(REPLAY_PROJECT);
        const ping = `sandy (${REPLAY_PROJECT}): replay-ping-vsx`;
        await bench.openSandyView();
        await bench.clickProjectRow(REPLAY_PROJECT);
        await bench.waitForTab(isTab(REPLAY_PROJECT), 'the sandy terminal tab');
        let terminal = await bench.visibleWebview('terminal');
        await poll(async () => (await terminalText(terminal)).includes(`fake sandy 1.7.1-dev — ${workspace}`), { message: 'the agent\'s screen', timeout: 60_000 });
        await daemonWith(workspace, 1, 'the daemon session with our attach client');

        // The agent notifies once, while the user looks at another editor: one toast.
        const asks = world.cue('osc9 replay-ping-vsx');
        await typeInTerminal(page, terminal, asks.line);
        await poll(async () => (await terminalText(terminal)).includes(asks.echo), { message: 'the agent to schedule it' });
        await bench.runCommand('Help: Welcome');
        asks.give();
        await bench.waitForNotification(ping);
        expect(toasts.count(ping), JSON.stringify(toasts.all)).to.equal(1);
        await bench.clickTab(isTab(REPLAY_PROJECT));
        terminal = await bench.visibleWebview('terminal');
        // The agent writes the clipboard once (OSC 52 works live); then the user copies something else.
        await typeInTerminal(page, terminal, 'osc52 replay-clip-vsx');
        await poll(async () => await bench.clipboard() === 'replay-clip-vsx', { message: 'the clipboard to hold the agent\'s OSC 52 text' });
        const sentinel = `sentinel-${Date.now().toString(36)}`;
        await bench.setClipboard(sentinel);
        expect(await bench.clipboard()).to.equal(sentinel);
        const untouched = (when: string) => holdsFor(async () => toasts.count(ping) === 1 && await bench.clipboard() === sentinel, QUIET_MS,
            `one "${ping}" toast in all and the clipboard still holding ${sentinel} ${when}`);

        // Close the tab (the session only detaches) and Reattach from the toast that says so: the replay is
        // this extension host's screen of the session, which saw both sequences.
        await bench.closeTab(isTab(REPLAY_PROJECT));
        const detached = `sandy (${REPLAY_PROJECT}) keeps running in the background.`;
        await bench.waitForNotification(detached);
        await poll(async () => !(await bench.tabTitles()).some(isTab(REPLAY_PROJECT)), { message: 'the closed tab to go' });
        await bench.clickNotificationButton(detached, 'Reattach');
        await bench.waitForTab(isTab(REPLAY_PROJECT), 'the reattached tab');
        terminal = await bench.visibleWebview('terminal');
        const replayed = await poll(async () => {
            const text = await terminalText(terminal);
            return text.includes('[osc9 sent]') && text.includes('[osc52 sent]') && text;
        }, { message: 'the replayed screen, where the agent sent both sequences' });
        expect(replayed).to.contain(`fake sandy 1.7.1-dev — ${workspace}`);
        await typeInTerminal(page, terminal, 'echo reattached');
        await poll(async () => agentPrinted(await terminalText(terminal), 'reattached'), { message: 'the agent to print reattached' });
        await untouched('after close + Reattach');

        // A window reload: the restored tab, a new extension host and its attach client; nothing of the past fires.
        const reloaded = page.waitForEvent('framenavigated', { predicate: f => f === page.mainFrame(), timeout: 60_000 });
        await bench.runCommand('Developer: Reload Window');
        await reloaded;
        await bench.ready();
        await bench.waitForTab(isTab(REPLAY_PROJECT), 'the sandy tab after the reload');
        terminal = await bench.visibleWebview('terminal', 60_000);
        await poll(async () => (await terminalText(terminal)).includes(`fake sandy 1.7.1-dev — ${workspace}`), { message: 'the screen after the reload', timeout: 60_000 });
        await typeInTerminal(page, terminal, 'echo after-reload');
        try {
            await poll(async () => agentPrinted(await terminalText(terminal), 'after-reload'), { message: 'the agent to print after-reload' });
        } catch (e) {
            // (Failed 2 of 13 runs on 2026-12-06, one in CI, cause not found: what the tab showed then is the first clue.)
            throw new Error(`${e instanceof Error ? e.message : String(e)}; the tab showed: ${JSON.stringify((await terminalText(terminal)).slice(-1500))}`);
        }
        await untouched('after the reload');
        expect((await bench.tabTitles()).filter(isTab(REPLAY_PROJECT)), 'one tab for the session after the reload').to.have.length(1);
        await daemonWith(workspace, 1, 'still one daemon session with one attach client');

        // The way notifications come is still open: a new one is a new toast, the old one was shown once.
        const asksAgain = world.cue('osc9 fresh-ping-vsx');
        await typeInTerminal(page, terminal, asksAgain.line);
        await poll(async () => (await terminalText(terminal)).includes(asksAgain.echo), { message: 'the agent to schedule it' });
        await bench.runCommand('Help: Welcome');
        asksAgain.give();
        await bench.waitForNotification(`sandy (${REPLAY_PROJECT}): fresh-ping-vsx`);
        expect(toasts.count(ping), JSON.stringify(toasts.all)).to.equal(1);
        expect(await bench.clipboard()).to.equal(sentinel);
    });

    it('a session started with sandy --start in a shell is listed as started outside the IDE; a click attaches it; Stop ends it', async () => {
        const workspace = ws(SHELL_PROJECT);
        const shell = world.shell(['--start'], workspace);
        const exit = await poll(() => shell.exit, { message: 'the shell\'s sandy --start to finish', timeout: 60_000 });
        expect(exit.code, shell.output).to.equal(0);
        expect(shell.output).to.contain('Daemon session ready:');
        const started = await daemonWith(workspace, 0, 'the shell\'s daemon session, nobody attached');
        expect(world.locks(), 'the workspace lock, held by the supervisor').to.include(`.${started.sandbox}.lock`);

        await bench.openSandyView();
        await poll(async () => await rowLabel(SHELL_PROJECT) === `${SHELL_PROJECT}, Running — daemon session, started outside the IDE, no tab shows it (Reattach)`,
            { message: `${SHELL_PROJECT} to be listed as running, started outside the IDE`, timeout: 30_000 });
        // Listed, not taken: nobody attached to it yet.
        expect(attachClients(workspace), 'attach clients before the click').to.deep.equal([]);

        await bench.clickProjectRow(SHELL_PROJECT);
        await bench.waitForTab(isTab(SHELL_PROJECT), 'the sandy tab of the shell\'s session');
        const terminal = await bench.visibleWebview('terminal');
        await poll(async () => (await terminalText(terminal)).includes(`fake sandy 1.7.1-dev — ${workspace}`), { message: 'the session\'s screen', timeout: 60_000 });
        await poll(async () => await banner(terminal) === undefined, { message: 'the tab to be attached (no banner)' });
        const attached = await daemonWith(workspace, 1, 'the plugin\'s attach client on the shell\'s session');
        expect(attached.ownerPid, 'the shell\'s supervisor').to.equal(started.ownerPid);
        await typeInTerminal(page, terminal, 'echo from-the-ide');
        await poll(async () => agentPrinted(await terminalText(terminal), 'from-the-ide'), { message: 'the agent to print from-the-ide' });
        await poll(async () => await rowLabel(SHELL_PROJECT) === `${SHELL_PROJECT}, Running — daemon session, started outside the IDE, in a Sandy terminal tab`,
            { message: 'the row to say a tab shows it' });

        await bench.projectContextMenu(SHELL_PROJECT, 'Stop');
        await bench.waitForNotification(`Sandy: ${SHELL_PROJECT} stopped.`);
        await poll(async () => (await terminalText(terminal)).includes(DAEMON_STOPPED), { message: 'the exit line in the tab' });
        await expectNothingLeft(workspace, started);
    });

    it('ten launches clicked within two seconds all run (launches queue through sandy\'s build)', async () => {
        await bench.openSandyView();
        for (const name of BURST) {
            await bench.waitForProject(name);
        }
        // Where each row's name is, once the view has stopped moving; then ten clicks in a row, as fast
        // as a user clicks down a list.
        let last = '';
        const centres = await poll(async () => {
            const now: Array<{ x: number; y: number }> = [];
            for (const name of BURST) {
                const box = await bench.projectRow(name).boundingBox();
                if (!box) {
                    return undefined;
                }
                now.push({ x: box.x + Math.min(60, box.width / 2), y: box.y + box.height / 2 });
            }
            const hits = await page.evaluate(points => points.map(p => document.elementFromPoint(p.x, p.y)?.closest('.monaco-list-row')?.getAttribute('aria-label') ?? ''), now);
            const settled = JSON.stringify(now) === last && hits.every((label, i) => label.startsWith(`${BURST[i]},`));
            last = JSON.stringify(now);
            return settled && now;
        }, { message: 'the Projects rows to stay where they are', interval: 300 });
        // Watch the process table while they start: never two `sandy --start` clients at once.
        let mostStarts = 0;
        let startsSeen: string[] = [];
        let watching = true;
        const watcher = (async () => {
            while (watching) {
                const starts = world.sandyProcesses().filter(p => / --start( |$)/.test(p.cmdline) && !p.cmdline.includes('--workspace'));
                // A client's supervisor, between its fork and its exec, still shows the client's command line; so does a
                // fork that has already exited when its parent is read (CI once counted one: its cwd was gone too).
                const clients = starts.filter(p => {
                    const parent = parentOf(p.pid);
                    return parent !== undefined && !starts.some(q => q.pid === parent);
                });
                if (clients.length > mostStarts) {
                    mostStarts = clients.length;
                    startsSeen = clients.map(p => `${p.pid} (cwd ${cwdOf(p.pid)})`);
                }
                await new Promise(r => setTimeout(r, 25));
            }
        })();
        try {
            const first = Date.now();
            for (const { x, y } of centres) {
                await page.mouse.click(x, y);
            }
            const clicking = Date.now() - first;
            expect(clicking, 'the ten clicks took (ms)').to.be.below(2_000);

            let pending: string[] = [];
            await poll(() => {
                pending = BURST.filter(name => {
                    const records = world.containerRecords(ws(name)).filter(r => r.daemon);
                    return records.length !== 1 || attachClients(ws(name)).length !== 1;
                });
                return pending.length === 0;
            }, { message: 'ten daemon sessions, each with its supervisor, container and one attach client', timeout: 180_000, interval: 500 }).catch(async e => {
                throw new Error(`${(e as Error).message}; not running: ${pending.join(', ')}; tabs: ${JSON.stringify(await bench.tabTitles())}; toasts: ${JSON.stringify(toasts.all)}`);
            });
        } finally {
            watching = false;
            await watcher;
        }
        expect(mostStarts, `sandy --start clients at once: ${startsSeen.join(', ')}`).to.equal(1);
        const titles = await bench.tabTitles();
        for (const name of BURST) {
            expect(titles.filter(isTab(name)), `${name}'s tabs`).to.have.length(1);
        }
        for (const name of BURST) {
            await bench.clickTab(isTab(name));
            const terminal = await bench.visibleWebview('terminal');
            await poll(async () => (await terminalText(terminal)).includes(`fake sandy 1.7.1-dev — ${ws(name)}`), { message: `${name}'s screen`, timeout: 30_000 });
            expect(await banner(terminal), `${name}'s banner`).to.equal(undefined);
            expect(await bench.activeTabTitle()).to.equal(`sandy: ${name}`);
        }
        const listed = world.runningContainers(ws(BURST[0])).filter(c => c.daemon);
        for (const name of BURST) {
            const [record] = world.containerRecords(ws(name));
            expect(listed.filter(c => c.sandbox === record.sandbox).map(c => c.attached_clients), `sandy --print-state on ${name}`).to.deep.equal([1]);
        }
        await poll(async () => (await page.$$eval('.statusbar-item', els => els.map(e => e.textContent?.trim() ?? ''))).some(t => t.includes(`${BURST.length} sandy sessions`)),
            { message: `the status bar to count ${BURST.length} sessions` });
        expect(server.pluginLog(), 'sandy\'s build race').not.to.match(/Dockerfile\.new|Another sandy is already running/);
    });
});
