import { SimpleEmitter, EventLike, DisposableLike } from '../../common/base/event';
import { HeldInput } from '../../common/terminal/held-input';
import { CATCH_UP, FLOW_CONTROL, SessionInfo, StopCause } from '../../common/session/session-types';
import { ActivityTracker, attentionOf, AttentionState, PaneFacts, paneAttentionOf } from '../../common/session/session-attention';
import type { TerminalNotification } from '../../common/terminal/osc-dispatch';
import { carriedBetween } from './carried-sequences';
import { ScreenState } from './screen-state';
import type { ScreenThread } from './screen-thread';

/**
 * The part of a node-pty `IPty` the supervisor needs. The core never imports node-pty: the Theia
 * backend and the VS Code plugin each pass their own loaded module (HOUSE_STYLE: host adapters are thin).
 */
export interface PtyLike {
    readonly pid: number;
    onData(listener: (data: string) => void): DisposableLike;
    onExit(listener: (e: { exitCode: number; signal?: number }) => void): DisposableLike;
    write(data: string): void;
    resize(cols: number, rows: number): void;
    pause(): void;
    resume(): void;
    kill(signal?: string): void;
}

/** One attached view: receives output, acknowledges what it rendered. */
export interface SessionAttachment extends DisposableLike {
    /** The session's screen when the view attached (no OSC in it: replaying it has no side effects). */
    readonly replay: string;
    /** Live output after the replay; what arrived before the first listener is held for it. */
    onData: EventLike<string>;
    onExit: EventLike<SessionInfo>;
    write(data: string): void;
    /** The view processed this many characters (flow control). */
    acknowledge(chars: number): void;
}

/** One process feeding a session's terminal: its output, its exit. */
export type FeedExit = { exitCode: number; signal?: number };

/**
 * The longest input waits for a fresh `--attach` client to draw the session ({@link HostedSession.feed}'s
 * `inputAfterOutput`): one that has not by then gets it anyway.
 */
export const ATTACH_INPUT_WAIT_MS = 2_000;

