import * as fs from 'fs';
import { FleetActionId, fleetAction, fleetArgs, FleetOptions, fleetOptionsProblem, FleetPlan, planSaysNothingToDo, UntrustedOrphan } from '../../common/maintenance/fleet';
import { Sandbox } from '../../common/sandy/contract';
import { RunOutcome } from '../../common/service/service-protocol';
import { recordedPathNamesSandbox } from '../../common/projects/project-state';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';
import { SnapshotPublisher } from './snapshots';

/** How long a folder's existence is asked before it counts as present (a hung network mount). */
const FOLDER_CHECK_MS = 2000;

/**
 * sandy's fleet maintenance commands (common/maintenance/fleet.ts): the plan (`--dry-run`) and the
 * run, one at a time. Sandbox removal of orphans goes by name, one sandbox at a time, and only for
 * sandboxes whose recorded folder is gone and hashes to their name: sandy's own `--orphans` would also
 * take a sandbox whose path it cut at a `"` (CONTRACT §0.9), whose project may well exist.
 */
export class FleetMaintenance {
    protected running: Promise<unknown> | undefined;

    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly snapshots: SnapshotPublisher,
        /** A --print-state that begins now (the orphans are judged on the state after any change). */
        protected readonly pollFresh: () => Promise<{ ok: boolean }>,
        /** Where sandy runs: never a workspace (SandboxMaintenance.maintenanceCwd). */
        protected readonly cwd: () => string
    ) { }

    async plan(id: FleetActionId, options: FleetOptions = {}): Promise<FleetPlan> {
        const action = this.offered(id, options);
        const orphans = action.id === 'removeOrphans' ? await this.currentOrphans() : undefined;
        if (!action.dryRun) {
            return { action: id, text: '', ok: true, nothingToDo: false };
        }
        const result = await this.run(fleetArgs(action, 'plan', options), action.timeoutMs);
        const text = [result.stdout, result.stderr].filter(t => t.trim()).join('\n');
        const plan: FleetPlan = { action: id, text, exitCode: result.exitCode, ok: result.exitCode === 0, nothingToDo: planSaysNothingToDo(id, text) };
        if (orphans) {
            plan.targets = orphans.trusted.map(s => ({ name: s.name, recordedPath: s.workspace_path }));
            plan.untrusted = orphans.untrusted;
            plan.nothingToDo = plan.targets.length === 0;
        }
        return plan;
    }

    async execute(id: FleetActionId, options: FleetOptions = {}): Promise<RunOutcome> {
        const action = this.offered(id, options);
        if (action.id === 'removeOrphans' && !options.targets) {
            throw new Error('Removing orphaned sandboxes needs the sandboxes of its plan.');
        }
        if (this.running) {
            return { ok: false, stdout: '', stderr: 'Another fleet maintenance command is running; wait for it to finish.' };
        }
        const work = (async (): Promise<RunOutcome> => {
            if (action.id !== 'removeOrphans') {
                const r = await this.run(fleetArgs(action, 'run', options), action.timeoutMs);
                return { ok: r.exitCode === 0, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
            }
            // By name, each checked again now: never sandy's --orphans (see the class comment), and only
            // those of the plan the user accepted.
            const planned = new Set(options.targets);
            const out: string[] = [];
            const err: string[] = [];
            let exitCode = 0;
            for (const sandbox of (await this.currentOrphans()).trusted.filter(s => planned.has(s.name))) {
                const r = await this.run(['--remove-sandbox', `--sandbox=${sandbox.name}`, '--yes'], action.timeoutMs);
                out.push(r.stdout.trim());
                if (r.exitCode !== 0) {
                    exitCode = r.exitCode;
                    err.push(`${sandbox.name}: ${(r.stderr || r.stdout).trim()}`);
                }
            }
            return { ok: exitCode === 0, exitCode, stdout: out.filter(Boolean).join('\n'), stderr: err.join('\n') };
        })();
        this.running = work;
        try {
            return await work;
        } finally {
            this.running = undefined;
            void this.pollFresh().catch(() => undefined);
        }
    }

    /** The orphans of a --print-state made now; none judged on an older one. */
    protected async currentOrphans(): Promise<{ trusted: Sandbox[]; untrusted: UntrustedOrphan[] }> {
        const poll = await this.pollFresh();
        if (!poll.ok) {
            throw new Error('sandy --print-state did not answer, so no sandbox can be judged an orphan now; try again.');
        }
        return await this.orphans();
    }

    /** The sandboxes whose project folder is gone: trusted when their recorded path hashes to their name. */
    protected async orphans(): Promise<{ trusted: Sandbox[]; untrusted: UntrustedOrphan[] }> {
        const trusted: Sandbox[] = [];
        const untrusted: UntrustedOrphan[] = [];
        for (const s of this.snapshots.latestState?.sandboxes ?? []) {
            if (!s.workspace_path || s.lock_held || !await this.folderGone(s)) {
                continue;
            }
            if (recordedPathNamesSandbox(s)) {
                trusted.push(s);
            } else {
                untrusted.push({ name: s.name, recordedPath: s.workspace_path });
            }
        }
        return { trusted, untrusted };
    }

    /** Gone only when the file system says so now (a folder on a mount that does not answer is not gone). */
    protected async folderGone(s: Sandbox): Promise<boolean> {
        if (s.workspace_exists === true) {
            return false;
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        const verdict = await Promise.race([
            fs.promises.stat(s.workspace_path).then(() => false, (e: NodeJS.ErrnoException) => e.code === 'ENOENT'),
            new Promise<boolean>(resolve => timer = setTimeout(() => resolve(false), FOLDER_CHECK_MS))
        ]);
        clearTimeout(timer);
        return verdict;
    }

    protected offered(id: FleetActionId, options: FleetOptions): NonNullable<ReturnType<typeof fleetAction>> {
        const action = fleetAction(id);
        const flags = this.discovery.schema?.cli_flags.map(f => f.name) ?? [];
        if (!action || !flags.includes(action.flag)) {
            throw new Error(`sandy does not offer ${action?.flag ?? String(id)}.`);
        }
        const problem = fleetOptionsProblem(options);
        if (problem) {
            throw new Error(problem);
        }
        return action;
    }

    protected async run(args: string[], timeoutMs: number): Promise<{ exitCode: number; stdout: string; stderr: string }> {
        await this.discovery.ensureLocated();
        const located = this.discovery.located;
        if (!located) {
            return { exitCode: -1, stdout: '', stderr: this.discovery.sandyStatus.problem?.message ?? 'sandy was not found.' };
        }
        const runner = this.discovery.runner(located);
        try {
            const r = await runner.run(args, { timeoutMs, cwd: this.cwd() });
            return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
        } catch (e) {
            const problem = this.ctx.problemOf(e);
            return { exitCode: -1, stdout: '', stderr: `${problem.message} ${problem.hint}`.trim() };
        }
    }
}
