/**
 * One `sandy …` a test runs in a terminal of its own (a PTY, not the IDE's), for every test tree that
 * plays "the user started sandy from a shell": the Theia e2e harness and the plugin's World.
 */
import type * as pty from 'node-pty';

/** A sandy run in a terminal of the test's own: its output, its exit. */
export class ShellSandy {
    protected text = '';
    protected exitInfo: { code: number; signal?: number } | undefined;
    readonly exited: Promise<{ code: number; signal?: number }>;

    constructor(protected readonly term: pty.IPty, readonly args: string[]) {
        term.onData(data => this.text += data);
        this.exited = new Promise(resolve => term.onExit(({ exitCode, signal }) => {
            this.exitInfo = { code: exitCode, signal };
            resolve(this.exitInfo);
        }));
    }

    get pid(): number {
        return this.term.pid;
    }

    /** Everything the terminal received, escape sequences and all. */
    get output(): string {
        return this.text;
    }

    /** How it ended; undefined while it runs. */
    get exit(): { code: number; signal?: number } | undefined {
        return this.exitInfo;
    }

    write(data: string): void {
        this.term.write(data);
    }

    kill(): void {
        if (!this.exitInfo) {
            try {
                this.term.kill('SIGKILL');
            } catch {
                // Gone meanwhile.
            }
        }
    }
}
