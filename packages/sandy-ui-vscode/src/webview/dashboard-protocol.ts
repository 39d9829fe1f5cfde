import type { DashboardSnapshot } from '@sandy-ui/core/common';
import { messageSchema, messageSet, MessageOf, Protocol, textField, trustedField } from '@sandy-ui/core/common';

/** Messages of the Sessions dashboard webview (core's DashboardView ↔ core's DashboardController in the extension host). */

/** The dashboard's webview view type. */
export const DASHBOARD_VIEW_TYPE = 'sandy.dashboard';

/** A session id as core makes them (a UUID, `daemon-`/`orphan-` and hex digits). */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const dashboardToHost = messageSet({
    notifications: {
        /** The page is ready for its first snapshot. */
        ready: {},
        /** A tile was clicked (or Enter on it): show that session's tab. The host checks that the session exists. */
        open: { sessionId: textField(128, SESSION_ID) }
    }
});

export const dashboardToView = messageSet({
    notifications: {
        /** The host's own snapshot from core (its envelope is checked; the view bounds each thumbnail again). */
        render: { snapshot: trustedField<DashboardSnapshot>() },
        problem: { text: textField(4096) }
    }
});

export const dashboardProtocol: Protocol<typeof dashboardToHost, typeof dashboardToView> = {
    name: 'sandy dashboard', toHost: dashboardToHost, toView: dashboardToView
};

export type DashboardToHost = MessageOf<typeof dashboardToHost>;
export const checkDashboardToHost = messageSchema(dashboardToHost);
