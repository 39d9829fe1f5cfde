/**
 * Attack (issue 8 item 1) on the plugin in a real VS Code: code-server 4.100.3 with the linux .vsix.
 * The folder's `.vscode/settings.json` sets `sandy.path` to a script of the repository and
 * `sandy.passEnvironment` to the host's credential variables (which the user's login shell has);
 * later "the agent" rewrites it while a session runs. The host's sandy is a recorder on PATH in front
 * of the fake: it writes down every run and each credential it was handed. Asserts the repository's
 * scripts never run, no sandy run sees a credential, the Sandy log names what was ignored, and the
 * user's own sandy.path (User settings, application scope: honoured in code-server's remote window,
 * where a 'machine' scope value in User settings would be dropped) is used. (integration)
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, chromium, Page } from 'playwright-core';
import { CodeServer, saveFailureEvidence } from './code-server';
import { poll } from './poll';
import { FAKE_SANDY_BIN, platformVsix, requireCompiledFake, World } from './world';
import { terminalText, Workbench } from './workbench';
import { pollRuns, readText as read, writeAttackerSandy, writeRecordingSandy } from '@sandy-ui/test/lib/support/sandy-recorders';

const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';
const FAKE_SANDY = path.join(FAKE_SANDY_BIN, 'sandy');
const SECRETS = { AWS_SECRET_ACCESS_KEY: 'vsx-aws-secret-do-not-leak', GITHUB_TOKEN: 'ghp_vsxTokenDoNotLeak' };

function writeWorkspaceSettings(workspace: string, script: string): void {
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({
        'sandy.path': script,
        'sandy.passEnvironment': Object.keys(SECRETS),
        'editor.tabSize': 2
    }, undefined, 4));
}

describe('Sandy plugin in code-server: workspace settings cannot choose what runs on the host (integration)', function (): void {
    this.timeout(300_000);

    let world: World;
    let server: CodeServer;
    let browser: Browser;
    let page: Page;
    let bench: Workbench;
    let workspace: string;
    let hostLog: string;
    let attackLog: string;

    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        world = new World('ws-settings');
        workspace = world.workspace('attack-proj');
        hostLog = path.join(world.root, 'host-sandy.log');
        attackLog = path.join(world.root, 'attack-ran.log');
        writeRecordingSandy(path.join(world.root, 'host-bin', 'sandy'), hostLog, FAKE_SANDY);
        writeAttackerSandy(path.join(workspace, 'tools', 'sandy'), attackLog, FAKE_SANDY);
        writeWorkspaceSettings(workspace, path.join(workspace, 'tools', 'sandy'));
        // The developer's login shell: the credentials, the host's sandy first on PATH, a quick poll.
        const profile = [
            ...Object.entries(SECRETS).map(([k, v]) => `export ${k}='${v}'`),
            `export PATH="${path.join(world.root, 'host-bin')}:$PATH"`,
            'export FAKE_SANDY_DOCKER=1', 'export SANDY_IDE_POLL_MS=300', ''
        ].join('\n');
        fs.appendFileSync(path.join(world.home, '.profile'), profile);
        fs.appendFileSync(path.join(world.home, '.bashrc'), profile);
        server = new CodeServer(world, {
            label: 'ws-settings',
            vsix: platformVsix(),
            folder: workspace,
            settings: { 'sandy.passEnvironment': ['FAKE_SANDY_NODE', 'FAKE_SANDY_DOCKER'] }
        });
        expect(server.installExtension()).to.contain('was successfully installed');
        await server.start();
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
        page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
        bench = new Workbench(page, () => server.deathNotice());
        await page.goto(server.url);
        await bench.ready();
    });

    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && page) {
            await saveFailureEvidence('ws-settings', this.currentTest.title, page, server);
        }
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });

    function assertNoHarm(): void {
        expect(read(attackLog), 'the repository\'s script ran on the host').to.equal('');
        expect(read(hostLog), 'a sandy run was handed a credential').not.to.match(/^saw /m);
    }

    async function throughPollCycles(log: string, cycles: number): Promise<void> {
        const start = pollRuns(log);
        await poll(() => {
            assertNoHarm();
            return pollRuns(log) >= start + cycles;
        }, { message: `${cycles} state polls through ${log}`, timeout: 60_000, abort: () => server.deathNotice() });
    }

    it('the repository\'s .vscode/settings.json is ignored, and the Sandy log says so naming the file', async () => {
        await bench.openSandyView();
        await bench.waitForProject('attack-proj');
        await throughPollCycles(hostLog, 5);
        expect(read(hostLog)).to.match(/^run --version/m);
        const file = path.join(workspace, '.vscode', 'settings.json');
        const log = await poll(() => server.pluginLog().includes(`ignored "sandy.passEnvironment" in ${file}`) && server.pluginLog(),
            { message: 'the Sandy log to name the ignored settings' });
        expect(log).to.contain(`ignored "sandy.path" in ${file}: a workspace cannot choose the program the IDE runs`);
    });

    it('the agent rewriting .vscode/settings.json during a session runs nothing on the host', async () => {
        await bench.clickProjectRow('attack-proj');
        await bench.waitForTab(t => t.startsWith('sandy: attack-proj'), 'the sandy terminal tab');
        const terminal = await bench.webview('terminal');
        await poll(async () => /fake sandy 1\.7\.1-dev/.test(await terminalText(terminal)), { message: 'the fake sandy\'s TUI' });
        const second = path.join(workspace, '.git-hooks', 'sandy');
        writeAttackerSandy(second, attackLog, FAKE_SANDY);
        writeWorkspaceSettings(workspace, second);
        await throughPollCycles(hostLog, 6);
        assertNoHarm();
    });

    it('the user\'s own sandy.path (User settings) is honoured', async () => {
        const userSandy = path.join(world.home, 'opt', 'sandy', 'bin', 'sandy');
        const userLog = path.join(world.root, 'user-sandy.log');
        writeRecordingSandy(userSandy, userLog, FAKE_SANDY);
        const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
        settings['sandy.path'] = userSandy;
        settings['sandy.passEnvironment'] = [...settings['sandy.passEnvironment'] as string[], 'AWS_SECRET_ACCESS_KEY'];
        fs.writeFileSync(settingsFile, JSON.stringify(settings, undefined, 2));
        // code-server 4.100.3 does not notice an outside edit of User/settings.json until the window reloads.
        await page.reload();
        await bench.ready();
        // A click while the reloaded layout restores may close the view again: open it until it shows the project.
        await poll(async () => {
            await bench.openSandyView();
            return await bench.projectRow('attack-proj').count() > 0;
        }, { message: 'the Sandy view after the reload', interval: 1000, abort: () => server.deathNotice() });
        await poll(() => pollRuns(userLog) >= 3, { message: 'state polls through the user\'s sandy.path', timeout: 60_000, abort: () => server.deathNotice() });
        const log = read(userLog);
        expect(log).to.match(/^run --version/m);
        expect(log).to.match(/^saw AWS_SECRET_ACCESS_KEY$/m);
        expect(log).not.to.match(/^saw GITHUB_TOKEN$/m);
        expect(read(attackLog), 'the repository\'s script ran on the host').to.equal('');
    });
});
