/*
 * Daemon mode (CONTRACT §6.3): the --start client that forks a supervisor and
 * streams its log, the --attach client (exit 0/3/4), --stop (exit 0/4/5), and
 * the docker-backed maintenance commands (--stop-all, --gc, --prune-orphans).
 * Messages and exit codes are the real ones (fixtures 90-104, 73-75, 99*).
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { dockerMissing, findDaemonSession, getSession, listSessions, removeSession, SessionRecord, sessionLive } from './docker';
import type { MainArgs } from './launch';
import { frame, FrameReader } from './session';
import {
    catFile, envNumber, err, error, exit, info, isBashInt, isTty, mkdirp, out, pidAlive, readTtyLine, rmrf, sleep, sleepSync,
    warn, writeFdSync
} from './util';

/** The maintenance commands' own docker gate (sandy:2355, 2397, 2477). */
function requireDocker(flag: string): void {
    if (dockerMissing()) {
        error(`${flag} requires a reachable Docker daemon.`);
        exit(1);
    }
}

/**
 * The teardown `--stop` performs, without output; returns its exit status.
 * Used where sandy runs `"$0" --stop --workspace WD >/dev/null 2>&1`.
 */
export function stopDaemonQuietly(rec: SessionRecord, sandyHome: string, timeoutS = envNumber('FAKE_SANDY_STOP_TIMEOUT_S', 15)): number {
    if (pidAlive(rec.ownerPid)) {
        try {
            process.kill(rec.ownerPid, 'SIGTERM');
        } catch {
            // raced with its exit
        }
        const deadline = Date.now() + timeoutS * 1000;
        while (Date.now() < deadline) {
            if (!getSession(sandyHome, rec.id)) {
                return 0;
            }
            sleepSync(100);
        }
        return getSession(sandyHome, rec.id) ? 5 : 0;
    }
    directTeardown(rec, sandyHome);
    return 0;
}

/** D9 path: no supervisor to signal, so remove the container and a provably stale lock. */
function directTeardown(rec: SessionRecord, sandyHome: string): void {
    removeSession(sandyHome, rec.id);
    if (rec.socket) {
        rmrf(rec.socket);
    }
    const lock = path.join(sandyHome, 'sandboxes', `.${rec.sandbox}.lock`);
    const pid = catFile(path.join(lock, 'pid')) ?? '';
    if (pid !== '' && isBashInt(pid) && !pidAlive(pid)) {
        rmrf(lock);
    }
}

/** `--stop` (sandy:5461-5540). */
export function stopClient(workDir: string, sandyHome: string): never {
    const rec = findDaemonSession(sandyHome, workDir);
    if (!rec) {
        error(`No daemon session running for ${workDir}.`);
        exit(4);
    }
    const r = rec as SessionRecord;
    const timeoutS = envNumber('FAKE_SANDY_STOP_TIMEOUT_S', 15);
    if (pidAlive(r.ownerPid)) {
        info(`Stopping daemon session (signaling supervisor pid ${r.ownerPid})...`);
        if (stopDaemonQuietly(r, sandyHome, timeoutS) !== 0) {
            error(`Daemon session did not stop within ${timeoutS}s (supervisor pid ${r.ownerPid}).`);
            exit(5);
        }
        info('Daemon session stopped.');
        exit(0);
    }
    info('Stopping daemon session (no live supervisor \u2014 direct teardown)...');
    directTeardown(r, sandyHome);
    info('Daemon session stopped.');
    exit(0);
}

/**
 * `--start` client (sandy:5174-5389): fork the supervisor with
 * SANDY_DAEMON_SUPERVISOR=1, stream its log (colours forced, #51), exit 0 once
 * the session is attachable.
 */
