import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { FakeSandyService, startFakeSandyService } from './fake-sandy-service';

/**
 * The headless one-shot through the service both hosts wrap, against the fake sandy (held to sandy
 * 1.7.1's `-p` output, fixture 52: sandy's lines and the answer on one stdout).
 */
describe('SandyServiceCore headless one-shot (slow)', function () {
    this.timeout(60_000);
    let fake: FakeSandyService;
    let home: string;
    let service: FakeSandyService['service'];

    beforeEach(async () => {
        fake = await startFakeSandyService('headless');
        ({ home, service } = fake);
    });
    afterEach(() => fake.dispose());
    const calls = () => fake.calls();

    it('runs sandy -p with the prompt as one argument in the project, splits the answer from sandy\'s lines, keeps both in the history', async () => {
        const ws = path.join(home, 'code', 'ask-me');
        fs.mkdirSync(ws, { recursive: true });
        const prompt = 'say "hi"; rm -rf $HOME `id`';
        const outcome = await service.runHeadless(ws, prompt);
        expect(outcome.ok, outcome.stderr).to.equal(true);
        expect(outcome.answer).to.equal(`FAKE-AGENT-ANSWER: ${prompt}`);
        expect(outcome.sandyLines.length).to.be.greaterThan(3);
        expect(outcome.sandyLines.every(l => l.startsWith('[sandy]'))).to.equal(true);
        expect(calls().filter(c => c.argv[0] === '-p').map(c => ({ cwd: c.cwd, argv: c.argv }))).to.deep.equal([{ cwd: ws, argv: ['-p', prompt] }]);
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
