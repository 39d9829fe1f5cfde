import { z } from 'zod';
import { terminalAppearanceFields } from './appearance-protocol';
import { arrayField, exactObject, intField, messageSchema, messageSet, MessageOf, optionalField, Protocol, textField } from '@sandy-ui/core/common';

/** Messages of the sandy terminal webview (core's SandyTerminalView ↔ the session in the extension host). */

/** The terminal tabs' webview view type (package.json activates on `onWebviewPanel:` it, for the panel serializer). */
export const TERMINAL_VIEW_TYPE = 'sandy.terminal';

/** One write of typed or pasted input; larger pastes arrive in several messages. */
export const MAX_INPUT_CHARS = 1024 * 1024;
/** OSC 52 clipboard payload after base64 decoding (xterm hands us decoded text). */
export const MAX_CLIPBOARD_CHARS = 1024 * 1024;
export const MAX_LINK_CHARS = 8192;
export const MAX_NOTIFICATION_CHARS = 4096;

const cols = intField(1, 1000);
const rows = intField(1, 500);

/** The longest workspace path a tab's saved state may name. */
export const MAX_WORKSPACE_CHARS = 4096;
/** A session id as core makes them: a UUID, `daemon-`/`orphan-` and 16 hex digits. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * What a sandy tab keeps across a window reload (core's TerminalSession.storeState(): never a
 * clearance). The page saves it (vscode.setState) and VS Code hands it back to the plugin's panel
 * serializer, so on the way back in it is input from the webview like any message: this shape, no
 * other field, and the host checks the workspace further before it restores anything.
 */
export const terminalTabStateShape = {
    workspace: textField(MAX_WORKSPACE_CHARS, /^[^\0]+$/),
    sessionId: optionalField(textField(128, SESSION_ID))
};
export const terminalTabState = exactObject(terminalTabStateShape);
export type TerminalTabState = { workspace: string; sessionId?: string };

export const terminalToHost = messageSet({
    notifications: {
        /**
         * The page's script runs: the host sends what decides how the page measures (`appearance`) before
         * the page measures and says `ready`.
         */
        hello: {},
        /** The view is laid out: its measured size (a launch never uses a default size). */
        ready: { cols, rows },
        input: { data: textField(MAX_INPUT_CHARS) },
        /** Characters rendered (back-pressure). */
        ack: { chars: intField(0, 64 * 1024 * 1024) },
        resize: { cols, rows },
        clipboard: { text: textField(MAX_CLIPBOARD_CHARS) },
        openLink: { uri: textField(MAX_LINK_CHARS) },
        /** The banner's button (Relaunch, Take Back, Attach, Stop: the host's controller knows which). */
        bannerAction: {},
        /**
         * An IDE key the browser keeps from VS Code (core's ide-keys.ts `browserKeepsKey`: Ctrl+Shift+Alt+X
         * is a "cut" to VS Code's webview host in a browser): the host runs the plugin's own command bound to it, if any.
         * `mac`: the page runs on macOS (the keybinding's `mac` spelling applies).
         */
        ideKey: { code: textField(32, /^[A-Za-z0-9]+$/), ctrl: z.boolean(), shift: z.boolean(), alt: z.boolean(), meta: z.boolean(), mac: z.boolean() }
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
        banner: { text: optionalField(z.string()), action: optionalField(z.string()) },
        clear: {},
        /** The session's workspace: which OSC 8 file links the view offers as links (core's links.ts). */
        links: { workspace: z.string() },
        /** The user's `sandy.terminal.ideKeys`: keys the view leaves to VS Code (core's ide-keys.ts). */
        ideKeys: {
            keys: arrayField(textField(64), 64),
            /** The Sandy keybindings the extension runs when the page reports them (VS Code in a browser keeps their keys); [] none. */
            relay: optionalField(arrayField(exactObject({ key: textField(64), mac: optionalField(textField(64)) }), 32))
        },
        focus: {},
        theme: {},
        /** VS Code's own terminal settings, as core's terminalAppearance() read them (font, cursor). */
        appearance: terminalAppearanceFields,
        /** The tab's state changed (its session started, ended, was replaced): the page saves it for a window reload. */
        state: terminalTabStateShape
    }
});

export const terminalProtocol: Protocol<typeof terminalToHost, typeof terminalToView> = {
    name: 'sandy terminal', toHost: terminalToHost, toView: terminalToView
};

export type TerminalToHost = MessageOf<typeof terminalToHost>;
export type TerminalToWebview = MessageOf<typeof terminalToView>;

/** Every message a terminal webview may post, as one schema (the messenger parses each; specs check it directly). */
export const checkTerminalToHost = messageSchema(terminalToHost);