export function startClient(a: MainArgs, workDir: string, sandyHome: string, selfPath: string, headless: boolean): void {
    if (headless) {
        error('--start launches a persistent interactive session; it is incompatible with -p/--print/--prompt (one-shot headless).');
        error('  For a headless run, use bare \'sandy -p ...\' (no --start).');
        exit(1);
    }
    const existing = findDaemonSession(sandyHome, workDir);
    if (existing) {
        if (sessionLive(existing)) {
            info(`Daemon session already running for ${workDir}: ${existing.sandbox} (container ${existing.id.slice(0, 12)})`);
            exit(0);
        }
        warn(`Found a daemon container with no live session for ${workDir} (agent exited; container ${existing.id.slice(0, 12)}) \u2014 reaping it and starting fresh.`);
        stopDaemonQuietly(existing, sandyHome);
    }
    const reexec = ['--start', '--workspace', workDir];
    if (a.rebuild) {
        reexec.push('--rebuild');
    }
    if (a.buildOnly) {
        reexec.push('--build-only');
    }
    if (a.newSession) {
        reexec.push('--new');
    }
    if (a.remote) {
        reexec.push('--remote');
    }
    if (a.agentOverride) {
        reexec.push('--agent', a.agentOverride);
    }
    if (a.verbose >= 1 && a.verbose <= 3) {
        reexec.push(['-v', '-vv', '-vvv'][a.verbose - 1]);
    }
    reexec.push(...a.remaining);

    mkdirp(path.join(sandyHome, 'sandboxes'));
    const log = path.join(sandyHome, 'sandboxes', `.daemon-start-${process.pid}.log`);
    fs.writeFileSync(log, '');

    if (isTty(0) && isTty(2)) {
        // Fix B: grant approvals on the client's terminal before forking the
        // non-TTY supervisor, via an approve-only pass of ourselves.
        spawnSync(process.execPath, [selfPath], {
            cwd: workDir, stdio: 'inherit', env: { ...process.env, SANDY_APPROVE_ONLY: '1' }
        });
    }
    const logFd = fs.openSync(log, 'a');
    const child = spawn(process.execPath, [selfPath, ...reexec], {
        detached: true,
        stdio: ['ignore', logFd, logFd],
        env: { ...process.env, SANDY_DAEMON_SUPERVISOR: '1', SANDY_DAEMON_LOG: log }
    });
    fs.closeSync(logFd);
    let supervisorExited = false;
    child.on('exit', () => {
        supervisorExited = true;
    });
    child.unref();
    const fatalMarker = `${log}.fatal`;
    rmrf(fatalMarker);
    info(`Starting daemon session for ${workDir}...`);

    let offset = 0;
    const pump = (): void => {
        try {
            const data = fs.readFileSync(log);
            if (data.length > offset) {
                writeFdSync(1, data.subarray(offset));
                offset = data.length;
            }
        } catch {
            // log vanished
        }
    };
    const timeoutS = envNumber('FAKE_SANDY_START_TIMEOUT_S', 600);
    const started = Date.now();
    const tick = (): void => {
        pump();
        const rec = findDaemonSession(sandyHome, workDir);
        if (rec && sessionLive(rec)) {
            pump();
            info(`Daemon session ready: ${rec.sandbox} (container ${rec.id.slice(0, 12)})`);
            rmrf(log);
            process.exit(0);
        }
        const fatal = fs.existsSync(fatalMarker);
        // Deviation: the real client only notices a supervisor that died without a
        // container after its 600 s timeout; the fake reports it at once.
        if (fatal || (supervisorExited && !rec) || Date.now() - started > timeoutS * 1000) {
            pump();
            rmrf(fatalMarker);
            if (fatal || supervisorExited) {
                error('Daemon startup was refused before it could launch (see the guidance above).');
            } else {
                error(`Daemon session failed to become attachable within ${timeoutS}s.`);
            }
            error(`Supervisor log tail (${log}):`);
            try {
                const lines = fs.readFileSync(log, 'utf8').split('\n');
                if (lines[lines.length - 1] === '') {
                    lines.pop();
                }
                err(lines.slice(-20).map(l => l + '\n').join(''));
            } catch {
                // no log
            }
            if (rec) {
                error('Tearing down the failed session...');
                stopDaemonQuietly(rec, sandyHome, 0);
            }
            process.exit(1);
        }
        setTimeout(tick, 100);
    };
    setTimeout(tick, 50);
}

/**
 * `--attach` (sandy:5401-5454). The fake's tmux client is a unix-socket
 * connection to the supervisor; the exit code is decided afterwards from the
 * session's state, like DEC-C: 3 = detached with the session alive, 0 = the
 * session ended, 4 = none. Being killed by a signal gives no verdict.
 */
export function attachClient(workDir: string, sandyHome: string, verbose: number): void {
    const found = findDaemonSession(sandyHome, workDir);
    if (!found) {
        error(`No daemon session running for ${workDir}.`);
        error('  Start one with \'sandy --start\'.');
        exit(4);
    }
    const rec = found as SessionRecord;
    const stdin = process.stdin;
    const stdout = process.stdout;
    const raw = stdin.isTTY === true;
    let decided = false;
    let enteredScreen = false;

    const restore = (): void => {
        if (raw && stdin.isTTY) {
            stdin.setRawMode(false);
        }
        stdin.pause();
        if (enteredScreen) {
            writeFdSync(1, '\x1b[0m\x1b[?25h\x1b[?1049l');
        }
    };
    const verdict = async (detached: boolean, rc: number): Promise<void> => {
        if (decided) {
            return;
        }
        decided = true;
        restore();
        if (detached) {
            // what tmux prints on detach; a cooked terminal adds the \r itself
            writeFdSync(1, `[detached (from session sandy)]${isTty(1) ? '\n' : '\r\n'}`);
        }
        if (verbose >= 2) {
            info(`  (tmux attach exited rc=${rc})`);
        }
        const probe = (): SessionRecord | undefined => getSession(sandyHome, rec.id);
        let r = probe();
        if (r && sessionLive(r)) {
            process.exit(3);
        }
        if (!r) {
            process.exit(0);
        }
        await sleep(1000);
        r = probe();
        if (r && sessionLive(r)) {
            process.exit(3);
        }
        info('Session ended (agent exited); the daemon is shutting down.');
        process.exit(0);
    };

    if (!rec.socket || !sessionLive(rec)) {
        // `docker exec ... tmux attach` fails: no tmux session in the container
        void verdict(false, 1);
        return;
    }
    const sock = net.connect(rec.socket);
    sock.on('error', () => void verdict(false, 1));
    sock.on('close', () => void verdict(false, 1));
    const reader = new FrameReader((type, payload) => {
        if (type === 'D') {
            enteredScreen = true;
            // the session renders \r\n; a terminal's ONLCR would double the \r
            stdout.write(stdout.isTTY ? payload.toString('utf8').replace(/\r\n/g, '\n') : payload);
        } else if (type === 'K') {
            void verdict(true, 0);
        } else if (type === 'E') {
            void verdict(false, 1);
        }
    });
    sock.on('data', d => reader.push(d));
    sock.on('connect', () => {
        if (raw) {
            stdin.setRawMode(true);
        }
        sock.write(frame('H', JSON.stringify({ rows: stdout.rows ?? 24, cols: stdout.columns ?? 80 })));
        stdin.on('data', d => {
            if (!sock.destroyed) {
                sock.write(frame('D', d));
            }
        });
        stdin.on('error', () => undefined);
        stdin.resume();
        if (stdout.isTTY) {
            stdout.on('resize', () => {
                if (!sock.destroyed) {
                    sock.write(frame('R', JSON.stringify({ rows: stdout.rows, cols: stdout.columns })));
                }
            });
        }
    });
}

