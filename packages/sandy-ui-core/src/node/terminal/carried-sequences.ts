import type { Terminal } from '@xterm/headless';
import { parseOsc52 } from '../../common/terminal/osc';

/**
 * The sequences in an agent's output that a catch-up frame (screen-frame.ts) cannot draw but the view
 * must still act on: the clipboard write (OSC 52), the queries its xterm answers (device attributes,
 * status and cursor reports, mode and setting requests, colour queries) and colour changes. A frame
 * replaces output the view was never sent; these go to the view right after it, so a copy the agent
 * made during a flood still reaches the clipboard and an agent waiting for an answer gets one.
 *
 * They are re-encoded from what the backend's headless xterm parsed, each checked against the shape
 * its kind allows (anything else is not carried), so nothing the agent wrote reaches the view here
 * but a well-formed sequence of these kinds — the view applies its own rules to them as to live
 * output (a clipboard read is never answered there). An answer about the cursor describes it where
 * the skipped output left it, as the frame does. A sequence the view was sent the start of is carried
 * whole (the frame begins by cancelling whatever the view was in the middle of: screen-frame.ts).
 * The newest {@link MAX_CARRIED} queries and colour changes are kept; a frame looks at them once the
 * output it stands for is parsed, so more than that after a query can push it out.
 */
export interface CarriedSequence {
    /** The chunk (`ScreenEngine.write`'s number) it was parsed in. */
    seq: number;
    data: string;
}

/** Queries and colour changes kept for the frames to come (the newest; a flood of queries gets this many answers). */
export const MAX_CARRIED = 64;

/** The CSI queries xterm 5.5 answers (InputHandler): DA1, DA2, DSR/CPR, DECDSR, DECRQM (ANSI and DEC). */
const CSI_QUERIES: ReadonlyArray<{ prefix?: string; intermediates?: string; final: string }> = [
    { final: 'c' }, { prefix: '>', final: 'c' }, { final: 'n' }, { prefix: '?', final: 'n' },
    { intermediates: '$', final: 'p' }, { prefix: '?', intermediates: '$', final: 'p' }
];
/** The colour OSCs xterm 5.5 acts on: set or query (4, 10-12), reset (104, 110-112). */
const COLOUR_OSC = [4, 10, 11, 12, 104, 110, 111, 112];
/** (A whole palette set at once is about 5 KB.) */
const COLOUR_PAYLOAD = /^[0-9A-Za-z;:#?/.,]{0,8192}$/;
const DECRQSS_PAYLOAD = /^[ -~]{1,4}$/;
/** Printable ASCII only (what `parseOsc52` accepts is narrower still: targets, `;`, base64). */
const PRINTABLE = /^[ -~]*$/;

export class CarriedSequences {
    protected clipboard: CarriedSequence | undefined;
    protected others: CarriedSequence[] = [];
    protected readonly disposables: Array<{ dispose(): void }> = [];

    /** `chunk()`: the number of the chunk being parsed. */
    constructor(terminal: Terminal, protected readonly chunk: () => number) {
        const parser = terminal.parser;
        this.disposables.push(parser.registerOscHandler(52, payload => {
            // Only a write the view acts on (its own rule: a read or a malformed one is ignored there) and only
            // the newest: each one replaces the clipboard.
            if (parseOsc52(payload)?.kind === 'clipboard' && PRINTABLE.test(payload)) {
                this.clipboard = { seq: this.chunk(), data: `\x1b]52;${payload}\x07` };
            }
            return false;
        }));
        for (const ident of COLOUR_OSC) {
            this.disposables.push(parser.registerOscHandler(ident, payload => {
                if (COLOUR_PAYLOAD.test(payload)) {
                    this.keep(`\x1b]${ident};${payload}\x07`);
                }
                return false;
            }));
        }
        for (const id of CSI_QUERIES) {
            this.disposables.push(parser.registerCsiHandler(id, params => {
                const text = csiParams(params);
                if (text.length <= 64) {
                    this.keep(`\x1b[${id.prefix ?? ''}${text}${id.intermediates ?? ''}${id.final}`);
                }
                return false;
            }));
        }
        this.disposables.push(parser.registerDcsHandler({ intermediates: '$', final: 'q' }, data => {
            if (DECRQSS_PAYLOAD.test(data)) {
                this.keep(`\x1bP$q${data}\x1b\\`);
            }
            return false;
        }));
    }

    /** What a frame standing for chunks `from` to `to` (inclusive) carries after it: see {@link carriedBetween}. */
    between(from: number, to: number): string {
        return carriedBetween(this.snapshot(), from, to);
    }

    /** Everything kept now, the clipboard write first, then the rest in the order parsed (a frame takes it along). */
    snapshot(): CarriedSequence[] {
        return this.clipboard ? [this.clipboard, ...this.others] : [...this.others];
    }

    protected keep(data: string): void {
        this.others.push({ seq: this.chunk(), data });
        if (this.others.length > MAX_CARRIED) {
            this.others.shift();
        }
    }

    dispose(): void {
        this.disposables.splice(0).forEach(d => d.dispose());
        this.clipboard = undefined;
        this.others = [];
    }
}

/**
 * What a frame standing for chunks `from` to `to` (inclusive) carries after it, of a {@link CarriedSequences.snapshot}:
 * the clipboard write, then the rest in the order parsed.
 */
export function carriedBetween(carried: readonly CarriedSequence[], from: number, to: number): string {
    return carried.filter(s => s.seq >= from && s.seq <= to).map(s => s.data).join('');
}

/** xterm's parameters as written: a number starts a parameter, an array holds the sub-parameters of the one before it (-1: empty). */
function csiParams(params: ReadonlyArray<number | number[]>): string {
    let text = '';
    params.forEach((p, i) => {
        if (Array.isArray(p)) {
            text += p.map(v => `:${v < 0 ? '' : v}`).join('');
        } else {
            text += `${i ? ';' : ''}${p}`;
        }
    });
    return text;
}
