/**
 * Attack (issue 8 item 1): a repository chooses what the IDE runs on the host. Its
 * `.theia/settings.json` and `.vscode/settings.json` set `sandy.path` to a script of the repository
 * and `sandy.passEnvironment` to the host's credential variables; before the fix the IDE ran that
 * script within a second of the folder opening (`--version`, `--print-schema`, then every poll) with
 * AWS_SECRET_ACCESS_KEY and GITHUB_TOKEN handed to it, and the agent of a running session did the
 * same by writing those files through its read-write workspace.
 *
 * Run against the BUILT browser-app, the workspace TRUSTED (the user answered "Yes, I trust the
 * authors": the harness puts it in the user's trusted folders), because trust is exactly what a
 * user gives a repository they cloned — the settings rule must hold without relying on it. The
 * host's sandy is a recorder on PATH in front of the fake sandy: it writes down every run and which
 * of the two credentials it saw. Each test asserts the harm did not happen (the attacker's scripts
 * never ran, no sandy run saw a credential) and the legitimate path still works (the user's own
 * sandy.path and passEnvironment are honoured; the Sandy output names what was ignored).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { E2eBrowser } from '../e2e/browser';
import { FAKE_SANDY_BIN_DIR, SandyIde } from '../e2e/harness';
import { SandyApp } from '../e2e/page-objects/sandy-app';
import { outputChannelText } from '../e2e/page-objects/theia-widgets';
import { useSandyIde } from '../e2e/suite';
import { holdsFor } from '../support/poll';
import { pollRuns, readText as read, writeAttackerSandy, writeRecordingSandy } from '../support/sandy-recorders';

/** The host's credentials, in the IDE backend's own environment (as in a developer's shell). */
const SECRETS = { AWS_SECRET_ACCESS_KEY: 'e2e-aws-secret-do-not-leak', GITHUB_TOKEN: 'ghp_e2eTokenDoNotLeak' };
const POLL_MS = 250;
const FAKE_SANDY = path.join(FAKE_SANDY_BIN_DIR, 'sandy');

/** Where the scripts of one run write what they saw (outside the workspace, so the agent's view holds no clue). */
interface Paths {
    /** The host's sandy on PATH: a recorder that then execs the fake sandy. */
    hostBin: string;
    hostLog: string;
    /** What an attacker's script writes when it runs: proof it ran. */
    attackLog: string;
    attackDir: string;
}

function pathsOf(ide: SandyIde): Paths {
    return {
        hostBin: path.join(ide.root, 'host-bin'),
        hostLog: path.join(ide.root, 'host-sandy.log'),
        attackDir: path.join(ide.root, 'attack'),
        attackLog: path.join(ide.root, 'attack', 'ran.log')
    };
}

/** What the repository (or the agent) writes into both settings files Theia reads. */
function writeWorkspaceSettings(workspace: string, attackerScript: string): void {
    const settings = JSON.stringify({
        'sandy.path': attackerScript,
        'sandy.passEnvironment': Object.keys(SECRETS),
        'editor.tabSize': 2
    }, undefined, 4);
    for (const dir of ['.theia', '.vscode']) {
        fs.mkdirSync(path.join(workspace, dir), { recursive: true });
        fs.writeFileSync(path.join(workspace, dir, 'settings.json'), settings);
    }
}

/** Seeds the attack into a scratch world: the recorder as the host's sandy, the repository's script and settings. */
function seedAttack(ide: SandyIde): void {
    const paths = pathsOf(ide);
    writeRecordingSandy(path.join(paths.hostBin, 'sandy'), paths.hostLog, FAKE_SANDY);
    writeAttackerSandy(path.join(ide.workspace, 'tools', 'sandy'), paths.attackLog, FAKE_SANDY);
    writeWorkspaceSettings(ide.workspace, path.join(ide.workspace, 'tools', 'sandy'));
}

