/**
 * sandy's image build as a timeline, for the Get Started wizard's "Build images" step: the phases
 * read from sandy's own `[sandy] Building …` / `[sandy] … up to date.` lines, each with its elapsed
 * time, then done or failed.
 *
 * sandy 1.7.1 builds in this order (sandy:6572-6691, 7035-7071, 8077-8085): base → egress proxy →
 * agent ("sandbox image") → and, on a launch only (`--build-only` exits after the agent image),
 * skill-pack base → skill packs → project image (.sandy/Dockerfile). The build has ended at
 * `Build complete. Exiting (--build-only).` or at `Launching … sandbox...`. Real output of each case:
 * test/fixtures/sandy-build.
 *
 * Everything here is untrusted text (sandy's lines are mixed with `docker build` output, which a
 * project's Dockerfile writes): escape sequences and control characters are stripped, a line is
 * looked at only up to {@link MAX_RAW_LINE} characters and kept to {@link MAX_BUILD_LINE}, there
 * are at most {@link MAX_BUILD_PHASES} phases, and nothing the parser is given makes it throw.
 */

/** sandy's build phases, in the order sandy builds them. */
export type BuildPhaseId = 'base' | 'proxy' | 'agent' | 'skill-base' | 'skills' | 'project';

export type BuildPhaseState = 'running' | 'done' | 'up-to-date' | 'failed';

/** One image sandy built (or found up to date). */
export interface BuildPhase {
    id: BuildPhaseId;
    /** Words for the user: {@link BUILD_PHASE_LABELS}. */
    label: string;
    /** What sandy said about this one, e.g. `gstack`, `ref=main` (sanitised, short). */
    detail?: string;
    state: BuildPhaseState;
    /** When its line was read (the parser's clock). */
    startedAt: number;
    /** When the next phase started, the build ended, or the phase was found up to date. */
    endedAt?: number;
}

/** The build as the wizard shows it. */
export interface BuildTimeline {
    phases: BuildPhase[];
    /** `waiting`: sandy has not started building yet (pre-flight, approvals). */
    state: 'waiting' | 'building' | 'done' | 'failed';
    /** Why it failed, in sandy's (or docker's) words; absent when nothing said. */
    error?: string;
}

/** Which of sandy's streams a chunk came from (sandy's `error()` writes to stderr). */
export type BuildOutputStream = 'stdout' | 'stderr';

/** The order sandy builds in. */
export const BUILD_PHASE_ORDER: readonly BuildPhaseId[] = ['base', 'proxy', 'agent', 'skill-base', 'skills', 'project'];

/** What the wizard calls each phase. */
export const BUILD_PHASE_LABELS: Readonly<Record<BuildPhaseId, string>> = {
    'base': 'Base image (language runtimes)',
    'proxy': 'Egress proxy image',
    'agent': 'Agent image',
    'skill-base': 'Skill pack base image',
    'skills': 'Skill packs',
    'project': 'Project image (.sandy/Dockerfile)'
};

/** The mark in front of a phase's line. */
export const BUILD_PHASE_MARKS: Readonly<Record<BuildPhaseState, string>> = {
    'running': '…',
    'done': '✔',
    'up-to-date': '✔',
    'failed': '✘'
};

export const BUILD_UP_TO_DATE_TEXT = 'up to date';
export const BUILD_WAITING_TEXT = 'Waiting for sandy to start building…';
export const BUILD_RUNNING_TEXT = 'Building images…';
export const BUILD_DONE_TEXT = 'The images are built.';
export const BUILD_FAILED_NEXT_STEP = 'Show the raw log for everything sandy printed, fix the cause, then build again.';

