import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';
import { SandySchema, SandyState, ValidateConfigResult } from '../../common/sandy/contract';
import { isSandyError, SandyError, SandyErrorCode } from '../../common/sandy/errors';
import { LockSweepReport, sweepLocks } from '../sandy/lock-sweep';
import { DEFAULT_KILL_GRACE_MS } from '../sandy/runner';
import { formatBytes } from '../../common/projects/project-labels';
import { CliIo, clientFor, needArg, ParsedArgs, printJson, sandyHome, usageError } from './cli-common';
import { doctor } from './doctor';
import { LaunchVerdict, launchVerdictOf } from '../../common/approvals/approval-model';
import { launchVerdictLine } from '../../common/host/labels';
import { toProblem } from '../../common/service/service-protocol';
import { analyzeLaunch } from '../approvals/launch-analysis';
import { checkWorkspace } from '../projects/workspace-guard';
import { buildSandyEnv } from '../sandy/env';
import { SandyClient } from '../sandy/sandy-client';

export type { CliIo } from './cli-common';
export type { DoctorCheck } from './doctor';

/**
 * `sandy-ui`: the checks and views of the IDE on a terminal, for support and scripts. Exit status:
 * 0 fine, 1 doctor found a problem (or a validated file has errors), 2 the command itself failed —
 * with one actionable line on stderr, never a stack trace.
 */

export const USAGE = `sandy-ui — check and inspect the sandy that sandy-ui uses

Usage: sandy-ui [--sandy PATH] [--json] <command> [arguments]

Commands:
  doctor                    check sandy, its version, Docker and folders; exit 1 when something is missing
  state [light]             sandboxes, locks and containers (sandy --print-state)
  schema                    what sandy's config schema offers (sandy --print-schema)
  validate <config>         what sandy says about a config file (sandy --validate-config)
  sweep-locks <workspace>   remove this workspace's sandy lock if its holder is dead

Options:
  --sandy PATH   use this sandy instead of searching PATH and the usual install folders
  --json         machine-readable output; failures as {"error":{"code","message","hint"}}
  -h, --help     show this text

Exit status: 0 ok, 1 problems found, 2 the command failed.
`;

/** The options `util.parseArgs` knows; anything else is refused with a usage error. */
const OPTIONS = {
    sandy: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
} as const;

type OptionName = keyof typeof OPTIONS;

function isOptionName(name: string): name is OptionName {
    return Object.prototype.hasOwnProperty.call(OPTIONS, name);
}

/**
 * `util.parseArgs` splits the command line (`--sandy=PATH` and `--sandy PATH`, `-h`, `--` ends the
 * options, options anywhere); its tokens are then checked here, so that an unknown option or a missing
 * path is a usage error in sandy-ui's words (exit 2) rather than Node's error text.
 */
function parseCliArgs(argv: readonly string[]): ParsedArgs {
    const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
    const parsed: ParsedArgs = { positional: [], json: false, help: false };
    for (const token of tokens) {
        if (token.kind === 'positional') {
            parsed.positional.push(token.value);
        } else if (token.kind === 'option') {
            if (!isOptionName(token.name) || (OPTIONS[token.name].type === 'boolean' && token.value !== undefined)) {
                // Named as typed (`-hj`, `--json=1`), not as the piece parseArgs split off.
                throw usageError(`Unknown option ${argv[token.index]}.`, 'Run `sandy-ui --help` for the options.');
            }
            if (token.name === 'sandy') {
                if (!token.value) {
                    throw usageError('--sandy needs a path.', 'Pass the path of the sandy executable: --sandy /path/to/sandy');
                }
                parsed.sandyPath = token.value;
            } else {
                parsed[token.name] = true;
            }
        }
    }
    parsed.command = parsed.positional.shift();
    return parsed;
}

