import type { EventLike } from '../base/event';
import { systemTimers, Timers } from '../base/timers';
import type { SandyService } from '../service/service-protocol';
import type { SessionInfo } from '../session/session-types';
import type { AgentChoice, BootstrapProposal, ImageBuildProgress, OnboardingSnapshot } from './onboarding-dto';
import { OnboardingState, StepOutcome, WizardStepId, WIZARD_STEPS } from './onboarding-state';
import { PrerequisiteCheck, PrerequisiteReport, PREREQUISITE_TITLES } from './prerequisites';
import * as words from './wizard-labels';

/*
 * The Get Started wizard, written once for both hosts: which step is on screen, what unlocks Next
 * (the wizard never advances by itself), what each action does, and what is remembered in
 * `~/.sandy-ui/onboarding.json`. The host shows core's WizardView and implements the ports.
 */

export type WizardService = Pick<SandyService,
    'getOnboarding' | 'saveOnboarding' | 'prerequisites' | 'agentChoices' | 'settingsBootstrap' | 'saveSettings' | 'startImageBuild' | 'imageBuild'>;

export interface WizardHost {
    writeClipboard(text: string): Promise<void>;
    info(message: string): void;
    error(message: string): void;
    /** A terminal tab of the IDE running `command` (always one of core's fixed commands) in `cwd` (never a workspace). */
    runInTerminal(title: string, command: string, cwd: string): Promise<void>;
    /** The settings editor, Global scope, scrolled to `key` (a secret key: its write-only field). */
    openSettings(key: string): Promise<void>;
    /** Launches sandy in the workspace through the usual launch flow (pre-flight, its tab). */
    launch(workspace: string): Promise<void>;
    /** Shows the session's tab. */
    showSession(session: SessionInfo): Promise<void>;
    /** Add Project (its folder picker). */
    addProject(): Promise<void>;
    /** The window's live sessions and their changes. */
    sessions(): SessionInfo[];
    onDidChangeSession: EventLike<SessionInfo>;
}

export interface WizardViewPort {
    render(model: WizardModel): void;
}

export type StepState = 'current' | 'done' | 'skipped' | 'todo';

export interface WizardCheckRow extends PrerequisiteCheck {
    title: string;
}

export interface WizardAgentRow {
    name: string;
    description: string;
    found: string[];
    recommended: boolean;
    selected: boolean;
    fix: string;
}

export interface WizardAuthRow {
    name: string;
    ready: boolean;
    text: string;
    actions: Array<{ id: 'login' | 'key'; label: string; detail: string }>;
}

export type WizardStepModel =
    | { id: 'prerequisites'; checks: WizardCheckRow[]; checking: boolean; intro: string }
    | { id: 'macos'; lines: string[] }
    | { id: 'agents'; intro: string; agents: WizardAgentRow[]; proposals: Array<BootstrapProposal & { accepted: boolean }>; writes: string }
    | { id: 'auth'; intro: string; agents: WizardAuthRow[] }
    | { id: 'build'; intro: string; progress: ImageBuildProgress; logOpen: boolean; action?: string }
    | { id: 'test'; intro: string; state: TestState; text: string; workspace: string }
    | { id: 'finished'; lines: string[] };

export type TestState = 'idle' | 'starting' | 'confirmed' | 'failed';

export interface WizardModel {
    title: string;
    steps: Array<{ id: WizardStepId; title: string; state: StepState }>;
    step: WizardStepModel;
    back: boolean;
    next: { label: string; enabled: boolean; why?: string };
    skip: boolean;
    /** A problem with the last action (a failed save, an unreachable backend), shown above the buttons. */
    problem?: string;
}

/** What the view sends back: a button or a checkbox. */
export type WizardAction =
    | { type: 'next' } | { type: 'back' } | { type: 'skip' } | { type: 'check' } | { type: 'goto'; step: WizardStepId }
    | { type: 'copy'; check: string } | { type: 'run'; check: string }
    | { type: 'toggle-agent'; agent: string } | { type: 'toggle-proposal'; key: string }
    | { type: 'auth'; agent: string; action: 'login' | 'key' }
    | { type: 'build' } | { type: 'toggle-log' }
    | { type: 'start-test' } | { type: 'show-session' } | { type: 'add-project' };

