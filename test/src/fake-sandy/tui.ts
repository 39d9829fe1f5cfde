/*
 * The "agent" inside the fake sandbox: a tiny full-screen program that gives a
 * terminal front end something realistic to render (alternate screen, box
 * drawing, 256-colour and truecolor SGR) and a line-oriented command set to
 * trigger the escape sequences and workloads a UI test needs. It only talks to
 * an abstract sink so the same code serves a bare launch (process stdio) and a
 * daemon session (whichever --attach client is connected).
 */

import * as fs from 'fs';
import * as path from 'path';

/** Real agents' recorded screens (test/fixtures/agent-screens), from test/lib/fake-sandy. */
const AGENT_SCREENS = path.resolve(__dirname, '..', '..', 'fixtures', 'agent-screens');

export interface TuiSink {
    /** Returns false when the consumer wants us to wait for drain (back-pressure). */
    write(s: string): boolean;
    waitDrain(): Promise<void>;
}

export interface TuiOptions {
    version: string;
    workspace: string;
    sandbox: string;
    agent: string;
    mode: 'interactive' | 'daemon';
    env: NodeJS.ProcessEnv;
    /** `exit <code>` (or Ctrl-D on an empty line): the agent ends. */
    onExit(code: number): void;
    /** Ctrl-B d / `detach` in a daemon session (tmux's detach-client). */
    onDetach?(): void;
}

const HELP = [
    'commands (end with Enter):',
    '  osc9 <text>            desktop notification, OSC 9',
    '  osc777 <title>;<body>  desktop notification, OSC 777 (urxvt/ghostty style)',
    '  osc99 <text>           desktop notification, OSC 99 (kitty)',
    '  osc52 <text>           copy <text> to the clipboard, OSC 52',
    '  osc8 <url> [text]      hyperlink, OSC 8',
    '  title <text>           window title, OSC 2',
    '  tmux <command>         run an osc*/title command with its sequences in tmux\'s DCS passthrough',
    '                         (ESC Ptmux; … ESC \\), as an agent inside sandy\'s tmux must to reach the IDE',
    '  repeat <n> <command>   run <command> n times at once, without its "[… sent]" lines; {n} in',
    '                         <command> is the 1-based count',
    '  later <s> <command>    run <command> after <s> seconds (input goes on meanwhile): an agent that',
    '                         asks for you while you look elsewhere',
    '  when <file> <command>  run <command> once <file> exists (absolute, or relative to the workspace;',
    '                         polled): an agent that asks exactly after the user has looked elsewhere',
    '  every <s> <command>    run <command> every <s> seconds until the agent ends (steady output)',
    '  show <agent>/<screen>  draw a real agent\'s recorded screen (test/fixtures/agent-screens) and wait',
    '  panes <agent>/<screen> <agent>/<screen> [...]  sandy\'s multi-agent window (2-4 panes, as its tmux draws',
    '                         it), each pane one recorded screen, and wait',
    '  colours <n> [ms]       n screens of cells each in colours of their own (24-bit), ms apart, then clear',
    '  bell                   BEL',
    '  echo <text>            print <text>',
    '  keys                   show every key that reaches the agent as [^P] until q',
    '  env                    print the environment, sorted',
    '  flood <n>              print n lines as fast as possible',
    '  floodclip <n> <text>   the same, with an OSC 52 clipboard write of text halfway',
    '  size                   print rows\u00d7cols',
    '  clear                  redraw the screen',
    '  exit [code]            end the agent with <code> (default 0)',
    '  detach                 detach this client (daemon sessions; also Ctrl-B d)'
];

const ESC = '\x1b';
const BEL = '\x07';
const ST = '\x1b\\';

function truncate(s: string, width: number): string {
    const cps = Array.from(s);
    if (cps.length <= width) {
        return s + ' '.repeat(width - cps.length);
    }
    return cps.slice(0, Math.max(0, width - 1)).join('') + '\u2026';
}

/**
 * The multi-agent window of sandy 1.7.1 as tmux draws it (recorded: test/fixtures/agent-screens/sandy-tmux): the
 * top row and the left column's border labelled with each pane's agent, a single-line vertical border, the right
 * column split for a third agent and the left for a fourth (sandy's order: top-left, top-right, bottom-right,
 * bottom-left), the status bar on the bottom row. Each pane shows the bottom of its agent's recorded screen.
 */
