import { expect } from 'chai';
import { OscDispatcher, TerminalNotification } from './osc-dispatch';
import { isOfferedLink } from './links';

describe('OscDispatcher', () => {
    let notes: TerminalNotification[];
    let clips: string[];
    const WS = '/home/u/proj';

    function dispatcher(withPolicy = true): OscDispatcher {
        notes = [];
        clips = [];
        return new OscDispatcher({
            notify: n => notes.push(n),
            clipboard: t => clips.push(t),
            acceptsLink: withPolicy ? uri => isOfferedLink(uri, WS) : undefined
        });
    }

    it('registers for titles, cwd and iTerm2 sequences, and swallows them (the agent sets no title)', () => {
        const d = dispatcher();
        for (const ident of [0, 1, 2, 7, 1337]) {
            expect(OscDispatcher.IDENTS).to.include(ident);
            expect(d.handle(ident, '[evil](command:terminal:new)'), `OSC ${ident}`).to.equal(true);
        }
        expect(notes).to.deep.equal([]);
    });

    it('hands notifications on as parsed (the host neutralises them for its renderer)', () => {
        const d = dispatcher();
        expect(d.handle(9, '[Show details](command:x)')).to.equal(true);
        expect(notes).to.deep.equal([{ title: undefined, body: '[Show details](command:x)', source: 'osc9' }]);
    });

    it('leaves offered links to xterm and swallows the rest, so they are no links', () => {
        const d = dispatcher();
        expect(d.handle(8, ';https://example.com/'), 'https').to.equal(false);
        expect(d.handle(8, `;file://${WS}/README.md`), 'file inside').to.equal(false);
        expect(d.handle(8, ';'), 'link end').to.equal(false);
        for (const uri of ['file:///etc/passwd', `file://${WS}/../x`, 'command:terminal:new', 'javascript:alert(1)', 'data:text/html,x', 'mailto:a@b.c',
            'https://exa mple.com', 'https://u:p@example.com/']) {
            expect(d.handle(8, `;${uri}`), uri).to.equal(true);
        }
    });

    it('without a workspace policy, still offers no scheme but http, https and file', () => {
        const d = dispatcher(false);
        expect(d.handle(8, ';file:///etc/passwd')).to.equal(false);
        expect(d.handle(8, ';command:x')).to.equal(true);
    });

    it('while muted (a replay), consumes notifications and clipboard writes without acting on them', () => {
        const d = dispatcher();
        d.muted = true;
        expect(d.handle(9, 'old news')).to.equal(true);
        expect(d.handle(52, ';aGk=')).to.equal(true);
        expect(d.handle(8, ';https://example.com/')).to.equal(false);
        expect(notes).to.deep.equal([]);
        expect(clips).to.deep.equal([]);
        d.muted = false;
        d.handle(9, 'new');
        d.handle(52, ';aGk=');
        expect(notes.map(n => n.body)).to.deep.equal(['new']);
        expect(clips).to.deep.equal(['hi']);
    });

    it('treats a policy that throws as a refusal', () => {
        const d = new OscDispatcher({ notify: () => undefined, clipboard: () => undefined, acceptsLink: () => { throw new Error('x'); } });
        expect(d.handle(8, ';https://example.com/')).to.equal(true);
    });
});