export const PREREQUISITE_POLL_MS = 3000;
export const BUILD_POLL_MS = 1000;

export class WizardController {
    protected snapshot: OnboardingSnapshot | undefined;
    protected state: OnboardingState = { version: 1, steps: {} };
    protected current: WizardStepId | 'finished' = 'prerequisites';
    protected report: PrerequisiteReport | undefined;
    protected checking = false;
    protected agents: AgentChoice[] | undefined;
    protected selected = new Set<string>();
    protected proposals: Array<BootstrapProposal & { accepted: boolean }> = [];
    protected build: ImageBuildProgress = { state: 'idle', lines: [], log: '', status: words.BUILD_NOT_STARTED_TEXT };
    protected logOpen = false;
    protected test: { state: TestState; sessionId?: string; readySince?: number; text: string } = { state: 'idle', text: '' };
    protected problem: string | undefined;
    protected visible = false;
    protected timer: unknown;
    protected readonly timers: Timers;
    protected disposed = false;
    protected readonly subscription: { dispose(): void };

    constructor(protected readonly ports: { service: WizardService; host: WizardHost; view: WizardViewPort; timers?: Timers }) {
        this.timers = ports.timers ?? systemTimers;
        this.subscription = ports.host.onDidChangeSession(session => this.sessionChanged(session));
    }

    /** Loads the remembered state and shows the step the user left (or the first). */
    async start(): Promise<void> {
        try {
            this.snapshot = await this.ports.service.getOnboarding();
        } catch (e) {
            this.fail(e);
            return;
        }
        this.state = this.snapshot.state ?? { version: 1, steps: {} };
        const steps = this.steps();
        this.current = this.state.current && steps.includes(this.state.current) ? this.state.current : steps[0];
        if (this.state.agents?.length) {
            this.selected = new Set(this.state.agents);
        }
        this.render();
        await this.enter().catch(e => this.fail(e));
    }

    setVisible(visible: boolean): void {
        this.visible = visible;
        this.schedule();
    }

    dispose(): void {
        this.disposed = true;
        this.subscription.dispose();
        this.timers.clearTimeout(this.timer);
    }

    /** The steps of this machine: the macOS note only on macOS. */
    steps(): WizardStepId[] {
        return WIZARD_STEPS.filter(s => s !== 'macos' || this.snapshot?.platform === 'darwin');
    }

    /** One action at a time, in order: a double click on Next cannot skip the step after it unseen. */
    act(action: WizardAction): Promise<void> {
        const run = async (): Promise<void> => {
            this.problem = undefined;
            try {
                await this.handle(action);
            } catch (e) {
                this.fail(e);
                return;
            }
            this.render();
        };
        this.acting = this.acting.then(run, run);
        return this.acting;
    }

    protected acting: Promise<void> = Promise.resolve();

    protected async handle(action: WizardAction): Promise<void> {
        switch (action.type) {
            case 'next': return this.next();
            case 'back': return this.back();
            case 'skip': return this.advance('skipped');
            case 'goto': return this.goto(action.step);
            case 'check': return this.recheck();
            case 'copy': {
                const fix = this.report?.checks.find(c => c.id === action.check)?.fix;
                if (fix) {
                    await this.ports.host.writeClipboard(fix.command);
                    this.ports.host.info(words.COPIED_TEXT);
                }
                return;
            }
            case 'run': {
                const check = this.report?.checks.find(c => c.id === action.check);
                if (check?.fix && this.snapshot) {
                    await this.ports.host.runInTerminal(words.fixTerminalTitle(PREREQUISITE_TITLES[check.id]), check.fix.command, this.snapshot.terminalFolder);
                }
                return;
            }
            case 'toggle-agent':
                if (this.agents?.some(a => a.name === action.agent)) {
                    if (!this.selected.delete(action.agent)) {
                        this.selected.add(action.agent);
                    }
                }
                return;
            case 'toggle-proposal':
                this.proposals = this.proposals.map(p => p.key === action.key ? { ...p, accepted: !p.accepted } : p);
                return;
            case 'auth': {
                const agent = this.agents?.find(a => a.name === action.agent);
                if (action.action === 'login' && agent?.loginCommand && this.snapshot) {
                    await this.ports.host.runInTerminal(words.loginTerminalTitle(agent.name), agent.loginCommand, this.snapshot.terminalFolder);
                } else if (action.action === 'key' && agent?.secretKeys.length) {
                    await this.ports.host.openSettings(agent.secretKeys[0]);
                }
                return;
            }
            case 'build':
                if (this.build.state !== 'running') {
                    this.build = await this.ports.service.startImageBuild();
                    this.schedule();
                }
                return;
            case 'toggle-log':
                this.logOpen = !this.logOpen;
                return;
            case 'start-test':
                return this.startTest();
            case 'show-session': {
                const session = this.testSession();
                if (session) {
                    await this.ports.host.showSession(session);
                }
                return;
            }
            case 'add-project':
                return this.ports.host.addProject();
        }
    }

