/**
 * Text from a session's terminal stream (OSC 9/99/777 notifications) shown in a host notification.
 *
 * Both hosts parse the message they are given, so the agent — whose bytes these are — would choose
 * the markup:
 * - Theia's MessageService (`@theia/messages` NotificationContentRenderer, 1.74.1) renders the text
 *   with markdown-it `renderInline` (HTML off, linkify off): `[label](command:…)` and `<command:…>`
 *   become `<a href>` that the notification opens through the OpenerService, so a click runs the
 *   command (`command:` is not on markdown-it's bad-protocol list; only javascript/vbscript/file/
 *   data are); `![](http://…)` becomes an `<img>` the host's browser fetches past the sandbox's
 *   egress filter; `*`, `_`, `` ` ``, `~~`, `&entity;` and `\` escapes restyle or rewrite the text.
 * - VS Code's `showInformationMessage` renders "linked text" (vs/base/common/linkedText.ts):
 *   `[label](https://…|command:…|file:…)` becomes a link, a `command:` one executing on click;
 *   everything else is a text node.
 *
 * {@link plainNotificationText} makes the text display exactly as sent and unable to form a link or
 * markup in the renderer it is for, and — checked by its spec against the real markdown-it and the
 * VS Code link grammar — in the other one too, so a host that is not what it seems cannot turn it
 * back into a link.
 */

/** How the host renders a notification message. */
export type NotificationRenderer =
    /** Theia's MessageService: markdown-it inline, HTML off. Escaped with backslashes: exact display, exact copy. */
    | 'markdown'
    /** VS Code's showInformationMessage: text plus `[label](target)` links. Broken with U+2060 WORD JOINER. */
    | 'linked-text';

/** Longest notification message shown, in characters before escaping (the rest becomes `…`). */
export const MAX_NOTIFICATION_TEXT = 400;

/**
 * Every other message a host shows (project names, paths, warnings, sandy's output and its hint):
 * the same neutralising, with room for an error and its remedy. Both hosts' message wrappers use it.
 */
export function plainMessageText(text: string, renderer: NotificationRenderer): string {
    return plainNotificationText(text, renderer, MAX_MESSAGE_TEXT);
}

/** Longest other message shown (sandy's error text and its hint). */
export const MAX_MESSAGE_TEXT = 2000;

/** Invisible, zero-width, no line break opportunity: splits a token without changing what is seen. */
export const WORD_JOINER = '\u2060';

/**
 * Characters a notification never shows: C0/C1 controls and DEL (line breaks become spaces first),
 * bidi embeddings, overrides, isolates and marks (a message cannot reorder its own text, CVE-2021-42574),
 * BOM, interlinear annotations, and Unicode tag characters (invisible text that only a model reads).
 */
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const LINE_BREAKS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;
/** Every ASCII punctuation character: CommonMark lets each be backslash-escaped (markdown-it's escape rule). */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Removes what must never be shown, turns line breaks and tabs into spaces (both hosts show one
 * line), trims, and caps at `max` characters (code points, never half a surrogate pair) with `…`.
 */
export function cleanNotificationText(text: string, max = MAX_NOTIFICATION_TEXT): string {
    const clean = String(text).replace(LINE_BREAKS, ' ').replace(/\t/g, ' ').replace(UNSHOWN, '').trim();
    const chars = Array.from(clean);
    return chars.length <= max ? clean : `${chars.slice(0, Math.max(0, max - 1)).join('').trimEnd()}\u2026`;
}

/**
 * A long plain text whose lines matter (sandy's plan in a confirmation's detail, which hosts show as
 * text): every line break kept as `\n`, characters that hide or reorder text removed per line (C0/C1
 * controls, bidi overrides), at most `maxLines` lines of `maxLineChars`, what was cut said so.
 */
export function plainDetailText(text: string, maxLines = 40, maxLineChars = 200): string {
    const lines = String(text).split(LINE_BREAKS).map(l => l.replace(/\t/g, '    ').replace(UNSHOWN, '').trimEnd());
    while (lines.length && !lines[0].trim()) {
        lines.shift();
    }
    while (lines.length && !lines[lines.length - 1].trim()) {
        lines.pop();
    }
    const shown = lines.slice(0, maxLines).map(l => {
        const chars = Array.from(l);
        return chars.length <= maxLineChars ? l : `${chars.slice(0, maxLineChars - 1).join('')}\u2026`;
    });
    if (lines.length > maxLines) {
        shown.push(`(${lines.length - maxLines} more lines not shown)`);
    }
    return shown.join('\n');
}

/**
 * The text as `renderer` must be given it to show `text` (cleaned and capped) literally: no link,
 * image, autolink, HTML, emphasis, code span, entity, escape or `$(codicon)` — in that renderer and
 * in the other one.
 */
export function plainNotificationText(text: string, renderer: NotificationRenderer, max = MAX_NOTIFICATION_TEXT): string {
    const clean = cleanNotificationText(text, max);
    return renderer === 'markdown' ? escapeMarkdownInline(clean) : breakLinkedText(clean);
}

/**
 * markdown-it shows `\x` as `x` for every ASCII punctuation `x`, so escaping all of them leaves no
 * delimiter at all: what the user sees (and copies) is exactly the input. In a linked-text host the
 * backslashes would show, but no `](` survives (every `(` follows a backslash), so nothing links.
 */
export function escapeMarkdownInline(text: string): string {
    return text.replace(ASCII_PUNCTUATION, ch => `\\${ch}`);
}

/**
 * Puts a WORD JOINER inside each token a renderer could build on, leaving the text visibly
 * unchanged: `](` (inline links and images, both hosts), `<` before a letter (markdown autolinks
 * and HTML), `$(` (codicons), `&` before a name or `#` (entities), `~~` (strikethrough) and `\`
 * before punctuation (escapes). Emphasis and code spans cannot be broken invisibly in markdown; use
 * `'markdown'` there.
 */
export function breakLinkedText(text: string): string {
    return text
        .replace(/\](?=\()/g, `]${WORD_JOINER}`)
        .replace(/<(?=[A-Za-z/!?])/g, `<${WORD_JOINER}`)
        .replace(/\$(?=\()/g, `$${WORD_JOINER}`)
        .replace(/&(?=[A-Za-z#])/g, `&${WORD_JOINER}`)
        .replace(/~(?=~)/g, `~${WORD_JOINER}`)
        .replace(/\\(?=[!-/:-@[-`{-~])/g, `\\${WORD_JOINER}`);
}

/**
 * A system notification's text (the desktop's notification service: libnotify on Linux, whose
 * servers may read the body as markup — `<b>`, `<a href>`, `<img src>`, entities — and turn what
 * looks like an address into a link that a click opens instead of the IDE: GNOME Shell and Cinnamon
 * find `scheme://…` and `www.…`; macOS and Windows show it as text). Cleaned as every notification
 * is, then `<`, `>` and `&` become their small forms (U+FE64, U+FE65, U+FE60), so no server can find
 * a tag or an entity in it, and a WORD JOINER goes before every `.` and `:`, so none finds an address;
 * what is seen does not change otherwise.
 */
export function systemNotificationText(text: string, max = MAX_NOTIFICATION_TEXT): string {
    return cleanNotificationText(text, max)
        .replace(/[<>&]/g, ch => SMALL_FORMS[ch])
        .replace(/[.:]/g, ch => `${WORD_JOINER}${ch}`);
}

const SMALL_FORMS: Readonly<Record<string, string>> = { '<': '\ufe64', '>': '\ufe65', '&': '\ufe60' };
