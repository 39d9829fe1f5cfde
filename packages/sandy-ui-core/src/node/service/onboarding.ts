import { isSecretKey } from '../../common/sandy/contract';
import * as path from 'path';
import { AgentChoice, BootstrapProposal, ImageBuildProgress, OnboardingSnapshot } from '../../common/onboarding/onboarding-dto';
import { offerWizardAtStart, OnboardingState } from '../../common/onboarding/onboarding-state';
import { PrerequisiteReport } from '../../common/onboarding/prerequisites';
import { agentDescription, credentialFindingText, decideCredentials } from '../../common/onboarding/credentials';
import { BuildTimelineParser, buildStateText, buildTimelineText } from '../../common/onboarding/build-timeline';
import { BUILD_NOT_STARTED_TEXT } from '../../common/onboarding/wizard-labels';
import { evaluateCompat } from '../../common/sandy/compat';
import { stripAnsi } from '../../common/session/daemon-output';
import { proposeClaudeBootstrap } from '../onboarding/claude-bootstrap';
import { probeCredentials } from '../onboarding/credential-probe';
import { OnboardingStore } from '../onboarding/onboarding-store';
import { checkPrerequisites, findOnPath, shellQuote } from '../onboarding/prerequisites';
import { sandyInstalledAt } from '../sandy/locate';
import { BuildGate } from '../terminal/build-gate';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';

/** The longest a first build may take (sandy's base image alone can take many minutes on a slow link). */
const BUILD_TIMEOUT_MS = 60 * 60_000;
/** The raw log kept for "Show the raw log": its tail. */
const MAX_LOG_CHARS = 256 * 1024;

/**
 * The Get Started wizard's backend: its state file, the prerequisite checks, the agents and their
 * credentials, the settings bootstrap, and the image build (`sandy --build-only` in the wizard's own
 * throwaway workspace, never a project, one at a time, with the same whitelisted environment as
 * every sandy the service runs).
 */
