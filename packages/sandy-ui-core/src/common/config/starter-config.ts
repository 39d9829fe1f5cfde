/**
 * The workspace `.sandy/` creator's decisions: what a starter `.sandy/config` says, and what copying
 * another project's `.sandy/` would copy, hold back and leave alone.
 *
 * A starter changes nothing: every line is a comment (sandy's loader reads only `^[A-Z_]+=.+`,
 * CONTRACT §3.2), and uncommenting one of its settings never needs an approval (no privileged key,
 * no weakening value).
 *
 * A copy takes another workspace's files as untrusted text: lines are kept byte for byte (never
 * re-parsed into values and written back), lines holding control characters are dropped (a CR, an
 * ESC or a bidi override can make a line show differently from what sandy reads), sizes are capped,
 * and whatever a new project would have to trust — secrets, privileged keys, values that weaken
 * isolation, the `.sandy/Dockerfile` — is listed for the user to decide, never copied by default.
 *
 * Pure and browser-safe: strings in, strings out.
 */
import { isSecretKey } from '../sandy/contract';
import { keyLifecycle } from '../sandy/contract';
import type { ConfigKey, SandySchema } from '../sandy/contract';
import { boolSpelling, formatValue, isLoaderKey, readLoaderLine } from './config-file';
import { isWeakeningValue, KNOWN_SECRET_KEYS } from './preflight';

/**
 * Characters that could end a line or make it show differently from what sandy reads: C0 but tab,
 * DEL, C1, the Unicode line separators, and the bidi controls of "Trojan Source" (CVE-2021-42574).
 */
const UNSAFE_CHARS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const UNSAFE_CHARS_GLOBAL = new RegExp(UNSAFE_CHARS.source, 'g');

/** A word that would make a comment line read like a setting (`# summary=…`). */
const ASSIGNMENT = /^["']?[A-Za-z_][A-Za-z0-9_]*["']?=/;

// ---- the starter ----------------------------------------------------------------------------

/** Columns a starter line stays within (a word longer than that gets a line of its own). */
export const STARTER_WIDTH = 78;

/** The settings a starter shows, in this order, when the schema has them. */
export const STARTER_KEYS: readonly string[] = [
    'SANDY_AGENT', 'SANDY_MODEL', 'SANDY_EFFORT', 'SANDY_SKILL_PACKS', 'SANDY_CPUS', 'SANDY_MEM', 'SANDY_EGRESS_STRICT', 'SANDY_EGRESS_LOG'
];

/** Privileged keys the header names as examples, when the schema has them. */
const PRIVILEGED_EXAMPLES = ['SANDY_ALLOW_HOSTS', 'SANDY_EXTRA_ENV', 'SANDY_AGENT_ARGS'];

/** Retired (deprecated or removed: keyLifecycle) or not `stable`: a starter does not suggest it. */
export function isDeprecatedKey(key: Pick<ConfigKey, 'description' | 'stability'>): boolean {
    return keyLifecycle(key) !== undefined || (key.stability ?? 'stable') !== 'stable';
}

/**
 * The passive keys a project's `.sandy/config` may set without an approval: `sources` includes
 * `workspace_config`, stable, not deprecated, not a secret, not also privileged, and spelled so
 * sandy's loader reads it. Schema order.
 */
export function workspaceSettableKeys(schema: SandySchema): ConfigKey[] {
    const privileged = new Set(schema.config.privileged_keys.map(k => k.name));
    return schema.config.passive_keys.filter(k =>
        (k.sources ?? []).includes('workspace_config')
        && !privileged.has(k.name)
        && !isSecretKey(k)
        && isLoaderKey(k.name)
        && !isDeprecatedKey(k));
}

/**
 * A commented `.sandy/config` for a project that has none: a header saying what the file is, how
 * sandy reads it and that privileged keys in it need approval, then a few useful settings
 * ({@link STARTER_KEYS}) as `# KEY=default` under their description, then the names of the other
 * settings a project may set. Every line is a comment or blank, so sandy reads nothing from it.
 */
export function starterConfigText(schema: SandySchema): string {
    const settable = workspaceSettableKeys(schema);
    const byName = new Map(settable.map(k => [k.name, k]));
    const privilegedNames = new Set(schema.config.privileged_keys.map(k => k.name));
    const examples = PRIVILEGED_EXAMPLES.filter(k => privilegedNames.has(k));
    const version = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,39}$/.test(schema.sandy.version) ? schema.sandy.version : undefined;

    const out: string[] = [];
    out.push(...comment('.sandy/config: sandy\'s settings for this project. sandy reads it at every launch in this folder; '
        + 'its values override ~/.sandy/config, and environment variables override both.'));
    out.push(...comment('One KEY=value per line: no spaces around "=", no "export", and no comment after a value '
        + '(sandy would keep the comment as part of the value).'));
    out.push(...comment(`Privileged keys (API keys${examples.length ? `, ${examples.join(', ')}` : ''} and the others sandy lists `
        + 'as privileged) set in this file need your approval: sandy asks before the first launch that uses them, and again '
        + 'whenever they change. Keep secrets in .sandy/.secrets and never commit that file.'));
    out.push(...comment('Every setting below is commented out, so this file changes nothing yet: remove the "# " in front of '
        + `a setting to use it.${version ? ` (Written from the settings of sandy ${version}.)` : ''}`));

    const shown: string[] = [];
    for (const name of STARTER_KEYS) {
        const key = byName.get(name);
        if (!key) {
            continue;
        }
        const block = starterBlock(key, schema);
        if (block) {
            out.push('', ...block);
            shown.push(name);
        }
    }
    const others = settable.map(k => k.name).filter(n => !shown.includes(n));
    if (others.length) {
        out.push('', ...comment(`Other settings a project may set: ${others.join(', ')}. The Sandy settings editor describes each.`));
    }
    return out.join('\n') + '\n';
}

