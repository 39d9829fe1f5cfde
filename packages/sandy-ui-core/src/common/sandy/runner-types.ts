/**
 * The host-neutral shape of one sandy invocation (as in vscode-containers' CommandRunner): a command
 * is `{ args, timeoutMs, parse }`, run by an injected runner. Parsing never touches a process, so the
 * parsers are tested on real fixture output and the runner on real processes.
 */
export interface RunResult {
    stdout: string;
    stderr: string;
    /** undefined when the process was killed by a signal. */
    exitCode: number | undefined;
    signal: string | undefined;
    timedOut: boolean;
    durationMs: number;
    /** argv after the executable, introspection flag first. */
    args: readonly string[];
}

export interface RunOptions {
    timeoutMs?: number;
    cwd?: string;
    /** Extra variables on top of the whitelisted environment (never SANDY_AUTO_APPROVE_PRIVILEGED: the env builder drops it). */
    env?: Record<string, string>;
    /** Cancels the run; the process group is killed. */
    signal?: AbortSignal;
    /** Each chunk as it comes (a build's progress); the result still holds all of it. */
    onOutput?: (chunk: Uint8Array, stream: 'stdout' | 'stderr') => void;
}

export interface SandyRunner {
    run(args: readonly string[], options?: RunOptions): Promise<RunResult>;
}

export interface SandyCommand<T> {
    /** argv; an introspection flag is always args[0] (CONTRACT §0.1). */
    readonly args: readonly string[];
    readonly timeoutMs: number;
    parse(result: RunResult): T;
}
