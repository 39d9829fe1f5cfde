/*
 * What happens after sandy's `docker run`: the cleanup trap (sandy:8462-8468),
 * signal exit codes, the optional bash trap deferral, and hosting the fake
 * agent TUI either on our own stdio (bare launch) or behind a unix socket for
 * --attach clients (daemon supervisor).
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import { removeSession, updateSession } from './docker';
import { FakeTui, TuiSink } from './tui';
import { answerScript, catFile, envNumber, info, rmrf, writeFdSync } from './util';

export const SIGNAL_CODES: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGQUIT: 131, SIGTERM: 143 };

/** Everything cleanup() has to undo. Filled in as the launch progresses. */
export class Runtime {
    sandyHome = '';
    lockDir?: string;
    sessionId?: string;
    secretDir?: string;
    snapshotFiles: string[] = [];
    supervisor = process.env.SANDY_DAEMON_SUPERVISOR === '1';
    private cleaning = false;
    private trapsArmed = false;
    private readonly installed = new Set<string>();
    private reader?: ChildProcess;
    private deferChild?: ChildProcess;
    private deferChildAlive = false;
    private pendingSignal?: string;
    private restoreTerminal: () => void = () => undefined;
    private onAgentExit?: (code: number) => void;

    /**
     * `_sandy_release_lock`: remove the lock dir only if its pid file still
     * holds our PID (sandy:7103-7108), so a resumed session never deletes
     * somebody else's lock.
     */
    releaseLock(): void {
        if (this.lockDir && catFile(`${this.lockDir}/pid`) === String(process.pid)) {
            rmrf(this.lockDir);
        }
    }

    /** Synchronous part of cleanup(): also used by the interim EXIT path. */
    cleanupNow(): void {
        for (const f of this.snapshotFiles) {
            rmrf(f);
        }
        if (this.secretDir) {
            rmrf(this.secretDir);
        }
        if (this.sessionId) {
            removeSession(this.sandyHome, this.sessionId);
        }
        this.releaseLock();
    }

    setTerminalRestore(fn: () => void): void {
        this.restoreTerminal = fn;
    }

    /**
     * Take `signals` from now on (all four by default: at the lock, where sandy arms its interim
     * `trap _sandy_release_lock EXIT`, sandy:7210). One handler per signal for the rest of the
     * process, so a signal that arrives while the interim trap gives way to the cleanup trap is
     * acted on by whichever is armed when it is handled.
     */
    installTraps(signals: readonly string[] = Object.keys(SIGNAL_CODES)): void {
        for (const sig of signals) {
            if (!this.installed.has(sig)) {
                this.installed.add(sig);
                process.on(sig as NodeJS.Signals, () => this.onSignal(sig));
            }
        }
    }

    /** `trap ... INT TERM HUP QUIT` — armed only after the lock is held, like sandy. */
    armTraps(): void {
        this.installTraps();
        this.trapsArmed = true;
    }

    /**
     * A prompt's answer, read as sandy's bash reads it ({@link answerScript}) by a child in our process
     * group, while this process goes on taking signals: a signal to the group or to our pid alone, or
     * the terminal's hang-up, is acted on at once by the trap armed then.
     */
    read(from: 'tty' | 'stdin'): Promise<string> {
        return new Promise(resolve => {
            const child = spawn('/bin/sh', ['-c', answerScript(from)], { stdio: [from === 'stdin' ? 'inherit' : 'ignore', 'pipe', 'inherit'] });
            this.reader = child;
            let answer = '';
            child.stdout!.on('data', (d: Buffer) => answer += d.toString('utf8'));
            child.on('close', (_code, signal) => {
                if (this.reader === child) {
                    this.reader = undefined;
                }
                if (!signal) {
                    resolve(answer);
                    return;
                }
                // Killed with our group: our own trap takes the same signal. If it lets the launch go on
                // (a trap that ignores the signal), bash's interrupted `read` left the answer empty.
                setTimeout(() => {
                    if (!this.cleaning) {
                        resolve('');
                    }
                }, 100);
            });
        });
    }

    /** A reader left waiting would take the terminal's next line from whatever runs there after us. */
    private stopReader(): void {
        this.reader?.kill('SIGKILL');
        this.reader = undefined;
    }

    private onSignal(sig: string): void {
        if (this.cleaning) {
            return;
        }
        if (this.supervisor && sig === 'SIGHUP') {
            // The supervisor runs under nohup and traps HUP to nothing (sandy:8478-8480).
            return;
        }
        if (!this.trapsArmed) {
            if (sig === 'SIGQUIT') {
                // bash ignores SIGQUIT unless a trap is set for it.
                return;
            }
            // The interim trap (an EXIT trap, which bash runs on a fatal signal too): release the lock,
            // then die of the signal, as bash does.
            this.stopReader();
            this.releaseLock();
            for (const s of this.installed) {
                process.removeAllListeners(s);
            }
            process.kill(process.pid, sig);
            process.exit(SIGNAL_CODES[sig]);
        }
        if (sig === 'SIGTERM' && process.env.FAKE_SANDY_IGNORE_SIGTERM === '1') {
            // Test hook: a supervisor that will not stop, for --stop's exit 5.
            return;
        }
        if (this.deferChildAlive) {
            // bash runs a trap only after the foreground child returns (fixture 48).
            if (!this.pendingSignal) {
                this.pendingSignal = sig;
            }
            return;
        }
        this.finish(SIGNAL_CODES[sig], sig);
    }

