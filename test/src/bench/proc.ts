import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

let clockTicks: number | undefined;

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on Linux almost everywhere). */
export function clkTck(): number {
    if (clockTicks === undefined) {
        try {
            clockTicks = parseInt(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim(), 10) || 100;
        } catch {
            clockTicks = 100;
        }
    }
    return clockTicks;
}

export interface CpuTimes {
    /** utime + stime of the process itself, in ms. */
    selfMs: number;
    /** cutime + cstime: CPU of children it has waited for, in ms. */
    childrenMs: number;
}

/** A process's CPU, or with `thread` one of its threads' (its main thread's id is the pid). */
export function cpuTimes(pid: number, thread?: number): CpuTimes {
    const stat = fs.readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // The command name (field 2) may contain spaces or parentheses: split after its closing paren.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime is field 14 -> index 11.
    const tick = 1000 / clkTck();
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map(i => parseInt(fields[i], 10));
    return { selfMs: (utime + stime) * tick, childrenMs: (cutime + cstime) * tick };
}

export function processGroup(pid: number): number | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return parseInt(fields[2], 10);
    } catch {
        return undefined;
    }
}

export function isAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
}

/** Our processes whose working directory lies under `root` (sessions, shells the app started there). */
export function processesUnder(root: string): number[] {
    const found: number[] = [];
    const uid = process.getuid?.();
    for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) {
            continue;
        }
        const pid = Number(entry);
        if (pid === process.pid) {
            continue;
        }
        try {
            if (uid !== undefined && fs.statSync(`/proc/${pid}`).uid !== uid) {
                continue;
            }
            const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
            if (cwd === root || cwd.startsWith(root + path.sep)) {
                found.push(pid);
            }
        } catch {
            // Gone meanwhile, or not ours to look at.
        }
    }
    return found;
}

/** Signal a process group, falling back to the process; never throws. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
    try {
        process.kill(-pid, signal);
        return;
    } catch {
        // Not a group leader, or gone.
    }
    try {
        process.kill(pid, signal);
    } catch {
        // Gone.
    }
}

/** Kill each process under `root` together with its process group (PTY sessions lead their own group). */
export function killProcessesUnder(root: string): number[] {
    const pids = processesUnder(root);
    for (const pid of pids) {
        const pgid = processGroup(pid);
        // Only kill a whole group led by a process that is itself under the scratch root.
        if (pgid !== undefined && pgid !== process.pid && pids.includes(pgid)) {
            killGroup(pgid, 'SIGKILL');
        }
        try {
            process.kill(pid, 'SIGKILL');
        } catch {
            // Gone.
        }
    }
    return pids;
}

/** Parent pid of a process (undefined when it is gone). */
export function parentPid(pid: number): number | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1], 10);
    } catch {
        return undefined;
    }
}

/** Every live descendant of `root` (children, their children, …). */
export function descendants(root: number): number[] {
    const children = new Map<number, number[]>();
    for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) {
            continue;
        }
        const pid = Number(entry);
        const ppid = parentPid(pid);
        if (ppid !== undefined) {
            children.set(ppid, [...(children.get(ppid) ?? []), pid]);
        }
    }
    const found: number[] = [];
    const todo = [...(children.get(root) ?? [])];
    while (todo.length) {
        const pid = todo.pop()!;
        found.push(pid);
        todo.push(...(children.get(pid) ?? []));
    }
    return found;
}

/** utime+stime+cutime+cstime of each process that still runs, in ms (reaped children count with their parent). */
export function cpuOf(pids: number[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const pid of pids) {
        try {
            const t = cpuTimes(pid);
            out.set(pid, t.selfMs + t.childrenMs);
        } catch {
            // Exited meanwhile.
        }
    }
    return out;
}

/**
 * CPU used between two snapshots by a set of processes: processes in both count their difference,
 * processes that appeared count all of theirs, processes that ended in between are lost (unless
 * their parent reaped them and is in the set).
 */
export function cpuDeltaMs(before: Map<number, number>, after: Map<number, number>): number {
    let total = 0;
    for (const [pid, ms] of after) {
        total += ms - (before.get(pid) ?? 0);
    }
    return total;
}

/** The whole machine's CPU so far (/proc/stat's first line), in ms: busy (user, nice, system, irq, softirq, steal) and idle (idle, iowait). */
export function machineCpu(): { busyMs: number; idleMs: number } {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    const tick = 1000 / clkTck();
    return { busyMs: (user + nice + system + irq + softirq + (steal || 0)) * tick, idleMs: (idle + iowait) * tick };
}