/** Characters of one line kept after cleaning (an error line, a detail is shorter still). */
export const MAX_BUILD_LINE = 300;
/** Characters of one raw line looked at; the rest of that line is dropped unread. */
export const MAX_RAW_LINE = 16 * 1024;
/** At most one phase per id: a phase sandy announces again replaces its row. */
export const MAX_BUILD_PHASES = BUILD_PHASE_ORDER.length;
const MAX_DETAIL = 80;
/** An error is its first line and the lines continuing it, at most this many and this long. */
const MAX_ERROR_LINES = 4;
const MAX_ERROR = 600;

interface PhaseRule {
    id: BuildPhaseId;
    start: RegExp;
    upToDate: RegExp;
    /** The detail in the start line, if any. */
    detail?: (text: string) => string | undefined;
}

const parenthesised = (text: string): string | undefined => /\(([^()]*)\)/.exec(text)?.[1];

/** sandy:6572-8085 (`info "Building …"` / `info "… up to date."`), the words the fake sandy copies. */
const PHASE_RULES: readonly PhaseRule[] = [
    { id: 'base', start: /^Building base image\b/, upToDate: /^Base image up to date\b/ },
    { id: 'proxy', start: /^Building egress proxy image\b/, upToDate: /^Egress proxy image up to date\b/, detail: t => /\bref=[^\s,()]+/.exec(t)?.[0] },
    { id: 'agent', start: /^Building sandbox image\b/, upToDate: /^Sandbox image up to date\b/ },
    { id: 'skill-base', start: /^Building skill pack base image\b/, upToDate: /^Skill pack base image up to date\b/, detail: parenthesised },
    { id: 'skills', start: /^Building skill pack image\b/, upToDate: /^Skill pack image up to date\b/, detail: parenthesised },
    { id: 'project', start: /^Building project image\b/, upToDate: /^Project image up to date\b/ }
];

