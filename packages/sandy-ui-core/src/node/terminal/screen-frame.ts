import type { IBufferCell, Terminal } from '@xterm/headless';

/**
 * A catch-up frame: what a view that fell behind in a flood is sent instead of the output it has
 * not been sent yet. It redraws the alternate screen as the backend's copy has it once that output
 * is parsed, and leaves the view's terminal in the state the rest of the stream expects (scroll
 * region, tab stops, cursor, current colours, modes), so the bytes that follow it draw as they would have.
 *
 * Only the alternate screen is caught up this way: it keeps no scrollback, so the lines skipped
 * there are lines no terminal would have kept. On the normal screen every byte is sent (its
 * scrollback is the user's). sandy's own tmux does the same for its clients: it redraws the
 * screen rather than replay a pane's every byte to a client that cannot keep up.
 *
 * The frame is drawing commands built from the screen's cells (which hold no control characters)
 * and from the modes listed here: nothing the agent wrote reaches the view through it as a
 * sequence (no OSC: no link, title or notification). The attachment sends after it the clipboard
 * write and the queries of the output it replaced, re-encoded and checked (carried-sequences.ts).
 */
export type FrameResult =
    /** The frame, to be sent in place of everything written before it. */
    | { kind: 'frame'; data: string }
    /** The parser is inside a sequence: a frame now would cut it in two; ask again after more output. */
    | { kind: 'mid-sequence' }
    /** No frame can stand for the skipped output (normal screen, a character set in use, an xterm without the state read here). */
    | { kind: 'none' };

/** xterm 5.5's internals a frame reads; every one is checked, and an xterm without them gets no frames. */
interface AttrLike {
    isBold(): number; isDim(): number; isItalic(): number; isUnderline(): number; isBlink(): number;
    isInverse(): number; isInvisible(): number; isStrikethrough(): number; isOverline(): number;
    /** Internal (the current colours have it; a cell's public view does not: its underline is drawn plain). */
    getUnderlineStyle?(): number;
    isFgDefault(): boolean; isFgRGB(): boolean; isFgPalette(): boolean; getFgColor(): number;
    isBgDefault(): boolean; isBgRGB(): boolean; isBgPalette(): boolean; getBgColor(): number;
}
interface CoreLike {
    buffer: {
        scrollTop: number; scrollBottom: number; x: number; y: number;
        /** DECSC's saved cursor (the alternate screen's own). */
        savedX: number; savedY: number; savedCurAttrData: AttrLike; savedCharset: unknown;
        /** Tab stops by column (the alternate screen's own). */
        tabs: Record<number, boolean | undefined>;
    };
    coreService: { isCursorHidden: boolean; decPrivateModes: { sendFocus: boolean } };
    coreMouseService: { activeEncoding: string };
    _charsetService: { glevel: number; charset: unknown; _charsets: unknown[] };
    _inputHandler: { _parser: { currentState: number }; _curAttrData: AttrLike };
}

const GROUND = 0;
/**
 * A frame larger than this is not made (the output is sent as it is): an agent filling cells with
 * combining marks must not make every frame megabytes.
 */
export const MAX_FRAME_CHARS = 256 * 1024;

/** xterm's internals, or undefined when this xterm does not have them (a version this was not written for). */
function coreOf(terminal: Terminal): CoreLike | undefined {
    const core = (terminal as unknown as { _core?: Partial<CoreLike> })._core;
    const attr = core?._inputHandler?._curAttrData;
    const ok = core
        && typeof core.buffer?.scrollTop === 'number' && typeof core.buffer.scrollBottom === 'number'
        && typeof core.buffer.x === 'number' && typeof core.buffer.y === 'number'
        && typeof core.buffer.savedX === 'number' && typeof core.buffer.savedY === 'number'
        && typeof core.buffer.savedCurAttrData?.isBold === 'function' && typeof core.buffer.tabs === 'object' && core.buffer.tabs !== null
        && typeof core.coreService?.isCursorHidden === 'boolean' && typeof core.coreService.decPrivateModes?.sendFocus === 'boolean'
        && Array.isArray(core._charsetService?._charsets)
        && typeof core.coreMouseService?.activeEncoding === 'string'
        && typeof core._charsetService?.glevel === 'number'
        && typeof core._inputHandler?._parser?.currentState === 'number'
        && attr && typeof attr.isBold === 'function' && typeof attr.getUnderlineStyle === 'function' && typeof attr.isBgRGB === 'function'
        && typeof terminal.buffer.alternate.getNullCell().isAttributeDefault === 'function';
    return ok ? core as CoreLike : undefined;
}

