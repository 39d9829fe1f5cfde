import type { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import { ApplicationError } from '@theia/core/lib/common/application-error';
import type { SandyProblem, SandyService as CoreSandyService, SandyServiceEvents } from '@sandy-ui/core/common';

/** JSON-RPC path of the sandy service (one connection per window). */
export const SANDY_SERVICE_PATH = '/services/sandy';
/** Raw channel per session: `${SANDY_TERMINAL_PATH}/<sessionId>` (terminal bytes never go over JSON-RPC). */
export const SANDY_TERMINAL_PATH = '/services/sandy-terminal';

/** This window's end of the service's events (core's {@link SandyServiceEvents}). */
export type SandyServiceClient = SandyServiceEvents;

export const SandyService = Symbol('SandyService');
/** Core's one service API ({@link CoreSandyService}) as Theia's JSON-RPC proxy of it. */
export interface SandyService extends CoreSandyService, RpcServer<SandyServiceClient> { }

/**
 * Every failure of the service crosses JSON-RPC as this ApplicationError, its `data` the whole
 * {@link SandyProblem} (`code`, `message`, `hint`): core's `toProblem` reads it back in the frontend,
 * so the browser says what to do next, not only what went wrong.
 */
export const SandyServiceError = ApplicationError.declare(-37110, (problem: SandyProblem) => ({ message: problem.message, data: problem }));

/** Frames on the terminal channel: first byte is the kind. */
export enum TerminalFrame {
    /** backend → view: output; view → backend: input. */
    Data = 0,
    /** view → backend: characters rendered (back-pressure). */
    Ack = 1,
    /** backend → view: the session ended (JSON SessionInfo). */
    Exit = 2,
    /** backend → view: replay of earlier output, sent once on attach. */
    Replay = 3
}
