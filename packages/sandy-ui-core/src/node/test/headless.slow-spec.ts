import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SandyServiceCore } from '../service/sandy-service';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');
const FAKE_SANDY = path.join(REPO_ROOT, 'test', 'fake-sandy', 'bin', 'sandy');

/**
 * The headless one-shot through the service both hosts wrap, against the fake sandy (held to sandy
 * 1.7.1's `-p` output, fixture 52: sandy's lines and the answer on one stdout).
 */
describe('SandyServiceCore headless one-shot (slow)', function () {
    this.timeout(60_000);
    let root: string;
    let home: string;
    let log: string;
    let service: SandyServiceCore;
    let savedEnv: Record<string, string | undefined>;
    const touched = ['HOME', 'SANDY_HOME', 'FAKE_SANDY_NODE'];

    beforeEach(async () => {
        if (!fs.existsSync(path.join(REPO_ROOT, 'test', 'lib', 'fake-sandy', 'main.js'))) {
            throw new Error('The fake sandy is not compiled; run `npx tsc -b test` first.');
        }
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-headless-')));
        home = path.join(root, 'home');
        fs.mkdirSync(home, { recursive: true });
        log = path.join(root, 'sandy-calls.log');
        savedEnv = Object.fromEntries(touched.map(n => [n, process.env[n]]));
        process.env.HOME = home;
        process.env.FAKE_SANDY_NODE = process.execPath;
        delete process.env.SANDY_HOME;
        const wrapper = path.join(root, 'bin', 'sandy');
        fs.mkdirSync(path.dirname(wrapper), { recursive: true });
        fs.writeFileSync(wrapper, `#!/usr/bin/env bash\nprintf '%s\\t%s\\n' "$PWD" "$*" >> '${log}'\nexec '${FAKE_SANDY}' "$@"\n`, { mode: 0o755 });
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY in these tests'); },
            env: { HOME: home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', FAKE_SANDY_NODE: process.execPath },
            home, dataDir: path.join(root, 'ide-data')
        });
        service.start();
        expect((await service.configure({ sandyPath: wrapper, passEnv: ['FAKE_SANDY_NODE'] })).found).to.equal(true);
    });
    afterEach(async () => {
        await service.poller.pollNow();
        await service.dispose();
        for (const n of touched) {
            if (savedEnv[n] === undefined) {
                delete process.env[n];
            } else {
                process.env[n] = savedEnv[n];
            }
        }
        fs.rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    });
    const calls = (): Array<{ cwd: string; args: string }> => fs.readFileSync(log, 'utf8').trim().split('\n').map(l => l.split('\t')).map(([cwd, args]) => ({ cwd, args }));

    it('runs sandy -p with the prompt as one argument in the project, splits the answer from sandy\'s lines, keeps both in the history', async () => {
        const ws = path.join(home, 'code', 'ask-me');
        fs.mkdirSync(ws, { recursive: true });
        const prompt = 'say "hi"; rm -rf $HOME `id`';
        const outcome = await service.runHeadless(ws, prompt);
        expect(outcome.ok, outcome.stderr).to.equal(true);
        expect(outcome.answer).to.equal(`FAKE-AGENT-ANSWER: ${prompt}`);
        expect(outcome.sandyLines.length).to.be.greaterThan(3);
        expect(outcome.sandyLines.every(l => l.startsWith('[sandy]'))).to.equal(true);
        expect(calls().filter(c => c.args.startsWith('-p'))).to.deep.equal([{ cwd: ws, args: `-p ${prompt}` }]);
        const records = await service.listHistory();
        const record = records.find(r => r.id === outcome.historyId);
        expect(record).to.deep.include({ mode: 'headless', workspace: ws, exitCode: 0 });
        const text = (await service.readHistory(outcome.historyId!))!.text;
        expect(text).to.contain(`$ sandy -p ${JSON.stringify(prompt)}`).and.contain(`FAKE-AGENT-ANSWER: ${prompt}`).and.contain('--- sandy ---');
    });

    it('refuses a prompt sandy would read as an option, and the home folder as a project: sandy never runs', async () => {
        const ws = path.join(home, 'code', 'p');
        fs.mkdirSync(ws, { recursive: true });
        await service.runHeadless(ws, '--rebuild').then(() => expect.fail('ran'), (e: Error) => expect(e.message).to.contain('cannot start with "-"'));
        await service.runHeadless(home, 'hello').then(() => expect.fail('ran'), (e: Error) => expect(e.message).to.match(/home/i));
        expect(calls().filter(c => c.args.startsWith('-p'))).to.deep.equal([]);
    });
});
