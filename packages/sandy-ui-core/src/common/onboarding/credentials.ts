/**
 * Which agents already have credentials on this computer: the recommendation of the onboarding
 * wizard's "Pick agents" step. The decision only; the facts (which variables are set, which files
 * exist) are gathered by `node/onboarding/credential-probe.ts`, which never reads a secret.
 *
 * What each of sandy's probe names (`--print-schema` `agents[].credentials.probe_order`) looks at is
 * taken from sandy itself (rappdw/sandy at c2c58efd, the `sandy` script):
 * - probe_order per agent: sandy:1059-1089.
 * - Variables: sandy exports them from `$SANDY_HOME/config`, then `$SANDY_HOME/.secrets`, each line
 *   skipped when the variable was already set non-empty in its environment (env wins, then .secrets,
 *   then config: sandy:5860-5886, 5888-5927, 5934-5935); every credential variable probed is on the
 *   privileged list those files may set (sandy:34-56).
 * - claude `host_credentials_file`: `~/.claude/.credentials.json`, else on macOS the Keychain item
 *   "Claude Code-credentials" (`load_credentials`, sandy:8545-8551). The token beats the API key
 *   (sandy:9655-9674).
 * - gemini `host_tokens_json`: `~/.gemini/oauth_creds.json`, else the older `~/.gemini/tokens.json` —
 *   the first that is a file is used, even an empty one; `host_adc`:
 *   `~/.config/gcloud/application_default_credentials.json` (`load_gemini_credentials`, sandy:8630-8668).
 * - codex `host_auth_json`: `~/.codex/auth.json` (`load_codex_credentials`, sandy:8696-8725).
 * - opencode `host_auth_json`: `~/.local/share/opencode/auth.json`; `provider_env_keys`: the provider
 *   keys sandy forwards to it, ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY (sandy:9737-9750).
 *   `load_opencode_credentials` (sandy:8733-8755) also accepts GROQ_API_KEY, but sandy neither loads
 *   it from its files nor forwards it into the container, so it is not counted here.
 * - grok `host_grok_session`: a `grok login` session kept in the sandbox's own `~/.grok`; nothing is
 *   taken from this computer (sandy:7340-7345, 9028-9033, 9761-9776), so there is nothing to check.
 *
 * Pure: facts in, decisions and words out.
 */
import type { AgentInfo } from '../sandy/contract';

/** Where a credential was found. */
export type CredentialSource = 'environment' | 'sandy config' | 'sandy secrets' | 'file';

/** What the probe found at one host file (the path as `~/…`); a file that is not there is `absent`. */
export type HostFileState =
    /** A regular, non-empty file the user can read. */
    | 'present'
    | 'absent'
    /** sandy would take it (`[ -f ]`) but it holds nothing. */
    | 'empty'
    /** A folder, FIFO, device… where a file is expected. */
    | 'not a file'
    /** Exists but the user cannot read it (or a folder on its way). */
    | 'unreadable'
    /** The path leads, through a symbolic link, outside the home folder; not followed. */
    | 'outside home';

/** The facts `probeCredentials` gathers. Names and states only: never a value. */
export interface CredentialFacts {
    /** Variables set non-empty in the environment sandy is started with. */
    readonly env: readonly string[];
    /** Variables set non-empty in sandy-ui's own environment that it does not pass to sandy. */
    readonly envNotPassed: readonly string[];
    /** Keys set non-empty in `$SANDY_HOME/config`. */
    readonly sandyConfig: readonly string[];
    /** Keys set non-empty in `$SANDY_HOME/.secrets`. */
    readonly sandySecrets: readonly string[];
    /** Every host file looked at (see {@link credentialFilesToCheck}), keyed by its `~/…` path. */
    readonly files: Readonly<Record<string, HostFileState>>;
    /** How to show `$SANDY_HOME/config` and `.secrets` (`~/.sandy/config`). */
    readonly sandyConfigPath: string;
    readonly sandySecretsPath: string;
    /** `process.platform` of the computer sandy runs on (macOS also keeps Claude Code's login in the Keychain). */
    readonly platform?: string;
    /** Files that could not be read (a refused `.secrets`, say), with why. */
    readonly problems: readonly { readonly path: string; readonly message: string }[];
}