/** The build is over: `--build-only` is done, or the launch has begun (sandy:6691, 9875-9881). */
const FINISHED = /^(?:Build complete\b|Launching\b)/;
/** `info "Claude Code update available: 2.1.0 → 2.2.0"` comes right before the agent image is rebuilt (sandy:6627). */
const AGENT_UPDATE = /^(.{1,40}?) update available: (.+)$/;
/** sandy's `echo "[sandy] ERROR: …" >&2` sites. */
const SANDY_ERROR = /^(?:ERROR|Error|error)\s*:/;
/** docker's own failure lines (`ERROR: failed to solve: …`, `#12 ERROR: …`, `Error response from daemon: …`). */
const DOCKER_ERROR = /^(?:#\d+\s+)?(?:ERROR|Error)\b/;

/** sandy's `error()` tag: `\033[0;31m[sandy]` (sandy:297, 307), coloured only when stdout is a terminal. */
const RED_TAG = /\x1b\[(?:0;)?31m\[sandy\]/g;
/** Stands in for a red tag while the rest of the line is cleaned (any of these in the input is removed first). */
const RED_MARK = '\u0001';
/** CSI, OSC (to BEL, ST or the end), DCS/SOS/PM/APC strings, other ESC sequences, and their C1 forms. */
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?|\x9b[0-?]*[ -/]*[@-~]?|\x9d[^\x07\x9c]*[\x07\x9c]?|[\x90\x98\x9e\x9f][^\x9c]*\x9c?/g;
/** Control and format characters that are not text: C0 (but the red mark), DEL, C1, zero-width and bidi controls, BOM. */
const CONTROLS = /[\x00\x02-\x08\x0a-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;
/** Where a tagged part begins inside a line: a red tag anywhere, `[sandy]` only right after a `[y/N] ` prompt (its answer went elsewhere). */
const SPLIT = /\u0001|\[sandy\]/g;
const PROMPT_BEFORE = /\[[yY]\/[nN]\]\s*$/;

/** How a part of a line was tagged: sandy's red `error()` tag, its `[sandy]` tag, or not at all (docker, the agent). */
export type BuildLineTag = 'red' | 'sandy' | 'none';

/** A part of one line of sandy's output, cleaned. */
export interface BuildLineSegment {
    tag: BuildLineTag;
    text: string;
    /** The text began with two spaces or more: sandy's continuation lines (`  Start Docker … and retry.`). */
    indented: boolean;
}

/**
 * One raw line of sandy's output as the parts in it: the text before any tag, then each tagged part
 * (a prompt and the line after it can share a line on a terminal: `…? [y/N] [sandy] Approved.`).
 * Escape sequences and control characters are gone, each text is trimmed and capped.
 */
export function buildLineSegments(raw: string): BuildLineSegment[] {
    let text = String(raw).slice(0, MAX_RAW_LINE).split(RED_MARK).join('');
    text = text.replace(RED_TAG, RED_MARK).replace(ESCAPES, '').replace(/\t/g, ' ').replace(CONTROLS, '');
    const pieces: Array<{ tag: BuildLineTag; body: string }> = [];
    let tag: BuildLineTag = 'none';
    let from = 0;
    for (const m of text.matchAll(SPLIT)) {
        const at = m.index ?? 0;
        const red = m[0] === RED_MARK;
        if (red || (at > 0 && PROMPT_BEFORE.test(text.slice(Math.max(0, at - 12), at)))) {
            pieces.push({ tag, body: text.slice(from, at) });
            tag = red ? 'red' : 'sandy';
            from = at + m[0].length;
        } else if (at === 0) {
            tag = 'sandy';
            from = m[0].length;
        }
    }
    pieces.push({ tag, body: text.slice(from) });
    const segments: BuildLineSegment[] = [];
    for (const piece of pieces) {
        const body = piece.body.replace(/^ /, '');
        const trimmed = body.trim().slice(0, MAX_BUILD_LINE);
        if (trimmed || piece.tag !== 'none') {
            segments.push({ tag: piece.tag, text: trimmed, indented: /^ {2}/.test(body) });
        }
    }
    return segments;
}

/** One line of sandy's output as plain text: no escape sequences, no control characters, capped. */
export function plainBuildLine(raw: string): string {
    return buildLineSegments(raw).map(s => (s.tag === 'none' ? s.text : `[sandy] ${s.text}`.trim())).join(' ').slice(0, MAX_BUILD_LINE);
}

interface LineBuffer {
    text: string;
    /** The current line went past MAX_RAW_LINE: the rest of it is dropped. */
    overflow: boolean;
}

/**
 * Reads sandy's output as it streams and keeps the timeline. Chunks may split lines and escape
 * sequences anywhere; stdout and stderr are buffered apart (pass the stream where it is known:
 * without a terminal sandy's errors are uncoloured and only their stream tells them apart).
 */
export class BuildTimelineParser {
    protected readonly buffers: Record<BuildOutputStream, LineBuffer> = { stdout: { text: '', overflow: false }, stderr: { text: '', overflow: false } };
    protected phases: BuildPhase[] = [];
    protected state: BuildTimeline['state'] = 'waiting';
    protected error: string[] | undefined;
    /** The last error-like lines seen, sandy's uncoloured `error()` or docker's: what a non-zero exit is explained by. */
    protected candidate: string[] = [];
    protected last: 'error' | 'candidate' | 'other' = 'other';
    protected agentDetail: string | undefined;
    protected ended = false;

    constructor(protected readonly now: () => number) { }

    /** Output as it comes; `stream` defaults to stdout. */
    push(chunk: string, stream: BuildOutputStream = 'stdout'): void {
        try {
            if (this.ended || typeof chunk !== 'string' || chunk.length === 0) {
                return;
            }
            const buffer = this.buffers[stream === 'stderr' ? 'stderr' : 'stdout'];
            const eol = /\r\n|\n|\r/g;
            let from = 0;
            for (let m = eol.exec(chunk); m; m = eol.exec(chunk)) {
                this.append(buffer, chunk.slice(from, m.index));
                this.flush(buffer, stream);
                from = m.index + m[0].length;
            }
            this.append(buffer, chunk.slice(from));
        } catch {
            // Never thrown to the caller: a parser fault must not end the build it reports on.
        }
    }

    /** sandy exited (`undefined`: it could not be run, or was killed). A last line without its newline counts. */
    end(exitCode: number | undefined): void {
        try {
            if (this.ended) {
                return;
            }
            this.flush(this.buffers.stdout, 'stdout');
            this.flush(this.buffers.stderr, 'stderr');
            this.ended = true;
            if (this.state === 'done') {
                // After `Launching …` the exit code is the session's, not the build's.
                return;
            }
            if (this.state !== 'failed' && exitCode === 0) {
                this.close('done');
                this.state = 'done';
                return;
            }
            this.close('failed');
            if (this.state !== 'failed') {
                this.state = 'failed';
                this.error = this.candidate.length ? this.candidate : undefined;
            }
        } catch {
            this.ended = true;
        }
    }

    /** A copy of the timeline as it stands. */
    timeline(): BuildTimeline {
        const error = this.error ? joinError(this.error) : undefined;
        return { phases: this.phases.map(p => ({ ...p })), state: this.state, ...(error ? { error } : {}) };
    }

    protected append(buffer: LineBuffer, text: string): void {
        if (buffer.overflow || !text) {
            return;
        }
        const room = MAX_RAW_LINE - buffer.text.length;
        if (text.length > room) {
            buffer.text += text.slice(0, room);
            buffer.overflow = true;
        } else {
            buffer.text += text;
        }
    }

    protected flush(buffer: LineBuffer, stream: BuildOutputStream): void {
        const raw = buffer.text;
        buffer.text = '';
        buffer.overflow = false;
        if (raw) {
            for (const segment of buildLineSegments(raw)) {
                this.segment(segment, stream);
            }
        }
    }

    protected segment({ tag, text, indented }: BuildLineSegment, stream: BuildOutputStream): void {
        if (!text || this.state === 'done') {
            return;
        }
        const sandyError = tag === 'red' || (tag === 'sandy' && SANDY_ERROR.test(text));
        if (this.state === 'failed') {
            // The lines that go on with the error (`  Start Docker … and retry.`); anything else is after it.
            const continues = sandyError || (tag === 'sandy' && (stream === 'stderr' || indented));
            if (this.last === 'error' && continues && this.error && this.error.length < MAX_ERROR_LINES) {
                this.error.push(text);
            } else {
                this.last = 'other';
            }
            return;
        }
        if (sandyError) {
            this.close('failed');
            this.state = 'failed';
            this.error = [text];
            this.last = 'error';
            return;
        }
        if (tag === 'sandy' && this.sandyLine(text)) {
            this.last = 'other';
            return;
        }
        const candidate = (tag === 'sandy' && stream === 'stderr') || (tag === 'none' && DOCKER_ERROR.test(text));
        if (!candidate) {
            this.last = 'other';
        } else if (this.last !== 'candidate') {
            this.candidate = [text];
            this.last = 'candidate';
        } else if (this.candidate.length < MAX_ERROR_LINES) {
            this.candidate.push(text);
        }
    }

    /** One of sandy's `[sandy]` lines; true when it was about the build. */
    protected sandyLine(text: string): boolean {
        for (const rule of PHASE_RULES) {
            if (rule.start.test(text)) {
                const detail = rule.id === 'agent' ? this.agentDetail : rule.detail?.(text);
                this.agentDetail = undefined;
                this.begin(rule.id, 'running', detail);
                return true;
            }
            if (rule.upToDate.test(text)) {
                this.begin(rule.id, 'up-to-date', undefined);
                return true;
            }
        }
        if (FINISHED.test(text)) {
            this.close('done');
            this.state = 'done';
            return true;
        }
        const update = AGENT_UPDATE.exec(text);
        if (update) {
            this.agentDetail = `${update[1]} ${update[2]}`.slice(0, MAX_DETAIL);
            return true;
        }
        return false;
    }

    protected begin(id: BuildPhaseId, state: 'running' | 'up-to-date', detail: string | undefined): void {
        const at = this.clock();
        const running = this.phases.find(p => p.state === 'running');
        if (state === 'up-to-date' && running?.id === id) {
            running.state = 'up-to-date';
            running.endedAt = at;
            return;
        }
        this.close('done', at);
        // What was said before this phase does not explain a failure in it (e.g. sandy's non-interactive notices).
        this.candidate = [];
        // A phase sandy announces again replaces its row: one row per id, however long the output.
        this.phases = this.phases.filter(p => p.id !== id);
        const cleanDetail = detail?.trim().slice(0, MAX_DETAIL);
        this.phases.push({
            id, label: BUILD_PHASE_LABELS[id], ...(cleanDetail ? { detail: cleanDetail } : {}), state, startedAt: at,
            ...(state === 'up-to-date' ? { endedAt: at } : {})
        });
        this.state = 'building';
    }

    protected close(state: 'done' | 'failed', at = this.clock()): void {
        for (const p of this.phases) {
            if (p.state === 'running') {
                p.state = state;
                p.endedAt = at;
            }
        }
    }

    protected clock(): number {
        try {
            const t = this.now();
            return Number.isFinite(t) ? t : 0;
        } catch {
            return 0;
        }
    }
}

function joinError(lines: string[]): string {
    return lines.join(' ').replace(/\s+/g, ' ').trim().slice(0, MAX_ERROR);
}

/** How long a phase took, or has taken so far (milliseconds, never negative). */
export function phaseElapsed(phase: BuildPhase, now: number): number {
    const ms = (phase.endedAt ?? now) - phase.startedAt;
    return Number.isFinite(ms) ? Math.max(0, ms) : 0;
}

/** `45 s`, `2 min 3 s`, `1 h 5 min`. */
export function buildDurationText(ms: number): string {
    const s = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
    if (s < 60) {
        return `${s} s`;
    }
    const min = Math.floor(s / 60);
    if (min < 60) {
        return s % 60 ? `${min} min ${s % 60} s` : `${min} min`;
    }
    return min % 60 ? `${Math.floor(min / 60)} h ${min % 60} min` : `${Math.floor(min / 60)} h`;
}

/** One phase's line: `✔ Base image (language runtimes) — 2 min 3 s`, `✔ Agent image — up to date`. */
export function buildPhaseText(phase: BuildPhase, now: number): string {
    const name = `${phase.label}${phase.detail ? ` (${phase.detail})` : ''}`;
    const elapsed = buildDurationText(phaseElapsed(phase, now));
    const when = phase.state === 'up-to-date' ? BUILD_UP_TO_DATE_TEXT : phase.state === 'failed' ? `failed after ${elapsed}` : elapsed;
    return `${BUILD_PHASE_MARKS[phase.state]} ${name} — ${when}`;
}

/** One line per phase, in the order sandy reached them. */
export function buildTimelineText(t: BuildTimeline, now: number): string[] {
    return t.phases.map(p => buildPhaseText(p, now));
}

/** Where the build stands, in a sentence; a failure says what failed and what to do next. */
export function buildStateText(t: BuildTimeline): string {
    switch (t.state) {
        case 'waiting': return BUILD_WAITING_TEXT;
        case 'building': return BUILD_RUNNING_TEXT;
        case 'done': return BUILD_DONE_TEXT;
        default: {
            const failed = t.phases.find(p => p.state === 'failed');
            const what = failed ? `Building the ${failed.label.replace(/^./, c => c.toLowerCase())} failed` : 'The build failed';
            return `${what}${t.error ? `: ${t.error}` : '.'} ${BUILD_FAILED_NEXT_STEP}`;
        }
    }
}
