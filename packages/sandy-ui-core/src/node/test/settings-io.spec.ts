import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { addSecretsToGitignore, gitignoreWarning, readSettingsScope, saveSettingsScope, scopePaths } from '../settings-io';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/schema-cache';

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
});
