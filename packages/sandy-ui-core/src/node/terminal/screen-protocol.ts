import type { TerminalNotification } from '../../common/terminal/osc-dispatch';

/**
 * The messages between a session's {@link ScreenState} (the thread that reads the PTYs) and its
 * {@link ScreenEngine} (screen-worker.ts: the backend's screen worker). Every screen of a process has
 * its number (`id`); requests that want an answer have theirs (`req`). Messages keep their order: an
 * answer is about every chunk written before its request.
 */
export type ScreenRequest =
    /** `seq`: the chunks written before (a screen opened again numbers on from there). */
    | { op: 'open'; id: number; cols: number; rows: number; seq: number }
    | { op: 'write'; id: number; seq: number; data: string }
    | { op: 'resize'; id: number; cols: number; rows: number }
    | { op: 'reset'; id: number }
    | { op: 'close'; id: number }
    /** `carriedFrom`: the first chunk whose carried sequences the asking view may need (it was sent the ones before). */
    | { op: 'frame'; id: number; req: number; notBefore: number; carriedFrom: number }
    | { op: 'serialize'; id: number; req: number }
    | { op: 'text'; id: number; req: number; maxRows: number }
    | { op: 'panes'; id: number; req: number; agents: string[] };

export type ScreenEvent =
    /** Chunks up to `seq` are parsed, `chars` characters since the last such message; the screen shown is the alternate one. */
    | { op: 'parsed'; id: number; seq: number; chars: number; alternate: boolean }
    | { op: 'notify'; id: number; notification: TerminalNotification }
    /** The screen's engine failed (the agent's output made it throw): it is gone; the screen is opened again, empty. */
    | { op: 'lost'; id: number; reason: string }
    /** The answer to request `req` (always after the `parsed` that covers what it is about). */
    | { op: 'reply'; id: number; req: number; value: unknown };

/** Either end of the channel: a worker's `parentPort`, a `Worker`, a `MessagePort`. */
export interface ScreenPort<In, Out> {
    postMessage(message: Out): void;
    on(event: 'message', listener: (message: In) => void): unknown;
}

/** The worker's data that says it is the screen worker (screen-worker.ts loaded into any other thread serves nothing). */
export const SCREEN_WORKER_DATA = { sandyScreens: 1 } as const;