export function sandyPanesScreen(panes: ReadonlyArray<{ agent: string; lines: readonly string[] }>, cols: number, rows: number): string {
    const grid: string[][] = Array.from({ length: rows }, () => Array.from({ length: cols }, () => ' '));
    const put = (y: number, x: number, text: string, x1 = cols) => Array.from(text).forEach((c, i) => {
        if (x + i < x1 && y >= 0 && y < rows) {
            grid[y][x + i] = c;
        }
    });
    const split = Math.floor((cols - 1) / 2);
    const bottom = rows - 1;
    const half = Math.floor(bottom / 2);
    const border = (y: number, x0: number, x1: number, label: string) => {
        for (let x = x0; x < x1; x++) {
            grid[y][x] = '\u2500';
        }
        put(y, x0 + 2, ` ${label} `, x1);
    };
    const leftSplit = panes.length === 4 ? half : undefined;
    const rightSplit = panes.length >= 3 ? half : undefined;
    for (let y = 0; y < bottom; y++) {
        grid[y][split] = y === 0 ? '\u252c' : y === leftSplit && y === rightSplit ? '\u253c' : y === rightSplit ? '\u251c' : y === leftSplit ? '\u2524' : '\u2502';
    }
    const regions = [
        { x0: 0, x1: split, top: 0, end: leftSplit ?? bottom },
        { x0: split + 1, x1: cols, top: 0, end: rightSplit ?? bottom },
        ...(rightSplit !== undefined ? [{ x0: split + 1, x1: cols, top: rightSplit, end: bottom }] : []),
        ...(leftSplit !== undefined ? [{ x0: 0, x1: split, top: leftSplit, end: bottom }] : [])
    ];
    regions.forEach((r, i) => {
        border(r.top, r.x0, r.x1, panes[i].agent);
        const height = r.end - r.top - 1;
        const shown = panes[i].lines.slice(Math.max(0, panes[i].lines.length - height));
        shown.forEach((line, k) => put(r.top + 1 + k, r.x0, line, r.x1));
    });
    put(bottom, 0, ` sandy \u00b7 \u2605 permissive \u00b7 ${panes.map(p => p.agent).join(',')}`);
    return `${ESC}[H${ESC}[2J` + grid.map((row, y) => `${ESC}[${y + 1};1H${row.join('').trimEnd()}`).join('');
}

export class FakeTui {
    private rows = 24;
    private cols = 80;
    private line = '';
    private inputState: 'normal' | 'esc' | 'csi' | 'ss3' = 'normal';
    private prefix = false;
    /** `keys`: every input byte is shown as `[^P]` (caret notation) until a `q`, to see which keys reach the agent. */
    private keyEcho = false;
    private lastWasCr = false;
    private queue: Promise<void> = Promise.resolve();
    private ended = false;
    private drawn = false;
    private busy = false;
    private interrupted = false;
    private pending: string[] = [];
    /** `tmux …`: OSC sequences go out wrapped in tmux's DCS passthrough. */
    private passthrough = false;
    /** `repeat …`: the "[… sent]" acknowledgements are left out. */
    private quiet = false;

    constructor(private readonly opts: TuiOptions, private sink: TuiSink) {}

    setSink(sink: TuiSink): void {
        this.sink = sink;
    }

    setSize(rows: number | undefined, cols: number | undefined): void {
        this.rows = rows && rows > 0 ? rows : 24;
        this.cols = cols && cols > 0 ? cols : 80;
    }

    get size(): { rows: number; cols: number } {
        return { rows: this.rows, cols: this.cols };
    }

    /** Enter the alternate screen, draw, then run FAKE_SANDY_ON_START. */
    start(): void {
        this.write(`${ESC}[?1049h`);
        this.redraw();
        const cues = (this.opts.env.FAKE_SANDY_ON_START ?? '')
            .split(/\n|;;/).map(s => s.trim()).filter(s => s.length > 0);
        for (const c of cues) {
            this.enqueue(c, false);
        }
    }

    /** The bytes that restore the user's terminal; the caller writes them. */
    leaveSequence(): string {
        return `${ESC}[0m${ESC}[?25h${ESC}[?1049l`;
    }

    stop(): void {
        this.ended = true;
    }

    redraw(): void {
        this.drawn = true;
        this.write(`${ESC}[H${ESC}[2J` + this.screen() + this.prompt() + this.line);
    }

    /** The last command asked for no "> " after its output (`raw`). */
    private noPrompt = false;

    private prompt(): string {
        return `${ESC}[1;32m>${ESC}[0m `;
    }

