import { expect } from 'chai';
import { browserKeepsKey, chordBindings, commandForChord, DEFAULT_IDE_KEYS, ideKeyChords, isIdeKey, parseKeyChord } from './ide-keys';

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

describe('the IDE keys a browser keeps from VS Code, and the plugin\'s commands for them', () => {
    const down = (code: string, keyCode: number, mods: Partial<Record<'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey', boolean>> = {}) => ({ ...key(code, mods), keyCode });
    const MANIFEST = [
        { command: 'sandy.stop', key: 'ctrl+shift+alt+x', mac: 'cmd+shift+alt+x' },
        { command: 'sandy.launch', key: 'ctrl+shift+alt+l', mac: 'cmd+shift+alt+l' },
        // Not a Sandy command, a chord sequence, and junk: never a binding here.
        { command: 'workbench.action.terminal.kill', key: 'ctrl+shift+alt+v' },
        { command: 'sandy.detach', key: 'ctrl+k ctrl+x' },
        null, 42, { command: 'sandy.refresh' }
    ];
    const SANDY = new Set(['sandy.stop', 'sandy.launch', 'sandy.detach', 'sandy.refresh']);

    it('Ctrl or Cmd with C, V or X (whatever else is held) and Shift+Insert, as VS Code\'s webview host tests them; nothing else', () => {
        expect(browserKeepsKey(down('KeyX', 88, { ctrlKey: true, shiftKey: true, altKey: true }))).to.equal(true);
        expect(browserKeepsKey(down('KeyX', 88, { metaKey: true, shiftKey: true, altKey: true }))).to.equal(true);
        expect(browserKeepsKey(down('KeyV', 86, { ctrlKey: true }))).to.equal(true);
        expect(browserKeepsKey(down('Insert', 45, { shiftKey: true }))).to.equal(true);
        for (const passed of [down('KeyP', 80, { ctrlKey: true }), down('F1', 112), down('KeyX', 88, { altKey: true, shiftKey: true }), down('KeyS', 83, { ctrlKey: true, shiftKey: true, altKey: true })]) {
            expect(browserKeepsKey(passed), passed.code).to.equal(false);
        }
    });

    it('finds the Sandy command bound to the chord pressed (the mac spelling on macOS); another command, a sequence or junk is never one', () => {
        const linux = chordBindings(MANIFEST, SANDY, false);
        expect(linux.map(b => b.command)).to.deep.equal(['sandy.stop', 'sandy.launch']);
        const stop = parseKeyChord('Ctrl+Shift+Alt+X', false)!;
        expect(commandForChord(stop, linux)).to.equal('sandy.stop');
        expect(commandForChord(parseKeyChord('Ctrl+Shift+Alt+V', false)!, linux), 'bound to a command that is not Sandy\'s').to.equal(undefined);
        expect(commandForChord(parseKeyChord('Ctrl+X', false)!, linux)).to.equal(undefined);
        expect(commandForChord(stop, chordBindings(MANIFEST, SANDY, true)), 'on macOS Ctrl is not Cmd').to.equal(undefined);
        expect(commandForChord(parseKeyChord('Cmd+Shift+Alt+X', true)!, chordBindings(MANIFEST, SANDY, true))).to.equal('sandy.stop');
        expect(chordBindings({ not: 'a list' }, SANDY, false)).to.deep.equal([]);
    });
});
