import { expect } from 'chai';
import { DEFAULT_IDE_KEYS, ideKeyChords, isIdeKey, parseKeyChord } from './ide-keys';

const key = (code: string, mods: Partial<Record<'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey', boolean>> = {}) =>
    ({ code, ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, ...mods });

describe('the keys a sandy tab leaves to the IDE (sandy.terminal.ideKeys)', () => {
    it('by default: the palette, Quick Open and the Sandy chords reach the IDE; the agent\'s keys do not', () => {
        const chords = ideKeyChords(undefined, false);
        expect(chords).to.have.length(DEFAULT_IDE_KEYS.length);
        expect(isIdeKey(key('F1'), chords)).to.equal(true);
        expect(isIdeKey(key('KeyP', { ctrlKey: true, shiftKey: true }), chords)).to.equal(true);
        expect(isIdeKey(key('KeyP', { ctrlKey: true }), chords)).to.equal(true);
        expect(isIdeKey(key('KeyX', { ctrlKey: true, shiftKey: true, altKey: true }), chords)).to.equal(true);
        for (const agentKey of [key('KeyC', { ctrlKey: true }), key('KeyR', { ctrlKey: true }), key('KeyA', { ctrlKey: true }), key('F2'), key('Escape'), key('KeyP')]) {
            expect(isIdeKey(agentKey, chords), agentKey.code).to.equal(false);
        }
    });

    it('is the user\'s list: Ctrl+P can be given to the agent, and an empty list gives it everything', () => {
        const chords = ideKeyChords(['F1', 'Ctrl+Shift+P'], false);
        expect(isIdeKey(key('KeyP', { ctrlKey: true }), chords)).to.equal(false);
        expect(isIdeKey(key('F1'), ideKeyChords([], false))).to.equal(false);
    });

    it('parses the usual spellings (CtrlCmd is Cmd on macOS) and drops what is not a chord', () => {
        expect(parseKeyChord('ctrlcmd+p', true)).to.deep.equal({ ctrl: false, shift: false, alt: false, meta: true, code: 'KeyP' });
        expect(parseKeyChord('CtrlCmd+P', false)).to.deep.equal({ ctrl: true, shift: false, alt: false, meta: false, code: 'KeyP' });
        expect(parseKeyChord('Alt+`', false)?.code).to.equal('Backquote');
        expect(parseKeyChord('Ctrl+1', false)?.code).to.equal('Digit1');
        expect(parseKeyChord('Ctrl++', false)?.code).to.equal('Equal');
        for (const bad of ['', 'Hyper+P', 'Ctrl+', 'Ctrl+Shift+PP', 'x'.repeat(100)]) {
            expect(parseKeyChord(bad, false), bad).to.equal(undefined);
        }
        expect(ideKeyChords(['F1', 7, null, 'Nonsense+Q', { a: 1 }], false)).to.have.length(1);
        expect(ideKeyChords('F1', false), 'not a list: the default').to.have.length(DEFAULT_IDE_KEYS.length);
    });
});
