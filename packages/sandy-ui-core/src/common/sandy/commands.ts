/**
 * One command object per sandy introspection call: argv (flag always first — CONTRACT §0.1: anywhere
 * else, or as `--flag=value`, sandy starts a full launch), a timeout, and a pure parse of the result.
 */
import { SandyError } from './errors';
import {
    parsePrintSchema, parsePrintState, parsePrintVersion, parseSandyJson, parseValidateConfig, parseVersionLine,
    PrintVersion, SandySchema, SandyState, ValidateConfigResult, validateSandyOutput, ValidateConfigResultSchema
} from './contract';
import { RunResult, SandyCommand } from './runner-types';

/** Per-command timeouts (ms). Full `--print-state` runs `du` on every sandbox and several docker calls. */
export const SANDY_COMMAND_TIMEOUTS = {
    version: 5_000,
    printVersion: 5_000,
    printSchema: 15_000,
    printStateLight: 10_000,
    printStateFull: 60_000,
    validateConfig: 10_000
} as const;

/** `--print-state` mode; anything but exactly `light` makes sandy run full mode (fx 41e). */
export type PrintStateMode = 'full' | 'light';

function commandLine(args: readonly string[]): string {
    return ['sandy', ...args].map(a => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function firstLines(text: string, max = 3): string {
    return text.split(/\r?\n/).map(l => l.trimEnd()).filter(l => l !== '').slice(0, max).join(' / ');
}

/** Known stderr lines sandy prints before any handler runs, with what the user can do. */
function hintFor(stderr: string, args: readonly string[]): string {
    if (/Invalid SANDY_HOME/.test(stderr)) {
        // sandy:150-155 rejects ; $ ` & | < > in SANDY_HOME for every flag, introspection included (fx 07).
        return 'SANDY_HOME contains a shell metacharacter (; $ ` & | < >). Point SANDY_HOME at a plain path, then retry.';
    }
    if (/introspection handler failed/.test(stderr)) {
        return 'sandy hit an internal error; the lines above say where. Report it at https://github.com/rappdw/sandy/issues.';
    }
    return `Run \`${commandLine(args)}\` in a terminal to see the full output.`;
}

/**
 * The checks every introspection result goes through: timeout, death by signal, and a non-zero exit.
 * Returns normally only when stdout should be parsed.
 */
function checkRun(result: RunResult, options: { jsonOnNonZero?: boolean } = {}): void {
    const what = commandLine(result.args);
    const details = { args: result.args, exitCode: result.exitCode, stderr: result.stderr };
    if (result.timedOut) {
        throw new SandyError('timeout', `\`${what}\` did not answer within ${(result.durationMs / 1000).toFixed(1)} s and was stopped.`,
            'sandy may be waiting on Docker or on a dead network mount of a workspace. Check that `docker info` answers, then retry.',
            details);
    }
    if (result.exitCode === undefined) {
        throw new SandyError('failed', `\`${what}\` was killed${result.signal ? ` by ${result.signal}` : ''}.`,
            'Retry; if it keeps happening, run the command in a terminal.', details);
    }
    if (result.exitCode === 0) {
        return;
    }
    const stdoutEmpty = result.stdout.trim() === '';
    if (stdoutEmpty || !options.jsonOnNonZero) {
        const stderr = firstLines(result.stderr);
        throw new SandyError('failed',
            `\`${what}\` failed (exit ${result.exitCode})${stderr ? `: ${stderr}` : ' and printed nothing'}`,
            hintFor(result.stderr, result.args), details);
    }
}

/** Adds what was run to a parse error, so the message can be traced back to one invocation. */
function withArgs<T>(result: RunResult, parse: () => T): T {
    try {
        return parse();
    } catch (e) {
        if (e instanceof SandyError) {
            throw new SandyError(e.code, e.message, e.hint, { ...e.details, args: result.args, exitCode: result.exitCode, stderr: result.stderr });
        }
        throw e;
    }
}

/** `sandy --version` → full_version (`1.7.1-dev`, `1.7.1-dev-abc1234`). Safe on every sandy version. */
export function versionCommand(): SandyCommand<string> {
    const args = ['--version'];
    return {
        args,
        timeoutMs: SANDY_COMMAND_TIMEOUTS.version,
        parse(result) {
            checkRun(result);
            const version = parseVersionLine(result.stdout);
            if (version === undefined) {
                throw new SandyError('invalid-output',
                    `\`sandy --version\` printed "${firstLines(result.stdout, 1)}" instead of "sandy <version>".`,
                    'The configured sandy may be a different program. Check the sandy path in settings.',
                    { args: result.args, exitCode: result.exitCode, stderr: result.stderr });
            }
            return version;
        }
    };
}

/** `sandy --print-version` — only on sandy ≥ 1.7.0: older sandy forwards the flag to the agent and launches. */
export function printVersionCommand(): SandyCommand<PrintVersion> {
    return {
        args: ['--print-version'],
        timeoutMs: SANDY_COMMAND_TIMEOUTS.printVersion,
        parse(result) {
            checkRun(result);
            return withArgs(result, () => parsePrintVersion(result.stdout));
        }
    };
}

/** `sandy --print-schema`. Depends on SANDY_ALLOW_WORKFLOW_EDIT in sandy's environment (fx 01b). */
export function printSchemaCommand(): SandyCommand<SandySchema> {
    return {
        args: ['--print-schema'],
        timeoutMs: SANDY_COMMAND_TIMEOUTS.printSchema,
        parse(result) {
            checkRun(result);
            return withArgs(result, () => parsePrintSchema(result.stdout));
        }
    };
}

/** `sandy --print-state [light]`: light for polling; full for sizes, image staleness and reclaim counts. */
export function printStateCommand(mode: PrintStateMode): SandyCommand<SandyState> {
    return {
        args: mode === 'light' ? ['--print-state', 'light'] : ['--print-state'],
        timeoutMs: mode === 'light' ? SANDY_COMMAND_TIMEOUTS.printStateLight : SANDY_COMMAND_TIMEOUTS.printStateFull,
        parse(result) {
            checkRun(result);
            return withArgs(result, () => parsePrintState(result.stdout));
        }
    };
}

/**
 * `sandy --validate-config PATH`. Exit 1 with JSON is a normal answer (missing file: `errors[]` says so),
 * so the JSON is parsed whatever the exit status; only exit≠0 with empty stdout is a failure.
 */
export function validateConfigCommand(path: string): SandyCommand<ValidateConfigResult> {
    if (path === '') {
        // sandy would answer with a usage error (fx 25); an empty argv element is our bug, not sandy's.
        throw new SandyError('usage', 'No config file was given to validate.', 'Choose a config file, then retry.', { args: ['--validate-config'] });
    }
    return {
        args: ['--validate-config', path],
        timeoutMs: SANDY_COMMAND_TIMEOUTS.validateConfig,
        parse(result) {
            checkRun(result, { jsonOnNonZero: true });
            if (result.exitCode === 0) {
                return withArgs(result, () => parseValidateConfig(result.stdout));
            }
            // Exit 1 with stdout: JSON expected; if it is not, the exit status says more than the parser.
            let json: unknown;
            try {
                json = parseSandyJson(result.stdout, '--validate-config');
            } catch {
                throw new SandyError('failed',
                    `\`${commandLine(result.args)}\` failed (exit ${result.exitCode}): ${firstLines(result.stderr) || firstLines(result.stdout)}`,
                    hintFor(result.stderr, result.args), { args: result.args, exitCode: result.exitCode, stderr: result.stderr });
            }
            return withArgs(result, () => validateSandyOutput(json, ValidateConfigResultSchema, '--validate-config'));
        }
    };
}
