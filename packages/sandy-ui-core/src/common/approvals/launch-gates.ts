/**
 * sandy's launch gates as the user must see them before any launch, and the watcher that lets a
 * sandy tab answer sandy's own prompts for exactly what the user was shown.
 *
 * sandy asks three questions on the terminal it runs in (CONTRACT §4): workspace privileged keys
 * (`Approve these keys for this workspace? [y/N]`, /dev/tty), the project `.sandy/Dockerfile`
 * (`Build this .sandy/Dockerfile for WORK_DIR? [y/N]`, /dev/tty) and symlinks that escape the
 * workspace (`Proceed anyway? [y/N]`, stdin). sandy records the decision itself (its approval files),
 * so the next launch of an unchanged project asks nothing and Revoke really revokes. The IDE never
 * sets `SANDY_AUTO_APPROVE_PRIVILEGED` (it would skip the Dockerfile gate unseen and record nothing).
 *
 * Pure: no Node, no DOM.
 */

/** The gates sandy may ask about, in the order it asks. */
export type GateKind = 'privileged' | 'dockerfile' | 'symlinks';

/** `.sandy/Dockerfile` as sandy's gate sees it (`_sandy_project_dockerfile_approved`, sandy:7988-8048). */
export interface DockerfileGate {
    /** `$WORK_DIR/.sandy/Dockerfile`. */
    readonly path: string;
    /** The whole file, verbatim (the view shows all of it; sandy prints at most 200 lines). */
    readonly text: string;
    /** The lines sandy prints after `[sandy]   | `: complete lines 1-200, control characters removed. */
    readonly shownLines: readonly string[];
    /** sandy adds "... (truncated — review the full file)" (more than 200 lines). */
    readonly truncated: boolean;
    /** Other build-context files, relative to `.sandy/` (hashed by sandy, contents not shown), byte-sorted. */
    readonly contextFiles: readonly string[];
    /**
     * Build-context files sandy's hash leaves out (named `config` or `.secrets` below `.sandy/`): Docker
     * still builds with them, but a change to them is never asked about again.
     */
    readonly unhashedFiles?: readonly string[];
    /** `_sandy_context_hash` of `.sandy/`: what sandy's approval file must hold on line 1. */
    readonly hash: string;
    readonly approvalFilePath: string;
    /** Line 1 of sandy's approval file when it exists (a different hash: the context changed). */
    readonly approvedHash?: string;
    /** The Dockerfile text the user approved last time in this IDE, for "what changed". */
    readonly previousText?: string;
}

/** Symlinks under the workspace that resolve outside it but under `$HOME` (sandy:9089-9131). */
export interface SymlinkGate {
    /** `link -> target` exactly as sandy prints and records them, sorted. */
    readonly entries: readonly string[];
    /** `<sandbox>/.sandy-approved-symlinks.list`. */
    readonly approvedListPath: string;
}

/** Everything sandy will ask about on the next launch; undefined members are not asked. */
export interface PendingGates {
    readonly workspace: string;
    /** The privileged keys' approval-set hash and its key names (sorted, unique). */
    readonly privileged?: { readonly setHash: string; readonly keys: readonly string[] };
    readonly dockerfile?: DockerfileGate;
    readonly symlinks?: SymlinkGate;
}

/** Whether any gate will prompt. */
export function hasPendingGates(gates: PendingGates): boolean {
    return !!(gates.privileged || gates.dockerfile || gates.symlinks);
}

/**
 * The canonical identity of what was shown: a launch approved with this token is answered only if
 * the files still produce the same token at each prompt. `hash` is the host's SHA-256.
 */
export function gatesToken(gates: PendingGates, hash: (text: string) => string): string {
    return hash(JSON.stringify({
        w: gates.workspace,
        p: gates.privileged?.setHash ?? null,
        d: gates.dockerfile?.hash ?? null,
        s: gates.symlinks?.entries ?? null
    }));
}

