import type { SessionInfo } from '../session/session-types';
import type { LaunchClearance } from '../session/launch-flow';

/**
 * What the project commands need of a window's sandy tabs (core's terminal tab registry implements
 * it in both hosts; the plugin's no-node-pty fallback implements it over the editor's own terminal).
 */
export interface SessionTab {
    readonly workspace: string;
    /** The session the tab shows (undefined before its launch, or for a fallback terminal). */
    readonly session: SessionInfo | undefined;
    /** Close the tab; a live session keeps running. */
    detach(): void;
}

export interface SessionTabs {
    /** The sandy tab the user is looking at, if any. */
    readonly active: SessionTab | undefined;
    findByWorkspace(workspace: string): SessionTab | undefined;
    /** Reveal the tab attached to this running session, or open one. */
    attach(session: SessionInfo): Promise<void>;
    /** Reveal the tab of this workspace (relaunching it with `clearance` if it ended), or open one that launches. */
    openForWorkspace(workspace: string, clearance: LaunchClearance): Promise<void>;
}
