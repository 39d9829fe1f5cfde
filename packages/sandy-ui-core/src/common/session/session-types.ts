/** What every surface knows about one sandy session hosted in a PTY. */
export interface SessionInfo {
    /** Opaque, stable for the life of the backend. */
    id: string;
    pid: number;
    /** Canonical workspace path (sandy's cwd). */
    workspace: string;
    /** argv after the sandy executable. */
    args: string[];
    startedAt: number;
    endedAt?: number;
    status: 'running' | 'stopping' | 'exited';
    exitCode?: number;
    /** Signal name when the process died of a signal. */
    signal?: string;
    /** Views currently attached (all windows). */
    attachedViews: number;
    /** Agent as configured for this launch, when known. */
    agent?: string;
}

/** The stop escalation of the spec (MVP pillar 2): SIGINT → 3 s → SIGTERM → 2 s → SIGKILL. */
export interface StopTimings {
    interruptGraceMs: number;
    terminateGraceMs: number;
}

export const DEFAULT_STOP_TIMINGS: StopTimings = { interruptGraceMs: 3000, terminateGraceMs: 2000 };

/** Back-pressure watermarks in characters of unacknowledged output (VS Code terminalProcess uses the same). */
export const FLOW_CONTROL = { highWatermarkChars: 100_000, lowWatermarkChars: 5_000 } as const;
