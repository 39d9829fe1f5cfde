import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import nodeFs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { decideCredentials } from '../../common/onboarding/credentials';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import { probeCredentials } from './credential-probe';

const AGENTS = BUNDLED_FALLBACK_SCHEMA.agents;
/** Every secret value written below contains this; no fact may. */
const CANARY = 'sk-canary-5a1e';

describe('onboarding credential probe: the facts from a real home folder (unit)', () => {
    let tmp: string;
    let home: string;
    let sandyHome: string;

    beforeEach(() => {
        tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ui-cred-probe-')));
        home = path.join(tmp, 'home');
        sandyHome = path.join(home, '.sandy');
        fs.mkdirSync(home);
    });

    afterEach(() => {
        fs.rmSync(tmp, { recursive: true, force: true });
    });

    function write(rel: string, content: string, mode = 0o600): string {
        const file = path.join(home, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content, { mode });
        return file;
    }

    const probe = (over: { env?: NodeJS.ProcessEnv; passEnvironment?: readonly string[] } = {}) =>
        probeCredentials({ home, sandyHome, env: over.env ?? {}, passEnvironment: over.passEnvironment, platform: 'linux' }, AGENTS);

    it('an empty home: nothing found, every file looked at is absent', async () => {
        const facts = await probe();
        expect(facts).to.deep.equal({
            env: [], envNotPassed: [], sandyConfig: [], sandySecrets: [],
            files: {
                '~/.claude/.credentials.json': 'absent',
                '~/.gemini/oauth_creds.json': 'absent',
                '~/.gemini/tokens.json': 'absent',
                '~/.config/gcloud/application_default_credentials.json': 'absent',
                '~/.codex/auth.json': 'absent',
                '~/.local/share/opencode/auth.json': 'absent'
            },
            sandyConfigPath: '~/.sandy/config', sandySecretsPath: '~/.sandy/.secrets', platform: 'linux', problems: []
        });
    });

    it('a non-empty login file is present; an empty one is empty (not found)', async () => {
        write('.claude/.credentials.json', `{"claudeAiOauth":{"accessToken":"${CANARY}"}}`);
        write('.codex/auth.json', '');
        const facts = await probe();
        expect(facts.files['~/.claude/.credentials.json']).to.equal('present');
        expect(facts.files['~/.codex/auth.json']).to.equal('empty');
        const decided = decideCredentials(AGENTS, facts);
        expect(decided.find(d => d.agent === 'claude')!.recommended).to.equal(true);
        expect(decided.find(d => d.agent === 'codex')!.recommended).to.equal(false);
    });

    it('a symlink inside home is followed for its kind and size; one leading outside home, or dangling, is not found', async () => {
        const real = write('dotfiles/gemini-oauth.json', `{"token":"${CANARY}"}`);
        fs.mkdirSync(path.join(home, '.gemini'));
        fs.symlinkSync(real, path.join(home, '.gemini', 'oauth_creds.json'));
        const outside = path.join(tmp, 'elsewhere.json');
        fs.writeFileSync(outside, `{"token":"${CANARY}"}`);
        fs.mkdirSync(path.join(home, '.codex'));
        fs.symlinkSync(outside, path.join(home, '.codex', 'auth.json'));
        fs.mkdirSync(path.join(home, '.claude'));
        fs.symlinkSync(path.join(home, 'nowhere.json'), path.join(home, '.claude', '.credentials.json'));
        const facts = await probe();
        expect(facts.files['~/.gemini/oauth_creds.json']).to.equal('present');
        expect(facts.files['~/.codex/auth.json']).to.equal('outside home');
        expect(facts.files['~/.claude/.credentials.json']).to.equal('absent');
    });

    it('a folder that is a symlink out of home makes the file under it "outside home"', async () => {
        const outsideDir = path.join(tmp, 'gcloud-elsewhere');
        fs.mkdirSync(outsideDir);
        fs.writeFileSync(path.join(outsideDir, 'application_default_credentials.json'), CANARY);
        fs.mkdirSync(path.join(home, '.config'));
        fs.symlinkSync(outsideDir, path.join(home, '.config', 'gcloud'));
        expect((await probe()).files['~/.config/gcloud/application_default_credentials.json']).to.equal('outside home');
    });

    it('a folder where a file is expected is not a file; a FIFO neither, and nothing blocks on it', async () => {
        fs.mkdirSync(path.join(home, '.local', 'share', 'opencode', 'auth.json'), { recursive: true });
        fs.mkdirSync(path.join(home, '.codex'));
        let fifo = true;
        try {
            execFileSync('mkfifo', [path.join(home, '.codex', 'auth.json')]);
        } catch {
            fifo = false;
        }
        const facts = await probe();
        expect(facts.files['~/.local/share/opencode/auth.json']).to.equal('not a file');
        if (fifo) {
            expect(facts.files['~/.codex/auth.json']).to.equal('not a file');
        }
    });

    it('an unreadable file is unreadable (skipped as root, who may read anyway)', async function () {
        if (process.getuid?.() === 0) {
            this.skip();
        }
        write('.codex/auth.json', CANARY, 0o000);
        fs.mkdirSync(path.join(home, '.gemini'), { mode: 0o000 });
        try {
            const facts = await probe();
            expect(facts.files['~/.codex/auth.json']).to.equal('unreadable');
            expect(facts.files['~/.gemini/oauth_creds.json']).to.equal('unreadable');
        } finally {
            fs.chmodSync(path.join(home, '.gemini'), 0o700);
        }
    });

    it('keys set non-empty in ~/.sandy/config and .secrets, by name only; an empty value is not set', async () => {
        write('.sandy/config', `SANDY_AGENT=claude\nANTHROPIC_API_KEY=""\nOPENAI_API_KEY=${CANARY}\nGROQ_API_KEY=${CANARY}\n`);
        write('.sandy/.secrets', `XAI_API_KEY='${CANARY}'\r\nCLAUDE_CODE_OAUTH_TOKEN=${CANARY}\n# GEMINI_API_KEY=${CANARY}\nexport GEMINI_API_KEY=${CANARY}\n`);
        const facts = await probe();
        expect(facts.sandyConfig).to.deep.equal(['OPENAI_API_KEY']);
        expect(facts.sandySecrets).to.deep.equal(['XAI_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN']);
        expect(JSON.stringify(facts)).not.to.contain(CANARY);
        expect(JSON.stringify(decideCredentials(AGENTS, facts))).not.to.contain(CANARY);
    });

    it('a refused .secrets (a symlink) is a problem named in the facts, not an exception', async () => {
        const real = write('dotfiles/secrets', `OPENAI_API_KEY=${CANARY}\n`);
        fs.mkdirSync(sandyHome, { recursive: true });
        fs.symlinkSync(real, path.join(sandyHome, '.secrets'));
        const facts = await probe();
        expect(facts.sandySecrets).to.deep.equal([]);
        expect(facts.problems).to.have.length(1);
        expect(facts.problems[0].path).to.equal('~/.sandy/.secrets');
        expect(facts.problems[0].message).to.contain('symbolic link');
        expect(JSON.stringify(facts)).not.to.contain(CANARY);
    });

    it('a $SANDY_HOME outside home is shown as its path', async () => {
        sandyHome = path.join(tmp, 'sandy-home');
        const facts = await probe();
        expect(facts.sandyConfigPath).to.equal(path.join(tmp, 'sandy-home', 'config'));
    });

    it('environment: only non-empty values count; what sandy-ui does not pass to sandy is told apart', async () => {
        const env = { ANTHROPIC_API_KEY: CANARY, OPENAI_API_KEY: '', XAI_API_KEY: CANARY, UNRELATED_TOKEN: CANARY };
        expect((await probe({ env })).env).to.deep.equal(['ANTHROPIC_API_KEY', 'XAI_API_KEY']);
        const passed = await probe({ env, passEnvironment: ['XAI_API_KEY'] });
        expect(passed.env).to.deep.equal(['XAI_API_KEY']);
        expect(passed.envNotPassed).to.deep.equal(['ANTHROPIC_API_KEY']);
        expect(JSON.stringify(passed)).not.to.contain(CANARY);
    });

    it('never opens a credential file: only sandy\'s config and .secrets are opened', async () => {
        write('.claude/.credentials.json', CANARY);
        write('.codex/auth.json', CANARY);
        write('.gemini/oauth_creds.json', CANARY);
        write('.config/gcloud/application_default_credentials.json', CANARY);
        write('.local/share/opencode/auth.json', CANARY);
        write('.sandy/.secrets', `OPENAI_API_KEY=${CANARY}\n`);
        const opened: string[] = [];
        const { openSync, readFileSync } = nodeFs;
        const promisesOpen = nodeFs.promises.open;
        const promisesReadFile = nodeFs.promises.readFile;
        nodeFs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
            opened.push(String(p));
            return (openSync as (...a: unknown[]) => number)(p, ...rest);
        }) as typeof nodeFs.openSync;
        nodeFs.readFileSync = ((p: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
            opened.push(String(p));
            return (readFileSync as (...a: unknown[]) => unknown)(p, ...rest);
        }) as typeof nodeFs.readFileSync;
        nodeFs.promises.open = ((p: fs.PathLike, ...rest: unknown[]) => {
            opened.push(String(p));
            return (promisesOpen as (...a: unknown[]) => Promise<fs.promises.FileHandle>)(p, ...rest);
        }) as typeof nodeFs.promises.open;
        nodeFs.promises.readFile = ((p: fs.PathLike, ...rest: unknown[]) => {
            opened.push(String(p));
            return (promisesReadFile as (...a: unknown[]) => Promise<unknown>)(p, ...rest);
        }) as typeof nodeFs.promises.readFile;
        let facts;
        try {
            facts = await probe();
        } finally {
            Object.assign(nodeFs, { openSync, readFileSync });
            Object.assign(nodeFs.promises, { open: promisesOpen, readFile: promisesReadFile });
        }
        expect(opened).to.deep.equal([path.join(sandyHome, '.secrets')]);
        expect(Object.values(facts.files)).to.deep.equal(['present', 'present', 'absent', 'present', 'present', 'present']);
        const decided = decideCredentials(AGENTS, facts);
        expect(decided.filter(d => d.recommended).map(d => d.agent)).to.deep.equal(['claude', 'gemini', 'codex', 'opencode']);
    });
});
