/**
 * A multi-agent session's screen, told apart per agent (issue 11: "multi-agent sessions report per
 * pane where sandy's tmux tells them apart").
 *
 * sandy (1.7.1, `SANDY_AGENT=claude,codex[,…]`, 2–4 agents) runs each agent in a pane of one tmux
 * window: the first pane, then a horizontal split for the second, the right column split for the
 * third, the left column split for the fourth — top-left, top-right, bottom-right, bottom-left. Its
 * tmux.conf draws single-line pane borders with the border status on top, each pane's top border
 * labelled with its agent (the pane option `@sandy_pane_agent`; the window name when unset), and the
 * status bar on the bottom row. What an attach client shows is therefore, recorded with tmux 3.3a
 * (test/fixtures/agent-screens/sandy-tmux):
 *
 *     ── claude ──────────┬── codex ───────────
 *     …claude's screen…   │…codex's screen…
 *                         ├── gemini ──────────
 *     …                   │…gemini's screen…
 *      sandy · ★ permissive · claude,codex,gemini       demo · 1 client · daemon · 08:51
 *
 * Only tmux draws the top row and the border column (no pane reaches them), so they decide the
 * layout; an agent printing border-like lines inside its pane cannot move a pane. Where tmux and the
 * backend's xterm may measure a character differently (a combining mark xterm does not know, a wide
 * character, an emoji), the rest of that row is not read: it could be shifted into the next pane. A screen that is
 * not this layout (a zoomed pane, a pane closed, a user's own split) gives `undefined`: the caller
 * then looks at the whole screen as for one agent.
 */

/** The screen as cells: what `ScreenState` reads from the backend's xterm, or a recorded screen. */
export interface ScreenGrid {
    readonly cols: number;
    readonly rows: number;
    /** The characters of one cell ('' for an empty cell or the right half of a wide character). */
    cell(x: number, y: number): string;
    /** Cells `x0` (inclusive) to `x1` (exclusive) of row `y` as text, trailing blanks trimmed. */
    text(y: number, x0: number, x1: number): string;
    /** A cell's width in columns (2: the left half of a wide character); absent: 1 for every cell. */
    width?(x: number, y: number): number;
}

export interface PaneScreen {
    /** The pane's agent: its border label when every pane is labelled with one of the session's agents, else sandy's layout order. */
    agent: string;
    /** Its place in sandy's order: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left. */
    index: number;
    /** The pane's rows, top to bottom (its border excluded). */
    lines: string[];
}

/**
 * A cell whose width tmux (the container's wcwidth) and the backend's xterm may disagree on: a combining
 * mark or format character standing alone (xterm gave it a column tmux did not), a wide cell, or an emoji.
 * Past such a cell a row's text may sit columns away from where tmux put it — in the next pane.
 */
const UNSURE_CELL = /^[\p{M}\p{Cf}]|\p{Extended_Pictographic}/u;

/** At most this many agents share a sandy window. */
export const MAX_PANES = 4;

const VERTICAL = new Set(['\u2502', '\u251c', '\u2524', '\u253c']); // │ ├ ┤ ┼
const SPLITS_LEFT = new Set(['\u2524', '\u253c']); // ┤ ┼: the column on the left is split here
const SPLITS_RIGHT = new Set(['\u251c', '\u253c']); // ├ ┼: the column on the right is split here
const AGENT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * The session's agents from its configured `SANDY_AGENT` (`claude,codex`): names only, in order,
 * each once; nothing else counts (at most {@link MAX_PANES}).
 */
export function agentsOf(agent: string | undefined): string[] {
    if (typeof agent !== 'string' || agent.length > 200) {
        return [];
    }
    const names: string[] = [];
    for (const part of agent.split(',')) {
        const name = part.trim().toLowerCase();
        if (AGENT_NAME.test(name) && !names.includes(name)) {
            names.push(name);
        }
    }
    return names.slice(0, MAX_PANES);
}

/** A border segment as tmux draws it: box drawing, optionally one label padded by a space each side, box drawing. */
const BORDER_SEGMENT = /^[\u2500-\u257f]+(?: ([^\u2500-\u257f]{1,80}) )?[\u2500-\u257f]*$/;

/** The label of a border segment (`── claude ────`: 'claude'; no label: ''), or undefined when the segment is not a border. */
function borderLabel(grid: ScreenGrid, y: number, x0: number, x1: number): string | undefined {
    const m = BORDER_SEGMENT.exec(grid.text(y, x0, x1));
    return m ? (m[1] ?? '').trim() : undefined;
}