function attackEnv(ide: { root: string }): Record<string, string> {
    return {
        ...SECRETS,
        SANDY_IDE_POLL_MS: String(POLL_MS),
        // The host's sandy (the recorder) first on PATH, in front of the fake the harness puts there.
        PATH: [path.join(ide.root, 'host-bin'), FAKE_SANDY_BIN_DIR, process.env.PATH ?? ''].join(path.delimiter)
    };
}

describe('Workspace settings cannot choose what runs on the host (security)', () => {
    /**
     * The scratch world's paths are only known once the harness made it, so the backend's
     * environment (PATH with the recorder) is filled in by `seed`, which runs before the backend starts.
     */
    const env: Record<string, string> = {};
    const suite = useSandyIde({
        label: 'sec-ws',
        env,
        seed: ide => {
            seedAttack(ide);
            Object.assign(env, attackEnv(ide));
        }
    });
    let ide: SandyIde;
    let browser: E2eBrowser;
    let paths: Paths;

    before(() => {
        ({ ide, browser } = suite);
        paths = pathsOf(ide);
    });

    /** Nothing of the attack happened so far: no attacker script ran, no sandy run was handed a credential. */
    function assertNoHarm(): void {
        expect(read(paths.attackLog), 'the attacker\'s script ran on the host').to.equal('');
        expect(fs.existsSync(paths.attackDir), 'the attacker\'s script left its env dump').to.equal(false);
        expect(read(paths.hostLog), 'a sandy run was handed a credential').not.to.match(/^saw /m);
    }

    /** Waits until `cycles` more state polls ran through the host's sandy, failing at the first sign of harm. */
    async function throughPollCycles(app: SandyApp, log: string, cycles: number): Promise<void> {
        const start = pollRuns(log);
        await app.poll(() => {
            assertNoHarm();
            return pollRuns(log) >= start + cycles;
        }, `${cycles} state polls through ${log}`, { timeout: 60_000 });
    }

    it('a repository\'s settings are ignored: its script never runs, no credential reaches sandy, and the Sandy output names what was ignored', async () => {
        const app = await browser.openApp(ide);
        await app.openSandyView();
        await app.projectRow(ide.projectName).waitFor({ state: 'visible' });
        await throughPollCycles(app, paths.hostLog, 6);
        expect(read(paths.hostLog), 'the host\'s sandy was located').to.match(/^run --version/m);

        // Said once, naming the setting and the file it came from, in the Sandy output.
        const file = `${ide.workspace}/\\.(theia|vscode)/settings\\.json`;
        const output = await outputChannelText(app, 'Sandy');
        expect(output).to.match(new RegExp(`ignored "sandy\\.path" in ${file}: a workspace cannot choose the program the IDE runs`));
        expect(output).to.match(new RegExp(`ignored "sandy\\.passEnvironment" in ${file}: `));
        expect(output.match(/ignored "sandy\.path"/g), 'said once per file').to.have.length.at.most(2);
        assertNoHarm();
    });

    it('the agent writing .theia/ and .vscode/settings.json during a session runs nothing on the host and widens nothing', async () => {
        const app = await browser.openApp(ide);
        await app.openSandyView();
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText(/fake sandy 1\.7\.1-dev/);
        const [pid] = await app.poll(() => ide.sandySessionsIn(ide.workspace).length === 1 && ide.sandySessionsIn(ide.workspace), 'the sandy session');
        const sessionEnv = ide.processEnv(pid);
        expect(sessionEnv, 'the session was handed a credential').not.to.have.any.keys(Object.keys(SECRETS));
        expect(sessionEnv.FAKE_SANDY_DOCKER, 'the user\'s passEnvironment still reaches sandy').to.equal('1');

        // The agent, through its read-write workspace: a fresh script and both settings files rewritten.
        const second = path.join(ide.workspace, '.git-hooks', 'sandy');
        writeAttackerSandy(second, paths.attackLog, FAKE_SANDY);
        writeWorkspaceSettings(ide.workspace, second);
        await throughPollCycles(app, paths.hostLog, 8);
        // Still the same session, still the same sandy, still no credential anywhere.
        expect(ide.sandySessionsIn(ide.workspace)).to.deep.equal([pid]);
        await terminal.enter('env');
        await terminal.waitForText(/^HOME=/m);
        expect(await terminal.text()).not.to.match(/AWS_SECRET_ACCESS_KEY|GITHUB_TOKEN/);
        await holdsFor(() => read(paths.attackLog) === '', 2000, 'no attacker script to run');
        assertNoHarm();
    });

    it('the user\'s own sandy.path and passEnvironment (user settings) are honoured beside the ignored workspace values', async () => {
        const app = await browser.openApp(ide);
        await app.openSandyView();
        const userSandy = path.join(ide.home, 'opt', 'sandy', 'bin', 'sandy');
        const userLog = path.join(ide.root, 'user-sandy.log');
        writeRecordingSandy(userSandy, userLog, FAKE_SANDY);
        // The user edits ~/.sandy-ide/settings.json (the app's configuration folder) while the IDE runs.
        const settingsFile = path.join(ide.home, '.sandy-ide', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
        settings['sandy.path'] = userSandy;
        settings['sandy.passEnvironment'] = [...settings['sandy.passEnvironment'] as string[], 'AWS_SECRET_ACCESS_KEY'];
        fs.writeFileSync(settingsFile, JSON.stringify(settings, undefined, 4));

        await app.poll(() => pollRuns(userLog) >= 3 && read(userLog), 'state polls through the user\'s sandy.path', { timeout: 60_000 });
        const log = read(userLog);
        expect(log).to.match(/^run --version/m);
        // The user chose to hand sandy AWS_SECRET_ACCESS_KEY: it gets it. GITHUB_TOKEN only the workspace asked for.
        expect(log).to.match(/^saw AWS_SECRET_ACCESS_KEY$/m);
        expect(log).not.to.match(/^saw GITHUB_TOKEN$/m);
        expect(read(paths.attackLog), 'the attacker\'s script ran on the host').to.equal('');
    });
});

describe('Workspace trust is on: an untrusted folder asks first, and its settings are ignored all the same (security)', () => {
    const env: Record<string, string> = {};
    const suite = useSandyIde({
        label: 'sec-ws-untrusted',
        trustWorkspace: false,
        env,
        seed: ide => {
            seedAttack(ide);
            Object.assign(env, attackEnv(ide));
        }
    });

    it('shows Theia\'s trust dialog; declining leaves Restricted Mode; the repository\'s script never runs', async () => {
        const { ide, browser } = suite;
        const paths = pathsOf(ide);
        const app = await browser.openApp(ide);
        const dialog = app.page.locator('.dialogBlock').filter({ hasText: 'Do you trust the authors of the files in this folder?' });
        await dialog.waitFor({ state: 'visible', timeout: 30_000 });
        // Sandy does not wait for trust: it located the host's sandy behind the dialog, and only that ran.
        await app.poll(() => /^run --print-schema/m.test(read(paths.hostLog)), 'sandy located while the dialog is open', { timeout: 60_000 });
        expect(read(paths.attackLog), 'the attacker\'s script ran on the host').to.equal('');
        await dialog.getByRole('button', { name: 'No, I don\'t trust the authors' }).click();
        await app.poll(async () => /Restricted Mode/.test(await app.statusBar().text()), 'the Restricted Mode indicator');
        await app.openSandyView();
        const start = pollRuns(paths.hostLog);
        await app.poll(() => pollRuns(paths.hostLog) >= start + 4, 'more state polls', { timeout: 60_000 });
        expect(read(paths.attackLog), 'the attacker\'s script ran on the host').to.equal('');
        expect(read(paths.hostLog)).not.to.match(/^saw /m);
        expect(await outputChannelText(app, 'Sandy')).to.match(/ignored "sandy\.path" in /);
    });
});
