/**
 * sandy's `config` / `.secrets` files, modelled exactly as sandy's loader reads them (CONTRACT §3.2,
 * sandy:5888-5927) and written back without disturbing anything the user typed.
 *
 * sandy does not source these files. It runs `grep -E '^[A-Z_]+=.+' FILE` and feeds every matching
 * line to `IFS='=' read -r key value`, then strips one trailing CR, one leading and one trailing `"`,
 * then one leading and one trailing `'`. Every other line is ignored. This module keeps each line as
 * either an *entry* (a line that loader reads) or an *opaque* line (kept byte for byte), so a
 * document serialises back to exactly the bytes it was parsed from.
 *
 * Pure and browser-safe: strings in, strings out.
 */

import { isSecretKey } from '../sandy/contract';
/** What ends a line: LF, CRLF, or nothing (the last line of a file without a final newline). */
export type LineEnding = '\n' | '\r\n' | '';

/** How a value was (or will be) wrapped on disk. */
export type QuoteStyle = 'none' | 'double' | 'single';

interface ConfigLineBase {
    /** The line's text without its line ending (a CR before the LF belongs to the ending). */
    readonly text: string;
    readonly eol: LineEnding;
}

/** A line sandy's loader reads: it matches `^[A-Z_]+=.+`. */
export interface ConfigEntryLine extends ConfigLineBase {
    readonly kind: 'entry';
    readonly key: string;
    /** The value exactly as sandy ends up with it (after the bash `read`, CR and quote stripping). */
    readonly value: string;
    /** Quoting of the value on disk, so an edit can keep the user's style. */
    readonly quote: QuoteStyle;
    /**
     * True when bash `read` dropped a trailing `=` (the value was one field plus a single `=`, e.g. a
     * base64 token `abc=` reads as `abc`). Kept so diagnostics can warn about it.
     */
    readonly droppedTrailingEquals: boolean;
}

/** Any line sandy's loader ignores: comments, blanks, `export …`, `key = v`, lowercase keys, … */
export interface ConfigOpaqueLine extends ConfigLineBase {
    readonly kind: 'opaque';
}

export type ConfigLine = ConfigEntryLine | ConfigOpaqueLine;

/** A parsed config file. Treat as immutable; {@link applyEdits} returns a new document. */
export interface ConfigDocument {
    readonly lines: readonly ConfigLine[];
    /**
     * The text contains a NUL byte. GNU grep then treats the file as binary, prints no lines and only
     * "binary file matches" on stderr (which sandy discards), so sandy reads nothing from it. Every
     * line of such a document is opaque and it cannot be edited.
     */
    readonly binary: boolean;
}

/** One edit: set `key` to `value`, or remove every line of `key` when `value` is undefined. */
export interface ConfigEdit {
    readonly key: string;
    readonly value: string | undefined;
}

export interface ApplyEditsResult {
    readonly document: ConfigDocument;
    /** False when every edit already matched the file; then `document` is the input document. */
    readonly changed: boolean;
    /** Keys whose lines were added, rewritten or removed, in edit order. */
    readonly changedKeys: readonly string[];
}

/**
 * The schema's config key object (`--print-schema` `config.*_keys[]`, CONTRACT §2.4), reduced to what
 * this module needs. A local "like" type so this file does not depend on the contract module.
 */
export interface ConfigKeyLike {
    readonly name: string;
    readonly type: string;
    /** Always a string when present (`"true"`, `"0"`, `"128000"`). */
    readonly default?: string;
    readonly choices?: readonly string[];
    readonly pattern?: string;
    readonly description?: string;
    readonly since?: string;
    readonly stability?: string;
    readonly sources?: readonly string[];
}

/** A key list (schema order) or a lookup by name. */
export type ConfigSchemaLike = readonly ConfigKeyLike[] | ReadonlyMap<string, ConfigKeyLike>;

/** Raised by {@link applyEdits} for edits sandy could not read back; nothing is applied then. */
export class ConfigEditError extends Error {
    constructor(
        message: string,
        /** What the user can do next. */
        readonly hint: string,
        readonly problems: readonly { key: string; message: string }[] = []
    ) {
        super(message);
        this.name = 'ConfigEditError';
    }
}