    private screen(): string {
        const w = Math.max(24, Math.min(this.cols, 78));
        const inner = w - 2;
        const bar = '\u2500'.repeat(inner);
        const lines: string[] = [];
        lines.push(`${ESC}[1;36m` + truncate(`fake sandy ${this.opts.version} \u2014 ${this.opts.workspace}`, w).trimEnd() + `${ESC}[0m`);
        lines.push(`\u250c${bar}\u2510`);
        lines.push(`\u2502${truncate(` sandbox: ${this.opts.sandbox}`, inner)}\u2502`);
        lines.push(`\u2502${truncate(` agent: ${this.opts.agent}   mode: ${this.opts.mode}   size: ${this.rows}\u00d7${this.cols}`, inner)}\u2502`);
        lines.push(`\u2502${truncate(' type \'help\' for commands', inner)}\u2502`);
        lines.push(`\u2514${bar}\u2518`);
        let c256 = '256-colour: ';
        for (let n = 16; n < 232; n += 9) {
            c256 += `${ESC}[48;5;${n}m ${ESC}[0m`;
        }
        for (let n = 232; n < 256; n += 2) {
            c256 += `${ESC}[38;5;${n}m\u2588${ESC}[0m`;
        }
        lines.push(c256);
        let tc = 'truecolor:  ';
        for (let i = 0; i < 32; i++) {
            const r = Math.round(255 * i / 31);
            const b = 255 - r;
            tc += `${ESC}[48;2;${r};${96 + (i % 8) * 16};${b}m ${ESC}[0m`;
        }
        lines.push(tc);
        lines.push('');
        return lines.join('\r\n') + '\r\n';
    }

    private write(s: string): boolean {
        return this.sink.write(s);
    }

    private println(s = ''): boolean {
        return this.write(s + '\r\n');
    }

    /**
     * Raw input bytes from the terminal (or a pipe). Input that arrives while a
     * command runs waits its turn, so a transcript reads like a shell session:
     * echo of line 1, its output, echo of line 2, ... Ctrl-C is acted on at once
     * (it interrupts a flood).
     */
    feed(data: Buffer | string): void {
        if (this.ended) {
            return;
        }
        const s = typeof data === 'string' ? data : data.toString('utf8');
        if (this.busy && s.includes('\x03')) {
            this.interrupted = true;
        }
        this.pending.push(...Array.from(s));
        this.pump();
    }

    private pump(): void {
        while (!this.busy && !this.ended && this.pending.length > 0) {
            this.feedChar(this.pending.shift() as string);
        }
    }

    private feedChar(ch: string): void {
        const code = ch.codePointAt(0)!;
        if (this.keyEcho) {
            if (ch === 'q') {
                this.keyEcho = false;
                this.write('\r\n[keys done]\r\n' + this.prompt());
            } else {
                this.write(`[${code < 0x20 ? `^${String.fromCharCode(code + 64)}` : code === 0x7f ? '^?' : ch}]`);
            }
            return;
        }
        // Swallow escape sequences (arrow keys, bracketed-paste markers, focus
        // events): the command line is plain text.
        if (this.inputState === 'esc') {
            this.inputState = ch === '[' ? 'csi' : ch === 'O' ? 'ss3' : 'normal';
            return;
        }
        if (this.inputState === 'csi') {
            if (code >= 0x40 && code <= 0x7e) {
                this.inputState = 'normal';
            }
            return;
        }
        if (this.inputState === 'ss3') {
            this.inputState = 'normal';
            return;
        }
        if (this.prefix) {
            // tmux prefix (Ctrl-B) then `d` = detach-client
            this.prefix = false;
            if (ch === 'd' && this.opts.onDetach) {
                this.opts.onDetach();
            }
            return;
        }
        const wasCr = this.lastWasCr;
        this.lastWasCr = ch === '\r';
        if (ch === '\n' && wasCr) {
            return;
        }
        switch (code) {
            case 0x1b:
                this.inputState = 'esc';
                return;
            case 0x02:
                if (this.opts.mode === 'daemon') {
                    this.prefix = true;
                }
                return;
            case 0x0d:
            case 0x0a: {
                const cmd = this.line;
                this.line = '';
                this.write('\r\n');
                this.enqueue(cmd, true);
                return;
            }
            case 0x7f:
            case 0x08:
                if (this.line.length > 0) {
                    this.line = Array.from(this.line).slice(0, -1).join('');
                    this.write('\b \b');
                }
                return;
            case 0x03:
                this.line = '';
                this.write('^C\r\n' + this.prompt());
                return;
            case 0x04:
                if (this.line === '') {
                    this.enqueue('exit 0', false);
                }
                return;
            case 0x0c:
                this.redraw();
                return;
            default:
                if (code < 0x20) {
                    return;
                }
                this.line += ch;
                this.write(ch);
        }
    }