    /**
     * FAKE_SANDY_DEFER_TRAPS=1: a `sleep` in OUR process group stands in for the
     * foreground `docker run`. A signal sent to the whole group kills it at once,
     * so the trap runs promptly; a signal sent to our PID alone waits until the
     * "agent" exits by itself (FAKE_SANDY_AGENT_SECONDS), exactly as bash does.
     */
    startDeferChild(seconds: number | undefined, onNaturalExit: (code: number) => void): void {
        this.onAgentExit = onNaturalExit;
        const secs = seconds === undefined ? 'infinity' : String(seconds);
        const child = spawn('sleep', [secs], { stdio: 'ignore', detached: false });
        this.deferChild = child;
        this.deferChildAlive = true;
        child.on('exit', (code, signal) => {
            this.deferChildAlive = false;
            // A group signal kills the child and reaches us too, but the two
            // notifications race; give our own handler a moment so the trap's
            // exit code (130/143/129) wins over "docker run returned".
            setTimeout(() => {
                if (this.pendingSignal) {
                    this.finish(SIGNAL_CODES[this.pendingSignal], this.pendingSignal);
                } else if (!this.cleaning && this.onAgentExit) {
                    this.onAgentExit(signal ? 128 + (os.constants.signals[signal] ?? 0) : code ?? 0);
                }
            }, signal ? 50 : 0);
        });
        child.on('error', () => {
            this.deferChildAlive = false;
        });
    }

    /** The agent ended on its own (`exit N` typed): docker run returns, then cleanup. */
    agentExited(code: number): void {
        if (this.deferChild && this.deferChildAlive) {
            this.onAgentExit = undefined;
            this.deferChild.kill('SIGKILL');
        }
        this.finish(code);
    }

    /**
     * cleanup() then exit. Deliberately slow (FAKE_SANDY_CLEANUP_MS, default
     * 300 ms) because the real one runs several `docker rm -f`/`network rm`
     * calls; a UI that SIGKILLs too early leaves a stale lock, and the fake
     * should let a test see that.
     */
    finish(code: number, signal?: string): void {
        if (this.cleaning) {
            return;
        }
        this.cleaning = true;
        this.stopReader();
        if (this.supervisor && this.sessionId) {
            // The tmux session is gone from this moment on: --attach/--start must
            // no longer see a live session while the teardown runs (and an attached
            // client, told below, must find it gone when it checks).
            updateSession(this.sandyHome, this.sessionId, { ready: false, attached: 0 });
        }
        try {
            this.restoreTerminal();
        } catch {
            // the terminal may already be gone (closed PTY)
        }
        if (this.supervisor && !signal) {
            info('Agent session ended \u2014 stopping the daemon session.');
        }
        const ms = envNumber('FAKE_SANDY_CLEANUP_MS', 300);
        setTimeout(() => {
            this.cleanupNow();
            if (signal && process.env.FAKE_SANDY_LOG) {
                try {
                    fs.appendFileSync(process.env.FAKE_SANDY_LOG, `${signal} ${Date.now()}\n`);
                } catch {
                    // logging is best effort
                }
            }
            process.exit(code);
        }, ms);
    }
}

/** Bare launch: the TUI owns our stdio until the agent exits or a signal arrives. */
export function runInteractive(rt: Runtime, tui: FakeTui): void {
    const stdin = process.stdin;
    const stdout = process.stdout;
    const raw = stdin.isTTY === true;
    if (raw) {
        stdin.setRawMode(true);
    }
    rt.setTerminalRestore(() => {
        tui.stop();
        writeFdSync(1, tui.leaveSequence());
        if (raw && stdin.isTTY) {
            stdin.setRawMode(false);
        }
        stdin.pause();
    });
    tui.setSize(stdout.rows ?? envRows(), stdout.columns ?? envCols());
    if (stdout.isTTY) {
        // node turns SIGWINCH into 'resize' on a TTY stdout
        stdout.on('resize', () => {
            tui.setSize(stdout.rows, stdout.columns);
            tui.redraw();
        });
    } else {
        // no terminal to ask: a SIGWINCH still redraws (size from LINES/COLUMNS)
        process.on('SIGWINCH', () => {
            tui.setSize(envRows(), envCols());
            tui.redraw();
        });
    }
    // A closed PTY (SIGHUP on its way) makes writes fail with EIO; that must not
    // turn into an uncaught error with a different exit code.
    stdout.on('error', () => undefined);
    stdin.on('data', d => tui.feed(d));
    // EOF on stdin does not end the agent: with `</dev/null` the real session
    // keeps running until signalled (fixtures 45-48), so hold the event loop open.
    setInterval(() => undefined, 1 << 30);
    stdin.on('end', () => undefined);
    stdin.on('error', () => undefined);
    stdin.resume();
    tui.start();
}

