import { headlessPromptProblem, HeadlessOutcome, headlessRecordText, splitHeadlessOutput } from '../../common/session/headless';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';
import { workspaceLabel } from '../../common/host/labels';
import { SandyError } from '../../common/sandy/errors';
import { checkWorkspace } from '../projects/workspace-guard';
import { HistoryCapture } from './history';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';

/** How long a one-shot may take before it is ended. */
const HEADLESS_TIMEOUT_MS = 30 * 60_000;
/** The most of sandy's stderr a result carries. */
const MAX_STDERR_CHARS = 16_000;

/**
 * `sandy -p <prompt>` in a project (common/session/headless.ts): the workspace guarded as for a launch
 * (never $HOME or a folder outside it), the prompt one argument (no shell), sandy's environment the
 * launch's whitelist; its output split into the answer and sandy's lines and kept in the history.
 */
export class HeadlessRuns {
    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly history: HistoryCapture
    ) { }

    async run(workspace: string, prompt: string): Promise<HeadlessOutcome> {
        const problem = headlessPromptProblem(prompt);
        if (problem) {
            throw new SandyError('usage', problem, 'Type the prompt again.');
        }
        const canonical = await checkWorkspace(workspace, this.ctx.home);
        await this.discovery.ensureLocated();
        const located = this.discovery.located;
        if (!located) {
            throw new SandyError('not-found', this.discovery.sandyStatus.problem?.message ?? 'sandy was not found.', 'Install sandy or set its path in the Sandy settings.');
        }
        const runner = this.discovery.runner(located);
        const startedAt = Date.now();
        const r = await runner.run(['-p', prompt], { cwd: canonical, timeoutMs: HEADLESS_TIMEOUT_MS });
        const { answer, sandyLines } = splitHeadlessOutput(r.stdout);
        const outcome: HeadlessOutcome = { ok: r.exitCode === 0, exitCode: r.exitCode, answer, sandyLines, stderr: r.stderr.slice(-MAX_STDERR_CHARS) };
        outcome.historyId = await this.history.recordOnce(
            { workspace: canonical, project: workspaceLabel(canonical), sandbox: sandboxNameForWorkspace(canonical), mode: 'headless', startedAt },
            headlessRecordText(prompt, outcome),
            { endedAt: Date.now(), exitCode: r.exitCode, ...(r.timedOut ? { endReason: 'timed out' } : {}) }
        ).catch(() => undefined);
        return outcome;
    }
}
