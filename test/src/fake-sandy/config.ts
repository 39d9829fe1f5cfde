/*
 * Config-file parsing exactly as sandy does it: `grep -E '^[A-Z_]+=.+'` then
 * `IFS='=' read -r key value`, then quote stripping. Two consumers differ in
 * one detail that matters (CONTRACT §0.3/§2.6): the launcher strips a
 * trailing CR, --validate-config does not.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
    SCHEMA_VERSION, err, headLine, isFile, jsonEscape, out, pwdP, sha256Hex, shBasename, shDirname, sortUnique, rawErr, exit
} from './util';

export const PRIVILEGED_KEYS = [
    'SANDY_SSH', 'SANDY_SKIP_PERMISSIONS', 'SANDY_ALLOW_NO_ISOLATION', 'SANDY_ALLOW_LAN_HOSTS', 'SANDY_LOCAL_LLM_HOST',
    'SANDY_ALLOW_HOSTS', 'SANDY_EXTRA_ENV', 'SANDY_AGENT_ARGS', 'ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN',
    'GEMINI_API_KEY', 'OPENAI_API_KEY', 'XAI_API_KEY', 'GOOGLE_API_KEY', 'CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS',
    'SANDY_SCREENSHOT_DIR', 'SANDY_GEMINI_EXTENSIONS', 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_ALLOWED_SENDERS',
    'DISCORD_BOT_TOKEN', 'DISCORD_ALLOWED_SENDERS'
];

export const PASSIVE_KEYS = [
    'SANDY_AGENT', 'SANDY_MODEL', 'SANDY_TEAMMATE_MODE', 'SANDY_EFFORT', 'SANDY_CPUS', 'SANDY_MEM', 'SANDY_GPU',
    'SANDY_SKILL_PACKS', 'SANDY_CHANNELS', 'SANDY_CHANNEL_TARGET_PANE', 'SANDY_VERBOSE', 'SANDY_VENV_OVERLAY',
    'SANDY_EGRESS_PROXY', 'SANDY_EGRESS_NO_ISOLATION', 'SANDY_EGRESS_STRICT', 'SANDY_EGRESS_LOG',
    'SANDY_ALLOW_WORKFLOW_EDIT', 'CLAUDE_CODE_MAX_OUTPUT_TOKENS', 'GEMINI_MODEL', 'SANDY_GEMINI_AUTH',
    'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_GENAI_USE_VERTEXAI', 'CODEX_MODEL', 'SANDY_CODEX_AUTH',
    'OPENCODE_MODEL', 'SANDY_OPENCODE_AUTH', 'GROK_MODEL', 'SANDY_GROK_AUTH', 'SANDY_TOOL_AUDIT', 'SANDY_HANDOFF_DIRS'
];

export const ENV_ONLY_KEYS = ['SANDY_AUTO_APPROVE_PRIVILEGED', 'SANDY_DEBUG_CLEANUP', 'SANDY_HOST_ID'];

/** Schema `type:"secret"` keys; their values travel through a 0600 --env-file. */
export const SECRET_KEYS = [
    'ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'GEMINI_API_KEY', 'OPENAI_API_KEY', 'XAI_API_KEY',
    'GOOGLE_API_KEY', 'TELEGRAM_BOT_TOKEN', 'DISCORD_BOT_TOKEN'
];

const MSG_WEAKENS = 'weakens isolation / privileged key set from workspace \u2014 requires explicit approval';
const MSG_ENV_ONLY = 'env-only key set in a config file \u2014 ignored at load time';

/** `_sandy_passive_value_privileged` (sandy:132-140). */
export function passiveValuePrivileged(key: string, value: string): boolean {
    switch (key) {
        case 'SANDY_EGRESS_NO_ISOLATION': return value === '1';
        case 'SANDY_EGRESS_STRICT': return value === '0';
        case 'SANDY_EGRESS_PROXY': return value === '0';
        case 'SANDY_ALLOW_WORKFLOW_EDIT': return value === '1';
        default: return false;
    }
}

/**
 * The lines `grep -E '^[A-Z_]+=.+'` keeps. grep splits on \n only, so a CR
 * stays part of the line; `.+` needs one more character after the `=`.
 */
export function grepConfigLines(text: string): string[] {
    const lines = text.split('\n');
    if (lines.length && lines[lines.length - 1] === '') {
        lines.pop();
    }
    return lines.filter(l => /^[A-Z_]+=./.test(l));
}

/**
 * `IFS='=' read -r key value`. The first field ends at the first `=`; the
 * rest goes to `value`, except that bash drops ONE trailing delimiter when the
 * remainder holds exactly one `=` and it is the last character
 * (`A=b=` -> `b`, `A=b==` -> `b==`, `A==` -> ``). Verified against bash 5.2.
 */
