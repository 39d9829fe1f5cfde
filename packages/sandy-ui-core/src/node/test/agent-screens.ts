import * as fs from 'fs';
import * as path from 'path';
import { repoFixtureFolder } from './sandy-fixtures';

/** test/fixtures/agent-screens (README there). */
export function agentScreensRoot(): string {
    return repoFixtureFolder('agent-screens', 'README.md');
}

/** A recording of sandy's multi-agent window (sandy-tmux/README.md): its raw tmux stream, or its visible rows. */
export function sandyTmuxRecording(name: string, kind: 'raw' | 'txt'): string {
    return fs.readFileSync(path.join(agentScreensRoot(), 'sandy-tmux', `${name}.${kind}`), 'utf8');
}
