import * as fs from 'fs';
import * as path from 'path';
import { SandyError } from '../../common/sandy/errors';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';

/**
 * sandy's sandbox name for a workspace. sandy hashes `pwd -P`, so symlinks are resolved first;
 * `realpath.native` (realpath(3)) also returns the on-disk case on case-insensitive file systems,
 * like `pwd -P` does, where the JS implementation would keep the case as typed.
 */
export function sandboxNameFor(workspace: string): string {
    return sandboxNameForWorkspace(canonicalWorkspace(workspace));
}

/** The workspace lock directory sandy uses (CONTRACT §5.4). */
export function lockDirFor(sandyHome: string, sandboxName: string): string {
    return path.join(sandyHome, 'sandboxes', `.${sandboxName}.lock`);
}

function canonicalWorkspace(workspace: string): string {
    try {
        return fs.realpathSync.native(workspace);
    } catch (e) {
        throw new SandyError('usage', `Workspace ${workspace} cannot be resolved (${(e as NodeJS.ErrnoException).code ?? 'error'}).`,
            'Choose an existing folder as the workspace.');
    }
}

/** Why a lock was kept, removed or not there. */
export type LockSweepReason =
    /** No lock directory for this workspace. */
    | 'no-lock'
    /** Numeric pid and kill(pid, 0) → ESRCH: the holder is gone. */
    | 'stale'
    /** The holder (or a process that reused its pid) exists. */
    | 'alive'
    /** The pid exists but belongs to another user: alive as far as anyone can tell. */
    | 'eperm'
    /** No `pid` file: sandy may be between `mkdir` and `echo $$ > pid` (sandy:7159-7201). */
    | 'pid-missing'
    /** Empty `pid` file: same window, or a crash mid-write — sandy never treats it as stale. */
    | 'pid-empty'
    /** `pid` holds something other than digits — sandy never treats it as stale. */
    | 'pid-not-numeric'
    /** kill(pid, 0) failed for another reason (pid out of range…): not provably dead. */
    | 'unchecked'
    /** The lock path is not a directory; sandy cannot have made it. Left for the user. */
    | 'not-a-directory'
    /** Someone else reaped or re-acquired the lock while we looked. */
    | 'raced';

/** What {@link sweepLocks} found and did. */
export interface LockSweepReport {
    workspace: string;
    sandboxName: string;
    lockDir: string;
    outcome: 'absent' | 'removed' | 'kept';
    reason: LockSweepReason;
    /** Content of `pid` (trailing newlines removed) when the file exists. */
    pid?: string;
}

export interface LockSweepOptions {
    /** Injected for tests (EPERM cannot be produced as root). Defaults to `process.kill`. */
    readonly kill?: (pid: number, signal: 0) => void;
}

/**
 * Removes this workspace's lock when its holder is provably dead — and nothing else: other workspaces'
 * locks are not ours to judge. The test is sandy's own (CONTRACT §5.4, sandy:7171-7199): a numeric pid
 * and `kill -0` failing with ESRCH. A live pid, EPERM, or a missing/empty/garbage pid keeps the lock.
 * Removal is sandy's atomic takeover: rename to `<lock>.reap.<our pid>`, check the pid again, delete.
 */
export async function sweepLocks(sandyHome: string, workspace: string, options: LockSweepOptions = {}): Promise<LockSweepReport> {
    const kill = options.kill ?? ((pid: number, signal: 0) => { process.kill(pid, signal); });
    const canonical = canonicalWorkspace(workspace);
    const sandboxName = sandboxNameForWorkspace(canonical);
    const lockDir = lockDirFor(sandyHome, sandboxName);
    const report = (outcome: LockSweepReport['outcome'], reason: LockSweepReason, pid?: string): LockSweepReport =>
        pid === undefined ? { workspace: canonical, sandboxName, lockDir, outcome, reason } : { workspace: canonical, sandboxName, lockDir, outcome, reason, pid };

    let stat: fs.Stats;
    try {
        stat = await fs.promises.lstat(lockDir);
    } catch {
        return report('absent', 'no-lock');
    }
    if (!stat.isDirectory()) {
        return report('kept', 'not-a-directory');
    }

    const pid = await readPid(lockDir);
    if (pid === undefined) {
        return report('kept', 'pid-missing');
    }
    if (pid === '') {
        return report('kept', 'pid-empty', pid);
    }
    if (!/^[0-9]+$/.test(pid)) {
        return report('kept', 'pid-not-numeric', pid);
    }
    const pidNumber = Number(pid);
    if (!Number.isSafeInteger(pidNumber) || pidNumber > 0x7fffffff) {
        return report('kept', 'unchecked', pid);
    }
    const liveness = probe(kill, pidNumber);
    if (liveness !== 'stale') {
        return report('kept', liveness, pid);
    }

    const reap = `${lockDir}.reap.${process.pid}`;
    try {
        await fs.promises.rename(lockDir, reap);
    } catch {
        return report('absent', 'raced', pid);
    }
    // Between our read and our rename another sandy may have reaped the lock and taken it for itself.
    if (await readPid(reap) !== pid) {
        try {
            await fs.promises.rename(reap, lockDir);
        } catch {
            // The lock path was re-created meanwhile, so the moved directory cannot go back; it holds no
            // live lock any more (the path is what sandy checks), so drop it rather than leave a stray dir.
            await fs.promises.rm(reap, { recursive: true, force: true });
        }
        return report('kept', 'raced', pid);
    }
    await fs.promises.rm(reap, { recursive: true, force: true });
    return report('removed', 'stale', pid);
}

async function readPid(lockDir: string): Promise<string | undefined> {
    try {
        // sandy reads it with $(cat …): trailing newlines go, nothing else is trimmed.
        return (await fs.promises.readFile(path.join(lockDir, 'pid'), 'utf8')).replace(/\n+$/, '');
    } catch {
        return undefined;
    }
}

function probe(kill: (pid: number, signal: 0) => void, pid: number): 'stale' | 'alive' | 'eperm' | 'unchecked' {
    try {
        kill(pid, 0);
        return 'alive';
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return code === 'ESRCH' ? 'stale' : code === 'EPERM' ? 'eperm' : 'unchecked';
    }
}
