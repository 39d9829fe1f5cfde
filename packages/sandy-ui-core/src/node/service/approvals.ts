import * as fs from 'fs';
import { SandyGateReport } from '../../common/sandy/approvals-report';
import { SandySchema, SandyState } from '../../common/sandy/contract';
import { ApprovalRequest } from '../../common/approvals/approval-model';
import { GateKind, PendingGates } from '../../common/approvals/launch-gates';
import { approvalFilePathFor, PreflightReport } from '../../common/config/preflight';
import { sha256Hex, valueHashesFor, workspaceHash16 } from '../approvals/preflight';
import { dockerfileApprovalPath, readSandyRecord, sandyContextHash, symlinkApprovalPath, symlinkGate } from '../approvals/launch-gates';
import { GateResponder } from '../approvals/gate-responder';
import { approvedRecordHashes, checkGateRecord, isRecordedGate, RecordedGate, sortAsSandy } from '../approvals/gate-records';
import { approvalChangedProblem } from '../../common/host/labels';
import { StopCause } from '../../common/session/session-types';
import { analyzeLaunch, LaunchAnalysis } from '../approvals/launch-analysis';
import { ApprovalMemory } from '../approvals/approval-memory';
import { sandboxNameFor } from '../sandy/lock-sweep';
import { checkWorkspace } from '../projects/workspace-guard';
import { StatePoller } from '../projects/state-poller';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';
import { SnapshotPublisher } from './snapshots';

export type { LaunchAnalysis };

/** The session whose gates the tab answered: stopped with a cause, and whether it has ended (that launch only, never a later one). */
export interface AnsweredSession {
    stop(cause: StopCause): void;
    ended(): boolean;
}

/**
 * Pre-flight and approvals: the launcher-exact report of a workspace's config files, the gates
 * sandy will ask (privileged keys, the project Dockerfile, escaping symlinks) with the token of
 * what the user was shown, the tab's answers at sandy's prompts for exactly that, and revoking
 * every approval sandy recorded.
 */