/** Runs the CLI; resolves with the exit status. Never throws. */
export async function main(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
    let json = argv.includes('--json');
    try {
        const args = parseCliArgs(argv);
        json = args.json;
        if (args.help) {
            io.stdout(USAGE);
            return 0;
        }
        if (!args.command) {
            throw usageError('No command given.', 'Run `sandy-ui --help` for the commands, e.g. `sandy-ui doctor`.');
        }
        switch (args.command) {
            case 'doctor': return await doctor(args, io);
            case 'state': return await state(args, io);
            case 'schema': return await schema(args, io);
            case 'validate': return await validate(args, io);
            case 'sweep-locks': return await sweep(args, io);
            default:
                throw usageError(`Unknown command "${args.command}".`, 'Run `sandy-ui --help` for the commands.');
        }
    } catch (e) {
        if (io.signal?.aborted) {
            // Interrupted: the caller exits with the signal's status; a shell prints nothing for ^C either.
            return 2;
        }
        reportFailure(e, json, io);
        return 2;
    }
}

/** The exit status of a run ended by a signal, as a shell reports it (128 + the signal's number). */
export const INTERRUPT_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type InterruptSignal = keyof typeof INTERRUPT_EXIT_CODES;

/**
 * How long an interrupted CLI waits for its sandy children to go: the runner's SIGTERM → grace →
 * SIGKILL of their process group, plus a margin. A command awaiting something else (the Docker
 * ping) is not waited for beyond it.
 */
export const INTERRUPT_WAIT_MS = DEFAULT_KILL_GRACE_MS + 1000;

/**
 * `sandy-ui` as a process (bin/sandy-ui.js). sandy runs in a process group of its own (so that a
 * timeout can end its whole tree), which also means the terminal's Ctrl-C reaches only this
 * process: on SIGINT, SIGTERM or SIGHUP the CLI therefore ends its sandy children's groups itself
 * before it exits with 130, 143 or 129.
 */
export async function runFromProcess(argv: readonly string[], proc: NodeJS.Process = process): Promise<void> {
    const controller = new AbortController();
    let received: InterruptSignal | undefined;
    let interrupted: (() => void) | undefined;
    const interruptedPromise = new Promise<void>(resolve => { interrupted = resolve; });
    const onSignal = (signal: InterruptSignal): void => {
        if (received) {
            return; // already ending; the wait below is bounded
        }
        received = signal;
        controller.abort(Object.assign(new Error(`sandy-ui was interrupted (${signal}).`), { name: 'AbortError' }));
        interrupted?.();
    };
    const signals = Object.keys(INTERRUPT_EXIT_CODES) as InterruptSignal[];
    for (const signal of signals) {
        proc.on(signal, onSignal);
    }
    const run = main(argv, { ...defaultIo(), signal: controller.signal });
    const code = await Promise.race([
        run,
        interruptedPromise.then(() => Promise.race([run, new Promise<number>(resolve => setTimeout(resolve, INTERRUPT_WAIT_MS, 2).unref())]))
    ]);
    for (const signal of signals) {
        proc.off(signal, onSignal);
    }
    if (received) {
        // Open sockets (a Docker ping) must not keep an interrupted CLI alive.
        proc.exit(INTERRUPT_EXIT_CODES[received]);
    }
    proc.exitCode = code;
}

function reportFailure(e: unknown, json: boolean, io: CliIo): void {
    const err = isSandyError(e)
        ? e
        : new SandyError('failed', `sandy-ui failed: ${e instanceof Error ? e.message : String(e)}`,
            'Run again; if it persists, report it with the command you ran.');
    const oneLine = (s: string): string => s.replace(/\s*\r?\n\s*/g, ' ').trim();
    io.stderr(`sandy-ui: ${oneLine(err.message)}${err.hint ? ` ${oneLine(err.hint)}` : ''}\n`);
    if (json) {
        const error: { code: SandyErrorCode; message: string; hint: string } = { code: err.code, message: err.message, hint: err.hint };
        io.stdout(`${JSON.stringify({ error })}\n`);
    }
}

function defaultIo(): CliIo {
    return {
        stdout: text => { process.stdout.write(text); },
        stderr: text => { process.stderr.write(text); },
        env: process.env,
        cwd: process.cwd(),
        home: os.homedir()
    };
}

// ------------------------------------------------------------------------------------------------
// state / schema / validate / sweep-locks

