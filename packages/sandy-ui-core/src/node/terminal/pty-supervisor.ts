import { randomUUID } from 'crypto';
import { SimpleEmitter, EventLike, DisposableLike } from '../../common/base/event';
import { ReplayBuffer } from '../../common/terminal/replay-buffer';
import { DEFAULT_STOP_TIMINGS, FLOW_CONTROL, SessionInfo, StopTimings } from '../../common/session/session-types';
import { SandyError } from '../../common/sandy/errors';

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

/** One attached view: receives output, acknowledges what it rendered. */
export interface SessionAttachment extends DisposableLike {
    /** Output already produced before attaching, to fill the screen. */
    readonly replay: string;
    onData: EventLike<string>;
    onExit: EventLike<SessionInfo>;
    write(data: string): void;
    /** The view processed this many characters (flow control). */
    acknowledge(chars: number): void;
}

export type SignalSender = (pid: number, signal: NodeJS.Signals) => void;

/** Signals go to the process group: sandy defers its traps while `docker run` is in the foreground (CONTRACT §0.11, fx 48). */
export const signalProcessGroup: SignalSender = (pid, signal) => {
    try {
        process.kill(-pid, signal);
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') {
            // The group may be gone already; fall back to the leader itself.
            try { process.kill(pid, signal); } catch { /* gone */ }
        }
    }
};

class Session {
    lastDataAt = 0;
    readonly replay = new ReplayBuffer();
    readonly attachments = new Set<AttachmentImpl>();
    readonly onDataEmitter = new SimpleEmitter<string>();
    readonly exited: Promise<void>;
    paused = false;
    stopping?: Promise<SessionInfo>;
    protected resolveExited!: () => void;

    constructor(readonly info: SessionInfo, readonly pty: PtyLike) {
        this.exited = new Promise(resolve => this.resolveExited = resolve);
    }

    markExited(): void {
        this.resolveExited();
    }

    /** Pause above the high watermark of the slowest attached view, resume below the low one. */
    updateFlow(): void {
        let worst = 0;
        for (const a of this.attachments) {
            worst = Math.max(worst, a.unacknowledged);
        }
        // Never while stopping: see releaseFlow.
        if (!this.paused && worst > FLOW_CONTROL.highWatermarkChars && this.info.status === 'running') {
            this.paused = true;
            this.pty.pause();
        } else if (this.paused && worst < FLOW_CONTROL.lowWatermarkChars) {
            this.paused = false;
            this.pty.resume();
        }
    }

    /**
     * A paused PTY keeps sandy blocked on a full terminal and its cleanup trap never finishes; once a stop
     * has begun (status `stopping`), output is read whatever the views acknowledged — updateFlow no longer pauses.
     */
    releaseFlow(): void {
        if (this.paused) {
            this.paused = false;
            this.pty.resume();
        }
    }
}

class AttachmentImpl implements SessionAttachment {
    unacknowledged = 0;
    readonly onDataEmitter = new SimpleEmitter<string>();
    readonly onExitEmitter = new SimpleEmitter<SessionInfo>();
    readonly onData = this.onDataEmitter.event;
    readonly onExit = this.onExitEmitter.event;
    protected disposed = false;

    constructor(protected readonly session: Session, readonly replay: string, protected readonly onDispose: () => void) { }

    deliver(data: string): void {
        this.unacknowledged += data.length;
        this.onDataEmitter.fire(data);
    }

    write(data: string): void {
        if (this.session.info.status !== 'exited') {
            this.session.pty.write(data);
        }
    }

    acknowledge(chars: number): void {
        if (Number.isFinite(chars) && chars > 0) {
            this.unacknowledged = Math.max(0, this.unacknowledged - chars);
            this.session.updateFlow();
        }
    }

    dispose(): void {
        if (!this.disposed) {
            this.disposed = true;
            this.onDataEmitter.dispose();
            this.onExitEmitter.dispose();
            this.onDispose();
        }
    }
}

