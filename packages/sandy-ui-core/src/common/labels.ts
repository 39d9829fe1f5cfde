import type { SessionInfo } from './session-types';

/** Last path segment of a workspace, for tab titles (POSIX and Windows separators). */
export function workspaceLabel(workspace: string): string {
    const trimmed = workspace.replace(/[\\/]+$/, '');
    const idx = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
    return (idx >= 0 ? trimmed.slice(idx + 1) : trimmed) || workspace;
}

/** How a session ended, in words a user understands (codes from CONTRACT §6.5). */
export function describeExit(info: Pick<SessionInfo, 'exitCode' | 'signal' | 'status'>): string {
    if (info.status !== 'exited') {
        return 'sandy is running.';
    }
    if (info.signal) {
        return info.signal === 'SIGKILL'
            ? 'sandy was killed (SIGKILL); its lock and temporary files may remain — the next launch cleans the stale lock.'
            : `sandy ended on ${info.signal}.`;
    }
    switch (info.exitCode) {
        case 0: return 'sandy exited normally.';
        case 130: return 'sandy stopped (interrupted, exit 130).';
        case 143: return 'sandy stopped (terminated, exit 143).';
        case 129: return 'sandy stopped (hang-up, exit 129).';
        case undefined: return 'sandy ended.';
        default: return `sandy exited with code ${info.exitCode}.`;
    }
}

/** "3m 12s" style elapsed time for the status bar. */
export function formatElapsed(ms: number): string {
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = s % 60;
    if (h) {
        return `${h}h ${m}m`;
    }
    if (m) {
        return `${m}m ${sec}s`;
    }
    return `${sec}s`;
}