    private enqueue(cmd: string, typed: boolean): void {
        this.busy = true;
        this.queue = this.queue.then(async () => {
            if (this.ended) {
                return;
            }
            if (!typed) {
                // A cued command shows up as if typed, so transcripts read the same.
                this.write(cmd + '\r\n');
            }
            this.interrupted = false;
            try {
                await this.run(cmd.trim());
            } catch (e) {
                this.println(`fake-sandy: ${(e as Error).message}`);
            }
            if (!this.ended && !this.noPrompt) {
                this.write(this.prompt() + this.line);
            }
            this.noPrompt = false;
        }).finally(() => {
            this.busy = false;
            this.pump();
        });
    }

    private osc(seq: string): void {
        if (this.passthrough) {
            // What an agent in sandy's tmux (allow-passthrough on) prints: ESC Ptmux; <seq, ESCs doubled> ESC \.
            // tmux unwraps it and forwards the inner sequence (fixture 110); without tmux in between, the
            // outer terminal gets the DCS itself.
            this.write(this.opts.env.FAKE_SANDY_TMUX_FILTER === '1' ? seq : `${ESC}Ptmux;${seq.replace(/\x1b/g, ESC + ESC)}${ST}`);
            return;
        }
        // FAKE_SANDY_TMUX_FILTER=1 imitates sandy's inner tmux (fixture 110): raw
        // OSC 9/99/777, titles and OSC 8 never reach the outer terminal; OSC 52
        // and BEL do.
        const filtered = this.opts.env.FAKE_SANDY_TMUX_FILTER === '1' && !seq.startsWith(`${ESC}]52;`);
        if (!filtered) {
            this.write(seq);
        }
    }

    /** FAKE_SANDY_EVENT_LOG: `<epoch ms> <command>` for each scheduled command as it runs, and a flood's start and end (the bench times what follows from them). */
    private logEvent(command: string): void {
        const file = this.opts.env.FAKE_SANDY_EVENT_LOG;
        if (file) {
            try {
                fs.appendFileSync(file, `${Date.now()} ${command}\n`);
            } catch {
                // A log that cannot be written changes nothing in the session.
            }
        }
    }

    private sent(what: string): void {
        if (!this.quiet) {
            this.println(`[${what} sent]`);
        }
    }

