import * as fs from 'fs';
import * as path from 'path';
import { SandyState } from '../../common/sandy/contract';
import { RunOutcome } from '../../common/service/service-protocol';
import { workspaceHash16 } from '../approvals/preflight';
import { ApprovalMemory } from '../approvals/approval-memory';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';
import { PtySupervisor } from '../terminal/pty-supervisor';
import { StatePoller } from '../projects/state-poller';
import { checkWorkspace } from '../projects/workspace-guard';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';
import { SnapshotPublisher } from './snapshots';

/** sandy's maintenance commands on a project's sandbox: rebuild (reset) and remove. */
export class SandboxMaintenance {
    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly snapshots: SnapshotPublisher,
        protected readonly parts: { supervisor: PtySupervisor; poller: StatePoller<SandyState>; approvalMemory: ApprovalMemory }
    ) { }

    async rebuildSandbox(workspace: string): Promise<RunOutcome> {
        const canonical = await checkWorkspace(workspace, this.ctx.home);
        return this.runMaintenance(['--reset-sandbox', '--workspace', canonical, '--keep-approvals', '--yes'], canonical);
    }

    /**
     * Removes the sandbox of a project, also when its folder is gone. The sandbox sandy lists for the
     * workspace is selected by its name (`--sandbox NAME`, CONTRACT §6.4); one sandy does not list
     * (its name starts with a dot, e.g. of `~/.dotfiles`, which `--print-state` skips and `--sandbox`
     * refuses) by the folder while it exists (`--workspace`, resolved by sandy itself), and by the name
     * computed as sandy does from the recorded path once the folder is gone — that path was canonical
     * when it was recorded. sandy runs outside the folder either way (runMaintenance). Not checked by
     * the workspace guard: nothing is mounted or read from the folder.
     */
    async removeSandbox(workspace: string): Promise<RunOutcome> {
        const result = await this.runMaintenance(['--remove-sandbox', ...this.sandboxSelector(workspace), '--yes'], workspace);
        if (result.ok) {
            // sandy deletes its approval file with the sandbox; our value record goes too.
            await this.parts.approvalMemory.forget(workspaceHash16(workspace)).catch(() => undefined);
        }
        return result;
    }

    /**
     * A maintenance command names its target in `args` (`--workspace P`, `--sandbox NAME`); `workspace`
     * only says which live session would block it. sandy runs in {@link maintenanceCwd}, never in the
     * workspace: that folder may be gone (spawn fails with ENOENT), and a cwd sandy could fall back on
     * must not be one that selects a sandbox.
     */
    protected async runMaintenance(args: string[], workspace: string): Promise<RunOutcome> {
        await this.discovery.ensureLocated();
        const located = this.discovery.located;
        if (!located) {
            return { ok: false, stdout: '', stderr: this.discovery.sandyStatus.problem?.message ?? 'sandy was not found.' };
        }
        if (this.parts.supervisor.list().some(s => s.workspace === workspace && s.status !== 'exited')) {
            return { ok: false, stdout: '', stderr: 'A sandy session is running in this workspace; stop it first.' };
        }
        const runner = this.discovery.runner(located);
        let result;
        try {
            result = await runner.run(args, { timeoutMs: 120_000, cwd: this.maintenanceCwd() });
        } catch (e) {
            // sandy could not be started at all: a failed outcome the host shows, not an RPC error.
            const problem = this.ctx.problemOf(e);
            return { ok: false, stdout: '', stderr: `${problem.message} ${problem.hint}`.trim() };
        }
        void this.parts.poller.pollNow();
        return { ok: result.exitCode === 0, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
    }

    /**
     * Where maintenance commands run: sandy's own SANDY_HOME, which exists whenever there is a sandbox
     * to act on and can never be a workspace (the guard refuses it), so sandy's workspace default
     * (`$PWD`) selects nothing. Not $HOME: a sandbox of $HOME, made by a sandy run in a terminal, would
     * be the one a missing `--workspace` picks. The file system root when SANDY_HOME does not exist yet.
     */
    maintenanceCwd(): string {
        const sandyHome = this.discovery.launchSandyHome;
        try {
            if (fs.statSync(sandyHome).isDirectory()) {
                return sandyHome;
            }
        } catch {
            // Not created yet: nothing of sandy's to run in.
        }
        return path.parse(path.resolve(sandyHome)).root;
    }

    protected sandboxSelector(workspace: string): string[] {
        const listed = this.snapshots.latestState?.sandboxes.find(s => s.workspace_path === workspace)?.name;
        if (listed) {
            return [`--sandbox=${listed}`];
        }
        try {
            if (fs.statSync(workspace).isDirectory()) {
                return ['--workspace', workspace];
            }
        } catch {
            // Gone: below.
        }
        return [`--sandbox=${sandboxNameForWorkspace(path.resolve(workspace))}`];
    }
}