function envRows(): number {
    return parseInt(process.env.LINES ?? '', 10) || 24;
}

function envCols(): number {
    return parseInt(process.env.COLUMNS ?? '', 10) || 80;
}

/* ------------------------------------------------------------------ */
/* daemon session: the socket protocol shared with the --attach client */
/* ------------------------------------------------------------------ */

/** Frame: 1 byte type, 4 byte big-endian length, payload. */
export function frame(type: string, payload: string | Buffer = ''): Buffer {
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    const head = Buffer.alloc(5);
    head.write(type, 0, 1, 'latin1');
    head.writeUInt32BE(body.length, 1);
    return Buffer.concat([head, body]);
}

export class FrameReader {
    private buf = Buffer.alloc(0);

    constructor(private readonly onFrame: (type: string, payload: Buffer) => void) {}

    push(chunk: Buffer): void {
        this.buf = Buffer.concat([this.buf, chunk]);
        while (this.buf.length >= 5) {
            const len = this.buf.readUInt32BE(1);
            if (this.buf.length < 5 + len) {
                return;
            }
            const type = this.buf.toString('latin1', 0, 1);
            const payload = this.buf.subarray(5, 5 + len);
            this.buf = this.buf.subarray(5 + len);
            this.onFrame(type, payload);
        }
    }
}

/**
 * The supervisor's half of the session: one TUI, at most one attached client.
 * A new client kicks the previous one (`tmux attach -d`, DEC-A: last wins).
 */
export function serveDaemonSession(rt: Runtime, tui: FakeTui, socketPath: string, onReady: () => void): void {
    let client: net.Socket | undefined;
    const detachedSink: TuiSink = { write: () => true, waitDrain: () => Promise.resolve() };
    const setAttached = (n: number): void => {
        if (rt.sessionId) {
            updateSession(rt.sandyHome, rt.sessionId, { attached: n });
        }
    };
    const sinkFor = (sock: net.Socket): TuiSink => ({
        write: s => (sock.destroyed ? true : sock.write(frame('D', s))),
        waitDrain: () => new Promise(resolve => {
            if (sock.destroyed || !sock.writableNeedDrain) {
                resolve();
                return;
            }
            const done = (): void => {
                sock.off('drain', done);
                sock.off('close', done);
                resolve();
            };
            sock.on('drain', done);
            sock.on('close', done);
        })
    });
    const dropClient = (sock: net.Socket, type: 'K' | 'E', payload = ''): void => {
        if (client === sock) {
            client = undefined;
            tui.setSink(detachedSink);
            setAttached(0);
        }
        if (!sock.destroyed) {
            sock.end(frame(type, payload));
        }
    };
    rt.setTerminalRestore(() => {
        tui.stop();
        if (client) {
            dropClient(client, 'E', JSON.stringify({ code: 0 }));
        }
        server.close();
        rmrf(socketPath);
    });
    tui.setSink(detachedSink);

    const server = net.createServer(sock => {
        let hello = false;
        const reader = new FrameReader((type, payload) => {
            if (type === 'H' && !hello) {
                hello = true;
                if (client && client !== sock) {
                    dropClient(client, 'K');
                }
                client = sock;
                const size = safeJson(payload);
                tui.setSize(size.rows, size.cols);
                tui.setSink(sinkFor(sock));
                setAttached(1);
                // tmux repaints the whole window for a new client
                sock.write(frame('D', '\x1b[?1049h'));
                tui.redraw();
            } else if (type === 'D' && client === sock) {
                tui.feed(payload);
            } else if (type === 'R' && client === sock) {
                const size = safeJson(payload);
                tui.setSize(size.rows, size.cols);
                tui.redraw();
            }
        });
        sock.on('data', d => reader.push(d));
        sock.on('error', () => undefined);
        sock.on('close', () => {
            if (client === sock) {
                client = undefined;
                tui.setSink(detachedSink);
                setAttached(0);
            }
        });
    });
    detachHook.fn = () => {
        if (client) {
            dropClient(client, 'K');
        }
    };
    rmrf(socketPath);
    server.listen(socketPath, () => {
        try {
            fs.chmodSync(socketPath, 0o600);
        } catch {
            // best effort
        }
        tui.start();
        onReady();
    });
}

/** Set by serveDaemonSession; the TUI's onDetach calls it (tmux detach-client). */
export const detachHook: { fn: () => void } = { fn: () => undefined };

function safeJson(b: Buffer): { rows?: number; cols?: number } {
    try {
        return JSON.parse(b.toString('utf8'));
    } catch {
        return {};
    }
}
