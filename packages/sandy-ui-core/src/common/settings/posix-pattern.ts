/**
 * Schema patterns are POSIX EREs for bash's `=~`; the form checks them live as JS RegExps.
 */

/** POSIX character classes as JS class contents (ASCII, as in the C locale sandy's checks effectively use). */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
    alnum: 'A-Za-z0-9',
    alpha: 'A-Za-z',
    digit: '0-9',
    upper: 'A-Z',
    lower: 'a-z',
    space: ' \\t\\n\\r\\f\\v',
    blank: ' \\t',
    xdigit: '0-9A-Fa-f',
    punct: '!-\\/:-@\\[-`{-~',
    cntrl: '\\x00-\\x1f\\x7f',
    print: '\\x20-\\x7e',
    graph: '\\x21-\\x7e'
};

/** A translated pattern, or why it could not be translated. */
export type PosixPatternResult =
    | { readonly ok: true; readonly source: string; readonly regex: RegExp }
    | { readonly ok: false; readonly reason: string };

/**
 * Translates a schema pattern (a POSIX ERE for bash's `=~`) into a JS RegExp. Inside bracket
 * expressions `[[:space:]]`-style classes are expanded, a backslash is literal (as in POSIX) and a
 * leading `]` is a literal `]`. Collating elements (`[.x.]`, `[=x=]`) and anything JS cannot compile
 * give `ok: false`; the caller then skips the check rather than guessing. Never throws.
 */
export function posixPatternToJs(pattern: string): PosixPatternResult {
    let out = '';
    let i = 0;
    while (i < pattern.length) {
        const c = pattern[i];
        if (c === '\\') {
            out += pattern.slice(i, i + 2);
            i += 2;
            continue;
        }
        if (c !== '[') {
            out += c;
            i++;
            continue;
        }
        let j = i + 1;
        let cls = '[';
        if (pattern[j] === '^') {
            cls += '^';
            j++;
        }
        if (pattern[j] === ']') {
            cls += '\\]';
            j++;
        }
        let closed = false;
        while (j < pattern.length) {
            const d = pattern[j];
            if (d === ']') {
                cls += ']';
                j++;
                closed = true;
                break;
            }
            if (d === '[' && pattern[j + 1] === ':') {
                const end = pattern.indexOf(':]', j + 2);
                if (end < 0) {
                    return { ok: false, reason: 'unterminated [: class' };
                }
                const name = pattern.slice(j + 2, end);
                const expansion = POSIX_CLASSES[name];
                if (expansion === undefined) {
                    return { ok: false, reason: `unknown character class [:${name}:]` };
                }
                cls += expansion;
                j = end + 2;
                continue;
            }
            if (d === '[' && (pattern[j + 1] === '.' || pattern[j + 1] === '=')) {
                return { ok: false, reason: 'collating elements are not supported' };
            }
            // Literal in a POSIX bracket expression, special in a JS class.
            cls += d === '\\' || d === '[' ? `\\${d}` : d;
            j++;
        }
        if (!closed) {
            return { ok: false, reason: 'unterminated [' };
        }
        out += cls;
        i = j;
    }
    try {
        return { ok: true, source: out, regex: new RegExp(out) };
    } catch (e) {
        return { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }
}
