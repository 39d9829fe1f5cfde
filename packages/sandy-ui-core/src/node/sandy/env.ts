/**
 * The environment sandy is started with. sandy reads a long list of host variables (CONTRACT §8):
 * every config key can be overridden from the environment ("env beats all config files"), a few
 * internal variables switch sandy into modes meant only for its own children, and
 * `SANDY_AUTO_APPROVE_PRIVILEGED=1` bypasses the approval prompts. An IDE inherits whatever its
 * launcher had, so the environment is built from a whitelist instead of passed through.
 *
 * Pure: the caller hands in `process.env`, nothing here reads it.
 */

/** Variables every sandy run gets when the host has them (CONTRACT §8: HOME, PATH, TMPDIR matter to sandy). */
export const BASE_ENV_NAMES: readonly string[] = ['HOME', 'USER', 'LOGNAME', 'PATH', 'LANG', 'TERM', 'SHELL', 'TMPDIR'];

/**
 * Variables sandy sets for its own children (CONTRACT §8 "internal"). A launcher must never set or leak
 * them: `SANDY_DAEMON_SUPERVISOR=1`, for instance, turns a plain launch into the daemon supervisor's
 * re-exec pass and skips the bare-launch gate.
 */
export const INTERNAL_SANDY_VARS: readonly string[] = [
    'SANDY_DAEMON_SUPERVISOR',
    'SANDY_DAEMON_LOG',
    'SANDY_APPROVE_ONLY',
    'SANDY_UPDATE_RESTART',
    'SANDY_TEST_PANE_TAGS'
];

/** Bypasses sandy's privileged-key AND Dockerfile gates and records nothing (CONTRACT §4.1-4.2): never passed. */
export const AUTO_APPROVE_VAR = 'SANDY_AUTO_APPROVE_PRIVILEGED';

/**
 * Docker client variables. sandy never reads them, but every `docker` call it makes inherits them, so
 * they decide which daemon sandy talks to (CONTRACT §8). Dropping them would make sandy-ui's sandy talk
 * to a different daemon than the user's own terminal.
 */
export const DOCKER_SELECTION_VARS: readonly string[] = ['DOCKER_HOST', 'DOCKER_CONTEXT', 'DOCKER_CONFIG'];

/**
 * SANDY_* names a user may enable: the config keys of `--print-schema` (sandy 1.7.1, fx 01) that carry
 * the SANDY_ prefix, the env-only keys except auto-approve, and the host-side switches of CONTRACT §8.
 * sandy also uses dozens of SANDY_* names as plain globals (SANDY_START, SANDY_WORKSPACE_LOCK,
 * SANDY_SELF…), so "any SANDY_*" would let an inherited value steer it. A host can replace this list
 * with the names from the running sandy's schema (`sandyAllowList`).
 */
export const SANDY_ENV_ALLOW_LIST: readonly string[] = [
    // state root, diagnostics, identity (CONTRACT §8)
    'SANDY_HOME', 'SANDY_VERBOSE', 'SANDY_DEBUG_CLEANUP', 'SANDY_DEBUG_PROXY', 'SANDY_HOST_ID', 'SANDY_SESSION_NONCE', 'SANDY_PROXY_REF',
    // privileged keys
    'SANDY_SSH', 'SANDY_SKIP_PERMISSIONS', 'SANDY_ALLOW_NO_ISOLATION', 'SANDY_ALLOW_LAN_HOSTS', 'SANDY_LOCAL_LLM_HOST', 'SANDY_ALLOW_HOSTS',
    'SANDY_EXTRA_ENV', 'SANDY_AGENT_ARGS', 'SANDY_SCREENSHOT_DIR', 'SANDY_GEMINI_EXTENSIONS',
    // passive keys
    'SANDY_AGENT', 'SANDY_MODEL', 'SANDY_TEAMMATE_MODE', 'SANDY_EFFORT', 'SANDY_CPUS', 'SANDY_MEM', 'SANDY_GPU', 'SANDY_SKILL_PACKS',
    'SANDY_CHANNELS', 'SANDY_CHANNEL_TARGET_PANE', 'SANDY_VENV_OVERLAY', 'SANDY_EGRESS_PROXY', 'SANDY_EGRESS_NO_ISOLATION',
    'SANDY_EGRESS_STRICT', 'SANDY_EGRESS_LOG', 'SANDY_ALLOW_WORKFLOW_EDIT', 'SANDY_GEMINI_AUTH', 'SANDY_CODEX_AUTH', 'SANDY_OPENCODE_AUTH',
    'SANDY_GROK_AUTH', 'SANDY_TOOL_AUDIT', 'SANDY_HANDOFF_DIRS'
];

/**
 * SANDY_* names passed by default. `SANDY_HOME` is sandy's state root (CONTRACT §1.1, §8): without it the
 * IDE would show and lock a different `~/.sandy` than the user's terminal sandy uses.
 */
export const DEFAULT_SANDY_VARS: readonly string[] = ['SANDY_HOME'];

/**
 * Names that change how bash or the dynamic loader behaves before sandy's first line runs
 * (`BASH_ENV` is sourced by every non-interactive bash). Refused even when a user enables them.
 */
