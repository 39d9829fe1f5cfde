/**
 * The headless one-shot of the spec's launch options: a prompt, `sandy -p <prompt>` in the project,
 * the answer captured to a read-only viewer tab and to the session history. sandy prints its own
 * `[sandy]` lines on the same stdout as the agent's answer (CONTRACT §0.8, fixture 52); they are told
 * apart here. `-p` never asks: a workspace's privileged keys, its Dockerfile and a new escaping
 * symlink all fail closed, so there is no approval to show. Every word of it lives here.
 */
import { stripAnsi } from './daemon-output';

/** The most a prompt may hold (it is one argument of sandy's command line). */
export const MAX_HEADLESS_PROMPT_CHARS = 8000;

export interface HeadlessOutcome {
    ok: boolean;
    exitCode?: number;
    /** The agent's answer: stdout without sandy's lines, ANSI removed. */
    answer: string;
    /** sandy's own `[sandy]` lines, in order. */
    sandyLines: string[];
    /** sandy's stderr (its errors), bounded. */
    stderr: string;
    /** The history record holding the run, when history is kept. */
    historyId?: string;
}

/** The agent's answer and sandy's lines of a `sandy -p` stdout. */
export function splitHeadlessOutput(stdout: string): { answer: string; sandyLines: string[] } {
    const sandyLines: string[] = [];
    const answer: string[] = [];
    for (const raw of stripAnsi(stdout).replace(/\r\n/g, '\n').split('\n')) {
        if (/^\[sandy\]/.test(raw)) {
            sandyLines.push(raw);
        } else {
            answer.push(raw);
        }
    }
    while (answer.length && !answer[0].trim()) {
        answer.shift();
    }
    while (answer.length && !answer[answer.length - 1].trim()) {
        answer.pop();
    }
    return { answer: answer.join('\n'), sandyLines };
}

/** Why a prompt cannot be sent, or undefined. */
export function headlessPromptProblem(prompt: unknown): string | undefined {
    if (typeof prompt !== 'string' || !prompt.trim()) {
        return 'Type what the agent should do.';
    }
    if (prompt.length > MAX_HEADLESS_PROMPT_CHARS) {
        return `At most ${MAX_HEADLESS_PROMPT_CHARS} characters.`;
    }
    if (/^\s*-/.test(prompt)) {
        // sandy and the agent would read it as an option of theirs.
        return 'A prompt cannot start with "-".';
    }
    if (/[\x00]/.test(prompt)) {
        return 'The prompt holds a character a command line cannot carry.';
    }
    return undefined;
}

/** What the history keeps of the run, as a terminal shows it. */
export function headlessRecordText(prompt: string, outcome: Pick<HeadlessOutcome, 'answer' | 'sandyLines' | 'exitCode' | 'stderr'>): string {
    // Every line break as a terminal needs it (the viewer does not turn \n into \r\n): no staircase.
    const lines = [`$ sandy -p ${JSON.stringify(prompt)}`, '', ...(outcome.answer || '(no answer)').split(/\r\n|\r|\n/), ''];
    if (outcome.sandyLines.length || outcome.stderr.trim()) {
        lines.push('--- sandy ---', ...outcome.sandyLines, ...stripAnsi(outcome.stderr).trim().split('\n').filter(Boolean), '');
    }
    lines.push(`(exit ${outcome.exitCode ?? '?'})`, '');
    return lines.join('\r\n');
}

export const HEADLESS_PROMPT_TITLE = 'Sandy: Ask the Agent Once (sandy -p)';
export const HEADLESS_OPEN_ACTION = 'Open Answer';

export function headlessPromptPlaceholder(project: string): string {
    return `What should the agent of ${project} do? It answers once, without a session (sandy -p).`;
}

export function headlessRunningText(project: string): string {
    return `Sandy: ${project}: the agent is answering (sandy -p)…`;
}

export function headlessDoneText(project: string, answer: string): string {
    const first = answer.split('\n').find(l => l.trim())?.trim() ?? '';
    return `Sandy: ${project} answered${first ? `: ${first.length > 200 ? `${first.slice(0, 199)}…` : first}` : ' (no answer text)'}`;
}

export function headlessFailedText(project: string, outcome: Pick<HeadlessOutcome, 'exitCode' | 'stderr' | 'sandyLines'>): string {
    const why = stripAnsi(outcome.stderr).trim().split('\n').filter(Boolean).pop() ?? outcome.sandyLines[outcome.sandyLines.length - 1] ?? '';
    return `Sandy: sandy -p in ${project} failed (exit ${outcome.exitCode ?? '?'})${why ? `: ${why.slice(0, 400)}` : '.'}`;
}
