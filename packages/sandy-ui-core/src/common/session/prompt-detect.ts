/**
 * Is an agent's visible screen the agent waiting for the user — a choice, a confirmation, a
 * credential — rather than working, idle at its own input box, or gone?
 *
 * The patterns come from the screens of the real CLIs recorded in `test/fixtures/agent-screens`
 * (README there: versions, what was typed, which screens wait; the permission prompts were drawn for a
 * tool call from a local stand-in API server). Nothing here is from documentation.
 *
 * A prompt is recognised by an *anchor* (its question or title line) among the last few non-blank
 * lines of the screen, with the lines that make it a dialog (its options, its footer) between the
 * anchor and the bottom, and nothing below the anchor that says the agent is busy ("esc to
 * interrupt", "restarting"…). So a question that merely appears in the agent's output is not a
 * prompt: on its own it has no options and footer under it, and it is not at the bottom.
 * What this cannot tell: output that reproduces a whole dialog (question, options and footer) at the
 * bottom of the screen — `cat` of one of the fixtures, say — looks exactly like the dialog; and a
 * dialog that has been answered but is still drawn, with no busy line under it yet, still counts.
 *
 * Untrusted input: only the last `PROMPT_MAX_LINES` lines are read, each cut to `PROMPT_MAX_LINE` characters, and
 * every pattern is a single pass without nested quantifiers, so the work is bounded whatever the
 * screen holds.
 */

export interface DetectedPrompt {
    /** The agent whose prompt it is (`claude`, `codex`, `gemini`, `opencode`). */
    agent: string;
    /** `trust` (trust this folder?), `permission` (may the agent run/write this?), `confirm` (another
     * yes/no), `login` (how to sign in), `credential` (paste a key or a code). */
    kind: PromptKind;
    /** The question or title as shown (frames stripped, at most 200 characters). */
    text: string;
}

export type PromptKind = 'trust' | 'permission' | 'confirm' | 'login' | 'credential';

/** Lines read from the bottom of the screen. */
export const PROMPT_MAX_LINES = 40;
/** Characters read of each line. */
export const PROMPT_MAX_LINE = 500;
/** The anchor must be among this many non-blank lines from the bottom. */
const ANCHOR_WINDOW = 16;
const MAX_TEXT = 200;

interface PromptRule {
    kind: PromptKind;
    /** Its first group, if it has one, is the text reported; else the whole line. */
    anchor: RegExp;
    /** Each must match some line from the anchor down (the anchor line included). */
    below?: readonly RegExp[];
    /** The anchor must be among the last `near` non-blank lines (default `ANCHOR_WINDOW`). */
    near?: number;
}

interface AgentRules {
    agent: string;
    /** A line from the anchor down that means the agent is working, not waiting. */
    busy: RegExp;
    rules: readonly PromptRule[];
}

