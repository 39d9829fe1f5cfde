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

    it('the prerequisite checks name the missing sandy with its installer', async () => {
        const report = await service.prerequisites();
        const sandy = report.checks.find(c => c.id === 'sandy');
        expect(sandy?.status).to.equal('fail');
        expect(sandy?.fix?.command).to.include('install.sh');
        expect(report.ok).to.equal(false);
    });
});
