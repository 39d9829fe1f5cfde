import { expect } from 'chai';
import {
    breakLinkedText, cleanNotificationText, escapeMarkdownInline, MAX_NOTIFICATION_TEXT, plainNotificationText, WORD_JOINER
} from './notification-text';
import { notificationText } from '../host/labels';

/**
 * VS Code's notification "linked text" grammar, as its notifications render a message (see
 * notification-text.ts): `[label](target)` with a target starting `http://`, `https://`, `command:`
 * or `file:` and holding no `)` or white space, optionally followed by a quoted title, is a link;
 * all else is text. (The markdown renderer, Theia's, is checked with the real markdown-it in
 * sandy-ui-ext's notification-rendering.spec.ts.)
 */
function linkedText(text: string): { links: string[]; shown: string } {
    const links: string[] = [];
    const grammar = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)\3)?\)/gi;
    const shown = text.replace(grammar, (_all, label: string, href: string) => {
        links.push(href);
        return label;
    });
    return { links, shown };
}

/** What a reader sees of the linked-text form: WORD JOINERs are invisible. */
function visible(text: string): string {
    return text.split(WORD_JOINER).join('');
}

/** What markdown-it shows for our escaped form when every `\x` is an escape (checked for real in the ext spec). */
function unescapeMarkdown(text: string): string {
    return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

const ATTACKS = [
    '[Show details](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22touch%20PWNED%5Cn%22%7D)',
    '[Open](https://evil.example/) and [passwd](file:///etc/passwd) and [t](command:x "a title")',
    'CLICK [HERE](COMMAND:terminal:new)',
    '![pixel](http://127.0.0.1:9/leak?secret=1)',
    '[[nested](command:a)](command:b)',
    '\\[pre-escaped\\](command:y) and [a]\\(command:z)',
    '<command:terminal:new> <https://evil.example> <a@b.example>',
    'bare command:terminal:new https://evil.example file:///etc/passwd',
    '<a href="command:terminal:new">Build</a><img src=x onerror=alert(1)><script>alert(1)</script>',
    '$(zap) $(sync~spin) **bold** __b__ *it* _it_ `code` ``x`` ~~gone~~ &amp; &#91; &lt;',
    'a\\*b \\\\ end\\',
    'tab\there [x](command:a)'
];

describe('notification text', () => {
    describe('cleanNotificationText', () => {
        it('removes controls, bidi overrides and marks, tag characters; line breaks and tabs become spaces', () => {
            expect(cleanNotificationText('a\x1b[31mred\x07\x00\x7f\x9b!')).to.equal('a[31mred!');
            expect(cleanNotificationText('invoice\u202Egnp.exe')).to.equal('invoicegnp.exe');
            expect(cleanNotificationText('\u2066x\u2069 \u200Fy\u200E \u061Cz \u202Aw\u202C')).to.equal('x y z w');
            expect(cleanNotificationText('hidden\u{E0041}\u{E0042}\u{E007F} tags')).to.equal('hidden tags');
            expect(cleanNotificationText('one\ntwo\r\nthree\rfour\u2028five\u2029six\u0085seven\tend')).to.equal('one two three four five six seven end');
            expect(cleanNotificationText('\ufeff  padded  ')).to.equal('padded');
        });

        it('keeps emoji, joiners and other scripts', () => {
            expect(cleanNotificationText('done 👨‍👩‍👧 ✓ مرحبا 日本')).to.equal('done 👨‍👩‍👧 ✓ مرحبا 日本');
        });

        it('caps long text with an ellipsis, never splitting a surrogate pair', () => {
            const long = cleanNotificationText('a'.repeat(5000));
            expect(Array.from(long)).to.have.length(MAX_NOTIFICATION_TEXT);
            expect(long.endsWith('\u2026')).to.equal(true);
            const emoji = cleanNotificationText('😀'.repeat(500));
            expect(Array.from(emoji)).to.have.length(MAX_NOTIFICATION_TEXT);
            expect(emoji).to.not.match(/[\ud800-\udbff](?![\udc00-\udfff])/);
            expect(cleanNotificationText('short', 3)).to.equal('sh\u2026');
            expect(cleanNotificationText('exact', 5)).to.equal('exact');
        });
    });

    describe("plainNotificationText(…, 'linked-text') — VS Code", () => {
        for (const attack of ATTACKS) {
            it(`shows ${JSON.stringify(attack.slice(0, 60))} as sent, with no link`, () => {
                const out = plainNotificationText(attack, 'linked-text');
                const rendered = linkedText(out);
                expect(rendered.links, out).to.deep.equal([]);
                expect(visible(rendered.shown)).to.equal(cleanNotificationText(attack));
                expect(out).to.not.contain('](');
                expect(out).to.not.match(/\$\(/);
                expect(out).to.not.match(/<[A-Za-z/!?]/);
            });
        }

        it('is the text itself when nothing could form a token', () => {
            expect(plainNotificationText('Permission needed: run tests? (y/n) 3 < 4 & [done]', 'linked-text'))
                .to.equal('Permission needed: run tests? (y/n) 3 < 4 & [done]');
        });

        it('proves its grammar model: the raw attack would have linked', () => {
            expect(linkedText(ATTACKS[0]).links).to.deep.equal([ATTACKS[0].slice(ATTACKS[0].indexOf('(') + 1, -1)]);
            expect(linkedText(ATTACKS[2]).links).to.deep.equal(['COMMAND:terminal:new']);
        });
    });

    describe("plainNotificationText(…, 'markdown') — Theia", () => {
        for (const attack of ATTACKS) {
            it(`escapes ${JSON.stringify(attack.slice(0, 60))} so it shows as sent, and links nothing in VS Code either`, () => {
                const out = plainNotificationText(attack, 'markdown');
                expect(unescapeMarkdown(out)).to.equal(cleanNotificationText(attack));
                // Every ASCII punctuation character is escaped: no markdown delimiter is left.
                expect(out.replace(/\\[!-/:-@[-`{-~]/g, '')).to.not.match(/[!-/:-@[-`{-~]/);
                expect(linkedText(out).links, out).to.deep.equal([]);
            });
        }

        it('leaves letters, digits, spaces and non-ASCII alone', () => {
            expect(escapeMarkdownInline('Tests pass 42 ✓ é')).to.equal('Tests pass 42 ✓ é');
            expect(escapeMarkdownInline('a.b')).to.equal('a\\.b');
        });
    });

    describe('breakLinkedText', () => {
        it('puts a word joiner into each token and nowhere else', () => {
            const j = WORD_JOINER;
            expect(breakLinkedText('[a](b)')).to.equal(`[a]${j}(b)`);
            expect(breakLinkedText('<x> <1 a<b')).to.equal(`<${j}x> <1 a<${j}b`);
            expect(breakLinkedText('$(zap) $x')).to.equal(`$${j}(zap) $x`);
            expect(breakLinkedText('&amp; & x')).to.equal(`&${j}amp; & x`);
            expect(breakLinkedText('~~s~~ ~')).to.equal(`~${j}~s~${j}~ ~`);
            expect(breakLinkedText('\\* \\a')).to.equal(`\\${j}* \\a`);
        });
    });

    describe('notificationText', () => {
        it('names the project, joins title and body, and escapes the whole message for the renderer', () => {
            const n = { title: '[t](command:a)', body: '[b](command:b)' };
            expect(visible(notificationText('/w/proj', n, 'linked-text'))).to.equal('sandy (proj): [t](command:a): [b](command:b)');
            expect(linkedText(notificationText('/w/proj', n, 'linked-text')).links).to.deep.equal([]);
            expect(unescapeMarkdown(notificationText('/w/proj', n, 'markdown'))).to.equal('sandy (proj): [t](command:a): [b](command:b)');
            expect(notificationText('/w/my-proj', { body: 'Done' }, 'markdown')).to.equal('sandy \\(my\\-proj\\)\\: Done');
        });

        it('counts the notifications folded into it, and keeps the count visible past the cap', () => {
            expect(notificationText('/w/p', { body: 'latest' }, 'linked-text', 998)).to.equal('sandy (p): latest (and 998 more)');
            expect(notificationText('/w/p', { body: 'x'.repeat(5000) }, 'linked-text', 3)).to.match(/x\u2026 \(and 3 more\)$/);
            expect(notificationText('/w/p', { body: 'one' }, 'linked-text', 0)).to.equal('sandy (p): one');
        });

        it('escapes a hostile folder name too', () => {
            expect(linkedText(notificationText('/w/[x](command:y)', { body: 'b' }, 'linked-text')).links).to.deep.equal([]);
        });
    });
});
