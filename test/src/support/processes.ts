/**
 * Processes a test started, found through /proc (Linux): every test tree runs sandy, a backend or
 * VS Code with its own scratch HOME, and uses that HOME to find and clean up what it started —
 * including processes in other sessions, which a process-group kill would miss.
 */
import * as fs from 'fs';
import * as net from 'net';

/** Process state letter from /proc/<pid>/stat (R, S, Z…), undefined when there is no such process. */
export function processState(pid: number): string | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    } catch {
        return undefined;
    }
}

/**
 * True when the process no longer runs. kill(pid, 0) → ESRCH is the clean answer; a zombie also counts:
 * it has exited, and PID 1 in containers (this sandbox included) reaps orphans seconds late.
 */
export function isGone(pid: number): boolean {
    try {
        process.kill(pid, 0);
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ESRCH') {
            return true;
        }
        throw e;
    }
    return processState(pid) === 'Z';
}

/** True if the process was started with this HOME (directly or by a descendant that inherited it). */
export function hasHome(pid: number, home: string): boolean {
    try {
        return ('\0' + fs.readFileSync(`/proc/${pid}/environ`, 'latin1')).includes(`\0HOME=${home}\0`);
    } catch {
        return false;
    }
}

/** Live processes (zombies excluded: they have exited) started with this HOME, other than this one. */
export function processesWithHome(home: string): number[] {
    return fs.readdirSync('/proc')
        .filter(entry => /^[0-9]+$/.test(entry))
        .map(Number)
        .filter(pid => pid !== process.pid && hasHome(pid, home) && !isGone(pid));
}

/** SIGKILL every process started with this HOME (the last sweep of a test's cleanup). */
export function killProcessesWithHome(home: string): void {
    for (const pid of processesWithHome(home)) {
        try {
            process.kill(pid, 'SIGKILL');
        } catch {
            // Already gone.
        }
    }
}

/** A free TCP port on 127.0.0.1 (a server started right after binds it; tests prefer --port 0 where possible). */
export function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.unref();
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const port = (server.address() as net.AddressInfo).port;
            server.close(() => resolve(port));
        });
    });
}
