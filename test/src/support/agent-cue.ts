import * as fs from 'fs';
import * as path from 'path';

/**
 * An agent command that waits for the test's cue (the fake sandy's `when <file> <command>`), so that
 * "the agent asks while the user looks elsewhere" holds whatever the load: with `later <s>` the agent
 * asked on a clock, and a slow look-away (the Welcome page opened from the palette under CI load) let
 * it ask while its tab was still in front — seen at once, so no wait.
 */
export interface AgentCue {
    /** Typed into the agent: `when <flag file> <command>`. */
    readonly line: string;
    /** What the agent echoes at once: `[when cue-N: <command>]`. */
    readonly echo: string;
    /** Makes the flag file: the agent runs the command within 100 ms. */
    give(): void;
}

export class AgentCues {
    private count = 0;

    /** `dir`: a folder of the test's own (outside every workspace); flag files are made in it. */
    constructor(private readonly dir: string) {}

    next(command: string): AgentCue {
        fs.mkdirSync(this.dir, { recursive: true });
        const name = `cue-${++this.count}`;
        const file = path.join(this.dir, name);
        return {
            line: `when ${file} ${command}`,
            echo: `[when ${name}: ${command}]`,
            give: () => fs.writeFileSync(file, '')
        };
    }
}
