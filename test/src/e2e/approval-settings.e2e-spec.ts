/**
 * Pre-flight approval and the settings editor, end to end: the built browser-app backend, headless
 * chromium and the fake sandy (see sandy-ide.e2e-spec.ts for the set-up). Every test asserts what the
 * user sees (DOM) and what really happened: which processes run with which environment (/proc), the
 * workspace lock, sandy's approval file, and the config files byte for byte.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { E2eBrowser } from './browser';
import { REPO_ROOT, SandyIde } from './harness';
import { holdsFor } from '../support/poll';
import { escapeRegExp, SandyApp } from './page-objects/sandy-app';
import { PreLayout } from './page-objects/sandy-approval';
import { SandyTerminal } from './page-objects/sandy-terminal';
import { useSandyIde } from './suite';

const HOSTILE_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'sandy-1.7.1', '21-validate-special-chars-values', 'input.config');
/** The schema the fake sandy prints with --print-schema, i.e. the one the IDE works from. */
const FAKE_SCHEMA = path.join(REPO_ROOT, 'test', 'src', 'fake-sandy', 'schema.json');
/** What the approval view shows instead of a secret's value (ApprovalLine.masked). */
const SECRET_MASK = '••••••••';
const AUTO_APPROVE = 'SANDY_AUTO_APPROVE_PRIVILEGED';
/** How long "nothing happens" is watched after a Reject. */
const QUIET_MS = 3_000;

interface SchemaKey {
    name: string;
    type: string;
}

function schemaKeys(): { privileged: Set<string>; secret: Set<string> } {
    const schema = JSON.parse(fs.readFileSync(FAKE_SCHEMA, 'utf8')) as { config: { privileged_keys: SchemaKey[]; passive_keys: SchemaKey[] } };
    const all = [...schema.config.privileged_keys, ...schema.config.passive_keys];
    return {
        privileged: new Set(schema.config.privileged_keys.map(k => k.name)),
        secret: new Set(all.filter(k => k.type === 'secret').map(k => k.name))
    };
}

/** Writes a file, creating its folder; `.secrets` files get sandy's 0600. */
function writeFile(file: string, text: string): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, { mode: path.basename(file) === '.secrets' ? 0o600 : 0o644 });
}

/** Passive approval files sandy wrote (`$SANDY_HOME/approvals/passive-*.list`). */
function approvalFiles(ide: SandyIde): string[] {
    try {
        return fs.readdirSync(path.join(ide.sandyHome, 'approvals')).filter(n => n.startsWith('passive-'));
    } catch {
        return [];
    }
}

