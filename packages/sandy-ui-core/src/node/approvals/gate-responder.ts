import { GATE_ANSWER_YES, GateKind, GatePromptWatcher, PendingGates } from '../../common/approvals/launch-gates';

/** How long sandy's prompt must stay the last thing on screen before the tab answers it. */
export const PROMPT_SETTLE_MS = 150;

export interface GateResponderOptions {
    /** What the user was shown and approved. */
    approved: PendingGates;
    /** Whether the files behind this gate are, right now, still exactly what the user approved. */
    recheck(gate: GateKind): Promise<boolean>;
    /** sandy's prompt was answered for the user. */
    onAnswered(gate: GateKind): void;
    /** A prompt is left to the user, with the reason. */
    onDeclined(gate: GateKind, reason: string): void;
    settleMs?: number;
}

/**
 * Answers sandy's gate prompts in the sandy tab for exactly the set the user approved in the
 * approval view, and nothing else: the prompt's block must match what was shown
 * ({@link GatePromptWatcher}), the prompt must still be the last output after a short settle (no
 * keystroke of the user's and no further output in between), and the files must still be what
 * the user approved. Otherwise the prompt stays on screen for the user to answer. sandy records the
 * decision in its own approval files.
 */
export class GateResponder {
    protected readonly watcher: GatePromptWatcher;
    protected seq = 0;

    constructor(protected readonly options: GateResponderOptions) {
        this.watcher = new GatePromptWatcher(options.approved);
    }

    /** The supervisor's output observer. */
    readonly observe = (data: string, input: (text: string) => void): void => {
        const seq = ++this.seq;
        const prompt = this.watcher.feed(data);
        if (!prompt) {
            return;
        }
        setTimeout(() => {
            if (seq !== this.seq) {
                this.options.onDeclined(prompt.gate, 'more output followed the prompt');
                return;
            }
            this.options.recheck(prompt.gate).then(same => {
                if (seq !== this.seq) {
                    this.options.onDeclined(prompt.gate, 'more output followed the prompt');
                } else if (!same) {
                    this.options.onDeclined(prompt.gate, 'the files changed since you approved them');
                } else {
                    input(GATE_ANSWER_YES);
                    this.options.onAnswered(prompt.gate);
                }
            }, (e: unknown) => this.options.onDeclined(prompt.gate, e instanceof Error ? e.message : String(e)));
        }, this.options.settleMs ?? PROMPT_SETTLE_MS);
    };
}