/** `LC_ALL=C tr -d '[:cntrl:]'`: C0 controls and DEL. */
export function stripControlChars(text: string): string {
    return text.replace(/[\x00-\x1f\x7f]/g, '');
}

/**
 * Text for a review view: every control character except tab and newline, and every bidi
 * override/isolate, is shown as a visible escape (`\x1b`, `\u202e`), so nothing in a file can hide
 * or reorder what the user approves.
 */
export function revealControlChars(text: string): string {
    return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, c => {
        const code = c.charCodeAt(0);
        return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    });
}

/** Characters no terminal line sandy prints may carry without becoming ambiguous (C0, DEL, C1). */
export const CONTROL_CHARS = /[\x00-\x1f\x7f-\x9f]/;

/**
 * What sandy prints of a Dockerfile: `sed -n '1,200p' | while IFS= read -r` (an unterminated last
 * line is never printed), each line with control characters removed; `wc -l > 200` truncates.
 */
export function dockerfileShownLines(text: string): { lines: string[]; truncated: boolean } {
    const complete = text.split('\n').slice(0, -1);
    return { lines: complete.slice(0, 200).map(stripControlChars), truncated: complete.length > 200 };
}

export type DiffOp = { readonly op: 'same' | 'added' | 'removed'; readonly text: string };

/** Line diff (LCS) of two texts; undefined when they are too large to diff cheaply. */
export function diffLines(before: string, after: string, maxCells = 4_000_000): DiffOp[] | undefined {
    const a = before.split('\n');
    const b = after.split('\n');
    if (a.length * b.length > maxCells) {
        return undefined;
    }
    const rows = a.length + 1;
    const cols = b.length + 1;
    const lcs = new Uint32Array(rows * cols);
    for (let i = a.length - 1; i >= 0; i--) {
        for (let j = b.length - 1; j >= 0; j--) {
            lcs[i * cols + j] = a[i] === b[j] ? lcs[(i + 1) * cols + j + 1] + 1 : Math.max(lcs[(i + 1) * cols + j], lcs[i * cols + j + 1]);
        }
    }
    const ops: DiffOp[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
        if (a[i] === b[j]) {
            ops.push({ op: 'same', text: a[i] });
            i++;
            j++;
        } else if (lcs[(i + 1) * cols + j] >= lcs[i * cols + j + 1]) {
            ops.push({ op: 'removed', text: a[i++] });
        } else {
            ops.push({ op: 'added', text: b[j++] });
        }
    }
    while (i < a.length) {
        ops.push({ op: 'removed', text: a[i++] });
    }
    while (j < b.length) {
        ops.push({ op: 'added', text: b[j++] });
    }
    return ops;
}

// ---- answering sandy's prompts ------------------------------------------------------------------

const PRIVILEGED_PROMPT = '[sandy] Approve these keys for this workspace? [y/N] ';
const SYMLINK_PROMPT = '[sandy] Proceed anyway? [y/N] ';
const dockerfilePrompt = (workspace: string) => `[sandy] Build this .sandy/Dockerfile for ${workspace}? [y/N] `;
/** sandy's last line before the agent container starts (sandy:9875-9881): no gate comes after it. */
const LAUNCHING = /^\[sandy\] Launching .* sandbox/m;
/** Output kept for matching a prompt's block (the Dockerfile block is at most ~210 lines). */
const MAX_BUFFER = 256 * 1024;
/**
 * A program that takes the screen (an agent's TUI switching to the alternate screen): no gate of sandy's
 * comes after it. The watcher stops there too, should sandy's "Launching" line not have been seen.
 */