/** The client draws the session: tmux switches to the alternate screen when it attaches (terminfo's smcup). */
const ENTERS_ALTERNATE_SCREEN = /\x1b\[\?(?:1049|1047|47)h/;

/**
 * A session as the backend hosts it: its info, the backend's copy of its screen, its attached views
 * with back-pressure, and the process that currently feeds it (a foreground sandy, or a daemon
 * session's `--start` / `--attach` client — one after another over the session's life).
 */
export class HostedSession {
    /** When output last came ({@link monotonicNow}). */
    lastDataAt = -Infinity;
    readonly attachments = new Set<AttachmentImpl>();
    readonly onDataEmitter = new SimpleEmitter<string>();
    readonly screen: ScreenState;
    /** What the session's own output says of it for the attention queue: its last output, a wait the user has not seen. */
    readonly activity = new ActivityTracker();
    /** The attention state the windows were last told (a change of it is a session change). */
    reportedAttention: AttentionState | undefined;
    /** The supervisor's clock (a spec's fake one). */
    now: () => number = Date.now;
    /** The last output after which the screen was looked at for an agent's prompt. */
    promptLookedAt = 0;
    /**
     * A multi-agent session's panes as last looked at, each with its text then (undefined: one agent, or
     * its screen has not been sandy's layout); their states are derived from these at each snapshot.
     */
    panes: Array<PaneFacts & { text: string }> | undefined;
    /** When the panes were last looked at, and whether a look is under way. */
    paneLookedAt = 0;
    paneLooking = false;
    /** The panes' states the windows were last told. */
    reportedPanes = '';
    /** The process whose terminal this is now; undefined when none feeds it (a detached daemon session, an orphan). */
    pty: PtyLike | undefined;
    cols: number;
    rows: number;
    paused = false;
    /** What holds the session paused (see updateFlow). */
    protected readonly pausedBy = { view: false, queue: false, screen: false };
    stopping?: Promise<SessionInfo>;
    /** Why the IDE stopped it, when not at the user's request (said once it has ended). */
    stopCause?: StopCause;
    /**
     * Since when sandy lists this daemon session (its `--start` finished, or it was found listed):
     * a `--print-state` begun before that cannot say it is gone.
     */
    listedSince: number | undefined;
    /** An orphan's recorded process start (its pid is signalled only while it is that process). */
    orphanStart: string | undefined;
    readonly exited: Promise<void>;
    /** What to dispose with the session (its notification batchers). */
    readonly toDispose: DisposableLike[] = [];
    protected resolveExited!: () => void;
    protected feedSubscriptions: DisposableLike[] = [];
    /** Input held for the process feeding the session until it draws the session (see {@link feed}), and the end of its output so far. */
    protected feedInput: HeldInput | undefined;
    protected feedInputTimer: ReturnType<typeof setTimeout> | undefined;
    protected feedTail = '';

    constructor(readonly info: SessionInfo, size: { cols: number; rows: number }, onNotify: (n: TerminalNotification) => void, screenThread?: ScreenThread) {
        this.cols = size.cols;
        this.rows = size.rows;
        this.screen = new ScreenState(size.cols, size.rows, onNotify, screenThread);
        this.screen.onParsed = () => {
            if (this.paused) {
                this.updateFlow();
            }
        };
        this.exited = new Promise(resolve => this.resolveExited = resolve);
    }

    /** The session as the windows see it: its info with where it stands for the user now. */
    snapshot(): SessionInfo {
        const facts = this.activity.current;
        const now = this.now();
        const attention = attentionOf(this.info, facts, now);
        if (this.panes && this.live) {
            attention.panes = this.panes.map(p => paneAttentionOf(p, now));
        }
        return { ...this.info, attention, lastOutputAt: facts.lastOutputAt || undefined };
    }

    get live(): boolean {
        return this.info.status !== 'exited';
    }

    /**
     * `pty` feeds the session from now on: its output reaches the screen, `observer` and every view.
     * `onExit` hears it end once its last output has been read. `inputAfterOutput` (a daemon session's
     * `--attach` client): input waits until the client draws the session (its output enters the alternate
     * screen, as tmux does when it attaches), at most {@link ATTACH_INPUT_WAIT_MS}; `warn` says input that
     * did not get there. The client's terminal is raw by then; keys typed into it before (a view's keys held
     * while it attached, a quick typist) were echoed by the terminal, and a Ctrl+C killed the client. sandy
     * may print its own lines before it runs the client (`[sandy] Build files updated.`): those do not count.
     */
    feed(pty: PtyLike, onExit: (e: FeedExit) => void, observer?: (data: string) => void, inputAfterOutput?: { warn(line: string): void }): void {
        this.unfeed();
        this.pty = pty;
        this.paused = false;
        const subscriptions: DisposableLike[] = [];
        this.feedSubscriptions = subscriptions;
        if (inputAfterOutput) {
            // (The wait is bounded: no age limit on top of it.)
            this.feedInput = HeldInput.logging(line => inputAfterOutput.warn(line), Infinity);
            this.feedTail = '';
            this.feedInputTimer = setTimeout(() => this.releaseFeedInput(pty), ATTACH_INPUT_WAIT_MS);
            this.feedInputTimer.unref?.();
        }
        subscriptions.push(pty.onData(data => {
            if (this.pty !== pty) {
                return;
            }
            if (this.feedInput) {
                const seen = this.feedTail + data;
                this.feedTail = seen.slice(-8);
                if (ENTERS_ALTERNATE_SCREEN.test(seen)) {
                    this.releaseFeedInput(pty);
                }
            }
            observer?.(data);
            this.activity.output(this.now());
            this.ingest(data);
        }));
        subscriptions.push(pty.onExit(e => {
            // node-pty can report the exit before the last output is read: let it settle first, so
            // views get sandy's final lines before "ended" (and the banner comes after them).
            this.releaseFlow();
            void settleOutput(this).then(() => {
                if (this.pty === pty) {
                    this.unfeed();
                }
                onExit(e);
            });
        }));
    }

    /** Output written into the session's terminal by the IDE itself (a notice between two clients). */
    ingest(data: string): void {
        this.lastDataAt = monotonicNow();
        const seq = this.screen.write(data);
        this.onDataEmitter.fire(data);
        for (const a of this.attachments) {
            a.deliver(data, seq);
        }
        this.updateFlow();
    }

    protected unfeed(): void {
        for (const s of this.feedSubscriptions.splice(0)) {
            s.dispose();
        }
        this.dropFeedInput();
        this.pty = undefined;
    }

    /** The feeding client is ready for input: what waited goes to it, then every write. */
    protected releaseFeedInput(pty: PtyLike): void {
        const held = this.feedInput;
        if (held && this.pty === pty) {
            clearTimeout(this.feedInputTimer);
            this.feedInput = undefined;
            this.feedInputTimer = undefined;
            held.open(data => this.write(data));
        }
    }

    protected dropFeedInput(): void {
        clearTimeout(this.feedInputTimer);
        this.feedInputTimer = undefined;
        this.feedInput?.dispose(true);
        this.feedInput = undefined;
    }

    write(data: string): void {
        if (this.info.status === 'running' && this.pty) {
            if (this.feedInput) {
                this.feedInput.write(data);
            } else {
                this.pty.write(data);
            }
        }
    }

    resize(cols: number, rows: number): void {
        this.cols = cols;
        this.rows = rows;
        this.screen.resize(cols, rows);
        if (this.pty && this.live) {
            try {
                this.pty.resize(cols, rows);
            } catch {
                // Resizing a PTY that is exiting throws EBADF; the exit event follows.
            }
        }
    }

    markExited(): void {
        this.releaseFlow();
        this.resolveExited();
        for (const a of [...this.attachments]) {
            a.sendAll();
            a.onExitEmitter.fire(this.snapshot());
        }
    }

    /** A view attaches: it gets the screen as it is once everything so far is parsed, then live output. */
    async attach(onDetach: (a: AttachmentImpl) => void): Promise<AttachmentImpl> {
        // Registered first, so nothing that arrives while the screen is serialised is lost: it is held.
        const attachment: AttachmentImpl = new AttachmentImpl(this, () => onDetach(attachment));
        this.attachments.add(attachment);
        attachment.replay = await this.screen.serialize();
        return attachment;
    }

    /**
     * Pause above the high watermark of the slowest attached view, resume below the low one. A view
     * caught up by frames (see AttachmentImpl) holds nothing back; what bounds the session then is the
     * backend's own copy of the screen, parsed more slowly than a PTY can write, and a view whose frames
     * stopped (its queue).
     */
    updateFlow(): void {
        let behind = 0;
        let queued = 0;
        for (const a of this.attachments) {
            behind = Math.max(behind, a.unacknowledged);
            queued = Math.max(queued, a.queuedChars);
        }
        const backlog = this.screen.unparsedChars;
        // Each cause holds the session from its high mark until it is below its low one; a pause ends
        // when no cause holds it (a pause for the screen's parse must not wait for a view that is only
        // between its marks).
        const held = this.pausedBy;
        held.view = held.view ? behind >= FLOW_CONTROL.lowWatermarkChars : behind > FLOW_CONTROL.highWatermarkChars;
        held.queue = held.queue ? queued >= CATCH_UP.maxQueuedChars / 2 : queued > CATCH_UP.maxQueuedChars;
        held.screen = held.screen ? backlog > CATCH_UP.maxUnparsedChars / 2 : backlog > CATCH_UP.maxUnparsedChars;
        const hold = held.view || held.queue || held.screen;
        // Never while stopping: see releaseFlow.
        if (!this.paused && hold && this.info.status === 'running' && this.pty) {
            this.paused = true;
            this.pty.pause();
        } else if (this.paused && !hold) {
            this.releaseFlow();
        }
    }

    /**
     * A paused PTY keeps sandy blocked on a full terminal and its cleanup trap never finishes; once a stop
     * has begun (status `stopping`), output is read whatever the views acknowledged — updateFlow no longer pauses.
     */
    releaseFlow(): void {
        if (this.paused) {
            this.paused = false;
            this.pty?.resume();
        }
    }

    dispose(): void {
        for (const d of this.toDispose.splice(0)) {
            d.dispose();
        }
        this.unfeed();
        for (const a of [...this.attachments]) {
            a.dispose();
        }
        this.screen.dispose();
        this.onDataEmitter.dispose();
    }
}

/** Output not sent to a view yet: a catch-up frame standing for all before it, or a chunk of output. */
interface Unsent {
    data: string;
    /** The chunk's number (ScreenState.write), or the last one a frame stands for. */
    seq: number;
    frame?: boolean;
}

/**
 * One view of a session. Output goes to it as it comes while the view keeps up. On the alternate screen
 * a view more than {@link CATCH_UP.windowChars} behind is caught up instead (screen-frame.ts): what it
 * has not been sent waits here, and once the view has drawn half of what it was sent, a frame of the
 * screen as it is then replaces what waits (every {@link CATCH_UP.frameEveryChars} of it too, so that
 * little waits). On the normal screen (whose scrollback is the user's) every byte is sent, as before:
 * the session pauses above the high watermark until the view acknowledges.
 */
export class AttachmentImpl implements SessionAttachment {
    replay = '';
    unacknowledged = 0;
    /**
     * The view fell behind on the alternate screen: until the agent is quiet or prints little, its output
     * waits for the next frame instead of going to the view between frames (drawing it would only delay them).
     */
    protected catchingUp = false;
    /** Characters waiting in {@link unsent}. */
    queuedChars = 0;
    protected unsent: Unsent[] = [];
    /** Output characters in the queue after its newest frame (all of it, when it has had none). */
    protected sinceFrame = 0;
    /** The chunk the newest frame put in the queue stands for. */
    protected lastFrameSeq = 0;
    /** Output characters queued since a frame was last asked for. */
    protected sinceAsked = 0;
    protected frameAsked = false;
    /** When the last frame was sent, and the timer that sends the next one no sooner than CATCH_UP.frameIntervalMs after it. */
    protected frameSentAt = -Infinity;
    protected frameTimer: ReturnType<typeof setTimeout> | undefined;
    /** The session ended: what it wrote goes to the view at once (its last lines before how it ended). */
    protected ended = false;
    /** The last chunk the view was sent (a frame counts as its chunk): a frame older than it is never sent. */
    protected sentUpTo = 0;
    /** Output up to this chunk is sent as it is: no frame could stand for it (the screen left the alternate one). */
    protected bytesUpTo = 0;
    protected readonly dataEmitter = new SimpleEmitter<string>();
    readonly onExitEmitter = new SimpleEmitter<SessionInfo>();
    readonly onExit = this.onExitEmitter.event;
    /** Output delivered before anyone listened (between the replay and the host's subscription). */
    protected held: string[] | undefined = [];
    protected disposed = false;

    constructor(protected readonly session: HostedSession, protected readonly onDispose: () => void) {
        // What was written before it attached is in its replay: no frame stands for it, nor carries its sequences.
        this.sentUpTo = session.screen.chunksWritten;
    }

    readonly onData: EventLike<string> = listener => {
        const subscription = this.dataEmitter.event(listener);
        const held = this.held;
        this.held = undefined;
        for (const data of held ?? []) {
            listener(data);
        }
        return subscription;
    };

    deliver(data: string, seq: number): void {
        if (this.ended) {
            this.sentUpTo = seq;
            this.send(data);
            return;
        }
        this.catchingUp = this.session.screen.alternate && (this.catchingUp || this.unacknowledged + data.length > CATCH_UP.windowChars);
        if (this.unsent.length || this.catchingUp) {
            this.unsent.push({ data, seq });
            this.queuedChars += data.length;
            this.sinceFrame += data.length;
            this.sinceAsked += data.length;
            if (this.sinceAsked >= CATCH_UP.frameEveryChars) {
                this.askFrame();
            }
            this.sendUnsent(); // the view may be waiting for it (it has drawn what it had)
            return;
        }
        this.sentUpTo = seq;
        this.send(data);
    }

    protected send(data: string): void {
        this.unacknowledged += data.length;
        if (this.held) {
            this.held.push(data);
        } else {
            this.dataEmitter.fire(data);
        }
    }

    write(data: string): void {
        this.session.write(data);
    }

    acknowledge(chars: number): void {
        if (Number.isFinite(chars) && chars > 0) {
            this.unacknowledged = Math.max(0, this.unacknowledged - chars);
            this.sendUnsent();
            this.session.updateFlow();
        }
    }

    /** A frame for what waits; it replaces everything it stands for. */
    protected askFrame(): void {
        if (this.frameAsked) {
            return;
        }
        this.frameAsked = true;
        this.sinceAsked = 0;
        const asked = this.unsent.length ? this.unsent[this.unsent.length - 1].seq : 0;
        // (What it was sent up to now it has acted on: a frame need not carry the sequences in it.)
        void this.session.screen.frame(this.sentUpTo + 1).then(frame => {
            this.frameAsked = false;
            if (this.disposed || this.ended) {
                return;
            }
            if (!frame) {
                this.bytesUpTo = Math.max(this.bytesUpTo, asked);
            } else if (frame.seq <= this.sentUpTo) {
                // Output newer than the frame went to the view while it was made (the queue had emptied): it is out of date.
            } else {
                // Output on the normal screen is kept and sent as it is, before the frame.
                const before = this.unsent.filter(u => u.seq < frame.alternateSince);
                const after = this.unsent.filter(u => u.seq > frame.seq);
                // What the view must still act on in the output the frame replaces (the clipboard, queries) follows it.
                const carried = carriedBetween(frame.carried, Math.max(this.sentUpTo + 1, frame.alternateSince), frame.seq);
                this.unsent = [...before, { data: frame.data + carried, seq: frame.seq, frame: true }, ...after];
                this.bytesUpTo = Math.max(this.bytesUpTo, frame.alternateSince - 1);
                this.queuedChars = this.unsent.reduce((n, u) => n + u.data.length, 0);
                this.sinceFrame = after.reduce((n, u) => n + u.data.length, 0);
                this.lastFrameSeq = frame.seq;
            }
            this.sendUnsent();
            this.session.updateFlow();
        });
    }

    /** The session ended: everything not sent yet goes now, whatever the view has drawn (frames as they are). */
    sendAll(): void {
        this.ended = true;
        this.catchingUp = false;
        clearTimeout(this.frameTimer);
        for (const u of this.unsent.splice(0)) {
            this.send(u.data);
        }
        this.queuedChars = 0;
        this.sinceFrame = 0;
    }

    /**
     * Once the view has drawn half of what it was sent: a frame of the screen now and what comes after it.
     * `settled`: called after the event loop read what had arrived (the frame timer), so a quiet agent is quiet.
     */
    protected sendUnsent(settled = false): void {
        if (this.unsent.length && this.unacknowledged >= CATCH_UP.windowChars / 2) {
            return;
        }
        while (this.unsent.length && (!this.unacknowledged || this.unacknowledged + this.unsent[0].data.length <= CATCH_UP.windowChars)) {
            const next = this.unsent[0];
            // Output a frame could stand for waits for the next frame's time (see frameWait)…
            const replaceable = !next.frame && next.seq > this.bytesUpTo;
            if (replaceable || next.frame) {
                const wait = this.frameWait(settled);
                if (wait > 0) {
                    this.lookAgainIn(wait);
                    return;
                }
            }
            if (replaceable) {
                if (this.sinceFrame >= CATCH_UP.windowChars) {
                    this.askFrame();
                    return; // the frame replaces this output
                }
                // …and goes as it is when less came since the last frame than the view may have in flight:
                // it can draw that, so catching up ends (and OSC side effects, query answers, reach it again).
                this.catchingUp = false;
            }
            if (next.frame) {
                this.frameSentAt = monotonicNow();
            }
            this.sentUpTo = next.seq;
            this.unsent.shift();
            this.queuedChars -= next.data.length;
            if (!next.frame && next.seq > this.lastFrameSeq) {
                this.sinceFrame -= next.data.length;
            }
            this.send(next.data);
        }
        if (!this.unsent.length) {
            this.endCatchUp(settled);
        }
    }

    /** The view has been sent everything: catching up ends once the agent is quiet. */
    protected endCatchUp(settled: boolean): void {
        if (!this.catchingUp) {
            return;
        }
        const quiet = this.untilQuiet();
        if (quiet === 0 && settled) {
            this.catchingUp = false;
        } else if (quiet !== Infinity) {
            this.lookAgainIn(Math.max(quiet, 1));
        }
        // (Held by flow control: the output that resumes comes through deliver and sendUnsent again.)
    }

    /**
     * sendUnsent again in `ms`, after the event loop has read what arrived meanwhile (setImmediate): a loop
     * busy parsing must not take output it has not read yet for a quiet agent.
     */
    protected lookAgainIn(ms: number): void {
        this.frameTimer ??= setTimeout(() => setImmediate(() => {
            this.frameTimer = undefined;
            this.sendUnsent(true);
        }), ms);
    }

    /**
     * How long the next frame must wait: frames are paced (one per CATCH_UP.frameIntervalMs) while output
     * keeps coming; once the agent has been quiet for CATCH_UP.frameQuietMs, the screen it stopped on goes
     * at once. A session paused by its flow control is not quiet: its agent is held, not done.
     */
    protected frameWait(settled: boolean): number {
        const paced = this.frameSentAt + CATCH_UP.frameIntervalMs - monotonicNow();
        if (paced <= 0) {
            return paced;
        }
        const quiet = this.untilQuiet();
        return quiet > 0 ? Math.min(paced, quiet) : settled ? 0 : 1;
    }

    /** How long until the agent is quiet: nothing came for CATCH_UP.frameQuietMs (Infinity while flow control holds it). */
    protected untilQuiet(): number {
        return this.session.paused ? Infinity : Math.max(0, this.session.lastDataAt + CATCH_UP.frameQuietMs - monotonicNow());
    }

    dispose(): void {
        if (!this.disposed) {
            this.disposed = true;
            this.catchingUp = false;
            clearTimeout(this.frameTimer);
            this.held = undefined;
            this.unsent = [];
            this.queuedChars = 0;
            this.dataEmitter.dispose();
            this.onExitEmitter.dispose();
            this.session.attachments.delete(this);
            this.onDispose();
        }
    }
}

/** Output quiet for this long after the exit means it has all been read. */
const EXIT_QUIET_MS = 40;
/** Never hold an exit back longer than this (a grandchild may keep writing to the PTY). */
const EXIT_SETTLE_MAX_MS = 400;

async function settleOutput(session: HostedSession): Promise<void> {
    const deadline = monotonicNow() + EXIT_SETTLE_MAX_MS;
    while (monotonicNow() < deadline) {
        const quietFor = monotonicNow() - session.lastDataAt;
        if (quietFor >= EXIT_QUIET_MS) {
            return;
        }
        await delay(EXIT_QUIET_MS - quietFor);
    }
}

/**
 * The clock for pacing output: monotonic, so a wall clock set back (NTP, a suspended laptop) cannot hold
 * frames or an exit's last output back, nor set forward release them early.
 */
export function monotonicNow(): number {
    return performance.now();
}

export function delay(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms).unref?.());
}