/** One credential found for an agent. */
export interface CredentialFinding {
    /** The probe name from sandy's schema. */
    readonly probe: string;
    readonly where: CredentialSource;
    /** The variable found (for `provider_env_keys`, which one). */
    readonly variable?: string;
    /** The file (`~/…`) it was found in: the host file, or sandy's config/.secrets. */
    readonly path?: string;
}

/** A probe that was not looked at, and why. */
export interface UncheckedProbe {
    readonly probe: string;
    readonly reason: string;
}

/** The recommendation for one agent. */
export interface AgentCredentials {
    readonly agent: string;
    /** In sandy's probe order; for one variable in the order sandy prefers: environment, secrets, config. */
    readonly found: readonly CredentialFinding[];
    /** Pre-select this agent: a credential of its own was found. */
    readonly recommended: boolean;
    /** What was found (or not), in one or a few sentences. */
    readonly explanation: string;
    /** What the user can do; '' when nothing is needed. */
    readonly fix: string;
    /** Probes this sandy-ui did not (or cannot) check. */
    readonly notChecked: readonly UncheckedProbe[];
}

/** The agent fields this module reads; an {@link AgentInfo} fits. */
export type AgentCredentialInfo = Pick<AgentInfo, 'name' | 'credentials'>;

/** Provider keys sandy forwards to opencode (sandy:9737-9750): `provider_env_keys`. */
export const OPENCODE_PROVIDER_KEYS: readonly string[] = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY'];

/** The probe order of sandy 1.7.1 (sandy:1059-1089), used only when a schema's agent has none. */
const DEFAULT_PROBE_ORDER: Readonly<Record<string, readonly string[]>> = {
    claude: ['CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_API_KEY', 'host_credentials_file'],
    gemini: ['GEMINI_API_KEY', 'host_tokens_json', 'host_adc'],
    codex: ['OPENAI_API_KEY', 'host_auth_json'],
    opencode: ['provider_env_keys', 'host_auth_json'],
    grok: ['XAI_API_KEY', 'host_grok_session']
};

/** The host files each agent's file probes mean, in the order sandy tries them (sandy:8545-8755). */
const HOST_FILES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
    claude: { host_credentials_file: ['~/.claude/.credentials.json'] },
    gemini: {
        host_tokens_json: ['~/.gemini/oauth_creds.json', '~/.gemini/tokens.json'],
        host_adc: ['~/.config/gcloud/application_default_credentials.json']
    },
    codex: { host_auth_json: ['~/.codex/auth.json'] },
    opencode: { host_auth_json: ['~/.local/share/opencode/auth.json'] }
};

/** A probe name that is an environment variable (sandy's schema spells those in capitals). */
const VARIABLE_PROBE = /^[A-Z][A-Z0-9_]*$/;

const AGENT_DISPLAY_NAMES: Readonly<Record<string, string>> = {
    claude: 'Claude Code', gemini: 'Gemini CLI', codex: 'Codex', opencode: 'OpenCode', grok: 'Grok Build'
};

/** One or two sentences per agent sandy 1.x offers, for the "Pick agents" step. */
export const AGENT_DESCRIPTIONS: Readonly<Record<string, string>> = {
    claude: 'Anthropic\'s Claude Code, a coding agent for the terminal. It signs in with a Claude subscription or an Anthropic API key.',
    codex: 'OpenAI\'s Codex CLI. It signs in with a ChatGPT account or an OpenAI API key.',
    gemini: 'Google\'s Gemini CLI. It signs in with a Google account, a Gemini API key, or Google Cloud (Vertex AI) credentials.',
    opencode: 'OpenCode, an open-source coding agent that works with many model providers (Anthropic, OpenAI, Google, or a local model). '
        + 'It uses its own login or a provider\'s API key.',
    grok: 'xAI\'s Grok Build, a coding agent for the Grok models. It signs in with an xAI API key, or with `grok login` inside the session.'
};

function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
    return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** What the agent's name stands for: `Claude Code`, or the name itself for an agent this sandy-ui does not know. */
export function agentDisplayName(agent: string): string {
    return own(AGENT_DISPLAY_NAMES, agent) ?? agent;
}

/** The agent's description; an agent of a newer sandy gets a generic line. */
export function agentDescription(agent: string): string {
    return own(AGENT_DESCRIPTIONS, agent)
        ?? `${agent}: an agent this version of sandy offers. sandy-ui does not know more about it yet; sandy's documentation says how it signs in.`;
}