const AGENTS: readonly AgentRules[] = [
    {
        agent: 'claude',
        busy: /esc to interrupt/i,
        rules: [
            // claude/trust-folder
            { kind: 'trust', anchor: /^Quick safety check: (Is this a project you created or one you trust\?)/, below: [/^(?:❯\s*)?1\. Yes, I trust this folder$/, /^Enter to confirm/] },
            // claude/api-key-confirm
            { kind: 'confirm', anchor: /^Do you want to use this API key\?$/, below: [/^(?:❯\s*)?1\. Yes$/, /Esc to cancel/] },
            // claude/permission-bash ("Do you want to proceed?"), claude/permission-write ("Do you want to create hello.txt?")
            { kind: 'permission', anchor: /^Do you want to \S.*\?$/, below: [/^(?:❯\s*)?1\. Yes$/, /^Esc to cancel/] },
            // claude/login-method
            { kind: 'login', anchor: /^Select login method:$/, below: [/^(?:❯\s*)?1\. /, /^Esc to cancel$/] },
            // claude/login-paste-code
            { kind: 'credential', anchor: /^Paste code here if prompted >/, below: [/^Esc to cancel$/] }
        ]
    },
    {
        agent: 'codex',
        busy: /esc to interrupt|Waiting for startup/i,
        rules: [
            // codex/permission-exec
            { kind: 'permission', anchor: /^(Would you like to run the following command\?)$/, below: [/^(?:›\s*)?1\. Yes, proceed\b/, /^Press enter to confirm or esc to cancel$/] },
            // codex/trust-folder
            { kind: 'trust', anchor: /^(Trust this folder\?)/, below: [/^(?:›\s*)?1\. Trust and continue$/, /^enter continue/] },
            // codex/signin-method, codex/signin-device-code-failed
            { kind: 'login', anchor: /^Choose how you want to use Codex\.$/, below: [/^(?:>\s*)?1\. Sign in with ChatGPT$/, /^Press enter to continue$/] },
            // codex/signin-other-way
            { kind: 'login', anchor: /^Sign in another way$/, below: [/^(?:>\s*)?1\. Use an OpenAI API key$/, /^Press enter to continue$/] },
            // codex/signin-browser
            { kind: 'login', anchor: /^Finish signing in via your browser$/, below: [/^Press esc to cancel$/] },
            // codex/api-key, codex/api-key-empty
            { kind: 'credential', anchor: /^Paste or type your API key below\.$/, below: [/^Press enter to save$/] }
        ]
    },
    {
        agent: 'gemini',
        busy: /restarting|esc to cancel, \d/i,
        rules: [
            // gemini/permission-shell
            { kind: 'permission', anchor: /^Allow execution of \[[^\]]{1,100}\]\?$/, below: [/^(?:●\s*)?1\. Allow once$/, /\bNo, suggest changes\b/] },
            // gemini/trust-folder
            { kind: 'trust', anchor: /^Do you trust the files in this folder\?$/, below: [/^(?:●\s*)?1\. Trust folder\b/, /^(?:●\s*)?3\. Don't trust$/] },
            // gemini/auth-method, gemini/api-key-empty
            { kind: 'login', anchor: /^\? Get started$/, below: [/^How would you like to authenticate/, /^\(Use Enter to select\)$/] },
            // gemini/api-key
            { kind: 'credential', anchor: /^Enter Gemini API Key$/, below: [/^\(Press Enter to submit/] },
            // gemini/login-google-code: the question is the last line, the cursor after it
            { kind: 'credential', anchor: /^Enter the authorization code:$/, near: 1 }
        ]
    },
    {
        agent: 'opencode',
        busy: /esc interrupt/i,
        rules: [
            // opencode/permission-bash: "△ Permission required", the choices on one line
            { kind: 'permission', anchor: /^(?:△\s*)?(Permission required)$/, below: [/^Allow once\s{1,8}Allow always\s{1,8}Reject\b/, /\benter confirm$/] },
            // opencode/connect-provider: a dialog over the home screen, its title with "esc" at the right
            { kind: 'login', anchor: /^(Connect a provider) {2,}esc$/, below: [/^Search$/] },
            // opencode/api-key
            { kind: 'credential', anchor: /^(API key) {2,}esc$/, below: [/^enter submit\b/] }
        ]
    }
];

/**
 * Frames, block art and padding are not text: box drawing (U+2500–U+257F), block elements
 * (U+2580–U+259F) and the light dashes claude draws around a diff go, runs of spaces inside stay
 * (opencode's dialog titles are told by them), the ends are trimmed.
 */
function contentOf(line: string): string {
    const cut = line.length > PROMPT_MAX_LINE ? line.slice(0, PROMPT_MAX_LINE) : line;
    return cut.replace(/[\u2500-\u259f]/g, ' ').trim();
}

/**
 * The prompt the screen shows, if any. `lines` is the visible screen, top to bottom (only its last
 * `PROMPT_MAX_LINES` are read). `agent` picks that agent's patterns; absent or not one of the four, all are
 * tried in turn and the first match wins.
 */
export function detectPrompt(lines: readonly string[], agent?: string): DetectedPrompt | undefined {
    const start = Math.max(0, lines.length - PROMPT_MAX_LINES);
    // Non-blank content lines, bottom last.
    const content: string[] = [];
    for (let i = start; i < lines.length; i++) {
        const raw = lines[i];
        const c = typeof raw === 'string' ? contentOf(raw) : '';
        if (c !== '') {
            content.push(c);
        }
    }
    const name = agent?.trim().toLowerCase();
    const chosen = AGENTS.filter(a => a.agent === name);
    for (const a of chosen.length > 0 ? chosen : AGENTS) {
        const found = matchAgent(a, content);
        if (found) {
            return found;
        }
    }
    return undefined;
}

function matchAgent(a: AgentRules, content: readonly string[]): DetectedPrompt | undefined {
    for (const rule of a.rules) {
        const window = rule.near ?? ANCHOR_WINDOW;
        // The lowest anchor inside the window: the dialog nearest the bottom.
        for (let i = content.length - 1; i >= Math.max(0, content.length - window); i--) {
            const m = rule.anchor.exec(content[i]);
            if (!m) {
                continue;
            }
            const rest = content.slice(i);
            if (rest.some(l => a.busy.test(l))) {
                break;
            }
            if ((rule.below ?? []).every(re => rest.some(l => re.test(l)))) {
                const text = (m[1] ?? content[i]).replace(/\s{2,}/g, ' ');
                return { agent: a.agent, kind: rule.kind, text: text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text };
            }
            break;
        }
    }
    return undefined;
}