/**
 * Hosts sandy sessions in PTYs: spawn, record, attach any number of views, resize, stop with the
 * spec's escalation to the process group, and clean up on shutdown. Sessions outlive their views.
 */
export class PtySupervisor {
    protected readonly sessions = new Map<string, Session>();
    protected readonly onDidChangeEmitter = new SimpleEmitter<SessionInfo>();
    /** Fires on launch, attach/detach, stop requested and exit. */
    readonly onDidChangeSession = this.onDidChangeEmitter.event;

    constructor(
        protected readonly spawnPty: PtySpawn,
        protected readonly timings: StopTimings = DEFAULT_STOP_TIMINGS,
        protected readonly sendSignal: SignalSender = signalProcessGroup
    ) { }

    launch(request: LaunchRequest): SessionInfo {
        const cols = clampDimension(request.cols, 2, 1000);
        const rows = clampDimension(request.rows, 1, 500);
        let pty: PtyLike;
        try {
            pty = this.spawnPty(request.sandyPath, request.args, {
                name: 'xterm-256color', cols, rows, cwd: request.workspace, env: request.env
            });
        } catch (e) {
            const err = e as NodeJS.ErrnoException;
            const code = /ENOENT|No such file/.test(String(err.message)) || err.code === 'ENOENT' ? 'not-found' : 'not-executable';
            throw new SandyError(code, `Could not start sandy at ${request.sandyPath}: ${err.message}`,
                code === 'not-found' ? 'Install sandy or set its path in the Sandy settings.' : 'Check that the file is executable (chmod +x).');
        }
        const info: SessionInfo = {
            id: randomUUID(), pid: pty.pid, workspace: request.workspace, args: [...request.args],
            startedAt: Date.now(), status: 'running', attachedViews: 0, agent: request.agent
        };
        const session = new Session(info, pty);
        this.sessions.set(info.id, session);
        const observer = request.outputObserver;
        const input = (text: string) => {
            if (session.info.status === 'running') {
                pty.write(text);
            }
        };
        pty.onData(data => {
            session.lastDataAt = Date.now();
            observer?.(data, input);
            session.replay.push(data);
            session.onDataEmitter.fire(data);
            for (const a of session.attachments) {
                a.deliver(data);
            }
            session.updateFlow();
        });
        pty.onExit(({ exitCode, signal }) => {
            const endedAt = Date.now();
            // node-pty can report the exit before the last output is read: let the output settle first,
            // so views get sandy's final lines before "ended" (and the banner comes after them).
            session.releaseFlow();
            void settleOutput(session).then(() => {
                info.status = 'exited';
                info.endedAt = endedAt;
                if (signal) {
                    info.signal = signalName(signal);
                    info.exitCode = exitCode || undefined;
                } else {
                    info.exitCode = exitCode;
                }
                session.markExited();
                for (const a of [...session.attachments]) {
                    a.onExitEmitter.fire({ ...info });
                }
                this.fireChange(session);
            });
        });
        this.fireChange(session);
        return { ...info };
    }

    get(id: string): SessionInfo | undefined {
        const s = this.sessions.get(id);
        return s && { ...s.info };
    }

    list(): SessionInfo[] {
        return [...this.sessions.values()].map(s => ({ ...s.info }));
    }

    /** Attach a view; it receives the replay first, then live output. */
    attach(id: string): SessionAttachment {
        const session = this.require(id);
        const attachment: AttachmentImpl = new AttachmentImpl(session, session.replay.contents(), () => {
            session.attachments.delete(attachment);
            session.info.attachedViews = session.attachments.size;
            session.updateFlow();
            this.fireChange(session);
        });
        session.attachments.add(attachment);
        session.info.attachedViews = session.attachments.size;
        this.fireChange(session);
        return attachment;
    }

    /** Raw output of a session as it arrives, without flow control (history capture, benchmarks). */
    onData(id: string): EventLike<string> {
        return this.require(id).onDataEmitter.event;
    }

