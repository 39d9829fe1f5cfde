import { expect } from 'chai';
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { INTERRUPT_EXIT_CODES, InterruptSignal, INTERRUPT_WAIT_MS, main } from '../cli/cli';

const PACKAGE = path.resolve(__dirname, '../../..');
const BIN = path.join(PACKAGE, 'bin', 'sandy-ui.js');
const FIXTURES = path.resolve(PACKAGE, '../../test/fixtures/sandy-1.7.1');

/**
 * A sandy whose `--print-state` hangs the way the real one does while `docker info` stalls: a
 * foreground child (here `sleep`) in sandy's process group. It records its own pid and the child's
 * so the test can look for them afterwards. `stubborn` also ignores SIGTERM (sandy's traps are
 * deferred while a foreground command runs, CONTRACT §0.11), so only SIGKILL ends it.
 */
function writeHangingSandy(dir: string, stubborn: boolean): { sandy: string; pids: string } {
    const sandy = path.join(dir, 'bin', 'sandy');
    const pids = path.join(dir, 'pids');
    fs.mkdirSync(path.dirname(sandy), { recursive: true });
    fs.writeFileSync(sandy, `#!/usr/bin/env bash
F='${FIXTURES}'
emit() {
    if [ -f "$F/$1/stdout.json" ]; then cat "$F/$1/stdout.json"; else cat "$F/$1/stdout.txt"; fi
    exit "$(cat "$F/$1/exitcode.txt")"
}
case "\${1:-}" in
    --version) emit 03-version ;;
    --print-version) emit 02-print-version ;;
    --print-schema) emit 01-print-schema ;;
    --print-state)
        ${stubborn ? 'trap "" TERM' : ''}
        sleep 300 &
        printf '%s %s\\n' "$$" "$!" > '${pids}.tmp' && mv '${pids}.tmp' '${pids}'
        wait ;;
    *) exit 99 ;;
esac
`, { mode: 0o755 });
    return { sandy, pids };
}

/** Gone, or a zombie nobody reaps (PID 1 of a minimal container): either way it runs no more. */
function isGone(pid: number): boolean {
    try {
        process.kill(pid, 0);
    } catch {
        return true;
    }
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    } catch {
        return true;
    }
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const value = probe();
        if (value !== undefined) {
            return value;
        }
        if (Date.now() > deadline) {
            throw new Error(`timed out waiting for ${what}`);
        }
        await new Promise(r => setTimeout(r, 25));
    }
}

/**
 * Written as the user's complaint: `sandy-ui state` hangs, the user presses Ctrl-C, and the sandy it
 * started keeps running (in its own process group, out of reach of the terminal's ^C). The CLI is
 * started in a group of its own, like a shell's foreground job, and the signal is sent to that
 * group, as the terminal does.
 */
describe('sandy-ui CLI interrupted (slow)', function () {
    this.timeout(30_000);
    let root: string;
    let home: string;
    const started: ChildProcess[] = [];
    const leftovers: number[] = [];

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sui-int-')));
        home = path.join(root, 'home');
        fs.mkdirSync(home, { recursive: true });
    });
    afterEach(() => {
        for (const child of started.splice(0)) {
            if (child.pid && child.exitCode === null && child.signalCode === null) {
                try {
                    process.kill(-child.pid, 'SIGKILL');
                } catch {
                    // gone
                }
            }
        }
        for (const pid of leftovers.splice(0)) {
            try {
                process.kill(pid, 'SIGKILL');
            } catch {
                // gone: what the test wanted
            }
        }
        fs.rmSync(root, { recursive: true, force: true });
    });

    const runCli = (sandy: string): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> } => {
        const child = spawn(process.execPath, [BIN, '--sandy', sandy, 'state'], {
            env: { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe']
        });
        started.push(child);
        let stderr = '';
        child.stderr!.on('data', d => { stderr += d; });
        child.stdout!.resume();
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(resolve =>
            child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
        return { child, exited };
    };

    const sandyPids = async (file: string): Promise<[number, number]> => {
        const [sandy, sleeper] = await waitFor(() => {
            try {
                return fs.readFileSync(file, 'utf8').trim().split(' ').map(Number) as [number, number];
            } catch {
                return undefined;
            }
        }, 15_000, 'the fake sandy to start --print-state');
        leftovers.push(sandy, sleeper);
        return [sandy, sleeper];
    };

    for (const signal of Object.keys(INTERRUPT_EXIT_CODES) as InterruptSignal[]) {
        it(`${signal} ends sandy's process group, then the CLI exits ${INTERRUPT_EXIT_CODES[signal]}`, async () => {
            const { sandy, pids } = writeHangingSandy(root, false);
            const { child, exited } = runCli(sandy);
            const [sandyPid, sleeperPid] = await sandyPids(pids);
            expect(isGone(sandyPid), 'precondition: sandy runs').to.equal(false);

            const sentAt = Date.now();
            process.kill(-child.pid!, signal);
            const result = await exited;

            expect(result.signal, 'the CLI handled the signal instead of dying of it').to.equal(null);
            expect(result.code).to.equal(INTERRUPT_EXIT_CODES[signal]);
            expect(isGone(sandyPid), 'sandy is not left running').to.equal(true);
            expect(isGone(sleeperPid), 'nor its foreground child (docker info, docker run…)').to.equal(true);
            expect(Date.now() - sentAt, 'SIGTERM was enough: no grace period waited out').to.be.below(1500);
            expect(result.stderr, 'no stack trace, no failure line for the user\'s own ^C').to.equal('');
        });
    }

    it('a sandy that ignores SIGTERM is SIGKILLed after the grace period; the CLI still exits 130', async () => {
        const { sandy, pids } = writeHangingSandy(root, true);
        const { child, exited } = runCli(sandy);
        const [sandyPid, sleeperPid] = await sandyPids(pids);

        const sentAt = Date.now();
        process.kill(-child.pid!, 'SIGINT');
        const result = await exited;

        expect(result.code).to.equal(130);
        expect(isGone(sandyPid)).to.equal(true);
        expect(isGone(sleeperPid)).to.equal(true);
        expect(Date.now() - sentAt).to.be.below(INTERRUPT_WAIT_MS + 1500);
    });

    it('main() with an aborted signal ends the sandy it started and reports nothing', async () => {
        const { sandy, pids } = writeHangingSandy(root, false);
        const controller = new AbortController();
        let stdout = '';
        let stderr = '';
        const run = main(['--sandy', sandy, 'state'], {
            stdout: t => { stdout += t; }, stderr: t => { stderr += t; },
            env: { PATH: '/usr/bin:/bin', HOME: home }, cwd: root, home, signal: controller.signal
        });
        const [sandyPid, sleeperPid] = await sandyPids(pids);
        controller.abort();
        expect(await run).to.equal(2);
        expect(isGone(sandyPid)).to.equal(true);
        expect(isGone(sleeperPid)).to.equal(true);
        expect(stdout + stderr).to.equal('');
    });
});