/** One setting of the starter: its description, then `# KEY=value`; undefined if it cannot be shown safely. */
function starterBlock(key: ConfigKey, schema: SandySchema): string[] | undefined {
    const notes: string[] = [];
    if (key.description) {
        notes.push(key.description);
    }
    if (key.choices?.length) {
        notes.push(`One of: ${key.choices.map(c => plainName(c)).join(', ')}.`);
    }
    if (key.name === 'SANDY_AGENT') {
        const agents = schema.agents.map(a => plainName(a.name)).filter(Boolean);
        if (agents.length) {
            notes.push(`Agents this sandy knows: ${agents.join(', ')}.`);
        }
    }
    if (key.name === 'SANDY_SKILL_PACKS') {
        const packs = schema.skill_packs.map(p => plainName(p.name)).filter(Boolean);
        if (packs.length) {
            notes.push(`Packs this sandy knows: ${packs.join(', ')}.`);
        }
    }
    let value = key.default ?? '';
    if (value && isWeakeningValue(key.name, value)) {
        // Uncommenting the default itself would ask for an approval (SANDY_EGRESS_STRICT=0 from a project
        // file downgrades a host's strict mode): suggest the value that is safe to set here instead.
        const other = key.type === 'bool' ? boolSpelling(key).find(v => v !== value) : undefined;
        if (!other || isWeakeningValue(key.name, other)) {
            return undefined;
        }
        notes.push(`(Shown as ${other}: setting ${value} in a project file needs sandy's approval.)`);
        value = other;
    }
    let text = '';
    if (value) {
        const formatted = formatValue(value);
        if (!formatted.ok) {
            return undefined;
        }
        text = formatted.text;
    }
    if (UNSAFE_CHARS.test(text)) {
        return undefined;
    }
    return [...comment(notes.join(' ')), `# ${key.name}=${text}`];
}

/** A name from the schema fit to print inside a comment, or '' when it is not a plain word. */
function plainName(name: string): string {
    return /^[A-Za-z0-9][A-Za-z0-9._/:-]{0,63}$/.test(name) ? name : '';
}

