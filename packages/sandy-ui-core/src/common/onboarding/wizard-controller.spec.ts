import { expect } from 'chai';
import type { SessionInfo } from '../session/session-types';
import type { SettingsEdits, SettingsSaveResult, SettingsScope } from '../settings/settings-dto';
import type { AgentChoice, ImageBuildProgress, OnboardingSnapshot } from './onboarding-dto';
import type { OnboardingState } from './onboarding-state';
import { dockerCliCheck, PrerequisiteReport, reportOf } from './prerequisites';
import { PREREQUISITE_POLL_MS, WizardAction, WizardController, WizardHost, WizardModel, WizardService } from './wizard-controller';
import { FakeTimers } from '../base/fake-timers';

const WS = '/home/u/.sandy-ui/first-session';

function agent(name: string, found: string[] = []): AgentChoice {
    return { name, description: `${name} agent`, found, recommended: found.length > 0, fix: `sign in to ${name}`, secretKeys: [`${name.toUpperCase()}_API_KEY`] };
}

class Fixture {
    saved: OnboardingState[] = [];
    settingsWrites: Array<{ scope: SettingsScope; edits: SettingsEdits }> = [];
    terminals: Array<{ title: string; command: string; cwd: string }> = [];
    clipboard: string[] = [];
    launched: string[] = [];
    openedSettings: string[] = [];
    report: PrerequisiteReport = reportOf([{ id: 'sandy', status: 'fail', summary: 'sandy was not found', fix: { command: 'curl | bash', explains: 'x' } }, dockerCliCheck('/usr/bin/docker', 'linux')], 'linux');
    agents = [agent('claude'), agent('codex', ['OPENAI_API_KEY in the environment'])];
    build: ImageBuildProgress = { state: 'idle', lines: [], log: '', status: 'Not built yet.' };
    sessions: SessionInfo[] = [];
    listeners: Array<(s: SessionInfo) => void> = [];
    models: WizardModel[] = [];
    saveResult: SettingsSaveResult = { ok: true };
    snapshot: OnboardingSnapshot = { state: undefined, sandyFound: false, platform: 'linux', firstSessionWorkspace: WS, terminalFolder: '/home/u/.sandy-ui/terminal' };

    readonly service: WizardService = {
        getOnboarding: async () => this.saved.length ? { ...this.snapshot, state: this.saved[this.saved.length - 1] } : this.snapshot,
        saveOnboarding: async s => { this.saved.push(JSON.parse(JSON.stringify(s))); return s; },
        prerequisites: async () => this.report,
        agentChoices: async () => this.agents,
        settingsBootstrap: async () => [{ key: 'SANDY_MODEL', value: 'opus', from: '~/.claude/settings.json' }],
        saveSettings: async (scope, _ws, edits) => { this.settingsWrites.push({ scope, edits }); return this.saveResult; },
        startImageBuild: async () => { this.build = { state: 'running', startedAt: 1, lines: ['… Base image'], log: '', status: 'Building images…' }; return this.build; },
        imageBuild: async () => this.build
    };

    readonly host: WizardHost = {
        writeClipboard: async text => { this.clipboard.push(text); },
        info: () => undefined,
        error: () => undefined,
        runInTerminal: async (title, command, cwd) => { this.terminals.push({ title, command, cwd }); },
        openSettings: async key => { this.openedSettings.push(key); },
        launch: async ws => { this.launched.push(ws); },
        showSession: async () => undefined,
        addProject: async () => undefined,
        sessions: () => this.sessions,
        onDidChangeSession: listener => { this.listeners.push(listener); return { dispose: () => undefined }; }
    };

    readonly timers = new FakeTimers();
    readonly controller = new WizardController({ service: this.service, host: this.host, view: { render: m => this.models.push(m) }, timers: this.timers });

    get model(): WizardModel {
        return this.models[this.models.length - 1];
    }

    act(action: WizardAction): Promise<void> {
        return this.controller.act(action);
    }

    session(patch: Partial<SessionInfo>): void {
        const s: SessionInfo = { id: 's1', pid: 10, mode: 'daemon', origin: 'ide', workspace: WS, args: [], startedAt: 1, status: 'running', attachedViews: 1, ...patch } as SessionInfo;
        this.sessions = [s];
        this.listeners.forEach(l => l(s));
    }
}