    protected async next(): Promise<void> {
        if (!this.nextState().enabled) {
            return;
        }
        if (this.current === 'agents') {
            await this.writeAgentChoice();
        }
        await this.advance('done');
    }

    protected async back(): Promise<void> {
        const steps = this.steps();
        const at = this.current === 'finished' ? steps.length : steps.indexOf(this.current);
        if (at > 0) {
            this.current = steps[at - 1];
            await this.remember();
            await this.enter();
        }
    }

    /** Any step of this machine, from the step list: every step stays reachable after the first run. */
    protected async goto(step: WizardStepId): Promise<void> {
        if (this.steps().includes(step) && step !== this.current) {
            this.current = step;
            await this.remember();
            await this.enter();
        }
    }

    protected async advance(outcome: StepOutcome): Promise<void> {
        if (this.current === 'finished') {
            return;
        }
        this.state.steps[this.current] = outcome;
        const steps = this.steps();
        const at = steps.indexOf(this.current);
        if (at + 1 < steps.length) {
            this.current = steps[at + 1];
        } else {
            this.current = 'finished';
            this.state.finishedAt = Date.now();
        }
        await this.remember();
        await this.enter();
    }

    /** What a step needs when it comes on screen. */
    protected async enter(): Promise<void> {
        this.render();
        switch (this.current) {
            case 'prerequisites':
                await this.recheck();
                break;
            case 'agents':
            case 'auth':
                await this.loadAgents();
                break;
            case 'build':
                this.build = await this.ports.service.imageBuild();
                break;
            default:
                break;
        }
        this.render();
        this.schedule();
    }

    protected async recheck(): Promise<void> {
        this.checking = true;
        this.render();
        try {
            this.report = await this.ports.service.prerequisites();
        } finally {
            this.checking = false;
        }
    }

    protected async loadAgents(): Promise<void> {
        const [agents, proposals] = await Promise.all([this.ports.service.agentChoices(), this.agents ? Promise.resolve(undefined) : this.ports.service.settingsBootstrap()]);
        const first = !this.agents;
        this.agents = agents;
        if (proposals) {
            this.proposals = proposals.map(p => ({ ...p, accepted: true }));
        }
        if (first && !this.selected.size) {
            // The recommendation: every agent with credentials already on this machine, else claude (sandy's default).
            const recommended = agents.filter(a => a.recommended).map(a => a.name);
            this.selected = new Set(recommended.length ? recommended : agents.slice(0, 1).map(a => a.name));
        }
        for (const name of [...this.selected]) {
            if (!agents.some(a => a.name === name)) {
                this.selected.delete(name);
            }
        }
    }

    /** The picked agents (and the accepted proposals) to `~/.sandy/config`, through the settings save path. */
    protected async writeAgentChoice(): Promise<void> {
        const agents = this.selectedAgents();
        if (!agents.length) {
            // Never an empty SANDY_AGENT over the user's own (the list not loaded yet, or nothing picked).
            throw new Error(words.PICK_AN_AGENT_TEXT);
        }
        const config = [{ key: 'SANDY_AGENT', value: agents.join(',') }, ...this.proposals.filter(p => p.accepted).map(p => ({ key: p.key, value: p.value }))];
        const result = await this.ports.service.saveSettings('global', undefined, { config, secrets: [] });
        if (!result.ok) {
            throw new Error(words.saveFailedText(result.error ? `${result.error.message} ${result.error.hint ?? ""}`.trim() : undefined));
        }
        this.state.agents = agents;
    }

