/**
 * Fleet maintenance end to end (issue 13), in the built browser-app with headless Chromium and the fake
 * sandy (held to sandy 1.7.1's `--remove-sandbox` outputs): "Sandy: Fleet Maintenance…" → "Remove
 * orphaned sandboxes" shows sandy's own dry-run plan and what the IDE leaves alone in a dialog; Remove
 * removes the sandbox whose project folder is gone, by name, and leaves the one whose path sandy cut at a
 * `"` (its project still exists). Cancel changes nothing.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { E2eBrowser } from './browser';
import { useSandyIde } from './suite';
import { FAKE_SANDY_BIN_DIR, SandyIde } from './harness';
import { SandyApp } from './page-objects/sandy-app';

const COMMAND = 'Sandy: Fleet Maintenance…';
const PLACEHOLDER = 'Fleet maintenance: what should sandy do?';
const ACTION = 'Remove orphaned sandboxes';

describe('Fleet maintenance (end to end)', () => {
    const suite = useSandyIde({ label: 'fleet' });
    let ide: SandyIde;
    let browser: E2eBrowser;

    before(() => {
        ({ ide, browser } = suite);
    });
    afterEach(async function () {
        this.timeout(60_000);
        await browser.closeContexts();
    });

    /** A first headless run of sandy in `ws` (makes its sandbox); the sandbox folder. */
    function sandboxOf(ws: string): string {
        fs.mkdirSync(ws, { recursive: true });
        const before = new Set(fs.existsSync(path.join(ide.sandyHome, 'sandboxes')) ? fs.readdirSync(path.join(ide.sandyHome, 'sandboxes')) : []);
        const r = spawnSync(path.join(FAKE_SANDY_BIN_DIR, 'sandy'), ['-p', 'hi'], { cwd: ws, env: ide.shellEnv(), encoding: 'utf8', timeout: 60_000 });
        expect(r.status, r.stderr).to.equal(0);
        // sandy's name: the folder's name without what it does not keep, and a hash (the IDE's own project may get one meanwhile).
        const prefix = `${path.basename(ws).replace(/[^a-zA-Z0-9._-]/g, '')}-`;
        const made = fs.readdirSync(path.join(ide.sandyHome, 'sandboxes')).filter(n => !before.has(n) && n.startsWith(prefix) && fs.statSync(path.join(ide.sandyHome, 'sandboxes', n)).isDirectory());
        expect(made, fs.readdirSync(path.join(ide.sandyHome, 'sandboxes')).join(' ')).to.have.length(1);
        return path.join(ide.sandyHome, 'sandboxes', made[0]);
    }

    function dialog(app: SandyApp) {
        return app.page.locator('.dialogOverlay .dialogBlock');
    }

    it('shows sandy\'s plan, removes only the orphan whose folder is really gone, and Cancel changes nothing', async function () {
        this.timeout(240_000);
        const projects = path.dirname(ide.workspace);
        const gone = path.join(projects, 'fleet-gone');
        const quoted = path.join(projects, 'fleet "quoted" one');
        const goneBox = sandboxOf(gone);
        const quotedBox = sandboxOf(quoted);
        fs.rmSync(gone, { recursive: true });

        const app = await browser.openApp(ide);
        await app.openSandyView();

        // Cancel first: the plan is shown, nothing is removed.
        await app.commandPalette().runAndPick(COMMAND, PLACEHOLDER, ACTION);
        await dialog(app).waitFor({ state: 'visible', timeout: 60_000 });
        const text = (await dialog(app).locator('.dialogContent').innerText()).replace(/\u00a0/g, ' ');
        expect(text).to.contain('sandy --remove-sandbox: 2 target(s)');
        expect(text).to.contain(`Not removed: ${path.basename(quotedBox)}`);
        expect(text).to.contain(`Will be removed (1): ${path.basename(goneBox)} (was ${gone}).`);
        expect(await dialog(app).locator('.dialogTitle').innerText()).to.contain(ACTION);
        await dialog(app).locator('button', { hasText: 'Cancel' }).click();
        await dialog(app).waitFor({ state: 'hidden' });
        await new Promise(r => setTimeout(r, 1000));
        expect(fs.existsSync(goneBox), 'Cancel removed nothing').to.equal(true);

        // Then Remove.
        await app.commandPalette().runAndPick(COMMAND, PLACEHOLDER, ACTION);
        await dialog(app).waitFor({ state: 'visible', timeout: 60_000 });
        await dialog(app).locator('button', { hasText: 'Remove' }).click();
        await app.notifications().waitFor(`Sandy: ${ACTION} finished`);
        expect(fs.existsSync(goneBox), 'the orphan is removed').to.equal(false);
        expect(fs.existsSync(quotedBox), 'the sandbox of the project with a " in its path is kept').to.equal(true);
        expect(fs.existsSync(quoted)).to.equal(true);
    });
});
