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

/** Which renderer the sandy view under `root` draws with, as it says (`data-sandy-renderer`), and what is in its screen. */
export interface XtermRenderer {
    said: string | undefined;
    /** WebGL canvases in xterm's screen (the WebGL renderer draws the cells in one). */
    canvases: number;
    /** Whether the DOM renderer's rows exist. */
    domRows: boolean;
}

export function readXtermRenderer(root: Element): XtermRenderer {
    const view = root.querySelector<HTMLElement>('[data-sandy-renderer]') ?? (root instanceof HTMLElement && root.dataset.sandyRenderer ? root : undefined);
    return {
        said: view?.dataset.sandyRenderer,
        canvases: root.querySelectorAll('.xterm-screen canvas').length,
        domRows: root.querySelector('.xterm-rows') !== null
    };
}

/**
 * The GPU is lost, as when its process crashes or a driver resets: the WebGL context of the canvas xterm draws
 * in is lost (`WEBGL_lose_context`) and never restored. Returns whether there was such a context to lose.
 */
export function loseXtermWebglContext(root: Element): boolean {
    for (const canvas of Array.from(root.querySelectorAll<HTMLCanvasElement>('.xterm-screen canvas'))) {
        const gl = canvas.getContext('webgl2');
        const lose = gl?.getExtension('WEBGL_lose_context');
        if (lose) {
            lose.loseContext();
            return true;
        }
    }
    return false;
}
