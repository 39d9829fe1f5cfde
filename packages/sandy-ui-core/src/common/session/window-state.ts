import type { SessionInfo } from './session-types';
import type { DerivedProject } from '../projects/project-state';
import type { ProjectsSnapshot, SandyConfiguration, SandyService, SandyServiceEvents, SessionNotification } from '../service/service-protocol';
import { toProblem } from '../service/service-protocol';
import { DisposableLike, EventLike, SimpleEmitter, ViewVisibility } from '../base/event';
import { configureFailedText, openFoldersFailedText } from '../host/labels';

/** What the window state needs of its connection to the sandy service. */
export type WindowStateService = Pick<SandyService, 'configure' | 'refresh' | 'setVisible' | 'setOpenFolders' | 'setSeen'>;

export interface WindowStateOptions {
    /** Where the window's own failures go (configuring the service): the host's Sandy log. */
    log(message: string): void;
    /** Sessions known before the first snapshot arrives (the plugin's in-process supervisor). */
    sessionsBeforeSnapshot?(): SessionInfo[];
}

/**
 * One window's view of sandy, in every host: the latest snapshot with the session events merged
 * in, which of the window's views are looking, the configuration it sent and the folders it has
 * open. Hosts read their own settings (Theia's preferences, VS Code's configuration) and say their
 * own notices; they feed the result to {@link configure} and {@link publishOpenFolders}.
 *
 * `connect` opens the window's connection with the listener that feeds this state (the plugin:
 * `core.connect(viewer, listener)`; Theia: the RPC proxy, whose client forwards to the listener).
 */
export class WindowState<S extends WindowStateService = WindowStateService> implements DisposableLike {
    readonly service: S;
    protected current: ProjectsSnapshot | undefined;
    /** The configuration last sent (a settings event that changes nothing sends nothing). */
    protected configured: string | undefined;
    protected lastConfiguration: SandyConfiguration | undefined;
    protected folders: readonly string[] = [];
    /** The sessions this window shows the user, as last sent. */
    protected seen: string[] = [];
    protected readonly visibility = new ViewVisibility(anyVisible => {
        this.service.setVisible(anyVisible).catch(() => undefined);
    });
    protected readonly onDidChangeEmitter = new SimpleEmitter<ProjectsSnapshot>();
    /** A new snapshot (poll, refresh, configuration). */
    readonly onDidChange: EventLike<ProjectsSnapshot> = this.onDidChangeEmitter.event;
    protected readonly onDidChangeSessionEmitter = new SimpleEmitter<SessionInfo>();
    /** One session changed (launched, stopping, exited), already merged into {@link snapshot}. */
    readonly onDidChangeSession: EventLike<SessionInfo> = this.onDidChangeSessionEmitter.event;
    protected readonly onDidNotifyEmitter = new SimpleEmitter<SessionNotification>();
    /** A session's notification, parsed once in the service (the window's tabs turn it into a toast). */
    readonly onDidNotify: EventLike<SessionNotification> = this.onDidNotifyEmitter.event;

    constructor(connect: (listener: SandyServiceEvents) => S, protected readonly options: WindowStateOptions) {
        this.service = connect({
            onDidChangeSnapshot: snapshot => this.acceptSnapshot(snapshot),
            onDidChangeSession: session => this.acceptSession(session),
            onDidNotify: event => this.onDidNotifyEmitter.fire(event)
        });
    }

    get snapshot(): ProjectsSnapshot | undefined {
        return this.current;
    }

    get projects(): DerivedProject[] {
        return this.current?.projects ?? [];
    }

    get sessions(): SessionInfo[] {
        return this.current?.sessions ?? this.options.sessionsBeforeSnapshot?.() ?? [];
    }

    get liveSessions(): SessionInfo[] {
        return this.sessions.filter(s => s.status !== 'exited');
    }

    /** The user's settings as last sent to the service (undefined before the host read them). */
    get configuration(): SandyConfiguration | undefined {
        return this.lastConfiguration;
    }

    /** The folders this window has open, as last published (the first is the default project). */
    get openFolders(): readonly string[] {
        return this.folders;
    }

    acceptSnapshot(snapshot: ProjectsSnapshot): void {
        this.current = snapshot;
        this.onDidChangeEmitter.fire(snapshot);
    }

    acceptSession(session: SessionInfo): void {
        if (this.current) {
            const others = this.current.sessions.filter(s => s.id !== session.id);
            this.current = { ...this.current, sessions: [...others, session] };
        }
        this.onDidChangeSessionEmitter.fire(session);
    }

    /** Poll now; rejects with the service's problem. */
    async refresh(): Promise<void> {
        this.acceptSnapshot(await this.service.refresh());
    }

    /** One of the window's views shows (or stops showing) sandy state. */
    setVisible(viewId: string, visible: boolean): void {
        this.visibility.set(viewId, visible);
    }

    /**
     * Send the host's reading of the user's settings, unless it is what was sent last; then refresh.
     * A failure is logged and forgotten, so the next try sends again.
     */
    async configure(config: SandyConfiguration): Promise<void> {
        const json = JSON.stringify(config);
        if (json === this.configured) {
            return;
        }
        this.configured = json;
        this.lastConfiguration = { ...config };
        try {
            await this.service.configure(config);
            this.acceptSnapshot(await this.service.refresh());
        } catch (e) {
            if (this.configured === json) {
                this.configured = undefined;
            }
            this.options.log(configureFailedText(toProblem(e)));
        }
    }

    /** The window's open folders surface as projects (not stored) while it has them open. */
    async publishOpenFolders(folders: readonly string[]): Promise<void> {
        this.folders = [...folders];
        try {
            await this.service.setOpenFolders([...folders]);
        } catch (e) {
            this.options.log(openFoldersFailedText(toProblem(e)));
        }
    }

    /** The sessions this window shows to the user now (its tabs say, on every change); sent only when it changed. */
    setSeen(sessionIds: readonly string[]): void {
        const ids = [...new Set(sessionIds)].sort();
        if (ids.join('\0') === this.seen.join('\0')) {
            return;
        }
        this.seen = ids;
        this.service.setSeen([...ids]).catch(() => undefined);
    }

    /**
     * The service behind this window was restarted (the Theia backend crashed or was killed; the page
     * reconnected by itself): the new one knows nothing of this window, so it is told again what the
     * old one was told — whether a view is looking, the open folders, the user's settings (without
     * them it would look for sandy without the user's path and environment, and find none of the
     * daemon sessions that outlived the old one) — then the window takes a fresh snapshot.
     */
    async resync(): Promise<void> {
        this.service.setVisible(this.visibility.any).catch(() => undefined);
        if (this.seen.length) {
            this.service.setSeen([...this.seen]).catch(() => undefined);
        }
        if (this.folders.length) {
            await this.publishOpenFolders(this.folders);
        }
        const config = this.lastConfiguration;
        if (config) {
            try {
                await this.service.configure(config);
                this.acceptSnapshot(await this.service.refresh());
            } catch (e) {
                this.options.log(configureFailedText(toProblem(e)));
            }
        }
    }

    dispose(): void {
        this.onDidChangeEmitter.dispose();
        this.onDidChangeSessionEmitter.dispose();
        this.onDidNotifyEmitter.dispose();
    }
}
