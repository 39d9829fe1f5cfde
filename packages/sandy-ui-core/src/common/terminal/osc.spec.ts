import { expect } from 'chai';
import {
    decodeBase64, MAX_CLIPBOARD_PAYLOAD, MAX_NOTIFICATION_BYTES, MAX_PENDING_OSC99, Osc99Assembler, OscEventParser,
    parseOsc52, parseOsc777, parseOsc8, parseOsc9, sanitizeText
} from './osc';

const text = (bytes: Uint8Array | undefined): string | undefined => bytes && new TextDecoder().decode(bytes);

describe('osc (unit)', () => {

    describe('decodeBase64', () => {
        it('decodes padded, unpadded and URL-safe input to bytes', () => {
            expect(text(decodeBase64('aMOpbGxvIOKckw=='))).to.equal('héllo ✓');
            expect(text(decodeBase64('SGVsbG8'))).to.equal('Hello');
            expect(text(decodeBase64('SGVsbG8='))).to.equal('Hello');
            expect(Array.from(decodeBase64('-_8=')!)).to.deep.equal([0xfb, 0xff]);
            expect(decodeBase64('')!.length).to.equal(0);
        });
        it('rejects invalid characters, bad padding and impossible lengths', () => {
            expect(decodeBase64('SGV$bG8=')).to.equal(undefined);
            expect(decodeBase64('SG=sbG8=')).to.equal(undefined);
            expect(decodeBase64('SGVsbG8===')).to.equal(undefined);
            expect(decodeBase64('SGVsb')).to.equal(undefined);
            expect(decodeBase64('SGVsbG8 ')).to.equal(undefined);
            expect(decodeBase64('QQ=')).to.equal(undefined);
            expect(decodeBase64('é')).to.equal(undefined);
        });
    });

    describe('sanitizeText', () => {
        it('strips C0/C1/DEL and bidi controls, keeps newlines only in bodies', () => {
            expect(sanitizeText('a\x1b[31mb\x07c\x9b\x7fd\u202ee', true)).to.equal('a[31mbcde');
            expect(sanitizeText(' one\ntwo\r\n ', true)).to.equal('one\ntwo');
            expect(sanitizeText('one\ntwo', false)).to.equal('one two');
        });
    });

    describe('OSC 9', () => {
        it('is a notification', () => {
            expect(parseOsc9('Build finished')).to.deep.equal({ kind: 'notify', body: 'Build finished', source: 'osc9' });
        });
        it('ignores ConEmu progress (9;4;…) and every other 9;N subcommand', () => {
            expect(parseOsc9('4;1;50')).to.equal(undefined);
            expect(parseOsc9('4;0')).to.equal(undefined);
            expect(parseOsc9('2;message box')).to.equal(undefined);
            expect(parseOsc9('9;/home/u')).to.equal(undefined);
            expect(parseOsc9('12')).to.equal(undefined);
        });
        it('keeps text that merely starts with a digit', () => {
            expect(parseOsc9('3 tests failed')?.body).to.equal('3 tests failed');
        });
        it('strips control characters and refuses empty or oversized bodies', () => {
            expect(parseOsc9('\x1b]0;pwned\x07Done')?.body).to.equal(']0;pwnedDone');
            expect(parseOsc9('\x01\x02')).to.equal(undefined);
            expect(parseOsc9('')).to.equal(undefined);
            expect(parseOsc9('x'.repeat(MAX_NOTIFICATION_BYTES + 1))).to.equal(undefined);
        });
    });

    describe('OSC 777', () => {
        it('parses notify;title;body, the body may contain ;', () => {
            expect(parseOsc777('notify;Claude Code;Permission needed; now')).to.deep.equal({
                kind: 'notify', title: 'Claude Code', body: 'Permission needed; now', source: 'osc777'
            });
        });
        it('uses the title as body when the body is empty', () => {
            expect(parseOsc777('notify;Only title;')).to.deep.equal({ kind: 'notify', body: 'Only title', source: 'osc777' });
        });
        it('refuses other verbs, missing fields and oversized payloads', () => {
            expect(parseOsc777('preexec')).to.equal(undefined);
            expect(parseOsc777('notify;title')).to.equal(undefined);
            expect(parseOsc777('notify;;')).to.equal(undefined);
            expect(parseOsc777(`notify;t;${'x'.repeat(MAX_NOTIFICATION_BYTES)}`)).to.equal(undefined);
        });
    });

    describe('OSC 99 (kitty)', () => {
        it('shows a single-chunk notification (title only → body)', () => {
            expect(new Osc99Assembler().push(';Hello world')).to.deep.equal({ kind: 'notify', body: 'Hello world', source: 'osc99', id: undefined });
        });
        it('assembles title and body across chunks until d=1', () => {
            const a = new Osc99Assembler();
            expect(a.push('i=1:d=0;Hel')).to.equal(undefined);
            expect(a.push('i=1:d=0;lo')).to.equal(undefined);
            expect(a.pendingCount).to.equal(1);
            expect(a.push('i=1:p=body;world')).to.deep.equal({ kind: 'notify', title: 'Hello', body: 'world', source: 'osc99', id: '1' });
            expect(a.pendingCount).to.equal(0);
        });
        it('decodes base64 chunks, even when a UTF-8 character is split between them', () => {
            const a = new Osc99Assembler();
            expect(a.push('i=x:d=0:e=1;RG9uZSA=')).to.equal(undefined);
            expect(a.push('i=x:d=0:e=1;4g==')).to.equal(undefined);
            expect(a.push('i=x:e=1;nJM=')).to.deep.include({ body: 'Done ✓' });
        });
        it('keeps separate ids apart', () => {
            const a = new Osc99Assembler();
            a.push('i=a:d=0;A-title');
            a.push('i=b:d=0;B-title');
            expect(a.push('i=a:p=body;A-body')).to.deep.include({ title: 'A-title', body: 'A-body' });
            expect(a.push('i=b:p=body;B-body')).to.deep.include({ title: 'B-title', body: 'B-body' });
        });
        it('never answers a query and ignores close', () => {
            const a = new Osc99Assembler();
            expect(a.push('i=q:p=?;')).to.deep.equal({ kind: 'ignored', reason: 'osc99-query' });
            expect(a.push('i=q:p=close;')).to.equal(undefined);
        });
        it('drops malformed chunks and oversized notifications', () => {
            const a = new Osc99Assembler();
            expect(a.push('no-separator')).to.equal(undefined);
            expect(a.push('d=2;x')).to.equal(undefined);
            expect(a.push('e=1;not base64!')).to.equal(undefined);
            expect(a.push('i=bad id;x')).to.equal(undefined);
            expect(a.push('garbage;x')).to.equal(undefined);
            const half = 'x'.repeat(MAX_NOTIFICATION_BYTES / 2 + 1);
            expect(a.push(`i=big:d=0;${half}`)).to.equal(undefined);
            expect(a.push(`i=big:d=0;${half}`)).to.equal(undefined);
            expect(a.pendingCount).to.equal(0);
            expect(a.push('i=big;tail')).to.deep.include({ body: 'tail' });
        });
        it('bounds the number of pending notifications', () => {
            const a = new Osc99Assembler();
            for (let i = 0; i < MAX_PENDING_OSC99 + 5; i++) {
                a.push(`i=n${i}:d=0;t`);
            }
            expect(a.pendingCount).to.equal(MAX_PENDING_OSC99);
        });
    });

    describe('OSC 52', () => {
        it('decodes a clipboard write, including tmux\'s empty target form', () => {
            expect(parseOsc52('c;aMOpbGxvIOKckw==')).to.deep.equal({ kind: 'clipboard', text: 'héllo ✓', targets: 'c' });
            expect(parseOsc52(';bGluZTEKbGluZTI=')).to.deep.equal({ kind: 'clipboard', text: 'line1\nline2', targets: '' });
            expect(parseOsc52('ps01;SGVsbG8=')).to.deep.include({ text: 'Hello' });
        });
        it('never answers a read request', () => {
            expect(parseOsc52('c;?')).to.deep.equal({ kind: 'ignored', reason: 'clipboard-read' });
            expect(parseOsc52(';?')).to.deep.equal({ kind: 'ignored', reason: 'clipboard-read' });
        });
        it('refuses bad targets, bad base64, empty and oversized payloads', () => {
            expect(parseOsc52('x;SGVsbG8=')).to.equal(undefined);
            expect(parseOsc52('c;@@@')).to.equal(undefined);
            expect(parseOsc52('c;')).to.equal(undefined);
            expect(parseOsc52('SGVsbG8=')).to.equal(undefined);
            expect(parseOsc52(`c;${'A'.repeat(MAX_CLIPBOARD_PAYLOAD + 4)}`)).to.equal(undefined);
        });
    });

    describe('OSC 8', () => {
        it('accepts http, https and file links', () => {
            expect(parseOsc8(';https://example.com/a;b')).to.deep.equal({ kind: 'hyperlink', uri: 'https://example.com/a;b' });
            expect(parseOsc8('id=x1;http://example.com')).to.deep.equal({ kind: 'hyperlink', uri: 'http://example.com', id: 'x1' });
            expect(parseOsc8(';file:///home/u/f.txt')).to.deep.include({ kind: 'hyperlink' });
        });
        it('ends a link on an empty URI', () => {
            expect(parseOsc8(';')).to.deep.equal({ kind: 'hyperlink-end' });
        });
        it('ignores other schemes and refuses malformed URIs', () => {
            expect(parseOsc8(';javascript:alert(1)')).to.deep.equal({ kind: 'ignored', reason: 'link-scheme' });
            expect(parseOsc8(';vscode://ext/cmd')).to.deep.equal({ kind: 'ignored', reason: 'link-scheme' });
            expect(parseOsc8(';data:text/html,x')).to.deep.equal({ kind: 'ignored', reason: 'link-scheme' });
            for (const uri of ['command:workbench.action.terminal.sendSequence?%7B%7D', 'COMMAND:terminal:new', 'theia:x', 'mailto:a@b.c', 'vbscript:x']) {
                expect(parseOsc8(`;${uri}`), uri).to.deep.equal({ kind: 'ignored', reason: 'link-scheme' });
            }
            expect(parseOsc8(';https://exa mple.com')).to.equal(undefined);
            expect(parseOsc8(';https://example.com/\x1b')).to.equal(undefined);
            expect(parseOsc8(';not a uri')).to.equal(undefined);
            expect(parseOsc8('https://no-params-separator')).to.equal(undefined);
            expect(parseOsc8(`;https://e.com/${'a'.repeat(9000)}`)).to.equal(undefined);
        });
    });

    describe('OscEventParser', () => {
        it('dispatches by ident and by full sequence', () => {
            const p = new OscEventParser();
            expect(p.parse(9, 'hi')).to.deep.include({ kind: 'notify', source: 'osc9' });
            expect(p.parse(777, 'notify;t;b')).to.deep.include({ source: 'osc777' });
            expect(p.parse(99, ';t')).to.deep.include({ source: 'osc99' });
            expect(p.parse(52, 'c;?')).to.deep.include({ kind: 'ignored' });
            expect(p.parseSequence('9;4;1;20')).to.equal(undefined);
            expect(p.parseSequence('52;c;SGVsbG8=')).to.deep.include({ text: 'Hello' });
            expect(p.parse(0, 'title')).to.equal(undefined);
            expect(p.parseSequence('nonsense')).to.equal(undefined);
        });
        it('never throws on hostile input', () => {
            const p = new OscEventParser();
            const inputs = ['', ';', ';;;', '\u0000', '\uffff', 'i=:d=;', '=;=', '99;99;99', '\ud800', 'e=1;=', 'p=body;'];
            for (const ident of [8, 9, 52, 99, 777]) {
                for (const input of inputs) {
                    expect(() => p.parse(ident, input)).not.to.throw();
                    expect(() => p.parse(ident, undefined as unknown as string)).not.to.throw();
                }
            }
        });
    });
});