async function state(args: ParsedArgs, io: CliIo): Promise<number> {
    const modeArg = args.positional[0];
    if (modeArg !== undefined && modeArg !== 'light' && modeArg !== 'full') {
        throw usageError(`Unknown state mode "${modeArg}".`, 'Use `sandy-ui state` (full) or `sandy-ui state light`.');
    }
    const result = await (await clientFor(args, io)).state(modeArg === 'light' ? 'light' : 'full');
    if (args.json) {
        printJson(io, result);
    } else {
        io.stdout(formatState(result));
    }
    return 0;
}

/** A terminal summary of `--print-state`. */
export function formatState(s: SandyState): string {
    const lines: string[] = [];
    lines.push(`SANDY_HOME  ${s.sandy_home}${s.host_id ? `  (host ${s.host_id})` : ''}`);
    lines.push(`Docker      ${s.docker_reachable ? 'reachable' : 'not reachable'}`);
    lines.push(`Sandboxes   ${s.sandboxes.length}`);
    for (const b of s.sandboxes) {
        const lock = !b.lock_held ? ''
            : b.lock_holder_alive === true ? `  locked by pid ${b.lock_holder_pid}`
                : b.lock_holder_alive === false ? `  STALE lock (pid ${b.lock_holder_pid} not running)`
                    : `  locked (pid ${b.lock_holder_pid === '' ? 'not written yet' : JSON.stringify(b.lock_holder_pid)})`;
        const ws = b.workspace_path ? `${b.workspace_path}${b.workspace_exists === false ? ' (missing)' : ''}` : '(no workspace marker)';
        const size = typeof b.size_bytes === 'number' ? `  ${formatBytes(b.size_bytes)}` : '';
        lines.push(`  ${b.name}  ${ws}${size}${lock}`);
    }
    if (s.running_containers) {
        lines.push(`Containers  ${s.running_containers.length}`);
        for (const c of s.running_containers) {
            lines.push(`  ${c.name}  ${c.image}${c.daemon ? '  daemon' : ''}${typeof c.attached_clients === 'number' ? `  ${c.attached_clients} attached` : ''}`);
        }
    }
    if (s.approvals.length) {
        lines.push(`Approvals   ${s.approvals.length}`);
    }
    return `${lines.join('\n')}\n`;
}


async function schema(args: ParsedArgs, io: CliIo): Promise<number> {
    const result = await (await clientFor(args, io)).schema();
    if (args.json) {
        printJson(io, result);
    } else {
        io.stdout(formatSchema(result));
    }
    return 0;
}

/** A terminal summary of `--print-schema`. */
export function formatSchema(s: SandySchema): string {
    const c = s.config;
    return [
        `sandy ${s.sandy.version}${s.sandy.commit ? ` (${s.sandy.commit})` : ''}, config schema v${s.schema_version}`,
        `Config keys  ${c.privileged_keys.length} privileged, ${c.passive_keys.length} passive, ${c.env_only_keys.length} env-only`,
        `Agents       ${s.agents.map(a => a.name).join(', ')}`,
        `CLI flags    ${s.cli_flags.length}`,
        `Sandboxes    created before sandy ${s.sandy.sandbox_min_compat} are refused at launch`,
        ''
    ].join('\n');
}

async function validate(args: ParsedArgs, io: CliIo): Promise<number> {
    const file = path.resolve(io.cwd, needArg(args, 'a config file', '.sandy/config'));
    const client = await clientFor(args, io);
    const result = await client.validateConfig(file);
    const launch = await launchVerdictFor(file, client, io);
    if (args.json) {
        printJson(io, launch ? { ...result, launch } : result);
    } else {
        io.stdout(formatValidation(result));
        if (launch) {
            io.stdout(`${launchVerdictLine(launch.verdict, launch.workspace)}\n`);
        }
    }
    return result.errors.length || launch?.verdict.kind === 'refuse' ? 1 : 0;
}

/**
 * The verdict Launch's pre-flight reaches for the workspace the file belongs to (`<ws>/.sandy/…`;
 * for `$SANDY_HOME`'s own files, the current folder's): core's one analysis (analyzeLaunch), as Add
 * Project says it. A folder the workspace guard refuses, or files pre-flight cannot read, are a refusal.
 */