    private async run(cmd: string): Promise<void> {
        if (cmd === '') {
            return;
        }
        const sp = cmd.indexOf(' ');
        const verb = sp < 0 ? cmd : cmd.slice(0, sp);
        const arg = sp < 0 ? '' : cmd.slice(sp + 1);
        switch (verb) {
            case 'help':
                for (const l of HELP) {
                    this.println(l);
                }
                return;
            case 'osc9':
                this.osc(`${ESC}]9;${arg}${BEL}`);
                this.sent('osc9');
                return;
            case 'osc777': {
                const i = arg.indexOf(';');
                const title = i < 0 ? arg : arg.slice(0, i);
                const body = i < 0 ? '' : arg.slice(i + 1);
                this.osc(`${ESC}]777;notify;${title};${body}${BEL}`);
                this.sent('osc777');
                return;
            }
            case 'osc99':
                this.osc(`${ESC}]99;;${arg}${ST}`);
                this.sent('osc99');
                return;
            case 'osc52':
                this.osc(`${ESC}]52;c;${Buffer.from(arg, 'utf8').toString('base64')}${BEL}`);
                this.sent('osc52');
                return;
            case 'osc8': {
                const j = arg.indexOf(' ');
                const url = j < 0 ? arg : arg.slice(0, j);
                const text = j < 0 ? url : arg.slice(j + 1);
                if (this.passthrough) {
                    this.osc(`${ESC}]8;;${url}${ST}`);
                    this.write(text);
                    this.osc(`${ESC}]8;;${ST}`);
                } else if (this.opts.env.FAKE_SANDY_TMUX_FILTER === '1') {
                    this.write(text);
                } else {
                    this.write(`${ESC}]8;;${url}${ST}${text}${ESC}]8;;${ST}`);
                }
                this.println();
                return;
            }
            case 'title':
                this.osc(`${ESC}]2;${arg}${BEL}`);
                this.sent('title');
                return;
            case 'colours': {
                // Screens of cells each in colours of their own (24-bit foreground and background): what grows a
                // WebGL renderer's glyph atlas without bound (every glyph is kept in each colour pair it was drawn in).
                const [count, pause] = arg.trim().split(/\s+/);
                const screens = Math.max(1, Math.min(100, parseInt(count, 10) || 1));
                const pauseMs = Math.max(0, Math.min(1000, parseInt(pause, 10) || 0));
                let k = 0;
                for (let n = 0; n < screens && !this.ended; n++) {
                    let out = `${ESC}[H`;
                    for (let r = 0; r < this.rows - 1; r++) {
                        for (let c = 0; c < this.cols; c++, k++) {
                            const fg = (k * 2654435761) >>> 8;
                            const bg = (k * 40503 + 12345) & 0xffffff;
                            out += `${ESC}[38;2;${fg >> 16 & 255};${fg >> 8 & 255};${fg & 255};48;2;${bg >> 16 & 255};${bg >> 8 & 255};${bg & 255}m${String.fromCharCode(33 + k % 94)}`;
                        }
                        out += r < this.rows - 2 ? '\r\n' : '';
                    }
                    if (!this.write(out)) {
                        await this.sink.waitDrain();
                    }
                    if (pauseMs) {
                        await new Promise(r => setTimeout(r, pauseMs));
                    }
                }
                this.write(`${ESC}[0m${ESC}[H${ESC}[2J`);
                this.println(`colours done ${screens}`);
                return;
            }
            case 'bell':
                this.write(BEL);
                this.sent('bell');
                return;
            case 'echo':
                this.println(arg);
                return;
            case 'keys':
                this.println('[keys: press keys, q ends]');
                this.keyEcho = true;
                return;
            case 'panes': {
                // sandy's multi-agent window (SANDY_AGENT=a,b[,c[,d]]) as its tmux draws it, at this terminal's size:
                // each pane a real agent's recorded screen (see test/fixtures/agent-screens/sandy-tmux/README.md).
                const names = arg.trim().split(/\s+/).filter(Boolean);
                const screens = names.map(n => /^[a-z]+\/[a-z0-9-]+$/.test(n) ? path.join(AGENT_SCREENS, `${n}.txt`) : '');
                if (names.length < 2 || names.length > 4 || screens.some(f => !f || !fs.existsSync(f))) {
                    this.println(`panes: give 2 to 4 recorded screens as <agent>/<screen>`);
                    return;
                }
                this.write(sandyPanesScreen(names.map((n, i) => ({ agent: n.split('/')[0], lines: fs.readFileSync(screens[i], 'utf8').replace(/\n$/, '').split('\n') })), this.cols, this.rows));
                this.noPrompt = true;
                return;
            }
            case 'show': {
                // A real agent's recorded screen (test/fixtures/agent-screens/<agent>/<scenario>.txt), drawn as the
                // agent drew it: an agent waiting at its own dialog for the IDE's prompt detection.
                const name = arg.trim();
                const file = path.join(AGENT_SCREENS, `${name}.txt`);
                if (!/^[a-z]+\/[a-z0-9-]+$/.test(name) || !fs.existsSync(file)) {
                    this.println(`show: no recorded screen ${name}`);
                    return;
                }
                const lines = fs.readFileSync(file, 'utf8').split('\n').slice(0, this.rows);
                this.write(`${ESC}[H${ESC}[2J` + lines.map((l, i) => `${ESC}[${i + 1};1H${l}`).join(''));
                this.noPrompt = true;
                return;
            }
            case 'raw':
                // Like printf: \n, \r and \e escapes, no newline and no "> " after it (an agent drawing a prompt and waiting).
                this.write(arg.replace(/\\n/g, '\r\n').replace(/\\r/g, '\r').replace(/\\e/g, ESC));
                this.noPrompt = true;
                return;
            case 'tmux':
                this.passthrough = true;
                try {
                    await this.run(arg.trim());
                } finally {
                    this.passthrough = false;
                }
                return;
            case 'later': {
                const k = arg.indexOf(' ');
                const seconds = Number(k < 0 ? arg : arg.slice(0, k));
                if (!Number.isFinite(seconds) || seconds < 0 || k < 0) {
                    this.println('usage: later <seconds> <command>');
                    return;
                }
                const command = arg.slice(k + 1).trim();
                this.println(`[later ${seconds}s: ${command}]`);
                setTimeout(() => {
                    if (!this.ended) {
                        this.logEvent(command);
                        void this.run(command);
                    }
                }, seconds * 1000);
                return;
            }
            case 'when': {
                const k = arg.indexOf(' ');
                if (k <= 0) {
                    this.println('usage: when <file> <command>');
                    return;
                }
                const file = path.resolve(this.opts.workspace, arg.slice(0, k));
                const command = arg.slice(k + 1).trim();
                this.println(`[when ${path.basename(file)}: ${command}]`);
                const timer = setInterval(() => {
                    if (this.ended) {
                        clearInterval(timer);
                    } else if (fs.existsSync(file)) {
                        clearInterval(timer);
                        this.logEvent(command);
                        void this.run(command);
                    }
                }, 100);
                return;
            }
            case 'every': {
                const k = arg.indexOf(' ');
                const seconds = Number(k < 0 ? arg : arg.slice(0, k));
                if (!Number.isFinite(seconds) || seconds < 0.05 || k < 0) {
                    this.println('usage: every <seconds ≥ 0.05> <command>');
                    return;
                }
                const command = arg.slice(k + 1).trim();
                this.println(`[every ${seconds}s: ${command}]`);
                const timer = setInterval(() => {
                    if (this.ended) {
                        clearInterval(timer);
                    } else {
                        void this.run(command);
                    }
                }, seconds * 1000);
                return;
            }
            case 'repeat': {
                const k = arg.indexOf(' ');
                const n = parseInt(k < 0 ? arg : arg.slice(0, k), 10);
                if (!Number.isFinite(n) || n < 0 || k < 0) {
                    this.println('usage: repeat <n> <command>');
                    return;
                }
                this.quiet = true;
                try {
                    for (let i = 0; i < n && !this.ended && !this.interrupted; i++) {
                        await this.run(arg.slice(k + 1).trim().replace(/\{n\}/g, String(i + 1)));
                    }
                } finally {
                    this.quiet = false;
                }
                this.println(`[repeat ${n} done]`);
                return;
            }
            case 'env': {
                const keys = Object.keys(process.env).sort();
                for (const k of keys) {
                    this.println(`${k}=${process.env[k]}`);
                }
                return;
            }
            case 'flood':
                await this.flood(parseInt(arg, 10));
                return;
            case 'floodclip': {
                const j = arg.indexOf(' ');
                await this.flood(parseInt(arg, 10), j < 0 ? '' : arg.slice(j + 1));
                return;
            }
            case 'size':
                this.println(`${this.rows}\u00d7${this.cols}`);
                return;
            case 'clear':
                this.redraw();
                return;
            case 'detach':
                if (this.opts.onDetach) {
                    this.opts.onDetach();
                } else {
                    this.println('fake-sandy: detach only works in a daemon session');
                }
                return;
            case 'exit': {
                const code = arg === '' ? 0 : parseInt(arg, 10);
                this.ended = true;
                this.opts.onExit(Number.isFinite(code) ? code & 0xff : 0);
                return;
            }
            default:
                this.println(`fake-sandy: unknown command: ${verb} (try 'help')`);
        }
    }

