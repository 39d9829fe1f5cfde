/**
 * common/session/prompt-detect.ts on the screens of the real agent CLIs recorded in
 * test/fixtures/agent-screens (README there). Lives under node/ because it reads the fixtures from
 * disk (common/ takes no Node API).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { detectPrompt, PROMPT_MAX_LINES, PromptKind } from '../../common/session/prompt-detect';
import { agentScreensRoot } from './agent-screens';

const ROOT = agentScreensRoot();
const AGENTS = ['claude', 'codex', 'gemini', 'opencode'];

function screen(agent: string, scenario: string): string[] {
    const text = fs.readFileSync(path.join(ROOT, agent, `${scenario}.txt`), 'utf8');
    return text.replace(/\n$/, '').split('\n');
}

/** Every recorded screen: the kind when it waits, `undefined` when it does not. */
const EXPECTED: Record<string, Record<string, PromptKind | undefined>> = {
    claude: {
        'trust-folder': 'trust',
        'login-method': 'login',
        'login-paste-code': 'credential',
        'api-key-confirm': 'confirm',
        'permission-bash': 'permission',
        'permission-write': 'permission',
        'working-thinking': undefined,
        'idle-after-tool': undefined,
        'idle-not-logged-in': undefined,
        'reply-not-logged-in': undefined,
        'offline-exited': undefined
    },
    codex: {
        'signin-method': 'login',
        'signin-device-code-failed': 'login',
        'signin-other-way': 'login',
        'signin-browser': 'login',
        'api-key': 'credential',
        'api-key-empty': 'credential',
        'trust-folder': 'trust',
        'permission-exec': 'permission',
        'idle-input': undefined,
        'working-startup': undefined,
        'working': undefined
    },
    gemini: {
        'trust-folder': 'trust',
        'trust-restarting': undefined,
        'permission-shell': 'permission',
        'auth-method': 'login',
        'api-key': 'credential',
        'api-key-empty': 'login',
        'login-google-restarting': undefined,
        'login-google-code': 'credential',
        'idle-input': undefined,
        'working': undefined,
        'working-1m': undefined
    },
    opencode: {
        'idle-input': undefined,
        'connect-provider': 'login',
        'permission-bash': 'permission',
        'api-key': 'credential',
        'working': undefined,
        'working-retrying': undefined
    }
};

