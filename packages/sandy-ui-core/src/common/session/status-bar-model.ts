import type { SessionInfo } from './session-types';
import type { DisposableLike, EventLike } from '../base/event';
import {
    activeSessionText, activeSessionTooltip, DO_NOT_DISTURB_STATUS, needsYouStatusText, needsYouStatusTooltip, sessionsStatusText, sessionsStatusTooltip
} from '../host/labels';
import { waitingSessions } from './sessions-view';
import { LOCATING_SANDY_STATUS, SandyViewState, sandyNotFoundStatus } from '../projects/project-labels';
import { SANDY_IDE_COMMANDS } from '../host/ide-commands';

/** One status bar entry, as both hosts render it (`$(icon)` is codicon syntax in Theia and VS Code). */
export interface StatusBarItem {
    text: string;
    tooltip: string;
    /** The command a click runs. */
    command?: string;
}

/** What the bar shows; an absent item is hidden. */
export interface StatusBarItems {
    /** While sandy is being looked for, or was not found (click: Get Started). */
    sandy?: StatusBarItem;
    /** `N sandy sessions` (click: switch), while any session of this machine runs. */
    sessions?: StatusBarItem;
    /** The focused sandy tab's `pid · agent · elapsed`, while its session runs. */
    active?: StatusBarItem;
    /** `N need you` (click: the one that has waited longest), while any session waits for the user. */
    needsYou?: StatusBarItem;
    /** While do-not-disturb is on (click: off). */
    doNotDisturb?: StatusBarItem;
}

/** The host's status bar: it only shows what it is given. */
export interface StatusBarSurface {
    render(items: StatusBarItems): void;
}

export interface StatusBarClock {
    now(): number;
    setInterval(callback: () => void, ms: number): unknown;
    clearInterval(handle: unknown): void;
}

const SYSTEM_CLOCK: StatusBarClock = {
    now: () => Date.now(),
    setInterval: (callback, ms) => setInterval(callback, ms),
    clearInterval: handle => clearInterval(handle as ReturnType<typeof setInterval>)
};

export interface StatusBarSources {
    /** The window state (or anything with its live sessions and change events). */
    readonly state: {
        readonly liveSessions: readonly SessionInfo[];
        readonly onDidChange: EventLike<unknown>;
        readonly onDidChangeSession: EventLike<SessionInfo>;
        /** The user's settings as last sent (`sandy.longRunningHours` marks old sessions). */
        readonly configuration?: { longRunningHours?: number };
    };
    /** The session of the sandy tab the user is looking at, if any. */
    focusedSession(): SessionInfo | undefined;
    /** Whether the user turned notifications off for now (`sandy.doNotDisturb`). */
    doNotDisturb?(): boolean;
    /**
     * Where the window stands with sandy (core's `sandyViewState`) and, when not found, why; undefined: the
     * window does not look at sandy (the plugin before anything of it shows sandy state) — nothing is said.
     */
    sandy?(): { state: SandyViewState; problem?: string } | undefined;
}

/**
 * The status bar of every host, computed once: the session count and the focused session with a
 * 1 s ticker for its elapsed time that runs only while such a session is shown. It hears the window
 * state itself; the host calls {@link update} when focus or its tabs change, and renders.
 */
export class StatusBarModel implements DisposableLike {
    protected ticker: unknown;
    protected last: string | undefined;
    protected readonly toDispose: DisposableLike[] = [];

    constructor(protected readonly sources: StatusBarSources, protected readonly surface: StatusBarSurface, protected readonly clock: StatusBarClock = SYSTEM_CLOCK) {
        this.toDispose.push(sources.state.onDidChange(() => this.update()), sources.state.onDidChangeSession(() => this.update()));
        this.update();
    }

    /** What the bar shows now. */
    items(): StatusBarItems {
        const items: StatusBarItems = {};
        const sandy = this.sources.sandy?.();
        if (sandy?.state === 'locating') {
            items.sandy = { text: `$(sync~spin) ${LOCATING_SANDY_STATUS.text}`, tooltip: LOCATING_SANDY_STATUS.tooltip };
        } else if (sandy?.state === 'notFound') {
            const status = sandyNotFoundStatus(sandy.problem);
            items.sandy = { text: `$(warning) ${status.text}`, tooltip: status.tooltip, command: SANDY_IDE_COMMANDS.GET_STARTED.id };
        }
        const live = this.sources.state.liveSessions;
        if (live.length) {
            items.sessions = { text: `$(terminal) ${sessionsStatusText(live)}`, tooltip: sessionsStatusTooltip(live, this.clock.now(), this.sources.state.configuration?.longRunningHours ?? 24), command: SANDY_IDE_COMMANDS.SWITCH_SESSION.id };
        }
        const waiting = waitingSessions(live, this.clock.now());
        if (waiting.length) {
            items.needsYou = { text: `$(bell-dot) ${needsYouStatusText(waiting.length)}`, tooltip: needsYouStatusTooltip(waiting, this.clock.now()), command: SANDY_IDE_COMMANDS.NEXT_WAITING.id };
        }
        if (this.sources.doNotDisturb?.()) {
            items.doNotDisturb = { text: `$(bell-slash) ${DO_NOT_DISTURB_STATUS.text}`, tooltip: DO_NOT_DISTURB_STATUS.tooltip, command: SANDY_IDE_COMMANDS.TOGGLE_DO_NOT_DISTURB.id };
        }
        const focused = this.sources.focusedSession();
        if (focused && focused.status !== 'exited') {
            items.active = { text: activeSessionText(focused, this.clock.now()), tooltip: activeSessionTooltip(focused) };
        }
        return items;
    }

    /** Recompute, render what changed, and run the ticker only while a focused session is shown. */
    update(): void {
        const items = this.items();
        if (items.active && this.ticker === undefined) {
            this.ticker = this.clock.setInterval(() => this.update(), 1000);
        } else if (!items.active) {
            this.stopTicker();
        }
        const json = JSON.stringify(items);
        if (json !== this.last) {
            this.last = json;
            this.surface.render(items);
        }
    }

    get ticking(): boolean {
        return this.ticker !== undefined;
    }

    protected stopTicker(): void {
        if (this.ticker !== undefined) {
            this.clock.clearInterval(this.ticker);
            this.ticker = undefined;
        }
    }

    dispose(): void {
        this.stopTicker();
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
