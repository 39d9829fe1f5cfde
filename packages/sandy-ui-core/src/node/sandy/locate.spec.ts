import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RunOptions, RunResult, SandyRunner } from '../../common/sandy/runner-types';
import { locateSandy, sandyCandidatePaths, SandyNotFoundError } from './locate';

/** Answers like a sandy of the given version and records what it was asked. */
class FakeRunner implements SandyRunner {
    readonly calls: string[][] = [];
    constructor(readonly answers: (args: readonly string[]) => Partial<RunResult>) { }
    async run(args: readonly string[], _options?: RunOptions): Promise<RunResult> {
        this.calls.push([...args]);
        return { stdout: '', stderr: '', exitCode: 0, signal: undefined, timedOut: false, durationMs: 1, args, ...this.answers(args) };
    }
}

const sandyOf = (version: string) => (args: readonly string[]): Partial<RunResult> =>
    args[0] === '--version'
        ? { stdout: `sandy ${version}\n` }
        : { stdout: `${JSON.stringify({ schema_version: 1, version, commit: '', full_version: version })}\n` };

describe('locateSandy (unit)', () => {
    let root: string;
    let home: string;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-locate-')));
        home = path.join(root, 'home');
        fs.mkdirSync(home);
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const put = (dir: string, mode = 0o755): string => {
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, 'sandy');
        fs.writeFileSync(file, '#!/bin/sh\n', { mode });
        return file;
    };

    it('lists candidates in order: configured, PATH, then the usual install folders', () => {
        const list = sandyCandidatePaths('~/tools/sandy', '/a:/b::/a', '/h');
        expect(list).to.deep.equal([
            { path: '/h/tools/sandy', source: 'configured' },
            { path: '/a/sandy', source: 'PATH' },
            { path: '/b/sandy', source: 'PATH' },
            { path: '/a/sandy', source: 'PATH' },
            { path: '/h/.local/bin/sandy', source: 'fallback' },
            { path: '/usr/local/bin/sandy', source: 'fallback' },
            { path: '/opt/homebrew/bin/sandy', source: 'fallback' },
            { path: '/h/bin/sandy', source: 'fallback' }
        ]);
    });

    it('prefers the configured path over PATH, and PATH over the fallbacks', async () => {
        const configured = put(path.join(root, 'cfg'));
        const onPath = put(path.join(root, 'p1'));
        put(path.join(home, '.local', 'bin'));
        const runnerFor = (): SandyRunner => new FakeRunner(sandyOf('1.7.1-dev'));
        const env = { PATH: path.join(root, 'p1'), HOME: home };

        expect((await locateSandy({ configuredPath: configured, processEnv: env, home, runnerFor })).path).to.equal(configured);
        expect((await locateSandy({ processEnv: env, home, runnerFor })).path).to.equal(onPath);
        const fallback = await locateSandy({ processEnv: { PATH: '/nonexistent' }, home, runnerFor });
        expect(fallback.path).to.equal(path.join(home, '.local', 'bin', 'sandy'));
        expect(fallback.candidates.at(-1)).to.deep.equal({ path: fallback.path, source: 'fallback', verdict: 'selected' });
    });

    it('reports every rejected candidate and why: missing, not executable, directory, relative, duplicate', async () => {
        const noExec = put(path.join(root, 'noexec'), 0o644);
        fs.mkdirSync(path.join(root, 'dir', 'sandy'), { recursive: true });
        const good = put(path.join(root, 'good'));
        const PATH = ['relative/bin', path.join(root, 'missing'), path.join(root, 'noexec'), path.join(root, 'dir'), path.join(root, 'missing'), path.join(root, 'good')].join(':');
        const found = await locateSandy({ configuredPath: path.join(root, 'nope', 'sandy'), processEnv: { PATH }, home, runnerFor: () => new FakeRunner(sandyOf('1.7.1')) });
        expect(found.path).to.equal(good);
        expect(found.candidates.map(c => [c.path, c.source, c.verdict])).to.deep.equal([
            [path.join(root, 'nope', 'sandy'), 'configured', 'missing'],
            ['relative/bin/sandy', 'PATH', 'not-absolute'],
            [path.join(root, 'missing', 'sandy'), 'PATH', 'missing'],
            [noExec, 'PATH', 'not-executable'],
            [path.join(root, 'dir', 'sandy'), 'PATH', 'directory'],
            [path.join(root, 'missing', 'sandy'), 'PATH', 'duplicate'],
            [good, 'PATH', 'selected']
        ]);
        expect(found.fullVersion).to.equal('1.7.1');
        expect(found.size).to.equal(10);
        expect(found.mtimeMs).to.be.greaterThan(0);
    });

    it('asks --version first and --print-version only on sandy ≥ 1.7.0', async () => {
        put(path.join(root, 'p'));
        const probe = async (version: string): Promise<{ calls: string[][]; printVersion: unknown }> => {
            const runner = new FakeRunner(sandyOf(version));
            const found = await locateSandy({ processEnv: { PATH: path.join(root, 'p') }, home, runnerFor: () => runner });
            return { calls: runner.calls, printVersion: found.printVersion };
        };
        expect((await probe('1.7.1-dev-abc1234')).calls).to.deep.equal([['--version'], ['--print-version']]);
        expect((await probe('1.7.0')).printVersion).to.deep.include({ version: '1.7.0' });
        expect((await probe('2.0.0')).calls).to.deep.equal([['--version'], ['--print-version']]);
        // Older sandy would treat --print-version as an agent argument and launch (CONTRACT §2.1).
        expect((await probe('1.6.0')).calls).to.deep.equal([['--version']]);
        expect((await probe('1.6.1-dev-0123abc')).calls).to.deep.equal([['--version']]);
        // The flag appeared part-way through 1.7.0-dev.
        expect((await probe('1.7.0-dev')).calls).to.deep.equal([['--version']]);
        expect((await probe('0.12.0')).printVersion).to.equal(undefined);
    });

    it('skips a program that is not sandy, or does not answer, and keeps looking', async () => {
        const impostor = put(path.join(root, 'a'));
        const hung = put(path.join(root, 'b'));
        const real = put(path.join(root, 'c'));
        const runnerFor = (p: string): SandyRunner => new FakeRunner(args =>
            p === impostor ? { stdout: 'Sandy the squirrel v2\n' }
                : p === hung ? { timedOut: true, exitCode: undefined, signal: 'SIGTERM', durationMs: 5000 }
                    : sandyOf('1.7.1')(args));
        const found = await locateSandy({ processEnv: { PATH: [path.join(root, 'a'), path.join(root, 'b'), path.join(root, 'c')].join(':') }, home, runnerFor });
        expect(found.path).to.equal(real);
        expect(found.candidates.slice(0, 2).map(c => c.verdict)).to.deep.equal(['not-sandy', 'probe-failed']);
        expect(found.candidates[1].detail).to.match(/did not answer/);
    });

    it('keeps a sandy whose --print-version fails, with the reason', async () => {
        put(path.join(root, 'p'));
        const found = await locateSandy({
            processEnv: { PATH: path.join(root, 'p') }, home,
            runnerFor: () => new FakeRunner(args => (args[0] === '--version' ? { stdout: 'sandy 1.7.1\n' } : { stdout: 'not json' }))
        });
        expect(found.printVersion).to.equal(undefined);
        expect(found.printVersionError).to.be.a('string');
    });

    it('fails with not-found, the install command and the candidates', async () => {
        fs.mkdirSync(path.join(root, 'dir', 'sandy'), { recursive: true });
        try {
            await locateSandy({ configuredPath: path.join(root, 'x'), processEnv: { PATH: path.join(root, 'dir') }, home, runnerFor: () => new FakeRunner(sandyOf('1')) });
            expect.fail('should not find sandy');
        } catch (e) {
            expect(e).to.be.instanceOf(SandyNotFoundError);
            const err = e as SandyNotFoundError;
            expect(err.code).to.equal('not-found');
            expect(err.hint).to.contain('curl -fsSL https://raw.githubusercontent.com/rappdw/sandy/main/install.sh | bash');
            expect(err.hint).to.contain('or set the sandy path in settings');
            expect(err.message).to.contain(`the configured path ${path.join(root, 'x')} is missing`);
            expect(err.message).to.contain(`${path.join(root, 'dir', 'sandy')} is a directory`);
            expect(err.candidates.length).to.be.greaterThan(4);
        }
    });
});
