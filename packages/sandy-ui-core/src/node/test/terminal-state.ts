import type { Terminal } from '@xterm/headless';

/**
 * Everything about an xterm that drawing later output depends on, and everything its screen shows (cell
 * by cell: characters, widths, colours, attributes), for specs that compare two terminals. Underline is
 * compared as on or off: after DECRC xterm can hold an underline whose style it has lost (it saves only
 * the colour words), which no SGR recreates.

 */
export function terminalState(t: Terminal): unknown {
    const b = t.buffer.active;
    const cells: string[] = [];
    for (let y = 0; y < t.rows; y++) {
        const line = b.getLine(b.viewportY + y)!;
        let row = '';
        for (let x = 0; x < t.cols; x++) {
            const c = line.getCell(x)!;
            row += `${c.getChars() || ' '}${c.getWidth()}:${c.getFgColorMode()}.${c.getFgColor()}/${c.getBgColorMode()}.${c.getBgColor()}`
                + `${c.isBold()}${c.isDim()}${c.isItalic()}${c.isBlink()}${c.isInvisible()}${c.isStrikethrough()}${c.isOverline()}${!!c.isUnderline()}${c.isInverse()}|`;
        }
        cells.push(`${line.isWrapped ? 'wrapped ' : ''}${row}`);
    }
    // The state a frame restores that xterm keeps to itself (screen-frame.ts reads the same).
    const core = (t as unknown as { _core: any })._core;
    const attr = core._inputHandler._curAttrData;
    return {
        type: b.type, cursor: [b.cursorX, b.cursorY], cells, modes: t.modes,
        region: [core.buffer.scrollTop, core.buffer.scrollBottom],
        saved: [core.buffer.savedX, core.buffer.savedY, attributes(core.buffer.savedCurAttrData), core.buffer.savedCharset ?? null],
        charsets: [core._charsetService.glevel, core._charsetService.charset ?? null, ...[0, 1, 2, 3].map(g => core._charsetService._charsets[g] ?? null)],
        rawX: core.buffer.x,
        tabs: Object.keys(core.buffer.tabs).filter(k => core.buffer.tabs[k]).map(Number).filter(x => x < t.cols),
        cursorHidden: core.coreService.isCursorHidden,
        mouseEncoding: core.coreMouseService.activeEncoding,
        attr: [attributes(attr), attr.isUnderline() ? attr.getUnderlineStyle() : 0]
    };
}

/** What a set of attributes draws (not its words: xterm leaves stale bits in them that draw nothing). */
function attributes(a: any): unknown[] {
    return [a.getFgColorMode(), a.getFgColor(), a.getBgColorMode(), a.getBgColor(), a.isBold(), a.isDim(), a.isItalic(), a.isBlink(),
        a.isInvisible(), a.isStrikethrough(), a.isOverline(), !!a.isUnderline(), a.isInverse()];
}

/** The lines of a terminal's normal screen and its scrollback, as text. */
export function normalLines(t: Terminal): string[] {
    const b = t.buffer.normal;
    const lines: string[] = [];
    for (let y = 0; y < b.length; y++) {
        lines.push(b.getLine(y)!.translateToString(true));
    }
    return lines;
}

/** Once everything written to `t` so far is parsed. */
export const parsed = (t: Terminal) => new Promise<void>(resolve => t.write('', resolve));
