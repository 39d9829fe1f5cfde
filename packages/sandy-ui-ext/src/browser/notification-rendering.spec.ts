import '@theia/core/shared/reflect-metadata';
import { expect } from 'chai';
import * as path from 'path';
import { notificationText } from '@sandy-ui/core/common';
import { cleanNotificationText, plainNotificationText, WORD_JOINER } from '@sandy-ui/core/common';

/**
 * Core's neutraliser against the renderer the Sandy IDE really uses for MessageService toasts:
 * @theia/messages' NotificationContentRenderer (markdown-it inline, HTML off), loaded from the
 * browser-app's own dependencies, as the built app bundles it.
 */
interface ContentRenderer {
    renderMessage(content: string): string;
}
const appDir = path.resolve(__dirname, '..', '..', '..', '..', 'browser-app');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { NotificationContentRenderer } = require(require.resolve('@theia/messages/lib/browser/notification-content-renderer', { paths: [appDir] })) as {
    NotificationContentRenderer: new () => ContentRenderer;
};

/** The text a browser shows for the renderer's HTML (it escapes &, <, >, " and ' in text). */
function shownText(html: string): string {
    return html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, '\'').replace(/&amp;/g, '&');
}

const ATTACKS = [
    '[Show details](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22touch%20PWNED%5Cn%22%7D)',
    'CLICK [HERE](COMMAND:terminal:new "title") [w](https://evil.example/)',
    '![pixel](http://127.0.0.1:9/leak?secret=1)',
    '[[nested](command:a)](command:b) [x]\n(command:y)',
    '\\[pre-escaped\\](command:y) [a]\\(command:z)',
    '<command:terminal:new> <https://evil.example> <a@b.example>',
    'bare command:terminal:new https://evil.example www.evil.example',
    '<a href="command:terminal:new">Build</a><img src=x onerror=alert(1)><script>alert(1)</script>',
    '$(zap) **bold** __b__ *it* _it_ `code` ``x`` ~~gone~~ &amp; &#91; &lt; a\\*b \\\\ end\\',
    '[ref]: command:x\n[ref] [ref][] [x][ref]'
];

describe('notification text in Theia\'s notification renderer (@theia/messages)', () => {
    const renderer = new NotificationContentRenderer();

    it('is the renderer that turned the attack into a command link (so this spec can fail)', () => {
        expect(renderer.renderMessage(ATTACKS[0])).to.match(/<a href="command:workbench\.action\.terminal\.sendSequence/);
        expect(renderer.renderMessage('<command:terminal:new>')).to.contain('<a href="command:terminal:new"');
        expect(renderer.renderMessage('![p](http://h/x)')).to.contain('<img');
        expect(renderer.renderMessage('**b**')).to.contain('<strong>');
    });

    for (const attack of ATTACKS) {
        it(`'markdown' shows ${JSON.stringify(attack.slice(0, 50))} exactly as sent, as text only`, () => {
            const html = renderer.renderMessage(plainNotificationText(attack, 'markdown'));
            expect(html, html).to.not.match(/<[a-z]/i);
            expect(shownText(html)).to.equal(cleanNotificationText(attack));
        });

        it(`'linked-text' (VS Code's form) forms no link or image from ${JSON.stringify(attack.slice(0, 50))} either`, () => {
            const html = renderer.renderMessage(plainNotificationText(attack, 'linked-text'));
            expect(html, html).to.not.match(/<(a|img)\b/i);
            expect(html, html).to.not.match(/\s(href|src)="/);
        });
    }

    it('shows a whole Sandy notification as sent', () => {
        const n = { title: '<a href="command:terminal:new">Build</a>', body: '[Show details](command:x) **done**' };
        const html = renderer.renderMessage(notificationText('/home/u/work/e2e-proj', n, 'markdown', 2));
        expect(html).to.not.match(/<[a-z]/i);
        expect(shownText(html)).to.equal(`sandy (e2e-proj): ${n.title}: ${n.body} (and 2 more)`);
        expect(shownText(html)).to.not.contain(WORD_JOINER);
    });
});

describe('SandyMessages: every Sandy toast is text in Theia\'s renderer', () => {
    const renderer = new NotificationContentRenderer();

    it('a project folder named as a command link is shown as its name, not a link', async () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { SandyMessages } = require('./sandy-messages') as typeof import('./sandy-messages');
        const shown: string[] = [];
        const messages = new SandyMessages();
        const record = (m: string) => {
            shown.push(m);
            return Promise.resolve(undefined);
        };
        (messages as unknown as { messages: unknown }).messages = { info: record, warn: record, error: record };
        const name = '[Open](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D)';
        await messages.info(`Sandy: ${name} has no running session.`);
        await messages.error(`Sandy: sandbox of /home/u/${name} removed.`);
        for (const m of shown) {
            const html = renderer.renderMessage(m);
            expect(html, html).to.not.match(/<[a-z]/i);
            expect(shownText(html)).to.include(name);
        }
        expect(shown).to.have.length(2);
    });
});