/** The words for one probe of one agent (`host_auth_json` is a different file for codex and opencode). */
export function probeLabel(agent: string, probe: string, platform?: string): string {
    switch (`${agent}/${probe}`) {
        case 'claude/CLAUDE_CODE_OAUTH_TOKEN': return 'Claude Code long-lived token (CLAUDE_CODE_OAUTH_TOKEN, from `claude setup-token`)';
        case 'claude/ANTHROPIC_API_KEY': return 'Anthropic API key (ANTHROPIC_API_KEY)';
        case 'claude/host_credentials_file': return platform === 'darwin'
            ? 'Claude Code login (~/.claude/.credentials.json or the macOS Keychain)'
            : 'Claude Code login (~/.claude/.credentials.json)';
        case 'gemini/GEMINI_API_KEY': return 'Gemini API key (GEMINI_API_KEY)';
        case 'gemini/host_tokens_json': return 'Gemini CLI login (~/.gemini/oauth_creds.json, or tokens.json of older Gemini CLIs)';
        case 'gemini/host_adc': return 'Google Application Default Credentials (~/.config/gcloud/application_default_credentials.json)';
        case 'codex/OPENAI_API_KEY': return 'OpenAI API key (OPENAI_API_KEY)';
        case 'codex/host_auth_json': return 'Codex login (~/.codex/auth.json)';
        case 'opencode/provider_env_keys': return `a provider API key OpenCode can use (${OPENCODE_PROVIDER_KEYS.join(', ')})`;
        case 'opencode/host_auth_json': return 'OpenCode login (~/.local/share/opencode/auth.json)';
        case 'grok/XAI_API_KEY': return 'xAI API key (XAI_API_KEY)';
        case 'grok/host_grok_session': return 'a `grok login` session (kept inside each project\'s sandbox, not taken from this computer)';
    }
    return VARIABLE_PROBE.test(probe) ? `the variable ${probe}` : `"${probe}" (a check this sandy-ui does not know)`;
}

function probeOrderOf(agent: AgentCredentialInfo): readonly string[] {
    return agent.credentials?.probe_order ?? own(DEFAULT_PROBE_ORDER, agent.name) ?? [];
}

/** The variables one probe stands for, or undefined when it is not about variables. */
function variablesOf(agent: string, probe: string): readonly string[] | undefined {
    if (agent === 'opencode' && probe === 'provider_env_keys') {
        return OPENCODE_PROVIDER_KEYS;
    }
    return VARIABLE_PROBE.test(probe) ? [probe] : undefined;
}

function hostFilesOf(agent: string, probe: string): readonly string[] | undefined {
    const files = own(HOST_FILES, agent);
    return files ? own(files, probe) : undefined;
}

/** Every variable the agents' probes look for (in the environment, sandy's config and .secrets). */
export function credentialVariablesToCheck(agents: readonly AgentCredentialInfo[]): string[] {
    const names = new Set<string>();
    for (const agent of agents) {
        for (const probe of probeOrderOf(agent)) {
            variablesOf(agent.name, probe)?.forEach(n => names.add(n));
        }
    }
    return [...names];
}

/** Every host file (`~/…`) the agents' probes look at. */
export function credentialFilesToCheck(agents: readonly AgentCredentialInfo[]): string[] {
    const files = new Set<string>();
    for (const agent of agents) {
        for (const probe of probeOrderOf(agent)) {
            hostFilesOf(agent.name, probe)?.forEach(f => files.add(f));
        }
    }
    return [...files];
}

function joinWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
    return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

