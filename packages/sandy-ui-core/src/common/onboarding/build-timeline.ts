/**
 * sandy's image build as a timeline (the Get Started wizard's "Build images" step): phases read
 * from sandy's own `[sandy] Building …` lines (sandy 1.7.1: base → egress proxy → agent ("sandbox
 * image") → skill-pack base → skill packs → project image), each with its elapsed time.
 * Untrusted text: escape sequences and control characters are stripped, lines capped, phases bounded.
 */

export type BuildPhaseId = 'base' | 'proxy' | 'agent' | 'skill-base' | 'skills' | 'project';

export interface BuildPhase {
    id: BuildPhaseId;
    label: string;
    detail?: string;
    state: 'running' | 'done' | 'up-to-date' | 'failed';
    startedAt: number;
    endedAt?: number;
}

export interface BuildTimeline {
    phases: BuildPhase[];
    state: 'waiting' | 'building' | 'done' | 'failed';
    error?: string;
}

const MAX_LINE = 300;
const MAX_PENDING = 64 * 1024;

const PHASES: ReadonlyArray<{ id: BuildPhaseId; start: RegExp; label: string }> = [
    { id: 'base', start: /^Building base image\b/, label: 'Base image (language runtimes)' },
    { id: 'proxy', start: /^Building egress proxy image\b(?:\s*\(([^)]*)\))?/, label: 'Egress proxy image' },
    { id: 'skill-base', start: /^Building skill pack base image\b/, label: 'Skill pack base image' },
    { id: 'skills', start: /^Building skill pack image\b(?:\s*\(([^)]*)\))?/, label: 'Skill pack image' },
    { id: 'agent', start: /^Building sandbox image\b/, label: 'Agent image' },
    { id: 'project', start: /^Building project image\b/, label: 'Project image (.sandy/Dockerfile)' }
];

const UP_TO_DATE = /\bup to date\.?$/i;
const FINISHED = /^(Build complete\b|Launching\b|Creating new sandbox\b|Reusing sandbox\b)/;
const ERROR = /^(ERROR|Error)\b:?\s*(.*)$/;

/** Text as one plain line: escape sequences, other control characters and `[sandy]` removed, capped. */
export function plainBuildLine(raw: string): string {
    return raw
        .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()][A-Z0-9]|\x1b./g, '')
        .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '')
        .replace(/^\s*\[sandy\]\s*/, '')
        .trim()
        .slice(0, MAX_LINE);
}

export class BuildTimelineParser {
    protected pending = '';
    protected phases: BuildPhase[] = [];
    protected state: BuildTimeline['state'] = 'waiting';
    protected error: string | undefined;

    constructor(protected readonly now: () => number) { }

    push(chunk: string): void {
        this.pending += chunk;
        const lines = this.pending.split(/\r?\n|\r/);
        this.pending = lines.pop() ?? '';
        if (this.pending.length > MAX_PENDING) {
            this.pending = this.pending.slice(-MAX_PENDING);
        }
        for (const line of lines) {
            this.line(plainBuildLine(line));
        }
    }

    end(exitCode: number | undefined): void {
        if (this.pending) {
            this.line(plainBuildLine(this.pending));
            this.pending = '';
        }
        if (this.state === 'done' || this.state === 'failed') {
            return;
        }
        const ok = exitCode === 0;
        this.closeRunning(ok ? 'done' : 'failed');
        this.state = ok ? 'done' : 'failed';
    }

    timeline(): BuildTimeline {
        return { phases: this.phases.map(p => ({ ...p })), state: this.state, ...(this.error ? { error: this.error } : {}) };
    }

    protected line(text: string): void {
        if (!text || this.state === 'done' || this.state === 'failed') {
            return;
        }
        const error = ERROR.exec(text);
        if (error) {
            this.error = text;
            this.closeRunning('failed');
            this.state = 'failed';
            return;
        }
        for (const phase of PHASES) {
            const m = phase.start.exec(text);
            if (m) {
                this.closeRunning('done');
                // The same phase again (a rebuild, a second skill pack) replaces its row: the list stays bounded.
                this.phases = this.phases.filter(p => p.id !== phase.id);
                this.phases.push({ id: phase.id, label: phase.label, ...(m[1] ? { detail: m[1].slice(0, 80) } : {}), state: 'running', startedAt: this.now() });
                this.state = 'building';
                return;
            }
        }
        const running = this.phases.find(p => p.state === 'running');
        if (running && UP_TO_DATE.test(text)) {
            running.state = 'up-to-date';
            running.endedAt = this.now();
        } else if (FINISHED.test(text)) {
            this.closeRunning('done');
            this.state = 'done';
        }
    }

    protected closeRunning(state: 'done' | 'failed'): void {
        for (const p of this.phases) {
            if (p.state === 'running') {
                p.state = state;
                p.endedAt = this.now();
            }
        }
    }
}

export function phaseElapsed(phase: BuildPhase, now: number): number {
    return Math.max(0, (phase.endedAt ?? now) - phase.startedAt);
}

const MARK: Record<BuildPhase['state'], string> = { 'running': '…', 'done': '✔', 'up-to-date': '✔', 'failed': '✘' };

/** One line per phase: `✔ Base image (language runtimes) — 2 min 3 s`. */
export function buildTimelineText(t: BuildTimeline, now: number): string[] {
    return t.phases.map(p => `${MARK[p.state]} ${p.label}${p.detail ? ` (${p.detail})` : ''} — ${p.state === 'up-to-date' ? 'up to date' : durationText(phaseElapsed(p, now))}`);
}

function durationText(ms: number): string {
    const s = Math.round(ms / 1000);
    return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