async function launchVerdictFor(file: string, client: SandyClient, io: CliIo): Promise<{ workspace: string; verdict: LaunchVerdict } | undefined> {
    const home = sandyHome(io);
    const folder = path.dirname(file);
    const workspace = path.basename(folder) === '.sandy' && path.resolve(folder) !== path.resolve(home) ? path.dirname(folder)
        : path.resolve(folder) === path.resolve(home) ? io.cwd : undefined;
    if (!workspace) {
        return undefined;
    }
    const refused = (e: unknown) => {
        const problem = toProblem(e);
        return { workspace, verdict: { kind: 'refuse' as const, lines: [`${problem.message} ${problem.hint}`.trim()] } };
    };
    let canonical: string;
    try {
        canonical = await checkWorkspace(workspace, io.home, { env: io.env });
    } catch (e) {
        return refused(e);
    }
    const schema = await client.schema();
    const state = await client.state('light').catch(() => undefined);
    const sandbox = state?.sandboxes.find(s => s.workspace_path === canonical);
    const launchEnv = buildSandyEnv(io.env, {});
    try {
        const { request } = await analyzeLaunch({
            workspace: canonical, schema, sandyHome: home, home: launchEnv.HOME || io.home, launchEnv,
            sandbox: sandbox ? { createdVersion: sandbox.created_version, path: sandbox.path } : undefined,
            problemOf: e => toProblem(e)
        });
        return { workspace: canonical, verdict: launchVerdictOf(request) };
    } catch (e) {
        return refused(e);
    }
}

/** A terminal summary of `--validate-config`; says what it does not check (CONTRACT §0.2). */
export function formatValidation(v: ValidateConfigResult): string {
    const lines = [`${v.path}  (${v.source_tier} tier)`];
    for (const e of v.errors) {
        lines.push(`  error    ${e}`);
    }
    for (const w of v.warnings) {
        lines.push(`  warning  ${w.key}: ${w.message}`);
    }
    if (v.unknown_keys.length) {
        lines.push(`  unknown keys: ${v.unknown_keys.join(', ')}`);
    }
    if (v.privileged_keys_requiring_approval.length) {
        lines.push(`  needs approval: ${v.privileged_keys_requiring_approval.join(', ')} — status ${v.approval_status}`);
    }
    lines.push('  (sandy checks values only at launch: types, ranges and patterns are not validated here.)');
    return `${lines.join('\n')}\n`;
}

async function sweep(args: ParsedArgs, io: CliIo): Promise<number> {
    const workspace = path.resolve(io.cwd, needArg(args, 'a workspace folder', '~/src/my-project'));
    const report = await sweepLocks(sandyHome(io), workspace);
    if (args.json) {
        printJson(io, report);
    } else {
        io.stdout(`${formatSweep(report)}\n`);
    }
    return 0;
}

/** One line per sweep outcome. */
export function formatSweep(r: LockSweepReport): string {
    const pid = r.pid === undefined ? '' : ` (pid ${JSON.stringify(r.pid)})`;
    switch (r.reason) {
        case 'no-lock': return `No lock for ${r.workspace} (${r.sandboxName}).`;
        case 'stale': return `Removed the stale lock of ${r.workspace}: pid ${r.pid} is not running.`;
        case 'alive': return `Kept the lock of ${r.workspace}: pid ${r.pid} is running — sandy is in use there.`;
        case 'eperm': return `Kept the lock of ${r.workspace}: pid ${r.pid} runs as another user.`;
        case 'pid-missing': return `Kept the lock of ${r.workspace}: it has no pid yet (a sandy may be starting). If no sandy runs there, remove ${r.lockDir}`;
        case 'pid-empty':
        case 'pid-not-numeric': return `Kept the lock of ${r.workspace}: its pid file is not a number${pid}. If no sandy runs there, remove ${r.lockDir}`;
        case 'raced': return `Left the lock of ${r.workspace} alone: another sandy took it over meanwhile.`;
        default: return `Kept the lock of ${r.workspace} (${r.reason})${pid}: ${r.lockDir}`;
    }
}

