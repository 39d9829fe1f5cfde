/**
 * Attack: the repository (or the agent, which writes the workspace read-write) plants sandy's config
 * files so that the IDE reads or writes where sandy never would — a `.sandy/config` that is a symlink
 * to /dev/zero (the backend read it whole and aborted, ending every session), a `.sandy` that is a
 * symlink to another folder (a save appended to that folder's `config`, e.g. `~/.ssh/config`), a
 * `.secrets` symlink (an API key written into someone else's 0644 file), a 0644 `.secrets`.
 *
 * Run against the BUILT browser-app with the fake sandy (see test/src/e2e/harness.ts). Every test
 * asserts that the harm did not happen (backend alive with the same pid, other sessions alive,
 * target files byte-identical) and what the user is told, and that the legitimate path still works.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { E2eBrowser } from '../e2e/browser';
import { BACKEND_MAIN, SandyIde } from '../e2e/harness';
import { httpGet } from '../e2e/http-probe';
import { SandyApp } from '../e2e/page-objects/sandy-app';
import { useSandyIde } from '../e2e/suite';
import { hasHome, isGone } from '../support/processes';
import { holdsFor, poll } from '../support/poll';
import { TEMP_DIR_PREFIX } from '@sandy-ui/core/node';

/** The second project, whose session must survive what the first one's files do. */
const OTHER_NAME = 'other-proj';

/** The backend's pid: the process of this run's HOME that runs lib/backend/main.js. */
function backendPid(ide: SandyIde): number {
    const pids = fs.readdirSync('/proc').filter(e => /^\d+$/.test(e)).map(Number).filter(pid => {
        try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some(a => a.endsWith(BACKEND_MAIN)) && hasHome(pid, ide.home);
        } catch {
            return false;
        }
    });
    expect(pids, 'exactly one backend process').to.have.length(1);
    return pids[0];
}

/** Every file below `dir` with its bytes and mode, symlinks as their target: what "byte-identical" compares. */
function snapshotTree(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (d: string): void => {
        for (const name of fs.readdirSync(d).sort()) {
            const p = path.join(d, name);
            const st = fs.lstatSync(p);
            const rel = path.relative(dir, p);
            if (st.isSymbolicLink()) {
                out[rel] = `link -> ${fs.readlinkSync(p)}`;
            } else if (st.isDirectory()) {
                out[rel] = `dir ${(st.mode & 0o7777).toString(8)}`;
                walk(p);
            } else {
                out[rel] = `file ${(st.mode & 0o7777).toString(8)} ${fs.readFileSync(p).toString('base64')}`;
            }
        }
    };
    walk(dir);
    return out;
}