describe('WizardController (Sandy: Get Started)', () => {
    it('holds Next on a failing prerequisite, names it, and unlocks when a re-check passes; a fix is copied or run as shown', async () => {
        const f = new Fixture();
        await f.controller.start();
        expect(f.model.step.id).to.equal('prerequisites');
        expect(f.model.next.enabled).to.equal(false);
        expect(f.model.next.why).to.equal('Next unlocks when these pass: sandy installed.');
        await f.act({ type: 'next' });
        expect(f.model.step.id, 'Next does nothing while it is locked').to.equal('prerequisites');
        await f.act({ type: 'copy', check: 'sandy' });
        await f.act({ type: 'run', check: 'sandy' });
        expect(f.clipboard).to.deep.equal(['curl | bash']);
        expect(f.terminals, 'in the IDE\'s own empty folder, never the window\'s').to.deep.equal([{ title: 'Sandy: fix "sandy installed"', command: 'curl | bash', cwd: '/home/u/.sandy-ui/terminal' }]);
        // A made-up check id runs nothing.
        await f.act({ type: 'run', check: 'docker-cli' });
        await f.act({ type: 'run', check: 'evil' });
        expect(f.terminals).to.have.length(1);
        f.report = reportOf([{ id: 'sandy', status: 'ok', summary: 'sandy 1.7.1' }], 'linux');
        await f.act({ type: 'check' });
        expect(f.model.next.enabled).to.equal(true);
    });

    it('re-checks by itself only while visible', async () => {
        const f = new Fixture();
        await f.controller.start();
        let calls = 0;
        const original = f.service.prerequisites;
        f.service.prerequisites = () => { calls++; return original(); };
        f.controller.setVisible(false);
        await f.timers.advance(PREREQUISITE_POLL_MS * 3);
        expect(calls, 'hidden: nothing asked').to.equal(0);
        f.controller.setVisible(true);
        await f.timers.advance(PREREQUISITE_POLL_MS);
        expect(calls).to.equal(1);
        f.controller.dispose();
        await f.timers.advance(PREREQUISITE_POLL_MS * 3);
        expect(calls, 'disposed: nothing more').to.equal(1);
    });

    it('shows the macOS note only on macOS', async () => {
        const f = new Fixture();
        await f.controller.start();
        expect(f.model.steps.map(s => s.id)).to.deep.equal(['prerequisites', 'agents', 'auth', 'build', 'test']);
        const mac = new Fixture();
        mac.snapshot = { ...mac.snapshot, platform: 'darwin' };
        await mac.controller.start();
        expect(mac.model.steps.map(s => s.id)).to.include('macos');
    });

    it('recommends the agents with credentials, writes the pick and the accepted bootstrap through the settings save path, and remembers it', async () => {
        const f = new Fixture();
        f.report = reportOf([], 'linux');
        await f.controller.start();
        await f.act({ type: 'next' });
        expect(f.model.step.id).to.equal('agents');
        const step = f.model.step as Extract<WizardModel['step'], { id: 'agents' }>;
        expect(step.agents.map(a => [a.name, a.selected])).to.deep.equal([['claude', false], ['codex', true]]);
        expect(step.writes).to.equal('Next writes to ~/.sandy/config: SANDY_AGENT=codex, SANDY_MODEL=opus (from ~/.claude/settings.json).');
        await f.act({ type: 'toggle-agent', agent: 'claude' });
        await f.act({ type: 'toggle-agent', agent: 'not-an-agent' });
        await f.act({ type: 'toggle-proposal', key: 'SANDY_MODEL' });
        await f.act({ type: 'next' });
        expect(f.settingsWrites).to.deep.equal([{ scope: 'global', edits: { config: [{ key: 'SANDY_AGENT', value: 'claude,codex' }], secrets: [] } }]);
        expect(f.model.step.id).to.equal('auth');
        expect(f.saved[f.saved.length - 1]).to.deep.include({ current: 'auth', agents: ['claude', 'codex'] });
        expect(f.saved[f.saved.length - 1].steps).to.deep.equal({ prerequisites: 'done', agents: 'done' });
    });

    it('a failed save keeps the user on the step with what went wrong, nothing lost', async () => {
        const f = new Fixture();
        f.report = reportOf([], 'linux');
        f.saveResult = { ok: false, error: { message: '~/.sandy/config is not writable', hint: 'Fix its permissions.' } };
        await f.controller.start();
        await f.act({ type: 'next' });
        await f.act({ type: 'next' });
        expect(f.model.step.id).to.equal('agents');
        expect(f.model.problem).to.include('~/.sandy/config is not writable Fix its permissions.');
    });

    it('offers sign-in actions per picked agent: a key through the settings editor', async () => {
        const f = new Fixture();
        f.report = reportOf([], 'linux');
        await f.controller.start();
        await f.act({ type: 'next' });
        await f.act({ type: 'next' });
        const auth = f.model.step as Extract<WizardModel['step'], { id: 'auth' }>;
        expect(auth.agents.map(a => [a.name, a.ready])).to.deep.equal([['codex', true]]);
        await f.act({ type: 'auth', agent: 'codex', action: 'key' });
        await f.act({ type: 'auth', agent: 'codex', action: 'login' });
        expect(f.openedSettings).to.deep.equal(['CODEX_API_KEY']);
        expect(f.terminals, 'no login command was offered').to.deep.equal([]);
    });

    it('unlocks the build step only when the images are built, and the test step only when the agent answered', async () => {
        const f = new Fixture();
        f.report = reportOf([], 'linux');
        await f.controller.start();
        await f.act({ type: 'skip' });
        await f.act({ type: 'skip' });
        await f.act({ type: 'skip' });
        expect(f.model.step.id).to.equal('build');
        expect(f.model.next.enabled).to.equal(false);
        await f.act({ type: 'build' });
        expect((f.model.step as { progress: ImageBuildProgress }).progress.state).to.equal('running');
        f.build = { state: 'done', lines: ['✔ Base image'], log: '', status: 'The images are built.' };
        await f.controller.start(); // the tab opened again: where the user left, the build's state asked
        expect(f.model.next.enabled).to.equal(true);
        await f.act({ type: 'next' });
        expect(f.model.step.id).to.equal('test');
        await f.act({ type: 'start-test' });
        expect(f.launched).to.deep.equal([WS]);
        f.session({ startPhase: 'building' });
        expect((f.model.step as { state: string }).state).to.equal('starting');
        f.session({ startPhase: 'ready', link: 'attached' as SessionInfo['link'] });
        expect(f.model.next.enabled).to.equal(false);
        f.session({ startPhase: 'ready', link: 'attached' as SessionInfo['link'], lastOutputAt: Date.now() + 10 });
        expect((f.model.step as { state: string }).state).to.equal('confirmed');
        expect(f.model.next).to.deep.equal({ label: 'Finish', enabled: true });
        await f.act({ type: 'next' });
        expect(f.model.step.id).to.equal('finished');
        expect(f.saved[f.saved.length - 1].finishedAt).to.be.a('number');
        expect(f.saved[f.saved.length - 1].steps).to.deep.equal({ prerequisites: 'skipped', agents: 'skipped', auth: 'skipped', build: 'done', test: 'done' });
    });

    it('a test session that ends before its agent answered is a failure the user can retry', async () => {
        const f = new Fixture();
        f.snapshot = { ...f.snapshot, state: { version: 1, steps: {}, current: 'test' } };
        await f.controller.start();
        expect(f.model.step.id, 'resumes where the user left').to.equal('test');
        await f.act({ type: 'start-test' });
        f.session({ status: 'exited', exitCode: 1 });
        expect((f.model.step as { state: string; text: string }).state).to.equal('failed');
        expect((f.model.step as { text: string }).text).to.include('exit code 1');
    });

    it('any step is reachable again from the step list, and only this machine\'s steps', async () => {
        const f = new Fixture();
        f.snapshot = { ...f.snapshot, state: { version: 1, steps: {}, finishedAt: 5 } };
        await f.controller.start();
        await f.act({ type: 'goto', step: 'build' });
        expect(f.model.step.id).to.equal('build');
        await f.act({ type: 'goto', step: 'macos' });
        expect(f.model.step.id, 'no macOS step on Linux').to.equal('build');
        expect(f.saved[f.saved.length - 1]).to.deep.include({ current: 'build', finishedAt: 5 });
    });

    it('closing before the end is remembered as dismissed (not offered again at start); a finished wizard is not', async () => {
        const f = new Fixture();
        await f.controller.start();
        await f.controller.dismiss();
        expect(f.saved[0].dismissedAt).to.be.a('number');
    });
});