/** Whether this xterm exposes what a frame needs (a spec pins it to the xterm in use). */
export function framesSupported(terminal: Terminal): boolean {
    return !!coreOf(terminal);
}

/**
 * The tab stops: cleared, then each set, always (the view's may differ from the default even where the
 * backend's are: `?1049h` on a screen already alternate resets nothing). A stop at or beyond the last
 * column (a shrink leaves them; a grow builds on them) cannot be set by a cursor move and is not sent.
 */
function tabStops(tabs: Record<number, boolean | undefined>, cols: number): string {
    let out = '\x1b[3g';
    for (let x = 0; x < cols; x++) {
        if (tabs[x]) {
            out += `\x1b[1;${x + 1}H\x1bH`;
        }
    }
    return out;
}

/** The frame for the screen as parsed so far (call it where a write's callback runs: between two chunks). */
export function catchUpFrame(terminal: Terminal): FrameResult {
    const core = coreOf(terminal);
    // Character sets: a frame only stands for a screen whose G0–G3 are all ASCII (it sets the view's so).
    const charsets = core?._charsetService;
    if (!core || !charsets || terminal.buffer.active.type !== 'alternate' || charsets.glevel !== 0 || charsets.charset !== undefined
        || charsets._charsets.some(c => c !== undefined) || core.buffer.savedCharset !== undefined) {
        return { kind: 'none' };
    }
    if (core._inputHandler._parser.currentState !== GROUND) {
        return { kind: 'mid-sequence' };
    }
    const { scrollTop, scrollBottom, x, y, savedX, savedY } = core.buffer;
    const { cols, rows } = terminal;
    const modes = terminal.modes;
    // Drawn with ASCII in G0–G3 (shifted in), the whole screen as the region, absolute addressing,
    // autowrap on (a wrapped row continues the one above it) and insert off, from a cleared screen. First a CAN:
    // the last output the view was sent may end inside a sequence the frame's output completed; CAN drops
    // it unacted on (an ESC would end it and the view act on the truncated string; carried-sequences.ts).
    let frame = '\x18\x1b[?1049h\x1b(B\x1b)B\x1b*B\x1b+B\x0f\x1b[r\x1b[?6l\x1b[?7h\x1b[4l\x1b[0m\x1b[H\x1b[2J' + drawRows(terminal)
        + tabStops(core.buffer.tabs, cols);
    // DECSC's saved cursor (the view's was overwritten by ?1049h above, or by the agent earlier).
    const savedRow = Math.min(savedY, rows - 1);
    frame += (savedX < cols ? `\x1b[${savedRow + 1};${savedX + 1}H` : pendingWrap(terminal, savedRow, savedRow + 1))
        + `${sgrOf(core.buffer.savedCurAttrData)}\x1b7`;
    if (scrollTop !== 0 || scrollBottom !== rows - 1) {
        frame += `\x1b[${scrollTop + 1};${scrollBottom + 1}r`;
    }
    if (modes.originMode) {
        frame += '\x1b[?6h';
    }
    const row = (modes.originMode ? y - scrollTop : y) + 1;
    if (x < cols) {
        frame += `\x1b[${row};${x + 1}H`;
    } else {
        // A wrap is pending after the last column: the last character is written again, which leaves it so.
        frame += pendingWrap(terminal, y, row);
    }
    const set = (mode: string, on: boolean) => `\x1b[${mode}${on ? 'h' : 'l'}`;
    frame += set('?1', modes.applicationCursorKeysMode)
        + set('?66', modes.applicationKeypadMode)
        + set('?2004', modes.bracketedPasteMode)
        + set('4', modes.insertMode)
        + set('?45', modes.reverseWraparoundMode)
        + set('?7', modes.wraparoundMode)
        + set('?25', !core.coreService.isCursorHidden);
    // Focus reports are only turned off: turning them on makes xterm report focus to the agent at once.
    if (!core.coreService.decPrivateModes.sendFocus) {
        frame += '\x1b[?1004l';
    }
    // Mouse reporting: off, then the one in use; its encoding likewise.
    frame += '\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l';
    const mouse = { x10: '?9', vt200: '?1000', drag: '?1002', any: '?1003' }[modes.mouseTrackingMode as string];
    if (mouse) {
        frame += `\x1b[${mouse}h`;
    }
    frame += '\x1b[?1006l';
    const encoding = { SGR: '?1006', SGR_PIXELS: '?1016' }[core.coreMouseService.activeEncoding];
    if (encoding) {
        frame += `\x1b[${encoding}h`;
    }
    frame += sgrOf(core._inputHandler._curAttrData);
    return frame.length > MAX_FRAME_CHARS ? { kind: 'none' } : { kind: 'frame', data: frame };
}

