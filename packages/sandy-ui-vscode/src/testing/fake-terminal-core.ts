import type * as vscode from 'vscode';
import type { LaunchRequest, SessionInfo } from '@sandy-ui/core/common';
import { SimpleEmitter } from '@sandy-ui/core/common';
import { checkWorkspace } from '@sandy-ui/core/node';
import type { SandyServiceCore, SessionAttachment } from '@sandy-ui/core/node';
import type { TerminalPanelsDeps } from '../terminal-panel';
import { FakeUri } from './fake-vscode';

/** A daemon session of this IDE, attached here, as the fake core lists it. */
export function daemonSession(id: string, workspace: string, extra: Partial<SessionInfo> = {}): SessionInfo {
    return {
        id, pid: 42, mode: 'daemon', origin: 'ide', link: 'attached', workspace, args: [], startedAt: Date.now(),
        status: 'running', attachedViews: 0, ...extra
    };
}

/**
 * The in-process core and the log a TerminalPanels talks to, for the plugin's terminal specs: the
 * sessions it lists (`live`), and every launch, stop, attach, typed input and log line recorded.
 * Workspaces are checked by core's own guard against `home`.
 */
export class FakeTerminalCore {
    live: SessionInfo[] = [];
    readonly launches: LaunchRequest[] = [];
    readonly stops: string[] = [];
    readonly attached: string[] = [];
    readonly written: string[] = [];
    readonly logged = { info: [] as string[], warn: [] as string[] };
    sessionsAsked = 0;
    canonicalAsked = 0;

    constructor(protected readonly home: string) { }

    /** Every log line, in the order it was written. */
    readonly lines: string[] = [];

    deps(extra: Partial<TerminalPanelsDeps> & { memento?: vscode.Memento } = {}): TerminalPanelsDeps {
        const attachment = (id: string): SessionAttachment => ({
            replay: `screen of ${id}`,
            onData: new SimpleEmitter<string>().event,
            onExit: new SimpleEmitter<SessionInfo>().event,
            write: data => this.written.push(data),
            acknowledge: () => undefined,
            dispose: () => undefined
        });
        const core = {
            canonicalWorkspace: (ws: string) => {
                this.canonicalAsked++;
                return checkWorkspace(ws, this.home);
            },
            sessions: async () => {
                this.sessionsAsked++;
                return this.live.map(s => ({ ...s }));
            },
            launch: async (request: LaunchRequest) => {
                this.launches.push(request);
                return { kind: 'launched', session: daemonSession('new', request.workspace), warnings: [] };
            },
            stop: async (id: string) => {
                this.stops.push(id);
                return this.live.find(s => s.id === id);
            },
            resize: async () => undefined,
            forgetSession: async () => undefined,
            takeBack: async (id: string) => this.live.find(s => s.id === id),
            supervisor: {
                get: (id: string) => this.live.find(s => s.id === id),
                attach: async (id: string) => {
                    this.attached.push(id);
                    return attachment(id);
                }
            }
        };
        const log = (level: 'info' | 'warn') => (text: string) => {
            this.logged[level].push(text);
            this.lines.push(text);
        };
        return {
            core: core as unknown as SandyServiceCore,
            state: { onDidChangeSession: () => ({ dispose: () => undefined }), onDidChange: () => ({ dispose: () => undefined }), setSeen: () => undefined } as unknown as TerminalPanelsDeps['state'],
            log: { info: log('info'), warn: log('warn'), error: log('warn') } as unknown as TerminalPanelsDeps['log'],
            extensionUri: FakeUri.file('/ext') as unknown as TerminalPanelsDeps['extensionUri'],
            clearForLaunch: async () => undefined,
            ...extra
        };
    }
}