/** Per row, the first column whose width is in doubt (cols when none): the row is trusted only left of it. */
function trustedWidths(grid: ScreenGrid): number[] {
    const trusted: number[] = [];
    for (let y = 0; y < grid.rows; y++) {
        let x = 0;
        while (x < grid.cols && !UNSURE_CELL.test(grid.cell(x, y)) && (grid.width?.(x, y) ?? 1) === 1) {
            x++;
        }
        trusted.push(x);
    }
    return trusted;
}

function paneLines(grid: ScreenGrid, trusted: readonly number[], y0: number, y1: number, x0: number, x1: number): string[] {
    const lines: string[] = [];
    for (let y = y0; y < y1; y++) {
        // What lies past a cell of doubtful width may be another pane's, or this pane's shifted: not read.
        lines.push(trusted[y] <= x0 ? '' : grid.text(y, x0, Math.min(x1, trusted[y])));
    }
    return lines;
}

/** The panes of sandy's multi-agent window, or undefined when the screen is not that layout. */
export function sandyPanes(grid: ScreenGrid, agents: readonly string[]): PaneScreen[] | undefined {
    const count = agents.length;
    const { cols, rows } = grid;
    if (count < 2 || count > MAX_PANES || cols < 8 || rows < 4 || cols > 1000 || rows > 500) {
        return undefined;
    }
    // The bottom row is tmux's status bar; the top row is the top panes' border.
    const bottom = rows - 1;
    const junctions: number[] = [];
    for (let x = 1; x < cols - 1; x++) {
        if (grid.cell(x, 0) === '\u252c') { // ┬
            junctions.push(x);
        }
    }
    if (junctions.length !== 1) {
        return undefined;
    }
    const split = junctions[0];
    const trusted = trustedWidths(grid);
    let leftSplit: number | undefined;
    let rightSplit: number | undefined;
    for (let y = 1; y < bottom; y++) {
        const c = grid.cell(split, y);
        if (!VERTICAL.has(c)) {
            if (trusted[y] <= split) {
                // The left pane's row may have pushed its text onto the border here: no verdict from it.
                continue;
            }
            return undefined;
        }
        if (SPLITS_LEFT.has(c)) {
            if (leftSplit !== undefined) {
                return undefined;
            }
            leftSplit = y;
        }
        if (SPLITS_RIGHT.has(c)) {
            if (rightSplit !== undefined) {
                return undefined;
            }
            rightSplit = y;
        }
    }
    const columns = [
        { x0: 0, x1: split, at: leftSplit },
        { x0: split + 1, x1: cols, at: rightSplit }
    ];
    // sandy's order: top-left, top-right, bottom-right, bottom-left.
    const regions = [
        { column: columns[0], top: 0, end: leftSplit ?? bottom },
        { column: columns[1], top: 0, end: rightSplit ?? bottom },
        ...(rightSplit !== undefined ? [{ column: columns[1], top: rightSplit, end: bottom }] : []),
        ...(leftSplit !== undefined ? [{ column: columns[0], top: leftSplit, end: bottom }] : [])
    ];
    if (regions.length !== count || (count === 3 && leftSplit !== undefined)) {
        return undefined;
    }
    const labels: Array<string | undefined> = [];
    for (const r of regions) {
        const label = borderLabel(grid, r.top, r.column.x0, r.column.x1);
        if (label === undefined) {
            return undefined;
        }
        labels.push(label);
    }
    // Every pane labelled with one of the session's agents, each once: the labels say who is where.
    const named = labels.every(l => l !== undefined && agents.includes(l)) && new Set(labels).size === labels.length;
    return regions.map((r, index) => ({
        agent: named ? labels[index]! : agents[index],
        index,
        lines: paneLines(grid, trusted, r.top + 1, r.end, r.column.x0, r.column.x1)
    }));
}

/** A recorded screen (one string per row, one character per cell) as a grid: for tests and for plain-text screens. */
export function gridOfLines(lines: readonly string[], cols: number): ScreenGrid {
    const cells = lines.map(l => Array.from(l));
    return {
        cols,
        rows: lines.length,
        cell: (x, y) => cells[y]?.[x] ?? '',
        text: (y, x0, x1) => (cells[y] ?? []).slice(x0, x1).join('').trimEnd()
    };
}
