import {
    PrintStateMode, printSchemaCommand, printStateCommand, printVersionCommand, validateConfigCommand, versionCommand
} from '../../common/sandy/commands';
import { approvalsCommand, SandyGateReport } from '../../common/sandy/approvals-report';
import { INTROSPECTION_MIN_SANDY, supportsIntrospection, supportsPrintVersion } from '../../common/sandy/compat';
import { PrintVersion, SandySchema, SandyState, ValidateConfigResult } from '../../common/sandy/contract';
import { SandyError } from '../../common/sandy/errors';
import { compareSandyVersions } from '../../common/sandy/version';
import { RunOptions, SandyCommand, SandyRunner } from '../../common/sandy/runner-types';
import { ProcessSandyRunner, ProcessSandyRunnerOptions } from './runner';

export { INTROSPECTION_MIN_SANDY };

/** Per-call options; the command's own timeout applies unless `timeoutMs` overrides it. */
export type SandyClientRunOptions = RunOptions;

export interface SandyClientOptions {
    /**
     * The full_version `--version` reported (see locateSandy). With it the client refuses flags this
     * sandy does not know instead of starting a launch; without it `printVersion()` asks `--version` first.
     */
    readonly fullVersion?: string;
}

/**
 * Runs sandy commands (`{ args, timeoutMs, parse }`) through an injected runner and returns the parsed
 * value, or throws the SandyError the command's parser produced.
 */
export class SandyClient {
    constructor(readonly runner: SandyRunner, readonly options: SandyClientOptions = {}) { }

    /** A client for the sandy at `sandyPath`, run as a process (ProcessSandyRunner). */
    static forPath(sandyPath: string, runnerOptions: Omit<ProcessSandyRunnerOptions, 'sandyPath'> = {}, options: SandyClientOptions = {}): SandyClient {
        return new SandyClient(new ProcessSandyRunner({ ...runnerOptions, sandyPath }), options);
    }

    async run<T>(cmd: SandyCommand<T>, options: SandyClientRunOptions = {}): Promise<T> {
        const result = await this.runner.run(cmd.args, { ...options, timeoutMs: options.timeoutMs ?? cmd.timeoutMs });
        if (options.signal?.aborted) {
            // Cancellation is the caller's own decision, not a sandy failure: rethrow its reason as is.
            throw options.signal.reason ?? Object.assign(new Error('The sandy call was cancelled.'), { name: 'AbortError' });
        }
        return cmd.parse(result);
    }

    /** `sandy --version` → full_version. The one probe every sandy understands (CONTRACT §2.1). */
    version(options?: SandyClientRunOptions): Promise<string> {
        return this.run(versionCommand(), options);
    }

    /** `sandy --print-version`; refused on sandy < 1.7.0, where it would start a launch (CONTRACT §2.1). */
    async printVersion(options?: SandyClientRunOptions): Promise<PrintVersion> {
        const fullVersion = this.options.fullVersion ?? await this.version(options);
        if (!supportsPrintVersion(fullVersion)) {
            throw tooOld(fullVersion, '--print-version', '1.7.0');
        }
        return this.run(printVersionCommand(), options);
    }

    /** `sandy --print-schema`. */
    schema(options?: SandyClientRunOptions): Promise<SandySchema> {
        return this.introspect(printSchemaCommand(), options);
    }

    /** `sandy --print-state [light]`; light for polling (no `du`, no image inspection). */
    state(mode: PrintStateMode = 'light', options?: SandyClientRunOptions): Promise<SandyState> {
        return this.introspect(printStateCommand(mode), options);
    }

    /** `sandy --approvals --workspace PATH` (sandy 2.x; the caller checks `cli_flags` lists it): which launch gates are pending. */
    approvals(workspace: string, options?: SandyClientRunOptions): Promise<SandyGateReport> {
        return this.introspect(approvalsCommand(workspace), options);
    }

    /** `sandy --validate-config PATH` (names the keys; checks no values — CONTRACT §0.2). */
    async validateConfig(path: string, options?: SandyClientRunOptions): Promise<ValidateConfigResult> {
        return this.introspect(validateConfigCommand(path), options);
    }

    private async introspect<T>(cmd: SandyCommand<T>, options?: SandyClientRunOptions): Promise<T> {
        const fullVersion = this.options.fullVersion;
        if (fullVersion !== undefined && !supportsIntrospection(fullVersion)) {
            throw compareSandyVersions(fullVersion, INTROSPECTION_MIN_SANDY) === undefined
                ? unrecognised(fullVersion, cmd.args[0])
                : tooOld(fullVersion, cmd.args[0], INTROSPECTION_MIN_SANDY);
        }
        return this.run(cmd, options);
    }
}

function unrecognised(fullVersion: string, flag: string): SandyError {
    return new SandyError('usage', `sandy reports the version "${fullVersion}", which sandy-ui does not recognise; it does not call ${flag}, which an old sandy would take as a launch.`,
        'Update sandy (`sandy --upgrade`) or set sandy.path to a released sandy, then retry.', { args: [flag] });
}

function tooOld(fullVersion: string, flag: string, since: string): SandyError {
    return new SandyError('usage', `sandy ${fullVersion} has no ${flag} (added in ${since}); calling it would start a sandy launch.`,
        'Update sandy (`sandy --upgrade`), then retry.', { args: [flag] });
}
