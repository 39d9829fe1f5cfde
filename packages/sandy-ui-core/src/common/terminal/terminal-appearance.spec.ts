import { expect } from 'chai';
import { DEFAULT_TERMINAL_APPEARANCE, sameTerminalAppearance, terminalAppearance, TerminalAppearanceSetting } from './terminal-appearance';

/** The values as the user's settings. */
const read = (values: Partial<Record<TerminalAppearanceSetting, unknown>>) => terminalAppearance(key => ({ globalValue: values[key] }));

describe('terminal appearance (the host\'s terminal.integrated.* settings)', () => {
    it('nothing set: a steady block cursor and the view\'s own font, as both hosts\' terminals default', () => {
        expect(read({})).to.deep.equal(DEFAULT_TERMINAL_APPEARANCE);
        expect(DEFAULT_TERMINAL_APPEARANCE.cursorBlink).to.equal(false);
    });

    it('takes the user\'s cursor and font, with the hosts\' "line" as xterm\'s bar', () => {
        expect(read({
            'terminal.integrated.cursorBlinking': true,
            'terminal.integrated.cursorStyle': 'line',
            'terminal.integrated.fontSize': 17,
            'terminal.integrated.fontFamily': ' "Fira Code", monospace ',
            'terminal.integrated.lineHeight': 1.2
        })).to.deep.equal({ cursorBlink: true, cursorStyle: 'bar', fontSize: 17, fontFamily: '"Fira Code", monospace', lineHeight: 1.2 });
        expect(read({ 'terminal.integrated.cursorStyle': 'underline' }).cursorStyle).to.equal('underline');
    });

    it('a settings file written by a hostile repository or agent: wrong types and absurd values count as unset', () => {
        const hostile = read({
            'terminal.integrated.cursorBlinking': 'true',
            'terminal.integrated.cursorStyle': { toString: () => 'bar' },
            'terminal.integrated.fontSize': 0.5,
            'terminal.integrated.fontFamily': 'x'.repeat(301),
            'terminal.integrated.lineHeight': Number.POSITIVE_INFINITY
        });
        expect(hostile).to.deep.equal(DEFAULT_TERMINAL_APPEARANCE);
        for (const fontSize of [Number.NaN, -14, 5, 101, 1e9, '14', null]) {
            expect(read({ 'terminal.integrated.fontSize': fontSize }).fontSize, String(fontSize)).to.equal(undefined);
        }
        for (const family of ['', '   ', 'mono\u001b]52;c;eA==\u0007', 'a\nb', 42]) {
            expect(read({ 'terminal.integrated.fontFamily': family }).fontFamily, JSON.stringify(family)).to.equal(undefined);
        }
        for (const lineHeight of [0, 0.9, 3.5, Number.NaN]) {
            expect(read({ 'terminal.integrated.lineHeight': lineHeight }).lineHeight, String(lineHeight)).to.equal(undefined);
        }
    });

    it('the most specific valid value counts: a workspace\'s absurd one falls back to the user\'s, then the host default', () => {
        const appearance = terminalAppearance(key => key === 'terminal.integrated.fontSize'
            ? { defaultValue: 14, globalValue: 20, workspaceValue: 1e6, workspaceFolderValue: 'huge' }
            : key === 'terminal.integrated.cursorBlinking' ? { defaultValue: false, workspaceValue: true } : undefined);
        expect(appearance.fontSize, 'the user\'s 20, not the workspace\'s 1e6').to.equal(20);
        expect(appearance.cursorBlink, 'a valid workspace value is the workspace\'s to set, as for the host\'s terminal').to.equal(true);
        expect(terminalAppearance(() => ({ defaultValue: 14, workspaceValue: 5 })).fontSize).to.equal(14);
    });

    it('compares by value (hosts send or apply a change only when there is one)', () => {
        const a = read({ 'terminal.integrated.fontSize': 14 });
        expect(sameTerminalAppearance(a, read({ 'terminal.integrated.fontSize': 14 }))).to.equal(true);
        expect(sameTerminalAppearance(a, read({ 'terminal.integrated.fontSize': 15 }))).to.equal(false);
        expect(sameTerminalAppearance(a, read({ 'terminal.integrated.fontSize': 14, 'terminal.integrated.cursorBlinking': true }))).to.equal(false);
    });
});
