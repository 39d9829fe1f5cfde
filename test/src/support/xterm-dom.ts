/**
 * Reading an xterm.js (DOM renderer) view from its page, for both hosts' tests: each function runs inside
 * the page (Playwright's `evaluate`/`$eval` sends its source), so it uses nothing from outside itself.
 */

export interface XtermGeometry {
    rows: number;
    cols: number;
}

export interface XtermAppearance {
    fontSize: string;
    fontFamily: string;
    lineHeight: string;
    /** The cursor's classes but `xterm-cursor`, sorted (`xterm-cursor-blink`, `xterm-cursor-block`/`-underline`/`-bar`: the DOM renderer styles a focused cursor so). */
    cursor: string[];
}

/** The size the xterm under `root` shows: the rows drawn, and the screen's width over the cell width xterm measured (its `W`×32 element). */
export function readXtermGeometry(root: Element): XtermGeometry {
    const rows = root.querySelectorAll('.xterm-rows > div').length;
    const screen = root.querySelector<HTMLElement>('.xterm-screen')!;
    const measure = root.querySelector<HTMLElement>('.xterm-char-measure-element')!;
    const cell = measure.getBoundingClientRect().width / (measure.textContent ?? '').length;
    return { rows, cols: Math.round(screen.getBoundingClientRect().width / cell) };
}

/** How the xterm under `root` draws: the rows' computed font, and its cursor's classes. */
export function readXtermAppearance(root: Element): XtermAppearance {
    const rows = root.querySelector<HTMLElement>('.xterm-rows')!;
    const style = getComputedStyle(rows);
    const cursor = rows.querySelector('.xterm-cursor');
    return {
        fontSize: style.fontSize, fontFamily: style.fontFamily, lineHeight: style.lineHeight,
        cursor: cursor ? Array.from(cursor.classList).filter(c => c !== 'xterm-cursor').sort() : []
    };
}