export function readKeyValue(line: string): { key: string; value: string } {
    const i = line.indexOf('=');
    const key = line.slice(0, i);
    let value = line.slice(i + 1);
    if (/^[^=]*=$/.test(value)) {
        value = value.slice(0, -1);
    }
    return { key, value };
}

/** `value="${value#\"}"; value="${value%\"}"; value="${value#\'}"; value="${value%\'}"` */
export function stripQuotes(v: string): string {
    let s = v;
    if (s.startsWith('"')) {
        s = s.slice(1);
    }
    if (s.endsWith('"')) {
        s = s.slice(0, -1);
    }
    if (s.startsWith('\'')) {
        s = s.slice(1);
    }
    if (s.endsWith('\'')) {
        s = s.slice(0, -1);
    }
    return s;
}

export interface ValidateResult {
    json: string;
    rc: number;
}

/** `--validate-config PATH` (sandy:2150-2307). */
export function validateConfig(rawPath: string | undefined, sandyHome: string): ValidateResult {
    if (!rawPath) {
        rawErr('[sandy] ERROR: --validate-config requires a path argument');
        exit(1);
    }
    const p = rawPath as string;
    // abs_path="$(cd "$(dirname "$path")" && pwd -P)/$(basename "$path")": when the
    // cd fails the substitution is empty and the result is "/<basename>" (D5).
    const dirCanon = pwdP(shDirname(p)) ?? '';
    const absPath = `${dirCanon}/${shBasename(p)}`;
    // SANDY_HOME is compared after its own pwd -P, falling back to the literal value.
    const shCanon = pwdP(sandyHome) ?? sandyHome;
    let tier: 'privileged' | 'passive';
    let workspace = '';
    if (absPath === `${shCanon}/config` || absPath === `${shCanon}/.secrets`) {
        tier = 'privileged';
    } else {
        tier = 'passive';
        const parent = shDirname(absPath);
        workspace = shBasename(parent) === '.sandy' ? shDirname(parent) : parent;
    }

    const errors: string[] = [];
    const warnings: Array<{ key: string; message: string }> = [];
    const unknown: string[] = [];
    const privileged: string[] = [];
    let fatal = 0;
    let lines: string[] = [];

    if (!isFile(absPath)) {
        errors.push(`file does not exist: ${absPath}`);
        fatal = 1;
    } else {
        let grepStatus = 0;
        try {
            lines = grepConfigLines(fs.readFileSync(absPath).toString('utf8'));
            grepStatus = lines.length === 0 ? 1 : 0;
        } catch {
            grepStatus = 2;
        }
        if (grepStatus !== 0) {
            // Real quirk (found by the differential test, not in CONTRACT.md): when
            // grep matches nothing (empty or comment-only file) its status 1 fires
            // the introspection ERR trap inside the process substitution. The JSON
            // is still complete and the exit code stays 0, but stderr is NOT empty.
            err(`[sandy] ERROR: introspection handler failed (exit ${grepStatus})\n` +
                '[sandy]        line 2150: grep -E \'^[A-Z_]+=.+\' "$abs_path" 2> /dev/null\n' +
                '[sandy]        Report this at https://github.com/rappdw/sandy/issues\n');
        }
        for (const line of lines) {
            const kv = readKeyValue(line);
            // No CR stripping here — unlike the loader (D4, fixtures 15b/15c).
            const value = stripQuotes(kv.value);
            const key = kv.key;
            if (PRIVILEGED_KEYS.includes(key) || (tier === 'passive' && passiveValuePrivileged(key, value))) {
                privileged.push(key);
                if (tier === 'passive') {
                    warnings.push({ key, message: MSG_WEAKENS });
                }
            } else if (PASSIVE_KEYS.includes(key)) {
                // allowed in any tier
            } else if (ENV_ONLY_KEYS.includes(key)) {
                warnings.push({ key, message: MSG_ENV_ONLY });
            } else {
                unknown.push(key);
            }
        }
    }

    let approvalStatus = 'none_required';
    let approvalFilePath = 'null';
    if (fatal === 0 && tier === 'passive' && privileged.length > 0) {
        const kvSet: string[] = [];
        for (const line of lines) {
            const kv = readKeyValue(line);
            const value = stripQuotes(kv.value);
            if (PRIVILEGED_KEYS.includes(kv.key) || passiveValuePrivileged(kv.key, value)) {
                kvSet.push(`${kv.key}=${value}`);
            }
        }
        const setHash = approvalSetHash(kvSet);
        const wdHash = sha256Hex(workspace).slice(0, 16);
        // The path uses SANDY_HOME as given, not canonicalised (fixture 26b).
        const appFile = `${sandyHome}/approvals/passive-${wdHash}.list`;
        approvalFilePath = jsonEscape(appFile);
        approvalStatus = isFile(appFile) && headLine(appFile) === setHash ? 'approved' : 'pending';
    }

    let j = `{"schema_version":${SCHEMA_VERSION}`;
    j += `,"path":${jsonEscape(absPath)}`;
    j += `,"source_tier":${jsonEscape(tier)}`;
    j += `,"errors":[${errors.map(jsonEscape).join(',')}]`;
    j += `,"warnings":[${warnings.map(w =>
        `{"key":${jsonEscape(w.key)},"message":${jsonEscape(w.message)},"severity":"warning"}`).join(',')}]`;
    j += `,"unknown_keys":[${unknown.map(jsonEscape).join(',')}]`;
    j += `,"privileged_keys_requiring_approval":[${tier === 'passive' ? privileged.map(jsonEscape).join(',') : ''}]`;
    j += `,"approval_status":${jsonEscape(approvalStatus)}`;
    j += `,"approval_file_path":${approvalFilePath}`;
    j += '}\n';
    return { json: j, rc: fatal };
}

