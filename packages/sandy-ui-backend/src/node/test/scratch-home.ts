import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expect } from 'chai';
import { lockDirFor, sandboxNameFor } from '@sandy-ui/core/node';
import type { PtySpawn, SessionAttachment, SignalSender } from '@sandy-ui/core/node';
import { signalProcessGroup } from '@sandy-ui/core/node';
import { nodePtySpawn } from '../node-pty-spawn';
import { readSessionRecords, SessionRecord } from '@sandy-ui/test/lib/fake-sandy/docker';
import { processGroupOf } from '@sandy-ui/test/lib/support/proc-stat';
import { isGone, processesWithHome, processState } from '@sandy-ui/test/lib/support/processes';

export { isGone, processGroupOf, processState };

/** Repository root, from `packages/sandy-ui-backend/lib/node/test`. */
export const REPO_ROOT = path.resolve(__dirname, '../../../../..');
/** The fake sandy's launcher (test/fake-sandy/README.md). */
export const FAKE_SANDY = path.join(REPO_ROOT, 'test', 'fake-sandy', 'bin', 'sandy');
export const FAKE_SANDY_BIN = path.dirname(FAKE_SANDY);

/** The launcher execs the compiled fake; without it every test here would fail with a confusing "node: cannot find module". */
export function requireCompiledFake(): void {
    const main = path.join(REPO_ROOT, 'test', 'lib', 'fake-sandy', 'main.js');
    if (!fs.existsSync(main)) {
        throw new Error(`The fake sandy is not compiled (${main} is missing). Run \`npx tsc -b test\` first.`);
    }
}

/**
 * A throw-away `$HOME` with a workspace inside it. Every process a test starts gets this HOME, so
 * "which processes are still ours" is answered by their environment, without guessing by name
 * (another engineer's fake sandy may be running on the same machine).
 */
export class ScratchHome {
    readonly home: string;
    readonly workspace: string;
    readonly tmp: string;

    constructor(prefix = 'sandy-slow-') {
        this.home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
        this.workspace = this.folder('ws');
        // sandy writes its secrets env file to $TMPDIR; a SIGKILLed session leaves it behind (CONTRACT §6.5).
        this.tmp = this.folder('tmp');
    }

    get sandyHome(): string {
        return path.join(this.home, '.sandy');
    }

    folder(name: string): string {
        const dir = path.join(this.home, name);
        fs.mkdirSync(dir, { recursive: true });
        return dir;
    }

    /** `$HOME/.sandy/sandboxes/.<name>.lock` for a workspace, named as sandy names it (CONTRACT §5.1, §5.4). */
    lockDir(workspace = this.workspace): string {
        return lockDirFor(this.sandyHome, sandboxNameFor(workspace));
    }

    lockPid(workspace = this.workspace): string | undefined {
        try {
            return fs.readFileSync(path.join(this.lockDir(workspace), 'pid'), 'utf8').trim();
        } catch {
            return undefined;
        }
    }

    /**
     * The fake sandy's Docker engine: one record per container it "runs" (test/fake-sandy/README.md),
     * `$SANDY_HOME/.fake-docker/sessions/<id>.json`. A daemon record's `ownerPid` is its supervisor,
     * the process that holds the workspace lock.
     */
    fakeContainers(): FakeContainer[] {
        return readSessionRecords(this.sandyHome);
    }

    /** A minimal environment for a PTY launched directly through the supervisor. */
    env(extra: Record<string, string> = {}): Record<string, string> {
        return { HOME: this.home, PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: this.tmp, LANG: 'C.UTF-8', TERM: 'xterm-256color', ...extra };
    }

    /** Live processes (zombies excluded: their environment is gone) started with this HOME. */
    processes(): number[] {
        return processesWithHome(this.home);
    }

    /**
     * Asserts nothing started with this HOME is still running. Waits a little first: the backend's
     * `--print-state` poll after a launch or stop is a short-lived process nobody awaits.
     */
    async expectNoLeftovers(timeoutMs = 5000): Promise<void> {
        const deadline = Date.now() + timeoutMs;
        let left = this.processes();
        while (left.length && Date.now() < deadline) {
            await sleep(50);
            left = this.processes();
        }
        expect(left.map(describeProcess), 'processes still running with the scratch HOME').to.deep.equal([]);
    }

    /**
     * {@link dispose}, then again until nothing comes back for `quietMs`: a disposed service's last
     * `--print-state` (one a stop queued) may only start after the tree is gone, and would recreate
     * `$HOME/.sandy` in it.
     */
    async disposeWhenQuiet(quietMs = 300, maxMs = 5000): Promise<void> {
        const deadline = Date.now() + maxMs;
        do {
            this.dispose();
            await sleep(quietMs);
        } while ((this.processes().length > 0 || fs.existsSync(this.home)) && Date.now() < deadline);
        this.dispose();
    }