const TAKES_THE_SCREEN = /\x1b\[\?(?:1049|1047|47)h/;
/** An escape sequence a read may end inside of is kept for the next read up to this length (then it is text). */
const MAX_CARRIED_ESCAPE = 4096;

/**
 * Where `data` ends inside an escape sequence (a PTY read can end anywhere): the index of its ESC, or
 * `data.length` when it ends outside one. Stripped on its own, the start of `\x1b[0;32m` was left in
 * front of sandy's coloured "Launching" line, and the watcher never saw it.
 */
function unfinishedEscape(data: string): number {
    const at = data.lastIndexOf('\x1b');
    if (at < 0) {
        return data.length;
    }
    const tail = data.slice(at);
    const finished = tail.length >= 2 && (
        tail[1] === '[' ? /^\x1b\[[0-?]*[ -/]*[@-~]/.test(tail)
            : tail[1] === ']' || tail[1] === 'P' || tail[1] === 'X' || tail[1] === '^' || tail[1] === '_' ? /\x07/.test(tail)
                : true);
    return finished || tail.length > MAX_CARRIED_ESCAPE ? data.length : at;
}

/** CSI, OSC, DCS/APC/PM/SOS strings and two-byte escapes, then CRs: what a prompt looks like on screen. */
export function plainTerminalText(data: string): string {
    return data
        .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
        .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, '')
        .replace(/\x1b[PX^_][^\x1b]*(?:\x1b\\)?/g, '')
        .replace(/\x1b[@-Z\\-_]/g, '')
        .replace(/\r+\n/g, '\n')
        .replace(/\r/g, '');
}

/** A prompt of sandy's whose block matches what the user was shown. */
export interface RecognisedPrompt {
    readonly gate: GateKind;
}

/**
 * Watches sandy's output for its gate prompts and says when one is on screen, complete and waiting
 * (the prompt is the last thing printed), with a block that matches exactly what the user approved:
 * the same key names, the same Dockerfile lines and build-context files for the same workspace, the
 * same symlink entries. Each gate is recognised at most once; after sandy's "Launching … sandbox"
 * line the watcher is done, so nothing the agent prints later can be mistaken for a prompt.
 */
export class GatePromptWatcher {
    protected buffer = '';
    /** The start of an escape sequence the last read ended inside of. */
    protected carried = '';
    protected readonly answered = new Set<GateKind>();
    protected finished = false;

    constructor(protected readonly approved: PendingGates) { }

    get done(): boolean {
        return this.finished;
    }

    /** Stop watching (session ended, or the host gives up). */
    finish(): void {
        this.finished = true;
        this.buffer = '';
        this.carried = '';
    }

    /** Feed raw PTY output; returns the gate whose prompt now waits for an answer, if any. */
    feed(data: string): RecognisedPrompt | undefined {
        if (this.finished) {
            return undefined;
        }
        const raw = this.carried + data;
        if (TAKES_THE_SCREEN.test(raw)) {
            this.finish();
            return undefined;
        }
        const cut = unfinishedEscape(raw);
        this.carried = raw.slice(cut);
        this.buffer += plainTerminalText(raw.slice(0, cut));
        if (this.buffer.length > MAX_BUFFER) {
            this.buffer = this.buffer.slice(-MAX_BUFFER);
        }
        if (LAUNCHING.test(this.buffer)) {
            this.finish();
            return undefined;
        }
        const gate = this.recognise();
        if (gate) {
            this.answered.add(gate);
            // What came before belongs to this prompt; the next block starts clean.
            this.buffer = '';
            if (this.answered.size === this.expected().length) {
                this.finish();
            }
            return { gate };
        }
        return undefined;
    }

    protected expected(): GateKind[] {
        const gates: GateKind[] = [];
        if (this.approved.privileged) {
            gates.push('privileged');
        }
        if (this.approved.dockerfile) {
            gates.push('dockerfile');
        }
        if (this.approved.symlinks) {
            gates.push('symlinks');
        }
        return gates;
    }

    protected recognise(): GateKind | undefined {
        const b = this.buffer;
        const { privileged, dockerfile, symlinks, workspace } = this.approved;
        if (privileged && !this.answered.has('privileged') && b.endsWith(PRIVILEGED_PROMPT)) {
            return this.privilegedBlockMatches(b.slice(0, -PRIVILEGED_PROMPT.length), privileged.keys, workspace) ? 'privileged' : undefined;
        }
        if (dockerfile && !this.answered.has('dockerfile') && b.endsWith(dockerfilePrompt(workspace))) {
            return this.dockerfileBlockMatches(b.slice(0, -dockerfilePrompt(workspace).length), dockerfile) ? 'dockerfile' : undefined;
        }
        if (symlinks && !this.answered.has('symlinks') && b.endsWith(SYMLINK_PROMPT)) {
            return this.symlinkBlockMatches(b.slice(0, -SYMLINK_PROMPT.length), symlinks.entries) ? 'symlinks' : undefined;
        }
        return undefined;
    }

    /** The lines of `text` from the last line that starts with `head`, or undefined. */
    protected blockFrom(text: string, head: string): string[] | undefined {
        const lines = text.split('\n');
        // The prompt itself has no newline, so the last element is '' (the prompt starts a line).
        if (lines[lines.length - 1] !== '') {
            return undefined;
        }
        const starts = lines.map((l, i) => l.startsWith(head) ? i : -1).filter(i => i >= 0);
        // sandy prints a gate's header once per prompt: a second one since the last answer is forged.
        return starts.length === 1 ? lines.slice(starts[0], -1) : undefined;
    }

    protected privilegedBlockMatches(text: string, keys: readonly string[], workspace: string): boolean {
        const block = this.blockFrom(text, '[sandy] Workspace config (');
        if (!block || !block[0].endsWith(') wants to set privileged keys:')) {
            return false;
        }
        const { listed, rest } = listedItems(block);
        return sameList(listed, keys) && onlySandyLines(rest) && rest.includes(`[sandy] approve it once for ${workspace}.`);
    }

    protected dockerfileBlockMatches(text: string, gate: DockerfileGate): boolean {
        const block = this.blockFrom(text, '[sandy] This project ships a .sandy/Dockerfile:');
        if (!block || block[0] !== `[sandy] This project ships a .sandy/Dockerfile:  ${gate.path}`) {
            return false;
        }
        const shown = block.filter(l => l.startsWith('[sandy]   | ')).map(l => l.slice('[sandy]   | '.length));
        const expected = gate.truncated ? [...gate.shownLines, '... (truncated \u2014 review the full file)'] : [...gate.shownLines];
        const context = block.filter(l => l.startsWith('[sandy]   + build-context file (contents not shown): '))
            .map(l => l.slice('[sandy]   + build-context file (contents not shown): '.length));
        const otherLines = block.filter(l => !l.startsWith('[sandy]   | ') && !l.startsWith('[sandy]   + '));
        return sameList(shown, expected, true) && sameList(context, gate.contextFiles, true) && onlySandyLines(otherLines);
    }

    protected symlinkBlockMatches(text: string, entries: readonly string[]): boolean {
        const block = this.blockFrom(text, '[sandy] Symlinks that point outside the workspace:');
        if (!block) {
            return false;
        }
        const { listed, rest } = listedItems(block);
        return sameList(listed, entries) && onlySandyLines(rest);
    }
}

/** The `[sandy]   item` lines right after a block's header, and the lines after them. */
function listedItems(block: readonly string[]): { listed: string[]; rest: string[] } {
    let i = 1;
    while (i < block.length && block[i].startsWith('[sandy]   ')) {
        i++;
    }
    return { listed: block.slice(1, i).map(l => l.slice('[sandy]   '.length)), rest: block.slice(i) };
}

/** sandy's own explanatory lines: each tagged, and none another prompt. */
function onlySandyLines(lines: readonly string[]): boolean {
    return lines.every(line => line.startsWith('[sandy]') && !line.includes('[y/N]'));
}

function sameList(a: readonly string[], b: readonly string[], ordered = false): boolean {
    if (a.length !== b.length) {
        return false;
    }
    const x = ordered ? a : [...a].sort();
    const y = ordered ? b : [...b].sort();
    return x.every((v, i) => v === y[i]);
}

/** The one answer the tab types for the user, after the block matched and the files still match. */
export const GATE_ANSWER_YES = 'y\r';
