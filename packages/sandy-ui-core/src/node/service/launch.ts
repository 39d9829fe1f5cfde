import * as path from 'path';
import type { SessionInfo } from '../../common/session/session-types';
import { SandyState } from '../../common/sandy/contract';
import { parseConfigFile, getEffectiveValues } from '../../common/config/config-file';
import { PendingGates } from '../../common/approvals/launch-gates';
import { PreflightReport } from '../../common/config/preflight';
import { LaunchOutcome, LaunchRequest } from '../../common/service/service-protocol';
import { readConfigFileSync } from '../config/config-io';
import { sweepLocks } from '../sandy/lock-sweep';
import { PtySupervisor } from '../terminal/pty-supervisor';
import { StatePoller } from '../projects/state-poller';
import { ProjectsStore } from '../projects/projects-store';
import { checkWorkspace } from '../projects/workspace-guard';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';
import { AnsweredSession, LaunchApprovals } from './approvals';
import { ProjectsService } from './projects';
import { SESSION_MODE_WHY } from '../../common/host/labels';

/** sandy arguments a launch may carry; introspection and maintenance flags have their own calls. */
/** The value of a `--agent LIST` among a launch's arguments, if any. */
export function agentOverride(args: readonly string[]): string | undefined {
    const i = args.lastIndexOf('--agent');
    return i >= 0 && typeof args[i + 1] === 'string' && !args[i + 1].startsWith('-') ? args[i + 1] : undefined;
}

// Not `--upgrade`: that is sandy updating itself from the network, not an option of a launch.
const LAUNCH_FLAGS = new Set(['--new', '--resume', '--rebuild', '--agent', '--remote', '-v', '-vv', '-vvv']);

/**
 * Why these launch arguments are not taken (undefined: they are): only sandy's launch flags, each its own
 * string, and a value only as `--agent`'s list of agent names — nothing else reaches sandy's argv (where
 * sandy would pass it on to the agent).
 */
export function launchArgsProblem(args: unknown): string | undefined {
    if (!Array.isArray(args) || args.length > 16 || !args.every(a => typeof a === 'string' && a.length <= 200)) {
        return 'The launch options are not a short list of sandy flags.';
    }
    for (let i = 0; i < args.length; i++) {
        const a = args[i] as string;
        if (a === '--agent') {
            if (!/^[a-z][a-z0-9-]{0,31}(,[a-z][a-z0-9-]{0,31}){0,7}$/.test(String(args[i + 1] ?? ''))) {
                return '--agent needs a comma-separated list of agent names.';
            }
            i++;
        } else if (!LAUNCH_FLAGS.has(a)) {
            return a.startsWith('-') ? `sandy flag ${a} cannot be used for a launch.` : `"${a.slice(0, 40)}" is not a sandy launch option.`;
        }
    }
    return undefined;
}

/** What {@link SandyLauncher.prepareLaunch} leaves: ready to spawn, or the outcome to return instead. */
export type PreparedLaunch =
    | { kind: 'ready'; sandyPath: string; approved: PendingGates | undefined; report: PreflightReport; warnings: string[] }
    | { kind: 'stop'; outcome: LaunchOutcome };

/**
 * A launch from the guard to the spawn: the workspace checked, one session per workspace, only
 * launch flags, pre-flight and the approval token, then sandy on a supervised PTY whose prompts the
 * tab answers for exactly what the user approved.
 */