describe('Pre-flight approval (end to end)', () => {
    const PLAIN_NAME = 'plain-proj';
    const suite = useSandyIde({
        label: 'approval',
        // A second project without privileged keys, known to the IDE from the start (as after Add Project).
        seed: ide => {
            const plain = path.join(path.dirname(ide.workspace), PLAIN_NAME);
            fs.mkdirSync(path.join(plain, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(plain, '.sandy', 'config'), '# nothing privileged here\nSANDY_MODEL=plain-e2e\n');
            fs.writeFileSync(path.join(ide.dataDir, 'projects.json'), JSON.stringify({
                version: 1, projects: [{ workspace: plain, addedAt: Date.now() }]
            }, undefined, 2) + '\n');
        }
    });
    let ide: SandyIde;
    let browser: E2eBrowser;
    let plain: string;
    let configFile: string;
    let secretsFile: string;

    before(() => {
        ({ ide, browser } = suite);
        plain = path.join(path.dirname(ide.workspace), PLAIN_NAME);
        configFile = path.join(ide.workspace, '.sandy', 'config');
        secretsFile = path.join(ide.workspace, '.sandy', '.secrets');
    });

    /** Every test starts with no session, no approval on record and only the files it writes. */
    beforeEach(async function () {
        this.timeout(60_000);
        // Daemon sessions (the default) end with sandy --stop; a foreground one by its signal.
        await ide.endSessions([ide.workspace, plain]);
        fs.rmSync(path.join(ide.sandyHome, 'approvals'), { recursive: true, force: true });
        fs.rmSync(path.join(ide.workspace, '.sandy'), { recursive: true, force: true });
    });

    /** Nothing of the project runs: no sandy process in its folder (supervisors included), no workspace lock, no container. */
    function expectNothingRunning(workspace = ide.workspace): void {
        expect(ide.leftovers(workspace), `sandy processes, lock and containers of ${workspace}`).to.deep.equal([]);
    }

    function nothingRunning(workspace = ide.workspace): boolean {
        return ide.leftovers(workspace).length === 0;
    }

    /**
     * The process that runs the agent of the (daemon) session in `workspace`: sandy's supervisor, once
     * it holds the workspace lock, owns the container and the IDE's attach client shows it.
     */
    async function sessionPid(app: SandyApp, workspace = ide.workspace): Promise<number> {
        return (await ide.attachedDaemon(workspace)).supervisor;
    }

    /**
     * Types `env` and returns its whole output as the screen shows it (between the command and a
     * marker echoed after it), failing if the output did not fit on the screen.
     */
    async function sessionEnv(terminal: SandyTerminal): Promise<string[]> {
        const marker = `env-done-${Date.now().toString(36)}`;
        await terminal.enter('env');
        await terminal.enter(`echo ${marker}`);
        const m = await terminal.waitForText(new RegExp(`^> env$\\n([\\s\\S]*?)^> echo ${marker}$\\n^${marker}$`, 'm')) as RegExpExecArray;
        const lines = m[1].split('\n').filter(Boolean);
        expect(lines.length, 'env printed something').to.be.greaterThan(3);
        return lines;
    }

    it('shows hostile file content byte for byte, as text, unwrapped and uncut', async () => {
        // The fixture's values carry HTML, shell and quoting tricks; <PROBE> is its only placeholder.
        const fixture = fs.readFileSync(HOSTILE_FIXTURE, 'utf8');
        expect(fixture).to.contain('<PROBE>');
        const config = fixture.replace(/<PROBE>/g, ide.root);
        // Plus a secret, masked in the view: hostile too, and long enough to need scrolling once revealed.
        const secretLine = `ANTHROPIC_API_KEY=sk-ant-e2e-<script>window.pwnedE2e=1</script>&"q" 'x' $(id)\t${'&amp; <i>not italic</i> '.repeat(20)}END`;
        const secrets = `# secrets of the e2e approval test\n${secretLine}\n`;
        writeFile(configFile, config);
        writeFile(secretsFile, secrets);
        const { privileged, secret } = schemaKeys();
        const expected = [
            ...config.split('\n').map((text, i) => ({ file: '.sandy/config', line: i + 1, text })),
            ...secrets.split('\n').map((text, i) => ({ file: '.sandy/.secrets', line: i + 1, text }))
        ].map(l => ({ ...l, key: /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(l.text)?.[1] ?? '' })).filter(l => privileged.has(l.key));
        // The fixture's privileged lines plus the secret: the view has something of each kind to get wrong.
        expect(expected.map(l => l.key)).to.deep.equal(['SANDY_AGENT_ARGS', 'TELEGRAM_ALLOWED_SENDERS', 'ANTHROPIC_API_KEY']);

        const app = await browser.openApp(ide);
        await app.clickProject(ide.projectName);
        const view = await app.approval(ide.workspace).waitForOpen();
        expect(await view.tabTitle()).to.equal(`Approve: ${ide.projectName}`);
        expect(await view.heading()).to.equal('Approve privileged settings for this workspace?');
        // Pre-flight comes before any terminal or process.
        expect(await app.terminalTabs(ide.projectName).count()).to.equal(0);
        expectNothingRunning();

        const shown = await view.lines();
        expect(shown.map(l => `${l.file}:${l.line}:${l.key}`)).to.deep.equal(expected.map(l => `${l.file}:${l.line}:${l.key}`));
        expect(await view.pres.count()).to.equal(expected.length);
        for (const [i, line] of shown.entries()) {
            const source = expected[i];
            if (secret.has(line.key)) {
                expect(line.masked, `${line.key} is masked`).to.equal(true);
                expect(line.text).to.equal(`${source.text.slice(0, source.text.indexOf('=') + 1)}${SECRET_MASK}`);
                expect(line.text).to.not.contain('sk-ant');
            } else {
                expect(line.masked, `${line.key} is not masked`).to.equal(false);
                // Exactly the file's line: no trimming, no entity decoding, no quote handling.
                expect(line.text, `${line.file} line ${line.line}`).to.equal(source.text);
            }
            expect(line.change).to.equal('new');
        }

        // Text, never markup: the <b> of SANDY_AGENT_ARGS stays characters.
        expect(await view.elementsNamed('script', 'b', 'i')).to.deep.equal([]);
        const expectUnwrappedAndUncut = async (): Promise<PreLayout[]> => {
            const layouts = await view.preLayouts();
            for (const layout of layouts) {
                expect(layout.whiteSpace).to.equal('pre');
                expect(layout.textOverflow).to.not.equal('ellipsis');
                // One line box (not wrapped), and all of it reachable: wider text scrolls, it is not clipped away.
                expect(layout.lineBoxes, JSON.stringify(layout)).to.equal(1);
                expect(layout.scrollWidth).to.be.at.least(layout.clientWidth);
                expect(layout.scrollWidth + 1, JSON.stringify(layout)).to.be.at.least(layout.textWidth);
                if (layout.scrollWidth > layout.clientWidth) {
                    expect(layout.overflowX).to.be.oneOf(['auto', 'scroll']);
                }
            }
            return layouts;
        };
        await expectUnwrappedAndUncut();

        // Reveal shows the real line (still as text, all of it: it is wider than the view and scrolls), Hide masks it again.
        await view.toggleReveal('ANTHROPIC_API_KEY');
        expect(await view.preText('ANTHROPIC_API_KEY')).to.equal(secretLine);
        expect(await view.elementsNamed('script', 'b', 'i')).to.deep.equal([]);
        const revealed = (await expectUnwrappedAndUncut())[2];
        expect(revealed.scrollWidth, 'the revealed long line overflows its box (and scrolls)').to.be.greaterThan(revealed.clientWidth);
        expect(await app.page.evaluate(() => (window as unknown as { pwnedE2e?: number }).pwnedE2e)).to.equal(undefined);
        await view.toggleReveal('ANTHROPIC_API_KEY');
        expect(await view.preText('ANTHROPIC_API_KEY')).to.equal(`ANTHROPIC_API_KEY=${SECRET_MASK}`);

        await view.decide('reject');
        await view.waitForClosed();
        expectNothingRunning();
        // Nothing evaluated the fixture's `$(touch <PROBE>/tmp/pwned)` along the way.
        expect(fs.existsSync(path.join(ide.root, 'tmp', 'pwned'))).to.equal(false);
    });

    it('Approve lets sandy ask in the tab and record the approval itself; the next launch asks nothing; Revoke asks again', async () => {
        writeFile(configFile, '# privileged, so pre-flight asks\nSANDY_ALLOW_HOSTS=e2e.example.com\n');
        const app = await browser.openApp(ide);
        await app.clickProject(ide.projectName);
        const view = await app.approval(ide.workspace).waitForOpen();
        expect((await view.lines()).map(l => l.text)).to.deep.equal(['SANDY_ALLOW_HOSTS=e2e.example.com']);
        await view.decide('approve');
        await view.waitForClosed();

        const terminal = await app.terminal(ide.projectName);
        // sandy's own prompt was answered in the tab for exactly the key the user approved (the agent's
        // screen then covers it), so sandy wrote its approval record.
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        await app.poll(() => approvalFiles(ide).length === 1, 'sandy to record the approval');
        const pid = await sessionPid(app);
        expect(ide.processEnv(pid), `/proc/${pid}/environ`).to.not.have.property(AUTO_APPROVE);
        expect((await sessionEnv(terminal)).filter(l => l.startsWith(`${AUTO_APPROVE}=`))).to.deep.equal([]);
        // sandy recorded the decision in its own approval file (key names only).
        expect(approvalFiles(ide)).to.have.length(1);
        const record = fs.readFileSync(path.join(ide.sandyHome, 'approvals', approvalFiles(ide)[0]), 'utf8');
        expect(record.split('\n').slice(3).filter(Boolean)).to.deep.equal(['SANDY_ALLOW_HOSTS']);

        // Another project launched meanwhile asks nothing and gets no approval of its own.
        await app.clickProject(PLAIN_NAME);
        const plainTerminal = await app.terminal(PLAIN_NAME);
        await plainTerminal.waitForText(`fake sandy 1.7.1-dev — ${plain}`);
        expect(await app.approval(plain).isOpen()).to.equal(false);
        const plainPid = await sessionPid(app, plain);
        expect(ide.processEnv(plainPid), `/proc/${plainPid}/environ`).to.not.have.property(AUTO_APPROVE);
        expect(await sessionEnv(plainTerminal)).to.include(`HOME=${ide.home}`);

        // Stop the approved session from the project's context menu...
        await app.projectMenu(ide.projectName, 'Stop');
        await app.poll(() => nothingRunning(), `the session in ${ide.workspace} to end and release its lock`);
        await terminal.activate();
        await terminal.waitForText(/^The daemon session was stopped \(sandy --stop\)\.$/m);

        // ...and launch it again: unchanged files, so neither the IDE nor sandy asks.
        await terminal.relaunchButton.click();
        const relaunchedPid = await sessionPid(app);
        expect(relaunchedPid).to.not.equal(pid);
        expect(await app.approval(ide.workspace).isOpen()).to.equal(false);
        await app.stopProject(ide.projectName);
        await app.poll(() => nothingRunning(), `the relaunched session in ${ide.workspace} to end`);

        // Revoke Approval really revokes: sandy's file is gone and the next launch asks again.
        await app.projectMenu(ide.projectName, 'Revoke Approval');
        await app.poll(() => approvalFiles(ide).length === 0, 'sandy\'s approval file to be deleted');
        await app.clickProject(ide.projectName);
        const again = await app.approval(ide.workspace).waitForOpen('the approval view to ask again after Revoke');
        expect((await again.lines()).map(l => l.text)).to.deep.equal(['SANDY_ALLOW_HOSTS=e2e.example.com']);
        await again.decide('reject');
        await again.waitForClosed();
        await holdsFor(() => nothingRunning(), QUIET_MS, `no sandy process and no lock in ${ide.workspace} after Reject`);
        expect(approvalFiles(ide)).to.deep.equal([]);
        // The plain project's session ran on untouched.
        expect(ide.runningDaemon(plain)?.supervisor).to.equal(plainPid);
    });

    it('Reject starts nothing: no terminal tab, no process, no lock', async () => {
        writeFile(configFile, 'SANDY_AGENT_ARGS=--e2e-reject\n');
        const app = await browser.openApp(ide);
        await app.clickProject(ide.projectName);
        const view = await app.approval(ide.workspace).waitForOpen();
        expect(await view.buttons()).to.deep.equal(['approve', 'reject']);
        await view.decide('reject');
        await view.waitForClosed();
        await holdsFor(async () => nothingRunning() && await app.terminalTabs(ide.projectName).count() === 0, QUIET_MS,
            'no terminal tab, sandy process or lock after Reject');
        expect(approvalFiles(ide)).to.deep.equal([]);
    });

    it('asks again when the files change between showing and launching, and starts nothing before that', async () => {
        const first = '# e2e\nSANDY_ALLOW_HOSTS=e2e.example.com\n';
        writeFile(configFile, first);
        const app = await browser.openApp(ide);
        await app.clickProject(ide.projectName);
        const view = await app.approval(ide.workspace).waitForOpen();
        expect((await view.lines()).map(l => l.key)).to.deep.equal(['SANDY_ALLOW_HOSTS']);

        // The agent (or anyone) adds a privileged line while the user reads the view.
        const added = 'SANDY_AGENT_ARGS=--dangerously-added-after-review';
        writeFile(configFile, `${first}${added}\n`);
        await view.decide('approve');

        // What was approved is not what sandy would load: a fresh view with the new line, and no process.
        const fresh = app.approval(ide.workspace);
        await app.poll(async () => await fresh.row('SANDY_AGENT_ARGS').isVisible(), 'a fresh approval view with the added line');
        await fresh.waitForOpen();
        const lines = await fresh.lines();
        expect(lines.map(l => `${l.line}:${l.text}`)).to.deep.equal(['2:SANDY_ALLOW_HOSTS=e2e.example.com', `3:${added}`]);
        await holdsFor(() => nothingRunning(), 1_000, 'no sandy process or lock before the second approval');

        await fresh.decide('approve');
        const terminal = await app.terminal(ide.projectName);
        await terminal.waitForText(`fake sandy 1.7.1-dev — ${ide.workspace}`);
        const pid = await sessionPid(app);
        expect(ide.processEnv(pid)).to.not.have.property(AUTO_APPROVE);
        expect(ide.supervisors(ide.workspace)).to.deep.equal([pid]);
        // sandy recorded exactly the set of the second view.
        await app.poll(() => approvalFiles(ide).length === 1, 'sandy to record the approval');
        const record = fs.readFileSync(path.join(ide.sandyHome, 'approvals', approvalFiles(ide)[0]), 'utf8');
        expect(record.split('\n').slice(3).filter(Boolean)).to.deep.equal(['SANDY_AGENT_ARGS', 'SANDY_ALLOW_HOSTS']);
    });

    it('refuses a world-open SANDY_ALLOW_LAN_HOSTS without Approve, and Open Settings goes to the key', async () => {
        writeFile(configFile, '# world-open LAN allowlist\nSANDY_ALLOW_LAN_HOSTS=0.0.0.0/0\n');
        const app = await browser.openApp(ide);
        await app.clickProject(ide.projectName);
        const view = await app.approval(ide.workspace).waitForOpen();
        expect(await view.heading()).to.equal('sandy will not launch with this configuration');
        expect(await view.tabTitle(), 'a refusal is titled as one').to.equal(`Refused: ${ide.projectName}`);
        const refusals = await view.refusals();
        expect(refusals).to.have.length(1);
        expect(refusals[0].role).to.equal('alert');
        expect(refusals[0].message).to.equal(`SANDY_ALLOW_LAN_HOSTS in ${configFile} line 2 contains the world-open entry "0.0.0.0/0". sandy refuses to launch with it.`);
        expect(refusals[0].remediation).to.match(new RegExp(`^Remove "0\\.0\\.0\\.0/0" from SANDY_ALLOW_LAN_HOSTS in ${escapeRegExp(configFile)} line 2 and list only the LAN hosts`));
        expect(await view.button('approve').count()).to.equal(0);
        expect(await view.buttons()).to.deep.equal(['open-settings', 'reject']);

        await view.decide('open-settings');
        const settings = app.settings(ide.workspace);
        await settings.waitForLoaded();
        await app.poll(() => settings.isCurrent(), 'the settings editor to be the current tab');
        expect(await settings.activeScope()).to.equal('project');
        const field = settings.field('SANDY_ALLOW_LAN_HOSTS');
        expect(await settings.value('SANDY_ALLOW_LAN_HOSTS')).to.equal('0.0.0.0/0');
        await app.poll(() => settings.input('SANDY_ALLOW_LAN_HOSTS').evaluate(el => el === document.activeElement),
            'the SANDY_ALLOW_LAN_HOSTS input to have keyboard focus');
        const inView = await field.evaluate(row => {
            const r = row.getBoundingClientRect();
            const box = row.closest('.sandy-settings-widget')!.getBoundingClientRect();
            return r.height > 0 && r.top >= box.top && r.bottom <= box.bottom;
        });
        expect(inView, 'the SANDY_ALLOW_LAN_HOSTS row is scrolled into view').to.equal(true);
        expect(await view.isOpen()).to.equal(false);
        await holdsFor(async () => nothingRunning() && await app.terminalTabs(ide.projectName).count() === 0, 1_000,
            'no terminal tab, sandy process or lock after the refusal');
    });
});

describe('Settings editor (end to end)', () => {
    const suite = useSandyIde({ label: 'settings' });
    let ide: SandyIde;
    let browser: E2eBrowser;

    before(() => {
        ({ ide, browser } = suite);
    });

    /** Opens the settings editor of the workspace through the palette, as a user would. */
    async function openSettings(app: SandyApp): Promise<ReturnType<SandyApp['settings']>> {
        await app.commandPalette().run('Sandy: Open Settings');
        const settings = app.settings(ide.workspace);
        await settings.waitForLoaded();
        return settings;
    }

    /** All markup, every form value and the stored layout (localStorage) of the page: where a secret must never turn up. */
    function pageText(app: SandyApp): Promise<string> {
        return app.page.evaluate(() => [
            document.documentElement.outerHTML,
            ...Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')).map(i => i.value),
            ...Object.keys(localStorage).map(k => `${k}=${localStorage.getItem(k)}`)
        ].join('\n'));
    }

    it('edits both scopes, keeps pending edits across tabs, writes only what changed, guards secrets', async () => {
        const projectConfig = path.join(ide.workspace, '.sandy', 'config');
        const projectSecrets = path.join(ide.workspace, '.sandy', '.secrets');
        const globalConfig = path.join(ide.sandyHome, 'config');
        const projectSeed = [
            '# Project settings of the e2e suite',
            '# (comments, blank lines and unknown keys must survive a save byte for byte)',
            '',
            'SANDY_AGENT=claude',
            '   # an indented comment',
            'E2E_UNKNOWN_KEY=keep "me" & <this>',
            'SANDY_MODEL=sonnet-e2e',
            '',
            '# the last line',
            ''
        ].join('\n');
        const globalSeed = [
            '# Global sandy settings (e2e)',
            '',
            'SANDY_CPUS=1',
            'OTHER_TOOL_SETTING=unrelated',
            '\t# a tab-indented comment',
            'SANDY_MEM=4g',
            ''
        ].join('\n');
        writeFile(projectConfig, projectSeed);
        writeFile(globalConfig, globalSeed);

        const app = await browser.openApp(ide);
        let settings = await openSettings(app);
        expect(await settings.activeScope()).to.equal('project');
        expect(await settings.value('SANDY_MODEL')).to.equal('sonnet-e2e');

        // Project: a passive key.
        await settings.type('SANDY_MODEL', 'opus-e2e');
        expect(await settings.isDirty('SANDY_MODEL')).to.equal(true);
        expect(await settings.scopeDirty('project')).to.equal(true);

        // Global: another key, while the Project edit is pending.
        await settings.selectScope('global');
        expect(await settings.value('SANDY_CPUS')).to.equal('1');
        await settings.type('SANDY_CPUS', '3');
        expect(await settings.isDirty('SANDY_CPUS')).to.equal(true);

        // Back to Project: the pending edit is still there, and nothing is on disk yet.
        await settings.selectScope('project');
        expect(await settings.value('SANDY_MODEL')).to.equal('opus-e2e');
        expect(await settings.isDirty('SANDY_MODEL')).to.equal(true);
        expect(await settings.scopeDirty('global')).to.equal(true);
        expect(fs.readFileSync(projectConfig, 'utf8')).to.equal(projectSeed);
        expect(fs.readFileSync(globalConfig, 'utf8')).to.equal(globalSeed);

        // Save saves the active scope only; every other line stays byte-identical, in place.
        expect(await settings.save()).to.include('Saved 1 setting to Project.');
        const projectSaved = projectSeed.replace('SANDY_MODEL=sonnet-e2e\n', 'SANDY_MODEL=opus-e2e\n');
        await app.poll(() => fs.readFileSync(projectConfig, 'utf8') === projectSaved, 'the Project config to hold SANDY_MODEL=opus-e2e');
        expect(fs.readFileSync(globalConfig, 'utf8')).to.equal(globalSeed);
        await app.poll(async () => !await settings.isDirty('SANDY_MODEL'), 'SANDY_MODEL to be saved (not dirty)');

        await settings.selectScope('global');
        expect(await settings.value('SANDY_CPUS')).to.equal('3');
        expect(await settings.save()).to.include('Saved 1 setting to Global.');
        const globalSaved = globalSeed.replace('SANDY_CPUS=1\n', 'SANDY_CPUS=3\n');
        await app.poll(() => fs.readFileSync(globalConfig, 'utf8') === globalSaved, 'the Global config to hold SANDY_CPUS=3');
        expect(fs.readFileSync(projectConfig, 'utf8')).to.equal(projectSaved);

        // A secret goes to the workspace .secrets (0600), never to config, and never back to the page.
        const secret = `sk-ant-e2e-${Date.now().toString(36)}-never-in-the-dom`;
        await settings.selectScope('project');
        expect(await settings.badges('ANTHROPIC_API_KEY')).to.include('not set');
        await settings.type('ANTHROPIC_API_KEY', secret);
        expect(await settings.badges('ANTHROPIC_API_KEY')).to.include('✓ set on save');
        expect(await settings.save()).to.include('Saved 1 setting to Project.');
        await app.poll(() => fs.existsSync(projectSecrets) && fs.readFileSync(projectSecrets, 'utf8') === `ANTHROPIC_API_KEY=${secret}\n`,
            'the secret to be written to .sandy/.secrets');
        expect(fs.statSync(projectSecrets).mode & 0o777).to.equal(0o600);
        expect(fs.readFileSync(projectConfig, 'utf8')).to.equal(projectSaved);
        await app.poll(async () => (await settings.badges('ANTHROPIC_API_KEY')).includes('✓ set'), 'the secret badge to say ✓ set');
        expect(await settings.value('ANTHROPIC_API_KEY')).to.equal('');

        await app.reload();
        settings = app.settings(ide.workspace);
        if (!await settings.widget.isVisible()) {
            settings = await openSettings(app);
        }
        await settings.waitForLoaded();
        await settings.selectScope('project');
        await app.poll(async () => (await settings.badges('ANTHROPIC_API_KEY')).includes('✓ set'), 'the secret badge to say ✓ set after a reload');
        expect(await pageText(app)).to.not.contain(secret);
        expect(await settings.value('SANDY_MODEL')).to.equal('opus-e2e');

        // Revert throws a pending edit away.
        await settings.type('SANDY_MODEL', 'discard-me');
        expect(await settings.isDirty('SANDY_MODEL')).to.equal(true);
        await settings.revert();
        expect(await settings.value('SANDY_MODEL')).to.equal('opus-e2e');
        expect(await settings.isDirty('SANDY_MODEL')).to.equal(false);
        expect(await settings.scopeDirty('project')).to.equal(false);
        expect(fs.readFileSync(projectConfig, 'utf8')).to.equal(projectSaved);

        // An invalid value blocks that field only: the valid edit beside it is saved.
        await settings.type('SANDY_MODEL', 'bad model!');
        await settings.type('GEMINI_MODEL', 'gemini-e2e');
        expect(await settings.isInvalid('SANDY_MODEL')).to.equal(true);
        expect(await settings.error('SANDY_MODEL')).to.match(/does not match the pattern/);
        expect(await settings.input('SANDY_MODEL').getAttribute('aria-invalid')).to.equal('true');
        expect(await settings.isInvalid('GEMINI_MODEL')).to.equal(false);
        expect(await settings.error('GEMINI_MODEL')).to.equal('');
        const status = await settings.save();
        expect(status).to.include('Saved 1 setting to Project.');
        expect(status.some(l => /^SANDY_MODEL was not saved: .*pattern/.test(l)), JSON.stringify(status)).to.equal(true);
        await app.poll(() => fs.readFileSync(projectConfig, 'utf8').includes('GEMINI_MODEL=gemini-e2e\n'), 'GEMINI_MODEL to be written');
        const afterInvalid = fs.readFileSync(projectConfig, 'utf8');
        // Only the new line was added; SANDY_MODEL still holds the last valid value.
        expect(afterInvalid.replace('GEMINI_MODEL=gemini-e2e\n', '')).to.equal(projectSaved);
        expect(await settings.value('SANDY_MODEL')).to.equal('bad model!');
        expect(await settings.isDirty('SANDY_MODEL')).to.equal(true);
        expect(await settings.isDirty('GEMINI_MODEL')).to.equal(false);
        expect(fs.readFileSync(globalConfig, 'utf8')).to.equal(globalSaved);
        expect(fs.readFileSync(projectSecrets, 'utf8')).to.equal(`ANTHROPIC_API_KEY=${secret}\n`);
    });
});
