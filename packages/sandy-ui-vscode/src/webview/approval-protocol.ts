import { z } from 'zod';
import type { ApprovalDecision, ApprovalRequest } from '@sandy-ui/core/common';
import { intField, messageSchema, messageSet, MessageOf, optionalField, Protocol, requestSpec, textField, trustedField } from '@sandy-ui/core/common';

/** Messages of the pre-flight approval webview (core's ApprovalView ↔ SandyServiceCore pre-flight). */

const line = intField(1, 10_000_000);
const decisions = ['approve', 'reject', 'rebuild', 'launch-anyway', 'open-settings'] as const satisfies readonly ApprovalDecision[];

export const approvalToHost = messageSet({
    notifications: {
        ready: {},
        /** `token`: the request the page rendered; a decision about any other request is refused. */
        decide: { decision: z.enum(decisions), token: textField(256) },
        /** Open a file the request names (never any other path). */
        openFile: { path: textField(4096), line: optionalField(line) }
    },
    requests: {
        /** The raw line of a masked secret: answered only for a line of the request on screen. */
        reveal: requestSpec({ key: textField(128, /^[A-Za-z_][A-Za-z0-9_]*$/), line }, optionalField(z.string()))
    }
});

export const approvalToView = messageSet({
    notifications: {
        /** The host's own pre-flight report (its envelope is checked). */
        render: { request: trustedField<ApprovalRequest>() }
    }
});

export const approvalProtocol: Protocol<typeof approvalToHost, typeof approvalToView> = {
    name: 'sandy approval', toHost: approvalToHost, toView: approvalToView
};

export type ApprovalToHost = MessageOf<typeof approvalToHost>;
export type ApprovalToWebview = MessageOf<typeof approvalToView>;
export const checkApprovalToHost = messageSchema(approvalToHost);
