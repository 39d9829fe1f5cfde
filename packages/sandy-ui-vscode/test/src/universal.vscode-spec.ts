/**
 * The universal .vsix (no node-pty) in code-server: the plugin says what is lost and runs sandy in
 * VS Code's own terminal, after the same pre-flight. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, chromium } from 'playwright-core';
import { CodeServer } from './code-server';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, RESULTS_DIR, World } from './world';
import { Workbench } from './workbench';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';

describe('Sandy universal package (no node-pty) in code-server (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;

    before(() => {
        requireCompiledFake();
        CodeServer.requireInstalled();
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    it('says what is lost without node-pty, then runs sandy in the editor\'s own terminal', async () => {
        world = new World('universal');
        const project = world.workspace('uni-proj');
        server = new CodeServer(world, { label: 'universal', vsix: platformVsix(true), folder: project, settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE'] } });
        expect(server.installExtension()).to.contain('was successfully installed');
        await server.start();
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const bench = new Workbench(page, () => server.deathNotice());
        try {
            await page.goto(server.url);
            await bench.ready();
            await bench.openSandyView();
            const notice = await bench.waitForNotification('node-pty');
            expect(notice).to.contain('sandy runs in the editor\'s own terminal');
            expect(notice).to.contain('notifications from sandy (OSC 9/99/777)');
            await bench.waitForProject('uni-proj');
            // The first --print-state says Docker is unreachable (no FAKE_SANDY_DOCKER here): that line goes
            // above the rows and moves them; click once it is there, or the click can miss the row.
            await poll(async () => (await page.locator('.part.sidebar').innerText()).includes('Docker is not reachable'),
                { message: 'the view to show the first --print-state' });
            await bench.clickProjectRow('uni-proj');
            // The terminal is VS Code's (its renderer may be a canvas): the tab name, and sandy holding its lock.
            await poll(async () => (await page.$$eval('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab', els => els.map(e => e.textContent ?? '')))
                .some(t => t.includes('sandy: uni-proj')), { message: 'VS Code\'s terminal named after the project' });
            const sandboxes = path.join(world.sandyHome, 'sandboxes');
            const lock = await poll(() => fs.existsSync(sandboxes) && fs.readdirSync(sandboxes).find(f => f.startsWith('.uni-proj-') && f.endsWith('.lock')),
                { message: 'sandy (the fake) to take the workspace lock' });
            expect(lock).to.match(/^\.uni-proj-[0-9a-f]+\.lock$/);
            // sandy runs with the whitelisted environment only: never the auto-approve variable (sandy asks, the user answers).
            const pid = await poll(() => (fs.existsSync(path.join(sandboxes, lock!, 'pid')) && fs.readFileSync(path.join(sandboxes, lock!, 'pid'), 'utf8').trim()) || undefined,
                { message: 'the lock holder\'s pid' });
            const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
            expect(environ.filter(v => v.startsWith('SANDY_AUTO_APPROVE_PRIVILEGED='))).to.deep.equal([]);
            expect(environ.some(v => v.startsWith('HOME=')), 'the environment was read').to.equal(true);
        } catch (e) {
            fs.mkdirSync(RESULTS_DIR, { recursive: true });
            await page.screenshot({ path: path.join(RESULTS_DIR, 'universal-failed.png') }).catch(() => undefined);
            throw e;
        }
    });
});
