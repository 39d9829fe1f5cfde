import type { SandyViewState } from '@sandy-ui/core/common';

/** VS Code's command that marks a walkthrough step done (its argument: `<extension id>#<walkthrough>#<step>`). */
const MARK_STEP_COMPLETE = 'welcome.markStepComplete';

/** The walkthrough's id in package.json (contributes.walkthroughs). */
export const WALKTHROUGH_ID = 'getStarted';

/** What the window knows that a walkthrough step stands for. */
export interface WalkthroughFacts {
    state: SandyViewState;
    /** Any project has been launched (sandy's record of its sandbox, or a session now). */
    launched: boolean;
}

/**
 * The walkthrough steps that are true now: "Install sandy" once sandy is found, "Add a project" once a
 * project is listed, "Launch sandy" once one has been launched. ("Review the settings" ticks when opened.)
 */
export function walkthroughStepsDone(facts: WalkthroughFacts): string[] {
    const done: string[] = [];
    if (facts.state === 'ready' || facts.state === 'empty') {
        done.push('install');
    }
    if (facts.state === 'ready') {
        done.push('addProject');
    }
    if (facts.launched) {
        done.push('launch');
    }
    return done;
}

/**
 * Ticks the walkthrough's steps from real state. Its `onContext` completion events are not enough:
 * VS Code creates the walkthrough service only when a walkthrough is first shown, and a context key
 * that is already true then never ticks its step (it counts as seen, not as progress; VS Code 1.100).
 * So each step that becomes true is marked with VS Code's own `welcome.markStepComplete`. A refusal is
 * retried at the next update (VS Code registers an extension's steps a moment after it creates the
 * service, and refuses a step it does not know yet), a few times at most; an editor without that command
 * (Theia's plugin host) is left as it is.
 */
export class WalkthroughTicks {
    /** Steps marked, or being marked. */
    protected readonly marked = new Set<string>();
    protected readonly refusals = new Map<string, number>();
    protected unavailable = false;

    /** `run`: the editor's executeCommand; `hasCommand`: whether the editor has a command of that id. */
    constructor(
        protected readonly extensionId: string,
        protected readonly run: (command: string, ...args: unknown[]) => PromiseLike<unknown>,
        protected readonly hasCommand: (command: string) => PromiseLike<boolean>,
        protected readonly maxRefusals = 5
    ) { }

    update(facts: WalkthroughFacts): void {
        if (this.unavailable) {
            return;
        }
        for (const step of walkthroughStepsDone(facts)) {
            if (this.marked.has(step)) {
                continue;
            }
            this.marked.add(step);
            Promise.resolve(this.run(MARK_STEP_COMPLETE, `${this.extensionId}#${WALKTHROUGH_ID}#${step}`)).catch(async () => {
                if (!await Promise.resolve(this.hasCommand(MARK_STEP_COMPLETE)).then(has => has, () => false)) {
                    this.unavailable = true;
                    return;
                }
                const refused = (this.refusals.get(step) ?? 0) + 1;
                this.refusals.set(step, refused);
                if (refused < this.maxRefusals) {
                    this.marked.delete(step);
                }
            });
        }
    }
}