/** The cursor at the last column with a wrap pending: its row's last character (and colours) written again there. */
function pendingWrap(terminal: Terminal, y: number, row: number): string {
    const line = terminal.buffer.alternate.getLine(y);
    const cell = terminal.buffer.alternate.getNullCell();
    let at = terminal.cols - 1;
    if (line?.getCell(at, cell)?.getWidth() === 0 && at > 0) {
        at--; // the right half of a wide character: the character starts one column left
    }
    line?.getCell(at, cell);
    return `\x1b[${row};${at + 1}H${sgrOf(cell as IBufferCell & AttrLike)}${cell.getChars() || ' '}`;
}

const RESET = '\x1b[0m';

/**
 * The alternate screen's cells, row by row. (Not xterm's serializer: it loses faint and bold on some
 * cells, and attributes of trailing blank ones.) A row is addressed by CUP unless it continues the one
 * above (it wrapped there), so its characters wrap into it as they did.
 */
function drawRows(terminal: Terminal): string {
    const buffer = terminal.buffer.alternate;
    const cell = buffer.getNullCell();
    let out = '';
    let current = RESET;
    if (buffer.getLine(0)?.isWrapped) {
        // The top row continues a line gone above the screen: a row of blanks wraps into the second
        // row, which then scrolls up into its place.
        out += `\x1b[1;1H${' '.repeat(terminal.cols)} \x1b[S`;
    }
    for (let y = 0; y < terminal.rows; y++) {
        const line = buffer.getLine(y);
        if (!line) {
            continue;
        }
        const continues = y > 0 && line.isWrapped;
        const wrapsOn = y + 1 < terminal.rows && !!buffer.getLine(y + 1)?.isWrapped;
        // Trailing cells that a cleared screen already shows are left out (unless the row must fill up to wrap).
        let end = terminal.cols;
        if (!wrapsOn) {
            while (end > 0 && !line.getCell(end - 1, cell)!.getChars() && cell.isAttributeDefault()) {
                end--;
            }
        }
        if (!continues) {
            out += `\x1b[${y + 1};1H`;
        }
        for (let x = 0; x < end; x++) {
            line.getCell(x, cell);
            if (cell.getWidth() === 0) {
                continue; // the right half of a wide character
            }
            const sgr = sgrOf(cell as IBufferCell & AttrLike);
            if (sgr !== current) {
                out += sgr;
                current = sgr;
            }
            out += cell.getChars() || ' ';
        }
    }
    return out + RESET;
}

/** The SGR that makes `attr` the current colours and attributes (the agent's next text is drawn in them). */
function sgrOf(attr: AttrLike): string {
    const params = ['0'];
    // (A saved cursor keeps its underline flag but not its style: xterm copies only fg and bg into it.)
    const underline = attr.isUnderline() ? (attr.getUnderlineStyle?.() || 1) : 0;
    if (attr.isBold()) { params.push('1'); }
    if (attr.isDim()) { params.push('2'); }
    if (attr.isItalic()) { params.push('3'); }
    if (underline) { params.push(underline === 1 ? '4' : `4:${underline}`); }
    if (attr.isBlink()) { params.push('5'); }
    if (attr.isInverse()) { params.push('7'); }
    if (attr.isInvisible()) { params.push('8'); }
    if (attr.isStrikethrough()) { params.push('9'); }
    if (attr.isOverline()) { params.push('53'); }
    params.push(...colour(attr.isFgDefault(), attr.isFgRGB(), attr.isFgPalette(), attr.getFgColor(), 30));
    params.push(...colour(attr.isBgDefault(), attr.isBgRGB(), attr.isBgPalette(), attr.getBgColor(), 40));
    return `\x1b[${params.join(';')}m`;
}

function colour(isDefault: boolean, isRgb: boolean, isPalette: boolean, value: number, base: 30 | 40): string[] {
    if (isDefault) {
        return [];
    }
    if (isRgb) {
        return [`${base + 8}`, '2', `${(value >> 16) & 0xff}`, `${(value >> 8) & 0xff}`, `${value & 0xff}`];
    }
    if (isPalette) {
        if (value < 8) {
            return [`${base + value}`];
        }
        if (value < 16) {
            return [`${base + 60 + value - 8}`];
        }
        return [`${base + 8}`, '5', `${value}`];
    }
    return [];
}
