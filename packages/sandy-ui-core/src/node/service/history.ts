import type { DisposableLike } from '../../common/base/event';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';
import type { HistoryChunk, HistoryQuery, HistoryRecord } from '../../common/session/history-types';
import type { SessionInfo } from '../../common/session/session-types';
import { workspaceLabel } from '../../common/host/labels';
import { HistoryRecorder, SessionHistory } from '../history/session-history';
import type { HistoryBeginMeta, HistoryEndInfo } from '../history/session-history';
import type { PtySupervisor } from '../terminal/pty-supervisor';

/** What the capture reads of the service. */
export interface HistoryCaptureDeps {
    supervisor: Pick<PtySupervisor, 'onDidChangeSession' | 'onData' | 'get'>;
    log(message: string): void;
}

/**
 * Every session's output, kept on the host (issue 11, session history): one recorder per session the
 * backend hosts, fed from the same stream as its screen, ended with how the session ended. Only under
 * `<dataDir>/history` (never in a workspace or a sandbox), at most the user's cap per session
 * (`sandy.historyMegabytes`, 0: none kept). The records and pages a window reads come from here.
 */
export class HistoryCapture implements DisposableLike {
    protected readonly recording = new Map<string, { recorder: HistoryRecorder; data: DisposableLike }>();
    /** Records being ended (their last write and the record's end): {@link close} waits for them too. */
    protected readonly ending = new Set<Promise<void>>();
    protected history: SessionHistory;
    protected capMb: number;
    protected readonly subscription: DisposableLike;

    constructor(readonly dir: string, protected readonly deps: HistoryCaptureDeps, capMb = 50) {
        this.capMb = capMb;
        this.history = new SessionHistory(dir, { capBytes: Math.max(1, capMb) * 1024 * 1024 });
        this.subscription = deps.supervisor.onDidChangeSession(info => this.sessionChanged(info));
    }

    /** The user's cap, for sessions that start from now on (0: keep no history). */
    setCapMegabytes(capMb: number): void {
        if (capMb === this.capMb) {
            return;
        }
        this.capMb = capMb;
        if (capMb > 0) {
            this.history = new SessionHistory(this.dir, { capBytes: capMb * 1024 * 1024 });
        }
    }

    protected sessionChanged(info: SessionInfo): void {
        const current = this.recording.get(info.id);
        if (info.status === 'exited') {
            if (current) {
                this.recording.delete(info.id);
                current.data.dispose();
                const ended = current.recorder.end({
                    endedAt: info.endedAt ?? Date.now(), exitCode: info.exitCode,
                    endReason: info.endReason ?? (info.signal ? `signal ${info.signal}` : undefined)
                }).catch(() => undefined);
                this.ending.add(ended);
                void ended.finally(() => this.ending.delete(ended));
            }
            return;
        }
        // An orphan has no stream here (another IDE's sandy): nothing to record.
        if (current || this.capMb <= 0 || info.origin === 'orphan') {
            return;
        }
        // Begun at once, so nothing of its first output is missed: names as sandy derives them.
        const recorder = this.history.begin({
            workspace: info.workspace, project: workspaceLabel(info.workspace), sandbox: sandboxNameForWorkspace(info.workspace),
            agent: info.agent, mode: info.mode, startedAt: info.startedAt
        });
        if (!recorder.active) {
            this.deps.log(`sandy: the history of ${info.workspace} cannot be written in ${this.dir}; the session runs unrecorded.`);
            return;
        }
        let data: DisposableLike;
        try {
            data = this.deps.supervisor.onData(info.id)(chunk => recorder.write(chunk));
        } catch {
            void recorder.dispose();
            return;
        }
        this.recording.set(info.id, { recorder, data });
    }

    /**
     * A run the IDE did not host on a PTY (a headless `sandy -p`), kept whole: its text and its end.
     * The record's id, or undefined when no history is kept (a cap of 0) or it could not be written.
     */
    async recordOnce(meta: HistoryBeginMeta, text: string, end: HistoryEndInfo): Promise<string | undefined> {
        if (this.capMb <= 0) {
            return undefined;
        }
        const recorder = this.history.begin(meta);
        if (!recorder.active) {
            void recorder.dispose();
            return undefined;
        }
        recorder.write(text);
        await recorder.end(end);
        return recorder.id;
    }

    list(query?: HistoryQuery): Promise<HistoryRecord[]> {
        return this.history.list(sanitizeQuery(query));
    }

    read(id: string, offset?: number): Promise<HistoryChunk | undefined> {
        return this.history.read(id, typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0 ? offset : 0);
    }

    /**
     * A finished session's record and log. A running one's are kept — asked of this capture, not only
     * of the store, which is made anew when the user's cap changes and then knows nothing running.
     */
    remove(id: string): Promise<boolean> {
        if ([...this.recording.values()].some(({ recorder }) => recorder.id === id)) {
            return Promise.resolve(false);
        }
        return this.history.remove(id);
    }

    /**
     * The IDE quits: what each running session wrote so far is kept (its record says it did not end
     * here), and the records of sessions that ended while it quit are finished before it returns.
     */
    async close(): Promise<void> {
        this.subscription.dispose();
        const open = [...this.recording.values()];
        this.recording.clear();
        await Promise.all([...open.map(({ recorder, data }) => {
            data.dispose();
            return recorder.dispose();
        }), ...this.ending]);
    }

    dispose(): void {
        void this.close();
    }
}

/** A window's query, as the store takes it (anything else counts as no filter). */
function sanitizeQuery(query: unknown): HistoryQuery {
    if (!query || typeof query !== 'object') {
        return {};
    }
    const q = query as Record<string, unknown>;
    return {
        project: typeof q.project === 'string' ? q.project : undefined,
        text: typeof q.text === 'string' ? q.text : undefined,
        limit: typeof q.limit === 'number' && Number.isSafeInteger(q.limit) && q.limit > 0 ? q.limit : undefined
    };
}
