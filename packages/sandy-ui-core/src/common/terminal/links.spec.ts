import { expect } from 'chai';
import { classifyLink, externalLinkPrompt, isInsideFolder, isOfferedLink, LINK_REFUSED_TEXT, normalisePosixPath } from './links';

const WS = '/home/u/work/proj';

describe('terminal link policy (classifyLink)', () => {
    it('opens http and https links outside', () => {
        expect(classifyLink('https://example.com/a?b=1#c', WS)).to.deep.equal({ kind: 'external', url: 'https://example.com/a?b=1#c' });
        expect(classifyLink('HTTP://Example.COM', WS)).to.deep.equal({ kind: 'external', url: 'http://example.com/' });
        expect(classifyLink('http://127.0.0.1:8080/x', undefined)).to.deep.include({ kind: 'external' });
    });

    it('refuses every other scheme, whatever its case', () => {
        for (const uri of [
            'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22touch%20PWNED%5Cn%22%7D',
            'COMMAND:terminal:new', 'vscode://vscode.git/clone?url=x', 'vscode-insiders://x', 'theia:x', 'javascript:alert(1)',
            'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', 'mailto:a@b.example', 'vbscript:x', 'ftp://example.com/', 'ssh://h',
            'blob:http://x/1', 'about:blank', 'chrome://settings', 'x-github-client://openRepo/x'
        ]) {
            const action = classifyLink(uri, WS);
            expect(action, uri).to.deep.include({ kind: 'refused' });
            expect(isOfferedLink(uri, WS), uri).to.equal(false);
        }
    });

    it('refuses what is not a valid URL, and says so without echoing it', () => {
        for (const uri of ['', 'not a url', 'https://exa mple.com', 'https://x/\x1b', '/etc/passwd', 'http://', `https://x/${'a'.repeat(9000)}`, 'https://x/\u202e']) {
            const action = classifyLink(uri, WS);
            expect(action, JSON.stringify(uri)).to.deep.include({ kind: 'refused' });
            if (action.kind === 'refused') {
                expect(Object.values(LINK_REFUSED_TEXT)).to.include(action.message);
            }
        }
    });

    it('refuses web links with a user name or password (https://docs.example@evil.example)', () => {
        expect(classifyLink('https://docs.example@evil.example/', WS)).to.deep.include({ kind: 'refused', reason: 'credentials' });
        expect(classifyLink('https://u:p@example.com/', WS)).to.deep.include({ kind: 'refused', reason: 'credentials' });
    });

    it('opens file links inside the workspace, decoded and normalised', () => {
        expect(classifyLink(`file://${WS}/src/a.ts`, WS)).to.deep.equal({ kind: 'file', url: `file://${WS}/src/a.ts`, path: `${WS}/src/a.ts` });
        expect(classifyLink(`file://localhost${WS}/a%20b.txt`, WS)).to.deep.include({ kind: 'file', path: `${WS}/a b.txt` });
        expect(classifyLink(`file://${WS}/x/../y/./z`, WS)).to.deep.include({ kind: 'file', path: `${WS}/y/z` });
        expect(classifyLink(`file://${WS}/a`, `${WS}/`)).to.deep.include({ kind: 'file', path: `${WS}/a` });
    });

    it('refuses file links outside the workspace, however the path is spelt', () => {
        for (const uri of [
            'file:///etc/passwd',
            `file://${WS}/../../../../etc/passwd`,
            `file://${WS}/..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
            `file://${WS}/%2e%2e/%2e%2e/secret`,
            `file://${WS}-other/x`,
            `file://${WS}`,
            `file://${WS}/`,
            'file:///home/u/.ssh/id_rsa',
            'file:///'
        ]) {
            expect(classifyLink(uri, WS), uri).to.deep.include({ kind: 'refused', reason: 'outside-workspace' });
        }
    });

    it('refuses file links on another host, with NUL or bad escapes, and every file link without a workspace', () => {
        expect(classifyLink(`file://evil.example${WS}/a`, WS)).to.deep.include({ kind: 'refused', reason: 'remote-file' });
        expect(classifyLink(`file://${WS}/a%00b`, WS)).to.deep.include({ kind: 'refused', reason: 'invalid' });
        expect(classifyLink(`file://${WS}/a%E0%A4%A`, WS)).to.deep.include({ kind: 'refused', reason: 'invalid' });
        expect(classifyLink(`file://${WS}/a`, undefined)).to.deep.include({ kind: 'refused', reason: 'outside-workspace' });
        expect(classifyLink(`file://${WS}/a`, 'relative/ws')).to.deep.include({ kind: 'refused', reason: 'outside-workspace' });
    });

    it('offers exactly the links it would open', () => {
        expect(isOfferedLink('https://example.com', WS)).to.equal(true);
        expect(isOfferedLink(`file://${WS}/README.md`, WS)).to.equal(true);
        expect(isOfferedLink('file:///etc/passwd', WS)).to.equal(false);
    });
});

describe('normalisePosixPath / isInsideFolder', () => {
    it('normalises absolute paths and refuses relative ones', () => {
        expect(normalisePosixPath('/a/./b//c/../d/')).to.equal('/a/b/d');
        expect(normalisePosixPath('/../../x')).to.equal('/x');
        expect(normalisePosixPath('/')).to.equal('/');
        expect(normalisePosixPath('a/b')).to.equal(undefined);
    });

    it('is inside only at a path-component boundary', () => {
        expect(isInsideFolder('/w/p/a', '/w/p')).to.equal(true);
        expect(isInsideFolder('/w/p', '/w/p')).to.equal(true);
        expect(isInsideFolder('/w/p', '/w/p/')).to.equal(true);
        expect(isInsideFolder('/w/p2/a', '/w/p')).to.equal(false);
        expect(isInsideFolder('/w', '/w/p')).to.equal(false);
        expect(isInsideFolder('/anything', '/')).to.equal(true);
    });
});

describe('externalLinkPrompt', () => {
    it('shows the exact URL the link opens', () => {
        const prompt = externalLinkPrompt('https://evil.example/?q=secret');
        expect(prompt.message).to.contain('https://evil.example/?q=secret');
        expect(prompt.title).to.equal('Open external link?');
    });
});
