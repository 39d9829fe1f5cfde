import { spawn } from 'child_process';
import { withOnlyStdio } from './only-stdio';
import * as fs from 'fs';
import { SandyError } from '../../common/sandy/errors';
import { RunOptions, RunResult, SandyRunner } from '../../common/sandy/runner-types';
import { buildSandyEnv, SandyEnvOptions } from './env';

export interface ProcessSandyRunnerOptions {
    /** Absolute path of the sandy executable (see locateSandy). */
    readonly sandyPath: string;
    /** The host environment the whitelist is applied to; defaults to `process.env`. */
    readonly processEnv?: Readonly<Record<string, string | undefined>>;
    /** Which host variables pass (see buildSandyEnv). `RunOptions.env` is added per run as `extra`. */
    readonly envOptions?: SandyEnvOptions;
    /** Used when RunOptions.timeoutMs is undefined. 0 = no timeout. Default 30 s. */
    readonly defaultTimeoutMs?: number;
    /** Time between SIGTERM and SIGKILL to the process group. Default 2 s. */
    readonly killGraceMs?: number;
    /** Per-stream cap; above it the group is killed and the run fails. Default 32 MiB. */
    readonly maxOutputBytes?: number;
    /**
     * How long to wait for stdout/stderr to close after sandy itself exited. A child that sandy left
     * running in the background (the `--start` supervisor, CONTRACT §6.3) may still hold the pipes.
     */
    readonly drainMs?: number;
    /**
     * Cancels every run of this runner, as `RunOptions.signal` cancels one: the `sandy-ui` CLI aborts
     * it on SIGINT/SIGTERM/SIGHUP, so Ctrl-C ends sandy's process group instead of orphaning it
     * (the child is in a group of its own, which the terminal's Ctrl-C does not reach).
     */
    readonly signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_KILL_GRACE_MS = 2_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
const DEFAULT_DRAIN_MS = 1_000;
const GROUP_POLL_MS = 25;

/**
 * Runs sandy as a child process in its own process group. sandy is a bash script whose traps are
 * deferred while a foreground `docker run` (or `curl`, `docker info`…) runs, so a signal to sandy's
 * PID alone is not acted on in time (CONTRACT §0.11, fx 48: 5.3 s); timeouts and cancellation
 * therefore signal the whole group, SIGTERM first so sandy's cleanup trap can release its lock and
 * remove its secrets file (CONTRACT §6.5), SIGKILL after a grace period.
 */
export class ProcessSandyRunner implements SandyRunner {
    constructor(readonly options: ProcessSandyRunnerOptions) { }