export class OnboardingService {
    protected build: { progress: ImageBuildProgress; parser?: BuildTimelineParser; running?: Promise<void> } = { progress: { state: 'idle', lines: [], log: '', status: BUILD_NOT_STARTED_TEXT } };

    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly store: OnboardingStore,
        /** The launches' turn through sandy's build (sandy rewrites its build files in SANDY_HOME on every build). */
        protected readonly buildGate: BuildGate = new BuildGate(),
        protected readonly platform: NodeJS.Platform = process.platform
    ) { }

    async getOnboarding(): Promise<OnboardingSnapshot> {
        const [state, status, firstSessionWorkspace, terminalFolder] = await Promise.all([
            this.store.read(), this.discovery.ensureLocated(), this.store.firstSessionWorkspace(), this.store.terminalFolder()
        ]);
        return { state, sandyFound: status.found, platform: this.platform, firstSessionWorkspace, terminalFolder };
    }

    /**
     * Whether Get Started opens by itself at this start (core's offerWizardAtStart), decided without
     * running sandy: the state file, and whether an executable sits where sandy is looked for
     * (`sandyPath`, else the configured one, then PATH and the usual folders). A host that starts
     * nothing until a window shows sandy state asks this at start-up. `whileSandyMissing`: see offerWizardAtStart
     * (anything but `false` counts as true: it arrives over RPC in Theia).
     */
    async wizardAtStart(sandyPath?: string, whileSandyMissing?: boolean): Promise<boolean> {
        // It arrives over RPC in Theia: only an absolute path (or `~/…`, as the setting allows) is looked at.
        const given = typeof sandyPath === 'string' && sandyPath.length <= 4096 && !sandyPath.includes('\0')
            && (path.isAbsolute(sandyPath) || sandyPath.startsWith('~/')) ? sandyPath : undefined;
        const [state, installed] = await Promise.all([
            this.store.read(),
            sandyInstalledAt(given ?? this.discovery.configuration.sandyPath, this.ctx.processEnv.PATH, this.ctx.home)
        ]);
        return offerWizardAtStart(state, installed !== undefined, whileSandyMissing !== false);
    }

    saveOnboarding(state: OnboardingState): Promise<OnboardingState> {
        return this.store.write(state);
    }

    async prerequisites(): Promise<PrerequisiteReport> {
        const status = await this.discovery.ensureLocated();
        const located = this.discovery.located;
        return checkPrerequisites({
            sandy: located ? { located } : { problem: status.problem ?? { code: 'not-found', message: 'sandy was not found.', hint: '' } },
            compat: located ? evaluateCompat({ sandyVersion: located.fullVersion, schemaVersion: status.schemaVersion, schemaFailed: status.found && status.schemaVersion === undefined }) : undefined,
            env: this.ctx.processEnv, home: this.ctx.home, sandyHome: this.discovery.launchSandyHome, platform: this.platform
        });
    }

    async agentChoices(): Promise<AgentChoice[]> {
        await this.discovery.ensureLocated();
        const { schema } = this.discovery.schemaInput();
        const facts = await probeCredentials({
            home: this.ctx.home, env: this.discovery.baseEnv(), sandyHome: this.discovery.launchSandyHome, platform: this.platform
        }, schema.agents);
        const claude = await findOnPath('claude', this.ctx.processEnv.PATH);
        return decideCredentials(schema.agents, facts).map(c => {
            const agent = schema.agents.find(a => a.name === c.agent);
            const probes = agent?.credentials?.probe_order ?? [];
            return {
                name: c.agent,
                description: agentDescription(c.agent),
                found: c.found.map(f => credentialFindingText(c.agent, f)),
                recommended: c.recommended,
                fix: c.fix || c.explanation,
                // The probes that are sandy config keys of type secret: what the settings editor's secret field writes.
                secretKeys: probes.filter(p => schema.config.privileged_keys.some(k => k.name === p && isSecretKey(k))),
                ...(c.agent === 'claude' && claude ? { loginCommand: `${shellQuote(claude)} /login` } : {})
            };
        });
    }

    async settingsBootstrap(): Promise<BootstrapProposal[]> {
        return proposeClaudeBootstrap({ home: this.ctx.home, sandyHome: this.discovery.launchSandyHome });
    }

    imageBuild(): Promise<ImageBuildProgress> {
        return Promise.resolve(this.progress());
    }

    startImageBuild(): Promise<ImageBuildProgress> {
        // Marked as running before the first await: two clicks (or two windows) start one build.
        if (!this.build.running) {
            const progress: ImageBuildProgress = { state: 'running', startedAt: Date.now(), lines: [], log: '', status: '' };
            const parser = new BuildTimelineParser(() => Date.now());
            this.build = { progress, parser };
            this.build.running = this.runBuild(progress, parser).finally(() => {
                progress.endedAt = Date.now();
                this.build.running = undefined;
            });
        }
        return Promise.resolve(this.progress());
    }

    /** `sandy --build-only` in the wizard's workspace, in its turn through the launches' build gate. */
    protected async runBuild(progress: ImageBuildProgress, parser: BuildTimelineParser): Promise<void> {
        const fail = (error: string): void => {
            parser.end(undefined);
            progress.state = 'failed';
            progress.error = error;
        };
        let turn: ReturnType<BuildGate['enter']> | undefined;
        try {
            await this.discovery.ensureLocated();
            const located = this.discovery.located;
            if (!located) {
                const problem = this.discovery.sandyStatus.problem;
                fail(problem ? `${problem.message} ${problem.hint}`.trim() : 'sandy was not found.');
                return;
            }
            const workspace = await this.store.firstSessionWorkspace();
            turn = this.buildGate.enter();
            await turn.ready;
            const runner = this.discovery.runner(located);
            // sandy's errors go to stderr, uncoloured on a pipe: the parser reads them by stream.
            const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
            const result = await runner.run(['--build-only'], {
                cwd: workspace, timeoutMs: BUILD_TIMEOUT_MS,
                onOutput: (chunk, stream) => {
                    const text = decoders[stream].decode(chunk, { stream: true });
                    parser.push(text, stream);
                    progress.log = (progress.log + stripAnsi(text)).slice(-MAX_LOG_CHARS);
                }
            });
            parser.end(result.exitCode);
            progress.exitCode = result.exitCode;
            progress.state = result.exitCode === 0 ? 'done' : 'failed';
            if (result.exitCode !== 0) {
                progress.error = parser.timeline().error ?? (result.timedOut ? 'the build took longer than an hour and was stopped.' : lastLine(result.stderr) ?? `sandy exited with ${result.exitCode ?? result.signal}.`);
            }
            this.ctx.logger.info(`sandy: the Get Started image build ended: ${progress.state}`);
        } catch (e) {
            const problem = this.ctx.problemOf(e);
            fail(`${problem.message} ${problem.hint}`.trim());
        } finally {
            turn?.release();
        }
    }

    protected progress(): ImageBuildProgress {
        const { progress, parser } = this.build;
        if (!parser) {
            return { ...progress };
        }
        const timeline = parser.timeline();
        // The process's end decides: a parser that saw sandy's last line early still waits for the exit.
        const state = progress.state === 'running' ? 'building' : progress.state === 'done' ? 'done' : 'failed';
        const error = progress.state === 'failed' ? timeline.error ?? progress.error : undefined;
        return { ...progress, lines: buildTimelineText(timeline, Date.now()), status: buildStateText({ ...timeline, state, ...(error ? { error } : {}) }) };
    }
}

function lastLine(text: string): string | undefined {
    return stripAnsi(text).split('\n').map(l => l.trim()).filter(Boolean).pop()?.slice(0, 300);
}