export class SandyLauncher {
    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly approvals: LaunchApprovals,
        protected readonly projects: ProjectsService,
        protected readonly parts: { supervisor: PtySupervisor; store: ProjectsStore; poller: StatePoller<SandyState> }
    ) { }

    async launch(request: LaunchRequest): Promise<LaunchOutcome> {
        let workspace: string;
        try {
            workspace = await checkWorkspace(request.workspace, this.ctx.home);
        } catch (e) {
            return { kind: 'refused', problem: this.ctx.problemOf(e) };
        }
        const { supervisor } = this.parts;
        const live = supervisor.list().find(s => s.workspace === workspace && s.status !== 'exited');
        if (live) {
            return { kind: 'already-running', session: live };
        }
        const args = request.args ?? [];
        const prepared = await this.prepareLaunch(workspace, request);
        if (prepared.kind !== 'ready') {
            return prepared.outcome;
        }
        const { approved, report, warnings } = prepared;
        const launchConfig = this.effectiveConfig(workspace);
        const mode = this.sessionMode(approved);
        if (mode.why) {
            warnings.push(mode.why);
        }
        let session: SessionInfo | undefined;
        // The gates' answers come from the session's own output, so after it exists. This launch's
        // session only: a daemon session's id is its workspace's, and a later launch has the same one.
        const ended = () => {
            const now = session && supervisor.get(session.id);
            return !now || now.startedAt !== session!.startedAt || now.status === 'exited';
        };
        const launched: AnsweredSession = {
            ended,
            stop: cause => {
                if (!ended()) {
                    supervisor.stop(session!.id, cause).catch(e => this.ctx.logger.warn(`sandy: ${this.ctx.problemOf(e).message}`));
                }
            }
        };
        try {
            // sandy asks its own questions on this PTY (`--start` too: its TTY pre-pass asks before the
            // supervisor forks); the tab answers them only for what the user approved.
            const start = mode.mode === 'daemon' ? supervisor.startDaemon.bind(supervisor) : supervisor.launch.bind(supervisor);
            session = start({
                sandyPath: prepared.sandyPath,
                args,
                workspace,
                env: this.launchEnv(),
                cols: request.cols,
                rows: request.rows,
                // `--agent LIST` overrides SANDY_AGENT for this run (sandy's schema): the session runs those agents.
                agent: agentOverride(args) ?? launchConfig.agent,
                outputObserver: approved && this.approvals.gateResponder(workspace, approved, report, launched).observe
            });
        } catch (e) {
            return { kind: 'refused', problem: this.ctx.problemOf(e) };
        }
        await this.afterLaunch(workspace, args);
        return { kind: 'launched', session, warnings };
    }

    /**
     * Everything a launch does before the spawn: locate sandy, sweep a dead lock, and run pre-flight
     * from the files as they are now (what the user approved must be exactly what sandy will load:
     * the token is the launcher's approval-set hash). A host that cannot host a PTY (VS Code without
     * node-pty) runs the same preparation, then starts sandy in its own terminal with {@link launchEnv}.
     */
    async prepareLaunch(workspace: string, request: Pick<LaunchRequest, 'approvalToken' | 'acceptCompatWarning' | 'args'>): Promise<PreparedLaunch> {
        const bad = launchArgsProblem(request.args ?? []);
        if (bad) {
            return { kind: 'stop', outcome: { kind: 'refused', problem: { code: 'usage', message: bad, hint: 'Use the matching Sandy command instead.' } } };
        }
        await this.discovery.ensureLocated();
        const located = this.discovery.located;
        if (!located) {
            const status = this.discovery.sandyStatus;
            return { kind: 'stop', outcome: { kind: 'refused', problem: status.problem ?? { code: 'not-found', message: 'sandy was not found.', hint: '' } } };
        }
        const sandyPath = located.path;
        const warnings: string[] = [];
        // sandy 2.x sweeps its own stale locks, and says their layout may change in any release: hands off then.
        if (!this.sweepsOwnLocks()) {
            try {
                const sweep = await sweepLocks(this.ctx.sandyHome, workspace);
                if (sweep.outcome === 'removed') {
                    warnings.push(`Removed a stale lock left by a dead sandy (pid ${sweep.pid ?? '?'}).`);
                }
            } catch (e) {
                this.ctx.logger.warn(`sandy: lock sweep failed for ${workspace}: ${this.ctx.problemOf(e).message}`);
            }
        }
        const { report, request: approval, gates, notes } = await this.approvals.analyze(workspace);
        warnings.push(...notes);
        let approved: PendingGates | undefined;
        if (approval) {
            const approvedThis = approval.kind === 'approve' && !!request.approvalToken && request.approvalToken === approval.token;
            const compatAccepted = approval.kind === 'compat' && request.acceptCompatWarning;
            if (!approvedThis && !compatAccepted) {
                return { kind: 'stop', outcome: { kind: 'needs-approval', request: approval } };
            }
            approved = approvedThis ? gates : undefined;
        }
        warnings.push(...await this.projects.validateWarnings(workspace, true));
        return { kind: 'ready', sandyPath, approved, report, warnings };
    }

    /**
     * Whether the located sandy sweeps its own stale workspace locks: sandy 2.x does (schema 2 came with
     * 2.0.0, and its lock layout is no longer a contract). Gated on the schema version, which
     * SPEC_INTROSPECTION tells consumers to gate on, not on a version string (`X.Y.Z-dev` reads as `X.Y.Z`).
     */
    protected sweepsOwnLocks(): boolean {
        return (this.discovery.schema?.schema_version ?? 1) >= 2;
    }

    /**
     * Daemon sessions (they outlive the IDE) unless the user chose the foreground, or this sandy has
     * no daemon mode (its `--print-schema` lists no `--start`/`--attach`/`--stop`); then `why` says
     * which mode the session uses and why.
     */
    sessionMode(approved?: PendingGates): { mode: 'daemon' | 'foreground'; why?: string } {
        if (this.discovery.configuration.sessionMode === 'foreground') {
            return { mode: 'foreground' };
        }
        const schema = this.discovery.schema;
        const version = this.discovery.located?.fullVersion ?? 'this sandy';
        if (!schema) {
            return { mode: 'foreground', why: SESSION_MODE_WHY.noSchema(version) };
        }
        const flags = new Set(schema.cli_flags.map(f => f.name));
        if (!['--start', '--attach', '--stop'].every(f => flags.has(f))) {
            return { mode: 'foreground', why: SESSION_MODE_WHY.noDaemonMode(version) };
        }
        if (approved?.dockerfile || approved?.symlinks) {
            // sandy asks about the project Dockerfile and escaping symlinks only in a foreground launch:
            // `--start` skips the one and refuses the other (CONTRACT §4.2-4.3). This launch records
            // the user's answer; the next one is a daemon session again.
            return { mode: 'foreground', why: SESSION_MODE_WHY.foregroundGates(!!approved.dockerfile, !!approved.symlinks) };
        }
        return { mode: 'daemon' };
    }

    /**
     * The whitelisted environment of a launch. Never `SANDY_AUTO_APPROVE_PRIVILEGED`: it would skip
     * sandy's Dockerfile gate unseen and leave no approval on record (the env whitelist drops it too).
     */
    launchEnv(): Record<string, string> {
        return { ...this.discovery.baseEnv(), TERM: 'xterm-256color', COLORTERM: 'truecolor' };
    }

    /** Record the launch in the projects list and poll. */
    async afterLaunch(workspace: string, args: readonly string[] = []): Promise<void> {
        const launchConfig = this.effectiveConfig(workspace);
        // `--agent LIST` (Launch with…) is what this launch ran.
        await this.parts.store.recordLaunch(workspace, { agent: agentOverride(args) ?? launchConfig.agent, model: launchConfig.model });
        void this.parts.poller.pollNow();
    }

    /** Agent and model as sandy will resolve them: env > workspace > home > default (CONTRACT §3.1). */
    protected effectiveConfig(workspace: string): { agent?: string; model?: string } {
        const read = (file: string) => {
            try {
                return getEffectiveValues(parseConfigFile(readConfigFileSync(file).text));
            } catch {
                // A refused file (symlink, FIFO, over 1 MiB) already stopped the launch in pre-flight.
                return {} as Record<string, string>;
            }
        };
        const { sandyHome } = this.ctx;
        const merged: Record<string, string> = {
            ...read(path.join(sandyHome, 'config')),
            ...read(path.join(sandyHome, '.secrets')),
            ...read(path.join(workspace, '.sandy', 'config')),
            ...read(path.join(workspace, '.sandy', '.secrets'))
        };
        const env = this.ctx.processEnv;
        const agent = env.SANDY_AGENT || merged.SANDY_AGENT || 'claude';
        const model = env.SANDY_MODEL || merged.SANDY_MODEL || undefined;
        return { agent, model };
    }
}
