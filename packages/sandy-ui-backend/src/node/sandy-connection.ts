import { generateUuid } from '@theia/core';
import type { ApprovalRequest, SessionInfo, SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '@sandy-ui/core/common';
import {
    AddProjectOutcome, LaunchOutcome, LaunchRequest, ProjectsSnapshot, RunOutcome, SandyConfiguration, SandyService, SandyServiceClient, SandyStatus
} from '../common/sandy-protocol';
import { SandyBackend } from './sandy-backend';

/**
 * One window's end of the sandy service. The state (sessions, poller, projects) is shared in
 * {@link SandyBackend}; what is per window is its client (events reach every window, not the last
 * one to connect) and whether it currently shows sandy state (the poller's cadence).
 */
export class SandyConnection implements SandyService {
    readonly id = generateUuid();
    protected client: SandyServiceClient | undefined;

    constructor(protected readonly backend: SandyBackend) { }

    setClient(client: SandyServiceClient | undefined): void {
        if (this.client) {
            this.backend.removeClient(this.id, this.client);
        }
        this.client = client;
        if (client) {
            this.backend.addClient(client);
        }
    }

    getClient(): SandyServiceClient | undefined {
        return this.client;
    }

    dispose(): void {
        this.backend.removeClient(this.id, this.client);
        this.client = undefined;
    }

    configure(config: SandyConfiguration): Promise<SandyStatus> {
        return this.backend.configureSandy(config);
    }

    getSnapshot(): Promise<ProjectsSnapshot> {
        return this.backend.snapshot();
    }

    refresh(): Promise<ProjectsSnapshot> {
        return this.backend.refresh();
    }

    async setStateVisible(visible: boolean): Promise<void> {
        this.backend.setVisible(this.id, visible);
    }

    addProject(workspace: string): Promise<AddProjectOutcome> {
        return this.backend.addProject(workspace);
    }

    setOpenFolders(folders: string[]): Promise<void> {
        return this.backend.setOpenFolders(this.id, folders);
    }

    removeProject(workspace: string): Promise<void> {
        return this.backend.removeProject(workspace);
    }

    launch(request: LaunchRequest): Promise<LaunchOutcome> {
        return this.backend.launch(request);
    }

    preflight(workspace: string): Promise<ApprovalRequest | undefined> {
        return this.backend.preflight(workspace);
    }

    revealApprovalLine(workspace: string, token: string, key: string, line: number): Promise<string | undefined> {
        return this.backend.revealApprovalLine(workspace, token, key, line);
    }

    revokeApproval(workspace: string): Promise<boolean> {
        return this.backend.revokeApproval(workspace);
    }

    getSettings(workspace?: string): Promise<SettingsSnapshot> {
        return this.backend.getSettings(workspace);
    }

    saveSettings(scope: SettingsScope, workspace: string | undefined, edits: SettingsEdits): Promise<SettingsSaveResult> {
        return this.backend.saveSettings(scope, workspace, edits);
    }

    addSecretsToGitignore(workspace: string): Promise<void> {
        return this.backend.addSecretsToGitignore(workspace);
    }

    rebuildSandbox(workspace: string): Promise<RunOutcome> {
        return this.backend.rebuildSandbox(workspace);
    }

    stop(sessionId: string): Promise<SessionInfo | undefined> {
        return this.backend.stop(sessionId);
    }

    async resize(sessionId: string, cols: number, rows: number): Promise<void> {
        this.backend.resize(sessionId, cols, rows);
    }

    async forgetSession(sessionId: string): Promise<void> {
        this.backend.forgetSession(sessionId);
    }

    removeSandbox(workspace: string): Promise<RunOutcome> {
        return this.backend.removeSandbox(workspace);
    }

    async getSessions(): Promise<SessionInfo[]> {
        return this.backend.core.sessions();
    }
}
