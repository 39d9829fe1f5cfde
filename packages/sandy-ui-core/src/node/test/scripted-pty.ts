import type { PtyLike } from '../terminal/hosted-session';

/**
 * A PTY whose output and exit a spec drives by hand, recording what was typed into it and how it
 * was ended: the supervisor's specs and attack specs run sandy's processes as these.
 */
export class ScriptedPty implements PtyLike {
    static nextPid = 5000;
    readonly pid = ScriptedPty.nextPid++;
    readonly written: string[] = [];
    killed: string | undefined;
    protected dataListeners: Array<(d: string) => void> = [];
    protected exitListeners: Array<(e: { exitCode: number; signal?: number }) => void> = [];

    constructor(readonly file = '', readonly args: string[] = [], readonly cwd = '') { }

    onData(l: (d: string) => void) {
        this.dataListeners.push(l);
        return { dispose: () => { this.dataListeners = this.dataListeners.filter(x => x !== l); } };
    }
    onExit(l: (e: { exitCode: number; signal?: number }) => void) {
        this.exitListeners.push(l);
        return { dispose: () => { this.exitListeners = this.exitListeners.filter(x => x !== l); } };
    }
    /** The process writes this to its terminal. */
    emit(d: string): void {
        this.dataListeners.forEach(l => l(d));
    }
    /** The process ends (as node-pty reports it). */
    exit(code: number, signal?: number): void {
        this.exitListeners.forEach(l => l({ exitCode: code, signal }));
    }
    write(d: string): void {
        this.written.push(d);
    }
    resize(): void { /* the size is the supervisor's business here */ }
    pause(): void { /* no flow control in these specs */ }
    resume(): void { /* no flow control in these specs */ }
    kill(signal?: string): void {
        this.killed = signal ?? 'SIGHUP';
    }
}
