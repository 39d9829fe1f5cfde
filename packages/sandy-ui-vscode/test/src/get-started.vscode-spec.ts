/**
 * Issue 12's "Sandy: Get Started" in a real VS Code (code-server, the linux .vsix), for a newcomer
 * whose HOME has never run it: the wizard opens by itself at the first start; its prerequisites see
 * the fake sandy, a docker CLI and an Engine API answering /_ping; the agent pick is written to
 * ~/.sandy/config; `sandy --build-only` runs and its phases show as a timeline; the test session
 * starts an agent in the wizard's own workspace, and Finish is remembered in ~/.sandy-ui. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import type { Browser, Frame, Page } from 'playwright-core';
import { holdsFor } from '@sandy-ui/test/lib/support/poll';
import { CodeServer, saveFailureEvidence } from './code-server';
import { useCodeServer } from './suite';
import { poll } from './poll';
import { platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, Workbench } from './workbench';


describe('Sandy plugin in code-server: Get Started for a newcomer (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;
    let docker: http.Server;

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('get-started', false);
        const workspace = world.workspace('newcomer-proj');
        // Docker installed and running: a docker CLI on PATH, an Engine API on the socket DOCKER_HOST names.
        const bin = world.dir('docker-bin');
        fs.writeFileSync(path.join(bin, 'docker'), '#!/bin/sh\necho "Docker version 27.0.0"\n', { mode: 0o755 });
        const socket = path.join(world.dir('docker'), 'docker.sock');
        docker = http.createServer((req, res) => {
            res.writeHead(req.url?.endsWith('/_ping') ? 200 : 404, { 'Api-Version': '1.45' });
            res.end(req.url?.endsWith('/_ping') ? 'OK' : '');
        });
        await new Promise<void>(resolve => docker.listen(socket, resolve));
        const profile = `export PATH="${bin}:$PATH"\nexport FAKE_SANDY_DOCKER=1\nexport SANDY_IDE_POLL_MS=500\nexport DOCKER_HOST=unix://${socket}\n`;
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, {
            label: 'get-started',
            vsix: platformVsix(),
            folder: workspace,
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'] }
        });
        expect(server.installExtension()).to.contain('was successfully installed');
        await server.start();
        ({ browser, page, bench } = await openWorkbench(server));
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('get-started', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        world?.sandy(['--stop'], path.join(world.home, '.sandy-ui', 'first-session'), { FAKE_SANDY_DOCKER: '1' });
        await browser?.close().catch(() => undefined);
        docker?.close();
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    async function wizard(): Promise<Frame> {
        return bench.visibleWebview('wizard', 60_000);
    }

    async function onStep(id: string): Promise<Frame> {
        return poll(async () => {
            const frame = await wizard();
            return await frame.locator(`.sandy-wizard-body[data-step="${id}"]`).isVisible() ? frame : undefined;
        }, { message: `the wizard's ${id} step`, timeout: 60_000 });
    }

    async function next(frame: Frame): Promise<void> {
        const button = frame.locator('[data-action="next"]');
        await poll(async () => !await button.isDisabled(), { message: 'Next to unlock', timeout: 60_000 });
        await button.click();
    }

    it('opens by itself at the first start and walks to a confirmed test session', async () => {
        await bench.waitForTab(t => t.startsWith('Get Started with Sandy'), 'the Get Started tab, opened by itself');
        let frame = await onStep('prerequisites');
        await poll(async () => await frame.locator('[data-check="sandy"][data-status="ok"]').isVisible(), { message: 'sandy found', timeout: 60_000 });
        await poll(async () => await frame.locator('[data-check="docker"][data-status="ok"]').isVisible(), { message: 'Docker running', timeout: 60_000 });
        await next(frame);

        frame = await onStep('agents');
        expect(await frame.locator('[data-agent="claude"] input').isChecked()).to.equal(true);
        await next(frame);
        frame = await onStep('auth');
        await poll(() => fs.existsSync(path.join(world.sandyHome, 'config')) && /^SANDY_AGENT=claude$/m.test(fs.readFileSync(path.join(world.sandyHome, 'config'), 'utf8')),
            { message: 'SANDY_AGENT written to ~/.sandy/config' });
        await next(frame);

        frame = await onStep('build');
        await frame.locator('[data-action="build"]').click();
        await poll(async () => await frame.locator('.sandy-wizard-build-state[data-state="done"]').isVisible(), { message: 'the build to finish', timeout: 60_000 });
        expect((await frame.locator('.sandy-wizard-timeline li').allTextContents()).join('\n')).to.match(/Base image/);
        await next(frame);

        frame = await onStep('test');
        await frame.locator('[data-action="start-test"]').click();
        await bench.waitForTab(t => t.startsWith('sandy: first-session'), 'the test session\'s tab');
        await bench.clickTab(t => t.startsWith('Get Started with Sandy'));
        frame = await onStep('test');
        await poll(async () => await frame.locator('.sandy-wizard-build-state[data-state="confirmed"]').isVisible(), { message: 'the test session confirmed', timeout: 60_000 });
        await next(frame);
        await onStep('finished');
        const state = JSON.parse(fs.readFileSync(path.join(world.home, '.sandy-ui', 'onboarding.json'), 'utf8'));
        expect(state.finishedAt).to.be.a('number');
        expect(state.steps).to.deep.equal({ prerequisites: 'done', agents: 'done', auth: 'done', build: 'done', test: 'done' });
    });
});

describe('Sandy plugin in code-server: Get Started, once dismissed, is not reopened by every window while sandy is missing (integration)', function (): void {
    this.timeout(300_000);

    const suite = useCodeServer({
        label: 'get-started-dismissed',
        onboarded: false,
        seed: world => {
            fs.mkdirSync(path.join(world.home, '.sandy-ui'), { recursive: true, mode: 0o700 });
            fs.writeFileSync(path.join(world.home, '.sandy-ui', 'onboarding.json'), JSON.stringify({ version: 1, steps: {}, dismissedAt: Date.now() }) + '\n', { mode: 0o600 });
            // sandy missing: no sandy on the PATH the extension host takes from a login shell (the world puts the fake there).
            const profile = `export PATH="${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin"\n`;
            fs.writeFileSync(path.join(world.home, '.profile'), profile);
            fs.writeFileSync(path.join(world.home, '.bashrc'), profile);
            return { folder: world.workspace('dismissed-proj') };
        }
    });

    it('stays closed after the plugin started; the Sandy view says sandy is missing, and Get Started runs from the palette', async () => {
        // The plugin has decided (its log says so), then nothing opens.
        await poll(async () => /sandy: Get Started at start: stays closed/.test(suite.server.pluginLog()), { message: 'the plugin to decide about Get Started', timeout: 90_000 });
        await holdsFor(async () => !(await suite.bench.tabTitles()).some(t => t.startsWith('Get Started with Sandy')), 3_000, 'no Get Started by itself');
        await suite.bench.openSandyView();
        const message = suite.page.locator('.part.sidebar .pane-body .message').first();
        await poll(async () => /not found/i.test(await message.textContent().catch(() => '') ?? ''), { message: 'the view to say sandy was not found', timeout: 30_000 });
        await suite.bench.runCommand('Sandy: Get Started');
        await suite.bench.waitForTab(t => t.startsWith('Get Started with Sandy'), 'Get Started from the palette');
    });
});