/** Text as `# ` lines wrapped at {@link STARTER_WIDTH}: one paragraph, no character that could break out of the comment. */
function comment(text: string): string[] {
    let clean = text.replace(UNSAFE_CHARS_GLOBAL, ' ').replace(/\s+/g, ' ').trim();
    if (clean.length > 1000) {
        clean = `${clean.slice(0, 999)}…`;
    }
    if (ASSIGNMENT.test(clean)) {
        // Not even the first line may read like a setting.
        clean = `Note: ${clean}`;
    }
    return wrap(clean, STARTER_WIDTH - 2).map(line => `# ${line}`);
}

/**
 * Greedy word wrap. A line never starts with a word that looks like `KEY=…` (the word before it moves
 * down with it), so the only `# KEY=` lines of a starter are its settings.
 */
function wrap(text: string, width: number): string[] {
    const out: string[] = [];
    let line = '';
    for (const word of text.split(' ').filter(Boolean)) {
        if (!line) {
            line = word;
        } else if (line.length + 1 + word.length <= width) {
            line += ` ${word}`;
        } else {
            const cut = line.lastIndexOf(' ');
            if (ASSIGNMENT.test(word) && cut > 0) {
                out.push(line.slice(0, cut));
                line = `${line.slice(cut + 1)} ${word}`;
            } else {
                out.push(line);
                line = word;
            }
        }
    }
    if (line) {
        out.push(line);
    }
    return out;
}

// ---- copying another project's .sandy/ ------------------------------------------------------

/** The largest file (in UTF-16 units) a copy takes lines from; a real config is a few hundred bytes. */
export const COPY_MAX_FILE_CHARS = 64 * 1024;

/** The longest line a copy keeps. */
export const COPY_MAX_LINE_CHARS = 4096;

/** What is known of the source project's `.sandy/` (what `readSandyFolder` returns). */
export interface CopySource {
    /** Text of its `.sandy/config`; undefined when it has none (or it could not be read). */
    readonly config?: string;
    /** Text of its `.sandy/.secrets`: only when it was read on purpose. */
    readonly secrets?: string;
    /** It has a `.sandy/.secrets`, read or not. */
    readonly secretsExists?: boolean;
    /** It has a `.sandy/Dockerfile`. */
    readonly dockerfile?: boolean;
    /** Other entries of its `.sandy/` (the Dockerfile's build context), by name. */
    readonly otherFiles?: readonly string[];
    /** Files of its `.sandy/` that were refused or could not be read, and why. */
    readonly unreadable?: readonly { readonly name: string; readonly why: string }[];
}

export interface CopyOptions {
    /** Copy the source's `.sandy/.secrets` (its text must have been read). Off unless passed. */
    readonly includeSecrets?: boolean;
    /** Held-back keys the user chose to copy after all (the answers to `heldBack`). */
    readonly includeKeys?: readonly string[];
}

/** Why a key was held back. */
export type HeldBackReason = 'secret' | 'privileged' | 'weakening' | 'maybe-secret';

export interface CopyPlanFile {
    readonly name: 'config' | '.secrets';
    /** The lines copied, verbatim (with their own line endings). */
    readonly text: string;
    /** Keys sandy (or SANDY_EXTRA_ENV) reads from `text`, in file order, each once. */
    readonly keys: string[];
}

export interface CopyPlan {
    /** What the new `.sandy/` gets: always `config` (maybe empty), `.secrets` only when asked. */
    files: CopyPlanFile[];
    /** Every key of `files`, each once. */
    copiedKeys: string[];
    /** Keys whose lines were left out until the user says otherwise (pass them as `includeKeys`). */
    heldBack: { key: string; why: string; reason: HeldBackReason }[];
    /** Files and lines not copied, and why (names printable: control characters escaped). */
    notCopied: { name: string; why: string }[];
    /** Copied keys sandy will ask the user to approve in the new project (privileged, or a weakening value). */
    needApproval: string[];
}

