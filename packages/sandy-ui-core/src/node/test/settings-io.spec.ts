import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { addSecretsToGitignore, gitignoreWarning, readSettingsScope, saveSettingsScope, scopePaths } from '../config/settings-io';
import { TEMP_DIR_PREFIX } from '../config/config-io';
import { SandyServiceCore } from '../service/sandy-service';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import { describeModeFix } from '../../common/settings/settings-results';

describe('settings IO', () => {
    let dir: string;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-settings-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('reads values, secret presence (never values), unknown and misplaced keys', async () => {
        const paths = scopePaths('project', { workspace: dir, sandyHome: '/nowhere' });
        fs.mkdirSync(path.dirname(paths.config));
        fs.writeFileSync(paths.config, '# c\nSANDY_MODEL=opus\nSANDY_CPUS=2\nMY_THING=1\nOPENAI_API_KEY=sk-in-config\n');
        fs.writeFileSync(paths.secrets, 'ANTHROPIC_API_KEY=sk-ant-123\nSANDY_CPUS=4\nGEMINI_API_KEY=\n');
        const data = await readSettingsScope(paths, BUNDLED_FALLBACK_SCHEMA);
        expect(data.values).to.include({ SANDY_MODEL: 'opus', SANDY_CPUS: '4' });
        expect(data.secretsSet).to.deep.equal({ ANTHROPIC_API_KEY: true, OPENAI_API_KEY: true });
        expect(JSON.stringify(data)).not.to.contain('sk-ant-123').and.not.to.contain('sk-in-config');
        expect(data.unknownKeys).to.deep.equal(['MY_THING']);
        expect(data.misplaced).to.deep.include({ key: 'SANDY_CPUS', file: 'secrets', line: 2 });
        expect(data.misplaced).to.deep.include({ key: 'OPENAI_API_KEY', file: 'config', line: 5 });
        expect(data.fileExists).to.deep.equal({ config: true, secrets: true });
    });

    it('saves only the changed keys, creating .secrets 0600 and keeping comments', async () => {
        const paths = scopePaths('project', { workspace: dir, sandyHome: '/nowhere' });
        fs.mkdirSync(path.dirname(paths.config));
        fs.writeFileSync(paths.config, '# keep me\nSANDY_MODEL=opus\n\nSANDY_CPUS=2\n');
        const result = await saveSettingsScope(paths, { config: [{ key: 'SANDY_CPUS', value: '3' }], secrets: [{ key: 'ANTHROPIC_API_KEY', value: 'sk-x' }] });
        expect(result.mismatches).to.deep.equal([]);
        expect(fs.readFileSync(paths.config, 'utf8')).to.equal('# keep me\nSANDY_MODEL=opus\n\nSANDY_CPUS=3\n');
        expect(fs.readFileSync(paths.secrets, 'utf8')).to.equal('ANTHROPIC_API_KEY=sk-x\n');
        expect(fs.statSync(paths.secrets).mode & 0o777).to.equal(0o600);
    });

    it('warns about a workspace .secrets git does not ignore, and fixes it with one line', async function () {
        try {
            execFileSync('git', ['init', '-q'], { cwd: dir });
        } catch {
            this.skip();
        }
        fs.mkdirSync(path.join(dir, '.sandy'));
        fs.writeFileSync(path.join(dir, '.sandy', '.secrets'), 'ANTHROPIC_API_KEY=x\n');
        fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/');
        const warning = await gitignoreWarning(dir);
        expect(warning).to.deep.include({ exists: true, tracked: false });
        await addSecretsToGitignore(dir);
        await addSecretsToGitignore(dir);
        expect(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')).to.equal('node_modules/\n# sandy secrets (API keys): never commit\n.sandy/.secrets\n');
        expect(await gitignoreWarning(dir)).to.equal(undefined);
    });

    it('has no gitignore opinion outside a git work tree', async () => {
        expect(await gitignoreWarning(dir)).to.equal(undefined);
    });

    describe('attacks on the scope\'s files', () => {
        let ssh: string;
        let sshBefore: string;
        const sshState = () => JSON.stringify(fs.readdirSync(ssh).sort().map(n => [n, fs.statSync(path.join(ssh, n)).mode, fs.readFileSync(path.join(ssh, n), 'base64')]));

        beforeEach(() => {
            ssh = path.join(dir, 'home', '.ssh');
            fs.mkdirSync(ssh, { recursive: true, mode: 0o700 });
            fs.writeFileSync(path.join(ssh, 'config'), 'Host *\n    IdentityFile ~/.ssh/id_ed25519\n', { mode: 0o644 });
            fs.writeFileSync(path.join(ssh, 'authorized_keys'), 'ssh-ed25519 AAAA me\n', { mode: 0o600 });
            sshBefore = sshState();
        });

        it('.sandy → ~/.ssh: the editor shows why, a save is refused and ~/.ssh is byte-identical', async () => {
            const ws = path.join(dir, 'ws');
            fs.mkdirSync(ws);
            fs.symlinkSync(ssh, path.join(ws, '.sandy'));
            const paths = scopePaths('project', { workspace: ws, sandyHome: '/nowhere' });
            const data = await readSettingsScope(paths, BUNDLED_FALLBACK_SCHEMA);
            expect(data.problems?.map(p => p.message)).to.deep.equal([
                `${path.join(ws, '.sandy')} is a symbolic link to ${ssh}; sandy-ui does not follow it. Replace it with a regular folder.`
            ]);
            // Nothing of ~/.ssh/config reaches the form.
            expect(JSON.stringify(data)).to.not.contain('IdentityFile');
            let error: unknown;
            try {
                await saveSettingsScope(paths, { config: [{ key: 'SANDY_MODEL', value: 'x' }], secrets: [{ key: 'ANTHROPIC_API_KEY', value: 'sk-ant-attack' }] });
            } catch (e) {
                error = e;
            }
            expect((error as Error).message).to.contain('is a symbolic link to');
            expect(sshState()).to.equal(sshBefore);
        });

        it('a 0644 .secrets is made 0600 by any save of the scope, and the result says so', async () => {
            const paths = scopePaths('project', { workspace: dir, sandyHome: '/nowhere' });
            fs.mkdirSync(path.dirname(paths.config));
            fs.writeFileSync(paths.secrets, 'ANTHROPIC_API_KEY=sk-ant-old\n', { mode: 0o644 });
            fs.chmodSync(paths.secrets, 0o644);
            // Only config is edited: the loose .secrets beside it is fixed all the same.
            const result = await saveSettingsScope(paths, { config: [{ key: 'SANDY_MODEL', value: 'opus' }], secrets: [] });
            expect(result.modeFixes).to.deep.equal([{ path: paths.secrets, from: 0o644, to: 0o600 }]);
            expect(fs.statSync(paths.secrets).mode & 0o777).to.equal(0o600);
            expect(fs.readFileSync(paths.secrets, 'utf8')).to.equal('ANTHROPIC_API_KEY=sk-ant-old\n');
            expect(describeModeFix(result.modeFixes[0])).to.equal(
                `${paths.secrets} had mode 0644 (other users could read it); it is now 0600, readable and writable by you only.`);
            // Once fixed, nothing more to say.
            expect((await saveSettingsScope(paths, { config: [{ key: 'SANDY_MODEL', value: 'sonnet' }], secrets: [] })).modeFixes).to.deep.equal([]);
            // Written with a key: fixed and said once, not twice.
            fs.chmodSync(paths.secrets, 0o644);
            const withKey = await saveSettingsScope(paths, { config: [], secrets: [{ key: 'ANTHROPIC_API_KEY', value: 'sk-ant-new' }] });
            expect(withKey.modeFixes).to.deep.equal([{ path: paths.secrets, from: 0o644, to: 0o600 }]);
        });

        it('a .gitignore symlinked to ~/.ssh/config is not appended to', async () => {
            fs.symlinkSync(path.join(ssh, 'config'), path.join(dir, '.gitignore'));
            let error: unknown;
            try {
                await addSecretsToGitignore(dir);
            } catch (e) {
                error = e;
            }
            expect((error as Error).message).to.contain(`${path.join(dir, '.gitignore')} is a symbolic link to ${path.join(ssh, 'config')}`);
            expect(sshState()).to.equal(sshBefore);
        });

        it('the service sweeps interrupted saves of known projects, $SANDY_HOME and its data folder at start', async () => {
            const home = path.join(dir, 'home');
            const sandyHome = path.join(home, '.sandy');
            const dataDir = path.join(dir, 'ide-data');
            const ws = path.join(dir, 'proj');
            const debris = [path.join(ws, '.sandy'), ws, sandyHome, dataDir].map(d => {
                const temp = path.join(d, `${TEMP_DIR_PREFIX}999999999-0123456789ab`);
                fs.mkdirSync(temp, { recursive: true });
                fs.writeFileSync(path.join(temp, '.gitignore'), '*\n');
                fs.writeFileSync(path.join(temp, '.secrets'), 'ANTHROPIC_API_KEY=sk-ant-left-behind\n');
                return temp;
            });
            fs.writeFileSync(path.join(dataDir, 'projects.json'), JSON.stringify({ version: 1, projects: [{ workspace: ws, addedAt: 1 }] }));
            const service = new SandyServiceCore({
                logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
                spawnPty: () => { throw new Error('no PTY in this test'); },
                env: { HOME: home, PATH: path.join(dir, 'no-bin') },
                home,
                dataDir
            });
            try {
                service.start();
                const deadline = Date.now() + 5000;
                while (debris.some(d => fs.existsSync(d)) && Date.now() < deadline) {
                    await new Promise(r => setTimeout(r, 20));
                }
                expect(debris.filter(d => fs.existsSync(d))).to.deep.equal([]);
                expect(fs.readdirSync(path.join(ws, '.sandy'))).to.deep.equal([]);
            } finally {
                await service.dispose();
            }
        });
    });
});
