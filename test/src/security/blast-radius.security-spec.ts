/**
 * Attack (issue 8 item 6): sandy bind-mounts the workspace read-write into the sandbox, so a launch
 * in `~/.sandy` or `~/.ssh` hands the agent `.secrets` and `id_rsa` (and `$HOME` or `/` hand it
 * everything). Before the fix the IDE accepted such a folder from Add Project, from the folder open
 * in the window, and from Launch, including a harmless-looking `~/proj-link` that is a symlink to
 * `~/.ssh`.
 *
 * Run against the BUILT browser-app with the fake sandy, behind a recorder on PATH that writes down
 * every sandy run and the folder it ran in. Each test goes through a door a user has (the Add
 * Project dialog, a window opened on the folder, Sandy: Launch on a sandbox sandy already lists for
 * it) and asserts the harm did not happen (no sandy ran in or on those folders, no session exists
 * there, nothing was added as a project) and that the user is told, naming the folder and which to
 * open instead; and that a normal project still launches.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import type { Page } from 'playwright-core';
import { OPEN_PROJECT_INSTEAD } from '@sandy-ui/core/node';
import { E2eBrowser } from '../e2e/browser';
import { FAKE_SANDY_BIN_DIR, SandyIde } from '../e2e/harness';
import { SandyApp } from '../e2e/page-objects/sandy-app';
import { useSandyIde } from '../e2e/suite';
import { sandboxName } from '../fake-sandy/harness';
import { holdsFor } from '../support/poll';

/** What the attacker is after, planted in the scratch HOME. */
const ID_RSA = '-----BEGIN OPENSSH PRIVATE KEY-----\ne2e-do-not-leak\n';
const SECRETS = 'ANTHROPIC_API_KEY=sk-ant-e2e-do-not-leak\n';

interface World {
    ssh: string;
    sandy: string;
    link: string;
    home: string;
    root: string;
    recorderLog: string;
}

function worldOf(ide: SandyIde): World {
    return {
        ssh: path.join(ide.home, '.ssh'),
        sandy: path.join(ide.home, '.sandy'),
        link: path.join(ide.home, 'proj-link'),
        home: ide.home,
        root: '/',
        recorderLog: path.join(ide.root, 'sandy-runs.log')
    };
}

/** The host's sandy: writes `<cwd>\t<args>` for every run, then is the fake sandy. */
function writeRecorder(file: string, log: string): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, [
        '#!/bin/sh',
        `printf '%s\\t%s\\n' "$PWD" "$*" >> '${log}'`,
        `exec '${path.join(FAKE_SANDY_BIN_DIR, 'sandy')}' "$@"`,
        ''
    ].join('\n'), { mode: 0o755 });
}

