import * as fs from 'fs';
import * as path from 'path';

/**
 * One launch at a time through sandy's build step. sandy rewrites its build files in `SANDY_HOME`
 * (`Dockerfile.new` → `Dockerfile`) and builds its images on every launch; two launches at once race
 * on those files (`mv: cannot stat ~/.sandy/Dockerfile.new`) and one fails. Launches therefore enter
 * this gate in order and leave it once sandy is past the build (or ended), so ten quick clicks give
 * ten sessions, one after another.
 *
 * Within a process the order is a queue. Across processes that run sandy with the same
 * `SANDY_HOME` (several VS Code windows, each with its own extension host; the Theia IDE beside
 * them) a lock directory holds the turn: `mkdir` is atomic, the holder's pid is written inside, and
 * a lock whose holder is dead is taken over. Never held longer than sandy's own 600 s start limit.
 */
export class BuildGate {
    protected tail: Promise<void> = Promise.resolve();
    protected busy = 0;

    /** `lockDir`: the cross-process lock (absent: this process only). */
    constructor(protected readonly lockDir?: string, protected readonly options: { pollMs?: number; maxHoldMs?: number } = {}) { }

    /**
     * A turn: `now` when nobody here is ahead and the cross-process lock was free (spawn at once),
     * else `ready` resolves when it is this one's. `release` exactly once (more calls do nothing).
     */
    enter(): { now: boolean; ready: Promise<void>; release: () => void } {
        const first = this.busy === 0;
        this.busy++;
        let held = false;
        let released = false;
        let resolveDone!: () => void;
        const done = new Promise<void>(resolve => resolveDone = resolve);
        const release = () => {
            if (!released) {
                released = true;
                this.busy--;
                if (held) {
                    this.unlock();
                }
                resolveDone();
            }
        };
        const now = first && (held = this.tryLock());
        const ready = now ? Promise.resolve() : this.tail.then(() => this.waitForLock()).then(ok => {
            held = ok;
        });
        this.tail = ready.then(() => done);
        return { now, ready, release };
    }

    protected tryLock(): boolean {
        if (!this.lockDir) {
            return true;
        }
        try {
            fs.mkdirSync(path.dirname(this.lockDir), { recursive: true, mode: 0o700 });
            fs.mkdirSync(this.lockDir, { mode: 0o700 });
            fs.writeFileSync(path.join(this.lockDir, 'pid'), `${process.pid}\n`);
            return true;
        } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
                // No place for a lock (read-only home): this process's queue still orders its own launches.
                return true;
            }
        }
        if (this.holderDead()) {
            fs.rmSync(this.lockDir, { recursive: true, force: true });
            return this.tryLock();
        }
        return false;
    }

    /** The lock, once its holder releases it (or died, or held it past sandy's own limit). */
    protected async waitForLock(): Promise<boolean> {
        const deadline = Date.now() + (this.options.maxHoldMs ?? 600_000);
        while (!this.tryLock()) {
            if (Date.now() > deadline) {
                // Held longer than any sandy start may take: launch rather than wait for ever.
                return false;
            }
            await new Promise(resolve => setTimeout(resolve, this.options.pollMs ?? 250));
        }
        return true;
    }

    protected holderDead(): boolean {
        let pid: number;
        try {
            pid = Number(fs.readFileSync(path.join(this.lockDir!, 'pid'), 'utf8').trim());
        } catch {
            // A lock directory without its pid yet (being created) or unreadable: alive, unless it is old.
            try {
                return Date.now() - fs.statSync(this.lockDir!).mtimeMs > 10_000;
            } catch {
                return true;
            }
        }
        if (!Number.isSafeInteger(pid) || pid <= 0) {
            return true;
        }
        try {
            process.kill(pid, 0);
            return false;
        } catch (e) {
            return (e as NodeJS.ErrnoException).code === 'ESRCH';
        }
    }

    protected unlock(): void {
        try {
            if (fs.readFileSync(path.join(this.lockDir!, 'pid'), 'utf8').trim() === String(process.pid)) {
                fs.rmSync(this.lockDir!, { recursive: true, force: true });
            }
        } catch {
            // Already gone (taken over after a hold past the limit).
        }
    }
}
