import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isSandyError } from '../../common/sandy/errors';
import { processGroupAlive, ProcessSandyRunner } from './runner';

/** True when the pid no longer runs (gone, or a zombie nobody reaped — PID 1 in a container may not). */
function isGone(pid: number): boolean {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    } catch {
        try {
            process.kill(pid, 0);
            return false;
        } catch {
            return true;
        }
    }
}

describe('ProcessSandyRunner (slow)', function () {
    this.timeout(30_000);
    let dir: string;

    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-runner-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    const script = (name: string, body: string, mode = 0o755): string => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, `#!/usr/bin/env bash\n${body}\n`, { mode });
        return file;
    };
    const host = { PATH: process.env.PATH, HOME: os.tmpdir() };

    it('keeps stdout and stderr apart, with the exit code and argv as separate elements', async () => {
        const sandy = script('sandy', 'printf "%s\\n" "$@"; echo to-stderr >&2; exit 3');
        const args = ['--print-state', 'light', 'two words', '$(touch pwned)', '"quoted"'];
        const r = await new ProcessSandyRunner({ sandyPath: sandy, processEnv: host }).run(args);
        expect(r.stdout).to.equal(`${args.join('\n')}\n`);
        expect(r.stderr).to.equal('to-stderr\n');
        expect(r).to.deep.include({ exitCode: 3, signal: undefined, timedOut: false, args });
        expect(fs.existsSync(path.join(dir, 'pwned'))).to.equal(false);
        expect(r.durationMs).to.be.a('number');
    });

    it('gives sandy no stdin and the whitelisted environment only', async () => {
        const sandy = script('sandy', 'if read -r line; then echo "read:$line"; else echo eof; fi; env | sort');
        const r = await new ProcessSandyRunner({
            sandyPath: sandy,
            processEnv: { ...host, SANDY_UI_CANARY: 'leak', SANDY_DAEMON_SUPERVISOR: '1', SANDY_AUTO_APPROVE_PRIVILEGED: '1', SANDY_HOME: '/h' }
        }).run(['--print-version'], { env: { SANDY_MODEL: 'haiku' } });
        expect(r.stdout.split('\n')[0]).to.equal('eof');
        expect(r.stdout).not.to.match(/CANARY|SUPERVISOR|AUTO_APPROVE/);
        expect(r.stdout).to.match(/^SANDY_HOME=\/h$/m);
        expect(r.stdout).to.match(/^SANDY_MODEL=haiku$/m);
    });

    it('on timeout kills the whole process group, grandchildren included, and reports timedOut', async () => {
        const pids = path.join(dir, 'pids');
        const sandy = script('sandy', [
            `sleep 300 & echo $! >> '${pids}'`,
            // A grandchild that ignores SIGTERM: only the SIGKILL escalation removes it.
            `bash -c 'trap "" TERM; sleep 300 & echo $! >> "${pids}"; echo $$ >> "${pids}"; wait' &`,
            `echo $$ >> '${pids}'`,
            'echo started; wait'
        ].join('\n'));
        const started = Date.now();
        const r = await new ProcessSandyRunner({ sandyPath: sandy, processEnv: host, killGraceMs: 500 }).run(['--print-state'], { timeoutMs: 700 });
        expect(r.timedOut).to.equal(true);
        expect(r.exitCode).to.equal(undefined);
        expect(r.signal).to.equal('SIGTERM');
        expect(r.stdout).to.equal('started\n');
        expect(Date.now() - started).to.be.lessThan(5_000);
        const list = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
        expect(list).to.have.length(4);
        // SIGKILL was sent before run() resolved; give the kernel a moment to deliver it.
        await new Promise(resolve => setTimeout(resolve, 200));
        for (const pid of list) {
            expect(isGone(pid), `pid ${pid} still running`).to.equal(true);
        }
    });

    it('cancels through an AbortSignal by killing the group', async () => {
        const pids = path.join(dir, 'pids');
        const sandy = script('sandy', `sleep 300 & echo $! > '${pids}'; wait`);
        const controller = new AbortController();
        const runner = new ProcessSandyRunner({ sandyPath: sandy, processEnv: host, killGraceMs: 500 });
        const promise = runner.run(['--print-state'], { signal: controller.signal, timeoutMs: 20_000 });
        await waitFor(() => fs.existsSync(pids) && fs.readFileSync(pids, 'utf8').trim() !== '');
        controller.abort();
        const r = await promise;
        expect(r).to.deep.include({ timedOut: false, exitCode: undefined, signal: 'SIGTERM' });
        const sleeper = Number(fs.readFileSync(pids, 'utf8'));
        await new Promise(resolve => setTimeout(resolve, 100));
        expect(isGone(sleeper)).to.equal(true);

        const pre = new AbortController();
        pre.abort();
        expect(await runner.run(['--print-state'], { signal: pre.signal })).to.deep.include({ exitCode: undefined, durationMs: 0 });
    });

    it('does not wait for a background child that keeps the pipes open, and leaves it running', async () => {
        const pids = path.join(dir, 'pids');
        // Like `sandy --start`, whose supervisor outlives sandy (CONTRACT §6.3).
        const sandy = script('sandy', `sleep 30 & echo $! > '${pids}'; echo ready; exit 0`);
        const started = Date.now();
        const r = await new ProcessSandyRunner({ sandyPath: sandy, processEnv: host, drainMs: 200 }).run(['--start']);
        expect(r).to.deep.include({ stdout: 'ready\n', exitCode: 0, timedOut: false });
        expect(Date.now() - started).to.be.lessThan(5_000);
        const bg = Number(fs.readFileSync(pids, 'utf8'));
        expect(isGone(bg)).to.equal(false);
        process.kill(bg, 'SIGKILL');
    });

    it('normalises spawn errors: ENOENT → not-found, EACCES → not-executable', async () => {
        for (const [sandyPath, code] of [
            [path.join(dir, 'missing'), 'not-found'],
            [script('noexec', 'echo hi', 0o644), 'not-executable'],
            [mkdir(path.join(dir, 'adir')), 'not-executable']
        ] as const) {
            try {
                await new ProcessSandyRunner({ sandyPath, processEnv: host }).run(['--version']);
                expect.fail(`${sandyPath} should not run`);
            } catch (e) {
                expect(isSandyError(e), String(e)).to.equal(true);
                expect((e as { code: string }).code).to.equal(code);
                expect((e as { hint: string }).hint).not.to.equal('');
            }
        }
    });

    it('caps the output and stops a runaway sandy', async () => {
        const sandy = script('sandy', 'while :; do printf "%01000d" 0; done');
        try {
            await new ProcessSandyRunner({ sandyPath: sandy, processEnv: host, maxOutputBytes: 64 * 1024, killGraceMs: 300 }).run(['--print-schema']);
            expect.fail('should fail');
        } catch (e) {
            expect((e as { code: string }).code).to.equal('failed');
            expect((e as Error).message).to.match(/printed more than/);
        }
    });

    it('decodes UTF-8 split across chunks', async () => {
        const sandy = script('sandy', 'printf "\\xe2\\x9c"; sleep 0.1; printf "\\x93\\n"');
        const r = await new ProcessSandyRunner({ sandyPath: sandy, processEnv: host }).run(['--version']);
        expect(r.stdout).to.equal('✓\n');
    });

    it('processGroupAlive is false for a group that does not exist', () => {
        expect(processGroupAlive(4_194_305)).to.equal(false);
    });
});

async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
        if (Date.now() > deadline) {
            throw new Error('condition not met in time');
        }
        await new Promise(resolve => setTimeout(resolve, 20));
    }
}

function mkdir(p: string): string {
    fs.mkdirSync(p, { recursive: true });
    return p;
}
