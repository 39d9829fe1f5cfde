import * as fs from 'fs';
import * as path from 'path';

/** test/fixtures/agent-screens (README there), found above the compiled spec. */
export function agentScreensRoot(): string {
    let dir = __dirname;
    for (;;) {
        const candidate = path.join(dir, 'test', 'fixtures', 'agent-screens');
        if (fs.existsSync(path.join(candidate, 'README.md'))) {
            return candidate;
        }
        const parent = path.dirname(dir);
        if (parent === dir) {
            throw new Error(`test/fixtures/agent-screens not found above ${__dirname}`);
        }
        dir = parent;
    }
}

/** A recording of sandy's multi-agent window (sandy-tmux/README.md): its raw tmux stream, or its visible rows. */
export function sandyTmuxRecording(name: string, kind: 'raw' | 'txt'): string {
    return fs.readFileSync(path.join(agentScreensRoot(), 'sandy-tmux', `${name}.${kind}`), 'utf8');
}
