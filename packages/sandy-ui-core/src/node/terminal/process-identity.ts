import { execFileSync } from 'child_process';
import * as fs from 'fs';

/**
 * Whether `pid` runs sandy now. A lock file's pid is only a number: by the time the user clicks
 * Stop on an orphaned sandy it may belong to another program, whose process group must never get
 * our signals. Linux reads `/proc/<pid>/cmdline`; elsewhere `ps -o args=`. Unknown counts as no.
 */
export function isSandyProcess(pid: number): boolean {
    if (!Number.isInteger(pid) || pid <= 1) {
        return false;
    }
    let argv: string[] | undefined;
    try {
        argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
        try {
            argv = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] })
                .trim().split(/\s+/);
        } catch {
            return false;
        }
    }
    // sandy is a bash script (`bash /path/sandy …`): its first two words name it. The project's fake
    // sandy, which the tests run in its place, is `node …/fake-sandy/main.js`.
    return argv.slice(0, 2).some(arg => /(^|\/)sandy$/.test(arg) || /\/fake-sandy\/main\.js$/.test(arg));
}

/**
 * When `pid` started, as the kernel says (Linux: `/proc/<pid>/stat` field 22, clock ticks since
 * boot; elsewhere `ps -o lstart=`): with the pid it names one process for good, so a pid recorded
 * at launch that was reused since is never taken for the sandy we launched. Undefined when unknown.
 */
export function processStartTime(pid: number): string | undefined {
    if (!Number.isInteger(pid) || pid <= 1) {
        return undefined;
    }
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return fields[19] ? `proc:${fields[19]}` : undefined;
    } catch {
        try {
            const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
            return out ? `ps:${out}` : undefined;
        } catch {
            return undefined;
        }
    }
}

/** The very process that was recorded (same pid, same start) and it still runs sandy. */
export function isRecordedSandy(pid: number, start: string | undefined): boolean {
    return start !== undefined && processStartTime(pid) === start && isSandyProcess(pid);
}
