/**
 * How sandy runs a session: `daemon` = `sandy --start` (a labelled container with sandy's tmux
 * inside; it outlives the IDE, clients attach and detach), `foreground` = bare `sandy` on the IDE's
 * PTY (it ends with the IDE).
 */
export type SessionMode = 'daemon' | 'foreground';

/**
 * Who started a session: this IDE; a shell (`sandy --start` typed in a terminal); or an IDE that has
 * since gone (a foreground sandy that still holds its workspace lock: it can only be stopped).
 */
export type SessionOrigin = 'ide' | 'outside' | 'orphan';

/**
 * A daemon session's terminal: `starting` (`sandy --start` runs: image builds, then "ready"),
 * `attached` (the IDE's `sandy --attach` client shows it), `detached` (no client of ours; the session
 * runs on), `elsewhere` (another terminal ran `sandy --attach`: the last attach wins in sandy).
 */
export type SessionLink = 'starting' | 'attached' | 'detached' | 'elsewhere';

import type { Attention } from './session-attention';

/** What every surface knows about one sandy session. */
export interface SessionInfo {
    /**
     * Opaque. A daemon session's id is derived from its workspace, so it is the same after the IDE
     * restarts and a restored tab finds its session again; a foreground session's is random.
     */
    id: string;
    /** sandy's pid on our PTY (a foreground session or a daemon's attach client); the lock holder's for an orphan; 0 when none. */
    pid: number;
    mode: SessionMode;
    origin: SessionOrigin;
    /** Daemon sessions only. */
    link?: SessionLink;
    /** While `sandy --start` runs: how far it got (read from its output). */
    startPhase?: 'building' | 'starting' | 'ready';
    /** The last thing that went wrong with it that the user should know (a stop that timed out, an attach refused). */
    problem?: { message: string; hint: string };
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
    /** Why a session ended, when the IDE knows more than an exit code says. */
    endReason?: 'stopped' | 'agent-exited' | 'start-failed' | 'gone' | 'approval-changed';
    /** Launch gates sandy closed by itself because it could not ask (the session runs without them). */
    closedGates?: Array<'dropped-keys' | 'skipped-dockerfile'>;
    /** Where it stands for the user supervising many (the attention queue), as the backend saw it last. */
    attention?: Attention;
    /** When its last output arrived (undefined: none yet, or not hosted here). */
    lastOutputAt?: number;
}

/** Why the IDE stopped a session itself (not the user's Stop): its end says so. */
export interface StopCause {
    readonly endReason: 'approval-changed';
    readonly problem: { message: string; hint: string };
}

/** The stop escalation of the spec (MVP pillar 2): SIGINT → 3 s → SIGTERM → 2 s → SIGKILL. */
export interface StopTimings {
    interruptGraceMs: number;
    terminateGraceMs: number;
}

export const DEFAULT_STOP_TIMINGS: StopTimings = { interruptGraceMs: 3000, terminateGraceMs: 2000 };

/**
 * Back-pressure watermarks in characters of unacknowledged output: the PTY pauses above the high one and
 * resumes below the low one. VS Code's terminal uses 100 000 / 5 000; with the view writing a flood to
 * xterm in frames (terminal-view.ts), such a window capped the sandy tab near 2 MB/s, so it holds about a
 * sixth of a second of a fast flood instead (`npm run bench`, test/src/bench/README.md "Throughput steps").
 */
export const FLOW_CONTROL = { highWatermarkChars: 1_000_000, lowWatermarkChars: 250_000 } as const;

/**
 * Catching a view up on the alternate screen (node/terminal/screen-frame.ts). There a view is sent at
 * most `windowChars` it has not drawn; what comes meanwhile waits, and once the view has drawn half of
 * what it was sent, it gets a frame of the screen as it is in place of the waiting output, at most one
 * per `frameIntervalMs` while output keeps coming (every frame is a whole screen for the view to draw,
 * and drawing is most of its work in a flood: `npm run bench`). Until catching up ends, output goes to
 * the view only through frames. It ends when less than `windowChars` came since the last frame (that
 * is sent as it is: the view can draw it) or when the agent has printed nothing for `frameQuietMs`,
 * and the screen it stopped on goes at once. A frame is also made every `frameEveryChars` of waiting
 * output, which bounds what waits. The session pauses only when the backend's copy of the screen is
 * `maxUnparsedChars` behind the PTY, or a view's queue (no frame could stand for it) reaches
 * `maxQueuedChars`; it resumes below half of each.
 */
export const CATCH_UP = {
    windowChars: 64 * 1024, frameEveryChars: 1_000_000, frameIntervalMs: 100, frameQuietMs: 20,
    maxQueuedChars: 4_000_000, maxUnparsedChars: 512 * 1024
} as const;
