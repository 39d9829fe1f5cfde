import type { SessionInfo } from './session-types';
import type { HostUi } from '../host/host-ui';
import { isLongRunning, longRunningText, problemNoticeText, TERMINAL_ACTIONS } from '../host/labels';
import { toProblem } from '../service/service-protocol';
import { DisposableLike, EventLike } from '../base/event';

export interface NudgeClock {
    now(): number;
    every(ms: number, run: () => void): DisposableLike;
}

const SYSTEM_CLOCK: NudgeClock = {
    now: () => Date.now(),
    every: (ms, run) => {
        const timer = setInterval(run, ms);
        (timer as { unref?: () => void }).unref?.();
        return { dispose: () => clearInterval(timer) };
    }
};

export interface LongRunningNudgeDeps {
    /** The window's live sessions. */
    sessions(): readonly SessionInfo[];
    /** Sessions or snapshots changed. */
    onChange: EventLike<unknown>;
    /** The user's `sandy.longRunningHours` (0: never). */
    hours(): number;
    ui: Pick<HostUi, 'info' | 'error'>;
    stop(sessionId: string): Promise<unknown>;
    clock?: NudgeClock;
}

/** How often a window looks for sessions that crossed the threshold. */
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * A session that runs longer than the user's threshold (24 h by default) is asked about once per
 * window: Stop it, or Keep Running (then nothing more is said of it here; the tree and the status
 * bar still mark its age). Written once for every host.
 */
export class LongRunningNudge implements DisposableLike {
    protected readonly asked = new Set<string>();
    protected readonly toDispose: DisposableLike[] = [];
    protected readonly clock: NudgeClock;

    constructor(protected readonly deps: LongRunningNudgeDeps) {
        this.clock = deps.clock ?? SYSTEM_CLOCK;
        this.toDispose.push(deps.onChange(() => this.check()), this.clock.every(CHECK_EVERY_MS, () => this.check()));
        this.check();
    }

    check(): void {
        const hours = this.deps.hours();
        const now = this.clock.now();
        for (const session of this.deps.sessions()) {
            if (!this.asked.has(session.id) && isLongRunning(session, hours, now)) {
                this.asked.add(session.id);
                void this.ask(session, now);
            }
        }
    }

    protected async ask(session: SessionInfo, now: number): Promise<void> {
        const action = await this.deps.ui.info(longRunningText(session.workspace, session, now), TERMINAL_ACTIONS.stop, TERMINAL_ACTIONS.keep);
        if (action === TERMINAL_ACTIONS.stop) {
            await this.deps.stop(session.id).catch(e => this.deps.ui.error(problemNoticeText(toProblem(e))));
        }
    }

    dispose(): void {
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
    }
}
