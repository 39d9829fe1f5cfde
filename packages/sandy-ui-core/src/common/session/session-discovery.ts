import { containerSandboxName, isProxyContainer, lockHolderPid, parseDockerCreatedAt, SandyState } from '../sandy/contract';
import { recordedPathNamesSandbox, sandboxNameForWorkspace } from '../projects/project-state';

/** A daemon session sandy lists (`--print-state` running_containers joined to its sandbox). */
export interface DiscoveredDaemon {
    workspace: string;
    containerId: string;
    startedAt?: number;
    /** tmux clients attached now (`attached_clients`), when sandy could probe it. */
    attachedClients?: number;
    /** This IDE started it (its container is the one we remembered). */
    ours: boolean;
}

/** A foreground sandy this IDE launched that still holds its workspace lock with no IDE hosting its terminal. */
export interface DiscoveredOrphan {
    workspace: string;
    pid: number;
    /** When that pid started, as recorded at launch (see node/terminal/process-identity.ts). */
    start?: string;
}

/** What one `--print-state` says about running sessions. */
export interface SessionDiscovery {
    /** Undefined when Docker could not be asked (the daemon list is unknown, not empty). */
    daemons: DiscoveredDaemon[] | undefined;
    orphans: DiscoveredOrphan[];
    /** When the `--print-state` run began: a session that ended after it is not brought back by it. */
    observedAt: number;
}

/** What this IDE remembers of the sessions it started, across restarts (node/terminal/session-records.ts). */
export interface SessionRecordsView {
    /** Workspace → container id (12 hex) of the daemon session this IDE started there. */
    daemons: Readonly<Record<string, string>>;
    /** Workspace → the foreground sandy this IDE launched there: its pid and when that process started. */
    foreground: Readonly<Record<string, { pid: number; start?: string }>>;
}

/**
 * The running sessions in a `--print-state`: each daemon container (proxy sidecars are not sessions)
 * with its workspace — the one we remembered for that container, else sandy's `workspace_path` when
 * it is reliable (sandy cuts it at a `"`, CONTRACT D2: the sandbox name must still match) — and each
 * foreground sandy we launched whose lock is still held by the same live pid (an IDE that died left
 * it). A foreground sandy someone runs in a shell is no orphan: it is not ours to stop.
 */
export function discoverSessions(state: SandyState, records: SessionRecordsView, observedAt: number): SessionDiscovery {
    const byContainer = new Map(Object.entries(records.daemons).map(([workspace, id]) => [id, workspace]));
    let daemons: DiscoveredDaemon[] | undefined;
    if (state.running_containers) {
        daemons = [];
        for (const c of state.running_containers) {
            if (c.daemon !== true || isProxyContainer(c)) {
                continue;
            }
            const id = c.id.slice(0, 12);
            const remembered = byContainer.get(id);
            const sandbox = state.sandboxes.find(s => s.name === containerSandboxName(c));
            const listed = sandbox?.workspace_path;
            const workspace = remembered ?? (sandbox && recordedPathNamesSandbox(sandbox) ? listed : undefined);
            if (!workspace) {
                continue;
            }
            daemons.push({
                workspace,
                containerId: id,
                startedAt: parseDockerCreatedAt(c.started_at)?.getTime(),
                attachedClients: typeof c.attached_clients === 'number' ? c.attached_clients : undefined,
                ours: remembered !== undefined
            });
        }
    }
    const orphans: DiscoveredOrphan[] = [];
    for (const [workspace, { pid, start }] of Object.entries(records.foreground)) {
        const sandbox = state.sandboxes.find(s => s.name === sandboxNameForWorkspace(workspace));
        if (sandbox?.lock_held && sandbox.lock_holder_alive === true && lockHolderPid(sandbox) === pid) {
            orphans.push({ workspace, pid, start });
        }
    }
    return { daemons, orphans, observedAt };
}