function seed(ide: SandyIde, env: Record<string, string>): void {
    const w = worldOf(ide);
    fs.mkdirSync(w.ssh, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(w.ssh, 'id_rsa'), ID_RSA, { mode: 0o600 });
    fs.mkdirSync(w.sandy, { recursive: true });
    fs.writeFileSync(path.join(w.sandy, '.secrets'), SECRETS, { mode: 0o600 });
    fs.symlinkSync(w.ssh, w.link);
    // A sandy once run in $HOME from a terminal (before the IDE): sandy lists its sandbox, so the
    // Projects list shows a row for $HOME that Launch can be run on. (A sandbox of ~/.ssh or ~/.sandy
    // is named `.ssh-…`, which sandy's --print-state skips: no row can offer those.)
    const first = spawnSync(path.join(FAKE_SANDY_BIN_DIR, 'sandy'), ['-p', 'hello'], {
        cwd: w.home, encoding: 'utf8', env: { HOME: ide.home, PATH: process.env.PATH ?? '/usr/bin:/bin', FAKE_SANDY_NODE: process.execPath, TMPDIR: path.join(ide.root, 'tmp') }
    });
    if (first.status !== 0) {
        throw new Error(`seeding the $HOME sandbox failed: ${first.stderr}`);
    }
    fs.rmSync(path.join(w.sandy, 'sandboxes', `.${sandboxName(w.home)}.lock`), { recursive: true, force: true });
    // The user trusts these folders (Theia's workspace trust is no protection here, so it is not relied on).
    const settingsFile = path.join(ide.home, '.sandy-ide', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    const trusted = (settings['security.workspace.trust.trustedFolders'] as string[] | undefined) ?? [];
    settings['security.workspace.trust.trustedFolders'] = [...trusted, ...[w.ssh, w.link, w.home, w.sandy, '/'].map(p => pathToFileURL(p).toString())];
    fs.writeFileSync(settingsFile, JSON.stringify(settings, undefined, 4));

    writeRecorder(path.join(ide.root, 'host-bin', 'sandy'), w.recorderLog);
    env.PATH = [path.join(ide.root, 'host-bin'), FAKE_SANDY_BIN_DIR, process.env.PATH ?? ''].join(path.delimiter);
}

function runs(w: World): Array<{ cwd: string; args: string[] }> {
    let text = '';
    try {
        text = fs.readFileSync(w.recorderLog, 'utf8');
    } catch {
        return [];
    }
    return text.split('\n').filter(Boolean).map(line => {
        const [cwd, args] = line.split('\t');
        return { cwd, args: (args ?? '').split(' ') };
    });
}

const within = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}/`);

/**
 * The harm: a sandy run in one of the folders (a launch there mounts it), or handed a path in
 * them. Introspection with the IDE's own folders (`--print-state`) runs elsewhere and names none.
 */
function harmfulRuns(w: World): string[] {
    return runs(w).filter(r => {
        const inside = [w.ssh, w.sandy, w.link].some(d => within(r.cwd, d)) || r.cwd === w.home || r.cwd === w.root;
        const names = r.args.some(a => [w.ssh, w.sandy, w.link].some(d => within(a, d)) || a === w.home || a === w.root);
        return inside || names;
    }).map(r => `${r.cwd}: sandy ${r.args.join(' ')}`);
}

/** Interactive sandy sessions of this run whose folder is one of the attacked ones. */
function sessionsInBlocked(ide: SandyIde, w: World): number[] {
    return [w.ssh, w.sandy, w.home, w.root].flatMap(d => ide.sandySessionsIn(d));
}

describe('Launch refuses blast-radius folders (security)', () => {
    const env: Record<string, string> = {};
    const suite = useSandyIde({ label: 'sec-blast-radius', env, seed: ide => seed(ide, env) });
    let ide: SandyIde;
    let browser: E2eBrowser;
    let w: World;

    before(() => {
        ({ ide, browser } = suite);
        w = worldOf(ide);
    });

    function assertNoHarm(): void {
        expect(harmfulRuns(w), 'sandy ran in or on a blast-radius folder').to.deep.equal([]);
        expect(sessionsInBlocked(ide, w), 'a sandy session runs in a blast-radius folder').to.deep.equal([]);
        expect(fs.readFileSync(path.join(w.ssh, 'id_rsa'), 'utf8')).to.equal(ID_RSA);
        expect(fs.readFileSync(path.join(w.sandy, '.secrets'), 'utf8')).to.equal(SECRETS);
    }

    /** How the refusal of `folder` starts (exactly: `~/.ssh`'s also starts with `$HOME`'s path). */
    function refusalOf(folder: string): string {
        return folder === w.link ? `Sandy will not use ${folder} (a link to ${w.ssh})` : `Sandy will not use ${folder} as a workspace`;
    }

    /** The refusal as the user reads it: the folder they picked, and what to open instead. */
    function expectRefusalText(text: string, folder: string): void {
        expect(text).to.contain(refusalOf(folder));
        expect(text).to.contain(OPEN_PROJECT_INSTEAD);
    }

    /**
     * A window on `folder` (File › Open Folder reloads the window at `#<folder>`). Every test names its
     * folder: a window without one opens the most recently used workspace, which a test before may have set.
     */
    async function openWindowOn(folder: string): Promise<SandyApp> {
        const context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } });
        context.setDefaultTimeout(15_000);
        const page: Page = await context.newPage();
        windows.push(page);
        return SandyApp.load(page, `${ide.url}#${folder}`, () => ide.deathNotice());
    }
    const windows: Page[] = [];
    afterEach(async () => {
        for (const page of windows.splice(0)) {
            await page.context().close().catch(() => undefined);
        }
    });

    /** Add Project → the folder dialog → type the folder into its location box (or pick it from the list) → Add Project. */
    async function addProjectThroughDialog(app: SandyApp, folder: string): Promise<void> {
        const page = app.page;
        await app.commandPalette().run('Sandy: Add Project');
        const dialog = page.locator('.dialogOverlay').filter({ hasText: 'Add a project folder to Sandy' });
        await dialog.waitFor({ state: 'visible' });
        const list = dialog.locator('select.theia-LocationList');
        const wanted = pathToFileURL(folder).toString().replace(/\/$/, '');
        const options = await list.locator('option').evaluateAll(os => os.map(o => (o as HTMLOptionElement).value));
        const listed = options.find(v => v.replace(/\/$/, '') === wanted);
        if (listed) {
            // An ancestor of the current folder ($HOME, /): the location list offers it.
            await list.selectOption(listed);
        } else {
            await dialog.locator('.theia-LocationInputToggle').dispatchEvent('mousedown');
            const input = dialog.locator('input.theia-LocationTextInput');
            await input.waitFor({ state: 'visible' });
            // With a trailing slash: Theia completes a typed path to the first sibling whose path
            // contains it once the parent's listing arrives (`~/.sandy` became `~/.sandy-ide` when the
            // listing came before Enter, in readdir's order); it does not complete a path ending in '/'.
            await input.fill(`${folder}/`);
            await input.press('Enter');
        }
        // The dialog's tree is now rooted (and selected) at the folder.
        await app.poll(async () => {
            const value = await list.inputValue().catch(() => '');
            return value.replace(/\/$/, '') === wanted;
        }, `the dialog to be at ${folder}`);
        await dialog.locator('.dialogControl button.main', { hasText: 'Add Project' }).click();
        await dialog.waitFor({ state: 'hidden' });
    }

    it('Add Project refuses ~/.ssh, ~/.sandy, ~/proj-link (→ ~/.ssh), $HOME and /, naming each, and adds none', async () => {
        const app = await openWindowOn(ide.workspace);
        await app.openSandyView();
        await app.projectRow(ide.projectName).waitFor({ state: 'visible' });
        const rowsBefore = await app.page.locator('#sandy-projects li.sandy-project-row').count();

        for (const folder of [w.ssh, w.sandy, w.link, w.home, w.root]) {
            await addProjectThroughDialog(app, folder);
            const note = await app.notifications().waitFor(refusalOf(folder));
            expectRefusalText((await note.textContent()) ?? '', folder);
            assertNoHarm();
        }
        expect(await app.page.locator('#sandy-projects li.sandy-project-row').count(), 'no project was added').to.equal(rowsBefore);
        const storeFile = path.join(ide.dataDir, 'projects.json');
        const stored = fs.existsSync(storeFile) ? fs.readFileSync(storeFile, 'utf8') : '';
        for (const folder of [w.ssh, w.sandy, w.link, w.home, w.root]) {
            expect(stored, 'the projects list holds no refused folder').not.to.contain(JSON.stringify(folder));
        }
        await holdsFor(() => { assertNoHarm(); return true; }, 2000, 'no sandy run in a refused folder');
    });

    for (const which of ['ssh', 'link', 'home'] as const) {
        it(`a window opened on ${which === 'ssh' ? '~/.ssh' : which === 'link' ? '~/proj-link (→ ~/.ssh)' : '$HOME'} is no project: the Projects view says why, and nothing runs there`, async () => {
            const folder = w[which];
            const app = await openWindowOn(folder);
            await app.openSandyView();
            const banner = app.page.locator('#sandy-projects .sandy-banner', { hasText: refusalOf(folder) });
            await app.poll(() => banner.isVisible(), `the Projects view to name ${folder}`);
            expectRefusalText((await banner.textContent()) ?? '', folder);
            // Several polls later, still nothing ran there.
            const polls = runs(w).length;
            await app.poll(() => runs(w).length >= polls + 3, 'three more state polls', { timeout: 30_000 });
            assertNoHarm();
        });
    }

    it('Sandy: Launch on the $HOME sandbox sandy lists starts nothing and says why; so does clicking its row', async () => {
        const app = await openWindowOn(ide.workspace);
        await app.openSandyView();
        const homeName = path.basename(w.home);
        const homeRow = app.projectRow(homeName);
        await app.poll(() => homeRow.isVisible(), 'the row of the $HOME sandbox sandy lists');

        // Sandy: Launch on that row (its context menu: the command with the project, as the palette's pick gives it).
        await app.projectMenu(homeName, 'Launch');
        const refusal = `${refusalOf(w.home)}: it is your home folder`;
        const note = await app.notifications().waitFor(refusal);
        expectRefusalText((await note.textContent()) ?? '', w.home);
        expect(await app.terminalTabs(homeName).count(), 'no terminal tab was opened').to.equal(0);

        // Clicking the row (the other way to launch) is refused the same way.
        await app.commandPalette().run('Notifications: Clear All Notifications');
        await app.poll(async () => !(await app.notifications().messages()).some(m => m.includes(refusal)), 'the notification to be cleared');
        await homeRow.click();
        await app.notifications().waitFor(refusal);
        await holdsFor(() => { assertNoHarm(); return true; }, 2000, 'no sandy session in $HOME');
        expect(await app.terminalTabs(homeName).count()).to.equal(0);
    });

    it('a normal project still launches, in its own folder: Sandy: Launch from the palette takes the window\'s one folder', async () => {
        const app = await openWindowOn(ide.workspace);
        await app.openSandyView();
        await app.commandPalette().run('Sandy: Launch');
        const terminal = await app.terminal(ide.projectName, 60_000);
        await terminal.waitForText(`sandbox: ${sandboxName(ide.workspace)}`);
        await app.poll(() => ide.sandySessionsIn(ide.workspace).length === 1, 'the session in the project folder');
        // A daemon session's launch is `sandy --start` (a foreground one, bare sandy): in the project folder.
        expect(runs(w).some(r => r.cwd === ide.workspace && (r.args[0] === '--start' || !(r.args[0] ?? '').startsWith('--'))), 'the launch ran in the project folder').to.equal(true);
        assertNoHarm();
        await app.projectMenu(ide.projectName, 'Stop');
        await app.poll(() => ide.sandySessionsIn(ide.workspace).length === 0, 'the session to stop');
    });
});