const NEVER_PASS = /^(BASH_ENV|ENV|SHELLOPTS|BASHOPTS|IFS|CDPATH|GLOBIGNORE|PS4|PROMPT_COMMAND|NODE_OPTIONS|LD_.*|DYLD_.*|BASH_FUNC_.*)$/;

/** Credential variables sandy's agents probe (schema `agents[].credentials.probe_order`); offered in settings, off by default. */
export const KNOWN_CREDENTIAL_VARS: readonly string[] = [
    'ANTHROPIC_API_KEY',
    'CLAUDE_CODE_OAUTH_TOKEN',
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'GOOGLE_CLOUD_PROJECT',
    'GOOGLE_CLOUD_LOCATION',
    'GOOGLE_GENAI_USE_VERTEXAI',
    'OPENAI_API_KEY',
    'GROQ_API_KEY',
    'XAI_API_KEY',
    'GH_TOKEN',
    'GITHUB_TOKEN',
    'GIT_USER_NAME',
    'GIT_USER_EMAIL'
];

export interface SandyEnvOptions {
    /**
     * SANDY_* variables to take from the host environment. Defaults to {@link DEFAULT_SANDY_VARS}.
     * Only names on the allow list pass; internal variables and {@link AUTO_APPROVE_VAR} never do.
     */
    readonly sandyVars?: readonly string[];
    /** Replaces {@link SANDY_ENV_ALLOW_LIST}, e.g. with the config key names of the running sandy's schema. */
    readonly sandyAllowList?: readonly string[];
    /**
     * Non-SANDY variables the user enabled (credentials, `GIT_USER_*`, non-prefixed config keys such as
     * `TELEGRAM_BOT_TOKEN`). SANDY_* names and shell/loader hooks (`BASH_ENV`, `LD_PRELOAD`…) are refused here.
     */
    readonly credentialVars?: readonly string[];
    /** Pass DOCKER_HOST / DOCKER_CONTEXT / DOCKER_CONFIG through (default true, see {@link DOCKER_SELECTION_VARS}). */
    readonly dockerSelection?: boolean;
    /**
     * The effective sandy config (keys from `~/.sandy/config` and the workspace files). Only `SANDY_SSH`
     * is read: `agent` there makes sandy use `SSH_AUTH_SOCK` unless a passed SANDY_SSH says otherwise.
     */
    readonly effectiveConfig?: Readonly<Record<string, string | undefined>>;
    /**
     * Values set explicitly for this one run (RunOptions.env). They win over the host values. SANDY_*
     * names must still be on the allow list, internal variables and shell/loader hooks are still refused,
     * and {@link AUTO_APPROVE_VAR} never passes (approvals are sandy's: the user answers its prompts).
     */
    readonly extra?: Readonly<Record<string, string | undefined>>;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LOCALE_NAME = /^LC_[A-Z_]+$/;

function isInternal(name: string): boolean {
    return INTERNAL_SANDY_VARS.includes(name);
}

function isSafeOtherName(name: string): boolean {
    return ENV_NAME.test(name) && !name.startsWith('SANDY_') && !NEVER_PASS.test(name);
}

/**
 * Builds the environment for one sandy process from the host environment and the user's choices.
 * Anything not named here is dropped — a canary variable in `processEnv` never reaches sandy.
 */
export function buildSandyEnv(
    processEnv: Readonly<Record<string, string | undefined>>,
    options: SandyEnvOptions = {}
): Record<string, string> {
    const env: Record<string, string> = {};
    const take = (name: string): void => {
        const value = processEnv[name];
        if (typeof value === 'string') {
            env[name] = value;
        }
    };

    BASE_ENV_NAMES.forEach(take);
    Object.keys(processEnv).filter(name => LOCALE_NAME.test(name)).forEach(take);

    const allowList = options.sandyAllowList ?? SANDY_ENV_ALLOW_LIST;
    const sandyNameAllowed = (name: string): boolean => name.startsWith('SANDY_') && allowList.includes(name) && !isInternal(name);
    for (const name of options.sandyVars ?? DEFAULT_SANDY_VARS) {
        if (sandyNameAllowed(name) && name !== AUTO_APPROVE_VAR) {
            take(name);
        }
    }
    for (const name of options.credentialVars ?? []) {
        // SSH_AUTH_SOCK has its own rule below.
        if (isSafeOtherName(name) && name !== 'SSH_AUTH_SOCK') {
            take(name);
        }
    }
    if (options.dockerSelection ?? true) {
        DOCKER_SELECTION_VARS.forEach(take);
    }

    for (const [name, value] of Object.entries(options.extra ?? {})) {
        if (typeof value === 'string' && name !== AUTO_APPROVE_VAR && (sandyNameAllowed(name) || isSafeOtherName(name))) {
            env[name] = value;
        }
    }

    // The agent socket is a credential: sandy uses it only with SANDY_SSH=agent (CONTRACT §8,
    // sandy:9798-9826), so it is handed over only when that is the value sandy will act on — its
    // environment if SANDY_SSH is passed (env beats config files), else the effective config.
    const sshMode = env.SANDY_SSH ?? options.effectiveConfig?.SANDY_SSH;
    if (sshMode === 'agent') {
        if (env.SSH_AUTH_SOCK === undefined) {
            take('SSH_AUTH_SOCK');
        }
    } else {
        delete env.SSH_AUTH_SOCK;
    }
    return env;
}
