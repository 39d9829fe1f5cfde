import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { RunOptions, RunResult, SandyRunner } from '../../common/sandy/runner-types';
import { SandyClient } from './sandy-client';

const FIXTURES = path.resolve(__dirname, '../../../../../test/fixtures/sandy-1.7.1');

/** Replays a captured fixture folder as a RunResult. */
function fixture(name: string, args: readonly string[]): RunResult {
    const dir = path.join(FIXTURES, name);
    const read = (f: string): string | undefined => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : undefined);
    return {
        stdout: read('stdout.json') ?? read('stdout.txt') ?? '',
        stderr: read('stderr.txt') ?? '',
        exitCode: Number(read('exitcode.txt') ?? '0'),
        signal: undefined, timedOut: false, durationMs: 1, args
    };
}

class FixtureRunner implements SandyRunner {
    readonly calls: Array<{ args: readonly string[]; options?: RunOptions }> = [];
    constructor(readonly route: (args: readonly string[]) => RunResult) { }
    async run(args: readonly string[], options?: RunOptions): Promise<RunResult> {
        this.calls.push({ args, options });
        return this.route(args);
    }
}

const sandy171 = (args: readonly string[]): RunResult => {
    switch (args[0]) {
        case '--version': return fixture('03-version', args);
        case '--print-version': return fixture('02-print-version', args);
        case '--print-schema': return fixture('01-print-schema', args);
        case '--print-state': return fixture(args[1] === 'light' ? '42-print-state-light-populated' : '41-print-state-full-populated', args);
        case '--validate-config': return fixture(args[1].includes('missing') ? '24-validate-missing-file' : '11-validate-pending-privileged', args);
        default: throw new Error(`the client must never run ${args.join(' ')}`);
    }
};

describe('SandyClient (unit)', () => {
    it('runs each command with its flag first and its own timeout, and parses the fixture output', async () => {
        const runner = new FixtureRunner(sandy171);
        const client = new SandyClient(runner);
        expect(await client.version()).to.equal('1.7.1-dev');
        expect(await client.printVersion()).to.deep.include({ schema_version: 1, full_version: '1.7.1-dev' });
        expect((await client.schema()).config.privileged_keys).to.have.length(21);
        expect((await client.state('light')).sandboxes.map(s => s.name)).to.include('ws-alpha-8163f30e');
        expect((await client.state('full')).sandboxes.find(s => s.name === 'ws-alpha-8163f30e')?.lock_holder_pid).to.equal('27950');
        expect((await client.validateConfig('/ws/.sandy/config')).approval_status).to.equal('pending');
        expect((await client.validateConfig('/ws/missing/config')).errors[0]).to.match(/^file does not exist: /);
        expect(runner.calls.map(c => c.args)).to.deep.equal([
            ['--version'], ['--version'], ['--print-version'], ['--print-schema'], ['--print-state', 'light'], ['--print-state'],
            ['--validate-config', '/ws/.sandy/config'], ['--validate-config', '/ws/missing/config']
        ]);
        expect(runner.calls.every(c => typeof c.options?.timeoutMs === 'number' && c.options.timeoutMs > 0)).to.equal(true);
    });

    it('never sends --print-version to a sandy older than 1.7.0', async () => {
        const runner = new FixtureRunner(args => (args[0] === '--version'
            ? { ...fixture('03-version', args), stdout: 'sandy 1.6.0\n' }
            : sandy171(args)));
        try {
            await new SandyClient(runner).printVersion();
            expect.fail('should refuse');
        } catch (e) {
            expect((e as { code: string }).code).to.equal('usage');
        }
        expect(runner.calls.map(c => c.args[0])).to.deep.equal(['--version']);
    });

    it('refuses introspection on a sandy that predates it (it would launch)', async () => {
        const runner = new FixtureRunner(sandy171);
        const old = new SandyClient(runner, { fullVersion: '0.11.3' });
        for (const call of [() => old.schema(), () => old.state(), () => old.validateConfig('/x')]) {
            try {
                await call();
                expect.fail('should refuse');
            } catch (e) {
                expect((e as { code: string }).code).to.equal('usage');
            }
        }
        expect(runner.calls).to.deep.equal([]);
    });

    it('turns a timed-out run into a timeout error and an invalid SANDY_HOME into its hint', async () => {
        const timedOut = new FixtureRunner(args => ({ ...fixture('05-print-state-light-empty-home', args), stdout: '', exitCode: undefined, signal: 'SIGTERM', timedOut: true }));
        try {
            await new SandyClient(timedOut).state('light');
            expect.fail('should time out');
        } catch (e) {
            expect((e as { code: string }).code).to.equal('timeout');
        }
        const badHome = new FixtureRunner(args => fixture('07-print-state-invalid-SANDY_HOME', args));
        try {
            await new SandyClient(badHome).state('full');
            expect.fail('should fail');
        } catch (e) {
            expect((e as { hint: string }).hint).to.match(/SANDY_HOME/);
        }
    });

    it('rethrows the abort reason when the caller cancelled', async () => {
        const controller = new AbortController();
        const runner = new FixtureRunner(args => {
            controller.abort();
            return { ...fixture('42-print-state-light-populated', args), stdout: '', exitCode: undefined, signal: 'SIGTERM' };
        });
        try {
            await new SandyClient(runner).state('light', { signal: controller.signal });
            expect.fail('should be cancelled');
        } catch (e) {
            expect((e as Error).name).to.equal('AbortError');
        }
    });
});
