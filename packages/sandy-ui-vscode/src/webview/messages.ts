/**
 * The message layer between the extension host and its webviews: core's messenger
 * (`@sandy-ui/core/common`, zod schemas and one typed request/response messenger). Each feature's
 * `*-protocol.ts` declares both directions; the host parses everything a webview posts (a webview is a
 * web page that renders agent output: its messages are hostile input) and drops what does not parse.
 * Pure: compiled for the extension host and bundled into the webviews.
 */
import { parseMessage } from '@sandy-ui/core/common';

export type { ParseResult } from '@sandy-ui/core/common';

/** Validate one message against a protocol's schema, or say why not (the host logs it and drops the message). */
export const validate = parseMessage;
