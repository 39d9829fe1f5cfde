import type { ApprovalDecision, ApprovalRequest } from '@sandy-ui/core/common';
import { Check, int, messageOf, oneOf, optional, requestId, str } from './messages';

/** Messages of the pre-flight approval webview (core's ApprovalView ↔ SandyServiceCore pre-flight). */

export type ApprovalToHost =
    | { type: 'ready' }
    | { type: 'decide'; decision: ApprovalDecision }
    /** The raw line of a masked secret: answered only for a line of the request on screen. */
    | { type: 'reveal'; requestId: number; key: string; line: number }
    /** Open a file the request names (never any other path). */
    | { type: 'openFile'; path: string; line?: number };

export type ApprovalToWebview =
    | { type: 'render'; request: ApprovalRequest }
    | { type: 'revealed'; requestId: number; text?: string };

const line = int(1, 10_000_000);

export const checkApprovalToHost: Check<ApprovalToHost> = messageOf<ApprovalToHost>({
    ready: {},
    decide: { decision: oneOf<ApprovalDecision>('approve', 'reject', 'rebuild', 'launch-anyway', 'open-settings') },
    reveal: { requestId, key: str(128, /^[A-Za-z_][A-Za-z0-9_]*$/), line },
    openFile: { path: str(4096), line: optional(line) }
});