    protected selectedAgents(): string[] {
        return (this.agents ?? []).map(a => a.name).filter(n => this.selected.has(n));
    }

    protected async startTest(): Promise<void> {
        const workspace = this.snapshot?.firstSessionWorkspace;
        if (!workspace) {
            return;
        }
        this.test = { state: 'starting', text: words.TEST_STARTING_TEXT };
        this.render();
        await this.ports.host.launch(workspace);
        const session = this.ports.host.sessions().find(s => s.workspace === workspace && s.status !== 'exited');
        if (session) {
            this.sessionChanged(session);
        }
    }

    protected testSession(): SessionInfo | undefined {
        const workspace = this.snapshot?.firstSessionWorkspace;
        return this.ports.host.sessions().find(s => s.workspace === workspace && (s.id === this.test.sessionId || s.status !== 'exited'));
    }

    /**
     * The test session is confirmed once the agent answered: sandy said it is attachable (or, in the
     * foreground, it runs) and output came after that — the agent drawing its screen.
     */
    protected sessionChanged(session: SessionInfo): void {
        if (this.disposed || this.test.state === 'idle' || this.test.state === 'confirmed' || session.workspace !== this.snapshot?.firstSessionWorkspace) {
            return;
        }
        this.test.sessionId = session.id;
        if (session.status === 'exited') {
            this.test = { state: 'failed', sessionId: session.id, text: words.testEndedText(session.exitCode) };
        } else {
            const ready = session.mode === 'foreground' || session.startPhase === 'ready' || (session.link !== undefined && session.startPhase === undefined);
            if (ready && this.test.readySince === undefined) {
                this.test.readySince = Date.now();
            }
            if (ready && session.lastOutputAt !== undefined && session.lastOutputAt >= (this.test.readySince ?? Infinity) - 1000) {
                this.test = { state: 'confirmed', sessionId: session.id, text: words.TEST_CONFIRMED_TEXT };
            } else {
                this.test.text = ready ? words.TEST_WAITING_FOR_AGENT_TEXT : words.TEST_STARTING_TEXT;
            }
        }
        this.render();
    }

    protected async remember(): Promise<void> {
        this.state.current = this.current === 'finished' ? undefined : this.current;
        this.state = await this.ports.service.saveOnboarding(this.state);
    }

    /** Closing the wizard before it finished: not offered again at start (in the Sandy IDE, only when sandy goes missing). */
    async dismiss(): Promise<void> {
        if (this.state.finishedAt === undefined && this.state.dismissedAt === undefined && this.snapshot) {
            this.state.dismissedAt = Date.now();
            await this.remember().catch(() => undefined);
        }
    }

    /** Re-checks and build progress, only while the wizard is on screen. */
    protected schedule(): void {
        this.timers.clearTimeout(this.timer);
        this.timer = undefined;
        if (this.disposed || !this.visible) {
            return;
        }
        const poll = this.current === 'prerequisites' ? PREREQUISITE_POLL_MS
            : this.current === 'build' && this.build.state === 'running' ? BUILD_POLL_MS : undefined;
        if (poll === undefined) {
            return;
        }
        this.timer = this.timers.setTimeout(() => void this.tick(), poll);
    }

    protected async tick(): Promise<void> {
        try {
            if (this.current === 'prerequisites' && !this.checking) {
                await this.recheck();
            } else if (this.current === 'build') {
                this.build = await this.ports.service.imageBuild();
            }
        } catch (e) {
            this.problem = words.problemOf(e);
        }
        this.render();
        this.schedule();
    }

    protected fail(e: unknown): void {
        this.problem = words.problemOf(e);
        this.render();
    }

