import { createHash, randomUUID } from 'crypto';
import { SimpleEmitter, EventLike } from '../../common/base/event';
import { DEFAULT_STOP_TIMINGS, SessionInfo, StopCause, StopTimings } from '../../common/session/session-types';
import type { TerminalNotification } from '../../common/terminal/osc-dispatch';
import { withOnlyStdio } from '../sandy/only-stdio';
import { SandyError } from '../../common/sandy/errors';
import { DaemonStartReader, stripAnsi } from '../../common/session/daemon-output';
import { NotificationCoalescer } from '../../common/terminal/notification-coalescer';
import { daemonStopProblem, orphanScreenText, queuedLaunchText, attachFailedProblem, RELEASED_PROBLEM } from '../../common/host/labels';
import { HostedSession, PtyLike, SessionAttachment, FeedExit, delay } from './hosted-session';
import { BuildGate } from './build-gate';
import type { DiscoveredDaemon, SessionDiscovery } from '../../common/session/session-discovery';
import { isRecordedSandy } from './process-identity';
import type { ScreenThread } from './screen-thread';
import { agentsOf } from '../../common/session/tmux-panes';
import type { PaneScreen } from '../../common/session/tmux-panes';
import { Attention, elapsedSince } from '../../common/session/session-attention';

/** What of a session's panes the windows are told (a change of it is a session change). */
function panesSignature(attention: Attention | undefined): string {
    return attention?.panes?.map(p => `${p.agent}:${p.state}`).join(',') ?? '';
}

export type { PtyLike, SessionAttachment } from './hosted-session';

export interface PtySpawnOptions {
    name: string;
    cols: number;
    rows: number;
    cwd: string;
    env: Record<string, string>;
}

export type PtySpawn = (file: string, args: string[], options: PtySpawnOptions) => PtyLike;

export interface LaunchRequest {
    sandyPath: string;
    args: string[];
    workspace: string;
    env: Record<string, string>;
    /** Size measured by the view's first fit — never a hard-coded default (spec, MVP pillar 2). */
    cols: number;
    rows: number;
    agent?: string;
    /**
     * Sees sandy's output before any view, with a way to type into sandy's terminal: how the tab
     * answers sandy's own gate prompts for exactly what the user approved (see GateResponder).
     */
    outputObserver?: (data: string, input: (text: string) => void) => void;
}

/** sandy as a daemon session's clients run it (`--attach`, `--stop`): found anew at each use. */
export interface SandyCommandLine {
    sandyPath: string;
    env: Record<string, string>;
}

/** What the supervisor needs from the service: sandy for daemon sessions' clients, and a memory of what it started. */
export interface SessionPort {
    /** sandy and its whitelisted environment now; undefined when sandy is not found. */
    commandLine(): SandyCommandLine | undefined;
    /** `sandy <args>` without a terminal, in `cwd` (`--stop`). */
    run(args: string[], cwd: string, timeoutMs: number): Promise<{ exitCode?: number; stdout: string; stderr: string }>;
    /** What this IDE started, remembered across restarts: a daemon's container, a foreground sandy's pid. */
    remember(workspace: string, started: { containerId: string } | { pid: number }): void;
    forget(workspace: string, mode: 'daemon' | 'foreground'): void;
}

export type SignalSender = (pid: number, signal: NodeJS.Signals) => void;

/** Signals go to the process group: sandy defers its traps while `docker run` is in the foreground (CONTRACT §0.11, fx 48). */
export const signalProcessGroup: SignalSender = (pid, signal) => {
    if (!Number.isSafeInteger(pid) || pid <= 1) {
        // kill(-0) is our own process group, kill(-1) every process we may signal: never.
        return;
    }
    try {
        process.kill(-pid, signal);
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') {
            // The group may be gone already; fall back to the leader itself.
            try { process.kill(pid, signal); } catch { /* gone */ }
        }
    }
};

/** Whether `pid` runs (signal 0); the orphan watcher's test. */
export type PidProbe = (pid: number) => boolean;

