import { FakeUri } from './testing/fake-vscode';
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import type * as vscode from 'vscode';
import { webviewHtml } from './webview-html';

/**
 * Attack: the webview pages now carry their bundles inline (webview-html.ts inlineBundle), so the
 * bundle's text is inside the page's HTML. Whatever a bundle holds — a string literal "</script>",
 * "<!--<script>" (the HTML parser's double-escaped script state), "</style>" in a stylesheet — must
 * not end the element early or start one, and the page's title (a workspace's folder name) must stay
 * text. The CSP must still allow only this page's nonce for scripts, with no 'unsafe-inline', and
 * the nonce must be fresh per page.
 */
describe('Attack: the inlined webview bundles break out of their <script>/<style> (unit)', () => {
    let root: string;
    const webview = {
        cspSource: 'vscode-resource:',
        asWebviewUri: (uri: FakeUri) => uri
    } as unknown as vscode.Webview;

    beforeEach(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-inline-'));
        fs.mkdirSync(path.join(root, 'dist', 'webview'), { recursive: true });
    });

    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    function page(script: string, style: string, title: string): string {
        fs.writeFileSync(path.join(root, 'dist', 'webview', 'terminal.js'), script);
        fs.writeFileSync(path.join(root, 'dist', 'webview', 'terminal.css'), style);
        return webviewHtml(webview, FakeUri.file(root) as unknown as vscode.Uri, 'terminal', title);
    }

    const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

    it('a bundle\'s "</script>", "<!--<script>" and "</style>" neither end nor open an element, and the script means the same', () => {
        const values = [
            '</script><script>globalThis.pwned = 1</script>',
            '</SCRIPT >',
            '</script\t/x>',
            '<!--<script>',
            '<!-- --> <script></script>',
            '</style><script>globalThis.pwned = 2</script>'
        ];
        const script = `globalThis.out = ${JSON.stringify(values)}; /* </script> <!-- */ // </script>\n`;
        const style = 'body::after { content: "</style><script>globalThis.pwned = 3</script>"; } /* </STYLE> */';
        const html = page(script, style, 'proj');

        // In a style (raw text) only "</style" ends it; in script data only "</script" does, and "<!--"
        // is where the escaped states begin. So the first of each must be the page's own closing tag.
        expect(html.indexOf('</style'), 'the style ends where the page ends it').to.equal(html.indexOf('</style>\n</head>'));
        const body = html.slice(html.indexOf('<body'));
        expect(body.search(/<\/script/i), 'the script ends where the page ends it').to.equal(body.indexOf('</script>\n</body>'));
        expect(body.indexOf('<!--'), 'no comment opener in the script (the double-escaped state)').to.equal(-1);

        const inline = /<script nonce="([^"]+)">([\s\S]*)<\/script>\s*<\/body>/.exec(html);
        expect(inline, 'the script is inline, with the nonce').to.not.equal(null);
        // The escaped script still computes the bundle's values.
        const context: { out?: string[]; pwned?: number } = {};
        vm.runInNewContext(inline![2], Object.assign(context, { globalThis: context }));
        expect(context.out).to.deep.equal(values);
        expect(context.pwned).to.equal(undefined);
        const styleText = /<style nonce="[^"]+">([\s\S]*?)<\/style>/.exec(html);
        expect(styleText, 'the stylesheet is inline, with the nonce').to.not.equal(null);
        expect(styleText![1], 'the stylesheet\'s own text, its "</style" escaped').to.equal(style.replace(/<\/style/gi, '<\\/style'));
    });

    it('the title (a folder name) stays text, and the CSP allows scripts by this page\'s nonce only', () => {
        const title = 'sandy: </title><script>globalThis.pwned = 4</script><meta http-equiv="Content-Security-Policy" content="script-src *">';
        const first = page('globalThis.ok = 1;', 'body { color: red; }', title);
        const second = page('globalThis.ok = 1;', 'body { color: red; }', title);
        expect(count(first, /<\/title/gi)).to.equal(1);
        expect(count(first, /<meta http-equiv/gi), 'one CSP, the page\'s own').to.equal(1);
        expect(count(first, /<script/gi), 'one script element').to.equal(1);
        const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(first)![1];
        const nonce = /<script nonce="([^"]+)">/.exec(first)![1];
        const scriptSrc = csp.split(';').map(s => s.trim()).find(s => s.startsWith('script-src'));
        expect(scriptSrc).to.equal(`script-src 'nonce-${nonce}'`);
        expect(csp).to.match(/^default-src 'none';/);
        expect(csp).to.not.match(/unsafe-eval/);
        expect(csp.split(';').map(s => s.trim()).filter(s => /unsafe-inline/.test(s)), 'only the terminal\'s style attributes')
            .to.deep.equal(["style-src-attr 'unsafe-inline'"]);
        expect(/<script nonce="([^"]+)">/.exec(second)![1], 'a fresh nonce per page').to.not.equal(nonce);
        // The CSP comes before the inline style and script it governs.
        expect(first.indexOf('Content-Security-Policy')).to.be.below(first.indexOf('<style'));
    });

    it('a stylesheet that refers to a file is not inlined (the bundles folder serves it, under the CSP)', () => {
        const html = page('globalThis.ok = 1;', '@font-face { src: url(font.woff2); }', 'proj');
        expect(html).to.not.match(/<style/);
        expect(html).to.match(/<link rel="stylesheet" href="[^"]*terminal\.css" nonce="/);
        expect(html).to.match(/<script nonce="[^"]+" src="[^"]*terminal\.js"><\/script>/);
    });
});
