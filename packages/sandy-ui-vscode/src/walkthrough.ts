import type { SandyViewState } from '@sandy-ui/core/common';

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
 * So each step that becomes true is marked with VS Code's own `welcome.markStepComplete`, once per
 * window; an editor without that command (Theia's plugin host) is left as it is.
 */
export class WalkthroughTicks {
    protected readonly marked = new Set<string>();
    protected unavailable = false;

    /** `run`: the editor's executeCommand. */
    constructor(protected readonly extensionId: string, protected readonly run: (command: string, ...args: unknown[]) => PromiseLike<unknown>) { }

    update(facts: WalkthroughFacts): void {
        if (this.unavailable) {
            return;
        }
        for (const step of walkthroughStepsDone(facts)) {
            if (this.marked.has(step)) {
                continue;
            }
            this.marked.add(step);
            Promise.resolve(this.run('welcome.markStepComplete', `${this.extensionId}#${WALKTHROUGH_ID}#${step}`)).catch(() => {
                this.unavailable = true;
            });
        }
    }
}
