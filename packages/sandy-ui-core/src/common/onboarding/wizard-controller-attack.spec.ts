/*
 * Hostile review of issue 12: the wizard controller acting on a button while the step it belongs to
 * is still loading. Not in any mocharc suite; run with
 *   npx mocha packages/sandy-ui-core/lib/common/onboarding/wizard-controller.attack-spec.js
 */
import { expect } from 'chai';
import type { SettingsEdits, SettingsScope } from '../settings/settings-dto';
import type { AgentChoice, ImageBuildProgress, OnboardingSnapshot } from './onboarding-dto';
import type { OnboardingState } from './onboarding-state';
import { reportOf } from './prerequisites';
import { WizardController, WizardHost, WizardModel, WizardService } from './wizard-controller';

const WS = '/home/u/.sandy-ui/first-session';

describe('WizardController attack: Next while the agents step is loading', () => {
    it('never writes SANDY_AGENT from a list it has not loaded (a re-run: the user picked claude,codex before)', async () => {
        const writes: Array<{ scope: SettingsScope; edits: SettingsEdits }> = [];
        let releaseAgents!: () => void;
        const agentsGate = new Promise<void>(r => releaseAgents = r);
        const agents: AgentChoice[] = [
            { name: 'claude', description: '', found: ['x'], recommended: true, fix: '', secretKeys: [] },
            { name: 'codex', description: '', found: [], recommended: false, fix: '', secretKeys: [] }
        ];
        // The wizard ran before: it remembers the agents, and it is opened again from the palette.
        const remembered: OnboardingState = { version: 1, steps: { prerequisites: 'done', agents: 'done' }, agents: ['claude', 'codex'], current: 'build', finishedAt: 5 };
        const snapshot: OnboardingSnapshot = { state: remembered, sandyFound: true, platform: 'linux', firstSessionWorkspace: WS, terminalFolder: '/home/u/.sandy-ui/terminal' };
        const build: ImageBuildProgress = { state: 'idle', lines: [], log: '', status: '' };
        const service: WizardService = {
            getOnboarding: async () => snapshot,
            saveOnboarding: async s => s,
            prerequisites: async () => reportOf([], 'linux'),
            // sandy's schema, the credential probes, PATH: this takes a moment (locating sandy can take seconds).
            agentChoices: async () => { await agentsGate; return agents; },
            settingsBootstrap: async () => [],
            saveSettings: async (scope, _ws, edits) => { writes.push({ scope, edits }); return { ok: true }; },
            startImageBuild: async () => build,
            imageBuild: async () => build
        };
        const host: WizardHost = {
            writeClipboard: async () => undefined, info: () => undefined, error: () => undefined,
            runInTerminal: async () => undefined, openSettings: async () => undefined, launch: async () => undefined,
            showSession: async () => undefined, addProject: async () => undefined, sessions: () => [],
            onDidChangeSession: () => ({ dispose: () => undefined })
        };
        const models: WizardModel[] = [];
        const c = new WizardController({ service, host, view: { render: m => models.push(m) } });
        await c.start();
        // The user clicks "Pick agents" in the step list; the step is drawn at once, its list still loading.
        const going = c.act({ type: 'goto', step: 'agents' });
        await new Promise(r => setTimeout(r, 0));
        const shown = models[models.length - 1];
        expect(shown.step.id).to.equal('agents');
        // The Next button is enabled on an empty list (the remembered pick), and the user clicks it.
        const clicked = c.act({ type: 'next' });
        releaseAgents();
        await Promise.all([going, clicked]);
        const agentWrites = writes.flatMap(w => w.edits.config).filter(e => e.key === 'SANDY_AGENT');
        expect(agentWrites.map(e => e.value), 'SANDY_AGENT written to ~/.sandy/config').to.not.include('');
    });
});

describe('WizardController attack: a backend failure while the first step loads', () => {
    it('start() never rejects (the hosts call it with `void`) and says what failed', async () => {
        const build: ImageBuildProgress = { state: 'idle', lines: [], log: '', status: '' };
        const service: WizardService = {
            getOnboarding: async () => ({ state: undefined, sandyFound: false, platform: 'linux', firstSessionWorkspace: WS, terminalFolder: '/home/u/.sandy-ui/terminal' }),
            saveOnboarding: async s => s,
            prerequisites: async () => { throw new Error('the backend went away'); },
            agentChoices: async () => [], settingsBootstrap: async () => [],
            saveSettings: async () => ({ ok: true }), startImageBuild: async () => build, imageBuild: async () => build
        };
        const host: WizardHost = {
            writeClipboard: async () => undefined, info: () => undefined, error: () => undefined,
            runInTerminal: async () => undefined, openSettings: async () => undefined, launch: async () => undefined,
            showSession: async () => undefined, addProject: async () => undefined, sessions: () => [],
            onDidChangeSession: () => ({ dispose: () => undefined })
        };
        const models: WizardModel[] = [];
        const c = new WizardController({ service, host, view: { render: m => models.push(m) } });
        let rejected: unknown;
        await c.start().catch(e => { rejected = e; });
        expect(rejected, 'an unhandled rejection in the host').to.equal(undefined);
        expect(models[models.length - 1].problem, 'the wizard says what failed').to.be.a('string');
    });
});
