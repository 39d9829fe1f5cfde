import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import type { ApprovalRequest, DisposableLike, SessionInfo, SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '@sandy-ui/core/common';
import { SandyServiceCore } from '@sandy-ui/core/node';
import type { PtySupervisor } from '@sandy-ui/core/node';
import {
    AddProjectOutcome, LaunchOutcome, LaunchRequest, ProjectsSnapshot, RunOutcome, SandyConfiguration, SandyServiceClient, SandyStatus
} from '../common/sandy-protocol';
import { nodePtySpawn } from './node-pty-spawn';

/**
 * The one sandy service of this IDE process, as a Theia backend contribution: a thin inversify
 * adapter over core's {@link SandyServiceCore} (the VS Code plugin wraps the same class), which
 * owns the PTY supervisor, the shared state poller and the projects store, and fans every change
 * out to all connected windows. Only the logger and the process lifecycle are Theia's here.
 */
@injectable()
export class SandyBackend implements BackendApplicationContribution {
    @inject(ILogger) @named('sandy') protected readonly logger: ILogger;

    readonly core = new SandyServiceCore({
        // The logger is injected after construction: look it up at each call.
        logger: {
            info: message => void this.logger.info(message),
            warn: message => void this.logger.warn(message),
            error: message => void this.logger.error(message)
        },
        spawnPty: nodePtySpawn,
        logHint: 'See the backend log for details.'
    });
    protected readonly clients = new Map<SandyServiceClient, DisposableLike>();

    get home(): string {
        return this.core.home;
    }

    get sandyHome(): string {
        return this.core.sandyHome;
    }

    get dataDir(): string {
        return this.core.dataDir;
    }

    get supervisor(): PtySupervisor {
        return this.core.supervisor;
    }

    initialize(): void {
        this.core.start();
    }

    onStop(): Promise<void> {
        return this.core.dispose();
    }

    addClient(client: SandyServiceClient): void {
        if (!this.clients.has(client)) {
            this.clients.set(client, this.core.addListener(client));
        }
    }

    removeClient(connectionId: string, client: SandyServiceClient | undefined): void {
        if (client) {
            this.clients.get(client)?.dispose();
            this.clients.delete(client);
        }
        this.core.removeViewer(connectionId, client);
    }

    setOpenFolders(connectionId: string, folders: string[]): Promise<void> {
        return this.core.setOpenFolders(connectionId, folders);
    }

    setVisible(connectionId: string, visible: boolean): void {
        this.core.setVisible(connectionId, visible);
    }

    configureSandy(config: SandyConfiguration): Promise<SandyStatus> {
        return this.core.configureSandy(config);
    }

    ensureLocated(): Promise<SandyStatus> {
        return this.core.ensureLocated();
    }

    snapshot(): Promise<ProjectsSnapshot> {
        return this.core.snapshot();
    }

    refresh(): Promise<ProjectsSnapshot> {
        return this.core.refresh();
    }

    addProject(workspace: string): Promise<AddProjectOutcome> {
        return this.core.addProject(workspace);
    }

    removeProject(workspace: string): Promise<void> {
        return this.core.removeProject(workspace);
    }

    launch(request: LaunchRequest): Promise<LaunchOutcome> {
        return this.core.launch(request);
    }

    getSettings(workspace?: string): Promise<SettingsSnapshot> {
        return this.core.getSettings(workspace);
    }

    saveSettings(scope: SettingsScope, workspace: string | undefined, edits: SettingsEdits): Promise<SettingsSaveResult> {
        return this.core.saveSettings(scope, workspace, edits);
    }

    addSecretsToGitignore(workspace: string): Promise<void> {
        return this.core.addSecretsToGitignore(workspace);
    }

    preflight(workspace: string): Promise<ApprovalRequest | undefined> {
        return this.core.preflight(workspace);
    }

    revealApprovalLine(workspace: string, token: string, key: string, line: number): Promise<string | undefined> {
        return this.core.revealApprovalLine(workspace, token, key, line);
    }

    revokeApproval(workspace: string): Promise<boolean> {
        return this.core.revokeApproval(workspace);
    }

    rebuildSandbox(workspace: string): Promise<RunOutcome> {
        return this.core.rebuildSandbox(workspace);
    }

    stop(sessionId: string): Promise<SessionInfo | undefined> {
        return this.core.stop(sessionId);
    }

    resize(sessionId: string, cols: number, rows: number): void {
        this.core.resize(sessionId, cols, rows);
    }

    forgetSession(sessionId: string): void {
        this.core.forgetSession(sessionId);
    }

    removeSandbox(workspace: string): Promise<RunOutcome> {
        return this.core.removeSandbox(workspace);
    }
}