    resize(id: string, cols: number, rows: number): void {
        const session = this.require(id);
        if (session.info.status !== 'exited') {
            try {
                session.pty.resize(clampDimension(cols, 2, 1000), clampDimension(rows, 1, 500));
            } catch {
                // Resizing a PTY that is exiting throws EBADF; the exit event follows.
            }
        }
    }

    /**
     * Stop: SIGINT → grace → SIGTERM → grace → SIGKILL, each to the whole process group, so sandy's
     * cleanup trap runs instead of being cut short by a hang-up (spec, MVP pillar 2). Resolves on exit.
     */
    stop(id: string): Promise<SessionInfo> {
        const session = this.require(id);
        if (session.info.status === 'exited') {
            return Promise.resolve({ ...session.info });
        }
        if (!session.stopping) {
            session.info.status = 'stopping';
            this.fireChange(session);
            session.stopping = this.escalate(session);
        }
        return session.stopping;
    }

    protected async escalate(session: Session): Promise<SessionInfo> {
        const steps: Array<[NodeJS.Signals, number]> = [
            ['SIGINT', this.timings.interruptGraceMs],
            ['SIGTERM', this.timings.terminateGraceMs],
            ['SIGKILL', 5000]
        ];
        for (const [signal, grace] of steps) {
            if (session.info.status === 'exited') {
                break;
            }
            session.releaseFlow();
            this.sendSignal(session.info.pid, signal);
            const exited = await Promise.race([session.exited.then(() => true), delay(grace).then(() => false)]);
            if (exited) {
                break;
            }
        }
        return { ...session.info };
    }

    /** Forget an exited session (its tab was closed). */
    forget(id: string): void {
        const session = this.sessions.get(id);
        if (session && session.info.status === 'exited') {
            for (const a of [...session.attachments]) {
                a.dispose();
            }
            this.sessions.delete(id);
        }
    }

    /** Backend shutdown: every live group gets SIGTERM (sandy's trap cleans up), then SIGKILL after the grace. */
    async dispose(): Promise<void> {
        const live = [...this.sessions.values()].filter(s => s.info.status !== 'exited');
        for (const s of live) {
            s.info.status = 'stopping';
            s.releaseFlow();
            this.sendSignal(s.info.pid, 'SIGTERM');
        }
        await Promise.race([Promise.all(live.map(s => s.exited)), delay(this.timings.terminateGraceMs)]);
        for (const s of live) {
            if (s.info.status !== 'exited') {
                this.sendSignal(s.info.pid, 'SIGKILL');
            }
        }
        this.onDidChangeEmitter.dispose();
    }

    protected require(id: string): Session {
        const session = this.sessions.get(id);
        if (!session) {
            throw new SandyError('usage', `No sandy session with id ${id}.`, 'It may have been closed; launch the project again.');
        }
        return session;
    }

    protected fireChange(session: Session): void {
        this.onDidChangeEmitter.fire({ ...session.info });
    }
}

/** Output quiet for this long after the exit means it has all been read. */
const EXIT_QUIET_MS = 40;
/** Never hold an exit back longer than this (a grandchild may keep writing to the PTY). */
const EXIT_SETTLE_MAX_MS = 400;

async function settleOutput(session: Session): Promise<void> {
    const deadline = Date.now() + EXIT_SETTLE_MAX_MS;
    while (Date.now() < deadline) {
        const quietFor = Date.now() - session.lastDataAt;
        if (quietFor >= EXIT_QUIET_MS) {
            return;
        }
        await delay(EXIT_QUIET_MS - quietFor);
    }
}

function clampDimension(n: number, min: number, max: number): number {
    if (!Number.isFinite(n)) {
        throw new SandyError('usage', `Invalid terminal size ${n}.`, 'The view must measure its size before launching.');
    }
    return Math.max(min, Math.min(max, Math.floor(n)));
}

function delay(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms).unref?.());
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
        const p = nodePty.spawn(file, args, { name: options.name, cols: options.cols, rows: options.rows, cwd: options.cwd, env: options.env });
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