describe('detectPrompt on recorded agent screens', () => {

    it('the expectations cover every recorded screen, and agree with the README on which ones wait', () => {
        const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
        for (const agent of AGENTS) {
            const files = fs.readdirSync(path.join(ROOT, agent)).filter(f => f.endsWith('.txt')).map(f => f.slice(0, -4)).sort();
            expect(files, agent).to.deep.equal(Object.keys(EXPECTED[agent]).sort());
            for (const scenario of files) {
                const row = readme.split('\n').find(l => l.startsWith(`| ${agent} | \`${scenario}.txt\` |`));
                expect(row, `${agent}/${scenario} in README`).to.be.a('string');
                const waiting = row!.split('|').slice(-2)[0].trim();
                expect(waiting.startsWith('yes'), `${agent}/${scenario}: README says "${waiting}"`).to.equal(EXPECTED[agent][scenario] !== undefined);
                if (EXPECTED[agent][scenario] !== undefined) {
                    expect(waiting, `${agent}/${scenario}`).to.contain(`(${EXPECTED[agent][scenario]}`);
                }
            }
        }
    });

    for (const agent of AGENTS) {
        for (const [scenario, kind] of Object.entries(EXPECTED[agent])) {
            if (kind !== undefined) {
                it(`${agent}/${scenario} waits: ${kind}, with the agent named and without it`, () => {
                    const lines = screen(agent, scenario);
                    const named = detectPrompt(lines, agent);
                    expect(named).to.include({ agent, kind });
                    expect(named!.text).to.be.a('string').and.not.equal('');
                    expect(detectPrompt(lines), 'agent unknown').to.deep.equal(named);
                    expect(detectPrompt(lines, 'some-other-agent'), 'agent not one of the four').to.deep.equal(named);
                });
            } else {
                it(`${agent}/${scenario} does not wait, whichever agent's patterns are tried`, () => {
                    const lines = screen(agent, scenario);
                    expect(detectPrompt(lines, agent)).to.equal(undefined);
                    expect(detectPrompt(lines)).to.equal(undefined);
                    for (const other of AGENTS) {
                        expect(detectPrompt(lines, other), other).to.equal(undefined);
                    }
                });
            }
        }
    }

    it('no waiting screen is taken for another agent\'s prompt', () => {
        for (const agent of AGENTS) {
            for (const [scenario, kind] of Object.entries(EXPECTED[agent])) {
                if (kind === undefined) {
                    continue;
                }
                for (const other of AGENTS.filter(a => a !== agent)) {
                    expect(detectPrompt(screen(agent, scenario), other), `${agent}/${scenario} as ${other}`).to.equal(undefined);
                }
            }
        }
    });

    it('reports the question itself as the text', () => {
        expect(detectPrompt(screen('claude', 'permission-write'))!.text).to.equal('Do you want to create hello.txt?');
        expect(detectPrompt(screen('claude', 'permission-bash'))!.text).to.equal('Do you want to proceed?');
        expect(detectPrompt(screen('gemini', 'trust-folder'))!.text).to.equal('Do you trust the files in this folder?');
        expect(detectPrompt(screen('claude', 'trust-folder'))!.text).to.equal('Is this a project you created or one you trust?');
        expect(detectPrompt(screen('codex', 'trust-folder'))!.text).to.equal('Trust this folder?');
        expect(detectPrompt(screen('codex', 'permission-exec'))!.text).to.equal('Would you like to run the following command?');
        expect(detectPrompt(screen('gemini', 'permission-shell'))!.text).to.equal('Allow execution of [Shell]?');
        expect(detectPrompt(screen('opencode', 'api-key'))!.text).to.equal('API key');
        expect(detectPrompt(screen('opencode', 'connect-provider'))!.text).to.equal('Connect a provider');
        expect(detectPrompt(screen('opencode', 'permission-bash'))!.text).to.equal('Permission required');
    });

    describe('a question that is only mentioned in the output', () => {
        // The patterns need the dialog's options and footer between the question and the bottom of
        // the screen, and no busy line under it; a question alone in the output is neither.

        it('"Do you trust the files in this folder?" in the middle of the output, above the idle input box, is not a prompt', () => {
            const idle = screen('gemini', 'idle-input');
            const at = idle.findIndex(l => l.includes('Tips for getting started'));
            const mentioned = [...idle.slice(0, at), 'The CLI then asks: Do you trust the files in this folder?',
                'Do you trust the files in this folder?', '1. Trust folder (project)', 'and you pick one.', ...idle.slice(at)];
            expect(detectPrompt(mentioned)).to.equal(undefined);
            expect(detectPrompt(mentioned, 'gemini')).to.equal(undefined);
        });

        it('the same question as the last line of normal output, with no options under it, is not a prompt', () => {
            const lines = [...screen('codex', 'working').slice(0, 20), 'Do you trust the files in this folder?', 'Do you want to proceed?'];
            expect(detectPrompt(lines)).to.equal(undefined);
        });

        it('a whole dialog scrolled up above the agent\'s busy line is not a prompt', () => {
            const dialog = screen('claude', 'permission-bash');
            const busy = screen('claude', 'working-thinking').filter(l => l.trim() !== '').slice(-4);
            expect(detectPrompt([...dialog, ...busy])).to.equal(undefined);
        });

        it('a whole dialog pushed up by more than a screenful of later output is not a prompt', () => {
            const dialog = screen('gemini', 'trust-folder');
            const later = Array.from({ length: 20 }, (_, i) => `log line ${i}`);
            expect(detectPrompt([...dialog, ...later])).to.equal(undefined);
        });

        it('what it cannot tell: the whole dialog reproduced at the bottom (cat of a fixture) reads as the dialog', () => {
            const cat = ['$ cat trust-folder.txt', ...screen('gemini', 'trust-folder')];
            expect(detectPrompt(cat)).to.include({ agent: 'gemini', kind: 'trust' });
        });
    });

    describe('a hostile screen', () => {

        it('a 1 MB line, alone or at the bottom of a real prompt, is read quickly and cannot hide or fake a prompt', () => {
            const huge = 'Do you want to '.repeat(70000) + '?';
            expect(huge.length).to.be.greaterThan(1_000_000);
            const t0 = Date.now();
            expect(detectPrompt([huge])).to.equal(undefined);
            expect(detectPrompt([huge, huge, huge])).to.equal(undefined);
            const spaces = ' '.repeat(1_000_000) + 'x';
            expect(detectPrompt([spaces, spaces])).to.equal(undefined);
            const boxes = '│'.repeat(1_000_000);
            expect(detectPrompt([...screen('claude', 'permission-bash'), boxes])).to.include({ kind: 'permission' });
            expect(Date.now() - t0).to.be.lessThan(500);
        });

        it('10,000 lines are read from the bottom only: cheap, and a prompt above the last 40 lines is not seen', () => {
            const prompt = screen('codex', 'trust-folder');
            const filler = Array.from({ length: 10_000 }, (_, i) => `${'a'.repeat(400)} ${i}`);
            const t0 = Date.now();
            expect(detectPrompt([...prompt, ...filler])).to.equal(undefined);
            expect(detectPrompt([...filler, ...prompt])).to.include({ agent: 'codex', kind: 'trust' });
            expect(Date.now() - t0).to.be.lessThan(500);
            expect(prompt.length).to.be.at.most(PROMPT_MAX_LINES);
        });

        it('patterns built to backtrack (many near-misses of every anchor) take no noticeable time', () => {
            const nearMiss = ['Do you want to ' + 'a '.repeat(240), '1. Yes, I trust this folde' + 'r'.repeat(400),
                'Connect a provider' + ' '.repeat(450) + 'es', 'API key' + ' '.repeat(490), '❯ '.repeat(250)];
            const lines = Array.from({ length: 40 }, (_, i) => nearMiss[i % nearMiss.length]);
            const t0 = Date.now();
            for (let i = 0; i < 50; i++) {
                expect(detectPrompt(lines)).to.equal(undefined);
            }
            expect(Date.now() - t0).to.be.lessThan(500);
        });

        it('holes and non-strings in the array do not throw', () => {
            const sparse = [...screen('claude', 'permission-bash')] as unknown[];
            sparse.splice(3, 0, undefined, null, 42, {});
            expect(detectPrompt(sparse as string[])).to.include({ kind: 'permission' });
            expect(detectPrompt([])).to.equal(undefined);
        });
    });
});