    /** Kills whatever a failed test left behind (each pid's group first), then removes the scratch tree. */
    dispose(): void {
        for (const pid of this.processes()) {
            for (const target of [-pid, pid]) {
                try {
                    process.kill(target, 'SIGKILL');
                } catch {
                    // not a group leader, or gone
                }
            }
        }
        fs.rmSync(this.home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
}

/** The fake's container record (test/src/fake-sandy/docker.ts): `ownerPid` is sandy's pid for a bare launch, the daemon supervisor's for a daemon session. */
export type FakeContainer = SessionRecord;

/** A process's argv, [] when it is gone. */
export function commandLineOf(pid: number): string[] {
    try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
        return [];
    }
}

/** A process's environment as /proc shows it (what it was started with), undefined when it is gone. */
export function environmentOf(pid: number): Map<string, string> | undefined {
    try {
        return new Map(fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').filter(Boolean)
            .map(kv => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as [string, string]));
    } catch {
        return undefined;
    }
}

/** `ps`-like one-liner for assertion messages. */
export function describeProcess(pid: number): string {
    try {
        return `${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
    } catch {
        return `${pid} (gone)`;
    }
}

/** Children of a process (by their /proc PPid), e.g. the fake's deferred-trap `sleep`. */
export function childrenOf(pid: number): number[] {
    const children: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
        if (!/^[0-9]+$/.test(entry)) {
            continue;
        }
        try {
            const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
            if (new RegExp(`^PPid:\\s+${pid}$`, 'm').test(status)) {
                children.push(Number(entry));
            }
        } catch {
            // exited while we looked
        }
    }
    return children;
}

export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
}

/** Polls until `condition` holds; the message says what never happened. */
export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string | (() => string)): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
        }
        await sleep(20);
    }
}

/** CSI / OSC / other escape sequences out, so assertions read the text a user sees. */
export function stripAnsi(s: string): string {
    return s
        .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
        .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
        .replace(/\x1b[@-_]/g, '');
}

/**
 * Everything an attachment received (its replay first), optionally acknowledging each chunk as a view
 * that keeps up would. `chars` counts only live output, which is what flow control counts.
 */
export class OutputRecorder {
    text: string;
    chars = 0;
    lastDataAt = Date.now();
    autoAcknowledge: boolean;

    constructor(readonly attachment: SessionAttachment, options: { acknowledge: boolean } = { acknowledge: true }) {
        this.text = attachment.replay;
        this.autoAcknowledge = options.acknowledge;
        attachment.onData(data => {
            this.text += data;
            this.chars += data.length;
            this.lastDataAt = Date.now();
            if (this.autoAcknowledge) {
                attachment.acknowledge(data.length);
            }
        });
    }

    has(needle: string | RegExp): boolean {
        return typeof needle === 'string' ? this.text.includes(needle) : needle.test(this.text);
    }

    async waitFor(needle: string | RegExp, timeoutMs = 15_000): Promise<void> {
        await waitUntil(() => this.has(needle), timeoutMs, () => `${needle} in the terminal output; its tail was:\n${stripAnsi(this.text.slice(-1500))}`);
    }

    /** Types a line as a user would (the fake's TUI runs it on Enter). */
    type(line: string): void {
        this.attachment.write(line + '\r');
    }

    /**
     * The fake's TUI leaves the alternate screen, so what it prints next scrolls into the normal screen's
     * scrollback: every byte of it reaches the view, and a view that stops acknowledging pauses the
     * session (on the alternate screen a view is caught up by frames instead: screen-frame.ts).
     */
    async leaveAlternateScreen(): Promise<void> {
        this.type('raw \\e[?1049l');
        await waitUntil(() => this.has('\x1b[?1049l'), 15_000, 'the fake to leave the alternate screen');
        await new Promise(resolve => setTimeout(resolve, 200)); // the backend's copy of the screen parses it
    }
}

/** The fake prints `text` on its own line; the typed command echoes it after `echo `, so anchor on the line start. */
export function outputLine(text: string): RegExp {
    return new RegExp(`(^|\\n)${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\r\\n`);
}

export interface SentSignal {
    signal: NodeJS.Signals;
    at: number;
}

/** The supervisor's real group signaller, recording what it sent and when. */
export function recordingSignals(sent: SentSignal[], deliver: SignalSender = signalProcessGroup): SignalSender {
    return (pid, signal) => {
        sent.push({ signal, at: Date.now() });
        deliver(pid, signal);
    };
}

export interface FlowCall {
    op: 'pause' | 'resume';
    at: number;
    /** What `behind()` said at the call (a view's unacknowledged characters): which cause a pause was. */
    behind?: number;
}

/** node-pty, with every pause()/resume() the supervisor asks for recorded. */
export function spyingSpawn(calls: FlowCall[], behind?: () => number): PtySpawn {
    return (file, args, options) => {
        const pty = nodePtySpawn(file, args, options);
        return {
            ...pty,
            pause: () => {
                calls.push({ op: 'pause', at: Date.now(), behind: behind?.() });
                pty.pause();
            },
            resume: () => {
                calls.push({ op: 'resume', at: Date.now(), behind: behind?.() });
                pty.resume();
            }
        };
    };
}