describe('Config files are read and written as sandy would, and no further (security)', () => {
    const suite = useSandyIde({
        label: 'sec-config',
        seed: ide => {
            const other = path.join(path.dirname(ide.workspace), OTHER_NAME);
            fs.mkdirSync(path.join(other, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(other, '.sandy', 'config'), 'SANDY_MODEL=other-e2e\n');
            // What a save SIGKILLed in an earlier run left behind: the key in a temp folder.
            const debris = path.join(other, '.sandy', `${TEMP_DIR_PREFIX}999999999-0123456789ab`);
            fs.mkdirSync(debris);
            fs.writeFileSync(path.join(debris, '.gitignore'), '*\n');
            fs.writeFileSync(path.join(debris, '.secrets'), 'ANTHROPIC_API_KEY=sk-ant-left-behind\n');
            fs.writeFileSync(path.join(ide.dataDir, 'projects.json'), JSON.stringify({
                version: 1, projects: [{ workspace: other, addedAt: Date.now() }]
            }, undefined, 2) + '\n');
        }
    });
    let ide: SandyIde;
    let browser: E2eBrowser;
    let other: string;
    let sandyDir: string;
    /** Stands for ~/.ssh: a folder outside the workspace holding files a save must never touch. */
    let sshLike: string;

    before(() => {
        ({ ide, browser } = suite);
        other = path.join(path.dirname(ide.workspace), OTHER_NAME);
        sandyDir = path.join(ide.workspace, '.sandy');
        sshLike = path.join(ide.home, '.ssh');
    });

    beforeEach(() => {
        fs.rmSync(sandyDir, { recursive: true, force: true });
        fs.rmSync(sshLike, { recursive: true, force: true });
        fs.mkdirSync(sshLike, { mode: 0o700 });
        fs.writeFileSync(path.join(sshLike, 'config'), 'Host *\n    IdentityFile ~/.ssh/id_ed25519\n', { mode: 0o644 });
        fs.writeFileSync(path.join(sshLike, 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key\n', { mode: 0o600 });
    });

    /** Opens the settings editor of the workspace through the palette, as a user would. */
    async function openSettings(app: SandyApp): Promise<ReturnType<SandyApp['settings']>> {
        await app.commandPalette().run('Sandy: Open Settings');
        const settings = app.settings(ide.workspace);
        await settings.waitForLoaded();
        return settings;
    }

    /** The banners of the settings editor (problems with the files), one string each. */
    async function settingsBanners(settings: ReturnType<SandyApp['settings']>): Promise<string[]> {
        return (await settings.widget.locator('.sandy-settings-banner').allTextContents()).map(t => t.trim());
    }

    it('.sandy/config → /dev/zero: Launch and Settings say so; the backend, its pid and another project\'s session live on', async function () {
        this.timeout(120_000);
        const pid = backendPid(ide);
        const app = await browser.openApp(ide);

        // A session in another project first: it must outlive the attack.
        const otherTerminal = await app.launch(OTHER_NAME);
        await otherTerminal.waitForText(`fake sandy 1.7.1-dev — ${other}`);
        const otherPid = await app.poll(() => {
            const pids = ide.sandySessionsIn(other);
            return pids.length === 1 ? pids[0] : undefined;
        }, `one sandy process in ${other}`);

        // The repository commits .sandy/config as a symlink to /dev/zero.
        fs.mkdirSync(sandyDir);
        fs.symlinkSync('/dev/zero', path.join(sandyDir, 'config'));

        await app.clickProject(ide.projectName);
        const refusal = await app.notifications().waitFor('is a symbolic link to /dev/zero');
        const text = (await refusal.locator('.theia-notification-message').textContent()) ?? '';
        expect(text).to.contain(path.join(sandyDir, 'config'));
        expect(text).to.contain('sandy-ui does not follow it. Replace it with a regular file.');
        // Nothing of this project was started.
        await holdsFor(() => ide.sandySessionsIn(ide.workspace).length === 0 && !fs.existsSync(ide.lockDir), 2_000,
            'no sandy process and no lock in the attacked workspace');

        // Settings: the same message, and the editor still works.
        const settings = await openSettings(app);
        const banners = await settingsBanners(settings);
        expect(banners.some(b => b.includes(`${path.join(sandyDir, 'config')} is a symbolic link to /dev/zero`)), JSON.stringify(banners)).to.equal(true);

        // The backend is the same process, still answering; the other session still runs.
        expect(ide.deathNotice()).to.equal(undefined);
        expect(backendPid(ide)).to.equal(pid);
        expect((await httpGet(ide.port, '/', { Host: `127.0.0.1:${ide.port}` })).status).to.equal(200);
        expect(isGone(otherPid), `the session in ${OTHER_NAME} (pid ${otherPid})`).to.equal(false);
        expect(ide.sandySessionsIn(other)).to.deep.equal([otherPid]);
        process.kill(otherPid, 'SIGTERM');
    });

    it('.sandy → a folder standing for ~/.ssh: Settings says so, a save is refused, that folder is byte-identical', async () => {
        fs.symlinkSync(sshLike, sandyDir);
        const before = snapshotTree(sshLike);
        const app = await browser.openApp(ide);
        const settings = await openSettings(app);
        const message = `${sandyDir} is a symbolic link to ${sshLike}; sandy-ui does not follow it. Replace it with a regular folder.`;
        expect(await settingsBanners(settings)).to.satisfy((b: string[]) => b.some(t => t.includes(message)));
        // Nothing of ~/.ssh/config shows up as a setting.
        expect(await settings.widget.textContent()).to.not.contain('IdentityFile');

        await settings.type('SANDY_MODEL', 'pwned-e2e');
        await settings.type('ANTHROPIC_API_KEY', 'sk-ant-e2e-must-not-land-in-ssh');
        const status = await settings.save();
        expect(status.join('\n')).to.contain(message);
        expect(status.join('\n')).to.not.match(/^Saved /m);
        expect(snapshotTree(sshLike)).to.deep.equal(before);
        expect(fs.lstatSync(sandyDir).isSymbolicLink()).to.equal(true);

        // Launch stops with the same message: pre-flight cannot show what sandy would load through the link.
        await app.clickProject(ide.projectName);
        await app.notifications().waitFor(message);
        expect(ide.sandySessionsIn(ide.workspace)).to.deep.equal([]);
        expect(snapshotTree(sshLike)).to.deep.equal(before);
    });

    it('.sandy/.secrets → a file elsewhere: the key is not written there and the save is refused', async () => {
        fs.mkdirSync(sandyDir);
        const elsewhere = path.join(ide.home, 'notes.txt');
        fs.writeFileSync(elsewhere, 'my notes\n', { mode: 0o644 });
        fs.chmodSync(elsewhere, 0o644);
        const secrets = path.join(sandyDir, '.secrets');
        fs.symlinkSync(elsewhere, secrets);
        const app = await browser.openApp(ide);
        const settings = await openSettings(app);
        const message = `${secrets} is a symbolic link to ${elsewhere}; sandy-ui does not follow it. Replace it with a regular file.`;
        expect(await settingsBanners(settings)).to.satisfy((b: string[]) => b.some(t => t.includes(message)));

        const key = 'sk-ant-e2e-must-not-land-in-notes';
        await settings.type('ANTHROPIC_API_KEY', key);
        const status = await settings.save();
        expect(status.join('\n')).to.contain(message);
        expect(fs.readFileSync(elsewhere, 'utf8')).to.equal('my notes\n');
        expect(fs.statSync(elsewhere).mode & 0o777).to.equal(0o644);
        expect(fs.readlinkSync(secrets)).to.equal(elsewhere);
        // No temp folder with the key stayed behind either.
        expect(fs.readdirSync(sandyDir).filter(n => n.startsWith(TEMP_DIR_PREFIX))).to.deep.equal([]);

        // The legitimate path still works: the same save to a regular .secrets lands, 0600.
        fs.unlinkSync(secrets);
        await settings.type('ANTHROPIC_API_KEY', key);
        expect(await settings.save()).to.include('Saved 1 setting to Project.');
        expect(fs.readFileSync(secrets, 'utf8')).to.equal(`ANTHROPIC_API_KEY=${key}\n`);
        expect(fs.statSync(secrets).mode & 0o777).to.equal(0o600);
    });

    it('a 0644 .sandy/.secrets becomes 0600 after a save, and the editor says so', async () => {
        fs.mkdirSync(sandyDir);
        const secrets = path.join(sandyDir, '.secrets');
        fs.writeFileSync(secrets, 'OPENAI_API_KEY=sk-e2e-old\n');
        fs.chmodSync(secrets, 0o644);
        const app = await browser.openApp(ide);
        const settings = await openSettings(app);
        // A non-secret edit: the loose .secrets beside it is fixed all the same.
        await settings.type('SANDY_MODEL', 'mode-e2e');
        const status = await settings.save();
        expect(status).to.include('Saved 1 setting to Project.');
        expect(status).to.include(`${secrets} had mode 0644 (other users could read it); it is now 0600, readable and writable by you only.`);
        expect(fs.statSync(secrets).mode & 0o777).to.equal(0o600);
        expect(fs.readFileSync(secrets, 'utf8')).to.equal('OPENAI_API_KEY=sk-e2e-old\n');
        expect(fs.readFileSync(path.join(sandyDir, 'config'), 'utf8')).to.equal('SANDY_MODEL=mode-e2e\n');
    });

    it('what a killed save left behind (a key in a temp folder) is gone once the backend has started', async () => {
        const debris = path.join(other, '.sandy', `${TEMP_DIR_PREFIX}999999999-0123456789ab`);
        await poll(() => !fs.existsSync(debris), { message: `${debris} to be swept`, abort: () => ide.deathNotice() });
        expect(fs.readdirSync(path.join(other, '.sandy'))).to.deep.equal(['config']);
    });
});