/** A line a setting is written on, even where sandy ignores it (`# KEY=`, `export KEY=`, `  KEY = `). */
const MENTIONED_KEY = /^\s*(?:#+\s*)?(?:export\s+)?["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*=/;

/** What SANDY_EXTRA_ENV reads values from (`^[A-Za-z_][A-Za-z0-9_]*=.+`, sandy:5942-6007). */
const EXTRA_ENV_LINE = /^([A-Za-z_][A-Za-z0-9_]*)=[\s\S]/;

/** Names sandy itself treats as credentials when it redacts (`-vvv`, CONTRACT §3.3). */
const CREDENTIAL_NAME = /_(TOKEN|KEY|SECRET|PASSWORD)$/i;

interface SourceLine {
    /** 1-based. */
    readonly n: number;
    /** Without its line ending. */
    readonly body: string;
    readonly eol: '\n' | '\r\n' | '';
}

interface FilteredLines {
    readonly lines: SourceLine[];
    readonly dropped: { name: string; why: string }[];
}

/** Splits a file into lines (a CR before LF, or at the very end, is the line's ending) and drops unsafe ones. */
function safeLines(text: string, file: string): FilteredLines {
    const lines: SourceLine[] = [];
    const control: number[] = [];
    const long: number[] = [];
    let past: number | undefined;
    let size = 0;
    const parts = text.split('\n');
    for (let i = 0; i < parts.length; i++) {
        let body = parts[i];
        const last = i === parts.length - 1;
        if (last && body === '') {
            break;
        }
        let eol: SourceLine['eol'] = last ? '' : '\n';
        if (body.endsWith('\r')) {
            body = body.slice(0, -1);
            eol = '\r\n';
        }
        size += parts[i].length + (last ? 0 : 1);
        if (size > COPY_MAX_FILE_CHARS) {
            past = i + 1;
            break;
        }
        if (body.length > COPY_MAX_LINE_CHARS) {
            long.push(i + 1);
        } else if (UNSAFE_CHARS.test(body)) {
            control.push(i + 1);
        } else {
            lines.push({ n: i + 1, body, eol });
        }
    }
    const dropped: { name: string; why: string }[] = [];
    if (control.length) {
        dropped.push({
            name: `${file} ${lineList(control)}`,
            why: 'holds control characters (other than tab), which can make a line show differently from what sandy reads'
        });
    }
    if (long.length) {
        dropped.push({ name: `${file} ${lineList(long)}`, why: `longer than ${COPY_MAX_LINE_CHARS} characters` });
    }
    if (past !== undefined) {
        dropped.push({ name: `${file} from line ${past} on`, why: `the file is larger than ${COPY_MAX_FILE_CHARS / 1024} KiB, more than a copy takes` });
    }
    return { lines, dropped };
}

function lineList(numbers: readonly number[]): string {
    const shown = numbers.slice(0, 10).join(', ');
    return `${numbers.length === 1 ? 'line' : 'lines'} ${shown}${numbers.length > 10 ? `, … (${numbers.length} in all)` : ''}`;
}

/** A name from another workspace made safe to show: control and bidi characters escaped, length capped. */
function printable(name: string): string {
    let out = '';
    for (const ch of name.length > 200 ? `${name.slice(0, 200)}…` : name) {
        if (ch === '\\') {
            out += '\\\\';
        } else if (UNSAFE_CHARS.test(ch) || ch === '\t' || ch === '\ufeff') {
            out += `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`;
        } else {
            out += ch;
        }
    }
    return out;
}

/** Key names listed in a SANDY_EXTRA_ENV line of either source file: their values go into the sandbox. */
function extraEnvNames(...texts: (string | undefined)[]): Set<string> {
    const names = new Set<string>();
    for (const text of texts) {
        for (const raw of (text ?? '').slice(0, COPY_MAX_FILE_CHARS).split('\n')) {
            const read = readLoaderLine(raw);
            if (read?.key === 'SANDY_EXTRA_ENV') {
                read.value.split(',').map(n => n.trim()).filter(n => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n)).forEach(n => names.add(n));
            }
        }
    }
    return names;
}