    /** `clip`: an OSC 52 write of it after line n/2, inside the stream (no pause around it). */
    private async flood(n: number, clip?: string): Promise<void> {
        if (!Number.isFinite(n) || n < 0) {
            this.println(clip === undefined ? 'usage: flood <n>' : 'usage: floodclip <n> <text>');
            return;
        }
        this.logEvent(`flood-start ${n}`);
        const filler = 'the quick brown fox jumps over the lazy dog 0123456789';
        const batch = 256;
        const clipAt = clip ? Math.floor(n / 2) : -1;
        for (let i = 1; i <= n && !this.ended && !this.interrupted; i += batch) {
            let chunk = '';
            for (let k = i; k < i + batch && k <= n; k++) {
                chunk += `flood ${k}/${n} ${filler}\r\n`;
                if (k === clipAt) {
                    chunk += `${ESC}]52;c;${Buffer.from(clip!, 'utf8').toString('base64')}${ST}`;
                }
            }
            if (!this.write(chunk)) {
                await this.sink.waitDrain();
            }
        }
        this.println(this.interrupted ? `flood interrupted` : `flood done ${n}`);
        // Its last line is handed to the PTY (or, in a daemon session, queued on its socket): the bench sets what follows against the view.
        this.logEvent(`flood-written ${n}`);
    }

    isDrawn(): boolean {
        return this.drawn;
    }
}