/** Keys sandy's loader can read: `grep -E '^[A-Z_]+='` (no digits, no lowercase). */
export const LOADER_KEY_PATTERN = /^[A-Z_]+$/;

/**
 * The loader's line filter `^[A-Z_]+=.+`. `[\s\S]` rather than `.` because JS `.` does not match CR,
 * while grep's does: `KEY=<CR>` passes grep and sets KEY to the empty string.
 */
const LOADER_LINE = /^[A-Z_]+=[\s\S]/;

/**
 * Reads one line the way sandy's loader does. `line` is the line as grep prints it: without the LF,
 * but with the CR of a CRLF ending. Returns undefined for lines the loader ignores.
 */
export function readLoaderLine(line: string): { key: string; value: string; quote: QuoteStyle; droppedTrailingEquals: boolean } | undefined {
    if (!LOADER_LINE.test(line)) {
        return undefined;
    }
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    let value = line.slice(eq + 1);
    // `IFS='=' read -r key value` gives the last variable the rest of the line, except that when the
    // rest is a single field followed by exactly one `=`, bash consumes that `=` as a delimiter:
    // `K=abc=` reads as `abc`, `K=abc==` as `abc==`, `K==` as the empty string (checked on bash 5.2).
    let droppedTrailingEquals = false;
    if (value.length > 0 && value.indexOf('=') === value.length - 1) {
        value = value.slice(0, -1);
        droppedTrailingEquals = true;
    }
    if (value.endsWith('\r')) {
        value = value.slice(0, -1);
    }
    const quote = quoteStyleOf(value);
    if (value.startsWith('"')) {
        value = value.slice(1);
    }
    if (value.endsWith('"')) {
        value = value.slice(0, -1);
    }
    if (value.startsWith('\'')) {
        value = value.slice(1);
    }
    if (value.endsWith('\'')) {
        value = value.slice(0, -1);
    }
    return { key, value, quote, droppedTrailingEquals };
}

function quoteStyleOf(raw: string): QuoteStyle {
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
        return 'double';
    }
    if (raw.length >= 2 && raw.startsWith('\'') && raw.endsWith('\'')) {
        return 'single';
    }
    return 'none';
}

/** The line as grep hands it to sandy's `read`: the CR of a CRLF ending is still there. */
function loaderLineOf(line: ConfigLineBase): string {
    return line.eol === '\r\n' ? line.text + '\r' : line.text;
}

function makeLine(text: string, eol: LineEnding, binary: boolean): ConfigLine {
    const read = binary ? undefined : readLoaderLine(loaderLineOf({ text, eol }));
    return read ? { kind: 'entry', text, eol, ...read } : { kind: 'opaque', text, eol };
}

/**
 * Parses a config or `.secrets` file. Never fails: lines sandy ignores become opaque lines. A BOM
 * stays part of the first line's text (sandy's grep does not skip it either, so that line is ignored).
 */
export function parseConfigFile(text: string): ConfigDocument {
    const binary = text.includes('\0');
    const lines: ConfigLine[] = [];
    const parts = text.split('\n');
    for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        const last = i === parts.length - 1;
        if (last) {
            // After a final LF split() yields one empty string that is not a line.
            if (part !== '') {
                lines.push(makeLine(part, '', binary));
            }
        } else if (part.endsWith('\r')) {
            lines.push(makeLine(part.slice(0, -1), '\r\n', binary));
        } else {
            lines.push(makeLine(part, '\n', binary));
        }
    }
    return { lines, binary };
}

/** The exact bytes (as a string) the document was parsed from, with edits applied. */
export function serializeConfigFile(doc: ConfigDocument): string {
    let out = '';
    for (const line of doc.lines) {
        out += line.text + line.eol;
    }
    return out;
}

/** Every key sandy's loader would set from this one file, last line winning (sandy exports in file order). */
export function getEffectiveValues(doc: ConfigDocument): Record<string, string> {
    const values: Record<string, string> = {};
    for (const line of doc.lines) {
        if (line.kind === 'entry') {
            values[line.key] = line.value;
        }
    }
    return values;
}