/**
 * Decides what copying another project's `.sandy/` into a new one means:
 * - `config`: every line copied verbatim, except lines of keys that are secrets (schema `type:
 *   "secret"`), privileged, set to a value that weakens isolation, or that look like credentials
 *   (named in SANDY_EXTRA_ENV, or `…_TOKEN/_KEY/_SECRET/_PASSWORD` and unknown to the schema): those are
 *   `heldBack` until the user names them in `includeKeys`. A secret also written where sandy ignores
 *   it (`# KEY=…`, `export KEY=…`) is held back too; a commented-out privileged key is not (it sets
 *   nothing and holds no secret).
 * - `.secrets`: copied only with `includeSecrets` (whole, after the same line filter).
 * - `Dockerfile` and the rest of the build context: never copied.
 * - Lines with control characters other than tab, lines over {@link COPY_MAX_LINE_CHARS} and
 *   everything past {@link COPY_MAX_FILE_CHARS} are dropped and listed in `notCopied`.
 */
export function planCopy(source: CopySource, schema: SandySchema, options: CopyOptions = {}): CopyPlan {
    const allKeys = [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys];
    const known = new Map(allKeys.map(k => [k.name, k]));
    const privileged = new Set(schema.config.privileged_keys.map(k => k.name));
    const secretKeys = new Set([...allKeys.filter(k => isSecretKey(k)).map(k => k.name), ...KNOWN_SECRET_KEYS]);
    const include = new Set(options.includeKeys ?? []);
    const extraEnv = extraEnvNames(source.config, source.secrets);

    const heldBack: CopyPlan['heldBack'] = [];
    const held = new Set<string>();
    const notCopied: CopyPlan['notCopied'] = [];
    const needApproval = new Set<string>();
    const files: CopyPlanFile[] = [];

    const holdReason = (key: string, value: string | undefined, active: boolean): { reason: HeldBackReason; why: string } | undefined => {
        if (secretKeys.has(key)) {
            return { reason: 'secret', why: 'a secret — copy only if you choose to' };
        }
        if (!known.has(key) && extraEnv.has(key)) {
            return { reason: 'maybe-secret', why: 'named in SANDY_EXTRA_ENV, so its value goes into the sandbox and may be a credential — copy only if you choose to' };
        }
        if (!known.has(key) && CREDENTIAL_NAME.test(key)) {
            return { reason: 'maybe-secret', why: 'its name says it holds a credential — copy only if you choose to' };
        }
        if (!active) {
            return undefined;
        }
        if (privileged.has(key)) {
            return {
                reason: 'privileged',
                why: 'a privileged key — set from a project file it needs your approval, and a copy would need sandy\'s approval '
                    + 'in the new project too; copy only if you choose to'
            };
        }
        if (value !== undefined && isWeakeningValue(key, value)) {
            return {
                reason: 'weakening',
                why: `${key}=${value} weakens the sandbox's isolation — from a project file sandy asks for approval, in the new project `
                    + 'too; copy only if you choose to'
            };
        }
        return undefined;
    };

    const copyFile = (name: 'config' | '.secrets', text: string, holdBack: boolean): CopyPlanFile => {
        const { lines, dropped } = safeLines(text, name);
        notCopied.push(...dropped);
        const kept: SourceLine[] = [];
        const keys = new Set<string>();
        for (const line of lines) {
            const read = readLoaderLine(line.eol === '\r\n' ? `${line.body}\r` : line.body);
            const extra = read ? undefined : EXTRA_ENV_LINE.exec(line.body)?.[1];
            const active = read?.key ?? extra;
            const mentioned = active ?? MENTIONED_KEY.exec(line.body)?.[1];
            const hold = holdBack && mentioned ? holdReason(mentioned, read?.value, active !== undefined) : undefined;
            if (hold && mentioned && !include.has(mentioned)) {
                if (!held.has(mentioned)) {
                    held.add(mentioned);
                    heldBack.push({ key: mentioned, ...hold });
                }
                continue;
            }
            kept.push(line);
            if (active !== undefined) {
                keys.add(active);
                if (read && (privileged.has(read.key) || isWeakeningValue(read.key, read.value))) {
                    needApproval.add(read.key);
                }
            }
        }
        const crlf = lines.filter(l => l.eol === '\r\n').length > lines.filter(l => l.eol === '\n').length;
        const out = kept.map(l => l.body + (l.eol || (crlf ? '\r\n' : '\n'))).join('');
        return { name, text: out, keys: [...keys] };
    };

    for (const u of source.unreadable ?? []) {
        notCopied.push({ name: printable(u.name), why: u.why });
    }
    files.push(copyFile('config', source.config ?? '', true));

    if (options.includeSecrets && source.secrets !== undefined) {
        files.push(copyFile('.secrets', source.secrets, false));
    } else if (options.includeSecrets && source.secretsExists) {
        notCopied.push({ name: '.secrets', why: 'it was not read, so it cannot be copied; read it first' });
    } else if (source.secrets !== undefined || source.secretsExists) {
        const names = source.secrets !== undefined ? secretsNames(source.secrets) : [];
        notCopied.push({
            name: '.secrets',
            why: `it holds secrets${names.length ? ` (${nameList(names)})` : ''} — copied only if you choose to`
        });
    }
    if (source.dockerfile) {
        notCopied.push({ name: 'Dockerfile', why: 'it runs at build time; copy it yourself after reading it' });
    }
    const others = source.otherFiles ?? [];
    for (const other of others.slice(0, 20)) {
        notCopied.push({ name: printable(other), why: 'part of the Dockerfile\'s build context, not a setting; copy it yourself if you need it' });
    }
    if (others.length > 20) {
        notCopied.push({ name: `${others.length - 20} more files`, why: 'part of the Dockerfile\'s build context, not settings' });
    }
    const copiedKeys = [...new Set(files.flatMap(f => f.keys))];
    return { files, copiedKeys, heldBack, notCopied, needApproval: [...needApproval] };
}