/**
 * set_hash: sha256 of `printf '%s' "$(printf '%s\n' KV... | sort -u)"` — the
 * sorted unique lines joined by \n, no trailing newline (command substitution
 * strips it).
 */
export function approvalSetHash(kvLines: string[]): string {
    return sha256Hex(sortUnique(kvLines).join('\n'));
}

export function approvalFileFor(sandyHome: string, workDir: string): string {
    return `${sandyHome}/approvals/passive-${sha256Hex(workDir).slice(0, 16)}.list`;
}

export interface LoadedConfig {
    /** Effective values of privileged+passive keys (what sandy `export`s). */
    values: Map<string, string>;
    /** KEY=VALUE pairs queued for approval from workspace files, in encounter order. */
    pending: string[];
    /** The workspace file each pending pair came from (parallel to pending). */
    pendingSources: string[];
}

/**
 * `_sandy_snapshot_env_keys` + `_load_sandy_config` for the four files
 * (sandy:5870-5937). Env wins: a key that is non-empty in the environment is
 * skipped in every file, including for the approval set (fixture 38).
 */
export function loadConfig(sandyHome: string, workDir: string, verboseExplicit: boolean): LoadedConfig {
    const env = process.env;
    const envSet = new Set<string>();
    for (const k of [...PRIVILEGED_KEYS, ...PASSIVE_KEYS]) {
        if (k === 'SANDY_VERBOSE') {
            if (verboseExplicit) {
                envSet.add(k);
            }
            continue;
        }
        if (env[k]) {
            envSet.add(k);
        }
    }
    const values = new Map<string, string>();
    for (const k of [...PRIVILEGED_KEYS, ...PASSIVE_KEYS]) {
        if (env[k] !== undefined) {
            values.set(k, env[k] as string);
        }
    }
    const pending: string[] = [];
    const pendingSources: string[] = [];
    const load = (file: string, tier: 'privileged' | 'passive'): void => {
        if (!isFile(file)) {
            return;
        }
        let text: string;
        try {
            text = fs.readFileSync(file).toString('utf8');
        } catch {
            return;
        }
        for (const line of grepConfigLines(text)) {
            const kv = readKeyValue(line);
            if (envSet.has(kv.key)) {
                continue;
            }
            const value = stripQuotes(kv.value.replace(/\r$/, ''));
            if (tier === 'privileged') {
                if (PRIVILEGED_KEYS.includes(kv.key) || PASSIVE_KEYS.includes(kv.key)) {
                    values.set(kv.key, value);
                }
            } else if (passiveValuePrivileged(kv.key, value) || PRIVILEGED_KEYS.includes(kv.key)) {
                pending.push(`${kv.key}=${value}`);
                pendingSources.push(file);
            } else if (PASSIVE_KEYS.includes(kv.key)) {
                values.set(kv.key, value);
            }
        }
    };
    load(`${sandyHome}/config`, 'privileged');
    load(`${sandyHome}/.secrets`, 'privileged');
    load(`${workDir}/.sandy/config`, 'passive');
    load(`${workDir}/.sandy/.secrets`, 'passive');
    return { values, pending, pendingSources };
}

export function workspaceDirOf(file: string): string {
    return path.dirname(path.dirname(file));
}

/** Emit the validate-config JSON and exit with its status (used by main). */
export function runValidateConfig(arg: string | undefined, sandyHome: string): never {
    const r = validateConfig(arg, sandyHome);
    out(r.json);
    exit(r.rc);
}
