import * as path from 'path';
import { SandyError } from '../../common/sandy/errors';
import { locateSandy, LocatedSandy } from '../sandy/locate';
import { SandyClient } from '../sandy/sandy-client';
import { ProcessSandyRunner } from '../sandy/runner';

/*
 * What every `sandy-ui` command shares: where it reads and writes, the parsed command line, finding
 * sandy from `--sandy`, and the usage error.
 */

/** Where the CLI reads and writes; injected by tests. */
export interface CliIo {
    stdout(text: string): void;
    stderr(text: string): void;
    env: Readonly<Record<string, string | undefined>>;
    cwd: string;
    home: string;
    /** Aborted when the CLI is interrupted: every sandy it started is ended with its process group. */
    signal?: AbortSignal;
}

/** The command line as cli.ts's parser leaves it. */
export interface ParsedArgs {
    command?: string;
    positional: string[];
    json: boolean;
    help: boolean;
    sandyPath?: string;
}

/** A mistake on the command line: exit 2 with what to type instead. */
export function usageError(message: string, hint: string): SandyError {
    return new SandyError('usage', message, hint);
}

export async function locate(args: ParsedArgs, io: CliIo): Promise<LocatedSandy> {
    // On a command line a relative --sandy means "from here"; locateSandy refuses relative paths
    // because an IDE's cwd is arbitrary.
    const configured = args.sandyPath && !args.sandyPath.startsWith('~') ? path.resolve(io.cwd, args.sandyPath) : args.sandyPath;
    return locateSandy({
        configuredPath: configured, processEnv: io.env, home: io.home,
        runnerFor: sandyPath => new ProcessSandyRunner({ sandyPath, processEnv: io.env, signal: io.signal })
    });
}

export async function clientFor(args: ParsedArgs, io: CliIo): Promise<SandyClient> {
    const sandy = await locate(args, io);
    return SandyClient.forPath(sandy.path, { processEnv: io.env, signal: io.signal }, { fullVersion: sandy.fullVersion });
}

export function needArg(args: ParsedArgs, what: string, example: string): string {
    const value = args.positional[0];
    if (!value) {
        throw usageError(`${args.command} needs ${what}.`, `Example: sandy-ui ${args.command} ${example}`);
    }
    return value;
}

export function printJson(io: CliIo, value: unknown): void {
    io.stdout(`${JSON.stringify(value, undefined, 2)}\n`);
}

export function sandyHome(io: CliIo): string {
    return io.env.SANDY_HOME || path.join(io.home, '.sandy');
}
