import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SandyServiceCore } from '../service/sandy-service';

/**
 * The service side of issue 12: Add Project reaches the verdict Launch's pre-flight reaches (a
 * world-open LAN allowlist is a refusal, not "requires approval"), a project's `.sandy/` is made only
 * on request (the starter sets nothing; a copy holds privileged keys and secrets back), and the Get
 * Started wizard's state lives in `~/.sandy-ui` (a planted symlink there is not followed).
 */
describe('SandyServiceCore: Add Project verdict, .sandy/ creator, onboarding state (unit)', () => {
    let root: string;
    let home: string;
    let service: SandyServiceCore;

    const project = (name: string, config?: string, secrets?: string): string => {
        const ws = path.join(home, 'work', name);
        fs.mkdirSync(ws, { recursive: true });
        if (config !== undefined) {
            fs.mkdirSync(path.join(ws, '.sandy'));
            fs.writeFileSync(path.join(ws, '.sandy', 'config'), config);
            if (secrets !== undefined) {
                fs.writeFileSync(path.join(ws, '.sandy', '.secrets'), secrets, { mode: 0o600 });
            }
        }
        return ws;
    };

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-add-')));
        home = path.join(root, 'home');
        fs.mkdirSync(home, { recursive: true });
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY here'); },
            env: { HOME: home, PATH: '/usr/bin:/bin' },
            home,
            dataDir: path.join(root, 'ide-data')
        });
    });
    afterEach(async () => {
        await service.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    it('a world-open LAN allowlist: Add Project says Launch will refuse it, as Launch then does', async () => {
        const ws = project('lan', 'SANDY_ALLOW_LAN_HOSTS=0.0.0.0/0\n');
        const outcome = await service.addProject(ws);
        expect(outcome.launch?.kind).to.equal('refuse');
        expect(outcome.launch?.lines.join(' ')).to.match(/0\.0\.0\.0\/0/);
        expect((await service.preflight(ws))?.kind, 'the same verdict at launch').to.equal('refuse');
        expect(outcome.hasSandyFolder).to.equal(true);
    });

    it('a privileged key: approval first, named once; no .sandy/: said so', async () => {
        expect((await service.addProject(project('ssh', 'SANDY_SSH=agent\n'))).launch).to.deep.equal({ kind: 'approve', lines: ['SANDY_SSH'] });
        const bare = await service.addProject(project('bare'));
        expect(bare.launch).to.deep.equal({ kind: 'ready', lines: [] });
        expect(bare.hasSandyFolder).to.equal(false);
    });

    it('makes a starter .sandy/config that sets nothing, and never over an existing one', async () => {
        const ws = project('starter');
        const plan = await service.planSandyFolder(ws, { kind: 'starter' });
        expect(fs.existsSync(path.join(ws, '.sandy')), 'planning writes nothing').to.equal(false);
        expect(plan.lines[0]).to.include('commented out');
        await service.createSandyFolder(ws, { kind: 'starter' });
        const text = fs.readFileSync(path.join(ws, '.sandy', 'config'), 'utf8');
        expect(text.split('\n').filter(l => l.trim() && !l.startsWith('#'))).to.deep.equal([]);
        expect(text).to.include('# SANDY_AGENT=');
        let refused: unknown;
        await service.createSandyFolder(ws, { kind: 'starter' }).catch(e => { refused = e; });
        expect(String(refused)).to.match(/already/i);
    });

    it('a copy holds privileged keys back and copies .secrets only when asked', async () => {
        const from = project('source', 'SANDY_AGENT=codex\nSANDY_SSH=agent\n', 'OPENAI_API_KEY=sk-test-123\n');
        const plain = project('plain');
        const plan = await service.planSandyFolder(plain, { kind: 'copy', from });
        expect(plan.secretsAvailable).to.equal(true);
        await service.createSandyFolder(plain, { kind: 'copy', from });
        expect(fs.readFileSync(path.join(plain, '.sandy', 'config'), 'utf8')).to.match(/^SANDY_AGENT=codex$/m).and.not.to.match(/^SANDY_SSH/m);
        expect(fs.existsSync(path.join(plain, '.sandy', '.secrets'))).to.equal(false);
        const withSecrets = project('with-secrets');
        await service.createSandyFolder(withSecrets, { kind: 'copy', from, includeSecrets: true });
        const secrets = path.join(withSecrets, '.sandy', '.secrets');
        expect(fs.readFileSync(secrets, 'utf8')).to.include('OPENAI_API_KEY=sk-test-123');
        expect(fs.statSync(secrets).mode & 0o777).to.equal(0o600);
    });

    it('remembers the wizard in ~/.sandy-ui, makes its throwaway workspace, and reads a planted symlink as nothing', async () => {
        const first = await service.getOnboarding();
        expect(first.state, 'never ran').to.equal(undefined);
        expect(first.sandyFound).to.equal(false);
        expect(first.firstSessionWorkspace).to.equal(path.join(home, '.sandy-ui', 'first-session'));
        expect(fs.statSync(first.firstSessionWorkspace).isDirectory()).to.equal(true);
        await service.saveOnboarding({ version: 1, steps: { prerequisites: 'done' }, current: 'agents' });
        expect((await service.getOnboarding()).state).to.deep.equal({ version: 1, steps: { prerequisites: 'done' }, current: 'agents' });
        const file = path.join(home, '.sandy-ui', 'onboarding.json');
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        // Another program plants a link to a file it controls: it is not followed (a fresh start instead).
        const planted = path.join(root, 'planted.json');
        fs.writeFileSync(planted, JSON.stringify({ version: 1, steps: {}, finishedAt: 1 }));
        fs.rmSync(file);
        fs.symlinkSync(planted, file);
        expect((await service.getOnboarding()).state).to.deep.equal({ version: 1, steps: {} });
    });

    it('whether Get Started opens at start is decided without running sandy: the state file and an executable where sandy is looked for', async () => {
        // A "sandy" that records every run: wizardAtStart must never run it.
        const bin = path.join(root, 'bin');
        fs.mkdirSync(bin);
        const ran = path.join(root, 'ran');
        const sandy = path.join(bin, 'sandy');
        const quiet = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY here'); },
            env: { HOME: home, PATH: `${bin}:/usr/bin:/bin` },
            home,
            dataDir: path.join(root, 'ide-data-2')
        });
        try {
            expect(await quiet.wizardAtStart(), 'no sandy anywhere: offered').to.equal(true);
            fs.writeFileSync(sandy, `#!/bin/sh\necho "$@" >> '${ran}'\n`, { mode: 0o644 });
            expect(await quiet.wizardAtStart(), 'a sandy that is not executable is no sandy').to.equal(true);
            fs.chmodSync(sandy, 0o755);
            expect(await quiet.wizardAtStart(), 'sandy there, never started the wizard: offered (the first start)').to.equal(true);
            await quiet.saveOnboarding({ version: 1, steps: {}, finishedAt: Date.now() });
            expect(await quiet.wizardAtStart(), 'sandy there, the wizard finished: not offered').to.equal(false);
            expect(await quiet.wizardAtStart(path.join(root, 'nowhere', 'sandy')), 'the user\'s sandy.path names nothing: still found on PATH').to.equal(false);
            fs.rmSync(sandy);
            expect(await quiet.wizardAtStart(), 'sandy gone: offered again').to.equal(true);
            expect(fs.existsSync(ran), 'sandy was never run').to.equal(false);
        } finally {
            await quiet.dispose();
        }
    });

    it('the prerequisite checks name the missing sandy with its installer', async () => {
        const report = await service.prerequisites();
        const sandy = report.checks.find(c => c.id === 'sandy');
        expect(sandy?.status).to.equal('fail');
        expect(sandy?.fix?.command).to.include('install.sh');
        expect(report.ok).to.equal(false);
    });
});
