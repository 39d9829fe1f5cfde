/**
 * Node side of the pre-flight analysis: reads the four config files and the approval file from disk,
 * hashes with node:crypto, and hands everything to the pure analysis in common/preflight.ts.
 */
import { createHash } from 'crypto';
import { promises as fs } from 'fs';
import {
    analyzePreflight, approvalFilePathFor, approvalSetText, approvalTextByKey, PendingPrivilegedEntry, PreflightFileInput, PreflightReport,
    PreflightSchemaInput, SandboxCompatInput, ValidateConfigResultLike
} from '../../common/config/preflight';
import { readConfigFile } from '../config/config-io';

/** Hex SHA-256 of the UTF-8 bytes of `text`: what `printf '%s' "$text" | sha256sum` prints. */
export function sha256Hex(text: string): string {
    return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The 16-hex workspace id of approval file names (`passive-<h16>.list`) and `--print-state`
 * `approvals[].workspace_hash`; its first 8 hex are the sandbox name's suffix. `workspacePath` must be
 * canonical (`pwd -P`).
 */
export function workspaceHash16(workspacePath: string): string {
    return sha256Hex(workspacePath).slice(0, 16);
}

/** The launcher's approval-set hash (sandy:6024-6027): sha256 of the sorted-unique `KEY=VALUE` lines, LF-joined. */
export function approvalSetHash(pending: readonly Pick<PendingPrivilegedEntry, 'approvalLine'>[]): string {
    return sha256Hex(approvalSetText(pending));
}

/**
 * Per-key value hashes of a pending set, for sandy-ui's approval memory (sandy's approval file keeps
 * names only, so this is how "which value changed" is answered later).
 */
export function valueHashesFor(pending: readonly Pick<PendingPrivilegedEntry, 'key' | 'approvalLine'>[]): Record<string, string> {
    const hashes: Record<string, string> = {};
    for (const [key, text] of Object.entries(approvalTextByKey(pending))) {
        hashes[key] = sha256Hex(text);
    }
    return hashes;
}

export interface RunPreflightOptions {
    /** The workspace folder; canonicalised with realpath as sandy's `pwd -P` does (unless `canonical`). */
    readonly workspacePath: string;
    /** `workspacePath` is already canonical. */
    readonly canonical?: boolean;
    /** `$SANDY_HOME` of the launch (see `sandyHomeFromEnv`). */
    readonly sandyHome: string;
    readonly schema: PreflightSchemaInput;
    readonly envSetKeys?: readonly string[];
    readonly envLanHosts?: string;
    readonly validateResults?: readonly ValidateConfigResultLike[];
    readonly sandbox?: SandboxCompatInput;
}

/** Reads the workspace's and `$SANDY_HOME`'s config files and analyses them as the launcher will. */
export async function runPreflight(options: RunPreflightOptions): Promise<PreflightReport> {
    const workspacePath = options.canonical ? options.workspacePath : await fs.realpath(options.workspacePath);
    // A refused file (a symlink, a FIFO, over 1 MiB) throws: the launch stops with its message, as the
    // user cannot be shown what sandy would load from it.
    const read = async (file: string): Promise<PreflightFileInput> => {
        const r = await readConfigFile(file);
        return { path: file, text: r.exists ? r.text : undefined, invalidUtf8: r.invalidUtf8 };
    };
    // Plain concatenation, like sandy's "$SANDY_HOME/config" and "$WORK_DIR/.sandy/config".
    const [homeConfig, homeSecrets, workspaceConfig, workspaceSecrets] = await Promise.all([
        read(`${options.sandyHome}/config`),
        read(`${options.sandyHome}/.secrets`),
        read(`${workspacePath}/.sandy/config`),
        read(`${workspacePath}/.sandy/.secrets`)
    ]);
    const approvalFile = approvalFilePathFor(options.sandyHome, workspacePath, sha256Hex);
    const approval = await readConfigFile(approvalFile, { root: options.sandyHome });
    return analyzePreflight({
        workspacePath,
        sandyHome: options.sandyHome,
        homeConfig,
        homeSecrets,
        workspaceConfig,
        workspaceSecrets,
        schema: options.schema,
        envSetKeys: options.envSetKeys,
        envLanHosts: options.envLanHosts,
        approvalFileText: approval.exists ? approval.text : undefined,
        validateResults: options.validateResults,
        sandbox: options.sandbox
    }, sha256Hex);
}