export class LaunchApprovals {
    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly snapshots: SnapshotPublisher,
        protected readonly approvalMemory: ApprovalMemory,
        protected readonly poller: StatePoller<SandyState>
    ) { }

    async preflight(workspace: string): Promise<ApprovalRequest | undefined> {
        const canonical = await checkWorkspace(workspace, this.ctx.home);
        return (await this.analyze(canonical)).request;
    }

    async revealApprovalLine(workspace: string, token: string, key: string, line: number): Promise<string | undefined> {
        const canonical = await checkWorkspace(workspace, this.ctx.home);
        const { report, request } = await this.analyze(canonical);
        if (!request || request.token !== token) {
            return undefined;
        }
        return report.pendingPrivileged.find(p => p.key === key && p.line === line)?.rawLine;
    }

    /**
     * Deletes every approval sandy recorded for the workspace: the privileged keys
     * (`passive-<h>.list`), the project Dockerfile (`dockerfile-<h>.list`) and the escaping symlinks
     * (`<sandbox>/.sandy-approved-symlinks.list`); the next launch asks all of them again.
     */
    async revokeApproval(workspace: string): Promise<boolean> {
        const canonical = await checkWorkspace(workspace, this.ctx.home);
        const sandyHome = this.discovery.launchSandyHome;
        await this.approvalMemory.forget(workspaceHash16(canonical)).catch(() => undefined);
        let removed = false;
        for (const file of [
            approvalFilePathFor(sandyHome, canonical, sha256Hex),
            dockerfileApprovalPath(sandyHome, canonical),
            symlinkApprovalPath(sandyHome, canonical)
        ]) {
            try {
                await fs.promises.unlink(file);
                removed = true;
            } catch (e) {
                if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
                    throw e;
                }
            }
        }
        void this.poller.pollNow();
        return removed;
    }

    /**
     * The pre-flight report and what the approval view must show (undefined: launch without asking).
     * `askSandy`: a sandy that offers `--approvals` decides which gates are pending (not at a prompt's
     * re-check, which compares the files with what the user approved).
     */
    async analyze(workspace: string, askSandy = true): Promise<LaunchAnalysis> {
        const { schema } = this.discovery.schemaInput();
        const sandyGates = askSandy ? await this.sandyGates(workspace, schema) : undefined;
        const wsHash = workspaceHash16(workspace);
        const sandbox = this.snapshots.latestState?.sandboxes.find(s => s.name === sandboxNameFor(workspace));
        return analyzeLaunch({
            workspace, schema,
            sandyHome: this.discovery.launchSandyHome,
            home: this.discovery.baseEnv().HOME || this.ctx.home,
            launchEnv: this.discovery.baseEnv(),
            sandbox: sandbox ? { createdVersion: sandbox.created_version, path: sandbox.path } : undefined,
            approvedValueHashes: await this.approvalMemory.get(wsHash).catch(() => undefined),
            previousDockerfile: await this.approvalMemory.getDockerfile(wsHash).catch(() => undefined),
            sandyGates,
            problemOf: e => this.ctx.problemOf(e)
        });
    }

    /** sandy's `--approvals` report when this sandy offers it; undefined (the files decide) when it does not or gave none. */
    protected async sandyGates(workspace: string, schema: SandySchema): Promise<SandyGateReport | undefined> {
        const located = this.discovery.located;
        if (!located || !schema.cli_flags.some(f => f.name === '--approvals')) {
            return undefined;
        }
        try {
            return await this.discovery.client(located).approvals(workspace);
        } catch (e) {
            this.ctx.logger.warn(`sandy: --approvals gave no report for ${workspace}; the files decide: ${this.ctx.problemOf(e).message}`);
            return undefined;
        }
    }

    /**
     * The sandy tab's answers to sandy's own prompts, for exactly the gates the user approved; what
     * sandy then records is remembered here too (value hashes, the Dockerfile text) for the next diff.
     */
    gateResponder(workspace: string, approved: PendingGates, report: PreflightReport, session: AnsweredSession): GateResponder {
        const wsHash = workspaceHash16(workspace);
        const { logger } = this.ctx;
        /** sandy's record of each gate as it was when the tab answered (sandy rewrites it on the answer). */
        const recordBefore = new Map<RecordedGate, string | undefined>();
        return new GateResponder({
            approved,
            recheck: async gate => {
                const same = await this.gateUnchanged(workspace, approved, gate);
                if (same && isRecordedGate(gate)) {
                    recordBefore.set(gate, await readSandyRecord(this.gateRecordPath(gate, workspace), this.discovery.launchSandyHome));
                }
                return same;
            },
            onAnswered: gate => {
                logger.info(`sandy: answered sandy's ${gate} prompt for ${workspace} with the approval you gave`);
                const remember = gate === 'privileged'
                    ? this.approvalMemory.record(wsHash, valueHashesFor(report.pendingPrivileged))
                    : gate === 'dockerfile' && approved.dockerfile ? this.approvalMemory.recordDockerfile(wsHash, approved.dockerfile.text) : undefined;
                remember?.catch(e => logger.warn(`sandy: could not remember the approval: ${this.ctx.problemOf(e).message}`));
                if (isRecordedGate(gate)) {
                    void this.checkRecord(workspace, gate, recordBefore.get(gate), approved, report, session)
                        .catch(e => logger.warn(`sandy: could not check sandy's record of the ${gate} approval: ${this.ctx.problemOf(e).message}`));
                }
            },
            onDeclined: (gate, reason) => logger.warn(`sandy: left sandy's ${gate} prompt for ${workspace} to you: ${reason}`)
        });
    }

    /** `passive-<h16>.list` or `dockerfile-<h16>.list` under the launch's `$SANDY_HOME`. */
    protected gateRecordPath(gate: RecordedGate, workspace: string): string {
        const sandyHome = this.discovery.launchSandyHome;
        return gate === 'privileged' ? approvalFilePathFor(sandyHome, workspace, sha256Hex) : dockerfileApprovalPath(sandyHome, workspace);
    }

    /**
     * After the tab answered: what sandy recorded must be what the user approved (gate-records.ts). If
     * it is not, the files changed between the approval view and sandy's read and were put back before
     * the tab's re-check: sandy now runs with what the user was not shown. The session is stopped, and
     * sandy's record removed (sandy's own revoke), so the next launch asks again with the files as they are.
     */
    protected async checkRecord(
        workspace: string, gate: RecordedGate, before: string | undefined, approved: PendingGates, report: PreflightReport, session: AnsweredSession
    ): Promise<void> {
        const file = this.gateRecordPath(gate, workspace);
        const accepted = await approvedRecordHashes(gate, approved, report.pendingPrivileged, sortAsSandy(this.discovery.baseEnv()));
        const result = await checkGateRecord({ file, sandyHome: this.discovery.launchSandyHome, before, matches: hash => accepted.has(hash), ended: () => session.ended() });
        if (result === 'unwritten') {
            this.ctx.logger.info(`sandy: no new record of the ${gate} approval for ${workspace} appeared in ${file}; nothing to check`);
        } else if (result === 'other') {
            this.ctx.logger.warn(`sandy: sandy recorded a ${gate} approval for ${workspace} other than the one you gave; ${file} is removed and the session stopped`);
            // The record first: whatever becomes of the session, sandy must not take that set as approved again.
            await fs.promises.unlink(file).catch((e: NodeJS.ErrnoException) => {
                if (e.code !== 'ENOENT') {
                    this.ctx.logger.warn(`sandy: could not remove ${file}: ${e.message}`);
                }
            });
            session.stop({ endReason: 'approval-changed', problem: approvalChangedProblem(gate, file) });
            void this.poller.pollNow();
        }
    }

    /** At sandy's prompt: are the files behind this gate still exactly what the user approved? */
    protected async gateUnchanged(workspace: string, approved: PendingGates, gate: GateKind): Promise<boolean> {
        if (gate === 'privileged') {
            return !!approved.privileged && (await this.analyze(workspace, false)).report.approvalSetHash === approved.privileged.setHash;
        }
        if (gate === 'dockerfile') {
            return !!approved.dockerfile && (await sandyContextHash(`${workspace}/.sandy`)).hash === approved.dockerfile.hash;
        }
        const now = await this.symlinks(workspace).catch(() => undefined);
        return !!approved.symlinks && !!now && JSON.stringify(now.entries) === JSON.stringify(approved.symlinks.entries);
    }

    /** sandy's symlink gate for a workspace, as it stands now (see launch-gates). */
    protected symlinks(workspace: string): ReturnType<typeof symlinkGate> {
        return symlinkGate(workspace, this.discovery.baseEnv().HOME || this.ctx.home, this.discovery.launchSandyHome);
    }
}