function sentence(text: string): string {
    return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** What a file that is there but not usable means, or undefined for present/absent. */
function fileNote(file: string, state: HostFileState): string | undefined {
    switch (state) {
        case 'empty': return `${file} is empty`;
        case 'not a file': return `${file} is not a regular file`;
        case 'unreadable': return `${file} cannot be read by your user (check its permissions)`;
        case 'outside home': return `${file} leads through a symbolic link outside your home folder, which sandy-ui does not follow `
            + '(sandy does, so if it holds your login the agent will still find it)';
        default: return undefined;
    }
}

/** sandy's own order for one variable: the environment beats .secrets, which beats config (sandy:5860-5935). */
function findVariable(probe: string, variable: string, facts: CredentialFacts): CredentialFinding[] {
    const found: CredentialFinding[] = [];
    if (facts.env.includes(variable)) {
        found.push({ probe, where: 'environment', variable });
    }
    if (facts.sandySecrets.includes(variable)) {
        found.push({ probe, where: 'sandy secrets', variable, path: facts.sandySecretsPath });
    }
    if (facts.sandyConfig.includes(variable)) {
        found.push({ probe, where: 'sandy config', variable, path: facts.sandyConfigPath });
    }
    return found;
}

/** What a host file found is, by agent and probe (the file itself is shown beside it). */
const FILE_NAMES: Readonly<Record<string, string>> = {
    'claude/host_credentials_file': 'Claude Code login',
    'gemini/host_tokens_json': 'Gemini CLI login',
    'gemini/host_adc': 'Google Application Default Credentials',
    'codex/host_auth_json': 'Codex login',
    'opencode/host_auth_json': 'OpenCode login'
};

/**
 * One finding in words: "Anthropic API key (ANTHROPIC_API_KEY) in ~/.sandy/.secrets", "OPENAI_API_KEY in
 * the environment" (opencode's provider keys), "Gemini CLI login (~/.gemini/tokens.json)".
 */
export function credentialFindingText(agent: string, finding: CredentialFinding): string {
    if (finding.where === 'file') {
        return `${own(FILE_NAMES, `${agent}/${finding.probe}`) ?? probeLabel(agent, finding.probe)} (${finding.path})`;
    }
    const what = finding.probe === 'provider_env_keys' ? `${finding.variable}` : probeLabel(agent, finding.probe);
    return finding.where === 'environment' ? `${what} in the environment` : `${what} in ${finding.path}`;
}

const FIXES: Readonly<Record<string, (secrets: string) => string>> = {
    claude: secrets => 'Log in to Claude Code on this computer (run `claude`), or run `claude setup-token` and put the token in '
        + `${secrets} as CLAUDE_CODE_OAUTH_TOKEN, or put an Anthropic API key there as ANTHROPIC_API_KEY. You can also log in with /login inside the session.`,
    gemini: secrets => `Put a Gemini API key in ${secrets} as GEMINI_API_KEY, or log in to Gemini CLI on this computer (run \`gemini\` and choose `
        + 'Login with Google), or run `gcloud auth application-default login`.',
    codex: secrets => `Run \`codex login\` on this computer, or put an OpenAI API key in ${secrets} as OPENAI_API_KEY.`,
    opencode: secrets => `Run \`opencode auth login\` on this computer, or put a provider's API key (${joinWords(OPENCODE_PROVIDER_KEYS, 'or')}) in ${secrets} `
        + 'and choose that provider\'s model with OPENCODE_MODEL.',
    grok: secrets => `Put an xAI API key in ${secrets} as XAI_API_KEY, or run \`grok login\` inside the session (the login is kept in that project's sandbox).`
};

function genericFix(agent: string, variables: readonly string[], secrets: string): string {
    return variables.length
        ? `Put ${joinWords(variables)} in ${secrets}, or see sandy's documentation for how ${agent} signs in.`
        : `See sandy's documentation for how ${agent} signs in.`;
}

/** Decides one agent. */
export function decideAgentCredentials(agent: AgentCredentialInfo, facts: CredentialFacts): AgentCredentials {
    const name = agent.name;
    const display = agentDisplayName(name);
    const found: CredentialFinding[] = [];
    const notChecked: UncheckedProbe[] = [];
    const notes: string[] = [];
    const heldBack: string[] = [];
    const ownVariables: string[] = [];
    const unknownProbes: string[] = [];
    let readsVariables = false;
    for (const probe of probeOrderOf(agent)) {
        const variables = variablesOf(name, probe);
        if (variables) {
            readsVariables = true;
            if (probe !== 'provider_env_keys') {
                ownVariables.push(...variables);
            }
            for (const variable of variables) {
                const hits = findVariable(probe, variable, facts);
                found.push(...hits);
                if (!hits.length && facts.envNotPassed.includes(variable) && !heldBack.includes(variable)) {
                    heldBack.push(variable);
                }
            }
            continue;
        }
        const files = hostFilesOf(name, probe);
        if (files) {
            // Like sandy's `[ -f ]` chain: the first candidate that is there is the one used, usable or not.
            const used = files.find(f => (facts.files[f] ?? 'absent') !== 'absent' && facts.files[f] !== 'not a file');
            const state = used ? facts.files[used] : undefined;
            if (used && state === 'present') {
                found.push({ probe, where: 'file', path: used });
            } else {
                for (const file of files) {
                    const note = fileNote(file, facts.files[file] ?? 'absent');
                    if (note) {
                        notes.push(note);
                    }
                }
                if (name === 'claude' && probe === 'host_credentials_file' && facts.platform === 'darwin') {
                    notChecked.push({
                        probe, reason: 'On macOS Claude Code keeps its login in the Keychain ("Claude Code-credentials"); sandy reads it from there, '
                            + 'sandy-ui does not look. If you have logged in to Claude Code on this Mac, sandy will find it.'
                    });
                }
            }
            continue;
        }
        if (name === 'grok' && probe === 'host_grok_session') {
            notChecked.push({ probe, reason: 'sandy takes no grok login from this computer: a `grok login` inside the session is kept in that project\'s sandbox.' });
            continue;
        }
        unknownProbes.push(probe);
        notChecked.push({ probe, reason: `${probeLabel(name, probe)}: this sandy-ui does not know what sandy checks for it (a newer sandy?).` });
    }

    // opencode's provider keys are the other agents' keys too: they make it usable, not a recommendation of its own.
    const recommended = found.some(f => f.probe !== 'provider_env_keys');
    const secrets = facts.sandySecretsPath;
    const parts: string[] = [];
    const fixes: string[] = [];
    if (found.length) {
        parts.push(sentence(`Found for ${display}: ${found.map(f => credentialFindingText(name, f)).join('; ')}`));
        if (recommended && found.length > 1) {
            // The environment beats .secrets beats config for one variable; across probes, sandy's order.
            parts.push('sandy prefers the first of these.');
        }
        if (!recommended) {
            const keys = found.length > 1 ? 'these keys' : 'that key';
            parts.push(`${display} can use ${keys}, but so can another agent, so it is not picked for that alone; it also needs that provider's model chosen `
                + '(OPENCODE_MODEL).');
        }
    } else {
        parts.push(`No credentials for ${display} were found on this computer.`);
    }
    for (const note of notes) {
        parts.push(sentence(note.charAt(0).toUpperCase() + note.slice(1)));
    }
    if (readsVariables) {
        for (const problem of facts.problems) {
            parts.push(sentence(`${problem.path} was not read: ${problem.message}`));
        }
    }
    // A probe this sandy-ui does not know is always said; what cannot be looked at (the Keychain, a grok
    // login) only matters while nothing else was found.
    for (const unchecked of notChecked) {
        if (!recommended || unknownProbes.includes(unchecked.probe)) {
            parts.push(sentence(unchecked.reason));
        }
    }
    if (heldBack.length) {
        fixes.push(`${joinWords(heldBack)} ${heldBack.length > 1 ? 'are' : 'is'} set in sandy-ui's environment but not passed to sandy: `
            + `add ${heldBack.length > 1 ? 'them' : 'it'} to the sandy.passEnvironment setting, or put ${heldBack.length > 1 ? 'them' : 'it'} in ${secrets}.`);
    }
    if (!recommended) {
        fixes.push(own(FIXES, name)?.(secrets) ?? genericFix(name, ownVariables, secrets));
    } else {
        const onlyInConfig = [...new Set(found.filter(f => f.where === 'sandy config').map(f => f.variable!))]
            .filter(v => !found.some(f => f.variable === v && f.where !== 'sandy config'));
        if (onlyInConfig.length) {
            fixes.push(`Consider moving ${joinWords(onlyInConfig)} from ${facts.sandyConfigPath} to ${secrets}, the file kept private for keys.`);
        }
    }
    return { agent: name, found, recommended, explanation: parts.join(' '), fix: fixes.join(' '), notChecked };
}

/**
 * Decides every agent of the schema: recommended agents first, otherwise in the schema's order (sandy
 * lists claude first).
 */
export function decideCredentials(agents: readonly AgentCredentialInfo[], facts: CredentialFacts): AgentCredentials[] {
    const decided = agents.map(agent => decideAgentCredentials(agent, facts));
    return [...decided.filter(d => d.recommended), ...decided.filter(d => !d.recommended)];
}
