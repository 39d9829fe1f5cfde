import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { blastRadiusFolders, checkWorkspace, OPEN_PROJECT_INSTEAD, WorkspaceGuardOptions } from './workspace-guard';

/**
 * Written as the attack: a real scratch HOME holding what an agent wants (`~/.ssh/id_rsa`,
 * `~/.sandy/.secrets`, `~/.aws/credentials`…), real symlinks an attacker (or a careless user) sets
 * up, and every way of naming those folders as the workspace sandy will mount read-write.
 */
describe('checkWorkspace (unit)', () => {
    let root: string;
    let home: string;

    const mkdir = (...parts: string[]): string => {
        const p = path.join(...parts);
        fs.mkdirSync(p, { recursive: true });
        return p;
    };
    const link = (target: string, at: string): string => {
        fs.mkdirSync(path.dirname(at), { recursive: true });
        fs.symlinkSync(target, at);
        return at;
    };

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ws-')));
        home = mkdir(root, 'home', 'u');
        mkdir(home, 'proj');
        mkdir(home, 'code', 'myproject', '.config');
        for (const d of ['.sandy', '.ssh', '.gnupg', '.aws', '.config', '.docker', '.kube', '.local', '.sandy-ide', 'Library', 'bin', '.cargo', '.vscode', '.vscode-server']) {
            mkdir(home, d);
        }
        fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
        fs.writeFileSync(path.join(home, '.sandy', '.secrets'), 'ANTHROPIC_API_KEY=sk-secret');
        fs.writeFileSync(path.join(home, '.aws', 'credentials'), '[default]\naws_secret_access_key=x');
        mkdir(home, '.ssh', 'sub');
        mkdir(home, '.ssh', '..x');
        mkdir(home, '.vscode', 'extensions');
        mkdir(home, '.config', 'nvim');
        mkdir(home, '.config', 'gh');
        mkdir(home, '.sandy', 'sandboxes', 'proj-12345678');
        mkdir(home, '.local', 'bin');
        mkdir(home, '.local', 'share', 'keyrings');
        // Look-alikes that are ordinary projects: a prefix is not containment.
        mkdir(home, '.ssh-notes');
        mkdir(home, '.configurator');
        mkdir(home, 'Library-project');
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    /** Guard options of a run without the developer's own SANDY_HOME / SANDY_IDE_DATA_DIR. */
    const clean: WorkspaceGuardOptions = { env: {} };

    const refusal = async (ws: string, options: WorkspaceGuardOptions = clean, h = home): Promise<{ code: string; message: string; hint: string }> => {
        try {
            await checkWorkspace(ws, h, options);
        } catch (e) {
            return e as { code: string; message: string; hint: string };
        }
        return expect.fail(`${ws} should be refused`);
    };

    it('returns the canonical path of a project folder', async () => {
        const l = link(path.join(home, 'proj'), path.join(root, 'link'));
        expect(await checkWorkspace(l, home, clean)).to.equal(path.join(home, 'proj'));
        expect(await checkWorkspace(path.join(home, 'code', 'myproject'), home, clean)).to.equal(path.join(home, 'code', 'myproject'));
    });

    it('refuses empty, relative, missing and file paths', async () => {
        const cases: Array<[string, RegExp]> = [
            ['', /No workspace/],
            ['   ', /No workspace/],
            ['proj', /not an absolute path/],
            [path.join(root, 'nope'), /does not exist/]
        ];
        fs.writeFileSync(path.join(root, 'file'), 'x');
        cases.push([path.join(root, 'file'), /is a file/]);
        for (const [ws, pattern] of cases) {
            const e = await refusal(ws);
            expect(e.code, ws).to.equal('usage');
            expect(e.message, ws).to.match(pattern);
            expect(e.hint, ws).to.be.a('string').and.not.equal('');
        }
    });

    describe('blast-radius folders', () => {
        // [workspace relative to the scratch root/home, what the refusal must name]
        const table: Array<{ title: string; ws: () => string; names: RegExp }> = [
            { title: '/', ws: () => '/', names: /file system root/ },
            { title: '$HOME', ws: () => home, names: /is your home folder/ },
            { title: '$HOME/ (trailing slash)', ws: () => `${home}/`, names: /is your home folder/ },
            { title: '$HOME/./', ws: () => `${home}/./`, names: /is your home folder/ },
            { title: 'the folder of all homes (/home)', ws: () => path.join(root, 'home'), names: /contains your home folder/ },
            { title: 'a folder two levels above $HOME', ws: () => root, names: /contains your home folder/ },
            { title: '~/.sandy', ws: () => path.join(home, '.sandy'), names: /is ~\/\.sandy, which holds sandy's approvals, secrets/ },
            { title: '~/.ssh', ws: () => path.join(home, '.ssh'), names: /is ~\/\.ssh, which holds your SSH keys/ },
            { title: '~/.gnupg', ws: () => path.join(home, '.gnupg'), names: /is ~\/\.gnupg/ },
            { title: '~/.aws', ws: () => path.join(home, '.aws'), names: /is ~\/\.aws, which holds your AWS credentials/ },
            { title: '~/.config', ws: () => path.join(home, '.config'), names: /is ~\/\.config/ },
            { title: '~/.docker', ws: () => path.join(home, '.docker'), names: /is ~\/\.docker/ },
            { title: '~/.kube', ws: () => path.join(home, '.kube'), names: /is ~\/\.kube/ },
            { title: '~/.local (holds ~/.local/bin/sandy)', ws: () => path.join(home, '.local'), names: /is ~\/\.local/ },
            { title: '~/.sandy-ide (the IDE\'s sandy.path)', ws: () => path.join(home, '.sandy-ide'), names: /is ~\/\.sandy-ide/ },
            { title: '~/Library (macOS keychains)', ws: () => path.join(home, 'Library'), names: /is ~\/Library/ },
            { title: '~/bin (on PATH; searched for sandy)', ws: () => path.join(home, 'bin'), names: /is ~\/bin/ },
            { title: '~/.vscode/extensions', ws: () => path.join(home, '.vscode', 'extensions'), names: /is inside ~\/\.vscode/ },
            { title: '~/.cargo', ws: () => path.join(home, '.cargo'), names: /is ~\/\.cargo/ },
            { title: 'a folder named ..x inside ~/.ssh', ws: () => path.join(home, '.ssh', '..x'), names: /is inside ~\/\.ssh/ },
            { title: 'a folder inside ~/.ssh', ws: () => path.join(home, '.ssh', 'sub'), names: /is inside ~\/\.ssh/ },
            { title: '~/.config/nvim (its init.lua runs on the host)', ws: () => path.join(home, '.config', 'nvim'), names: /is inside ~\/\.config/ },
            { title: '~/.config/gh (a GitHub token)', ws: () => path.join(home, '.config', 'gh'), names: /is inside ~\/\.config/ },
            { title: 'a sandbox folder inside ~/.sandy', ws: () => path.join(home, '.sandy', 'sandboxes', 'proj-12345678'), names: /is inside ~\/\.sandy/ },
            { title: '~/.local/bin', ws: () => path.join(home, '.local', 'bin'), names: /is inside ~\/\.local/ },
            { title: '~/.local/share/keyrings', ws: () => path.join(home, '.local', 'share', 'keyrings'), names: /is inside ~\/\.local/ },
            { title: 'a path with .. that lands in ~/.ssh', ws: () => path.join(home, 'proj', '..', '.ssh'), names: /~\/\.ssh/ },
            { title: '~/proj-link, a symlink to ~/.ssh', ws: () => link(path.join(home, '.ssh'), path.join(home, 'proj-link')), names: /a link to .*\/\.ssh\).*is ~\/\.ssh/ },
            { title: 'a relative symlink to ~/.sandy', ws: () => link('../.sandy', path.join(home, 'code', 'innocent')), names: /is ~\/\.sandy/ },
            { title: 'a symlink chain ending in ~/.aws', ws: () => link(link(path.join(home, '.aws'), path.join(root, 'a')), path.join(home, 'code', 'b')), names: /is ~\/\.aws/ },
            { title: 'a symlink outside HOME into ~/.config/gh', ws: () => link(path.join(home, '.config', 'gh'), path.join(root, 'elsewhere')), names: /is inside ~\/\.config/ },
            { title: 'a symlink to $HOME', ws: () => link(home, path.join(root, 'homelink')), names: /a link to .*is your home folder/ },
            { title: 'a symlink to /', ws: () => link('/', path.join(home, 'code', 'rootlink')), names: /file system root/ }
        ];
        for (const row of table) {
            it(`refuses ${row.title}, naming it and the folder to open instead`, async () => {
                const ws = row.ws();
                const e = await refusal(ws);
                expect(e.code).to.equal('usage');
                expect(e.message).to.match(row.names);
                // The folder as the user gave it, so they recognise what was refused...
                expect(e.message).to.contain(`Sandy will not use ${ws}`);
                // ...and what to open instead, in the message itself (Theia's RPC drops the hint).
                expect(e.message).to.contain(OPEN_PROJECT_INSTEAD);
                expect(e.message).to.contain('read-write');
            });
        }
    });

    it('still accepts projects that only look like blocked folders, and a project\'s own .config', async () => {
        for (const ws of [path.join(home, '.ssh-notes'), path.join(home, '.configurator'), path.join(home, 'Library-project'), path.join(home, 'code', 'myproject', '.config')]) {
            expect(await checkWorkspace(ws, home, clean), ws).to.equal(ws);
        }
    });

    it('refuses $SANDY_HOME set elsewhere, folders inside it and the folders containing it', async () => {
        const sandyHome = mkdir(root, 'data', 'sandy');
        mkdir(sandyHome, 'sandboxes', 'x-12345678');
        const other = mkdir(root, 'data-other', 'proj');
        const viaEnv: WorkspaceGuardOptions = { env: { SANDY_HOME: sandyHome } };
        for (const options of [viaEnv, { env: {}, sandyHome }]) {
            expect((await refusal(sandyHome, options)).message).to.match(/is \$SANDY_HOME/);
            expect((await refusal(path.join(sandyHome, 'sandboxes', 'x-12345678'), options)).message).to.match(/is inside \$SANDY_HOME/);
            expect((await refusal(path.join(root, 'data'), options)).message).to.match(/contains \$SANDY_HOME/);
            expect(await checkWorkspace(other, home, options)).to.equal(other);
        }
        // Without it, the same folder is an ordinary project: the refusal comes from SANDY_HOME alone.
        expect(await checkWorkspace(sandyHome, home, clean)).to.equal(sandyHome);
    });

    it('refuses the IDE data folder ($SANDY_IDE_DATA_DIR), which holds the approval records', async () => {
        const dataDir = mkdir(root, 'ide-data');
        expect((await refusal(dataDir, { env: { SANDY_IDE_DATA_DIR: dataDir } })).message).to.match(/is the Sandy IDE data folder/);
        expect((await refusal(dataDir, { env: {}, ideDataDir: dataDir })).message).to.match(/is the Sandy IDE data folder/);
    });

    it('Attack: a history folder moved out of ~/.local ($XDG_STATE_HOME, $SANDY_IDE_HISTORY_DIR) is refused as a workspace, inside and around', async () => {
        const state = mkdir(root, 'state');
        const history = mkdir(root, 'state', 'sandy-ide', 'history');
        expect((await refusal(history, { env: { XDG_STATE_HOME: state } })).message).to.match(/Sandy IDE history folder/);
        expect((await refusal(state, { env: { XDG_STATE_HOME: state } })).message).to.match(/Sandy IDE history folder/);
        const moved = mkdir(root, 'elsewhere', 'hist');
        expect((await refusal(path.dirname(moved), { env: { SANDY_IDE_HISTORY_DIR: moved } })).message).to.match(/Sandy IDE history folder/);
        // Without either, the same folders are ordinary projects.
        expect(await checkWorkspace(state, home, { env: {} })).to.equal(state);
    });

    it('follows a blocked folder that is itself a symlink (~/.aws → /vault/aws) to its real place', async () => {
        const vault = mkdir(root, 'vault', 'aws');
        fs.rmSync(path.join(home, '.aws'), { recursive: true });
        link(vault, path.join(home, '.aws'));
        expect((await refusal(vault)).message).to.match(/is ~\/\.aws/);
        expect((await refusal(path.join(root, 'vault'))).message).to.match(/contains ~\/\.aws/);
    });

    it('holds when HOME itself is a symlink, and for blocked folders that do not exist yet', async () => {
        const homeLink = link(home, path.join(root, 'homelink-env'));
        // HOME=/…/homelink-env, the folder opened by its real path.
        expect((await refusal(path.join(home, '.ssh'), clean, homeLink)).message).to.match(/is ~\/\.ssh/);
        expect((await refusal(home, clean, homeLink)).message).to.match(/is your home folder/);
        // ~/.gnupg missing: a workspace cannot be it, but a folder created there later is still refused by name.
        fs.rmSync(path.join(home, '.gnupg'), { recursive: true });
        expect(blastRadiusFolders(homeLink, clean).map(f => f.path)).to.include(path.join(homeLink, '.gnupg'));
        mkdir(home, '.gnupg');
        expect((await refusal(path.join(home, '.gnupg'), clean, homeLink)).message).to.match(/is ~\/\.gnupg/);
    });

    it('compares ignoring case where the file system does (macOS, Windows)', async () => {
        const upper = mkdir(home, '.SSH');
        expect((await refusal(upper, { env: {}, caseInsensitive: true })).message).to.match(/is ~\/\.ssh/);
        // On a case-sensitive file system ~/.SSH is another folder.
        expect(await checkWorkspace(upper, home, { env: {}, caseInsensitive: false })).to.equal(upper);
    });
});