    protected nextState(): WizardModel['next'] {
        switch (this.current) {
            case 'prerequisites': {
                const failing = this.report?.checks.filter(c => c.status === 'fail') ?? [];
                return !this.report ? { label: words.NEXT_LABEL, enabled: false, why: words.CHECKING_TEXT }
                    : failing.length ? { label: words.NEXT_LABEL, enabled: false, why: words.fixFirstText(failing.map(c => PREREQUISITE_TITLES[c.id])) }
                        : { label: words.NEXT_LABEL, enabled: true };
            }
            case 'agents':
                return !this.agents ? { label: words.NEXT_LABEL, enabled: false, why: words.CHECKING_TEXT }
                    : this.selectedAgents().length ? { label: words.NEXT_LABEL, enabled: true } : { label: words.NEXT_LABEL, enabled: false, why: words.PICK_AN_AGENT_TEXT };
            case 'build':
                return this.build.state === 'done' ? { label: words.NEXT_LABEL, enabled: true } : { label: words.NEXT_LABEL, enabled: false, why: words.BUILD_FIRST_TEXT };
            case 'test':
                return this.test.state === 'confirmed' ? { label: words.FINISH_LABEL, enabled: true } : { label: words.FINISH_LABEL, enabled: false, why: words.TEST_FIRST_TEXT };
            case 'finished':
                return { label: words.NEXT_LABEL, enabled: false };
            default:
                return { label: words.NEXT_LABEL, enabled: true };
        }
    }

    model(): WizardModel {
        const steps = this.steps();
        const at = this.current === 'finished' ? steps.length : steps.indexOf(this.current);
        return {
            title: words.WIZARD_TITLE,
            steps: steps.map((id, i) => ({
                id, title: words.STEP_TITLES[id],
                state: i === at ? 'current' : this.state.steps[id] ?? (i < at ? 'done' : 'todo')
            })),
            step: this.stepModel(),
            back: at > 0 && this.current !== 'finished',
            next: this.nextState(),
            skip: this.current !== 'finished',
            ...(this.problem ? { problem: this.problem } : {})
        };
    }

    protected stepModel(): WizardStepModel {
        switch (this.current) {
            case 'prerequisites':
                return {
                    id: 'prerequisites', intro: words.PREREQUISITES_INTRO, checking: this.checking,
                    checks: (this.report?.checks ?? []).map(c => ({ ...c, title: PREREQUISITE_TITLES[c.id] }))
                };
            case 'macos':
                return { id: 'macos', lines: words.MACOS_LINES };
            case 'agents': {
                const agents = (this.agents ?? []).map(a => ({
                    name: a.name, description: a.description, found: a.found, recommended: a.recommended, selected: this.selected.has(a.name), fix: a.fix
                }));
                return {
                    id: 'agents', intro: words.AGENTS_INTRO, agents, proposals: this.proposals,
                    writes: words.agentWritesText(this.selectedAgents(), this.proposals.filter(p => p.accepted))
                };
            }
            case 'auth':
                return {
                    id: 'auth', intro: words.AUTH_INTRO,
                    agents: (this.agents ?? []).filter(a => this.selected.has(a.name)).map(a => ({
                        name: a.name,
                        ready: a.found.length > 0,
                        text: a.found.length ? words.credentialFoundText(a.found) : a.fix,
                        actions: [
                            ...(a.loginCommand ? [{ id: 'login' as const, label: words.LOGIN_LABEL, detail: a.loginCommand }] : []),
                            ...(a.secretKeys.length ? [{ id: 'key' as const, label: words.enterKeyLabel(a.secretKeys[0]), detail: words.ENTER_KEY_DETAIL }] : [])
                        ]
                    }))
                };
            case 'build':
                return {
                    id: 'build', intro: words.BUILD_INTRO, progress: this.build, logOpen: this.logOpen,
                    ...(this.build.state === 'running' ? {} : { action: this.build.state === 'idle' ? words.BUILD_LABEL : words.REBUILD_LABEL })
                };
            case 'test':
                return { id: 'test', intro: words.TEST_INTRO, state: this.test.state, text: this.test.text, workspace: this.snapshot?.firstSessionWorkspace ?? '' };
            case 'finished':
                return { id: 'finished', lines: words.FINISHED_LINES };
        }
    }

    protected render(): void {
        if (!this.disposed) {
            this.ports.view.render(this.model());
        }
    }
}