/** Keys set in a `.secrets` text (names only, never values), for saying what it holds. */
function secretsNames(text: string): string[] {
    const names = new Set<string>();
    for (const line of safeLines(text, '.secrets').lines) {
        const key = readLoaderLine(line.eol === '\r\n' ? `${line.body}\r` : line.body)?.key ?? EXTRA_ENV_LINE.exec(line.body)?.[1];
        if (key) {
            names.add(key);
        }
    }
    return [...names];
}

function nameList(names: readonly string[], max = 12): string {
    return names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more` : names.join(', ');
}

/** The preview of a copy, one sentence a line: what it copies, what it leaves out and why, what sandy will ask. */
export function copyPlanText(plan: CopyPlan): string[] {
    const out: string[] = [];
    const config = plan.files.find(f => f.name === 'config');
    out.push(config?.keys.length ? `Copies ${nameList(config.keys, 30)}` : 'Copies no settings from config');
    const secrets = plan.files.find(f => f.name === '.secrets');
    if (secrets) {
        out.push(secrets.keys.length ? `Copies .secrets with ${nameList(secrets.keys, 30)} (values not shown)` : 'Copies .secrets (it sets nothing)');
    }
    for (const held of plan.heldBack.slice(0, 50)) {
        out.push(`Leaves out ${held.key}: ${held.why}`);
    }
    if (plan.heldBack.length > 50) {
        out.push(`Leaves out ${plan.heldBack.length - 50} more keys`);
    }
    for (const item of plan.notCopied) {
        out.push(`Does not copy ${item.name}: ${item.why}`);
    }
    if (plan.needApproval.length) {
        out.push(`sandy will ask you to approve ${nameList(plan.needApproval)} at the first launch in the new project `
            + '(privileged settings from a project file need approval there too)');
    }
    return out;
}