const pidAlive: PidProbe = pid => {
    try {
        process.kill(pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
};

/** A daemon session's id: the same for its workspace in every IDE process, so a restored tab finds it again. */
export function daemonSessionId(workspace: string): string {
    return `daemon-${createHash('sha256').update(workspace).digest('hex').slice(0, 16)}`;
}

function orphanSessionId(workspace: string): string {
    return `orphan-${createHash('sha256').update(workspace).digest('hex').slice(0, 16)}`;
}

/** A session's notifications cross to the windows at most this often. */
const NOTIFY_EVERY_MS = 1000;

/** `--stop` waits up to 15 s for the supervisor (CONTRACT §6.3); ours waits a little longer for sandy to say so. */
const DAEMON_STOP_TIMEOUT_MS = 30_000;
/** How long a session that just ended is not brought back by a `--print-state` begun before it ended. */
const ENDED_GRACE_MS = 2_000;
/** How often a session's attention state is looked at again (working turns idle by the clock). */
const ATTENTION_TICK_MS = 1_000;
/** The size of an attach client no view has measured yet (a session found at start, before its tab lays out). */
const UNMEASURED_SIZE = { cols: 120, rows: 32 };

export interface SupervisorOptions {
    timings?: StopTimings;
    sendSignal?: SignalSender;
    pidAlive?: PidProbe;
    /** Launches wait for each other around sandy's image build (a fresh gate per supervisor by default). */
    buildGate?: BuildGate;
    /** Whether a pid is still the sandy that was recorded (an orphan's pid is checked before any signal). */
    isSandy?: (pid: number, start: string | undefined) => boolean;
    /** The clock of the attention queue (when output came, since when a session waits) and how often it looks again (specs). */
    clock?: () => number;
    attentionTickMs?: number;
    /**
     * Whether a session's visible screen shows its agent waiting at its own prompt (core's detectPrompt);
     * asked once each time the session's output has been quiet for {@link PROMPT_QUIET_MS}. None: no prompt detection.
     */
    promptDetector?: (lines: readonly string[], agent: string | undefined) => boolean;
    /** Where the sessions' screens are parsed (screen-thread.ts): the process's screen worker by default. */
    screenThread?: ScreenThread;
    /** Where the supervisor says what went wrong on the way (input that did not reach a session): the host's log. */
    warn?: (line: string) => void;
}

/** A session quiet this long has its screen looked at for an agent's prompt. */
export const PROMPT_QUIET_MS = 1_500;
/**
 * A multi-agent session's panes are looked at this often while its screen changes: one agent working
 * keeps the stream busy, so another waiting at its prompt is never behind a quiet spell.
 */
export const PANE_LOOK_MS = 2_000;

/**
 * Hosts sandy sessions: foreground sandy on a PTY (stopped with the spec's escalation to the process
 * group), and daemon sessions (`--start` on a PTY, then an `--attach` client whose screen every view
 * shares, `--stop` to end them), plus the sessions `--print-state` reveals that nobody here started:
 * daemons started from a shell, and foreground sandys orphaned by an IDE that died. Any number of
 * views attach to a session; it outlives them, and a daemon session outlives this process.
 */
export class PtySupervisor {
    protected readonly sessions = new Map<string, HostedSession>();
    protected readonly onDidChangeEmitter = new SimpleEmitter<SessionInfo>();
    /** Fires on launch, attach/detach, stop requested and exit. */
    readonly onDidChangeSession = this.onDidChangeEmitter.event;
    protected readonly onDidNotifyEmitter = new SimpleEmitter<{ session: SessionInfo; notification: TerminalNotification }>();
    /** A notification parsed from a session's stream (once, whether or not a view shows it). */
    readonly onDidNotify = this.onDidNotifyEmitter.event;
    protected readonly timings: StopTimings;
    protected readonly sendSignal: SignalSender;
    protected readonly pidAlive: PidProbe;
    protected readonly gate: BuildGate;
    protected readonly isSandy: (pid: number, start: string | undefined) => boolean;
    protected sessionPort: SessionPort | undefined;
    protected disposed = false;
    /** Working turns idle by the clock alone: checked every second, a change told to the windows. */
    protected readonly attentionTicker: ReturnType<typeof setInterval>;
    /** Ids of the sessions a window shows to the user now (also one not hosted yet: a restored tab's). */
    protected readonly seen = new Set<string>();
    protected readonly now: () => number;
    protected readonly promptDetector: SupervisorOptions['promptDetector'];
    protected readonly screenThread: ScreenThread | undefined;
    protected readonly warn: (line: string) => void;

    constructor(protected readonly spawnPty: PtySpawn, options: SupervisorOptions | StopTimings = {}, sendSignal?: SignalSender) {
        const o: SupervisorOptions = 'interruptGraceMs' in options ? { timings: options, sendSignal } : options;
        this.timings = o.timings ?? DEFAULT_STOP_TIMINGS;
        this.sendSignal = o.sendSignal ?? sendSignal ?? signalProcessGroup;
        this.pidAlive = o.pidAlive ?? pidAlive;
        this.gate = o.buildGate ?? new BuildGate();
        this.isSandy = o.isSandy ?? isRecordedSandy;
        this.now = o.clock ?? Date.now;
        this.promptDetector = o.promptDetector;
        this.screenThread = o.screenThread;
        this.warn = o.warn ?? (() => undefined);
        this.attentionTicker = setInterval(() => {
            for (const session of this.sessions.values()) {
                if (!this.lookAtPanes(session)) {
                    this.lookForPrompt(session);
                }
                this.attentionMayHaveChanged(session);
            }
        }, o.attentionTickMs ?? ATTENTION_TICK_MS);
        this.attentionTicker.unref?.();
    }

    /** How daemon sessions' clients are run (the service sets it once sandy can be found). */
    setSessionPort(port: SessionPort): void {
        this.sessionPort = port;
    }

    // ---- foreground ---------------------------------------------------------------------------

    /** Bare sandy on a PTY: the session is the process. Queued behind another launch's image build. */
    launch(request: LaunchRequest): SessionInfo {
        const size = { cols: clampDimension(request.cols, 2, 1000), rows: clampDimension(request.rows, 1, 500) };
        const info: SessionInfo = {
            id: randomUUID(), pid: 0, mode: 'foreground', origin: 'ide', workspace: request.workspace, args: [...request.args],
            startedAt: Date.now(), status: 'running', attachedViews: 0, agent: request.agent
        };
        const session = this.add(info, size);
        const spawn = (release: () => void): void => {
            let pty: PtyLike;
            try {
                // The size the view has now (it may have been resized while the launch waited its turn).
                pty = this.spawn(request.sandyPath, request.args, request.workspace, request.env, { cols: session.cols, rows: session.rows });
            } catch (e) {
                release();
                this.failed(session, e);
                throw e;
            }
            info.pid = pty.pid;
            this.sessionPort?.remember(info.workspace, { pid: pty.pid });
            const past = new PastBuildWatcher(release);
            // An answer goes to the process that asked (never to a client that took over after it).
            const input = (text: string) => {
                if (session.pty === pty) {
                    session.write(text);
                }
            };
            session.feed(pty, e => {
                past.release();
                this.sessionPort?.forget(info.workspace, 'foreground');
                this.exited(session, e);
            }, data => {
                past.push(data);
                request.outputObserver?.(data, input);
            });
            this.fireChange(session);
        };
        this.queue(session, spawn);
        return session.snapshot();
    }

    // ---- daemon -------------------------------------------------------------------------------

    /**
     * A daemon session: `sandy --start` on a PTY (its progress and sandy's own prompts in the tab,
     * answered by `outputObserver` for what the user approved), then the attach client. The id is the
     * workspace's, so a restored tab or a second window finds the same session.
     */
    startDaemon(request: LaunchRequest): SessionInfo {
        const size = { cols: clampDimension(request.cols, 2, 1000), rows: clampDimension(request.rows, 1, 500) };
        const id = daemonSessionId(request.workspace);
        const current = this.sessions.get(id);
        if (current?.live) {
            return current.snapshot();
        }
        this.drop(id);
        const info: SessionInfo = {
            id, pid: 0, mode: 'daemon', origin: 'ide', link: 'starting', workspace: request.workspace, args: [...request.args],
            startedAt: Date.now(), status: 'running', attachedViews: 0, agent: request.agent
        };
        const session = this.add(info, size);
        const spawn = (release: () => void): void => {
            let pty: PtyLike;
            try {
                pty = this.spawn(request.sandyPath, ['--start', ...request.args], request.workspace, request.env, { cols: session.cols, rows: session.rows });
            } catch (e) {
                release();
                this.failed(session, e);
                throw e;
            }
            info.pid = pty.pid;
            const reader = new DaemonStartReader();
            // An answer goes to the process that asked (never to a client that took over after it).
            const input = (text: string) => {
                if (session.pty === pty) {
                    session.write(text);
                }
            };
            session.feed(pty, e => {
                release();
                reader.end();
                this.started(session, e, reader);
            }, data => {
                reader.push(data);
                if (reader.phase !== info.startPhase) {
                    info.startPhase = reader.phase;
                    this.fireChange(session);
                }
                request.outputObserver?.(data, input);
            });
            this.fireChange(session);
        };
        this.queue(session, spawn);
        return session.snapshot();
    }

    protected started(session: HostedSession, e: FeedExit, reader: DaemonStartReader): void {
        const info = session.info;
        if (reader.closedGates.size > 0) {
            info.closedGates = [...reader.closedGates];
        }
        if (info.status === 'exited') {
            return;
        }
        if (e.exitCode !== 0 || e.signal) {
            // Refused before launch, a crash loop, not attachable in 600 s (its words are on the screen above).
            info.endReason = info.status === 'stopping' ? 'stopped' : 'start-failed';
            this.exited(session, e);
            return;
        }
        session.listedSince = Date.now();
        info.startPhase = undefined;
        if (reader.containerId) {
            this.sessionPort?.remember(info.workspace, { containerId: reader.containerId });
        }
        if (info.status === 'stopping') {
            // Stop was asked while sandy was starting it: the stop under way ends what came up.
            return;
        }
        this.attachClient(session);
    }

    /**
     * Our `sandy --attach` client for a daemon session (last attach wins in sandy: it takes the
     * session from any other terminal). Its exit says what became of the session (CONTRACT §6.3).
     */
    protected attachClient(session: HostedSession): void {
        const info = session.info;
        const cl = this.sessionPort?.commandLine();
        if (!cl || !session.live || this.disposed) {
            if (!cl) {
                info.link = 'detached';
                info.problem = attachFailedProblem(undefined, 'sandy was not found.');
                this.fireChange(session);
            }
            return;
        }
        let pty: PtyLike;
        try {
            pty = this.spawn(cl.sandyPath, ['--attach'], info.workspace, cl.env, { cols: session.cols, rows: session.rows });
        } catch (e) {
            info.link = 'detached';
            info.problem = attachFailedProblem(undefined, e instanceof Error ? e.message : String(e));
            this.fireChange(session);
            return;
        }
        info.pid = pty.pid;
        info.link = 'attached';
        info.problem = undefined;
        let tail = '';
        session.feed(pty, e => this.attachEnded(session, pty, e, tail), data => {
            tail = (tail + data).slice(-2048);
        }, { warn: line => this.warn(line) });
        this.fireChange(session);
    }

    protected attachEnded(session: HostedSession, pty: PtyLike, e: FeedExit, tail: string): void {
        const info = session.info;
        if (!session.live || session.pty) {
            // Ended already, or a newer client took over (Take Back after a failure).
            return;
        }
        info.pid = 0;
        if (info.status === 'stopping' || this.disposed) {
            info.link = 'detached';
            return;
        }
        if (e.signal) {
            // Killed by a signal: no verdict (CONTRACT §6.3); the next --print-state tells.
            info.link = 'detached';
        } else if (e.exitCode === 0 || e.exitCode === 4) {
            // 0: the agent exited and the daemon shuts down; 4: there is no session any more.
            info.endReason = e.exitCode === 4 ? 'gone' : 'agent-exited';
            this.exited(session, { exitCode: 0 });
            this.sessionPort?.forget(info.workspace, 'daemon');
            return;
        } else if (e.exitCode === 3) {
            // Detached while the session lives: another terminal attached (we never detach our own client).
            info.link = 'elsewhere';
        } else {
            info.link = 'detached';
            info.problem = attachFailedProblem(e.exitCode, lastLine(tail));
        }
        this.fireChange(session);
    }

    /** Take the session back into the IDE from another terminal (or attach after a failure). */
    takeBack(id: string): SessionInfo {
        const session = this.require(id);
        if (session.info.mode === 'daemon' && session.live && session.info.status === 'running' && session.info.link !== 'starting' && !session.pty) {
            this.attachClient(session);
        }
        return session.snapshot();
    }

    /**
     * Bring the sessions `--print-state` lists into line: daemon sessions nobody here started (a
     * shell's `sandy --start`, or ours from before the IDE restarted) are adopted — ours are attached
     * again at once, a shell's when a view asks; a daemon session whose container is gone has ended;
     * a foreground sandy orphaned by a dead IDE is offered for Stop.
     */
    reconcile(found: SessionDiscovery): void {
        if (this.disposed) {
            return;
        }
        const recentlyEnded = (s: HostedSession | undefined) => !!s && !s.live && (s.info.endedAt ?? 0) > found.observedAt - ENDED_GRACE_MS;
        if (found.daemons) {
            const listed = new Set<string>();
            for (const d of found.daemons) {
                const id = daemonSessionId(d.workspace);
                listed.add(id);
                const current = this.sessions.get(id);
                if (current?.live) {
                    if (current.info.link === 'elsewhere' && d.attachedClients === 0) {
                        // The other terminal let go. Not taken back by itself: that other client may be
                        // another window of this IDE reloading, and two windows would take it in turns.
                        current.info.link = 'detached';
                        current.info.problem = { ...RELEASED_PROBLEM };
                        this.fireChange(current);
                    }
                    continue;
                }
                if (recentlyEnded(current) || this.liveFor(d.workspace)) {
                    continue;
                }
                this.adoptDaemon(id, d, found);
            }
            for (const session of this.sessions.values()) {
                const info = session.info;
                if (info.mode === 'daemon' && session.live && info.link !== 'starting' && info.status !== 'stopping'
                    && !listed.has(info.id) && (session.listedSince ?? Infinity) < found.observedAt - ENDED_GRACE_MS) {
                    // Its container is gone (stopped from a shell, `docker rm`, the agent exited while detached).
                    session.pty?.kill();
                    info.endReason = 'gone';
                    this.exited(session, { exitCode: 0 });
                    this.sessionPort?.forget(info.workspace, 'daemon');
                }
            }
        }
        const orphaned = new Set<string>();
        for (const o of found.orphans) {
            const id = orphanSessionId(o.workspace);
            orphaned.add(id);
            const current = this.sessions.get(id);
            if (current?.live || recentlyEnded(current) || this.liveFor(o.workspace)) {
                continue;
            }
            this.drop(id);
            const info: SessionInfo = {
                id, pid: o.pid, mode: 'foreground', origin: 'orphan', workspace: o.workspace, args: [],
                startedAt: Date.now(), status: 'running', attachedViews: 0
            };
            const session = this.add(info, UNMEASURED_SIZE);
            session.orphanStart = o.start;
            session.ingest(orphanScreenText(o.pid));
            this.watchOrphan(session);
            this.fireChange(session);
        }
    }

    protected adoptDaemon(id: string, d: DiscoveredDaemon, found: SessionDiscovery): void {
        this.drop(id);
        const info: SessionInfo = {
            id, pid: 0, mode: 'daemon', origin: d.ours ? 'ide' : 'outside', link: d.attachedClients ? 'elsewhere' : 'detached',
            workspace: d.workspace, args: [], startedAt: d.startedAt ?? Date.now(), status: 'running', attachedViews: 0
        };
        const session = this.add(info, UNMEASURED_SIZE);
        session.listedSince = found.observedAt;
        this.fireChange(session);
        if (d.ours && !d.attachedClients) {
            // Ours from before the IDE restarted: attach again, so its notifications reach the IDE.
            this.attachClient(session);
        }
    }

    /** An orphan has no terminal of ours: its end is seen by its pid. */
    protected watchOrphan(session: HostedSession): void {
        const timer = setInterval(() => {
            if (!session.live) {
                clearInterval(timer);
            } else if (!this.pidAlive(session.info.pid)) {
                clearInterval(timer);
                this.exited(session, { exitCode: 0 });
            }
        }, 1000);
        timer.unref?.();
    }

    // ---- views --------------------------------------------------------------------------------

    get(id: string): SessionInfo | undefined {
        const s = this.sessions.get(id);
        return s?.snapshot();
    }

    list(): SessionInfo[] {
        return [...this.sessions.values()].map(s => s.snapshot());
    }

    /**
     * Attach a view; it receives the session's screen first, then live output. A daemon session
     * nobody here shows yet gets our attach client (unless another terminal has it: the tab offers
     * Take Back instead of silently taking it).
     */
    async attach(id: string): Promise<SessionAttachment> {
        const session = this.require(id);
        const attachment = await session.attach(() => {
            session.info.attachedViews = session.attachments.size;
            session.updateFlow();
            this.fireChange(session);
        });
        session.info.attachedViews = session.attachments.size;
        if (session.info.mode === 'daemon' && session.live && session.info.link === 'detached' && !session.pty && !session.info.problem) {
            this.attachClient(session);
        } else {
            this.fireChange(session);
        }
        return attachment;
    }

    /** Raw output of a session as it arrives, without flow control (history capture, benchmarks). */
    onData(id: string): EventLike<string> {
        return this.require(id).onDataEmitter.event;
    }

    resize(id: string, cols: number, rows: number): void {
        const session = this.require(id);
        if (session.live) {
            session.resize(clampDimension(cols, 2, 1000), clampDimension(rows, 1, 500));
        }
    }

    // ---- stop ---------------------------------------------------------------------------------

    /**
     * Stop. Foreground: SIGINT → grace → SIGTERM → grace → SIGKILL, each to the whole process group,
     * so sandy's cleanup trap runs instead of being cut short by a hang-up (spec, MVP pillar 2); an
     * orphan the same way, once its pid is still sandy's. Daemon: `sandy --stop`. Resolves when it
     * ended, or (a daemon that would not stop) with the problem on the session.
     */
    stop(id: string, cause?: StopCause): Promise<SessionInfo> {
        const session = this.require(id);
        if (!session.live) {
            return Promise.resolve(session.snapshot());
        }
        session.stopCause ??= cause;
        if (!session.stopping) {
            session.info.status = 'stopping';
            session.info.problem = undefined;
            this.fireChange(session);
            session.stopping = (session.info.mode === 'daemon' ? this.stopDaemon(session) : this.escalate(session))
                .finally(() => session.stopping = undefined);
        }
        return session.stopping;
    }

    protected async escalate(session: HostedSession): Promise<SessionInfo> {
        if (session.info.pid === 0 && session.info.origin !== 'orphan') {
            // Still waiting for its turn through the build: nothing was started, nothing to signal.
            session.info.endReason = 'stopped';
            this.exited(session, { exitCode: 0 });
            return session.snapshot();
        }
        const steps: Array<[NodeJS.Signals, number]> = [
            ['SIGINT', this.timings.interruptGraceMs],
            ['SIGTERM', this.timings.terminateGraceMs],
            ['SIGKILL', 5000]
        ];
        for (const [signal, grace] of steps) {
            if (!session.live) {
                break;
            }
            session.releaseFlow();
            if (session.info.origin === 'orphan' && !this.isSandy(session.info.pid, session.orphanStart)) {
                // Its pid no longer runs sandy (it ended, and the number may be another program's now).
                this.exited(session, { exitCode: 0 });
                break;
            }
            if (session.info.pid > 1) {
                this.sendSignal(session.info.pid, signal);
            }
            const exited = await Promise.race([session.exited.then(() => true), delay(grace).then(() => false)]);
            if (exited) {
                break;
            }
        }
        if (session.live && session.info.origin === 'orphan' && !this.pidAlive(session.info.pid)) {
            this.exited(session, { exitCode: 0 });
        }
        return session.snapshot();
    }

    protected async stopDaemon(session: HostedSession): Promise<SessionInfo> {
        const info = session.info;
        if (info.link === 'starting' && session.pty) {
            // `--start` still runs: end it as a foreground process; `--stop` below reaps a supervisor already up.
            await this.escalate(session);
        }
        const port = this.sessionPort;
        if (!port) {
            info.status = 'running';
            info.problem = daemonStopProblem(undefined, 'sandy was not found.');
            this.fireChange(session);
            return session.snapshot();
        }
        let result: { exitCode?: number; stdout: string; stderr: string };
        try {
            result = await port.run(['--stop'], info.workspace, DAEMON_STOP_TIMEOUT_MS);
        } catch (e) {
            result = { exitCode: undefined, stdout: '', stderr: e instanceof Error ? e.message : String(e) };
        }
        if (!session.live) {
            // The attach client saw the session end first (or the `--start` client ended above).
            return session.snapshot();
        }
        if (result.exitCode === 0 || result.exitCode === 4) {
            // Stopped, or already gone (4: no daemon session for the workspace).
            const pty = session.pty;
            pty?.kill();
            info.endReason = 'stopped';
            this.exited(session, { exitCode: 0 });
            port.forget(info.workspace, 'daemon');
        } else {
            // 5: the supervisor did not stop within 15 s; 1: sandy's preflight (Docker down): still running.
            info.status = 'running';
            const problem = daemonStopProblem(result.exitCode, lastLine(stripAnsi(result.stderr || result.stdout)));
            // Why the IDE wanted it stopped stays in view while it still runs.
            info.problem = session.stopCause ? { message: `${session.stopCause.problem.message} ${problem.message}`, hint: problem.hint } : problem;
            this.fireChange(session);
        }
        return session.snapshot();
    }

    /** Forget an ended session (its tab was closed). */
    forget(id: string): void {
        const session = this.sessions.get(id);
        if (session && !session.live) {
            this.drop(id);
        }
    }

    /**
     * This process ends. Foreground sessions end with it (their terminal is ours): SIGTERM, then
     * SIGKILL after the grace. Daemon sessions only lose our attach client (they run on, and the next
     * IDE finds them), unless `stopDaemons` (the user's "stop sessions when the IDE quits").
     */
    async dispose(options: { stopDaemons?: boolean } = {}): Promise<void> {
        if (this.disposed) {
            return;
        }
        this.disposed = true;
        clearInterval(this.attentionTicker);
        const all = [...this.sessions.values()].filter(s => s.live);
        // A foreground launch still waiting for its turn has no process yet (pid 0): it just ends.
        const foreground = all.filter(s => s.info.mode === 'foreground' && s.info.origin !== 'orphan' && s.info.pid > 1);
        const daemons = all.filter(s => s.info.mode === 'daemon');
        for (const s of foreground) {
            s.info.status = 'stopping';
            s.releaseFlow();
            this.sendSignal(s.info.pid, 'SIGTERM');
        }
        const stops = options.stopDaemons && this.sessionPort
            ? daemons.map(s => this.sessionPort!.run(['--stop'], s.info.workspace, DAEMON_STOP_TIMEOUT_MS).catch(() => undefined))
            : [];
        for (const s of daemons) {
            // Closing our side of the attach client's terminal ends it (SIGHUP): the session lives on.
            s.pty?.kill();
        }
        await Promise.race([Promise.all([...foreground.map(s => s.exited), ...stops]), delay(Math.max(this.timings.terminateGraceMs, stops.length ? 20_000 : 0))]);
        for (const s of foreground) {
            if (s.live) {
                this.sendSignal(s.info.pid, 'SIGKILL');
            }
        }
        for (const s of this.sessions.values()) {
            s.dispose();
        }
        this.onDidChangeEmitter.dispose();
        this.onDidNotifyEmitter.dispose();
    }

    // ---- internals ----------------------------------------------------------------------------

    protected add(info: SessionInfo, size: { cols: number; rows: number }): HostedSession {
        // An agent decides how many notifications it sends (a flood of bells costs it nothing): each
        // session's cross to the windows at most once a second, the latest with the count it stands
        // for — bells apart, so a bell never hides an agent's words.
        const batcher = (): NotificationCoalescer<TerminalNotification> => new NotificationCoalescer<TerminalNotification>(({ latest, more }) => {
            this.onDidNotifyEmitter.fire({ session: session.snapshot(), notification: more ? { ...latest, folded: more } : latest });
        }, { windowMs: NOTIFY_EVERY_MS, maxWindowMs: NOTIFY_EVERY_MS });
        const words = batcher();
        const bells = batcher();
        const session: HostedSession = new HostedSession(info, size, notification => {
            // The wait starts now, whatever the batching does with the toast.
            if (session.activity.asked(notification.source === 'bell' ? 'bell' : 'notification', this.now())) {
                this.attentionMayHaveChanged(session);
            }
            (notification.source === 'bell' ? bells : words).push(notification);
        }, this.screenThread);
        session.toDispose.push(words, bells);
        session.now = this.now;
        session.activity.setSeen(this.seen.has(info.id));
        this.sessions.set(info.id, session);
        return session;
    }

    protected drop(id: string): void {
        const old = this.sessions.get(id);
        if (old) {
            this.sessions.delete(id);
            old.dispose();
        }
    }

    protected liveFor(workspace: string): HostedSession | undefined {
        return [...this.sessions.values()].find(s => s.live && s.info.workspace === workspace);
    }

    /** Spawn now when no other launch is building, else write why it waits and spawn when its turn comes. */
    protected queue(session: HostedSession, spawn: (release: () => void) => void): void {
        const turn = this.gate.enter();
        if (turn.now) {
            try {
                spawn(turn.release);
            } catch (e) {
                // sandy could not be started at all: the caller says so; no ended session is left behind.
                this.drop(session.info.id);
                throw e;
            }
            return;
        }
        session.ingest(queuedLaunchText());
        void turn.ready.then(() => {
            if (!session.live || this.disposed) {
                turn.release();
                return;
            }
            try {
                spawn(turn.release);
            } catch {
                // Said on the session (failed).
            }
        });
    }

    protected spawn(file: string, args: string[], cwd: string, env: Record<string, string>, size: { cols: number; rows: number }): PtyLike {
        try {
            return this.spawnPty(file, args, { name: 'xterm-256color', cols: size.cols, rows: size.rows, cwd, env });
        } catch (e) {
            const err = e as NodeJS.ErrnoException;
            const code = /ENOENT|No such file/.test(String(err.message)) || err.code === 'ENOENT' ? 'not-found' : 'not-executable';
            throw new SandyError(code, `Could not start sandy at ${file}: ${err.message}`,
                code === 'not-found' ? 'Install sandy or set its path in the Sandy settings.' : 'Check that the file is executable (chmod +x).');
        }
    }

    protected failed(session: HostedSession, e: unknown): void {
        const err = e as SandyError;
        session.info.problem = { message: err.message, hint: err.hint ?? '' };
        session.info.endReason = 'start-failed';
        this.exited(session, { exitCode: 127 });
    }

    protected exited(session: HostedSession, { exitCode, signal }: FeedExit): void {
        const info = session.info;
        if (!session.live) {
            return;
        }
        info.status = 'exited';
        info.endedAt = Date.now();
        if (info.origin === 'orphan') {
            this.sessionPort?.forget(info.workspace, 'foreground');
        }
        info.link = info.mode === 'daemon' ? 'detached' : undefined;
        if (session.stopCause) {
            info.endReason = session.stopCause.endReason;
            info.problem = session.stopCause.problem;
        }
        if (signal) {
            info.signal = signalName(signal);
            info.exitCode = exitCode || undefined;
        } else {
            info.exitCode = exitCode;
        }
        session.markExited();
        this.fireChange(session);
    }

    protected require(id: string): HostedSession {
        const session = this.sessions.get(id);
        if (!session) {
            throw new SandyError('usage', `No sandy session with id ${id}.`, 'It may have been closed; launch the project again.');
        }
        return session;
    }

    /**
     * Whether a window shows the session to the user now (its tab visible and focused): seeing it
     * ends its wait, and a notification while it is seen is no wait.
     */
    setSeen(id: string, seen: boolean): void {
        if (seen) {
            this.seen.add(id);
        } else {
            this.seen.delete(id);
        }
        const session = this.sessions.get(id);
        if (session) {
            session.activity.setSeen(seen);
            this.attentionMayHaveChanged(session);
        }
    }

    /** Once per quiet spell of a live session's output: is its agent waiting at its prompt? */
    protected lookForPrompt(session: HostedSession): void {
        const detector = this.promptDetector;
        const last = session.activity.current.lastOutputAt;
        if (!detector || !session.live || !session.pty || last === 0 || session.promptLookedAt === last || elapsedSince(last, this.now()) < PROMPT_QUIET_MS) {
            return;
        }
        session.promptLookedAt = last;
        void session.screen.visibleText(60).then(({ lines }) => {
            // Output that came meanwhile starts another quiet spell: this look is stale. So is it when the
            // session's panes were read meanwhile (a multi-agent window): they answer pane by pane.
            if (session.live && session.activity.current.lastOutputAt === last && session.panes === undefined) {
                let shown = false;
                try {
                    shown = detector(lines, session.info.agent);
                } catch {
                    shown = false;
                }
                if (session.activity.prompt(shown, this.now())) {
                    this.attentionMayHaveChanged(session);
                }
            }
        });
    }

    /**
     * A multi-agent session (`SANDY_AGENT=claude,codex`): its screen split into sandy's panes
     * (tmux-panes.ts) and each pane looked at on its own — its agent's prompt, whether it changed —
     * every {@link PANE_LOOK_MS} while output comes (a pane's working turns idle by the clock). False when
     * the session is not one, or its screen is not that layout: the whole screen is looked at instead.
     */
    protected lookAtPanes(session: HostedSession): boolean {
        const detector = this.promptDetector;
        const agents = agentsOf(session.info.agent);
        if (!detector || agents.length < 2) {
            return false;
        }
        const now = this.now();
        if (!session.pty) {
            // Detached (no attach client): the panes' states are not known any more.
            session.panes = undefined;
        }
        // Output since the last look (a look "in the future", the clock set back since, is long ago: any output is after it).
        const sinceLook = elapsedSince(session.paneLookedAt, now);
        const changed = sinceLook === Infinity || session.activity.current.lastOutputAt > session.paneLookedAt;
        if (session.live && session.pty && !session.paneLooking && changed && sinceLook >= PANE_LOOK_MS) {
            session.paneLooking = true;
            session.paneLookedAt = now;
            void session.screen.panes(agents).then(panes => this.panesLookedAt(session, panes, detector), () => undefined)
                .finally(() => session.paneLooking = false);
        }
        // While a look at the panes is under way, no whole-screen look: it would answer for the whole
        // window (no one agent's prompt) after the panes' answer and undo a pane's wait.
        return session.panes !== undefined || session.paneLooking;
    }

    protected panesLookedAt(session: HostedSession, panes: PaneScreen[] | undefined, detector: NonNullable<SupervisorOptions['promptDetector']>): void {
        if (!session.live) {
            return;
        }
        const now = this.now();
        if (!panes) {
            // Not the layout now (a pane zoomed, a pane gone): what was seen stands — a wait ends only by
            // the pane's own look or by the user seeing it.
            return;
        }
        const before = session.panes;
        const waiting: string[] = [];
        session.panes = panes.map((pane, i) => {
            const text = pane.lines.join('\n');
            const was = before?.[i]?.agent === pane.agent ? before[i] : undefined;
            let shown = false;
            try {
                shown = detector(pane.lines, pane.agent);
            } catch {
                shown = false;
            }
            if (shown) {
                waiting.push(`${i}:${pane.agent}`);
            }
            return {
                agent: pane.agent,
                text,
                changedAt: !was ? (session.activity.current.lastOutputAt || now) : was.text !== text ? now : was.changedAt,
                waitingSince: shown ? was?.waitingSince ?? now : undefined
            };
        });
        session.activity.prompt(waiting, now);
        this.attentionMayHaveChanged(session);
    }

    protected attentionMayHaveChanged(session: HostedSession): void {
        if (!session.live) {
            return;
        }
        const attention = session.snapshot().attention;
        if (attention?.state !== session.reportedAttention || panesSignature(attention) !== session.reportedPanes) {
            this.fireChange(session);
        }
    }

    /** The session as the windows are told it now (its attention state remembered as told). */
    protected reported(session: HostedSession): SessionInfo {
        const info = session.snapshot();
        session.reportedAttention = info.attention?.state;
        session.reportedPanes = panesSignature(info.attention);
        return info;
    }

    protected fireChange(session: HostedSession): void {
        this.onDidChangeEmitter.fire(this.reported(session));
    }

    /** The backend's copy of a session's screen (read only: the dashboard's thumbnails). */
    screenOf(id: string): Pick<HostedSession['screen'], 'visibleText'> | undefined {
        return this.sessions.get(id)?.screen;
    }
}

/**
 * A foreground launch holds the build gate until sandy is past its image builds: it prints
 * `Creating new sandbox:` / `Reusing sandbox:` after the builds and its lock (CONTRACT §6.1), or it
 * ends. Bounded by sandy's own 600 s.
 */
class PastBuildWatcher {
    protected tail = '';
    protected done = false;
    protected readonly timer: ReturnType<typeof setTimeout>;

    constructor(protected readonly onPast: () => void) {
        this.timer = setTimeout(() => this.release(), 600_000);
        this.timer.unref?.();
    }

    push(data: string): void {
        if (this.done) {
            return;
        }
        // Looked for in the whole read: a read with more than the kept tail after the line (a loaded
        // machine reads in larger pieces) would otherwise cut the line off before it is seen.
        const seen = this.tail + data;
        if (/(Creating new|Reusing) sandbox:/.test(stripAnsi(seen))) {
            this.release();
        }
        this.tail = seen.slice(-512);
    }

    release(): void {
        if (!this.done) {
            this.done = true;
            clearTimeout(this.timer);
            this.onPast();
        }
    }
}

function lastLine(text: string): string {
    const lines = stripAnsi(text).split(/\r?\n|\r/).map(l => l.trim()).filter(Boolean);
    return (lines[lines.length - 1] ?? '').slice(0, 300);
}

function clampDimension(n: number, min: number, max: number): number {
    if (!Number.isFinite(n)) {
        throw new SandyError('usage', `Invalid terminal size ${n}.`, 'The view must measure its size before launching.');
    }
    return Math.max(min, Math.min(max, Math.floor(n)));
}

const SIGNAL_NAMES: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 6: 'SIGABRT', 9: 'SIGKILL', 15: 'SIGTERM' };
function signalName(n: number): string {
    return SIGNAL_NAMES[n] ?? `signal ${n}`;
}

/** The part of node-pty's module the adapter needs (structural: the core never imports node-pty). */
export interface NodePtyModuleLike {
    spawn(file: string, args: string[], options: { name: string; cols: number; rows: number; cwd: string; env: Record<string, string> }): PtyLike;
}

/** node-pty behind core's PtySpawn; each host passes the module it loaded (Theia's backend, the VS Code extension host). */
export function ptySpawnFrom(nodePty: NodePtyModuleLike): PtySpawn {
    return (file, args, options) => {
        // sandy gets only stdin, stdout and stderr of the host's descriptors (only-stdio.ts).
        const clean = withOnlyStdio(file, args);
        const p = nodePty.spawn(clean.file, clean.args, { name: options.name, cols: options.cols, rows: options.rows, cwd: options.cwd, env: options.env });
        return {
            pid: p.pid,
            onData: listener => p.onData(listener),
            onExit: listener => p.onExit(listener),
            write: data => p.write(data),
            resize: (cols, rows) => p.resize(cols, rows),
            pause: () => p.pause(),
            resume: () => p.resume(),
            kill: signal => p.kill(signal)
        };
    };
}