/** The entry lines of `key`, with their 1-based line numbers, in file order. */
export function findEntries(doc: ConfigDocument, key: string): { line: ConfigEntryLine; lineNumber: number }[] {
    const found: { line: ConfigEntryLine; lineNumber: number }[] = [];
    doc.lines.forEach((line, index) => {
        if (line.kind === 'entry' && line.key === key) {
            found.push({ line, lineNumber: index + 1 });
        }
    });
    return found;
}

export type FormatValueResult =
    | { readonly ok: true; readonly text: string; readonly quote: QuoteStyle }
    | { readonly ok: false; readonly reason: string };

/**
 * Turns a value into the text after `KEY=` so that sandy reads back exactly `value`. Quotes only when
 * needed: empty values (a bare `KEY=` is skipped by sandy's grep), leading/trailing quote characters
 * (sandy would strip them), leading/trailing whitespace (sandy keeps it, but nobody can see it), a
 * single trailing `=` (bash `read` would drop it) and ` #` (looks like a comment, is not one).
 * `preferred` keeps the file's existing style when that style reads back correctly.
 * Refuses values sandy cannot represent: a line break ends the line, NUL makes grep skip the file.
 */
export function formatValue(value: string, preferred: QuoteStyle = 'none'): FormatValueResult {
    if (/[\r\n]/.test(value)) {
        return { ok: false, reason: 'contains a line break; sandy reads one line per key and cannot represent it' };
    }
    if (value.includes('\0')) {
        return { ok: false, reason: 'contains a NUL character; sandy would ignore the whole file' };
    }
    if (/[\uD800-\uDFFF]/.test(value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) {
        return { ok: false, reason: 'contains an unpaired surrogate, which cannot be written as UTF-8' };
    }
    const startsOrEndsWithSingle = value.startsWith('\'') || value.endsWith('\'');
    // Double quotes survive any value that does not itself start or end with `'` (the `'` strip
    // would then eat it); single quotes survive every value, because the `"` strip looks at the
    // outer `'` and does nothing.
    const double = (): FormatValueResult => ({ ok: true, text: `"${value}"`, quote: 'double' });
    const single = (): FormatValueResult => ({ ok: true, text: `'${value}'`, quote: 'single' });
    if (preferred === 'single') {
        return single();
    }
    if (preferred === 'double' && !startsOrEndsWithSingle) {
        return double();
    }
    const needsQuotes = value === ''
        || /^["'\s]/.test(value)
        || /["'\s]$/.test(value)
        || value.indexOf('=') === value.length - 1 // also true for '' (-1), which needs quotes anyway
        || /\s#/.test(value);
    if (!needsQuotes) {
        return { ok: true, text: value, quote: 'none' };
    }
    return startsOrEndsWithSingle ? single() : double();
}

/** Whether `key` can be written to a file sandy reads (only `A-Z` and `_`). */
export function isLoaderKey(key: string): boolean {
    return LOADER_KEY_PATTERN.test(key);
}

/** The newline style to use for lines we add: the majority of the file's line endings, LF on a tie. */
export function dominantLineEnding(doc: ConfigDocument): '\n' | '\r\n' {
    let crlf = 0;
    let lf = 0;
    for (const line of doc.lines) {
        if (line.eol === '\r\n') {
            crlf++;
        } else if (line.eol === '\n') {
            lf++;
        }
    }
    return crlf > lf ? '\r\n' : '\n';
}

/**
 * Applies edits, touching only the lines of keys whose value changes:
 * - a changed key's last line is rewritten in place (same line ending, same quoting when that still
 *   reads back right); its earlier lines are removed, because for privileged keys from a workspace
 *   sandy puts every `KEY=VALUE` line into the approval set and exports them in sort order, so an
 *   old duplicate could win over the value just written;
 * - `value: undefined` removes every line of the key;
 * - new keys are appended at the end in the file's dominant newline style; a missing final newline
 *   stays missing.
 * Edits whose value already is the effective value are skipped. All edits are checked first; if any
 * cannot be written, a {@link ConfigEditError} is thrown and nothing is applied.
 */
export function applyEdits(doc: ConfigDocument, edits: readonly ConfigEdit[]): ApplyEditsResult {
    if (doc.binary) {
        throw new ConfigEditError(
            'This file contains a NUL byte, so sandy ignores all of it.',
            'Remove the NUL byte(s) in a text editor, then edit the settings again.'
        );
    }
    // Last edit of a key wins, in the position of its first occurrence.
    const byKey = new Map<string, string | undefined>();
    for (const edit of edits) {
        byKey.set(edit.key, edit.value);
    }
    const problems: { key: string; message: string }[] = [];
    for (const [key, value] of byKey) {
        if (!isLoaderKey(key)) {
            problems.push({ key, message: `"${key}" is not a key sandy reads from a file (only A-Z and _ are allowed)` });
        }
        if (value !== undefined) {
            const formatted = formatValue(value);
            if (!formatted.ok) {
                problems.push({ key, message: `the value of ${key} ${formatted.reason}` });
            }
        }
    }
    if (problems.length) {
        throw new ConfigEditError(
            `Cannot save: ${problems.map(p => p.message).join('; ')}.`,
            'Change the value so it fits on one line, or remove the setting.',
            problems
        );
    }

    const effective = getEffectiveValues(doc);
    const style = dominantLineEnding(doc);
    const lines: (ConfigLine | undefined)[] = [...doc.lines];
    const appended: string[] = [];
    const changedKeys: string[] = [];
    for (const [key, value] of byKey) {
        const indices: number[] = [];
        lines.forEach((line, index) => {
            if (line?.kind === 'entry' && line.key === key) {
                indices.push(index);
            }
        });
        if (value === undefined) {
            if (indices.length) {
                indices.forEach(i => lines[i] = undefined);
                changedKeys.push(key);
            }
            continue;
        }
        if (indices.length && effective[key] === value) {
            continue;
        }
        changedKeys.push(key);
        if (!indices.length) {
            appended.push(`${key}=${(formatValue(value) as { text: string }).text}`);
            continue;
        }
        const lastIndex = indices[indices.length - 1];
        const old = lines[lastIndex] as ConfigEntryLine;
        const formatted = formatValue(value, old.quote) as { text: string };
        lines[lastIndex] = checkedEntry(`${key}=${formatted.text}`, old.eol, key, value);
        indices.slice(0, -1).forEach(i => lines[i] = undefined);
    }
    if (!changedKeys.length) {
        return { document: doc, changed: false, changedKeys };
    }
    const kept = lines.filter((line): line is ConfigLine => line !== undefined);
    if (appended.length) {
        const endsWithoutNewline = kept.length > 0 && kept[kept.length - 1].eol === '';
        if (endsWithoutNewline) {
            const last = kept[kept.length - 1];
            kept[kept.length - 1] = makeLine(last.text, style, false);
        }
        appended.forEach((text, i) => {
            const eol = endsWithoutNewline && i === appended.length - 1 ? '' : style;
            const [key] = text.split('=', 1);
            kept.push(checkedEntry(text, eol, key, byKey.get(key)!));
        });
    }
    return { document: { lines: kept, binary: false }, changed: true, changedKeys };
}

/** Builds an entry line and proves sandy reads it back as intended (a bug here must not reach disk). */
function checkedEntry(text: string, eol: LineEnding, key: string, value: string): ConfigLine {
    const line = makeLine(text, eol, false);
    if (line.kind !== 'entry' || line.key !== key || line.value !== value) {
        throw new ConfigEditError(`Internal error: ${key} would not read back as written.`, 'Please report this.');
    }
    return line;
}

/** Where a key belongs: secrets (schema `type: "secret"`) go to `.secrets`, everything else to `config`. */
export function routeKey(key: string, schema: ConfigSchemaLike): 'secrets' | 'config' {
    return isSecretKey(lookupKey(schema, key)) ? 'secrets' : 'config';
}

/**
 * Schema keys that are not secrets but sit in a `.secrets` file. sandy loads `.secrets` after
 * `config`, so such a line silently overrides the settings form's `config` value. Keys the schema
 * does not know (for instance names listed in `SANDY_EXTRA_ENV`) legitimately live in `.secrets`.
 */
export function misplacedKeysInSecrets(doc: ConfigDocument, schema: ConfigSchemaLike): { key: string; line: number; text: string }[] {
    const found: { key: string; line: number; text: string }[] = [];
    doc.lines.forEach((line, index) => {
        if (line.kind !== 'entry') {
            return;
        }
        const known = lookupKey(schema, line.key);
        if (known && !isSecretKey(known)) {
            found.push({ key: line.key, line: index + 1, text: line.text });
        }
    });
    return found;
}

/**
 * The on/off spelling sandy tests for a bool key (CONTRACT §0.5). The schema default is the only hint:
 * `SANDY_SKIP_PERMISSIONS` (default `"true"`) is only on for the literal `true`, the `0`/`1` keys
 * only for `1`. Returns `[on, off]`.
 */
export function boolSpelling(key: ConfigKeyLike): readonly [string, string] {
    if (key.default === 'true' || key.default === 'false') {
        return ['true', 'false'];
    }
    if (key.default === '0' || key.default === '1') {
        return ['1', '0'];
    }
    // No default: sandy passes GOOGLE_GENAI_USE_VERTEXAI through untouched to gemini, whose README
    // spelling is `true` (README.md:198); every bool sandy tests itself compares with `1`.
    return TRUE_FALSE_WITHOUT_DEFAULT.has(key.name) ? ['true', 'false'] : ['1', '0'];
}

const TRUE_FALSE_WITHOUT_DEFAULT = new Set(['GOOGLE_GENAI_USE_VERTEXAI']);

function lookupKey(schema: ConfigSchemaLike, key: string): ConfigKeyLike | undefined {
    if (Array.isArray(schema)) {
        return (schema as readonly ConfigKeyLike[]).find(k => k.name === key);
    }
    return (schema as ReadonlyMap<string, ConfigKeyLike>).get(key);
}

/** A line sandy reads differently from how its author probably meant it. */
export interface ConfigDiagnostic {
    /** 1-based. */
    readonly line: number;
    readonly code: ConfigDiagnosticCode;
    readonly severity: 'error' | 'warning' | 'info';
    readonly message: string;
    readonly key?: string;
}

export type ConfigDiagnosticCode =
    | 'binary-file'
    | 'bom'
    | 'export-prefix'
    | 'leading-whitespace'
    | 'spaces-around-equals'
    | 'quoted-key'
    | 'not-loader-key'
    | 'missing-equals'
    | 'empty-value'
    | 'inline-comment'
    | 'value-whitespace'
    | 'dropped-trailing-equals'
    | 'unbalanced-quote'
    | 'duplicate-key';

/**
 * Finds lines sandy ignores or reads differently from what the author probably meant: `export KEY=`,
 * `KEY = v`, lowercase keys, inline `# comments` (kept in the value, fx 54c), a BOM, … None of these
 * is reported by `sandy --validate-config` (CONTRACT §0.2); most only surface as a launch failure.
 */
export function diagnoseConfigFile(doc: ConfigDocument): ConfigDiagnostic[] {
    const out: ConfigDiagnostic[] = [];
    if (doc.binary) {
        out.push({
            line: 1 + doc.lines.findIndex(l => l.text.includes('\0')),
            code: 'binary-file',
            severity: 'error',
            message: 'The file contains a NUL byte. sandy\'s grep then treats it as binary and reads none of it. Remove the NUL byte(s).'
        });
        return out;
    }
    const lastLineOfKey = new Map<string, number>();
    doc.lines.forEach((line, index) => {
        if (line.kind === 'entry') {
            lastLineOfKey.set(line.key, index + 1);
        }
    });
    doc.lines.forEach((line, index) => {
        const n = index + 1;
        if (line.kind === 'entry') {
            diagnoseEntry(line, n, lastLineOfKey.get(line.key)!, out);
        } else {
            diagnoseOpaque(line.text, n, out);
        }
    });
    return out;
}

function diagnoseEntry(line: ConfigEntryLine, n: number, lastLine: number, out: ConfigDiagnostic[]): void {
    const key = line.key;
    if (lastLine !== n) {
        out.push({
            line: n, code: 'duplicate-key', severity: 'info', key,
            message: `${key} is set again on line ${lastLine}; this line has no effect (for privileged keys in a workspace file, both lines go to the approval prompt).`
        });
    }
    const raw = line.text.slice(key.length + 1).replace(/\r$/, '');
    if (line.quote === 'none' && /\s#/.test(raw)) {
        out.push({
            line: n, code: 'inline-comment', severity: 'warning', key,
            message: `sandy has no inline comments: the value of ${key} is "${line.value}", including the "#" part. Move the comment to its own line.`
        });
    } else if (line.quote === 'none' && /^\s|\s$/.test(line.value)) {
        // A quoted value with spaces was written on purpose; a bare one usually was not.
        out.push({
            line: n, code: 'value-whitespace', severity: 'warning', key,
            message: `The value of ${key} starts or ends with whitespace, which sandy keeps. Remove it, or quote the value if it is meant.`
        });
    }
    if (line.droppedTrailingEquals) {
        out.push({
            line: n, code: 'dropped-trailing-equals', severity: 'warning', key,
            message: `sandy reads ${key} without its final "=" (a quirk of bash "read"): the value is "${line.value}". Quote the value ("…=") to keep it.`
        });
    }
    if (line.quote === 'none' && /^["']|["']$/.test(raw) && raw.length > 0) {
        out.push({
            line: n, code: 'unbalanced-quote', severity: 'info', key,
            message: `Unmatched quote: sandy strips one quote from each end independently, so ${key} is "${line.value}".`
        });
    }
}

function diagnoseOpaque(text: string, n: number, out: ConfigDiagnostic[]): void {
    if (n === 1 && text.startsWith('\uFEFF')) {
        out.push({
            line: n, code: 'bom', severity: 'warning',
            message: 'The file starts with a byte-order mark, so sandy ignores the first line. Save the file as UTF-8 without BOM.'
        });
        text = text.slice(1);
        if (LOADER_LINE.test(text)) {
            return;
        }
    }
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
        return;
    }
    let m: RegExpExecArray | null;
    if ((m = /^\s*export\s+([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(text))) {
        out.push({
            line: n, code: 'export-prefix', severity: 'warning', key: m[1],
            message: `sandy ignores lines starting with "export"; ${m[1]} is not set. Remove "export ".`
        });
    } else if ((m = /^\s+([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(text))) {
        out.push({
            line: n, code: 'leading-whitespace', severity: 'warning', key: m[1],
            message: `sandy ignores indented lines; ${m[1]} is not set. Remove the leading whitespace.`
        });
    } else if ((m = /^([A-Za-z_][A-Za-z0-9_]*)\s+=/.exec(text))) {
        out.push({
            line: n, code: 'spaces-around-equals', severity: 'warning', key: m[1],
            message: `sandy ignores "${m[1]} = …" with spaces before "="; ${m[1]} is not set. Write ${m[1]}=value.`
        });
    } else if ((m = /^["']([A-Za-z_][A-Za-z0-9_]*)["']\s*=/.exec(text))) {
        out.push({
            line: n, code: 'quoted-key', severity: 'warning', key: m[1],
            message: `sandy ignores a quoted key; ${m[1]} is not set. Remove the quotes around the name.`
        });
    } else if ((m = /^([A-Z_]+)=$/.exec(text))) {
        out.push({
            line: n, code: 'empty-value', severity: 'warning', key: m[1],
            message: `sandy skips "${m[1]}=" with nothing after "=", so a value from another file still applies. Delete the line to unset it, or write ${m[1]}="" to set it empty.`
        });
    } else if ((m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(text))) {
        out.push({
            line: n, code: 'not-loader-key', severity: 'warning', key: m[1],
            message: `sandy's config loader only reads keys made of A-Z and _, so "${m[1]}" is ignored (it is only read as a value named in SANDY_EXTRA_ENV).`
        });
    } else if ((m = /^([A-Z_][A-Z0-9_]*)\s*(?::.*)?$/.exec(trimmed))) {
        out.push({
            line: n, code: 'missing-equals', severity: 'warning', key: m[1],
            message: `This line has no "=", so sandy ignores it. Write ${m[1]}=value.`
        });
    }
}
