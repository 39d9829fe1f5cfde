import { z } from 'zod';
import { intField, messageSchema, messageSet, MessageOf, optionalField, Protocol, textField } from '@sandy-ui/core/common';

/** Messages of the sandy terminal webview (core's SandyTerminalView ↔ the session in the extension host). */

/** One write of typed or pasted input; larger pastes arrive in several messages. */
export const MAX_INPUT_CHARS = 1024 * 1024;
/** OSC 52 clipboard payload after base64 decoding (xterm hands us decoded text). */
export const MAX_CLIPBOARD_CHARS = 1024 * 1024;
export const MAX_LINK_CHARS = 8192;
export const MAX_NOTIFICATION_CHARS = 4096;

const cols = intField(1, 1000);
const rows = intField(1, 500);

export const terminalToHost = messageSet({
    notifications: {
        /** The view is laid out: its measured size (a launch never uses a default size). */
        ready: { cols, rows },
        input: { data: textField(MAX_INPUT_CHARS) },
        /** Characters rendered (back-pressure). */
        ack: { chars: intField(0, 64 * 1024 * 1024) },
        resize: { cols, rows },
        notify: { title: optionalField(textField(MAX_NOTIFICATION_CHARS)), body: textField(MAX_NOTIFICATION_CHARS), source: z.enum(['osc9', 'osc99', 'osc777']) },
        clipboard: { text: textField(MAX_CLIPBOARD_CHARS) },
        openLink: { uri: textField(MAX_LINK_CHARS) },
        relaunch: {}
    }
});

/** What the host sends: its own session's output and state (the envelope is checked, the bytes are the PTY's). */
export const terminalToView = messageSet({
    notifications: {
        /** Earlier output on (re)attach: the view starts clean, then shows it. */
        replay: { data: z.string() },
        data: { data: z.string() },
        /** A line written into the terminal (how the session ended, why nothing was launched). */
        exitBanner: { text: z.string() },
        /** The banner above the terminal; no text hides it. */
        banner: { text: optionalField(z.string()), relaunch: optionalField(z.boolean()) },
        clear: {},
        /** The session's workspace: which OSC 8 file links the view offers as links (core's links.ts). */
        links: { workspace: z.string() },
        focus: {},
        theme: {}
    }
});

export const terminalProtocol: Protocol<typeof terminalToHost, typeof terminalToView> = {
    name: 'sandy terminal', toHost: terminalToHost, toView: terminalToView
};

export type TerminalToHost = MessageOf<typeof terminalToHost>;
export type TerminalToWebview = MessageOf<typeof terminalToView>;

/** Every message a terminal webview may post, as one schema (the messenger parses each; specs check it directly). */
export const checkTerminalToHost = messageSchema(terminalToHost);
