/**
 * The README's screenshots, taken from the running plugin: code-server with this machine's platform
 * .vsix, the fake sandy drawing real recorded agent screens (test/fixtures/agent-screens), headless
 * Chromium at 1400x900. Saved to media/screenshots/. Not a test (not named *.vscode-spec.ts: the
 * suite does not run it); retake with
 *   npx tsc -b packages/sandy-ui-vscode/test
 *   npx mocha --timeout 300000 packages/sandy-ui-vscode/test/lib/screenshots.js
 * Docker here is a stand-in Engine API on a socket (answers /_ping and an empty container list), so the
 * views say Docker is running instead of showing the "Docker unreachable" state.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import type { Browser, Frame, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { FAKE_SANDY_BIN, PLUGIN_DIR, platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, terminalText, typeInTerminal, Workbench } from './workbench';

const OUT_DIR = path.join(PLUGIN_DIR, 'media', 'screenshots');
const squeeze = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, '');

/**
 * sandy and a docker CLI in ~/.local/bin (where sandy's install.sh puts sandy), on PATH, and an Engine
 * API on the socket DOCKER_HOST names: a machine where Get Started finds everything in place.
 */
async function fakeDocker(world: World): Promise<http.Server> {
    const bin = world.dir('home', '.local', 'bin');
    fs.writeFileSync(path.join(bin, 'docker'), '#!/bin/sh\necho "Docker version 27.0.0"\n', { mode: 0o755 });
    fs.symlinkSync(path.join(FAKE_SANDY_BIN, 'sandy'), path.join(bin, 'sandy'));
    const socket = path.join(world.dir('docker'), 'docker.sock');
    const server = http.createServer((req, res) => {
        const url = req.url ?? '';
        if (url.endsWith('/_ping')) {
            res.writeHead(200, { 'Api-Version': '1.45' });
            res.end('OK');
        } else if (/\/containers\/json/.test(url)) {
            res.writeHead(200, { 'Api-Version': '1.45', 'Content-Type': 'application/json' });
            res.end('[]');
        } else {
            res.writeHead(404, { 'Api-Version': '1.45' });
            res.end('');
        }
    });
    await new Promise<void>(resolve => server.listen(socket, resolve));
    const profile = `export PATH="${bin}:$PATH"\nexport FAKE_SANDY_DOCKER=1\nexport SANDY_IDE_POLL_MS=500\nexport DOCKER_HOST=unix://${socket}\n`;
    fs.appendFileSync(path.join(world.home, '.profile'), profile);
    fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
    return server;
}

async function shoot(page: Page, name: string): Promise<void> {
    fs.mkdirSync(OUT_DIR, { recursive: true });
    // Let animations (tab switches, progress bars) settle.
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(OUT_DIR, name) });
}

describe('README screenshots (not a test suite)', function (): void {
    this.timeout(300_000);

    let world: World | undefined;
    let server: CodeServer | undefined;
    let docker: http.Server | undefined;
    let browser: Browser | undefined;
    let page: Page | undefined;
    let bench: Workbench;
    let stopIn: string[] = [];

    before(() => {
        requireCompiledFake();
        CodeServer.requireInstalled();
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page && server) {
            await saveFailureEvidence('screenshots', this.currentTest.title, page, server);
        }
        for (const workspace of stopIn) {
            world?.sandy(['--stop'], workspace, { FAKE_SANDY_DOCKER: '1' });
        }
        stopIn = [];
        await browser?.close().catch(() => undefined);
        docker?.close();
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
        world = server = docker = browser = page = undefined;
    });

    async function start(label: string, onboarded: boolean, folder: (w: World) => string, projectList: () => string[] = () => []): Promise<void> {
        world = new World(label, onboarded);
        docker = await fakeDocker(world);
        const opened = folder(world);
        const projects = projectList();
        server = new CodeServer(world, {
            label,
            vsix: platformVsix(),
            folder: opened,
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'], 'workbench.colorTheme': 'Default Dark Modern' }
        });
        expect(server.installExtension()).to.contain('was successfully installed');
        if (projects.length) {
            fs.mkdirSync(server.pluginStorage, { recursive: true });
            fs.writeFileSync(path.join(server.pluginStorage, 'projects.json'),
                JSON.stringify({ version: 1, projects: projects.map(workspace => ({ workspace, addedAt: Date.now() })) }));
        }
        await server.start();
        ({ browser, page, bench } = await openWorkbench(server));
    }

    async function launch(name: string, workspace: string, screen: string): Promise<Frame> {
        await bench.openSandyView();
        await bench.waitForProject(name);
        await bench.projectContextMenu(name, 'Launch');
        await bench.waitForTab(t => t.startsWith(`sandy: ${name}`), `the sandy tab of ${name}`);
        stopIn.push(workspace);
        const terminal = await bench.visibleWebview('terminal', 60_000);
        await poll(async () => squeeze(await terminalText(terminal)).includes(squeeze(`fake sandy 1.7.1-dev — ${workspace}`)),
            { message: `the agent's screen in the tab of ${name}`, timeout: 60_000 });
        await typeInTerminal(page!, terminal, `show ${screen}`);
        await poll(async () => !(await terminalText(terminal)).includes('fake sandy 1.7.1-dev'),
            { message: `the recorded ${screen} screen in the tab of ${name}`, timeout: 30_000 });
        return terminal;
    }

    it('projects-and-session.png and dashboard.png', async () => {
        const names = ['web-shop', 'billing-api', 'docs-site'];
        const spaces: Record<string, string> = {};
        await start('shots', true, w => {
            for (const name of names) {
                spaces[name] = w.workspace(name);
            }
            return spaces[names[0]];
        }, () => names.slice(1).map(n => spaces[n]));

        await launch(names[0], spaces[names[0]], 'claude/idle-after-tool');
        for (const name of names) {
            await bench.waitForProject(name);
        }
        await shoot(page!, 'projects-and-session.png');

        await launch(names[1], spaces[names[1]], 'claude/permission-bash');
        await launch(names[2], spaces[names[2]], 'claude/working-thinking');
        await bench.runCommand('Sandy: Show Dashboard');
        await bench.waitForTab(t => t.startsWith('Sandy Dashboard'), 'the dashboard tab');
        const dashboard = await bench.visibleWebview('dashboard', 60_000);
        await poll(async () => (await dashboard.locator('button.sandy-dashboard-tile').count()) === 3, { message: 'three tiles on the dashboard' });
        await poll(async () => {
            const thumbs = await dashboard.locator('pre.sandy-dashboard-thumbnail').allTextContents();
            return thumbs.length === 3 && thumbs.every(t => !t.includes('fake sandy 1.7.1-dev'));
        }, { message: 'every thumbnail to show its recorded screen', timeout: 60_000 });
        await shoot(page!, 'dashboard.png');
    });

    it('get-started.png', async () => {
        await start('shots-newcomer', false, w => w.workspace('my-project'));
        await bench.waitForTab(t => t.startsWith('Get Started with Sandy'), 'the Get Started tab, opened by itself');
        const frame = await bench.visibleWebview('wizard', 60_000);
        await poll(async () => await frame.locator('.sandy-wizard-body[data-step="prerequisites"]').isVisible(), { message: 'the prerequisites step', timeout: 60_000 });
        await poll(async () => await frame.locator('[data-check="sandy"][data-status="ok"]').isVisible(), { message: 'sandy found', timeout: 60_000 });
        await poll(async () => await frame.locator('[data-check="docker"][data-status="ok"]').isVisible(), { message: 'Docker running', timeout: 60_000 });
        await shoot(page!, 'get-started.png');
    });
});
