import type { TerminalNotification } from '@sandy-ui/core/common';
import { Check, int, messageOf, oneOf, optional, str } from './messages';

/** Messages of the sandy terminal webview (core's SandyTerminalView ↔ the session in the extension host). */

/** One write of typed or pasted input; larger pastes arrive in several messages. */
export const MAX_INPUT_CHARS = 1024 * 1024;
/** OSC 52 clipboard payload after base64 decoding (xterm hands us decoded text). */
export const MAX_CLIPBOARD_CHARS = 1024 * 1024;
export const MAX_LINK_CHARS = 8192;
export const MAX_NOTIFICATION_CHARS = 4096;

export type TerminalToHost =
    /** The view is laid out: its measured size (a launch never uses a default size). */
    | { type: 'ready'; cols: number; rows: number }
    | { type: 'input'; data: string }
    /** Characters rendered (back-pressure). */
    | { type: 'ack'; chars: number }
    | { type: 'resize'; cols: number; rows: number }
    | { type: 'notify'; title?: string; body: string; source: TerminalNotification['source'] }
    | { type: 'clipboard'; text: string }
    | { type: 'openLink'; uri: string }
    | { type: 'relaunch' };

export type TerminalToWebview =
    /** Earlier output on (re)attach: the view starts clean, then shows it. */
    | { type: 'replay'; data: string }
    | { type: 'data'; data: string }
    /** A line written into the terminal (how the session ended, why nothing was launched). */
    | { type: 'exitBanner'; text: string }
    /** The banner above the terminal; no text hides it. */
    | { type: 'banner'; text?: string; relaunch?: boolean }
    | { type: 'clear' }
    /** The session's workspace: which OSC 8 file links the view offers as links (core's links.ts). */
    | { type: 'links'; workspace: string }
    | { type: 'focus' }
    | { type: 'theme' };

const cols = int(1, 1000);
const rows = int(1, 500);

export const checkTerminalToHost: Check<TerminalToHost> = messageOf<TerminalToHost>({
    ready: { cols, rows },
    input: { data: str(MAX_INPUT_CHARS) },
    ack: { chars: int(0, 64 * 1024 * 1024) },
    resize: { cols, rows },
    notify: { title: optional(str(MAX_NOTIFICATION_CHARS)), body: str(MAX_NOTIFICATION_CHARS), source: oneOf('osc9', 'osc99', 'osc777') },
    clipboard: { text: str(MAX_CLIPBOARD_CHARS) },
    openLink: { uri: str(MAX_LINK_CHARS) },
    relaunch: {}
});
