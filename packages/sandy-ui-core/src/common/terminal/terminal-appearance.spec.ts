import { expect } from 'chai';
import {
    DEFAULT_TERMINAL_APPEARANCE, DEFAULT_TERMINAL_FONT_FAMILY, sameTerminalAppearance, terminalAppearance, TerminalAppearanceSetting, terminalFontFamily
} from './terminal-appearance';

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
            'terminal.integrated.lineHeight': 1.2,
            'terminal.integrated.gpuAcceleration': 'off'
        })).to.deep.equal({ cursorBlink: true, cursorStyle: 'bar', fontSize: 17, fontFamily: '"Fira Code", monospace', lineHeight: 1.2, gpuAcceleration: 'off' });
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

    it('a font family is a CSS font-family list and nothing more: the family that would add CSS rules to the page is refused', () => {
        for (const family of ['Menlo, Monaco, "DejaVu Sans Mono", "Courier New", monospace', "'Droid Sans Mono', 'monospace', monospace",
            '"Fira Code"', 'Noto Sans Mono CJK JP', 'ＭＳ ゴシック, monospace', 'JetBrains_Mono-NL']) {
            expect(read({ 'terminal.integrated.fontFamily': family }).fontFamily, family).to.equal(family);
        }
        for (const family of [
            'monospace; } * { background: url(https://evil.example/x) } .y {',
            'monospace}</style><img src=x onerror=alert(1)>',
            '"a\\" ; color: red',
            '"mono"; } body { display: none',
            "'mono', url(https://evil.example/f.woff)",
            '@import "https://evil.example/x.css"',
            'mono,,sans',
            'mono, "unterminated'
        ]) {
            expect(read({ 'terminal.integrated.fontFamily': family }).fontFamily, family).to.equal(undefined);
        }
    });

    it('what xterm is given: the first candidate that is a family list (a host\'s fallback too: VS Code\'s editor font is a workspace\'s), else the default', () => {
        expect(terminalFontFamily(undefined, '"Droid Sans Mono", monospace')).to.equal('"Droid Sans Mono", monospace');
        expect(terminalFontFamily('Hack', '"Droid Sans Mono"')).to.equal('Hack');
        expect(terminalFontFamily(undefined, 'monospace; } .xterm-rows { display: none } .x {')).to.equal(DEFAULT_TERMINAL_FONT_FAMILY);
        expect(terminalFontFamily('', undefined)).to.equal(DEFAULT_TERMINAL_FONT_FAMILY);
    });

    it('the most specific valid value counts (folder, workspace, user, default); an invalid one falls through to the next', () => {
        const style = (scopes: Record<string, unknown>) => terminalAppearance(key => key === 'terminal.integrated.cursorStyle' ? scopes : undefined).cursorStyle;
        expect(style({ defaultValue: 'block', globalValue: 'underline', workspaceValue: 'line', workspaceFolderValue: 'block' })).to.equal('block');
        expect(style({ defaultValue: 'block', globalValue: 'underline', workspaceValue: 'line' })).to.equal('bar');
        expect(style({ defaultValue: 'block', globalValue: 'underline', workspaceValue: 'beam', workspaceFolderValue: 42 })).to.equal('underline');
        expect(style({ defaultValue: 'underline', globalValue: { evil: true } })).to.equal('underline');
        const family = terminalAppearance(key => key === 'terminal.integrated.fontFamily'
            ? { defaultValue: 'monospace', globalValue: '"Fira Code"', workspaceValue: 'mono; } * { color: red } .x {' } : undefined).fontFamily;
        expect(family, 'the workspace\'s CSS refused: the user\'s family').to.equal('"Fira Code"');
    });

    it('the font size and line height count only from the user and the default: a workspace\'s, even in range, would choose the agent\'s rows', () => {
        const appearance = terminalAppearance(key => key === 'terminal.integrated.fontSize'
            ? { defaultValue: 14, globalValue: 20, workspaceValue: 100, workspaceFolderValue: 90 }
            : key === 'terminal.integrated.lineHeight' ? { defaultValue: 1, workspaceValue: 3 }
                : key === 'terminal.integrated.cursorBlinking' ? { defaultValue: false, workspaceValue: true } : undefined);
        expect(appearance.fontSize, 'the user\'s 20, not the workspace\'s 100').to.equal(20);
        expect(appearance.lineHeight, 'the default 1, not the workspace\'s 3').to.equal(1);
        expect(appearance.cursorBlink, 'the cursor is the workspace\'s to set, as for the host\'s terminal').to.equal(true);
        expect(terminalAppearance(() => ({ defaultValue: 14, globalValue: 5 })).fontSize, 'the user\'s out-of-range value: the default').to.equal(14);
    });

    it('the renderer is the user\'s: a workspace\'s "on" (WebGL forced onto a software rasterizer) is ignored; anything but auto/on/off is unset', () => {
        const inspect = (gpu: Record<string, unknown>) => terminalAppearance(key => key === 'terminal.integrated.gpuAcceleration' ? gpu : undefined).gpuAcceleration;
        expect(inspect({ defaultValue: 'auto', workspaceValue: 'on', workspaceFolderValue: 'on' })).to.equal('auto');
        expect(inspect({ defaultValue: 'auto', globalValue: 'on', workspaceValue: 'off' })).to.equal('on');
        expect(inspect({ globalValue: 'off' })).to.equal('off');
        for (const hostile of ['canvas', 'ON', true, 1, { toString: () => 'on' }, ['on']]) {
            expect(inspect({ globalValue: hostile }), String(hostile)).to.equal('auto');
        }
        expect(sameTerminalAppearance(read({}), read({ 'terminal.integrated.gpuAcceleration': 'on' }))).to.equal(false);
    });

    it('compares by value (hosts send or apply a change only when there is one)', () => {
        const a = read({ 'terminal.integrated.fontSize': 14 });
        expect(sameTerminalAppearance(a, read({ 'terminal.integrated.fontSize': 14 }))).to.equal(true);
        expect(sameTerminalAppearance(a, read({ 'terminal.integrated.fontSize': 15 }))).to.equal(false);
        expect(sameTerminalAppearance(a, read({ 'terminal.integrated.fontSize': 14, 'terminal.integrated.cursorBlinking': true }))).to.equal(false);
    });
});
