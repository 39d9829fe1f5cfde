/**
 * The `sandy-ui` command line as `util.parseArgs` splits it: the flags, `--`, and the usage errors
 * (exit 2, one line, sandy-ui's words). Only runs that stop before sandy is looked for.
 */
import { expect } from 'chai';
import { CliIo, main, USAGE } from '../cli/cli';

interface Captured { code: number; stdout: string; stderr: string }

async function run(argv: string[]): Promise<Captured> {
    let stdout = '';
    let stderr = '';
    // No PATH and a home without sandy: a run that got past the parser would fail with not-found.
    const io: CliIo = { stdout: t => { stdout += t; }, stderr: t => { stderr += t; }, env: { PATH: '' }, cwd: '/nonexistent', home: '/nonexistent' };
    const code = await main(argv, io);
    return { code, stdout, stderr };
}

function usage(r: Captured): string {
    expect(r.code, r.stderr).to.equal(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).to.have.length(1);
    return lines[0];
}

describe('sandy-ui command line (unit)', () => {
    it('-h and --help print the usage text, anywhere before --', async () => {
        for (const argv of [['-h'], ['--help'], ['doctor', '--help'], ['--json', 'state', '-h']]) {
            const r = await run(argv);
            expect(r, argv.join(' ')).to.deep.equal({ code: 0, stdout: USAGE, stderr: '' });
        }
    });

    it('an unknown option is named as typed, with where to look', async () => {
        for (const [argv, named] of [
            [['--bogus', 'doctor'], '--bogus'], [['doctor', '-x'], '-x'], [['-hj'], '-hj'],
            [['--json=1', 'doctor'], '--json=1'], [['--help=yes'], '--help=yes'], [['--bogus=1'], '--bogus=1'], [['--Sandy', '/s'], '--Sandy']
        ] as const) {
            expect(usage(await run([...argv]))).to.equal(`sandy-ui: Unknown option ${named}. Run \`sandy-ui --help\` for the options.`);
        }
    });

    it('an unknown option wins over --help after it, not before it', async () => {
        expect(usage(await run(['--bogus', '-h']))).to.contain('Unknown option --bogus.');
        expect(usage(await run(['-h', '--bogus']))).to.contain('Unknown option --bogus.');
    });

    it('--sandy needs a path, given either way', async () => {
        for (const argv of [['--sandy'], ['--sandy='], ['--sandy', ''], ['doctor', '--sandy']]) {
            expect(usage(await run(argv)), argv.join(' ')).to.equal(
                'sandy-ui: --sandy needs a path. Pass the path of the sandy executable: --sandy /path/to/sandy');
        }
    });

    it('--sandy PATH and --sandy=PATH both reach the locator (relative to the cwd)', async () => {
        for (const argv of [['--sandy', 'rel/sandy', 'schema'], ['schema', '--sandy=rel/sandy']]) {
            const r = await run(argv);
            expect(r.code).to.equal(2);
            expect(r.stderr).to.contain('/nonexistent/rel/sandy');
        }
    });

    it('-- ends the options: what follows is an argument', async () => {
        expect(usage(await run(['--', '--json']))).to.contain('Unknown command "--json".');
        expect(usage(await run(['state', '--', '-h']))).to.contain('Unknown state mode "-h".');
        expect(usage(await run(['-']))).to.contain('Unknown command "-".');
    });

    it('--json anywhere turns failures into one JSON object on stdout', async () => {
        for (const argv of [['--json', 'validate'], ['validate', '--json']]) {
            const r = await run(argv);
            expect(usage(r)).to.equal('sandy-ui: validate needs a config file. Example: sandy-ui validate .sandy/config');
            expect(JSON.parse(r.stdout)).to.deep.equal({
                error: { code: 'usage', message: 'validate needs a config file.', hint: 'Example: sandy-ui validate .sandy/config' }
            });
        }
        expect(JSON.parse((await run(['--json', '--bogus'])).stdout).error.code).to.equal('usage');
    });

    it('no command, or an unknown one', async () => {
        expect(usage(await run([]))).to.equal('sandy-ui: No command given. Run `sandy-ui --help` for the commands, e.g. `sandy-ui doctor`.');
        expect(usage(await run(['--json']))).to.contain('No command given.');
        expect(usage(await run(['frobnicate']))).to.equal('sandy-ui: Unknown command "frobnicate". Run `sandy-ui --help` for the commands.');
    });
});
