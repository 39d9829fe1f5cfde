/**
 * sandy 2.x end to end (issue 13): the built browser-app in headless Chromium on the fake sandy in its
 * 2.7.1 voice (FAKE_SANDY_VERSION=2.7.1: the real 2.7.1 `--print-schema`, schema 4, `--approvals`; its
 * launch and maintenance are 1.7.1's — test/fake-sandy/README.md). No error at start (the defect the
 * reference extension had to hotfix), the settings editor shows every key of that schema, "Launch with…"
 * passes the chosen options to sandy, and a maintenance action shows sandy's plan and runs.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { useSandyIde } from './suite';
import { FAKE_SANDY_BIN_DIR, REPO_ROOT } from './harness';
import { THEIA_TOASTS, ToastLog } from './page-objects/theia-widgets';

const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'sandy-2.7.1', 'print-schema.json'), 'utf8')) as {
    config: Record<'privileged_keys' | 'passive_keys' | 'env_only_keys', Array<{ name: string }>>;
};

describe('sandy 2.7.1: schema 4, Launch with…, maintenance (end to end, the fake in its 2.7.1 voice)', () => {
    const suite = useSandyIde({ label: 'sandy-2x', env: { FAKE_SANDY_VERSION: '2.7.1' } });

    it('starts without an error or a compatibility warning, and the settings editor shows every key of sandy 2.7.1\'s schema', async function () {
        this.timeout(180_000);
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        const toasts = await ToastLog.install(app.page, THEIA_TOASTS);
        await app.openSandyView();
        await app.projectRow(ide.projectName).waitFor({ state: 'visible', timeout: 60_000 });
        // The gate speaks, if it speaks at all, once sandy is located and its schema read: give it that time.
        await new Promise(r => setTimeout(r, 5_000));
        expect(toasts.all.filter(t => /incompatib|schema|not supported|newer than|error/i.test(t)), 'no gate message at start').to.deep.equal([]);
        expect(await app.page.locator('#theia-statusBar').innerText()).to.not.match(/incompatib|unsupported/i);

        await app.commandPalette().run('Sandy: Open Settings');
        const settings = await app.settings(ide.workspace).waitForLoaded();
        const shown = new Set<string>();
        for (const scope of ['project', 'global'] as const) {
            await settings.selectScope(scope);
            for (const key of await settings.widget.locator('.sandy-settings-panel [data-key]').evaluateAll(rows => rows.map(r => r.getAttribute('data-key')))) {
                if (key) {
                    shown.add(key);
                }
            }
        }
        const fileKeys = [...SCHEMA.config.privileged_keys, ...SCHEMA.config.passive_keys].map(k => k.name);
        expect(fileKeys.length).to.equal(24 + 38);
        expect(fileKeys.filter(k => !shown.has(k)), 'every key a config file can set has its field').to.deep.equal([]);
        // 2.7.1's own keys, new since 1.7.1.
        for (const key of ['SANDY_EGRESS', 'SANDY_OFFLINE', 'SANDY_SSH_KEYS', 'XAI_API_KEY']) {
            expect(shown.has(key), key).to.equal(true);
        }
    });

    it('Launch with…: a fresh conversation with other agents; sandy --start gets --new and one --agent list', async function () {
        this.timeout(180_000);
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        await app.openSandyView();
        const page = app.page;
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        const focused = page.locator('.quick-input-widget .monaco-list-row.focused');
        await input.fill('>Sandy: Launch with…');
        await app.poll(async () => (await focused.getAttribute('aria-label', { timeout: 500 }))?.startsWith('Sandy: Launch with…'), 'the command');
        await page.keyboard.press('Enter');
        await app.poll(async () => (await input.getAttribute('placeholder'))?.startsWith('Launch with which options?'), 'the options pick');
        const tick = async (label: string) => {
            const box = page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).getByRole('checkbox');
            await box.click();
            await app.poll(async () => await box.isChecked(), `${label} ticked`);
        };
        // Only what sandy 2.7.1's schema offers, in the order of core's list.
        const rows = await page.locator('.quick-input-widget .monaco-list-row .label-name').allInnerTexts();
        expect(rows).to.deep.equal(['Start a fresh conversation', 'Pick a conversation to resume', 'Rebuild sandy\'s images first', 'Remote-controlled Claude session', 'Other agents for this launch…']);
        await tick('Start a fresh conversation');
        await tick('Other agents for this launch…');
        await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
        await app.poll(async () => (await input.getAttribute('placeholder'))?.startsWith('Which agents for this launch?'), 'the agents pick');
        const agents = await page.locator('.quick-input-widget .monaco-list-row .label-name').allInnerTexts();
        expect(agents, 'sandy 2.7.1\'s agents, grok included').to.include.members(['claude', 'codex', 'grok']);
        await tick('codex');
        await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();

        const daemon = await ide.attachedDaemon(ide.workspace, { timeout: 120_000 });
        const starts = ide.sandyProcesses().filter(p => p.pid === daemon.supervisor);
        // sandy's supervisor re-runs itself with the workspace it resolved; the options are the user's.
        expect(starts.map(p => p.args.filter((a, i, all) => a !== '--workspace' && all[i - 1] !== '--workspace')),
            'the session\'s supervisor was started as sandy --start --new --agent codex').to.deep.equal([['--start', '--new', '--agent', 'codex']]);
        await app.projectMenu(ide.projectName, 'Stop');
        await app.poll(() => ide.runningDaemon(ide.workspace) === undefined, 'the session to stop', { timeout: 60_000 });
    });

    it('Fleet maintenance: "Remove orphaned sandboxes" shows sandy\'s plan, then removes the orphan', async function () {
        this.timeout(180_000);
        const { ide, browser } = suite;
        const gone = path.join(path.dirname(ide.workspace), 'gone-2x');
        fs.mkdirSync(gone, { recursive: true });
        const r = spawnSync(path.join(FAKE_SANDY_BIN_DIR, 'sandy'), ['-p', 'hi'], { cwd: gone, env: ide.shellEnv(), encoding: 'utf8', timeout: 60_000 });
        expect(r.status, r.stderr).to.equal(0);
        const box = fs.readdirSync(path.join(ide.sandyHome, 'sandboxes')).find(n => n.startsWith('gone-2x-'));
        expect(box).to.be.a('string');
        fs.rmSync(gone, { recursive: true });

        const app = await browser.openApp(ide);
        await app.openSandyView();
        await app.commandPalette().runAndPick('Sandy: Fleet Maintenance…', 'Fleet maintenance: what should sandy do?', 'Remove orphaned sandboxes');
        const dialog = app.page.locator('.dialogOverlay .dialogBlock');
        await dialog.waitFor({ state: 'visible', timeout: 60_000 });
        const text = (await dialog.locator('.dialogContent').innerText()).replace(/\u00a0/g, ' ');
        expect(text).to.contain(`Will be removed (1): ${box} (was ${gone}).`);
        await dialog.locator('button', { hasText: 'Remove' }).click();
        await app.notifications().waitFor('Sandy: Remove orphaned sandboxes finished');
        expect(fs.existsSync(path.join(ide.sandyHome, 'sandboxes', box!))).to.equal(false);
    });
});
