import { expect } from 'chai';
import { SandyError } from '../../common/sandy/errors';
import {
    printSchemaCommand, printStateCommand, printVersionCommand, SANDY_COMMAND_TIMEOUTS, validateConfigCommand, versionCommand
} from '../../common/sandy/commands';
import { SandyCommand } from '../../common/sandy/runner-types';
import { listFixtures, loadFixture, runResultOf, SandyFixture } from './sandy-fixtures';

function catchSandyError(fn: () => unknown): SandyError {
    try {
        fn();
    } catch (e) {
        expect(e).to.be.instanceOf(SandyError);
        return e as SandyError;
    }
    throw new Error('expected a SandyError');
}

/** The command object that would have produced this fixture's argv. */
function commandFor(f: SandyFixture): SandyCommand<unknown> | undefined {
    switch (f.args[0]) {
        case '--version': case '-v': return versionCommand();
        case '--print-version': return printVersionCommand();
        case '--print-schema': return printSchemaCommand();
        case '--print-state': return printStateCommand(f.args[1] === 'light' ? 'light' : 'full');
        case '--validate-config': return validateConfigCommand(f.args[1] ?? 'unused');
        default: return undefined;
    }
}

describe('commands (unit)', () => {
    it('puts the introspection flag first, as separate argv elements (CONTRACT §0.1)', () => {
        expect(versionCommand().args).to.deep.equal(['--version']);
        expect(printVersionCommand().args).to.deep.equal(['--print-version']);
        expect(printSchemaCommand().args).to.deep.equal(['--print-schema']);
        expect(printStateCommand('full').args).to.deep.equal(['--print-state']);
        expect(printStateCommand('light').args).to.deep.equal(['--print-state', 'light']);
        expect(validateConfigCommand('/w/a b/.sandy/config').args).to.deep.equal(['--validate-config', '/w/a b/.sandy/config']);
    });

    it('argv matches the real invocations captured in the fixtures', () => {
        expect(printStateCommand('light').args).to.deep.equal(loadFixture('05-print-state-light-empty-home').args);
        expect(printStateCommand('full').args).to.deep.equal(loadFixture('04-print-state-full-empty-home').args);
        expect(printSchemaCommand().args).to.deep.equal(loadFixture('01-print-schema').args);
        const v = loadFixture('10-validate-clean-passive');
        expect(validateConfigCommand(v.args[1]).args).to.deep.equal(v.args);
    });

    it('has the documented timeouts', () => {
        expect(versionCommand().timeoutMs).to.equal(5_000);
        expect(printStateCommand('light').timeoutMs).to.equal(10_000);
        expect(printStateCommand('full').timeoutMs).to.equal(60_000);
        expect(validateConfigCommand('/x').timeoutMs).to.equal(10_000);
        expect(printSchemaCommand().timeoutMs).to.equal(15_000);
        expect(printVersionCommand().timeoutMs).to.equal(SANDY_COMMAND_TIMEOUTS.printVersion);
    });

    it('refuses an empty validate path up front (sandy would print a usage error, fx 25)', () => {
        expect(catchSandyError(() => validateConfigCommand('')).code).to.equal('usage');
    });

    describe('parse every introspection fixture', () => {
        const fixtures = listFixtures().filter(f => commandFor(f) !== undefined);

        it('covers the captured introspection runs', () => {
            expect(fixtures.length).to.be.greaterThan(45);
        });

        it('JSON fixtures parse through their command, whatever the exit code', () => {
            for (const f of fixtures.filter(x => x.stdoutIsJson)) {
                expect(() => commandFor(f)!.parse(runResultOf(f)), f.name).not.to.throw();
            }
        });

        it('validate-config exit 1 with JSON is an answer, not a failure (fx 24, 24b, 24c, 27)', () => {
            const exit1 = fixtures.filter(f => f.args[0] === '--validate-config' && f.exitCode === 1 && f.stdoutIsJson);
            expect(exit1.map(f => f.name.split('-')[0])).to.have.members(['24', '24b', '24c', '27']);
            for (const f of exit1) {
                const r = validateConfigCommand(f.args[1]).parse(runResultOf(f));
                expect(r.errors[0], f.name).to.match(/^file does not exist: /);
            }
        });

        it('the version line gives the full version (fx 03, 03b)', () => {
            expect(versionCommand().parse(runResultOf(loadFixture('03-version')))).to.equal('1.7.1-dev');
            expect(versionCommand().parse(runResultOf(loadFixture('03b-version-short-v')))).to.equal('1.7.1-dev');
        });
    });

    describe('failures', () => {
        it('invalid SANDY_HOME → failed with sandy\'s stderr line and a fix (fx 07)', () => {
            const f = loadFixture('07-print-state-invalid-SANDY_HOME');
            const e = catchSandyError(() => printStateCommand('full').parse(runResultOf(f)));
            expect(e.code).to.equal('failed');
            expect(e.message).to.contain('[sandy] ERROR: Invalid SANDY_HOME: contains shell metacharacters');
            expect(e.message).to.contain('exit 1');
            expect(e.hint).to.contain('SANDY_HOME');
            expect(e.details.exitCode).to.equal(1);
            expect(e.details.args).to.deep.equal(['--print-state']);
        });

        it('validate with no path → failed quoting stderr (fx 25)', () => {
            const f = loadFixture('25-validate-no-argument');
            const e = catchSandyError(() => validateConfigCommand('x').parse(runResultOf(f)));
            expect(e.code).to.equal('failed');
            expect(e.message).to.contain('--validate-config requires a path argument');
        });

        it('timeout → timeout, even with partial output', () => {
            const f = loadFixture('41-print-state-full-populated');
            const e = catchSandyError(() => printStateCommand('full').parse(runResultOf(f, {
                timedOut: true, exitCode: undefined, signal: 'SIGKILL', durationMs: 60_000, stdout: f.stdout.slice(0, 100)
            })));
            expect(e.code).to.equal('timeout');
            expect(e.message).to.contain('60.0 s');
            expect(e.hint).to.contain('docker info');
        });

        it('killed by a signal without timeout → failed naming the signal', () => {
            const e = catchSandyError(() => versionCommand().parse({
                stdout: '', stderr: '', exitCode: undefined, signal: 'SIGTERM', timedOut: false, durationMs: 3, args: ['--version']
            }));
            expect(e.code).to.equal('failed');
            expect(e.message).to.contain('SIGTERM');
        });

        it('non-zero exit with JSON-ish stdout from print-state is still a failure (ERR trap, sandy:2314-2319)', () => {
            const f = loadFixture('41-print-state-full-populated');
            const stderr = '[sandy] introspection handler failed (exit 2)\n[sandy]   line 1900: du\n[sandy] Report this at https://github.com/rappdw/sandy/issues\n';
            const e = catchSandyError(() => printStateCommand('full').parse(runResultOf(f, { exitCode: 2, stdout: f.stdout.slice(0, 200), stderr })));
            expect(e.code).to.equal('failed');
            expect(e.message).to.contain('introspection handler failed (exit 2)');
            expect(e.hint).to.contain('Report');
        });

        it('exit 0 with an ESC in a path → invalid-json carrying the argv (D1, as fx 58)', () => {
            const f = loadFixture('42-print-state-light-populated');
            const stdout = f.stdout.replace('"<WS>/ws-beta"', '"<WS>/ws-\x1bbeta"');
            expect(stdout).to.not.equal(f.stdout);
            const e = catchSandyError(() => printStateCommand('light').parse(runResultOf(f, { stdout })));
            expect(e.code).to.equal('invalid-json');
            expect(e.message).to.contain('\\x1b');
            expect(e.details.args).to.deep.equal(['--print-state', 'light']);
            expect(e.details.excerpt).to.contain('ws-\\x1bbeta');
        });

        it('exit 1 on validate with non-JSON stdout → failed, not invalid-json', () => {
            const e = catchSandyError(() => validateConfigCommand('/x').parse({
                stdout: 'garbage\n', stderr: 'boom\n', exitCode: 1, signal: undefined, timedOut: false, durationMs: 5, args: ['--validate-config', '/x']
            }));
            expect(e.code).to.equal('failed');
            expect(e.message).to.contain('boom');
        });

        it('a program that is not sandy answering --version → invalid-output', () => {
            const e = catchSandyError(() => versionCommand().parse({
                stdout: 'Sandy Image Viewer 2.1\n', stderr: '', exitCode: 0, signal: undefined, timedOut: false, durationMs: 5, args: ['--version']
            }));
            expect(e.code).to.equal('invalid-output');
            expect(e.message).to.contain('Sandy Image Viewer 2.1');
        });
    });
});
