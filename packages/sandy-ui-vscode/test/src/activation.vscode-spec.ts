/**
 * What the plugin runs, in a real VS Code (code-server, the linux .vsix), counted by a logging `sandy`
 * first on PATH that then runs the fake: a window that never shows sandy state runs no sandy at all
 * (the plugin activates at start-up only to give every git the editor runs core's git safety, and to decide,
 * without running sandy, whether Get Started must open); the Sandy view and the status bar say "Looking for
 * sandy…" while a slow sandy is still being located, then the view lists the projects; every sandy the plugin
 * starts holds only stdin, stdout and stderr; and the walkthrough's steps tick from that state. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { LOCATING_SANDY_TEXT } from '@sandy-ui/core/common';
import { holdsFor } from '@sandy-ui/test/lib/support/poll';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { FAKE_SANDY_BIN, platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, terminalText, Workbench } from './workbench';

const NAME = 'quiet-proj';
/** How long the logging sandy takes to answer `--version` (the first thing locating runs). */
const SLOW_VERSION_S = 4;

describe('Sandy plugin in code-server: no sandy until the window shows sandy state (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;
    let spawnLog: string;

    /** Each sandy the plugin ran: its arguments and the descriptors it was started with. */
    const runs = (): Array<{ args: string; fds: string }> => (fs.existsSync(spawnLog) ? fs.readFileSync(spawnLog, 'utf8') : '')
        .split('\n').filter(Boolean).map(line => {
            const [args, fds] = line.split('\t');
            return { args, fds: fds.replace(/^fds: ?/, '') };
        });

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('activation');
        const workspace = world.workspace(NAME);
        spawnLog = path.join(world.dir('spawns'), 'sandy.log');
        // The logging sandy: its open descriptors first (a stat of /proc/$$/fd/N opens none; 255 is bash's own, the script it reads), then its
        // arguments, then the fake. sandy's environment is a whitelist, so the paths are written in.
        const shim = world.dir('shim');
        fs.writeFileSync(path.join(shim, 'sandy'), [
            '#!/bin/bash',
            'fds=""; for fd in {0..254}; do [ -e "/proc/$$/fd/$fd" ] && fds="$fds $fd"; done',
            `if [ "$1" = "--version" ]; then sleep ${SLOW_VERSION_S}; fi`,
            `printf '%s\\tfds:%s\\n' "$*" "$fds" >> '${spawnLog}'`,
            `exec '${path.join(FAKE_SANDY_BIN, 'sandy')}' "$@"`,
            ''
        ].join('\n'), { mode: 0o755 });
        const profile = `export PATH="${shim}:$PATH"\n`;
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, { label: 'activation', vsix: platformVsix(), folder: workspace, settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE'] } });
        expect(server.installExtension()).to.contain('was successfully installed');
        await server.start();
        ({ browser, page, bench } = await openWorkbench(server));
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('activation', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        world?.sandy(['--stop'], world.workspace(NAME));
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    it('a window that never shows sandy state runs no sandy; the Sandy view says "Looking for sandy…" until a slow sandy is found', async () => {
        // The window is in use, in the Explorer; the plugin was activated as the window started (for the git safety), and only then.
        await page.locator('.part.sidebar').first().waitFor({ state: 'visible' });
        await poll(async () => /sandy: activating in/.test(server.pluginLog()), { message: 'the plugin to activate', timeout: 90_000 });
        expect(server.extensionHostLog().split('\n').filter(l => l.includes('rappdw.sandy-ui')).map(l => /activationEvent: '([^']*)'/.exec(l)?.[1]))
            .to.deep.equal(['*']);
        // A sandy setting changes meanwhile (here in the Settings editor; another window's toggle or Settings
        // Sync alike): still nothing runs here.
        const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
        await bench.runCommand('Preferences: Open User Settings');
        const search = page.locator('.settings-editor .suggest-input-container .monaco-editor textarea, .settings-editor .settings-header .monaco-editor textarea').first();
        await search.waitFor({ state: 'visible', timeout: 30_000 });
        await search.focus();
        await page.keyboard.type('sandy.longRunningHours');
        // The setting's own box: the input that shows its value (the editor has other, hidden inputs).
        const field = page.locator('.settings-editor .setting-item-contents', { hasText: 'Long Running Hours' }).locator('.monaco-inputbox input').first();
        await field.waitFor({ state: 'visible', timeout: 30_000 });
        // Typed again if the editor redrew the box meanwhile (seen in CI: "242", the select-all lost).
        for (let attempt = 1; ; attempt++) {
            const box = (await field.boundingBox())!;
            await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
            await page.keyboard.press('Control+A');
            await page.keyboard.type('12');
            try {
                await poll(() => /"sandy\.longRunningHours":\s*12\b/.test(fs.readFileSync(settingsFile, 'utf8')), { message: 'the setting saved', timeout: attempt < 3 ? 10_000 : 30_000 });
                break;
            } catch (e) {
                if (attempt >= 3) {
                    throw e;
                }
            }
        }
        await holdsFor(() => runs().length === 0, 8_000, 'no sandy run by a window that shows no sandy state');
        expect(runs(), 'not one sandy').to.deep.equal([]);
        const statusBar = async () => (await page.locator('.part.statusbar .statusbar-item').allTextContents()).join('\n');
        expect(await statusBar(), 'no sandy state in the status bar either').to.not.match(/sandy/i);

        // The Sandy view shows: sandy is being looked for (the slow `--version`), and the view says so.
        await bench.openSandyView();
        const message = page.locator('.part.sidebar .pane-body .message').first();
        await poll(async () => (await message.textContent().catch(() => ''))?.includes(LOCATING_SANDY_TEXT), { message: 'the locating state', timeout: 15_000 });
        expect(await message.textContent(), 'not "not found" while looking').to.not.match(/not found/i);
        await poll(async () => (await statusBar()).includes(LOCATING_SANDY_TEXT), { message: 'the status bar to say it too', timeout: 5_000 }).catch(async e => {
            throw new Error(`${(e as Error).message}; the status bar: ${JSON.stringify(await statusBar())}; the plugin log: ${server.pluginLog().slice(-3000)}`);
        });
        expect(runs(), 'still answering the slow --version').to.deep.equal([]);
        // Found: the locating line goes, and sandy's own state is read (`--print-state`).
        await poll(async () => !(await message.textContent().catch(() => ''))?.includes(LOCATING_SANDY_TEXT), { message: 'the locating state to end', timeout: 30_000 });
        expect(runs()[0]?.args, 'locating starts with --version').to.equal('--version');
        await poll(() => runs().some(r => r.args.startsWith('--print-state')), { message: 'sandy\'s state read' });
        expect(await bench.waitForProject(NAME)).to.contain('Fresh');
        expect(await statusBar(), 'found: the status bar says nothing of sandy').to.not.contain(LOCATING_SANDY_TEXT);
    });

    it('every sandy the plugin starts holds only stdin, stdout and stderr (introspection, --start, the attach client)', async () => {
        await bench.projectContextMenu(NAME, 'Launch');
        await bench.waitForTab(t => t.startsWith(`sandy: ${NAME}`), 'the sandy tab');
        const terminal = await bench.visibleWebview('terminal', 60_000);
        await poll(async () => (await terminalText(terminal)).includes('type \'help\' for commands'), { message: 'the agent', timeout: 60_000 });
        const all = runs();
        expect(all.map(r => r.args.split(' ')[0]), 'introspection and the session were counted').to.include.members(['--print-state', '--start', '--attach']);
        expect(all.filter(r => r.fds !== '0 1 2'), 'sandy runs with other descriptors').to.deep.equal([]);
    });

    it('the walkthrough\'s steps tick from what is true: sandy found, a project listed, a project launched', async () => {
        await bench.runCommand('Welcome: Open Walkthrough...');
        const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with Sandy' }).first();
        await pick.waitFor({ state: 'visible', timeout: 15_000 });
        await pick.click();
        const steps = page.locator('.gettingStartedContainer .getting-started-step');
        await poll(async () => (await steps.count()) === 4, { message: 'the walkthrough\'s four steps', timeout: 30_000 });
        const checked = async () => steps.evaluateAll(els => els.map(el => `${(el.getAttribute('data-step-id') ?? '').replace(/^.*#/, '')}: ${el.getAttribute('aria-checked')}`));
        // Found, listed and launched before the walkthrough was ever shown: its steps say so, nothing clicked.
        await poll(async () => JSON.stringify(await checked()) === JSON.stringify(['install: true', 'addProject: true', 'launch: true', 'settings: false']),
            { message: 'install, addProject and launch ticked; settings not (never opened)', timeout: 15_000 }).catch(async e => {
            throw new Error(`${(e as Error).message}; the steps: ${JSON.stringify(await checked())}`);
        });
    });
});
