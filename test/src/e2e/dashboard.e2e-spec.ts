/**
 * The Sessions dashboard end to end (issue 11), in the built browser-app with headless chromium and
 * the fake sandy in daemon mode (see sandy-ide.e2e-spec.ts for the set-up): three projects running,
 * "Sandy: Show Dashboard" from the command palette shows a tile per session with its project's
 * name and a live thumbnail of its screen from the backend (what an agent prints later appears), says that Docker is unreachable (there is no
 * Docker API here: DOCKER_HOST names a socket that does not exist), and a tile's click or Enter
 * brings that project's sandy tab to the front.
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

const SECOND_PROJECT = 'dash-second';
const THIRD_PROJECT = 'dash-third';
const NO_DOCKER = '/nonexistent/sandy-e2e-no-docker.sock';
const DASHBOARD_TAB = '#theia-main-content-panel .lm-TabBar-tab[id="shell-tab-sandy-dashboard"]';

describe('The Sessions dashboard (end to end)', () => {
    const suite = useSandyIde({
        label: 'dashboard',
        // No Docker API here, whatever the machine has: a socket that does not exist.
        env: { DOCKER_HOST: `unix://${NO_DOCKER}` },
        seed: ide => {
            const projects = [SECOND_PROJECT, THIRD_PROJECT].map(name => {
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

    const workspaceOf = (name: string): string => path.join(path.dirname(ide.workspace), name);

    async function openSession(app: SandyApp, name: string): Promise<SandyTerminal> {
        const terminal = await app.launch(name);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${workspaceOf(name)}`);
        return terminal;
    }

    /** A dashboard tile by its project's name. */
    function tile(app: SandyApp, name: string): Locator {
        return app.page.locator('.sandy-dashboard-widget button.sandy-dashboard-tile').filter({
            has: app.page.locator('.sandy-dashboard-project').getByText(name, { exact: true })
        });
    }

    /** Text without white space: a long path wraps onto the next row of the screen (and of its thumbnail). */
    const squeeze = (text: string | null): string => (text ?? '').replace(/\s+/g, '');

    it('shows a tile per session with its project and screen, says Docker is unreachable, and a tile (click or Enter) focuses that project\'s tab', async function () {
        this.timeout(240_000);
        const app = await browser.openApp(ide);
        const first = await openSession(app, ide.projectName);
        const second = await openSession(app, SECOND_PROJECT);
        const third = await openSession(app, THIRD_PROJECT);

        await app.commandPalette().run('Sandy: Show Dashboard');
        const dashboardTab = app.page.locator(DASHBOARD_TAB);
        await dashboardTab.waitFor({ state: 'visible' });
        expect(/\blm-mod-current\b/.test((await dashboardTab.getAttribute('class')) ?? ''), 'the dashboard tab is in front').to.equal(true);

        const tiles = app.page.locator('.sandy-dashboard-widget button.sandy-dashboard-tile');
        await app.poll(async () => (await tiles.count()) === 3, 'three tiles on the dashboard');
        for (const name of [ide.projectName, SECOND_PROJECT, THIRD_PROJECT]) {
            const t = tile(app, name);
            await t.waitFor({ state: 'visible' });
            // The thumbnail is the backend's copy of the session's screen, as text.
            await app.poll(async () => squeeze(await t.locator('pre.sandy-dashboard-thumbnail').textContent()).includes(squeeze(`fake sandy 1.7.1-dev — ${workspaceOf(name)}`)),
                `the thumbnail of ${name} to show its screen`);
            expect(await t.locator('.sandy-dashboard-badge').textContent()).to.match(/^(Working|Idle|Needs you)$/);
            expect(await t.locator('.sandy-dashboard-cpu').textContent()).to.equal('CPU —');
            expect(await t.locator('.sandy-dashboard-elapsed').textContent()).to.match(/^running /);
        }
        const banner = app.page.locator('.sandy-dashboard-widget .sandy-dashboard-docker');
        await banner.waitFor({ state: 'visible' });
        expect(await banner.textContent()).to.match(/^Docker unreachable — .*sandy-e2e-no-docker\.sock/);

        // Live: what the third agent prints later, while the dashboard is in front, reaches its thumbnail
        // (`{n}` becomes 1 only when it prints: the command line on its screen does not say live-1-thumbnail).
        const live = ide.cue('repeat 1 echo live-{n}-thumbnail');
        await third.enter(live.line);
        await third.waitForText(live.echo);
        await dashboardTab.click();
        await app.poll(async () => squeeze(await tile(app, THIRD_PROJECT).locator('pre.sandy-dashboard-thumbnail').textContent()).includes(squeeze(live.echo.slice(0, live.echo.indexOf(':') + 1))),
            'the third tile\'s thumbnail to show the command');
        expect(await tile(app, THIRD_PROJECT).locator('pre.sandy-dashboard-thumbnail').textContent(), 'not printed yet').to.not.contain('live-1-thumbnail');
        live.give();
        await app.poll(async () => (await tile(app, THIRD_PROJECT).locator('pre.sandy-dashboard-thumbnail').textContent())?.includes('live-1-thumbnail'),
            'the third tile\'s thumbnail to show what its agent printed later', { timeout: 30_000 });
        expect(await tile(app, SECOND_PROJECT).locator('pre.sandy-dashboard-thumbnail').textContent(), 'only in its own tile').to.not.contain('live-1-thumbnail');

        // A click on the first project's tile: its sandy tab comes to the front.
        await tile(app, ide.projectName).click();
        await app.poll(() => first.isCurrent(), `the ${ide.projectName} sandy tab to be in front`);
        expect(await second.isCurrent()).to.equal(false);
        expect(await app.terminalTabs(ide.projectName).count(), 'no second tab on the session').to.equal(1);

        // Back to the dashboard; Enter on the other project's focused tile.
        await dashboardTab.click();
        const secondTile = tile(app, SECOND_PROJECT);
        await secondTile.focus();
        await app.page.keyboard.press('Enter');
        await app.poll(() => second.isCurrent(), `the ${SECOND_PROJECT} sandy tab to be in front`);
        expect(await app.terminalTabs(SECOND_PROJECT).count()).to.equal(1);
    });
});