    run(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
        const started = Date.now();
        const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
        const graceMs = this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
        const maxBytes = this.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
        const drainMs = this.options.drainMs ?? DEFAULT_DRAIN_MS;
        const sandyPath = this.options.sandyPath;
        const argv = [...args];
        const signals = [options.signal, this.options.signal].filter((x): x is AbortSignal => !!x);

        if (signals.some(x => x.aborted)) {
            return Promise.resolve({
                stdout: '', stderr: '', exitCode: undefined, signal: undefined, timedOut: false, durationMs: 0, args: argv
            });
        }

        const env = buildSandyEnv(this.options.processEnv ?? process.env, { ...this.options.envOptions, extra: options.env });

        return new Promise<RunResult>((resolve, reject) => {
            let clean: { file: string; args: string[] };
            try {
                clean = withOnlyStdio(sandyPath, argv);
            } catch (e) {
                reject(spawnError(e as NodeJS.ErrnoException, sandyPath, argv));
                return;
            }
            const child = spawn(clean.file, clean.args, {
                cwd: options.cwd,
                env,
                // Own process group: the group id is the child's pid, so the whole tree can be signalled.
                detached: true,
                // No stdin: introspection never reads it, and a launch that wants /dev/tty must not get ours.
                stdio: ['ignore', 'pipe', 'pipe'],
                windowsHide: true
            });

            const out: Buffer[] = [];
            const err: Buffer[] = [];
            let outBytes = 0;
            let errBytes = 0;
            let exitCode: number | undefined;
            let exitSignal: string | undefined;
            let exited = false;
            let closed = false;
            let settled = false;
            let timedOut = false;
            let overflow: 'stdout' | 'stderr' | undefined;
            let killing: Promise<void> | undefined;
            let timer: NodeJS.Timeout | undefined;
            let drainTimer: NodeJS.Timeout | undefined;

            const pid = child.pid;

            const killGroup = (): Promise<void> => {
                killing ??= killProcessGroup(pid, graceMs);
                return killing;
            };

            const finish = async (): Promise<void> => {
                if (settled) {
                    return;
                }
                settled = true;
                cleanup();
                if (killing) {
                    await killing;
                }
                if (overflow) {
                    reject(new SandyError('failed',
                        `sandy ${argv[0] ?? ''} printed more than ${Math.round(maxBytes / 1024 / 1024)} MiB on ${overflow}; it was stopped.`,
                        'Run the same command in a terminal to see what it prints, and report it at https://github.com/rappdw/sandy/issues.',
                        { args: argv }));
                    return;
                }
                resolve({
                    stdout: Buffer.concat(out).toString('utf8'),
                    stderr: Buffer.concat(err).toString('utf8'),
                    exitCode,
                    signal: exitSignal,
                    timedOut,
                    durationMs: Date.now() - started,
                    args: argv
                });
            };

            const onAbort = (): void => {
                void killGroup();
            };

            const cleanup = (): void => {
                if (timer) {
                    clearTimeout(timer);
                }
                if (drainTimer) {
                    clearTimeout(drainTimer);
                }
                for (const x of signals) {
                    x.removeEventListener('abort', onAbort);
                }
            };

            const collect = (chunks: Buffer[], stream: 'stdout' | 'stderr') => (chunk: Buffer): void => {
                const size = stream === 'stdout' ? (outBytes += chunk.length) : (errBytes += chunk.length);
                if (size > maxBytes) {
                    if (!overflow) {
                        overflow = stream;
                        void killGroup();
                    }
                    return;
                }
                chunks.push(chunk);
                options.onOutput?.(chunk, stream);
            };
            child.stdout!.on('data', collect(out, 'stdout'));
            child.stderr!.on('data', collect(err, 'stderr'));

            child.on('error', (e: NodeJS.ErrnoException) => {
                // 'error' without a pid = spawn failed; with a pid it is a kill() failure we can ignore.
                if (pid !== undefined || settled) {
                    return;
                }
                settled = true;
                cleanup();
                reject(spawnError(e, sandyPath, argv));
            });

            child.on('exit', (code, signal) => {
                exited = true;
                exitCode = code ?? undefined;
                exitSignal = signal ?? undefined;
                if (closed) {
                    void finish();
                    return;
                }
                drainTimer = setTimeout(() => {
                    // Background children keep the pipes open; what sandy wrote before exiting is all we need.
                    child.stdout?.destroy();
                    child.stderr?.destroy();
                    void finish();
                }, drainMs);
            });

            child.on('close', () => {
                closed = true;
                if (exited) {
                    void finish();
                }
            });

            if (pid === undefined) {
                return; // the 'error' event follows
            }
            if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
                timer = setTimeout(() => {
                    timedOut = true;
                    void killGroup();
                }, timeoutMs);
            }
            for (const x of signals) {
                x.addEventListener('abort', onAbort, { once: true });
            }
        });
    }
}

/** True while any process of the group exists (zombies included, as kill(2) sees them). */
export function processGroupAlive(pgid: number): boolean {
    try {
        process.kill(-pgid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
    try {
        process.kill(-pgid, signal);
    } catch {
        // ESRCH: the group is already gone.
    }
}

/**
 * SIGTERM to the group, then SIGKILL once `graceMs` passed with any member left. Resolves when the
 * group is gone or SIGKILL was sent.
 */
export async function killProcessGroup(pgid: number | undefined, graceMs: number): Promise<void> {
    if (pgid === undefined || pgid <= 0) {
        return;
    }
    signalGroup(pgid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
        if (!processGroupAlive(pgid) || allZombies(pgid)) {
            return;
        }
        await new Promise(r => setTimeout(r, GROUP_POLL_MS));
    }
    signalGroup(pgid, 'SIGKILL');
}

/**
 * Orphaned group members are reparented to PID 1; where PID 1 does not reap (minimal containers) they
 * stay zombies and kill(-pgid, 0) keeps succeeding. Linux-only check; elsewhere we wait out the grace.
 */
function allZombies(pgid: number): boolean {
    if (process.platform !== 'linux') {
        return false;
    }
    try {
        let members = 0;
        for (const entry of fs.readdirSync('/proc')) {
            if (!/^\d+$/.test(entry)) {
                continue;
            }
            let stat: string;
            try {
                stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
            } catch {
                continue;
            }
            // Fields after the parenthesised command: state ppid pgrp …
            const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            if (Number(fields[2]) === pgid) {
                members++;
                if (fields[0] !== 'Z') {
                    return false;
                }
            }
        }
        return members > 0;
    } catch {
        return false;
    }
}

function spawnError(e: NodeJS.ErrnoException, sandyPath: string, args: readonly string[]): SandyError {
    if (e.code === 'ENOENT') {
        return new SandyError('not-found', `sandy was not found at ${sandyPath} (or its interpreter, bash, is missing).`,
            'Install sandy, or set the sandy path in settings.', { args });
    }
    if (e.code === 'EACCES' || e.code === 'EPERM') {
        return new SandyError('not-executable', `sandy at ${sandyPath} cannot be executed (${e.code}).`,
            `Make it executable (chmod +x ${sandyPath}) or set another sandy path in settings.`, { args });
    }
    return new SandyError('failed', `sandy at ${sandyPath} could not be started: ${e.message}`,
        'Check the sandy path in settings.', { args });
}
