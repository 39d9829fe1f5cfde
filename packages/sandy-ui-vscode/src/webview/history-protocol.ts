import type { HistoryListState, HistoryRecord } from '@sandy-ui/core/common';
import {
    HISTORY_ID_PATTERN, intField, MAX_HISTORY_QUERY_TEXT, messageSchema, messageSet, MessageOf, optionalField, Protocol, requestSpec, textField,
    trustedField
} from '@sandy-ui/core/common';
import { z } from 'zod';
import { terminalAppearanceFields } from './appearance-protocol';

/** Messages of the History webviews: the list (core's HistoryListView ↔ core's HistoryController) and a record's read-only viewer. */

export const HISTORY_VIEW_TYPE = 'sandy.history';
export const HISTORY_VIEWER_VIEW_TYPE = 'sandy.historyViewer';

/** A record id as the backend makes them (the host checks it is one it listed). */
const historyId = (): z.ZodString => textField(120, HISTORY_ID_PATTERN);

export const historyListToHost = messageSet({
    notifications: {
        /** The page is ready for its first list. */
        ready: {},
        search: { text: textField(MAX_HISTORY_QUERY_TEXT) },
        /** Absent: all projects. */
        filter: { project: optionalField(textField(1024)) },
        open: { id: historyId() },
        relaunch: { id: historyId() },
        remove: { id: historyId() }
    }
});

export const historyListToView = messageSet({
    notifications: {
        /** The host's own list from core (its envelope is checked; the view bounds what it draws). */
        render: { state: trustedField<HistoryListState>() },
        problem: { text: textField(4096) }
    }
});

export const historyListProtocol: Protocol<typeof historyListToHost, typeof historyListToView> = {
    name: 'sandy history', toHost: historyListToHost, toView: historyListToView
};

/** Most characters the viewer page may ask to copy (core's Copy All bound). */
export const HISTORY_COPY_MAX_CHARS = 16 * 1024 * 1024;
/** Most characters of one page of output (a page is at most 1 MiB of the log). */
export const HISTORY_PAGE_MAX_CHARS = 2 * 1024 * 1024;

export const historyViewerToHost = messageSet({
    notifications: {
        ready: {},
        /** The user's copy (a selection, or Copy All): to the clipboard. */
        copy: { text: textField(HISTORY_COPY_MAX_CHARS) },
        relaunch: {}
    }
});

export const historyViewerToView = messageSet({
    notifications: {
        record: { record: trustedField<HistoryRecord>() },
        clear: {},
        done: { cut: optionalField(intField(0, Number.MAX_SAFE_INTEGER)) },
        problem: { text: textField(4096) },
        /** VS Code's terminal settings: the viewer draws with the font the sandy tab does. */
        appearance: terminalAppearanceFields,
        /** The colour theme changed: the page reads the terminal colours from VS Code's CSS variables again. */
        theme: {}
    },
    requests: {
        /** One page of display text; answered once the page's terminal has parsed it (the host sends the next then). */
        write: requestSpec({ text: textField(HISTORY_PAGE_MAX_CHARS) }, z.boolean(), 120_000)
    }
});

export const historyViewerProtocol: Protocol<typeof historyViewerToHost, typeof historyViewerToView> = {
    name: 'sandy history viewer', toHost: historyViewerToHost, toView: historyViewerToView
};

export type HistoryListToHost = MessageOf<typeof historyListToHost>;
export type HistoryViewerToHost = MessageOf<typeof historyViewerToHost>;
export const checkHistoryListToHost = messageSchema(historyListToHost);
export const checkHistoryViewerToHost = messageSchema(historyViewerToHost);