function confirm(question: string): boolean {
    err(question);
    return /^(y|Y|yes|YES|Yes)$/.test(readTtyLine());
}

/** The `[--dry-run] [--yes]` sub-options of `--stop-all` and `--gc`; anything else is refused (exit 1). */
function dryRunYes(command: string, args: string[]): { dryRun: boolean; yes: boolean } {
    let dryRun = false;
    let yes = false;
    for (const a of args) {
        if (a === '--dry-run') {
            dryRun = true;
        } else if (a === '--yes') {
            yes = true;
        } else {
            error(`${command}: unrecognized argument: ${a}`);
            exit(1);
        }
    }
    return { dryRun, yes };
}

/** `--stop-all [--dry-run] [--yes]` (sandy:2385-2442). */
export function stopAll(args: string[], sandyHome: string): never {
    const { dryRun, yes } = dryRunYes('--stop-all', args);
    requireDocker('--stop-all');
    const sessions = listSessions(sandyHome).filter(r => r.daemon);
    if (sessions.length === 0) {
        info('No daemon sessions to stop.');
        exit(0);
    }
    out(`\nsandy --stop-all: ${sessions.length} daemon session(s)\n`);
    for (const s of sessions) {
        out(`  - ${s.sandbox.padEnd(30)} ${s.workspace}\n`);
    }
    out('\n');
    if (dryRun) {
        info('--dry-run: nothing stopped.');
        exit(0);
    }
    if (!yes) {
        if (!isTty(0)) {
            error('Non-interactive; pass --yes to stop all sessions.');
            exit(1);
        }
        if (!confirm(`[sandy] Stop all ${sessions.length} daemon session(s)? [y/N] `)) {
            info('Aborted \u2014 nothing stopped.');
            exit(0);
        }
    }
    let stopped = 0;
    let failed = 0;
    for (const s of sessions) {
        info(`Stopping ${s.sandbox} (${s.workspace})...`);
        if (stopDaemonQuietly(s, sandyHome) === 0) {
            stopped++;
        } else {
            warn(`  failed to stop ${s.sandbox}`);
            failed++;
        }
    }
    info(`Stopped ${stopped} session(s), ${failed} failure(s).`);
    exit(failed > 0 ? 1 : 0);
}

/** `--gc [--dry-run] [--yes]`: the only reclaimable thing the fake has is a dead-owner daemon container. */
export function gc(args: string[], sandyHome: string): never {
    const { dryRun, yes } = dryRunYes('--gc', args);
    requireDocker('--gc');
    const dead = listSessions(sandyHome).filter(r => r.daemon && !pidAlive(r.ownerPid));
    out('\nsandy --gc: reclaim plan\n');
    if (dead.length > 0) {
        out(`Would remove ${dead.length} dead-owner container(s):\n`);
        for (const d of dead) {
            out(`  - sandy-${d.sandbox}\n`);
        }
    }
    out('\n');
    if (dead.length === 0) {
        info('Nothing to reclaim.');
        exit(0);
    }
    if (dryRun) {
        info('--dry-run: no resources removed.');
        exit(0);
    }
    if (!yes) {
        if (!isTty(0)) {
            error('Non-interactive; pass --yes to reclaim without a prompt.');
            exit(1);
        }
        if (!confirm(`[sandy] Reclaim ${dead.length} resource(s)? [y/N] `)) {
            info('Aborted \u2014 nothing removed.');
            exit(0);
        }
    }
    for (const d of dead) {
        removeSession(sandyHome, d.id);
    }
    info(`Reclaimed: ${dead.length} container(s), 0 network(s), 0 project image(s), 0 skills image(s), 0 dangling image(s).`);
    exit(0);
}

/** `--prune-orphans`: the fake never leaks networks. */
export function pruneOrphans(): never {
    requireDocker('--prune-orphans');
    out('No orphaned sandy networks found.\n');
    exit(0);
}
