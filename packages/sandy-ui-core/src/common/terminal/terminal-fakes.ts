import type { SessionInfo } from '../session/session-types';
import type { ApprovalRequest } from '../approvals/approval-model';
import type { LaunchOutcome, LaunchRequest } from '../service/service-protocol';
import type { LaunchClearance } from '../session/launch-flow';
import type { SessionStream, SessionStreamSink, TerminalSessionDeps, TerminalSize, TerminalSurface } from './terminal-session';

/** Fake ports for the terminal controllers' specs (terminal-session.spec.ts, terminal-tabs.spec.ts). */

export function sessionInfo(id: string, workspace = '/home/u/proj', more: Partial<SessionInfo> = {}): SessionInfo {
    return { id, pid: 100 + id.length, mode: 'foreground', origin: 'ide', workspace, args: [], startedAt: 0, status: 'running', attachedViews: 0, ...more };
}

/** A tab's view that records what the controller made it do. */
export class FakeSurface implements TerminalSurface {
    readonly log: string[] = [];
    size: TerminalSize | undefined = { cols: 120, rows: 40 };
    hasFocus = true;
    label = '';
    caption = '';

    measure(): TerminalSize | undefined {
        return this.size;
    }
    focused(): boolean {
        return this.hasFocus;
    }
    setTitle(label: string, caption: string): void {
        this.label = label;
        this.caption = caption;
    }
    clear(): void {
        this.log.push('clear');
    }
    replay(data: string): void {
        this.log.push(`replay ${data}`);
    }
    write(data: string): void {
        this.log.push(`write ${data}`);
    }
    exitBanner(text: string): void {
        this.log.push(`exit-line ${text}`);
    }
    banner(text: string | undefined, action?: string): void {
        this.log.push(text === undefined ? 'banner hidden' : `banner ${text}${action ? ` [${action}]` : ''}`);
    }
    /** What the host does when the tab closes (both hosts dispose the controller). */
    onClose: () => void = () => undefined;
    close(): void {
        this.log.push('close');
        this.onClose();
    }
}

export interface FakeStream extends SessionStream {
    sessionId: string;
    sink: SessionStreamSink;
    written: string[];
    acked: number[];
    disposed: boolean;
}

/** The service, the streams and the host messages a controller talks to, recording every call. */
export class FakeWorld {
    readonly surface = new FakeSurface();
    readonly streams: FakeStream[] = [];
    readonly launches: LaunchRequest[] = [];
    /** What the next launches answer (a function may throw); default: a new running session. */
    outcomes: Array<LaunchOutcome | (() => Promise<LaunchOutcome>)> = [];
    running: SessionInfo[] = [];
    readonly resized: string[] = [];
    readonly forgotten: string[] = [];
    readonly stopped: string[] = [];
    readonly takenBack: string[] = [];
    readonly warnings: string[] = [];
    readonly errors: string[] = [];
    readonly infos: Array<{ message: string; actions: string[] }> = [];
    infoAnswer: string | undefined;
    readonly clears: ApprovalRequest[] = [];
    /** What re-approval answers, in turn (undefined: the user did not approve). */
    clearances: Array<LaunchClearance | undefined> = [];
    protected next = 0;

    /** The service as both controllers see it. */
    readonly service = {
        launch: async (request: LaunchRequest): Promise<LaunchOutcome> => {
            this.launches.push(request);
            const outcome = this.outcomes.shift();
            if (typeof outcome === 'function') {
                return outcome();
            }
            if (outcome) {
                return outcome;
            }
            const session = sessionInfo(`s${++this.next}`, request.workspace);
            this.running.push(session);
            return { kind: 'launched', session, warnings: [] };
        },
        sessions: async (): Promise<SessionInfo[]> => this.running.map(s => ({ ...s })),
        resize: async (id: string, cols: number, rows: number): Promise<void> => { this.resized.push(`${id} ${cols}x${rows}`); },
        forgetSession: async (id: string): Promise<void> => { this.forgotten.push(id); },
        takeBack: async (id: string): Promise<SessionInfo | undefined> => {
            this.takenBack.push(id);
            const session = this.running.find(s => s.id === id);
            return session && { ...session, link: 'attached' };
        },
        stop: async (id: string): Promise<SessionInfo | undefined> => {
            this.stopped.push(id);
            const session = this.running.find(s => s.id === id);
            return session && { ...session, status: 'exited' };
        }
    };

    /** The host's messages. */
    readonly ui = {
        info: async (message: string, ...actions: string[]): Promise<string | undefined> => {
            this.infos.push({ message, actions });
            return this.infoAnswer;
        },
        warn: async (message: string): Promise<string | undefined> => { this.warnings.push(message); return undefined; },
        error: async (message: string): Promise<string | undefined> => { this.errors.push(message); return undefined; }
    };

    deps(surface: TerminalSurface = this.surface): TerminalSessionDeps {
        return {
            surface,
            service: this.service,
            ui: this.ui,
            clear: async (_workspace, request) => {
                this.clears.push(request);
                return this.clearances.shift();
            },
            streams: {
                connect: (sessionId, sink) => {
                    const stream: FakeStream = {
                        sessionId, sink, written: [], acked: [], disposed: false,
                        write: data => stream.written.push(data),
                        acknowledge: chars => stream.acked.push(chars),
                        dispose: () => { stream.disposed = true; }
                    };
                    this.streams.push(stream);
                    return stream;
                }
            }
        };
    }

    get stream(): FakeStream | undefined {
        return this.streams[this.streams.length - 1];
    }
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
    for (let i = 0; i < 5; i++) {
        await new Promise(resolve => setTimeout(resolve, 0));
    }
}
