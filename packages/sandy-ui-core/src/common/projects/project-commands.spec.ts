import { expect } from 'chai';
import type { DerivedProject } from './project-state';
import type { SessionInfo } from '../session/session-types';
import type { ApprovalDecision, ApprovalRequest } from '../approvals/approval-model';
import type { AddProjectOutcome, SandyFolderPlan, RunOutcome } from '../service/service-protocol';
import type { SettingsSnapshot } from '../settings/settings-dto';
import type { HostUi, PickItem } from '../host/host-ui';
import type { SessionTab } from '../terminal/session-tabs';
import type { LaunchClearance } from '../session/launch-flow';
import { SandyError } from '../sandy/errors';
import type { FleetPlan } from '../maintenance/fleet';
import type { HeadlessOutcome } from '../session/headless';
import { isProject, isSession, ProjectCommands, ProjectCommandsService, ProjectSessionTabs, SelfHostedSessions } from './project-commands';

function project(name: string, extra: Partial<DerivedProject> = {}): DerivedProject {
    return {
        key: name, name, displayName: name, displayPath: `~/${name}`, workspacePath: `/home/u/${name}`, state: 'fresh',
        staleLock: false, lockHeld: false, ownedByUs: false, inProjectList: true, ...extra
    } as DerivedProject;
}

function session(id: string, workspace: string, status: SessionInfo['status'] = 'running'): SessionInfo {
    return { id, pid: 7, mode: 'foreground', origin: 'ide', workspace, args: [], startedAt: Date.now(), status, attachedViews: 1 };
}

function request(token: string, refusal?: { key: string; scope?: 'project' | 'global' }): ApprovalRequest {
    return {
        workspace: '/home/u/alpha', kind: refusal ? 'refuse' : 'approve', token, lines: [], removedKeys: [], hasPreviousApproval: false,
        approvalFilePath: '/a', notes: [], refusals: refusal ? [{ ...refusal, message: 'm', remediation: 'r' }] : []
    } as ApprovalRequest;
}

const HINTED = new SandyError('usage', 'The workspace is your home folder.', 'Open a project folder instead.');

/** Every port, faked: each call is written to one log the tests read. */
class World {
    readonly log: string[] = [];
    projects: DerivedProject[] = [];
    live: SessionInfo[] = [];
    openFolders: string[] = [];
    selected: DerivedProject | undefined;
    /** What the next notification with actions answers. */
    answer: string | undefined;
    /** Which pick row the user takes (by label), undefined: cancel. */
    pickLabel: string | undefined;
    picked: string | undefined = '/home/u/new';
    confirmed = true;
    active: SessionTab | undefined;
    readonly tabsByWorkspace = new Map<string, SessionTab>();
    selfHosted: SelfHostedSessions | undefined;
    decision: ApprovalDecision = 'approve';
    /** Overrides per service method. */
    readonly fail: Partial<Record<keyof ProjectCommandsService | 'refresh', unknown>> = {};
    preflightAnswer: ApprovalRequest | undefined;
    addOutcome: AddProjectOutcome = { workspace: '/home/u/new', warnings: [] };
    removeResult: RunOutcome = { ok: true, stdout: '', stderr: '' };
    /** sandy's cli_flags in the window's snapshot (undefined: no snapshot yet). */
    cliFlags: string[] | undefined;
    fleetPlanAnswer: FleetPlan = { action: 'gc', text: '', ok: true, nothingToDo: false };
    fleetRunAnswer: RunOutcome = { ok: true, stdout: '', stderr: '' };
    headlessAnswer: HeadlessOutcome = { ok: true, exitCode: 0, answer: 'Done.\nMore.', sandyLines: ['[sandy] Reusing sandbox'], stderr: '', historyId: '2026-12-03-alpha-1' };
    /** What the prompt box answers (undefined: cancelled); the validation message it would show for `probe`. */
    inputAnswer: string | undefined = 'summarise the README';
    inputProbe = '-rf';
    revoked = true;
    stopped: SessionInfo | undefined;
    folderPlan: SandyFolderPlan = { lines: ['Creates .sandy/config'], secretsAvailable: false };

    protected async call<T>(method: keyof ProjectCommandsService | 'refresh', what: string, result: T): Promise<T> {
        this.log.push(what);
        if (this.fail[method]) {
            throw this.fail[method];
        }
        return result;
    }

    readonly service: ProjectCommandsService = {
        addProject: ws => this.call('addProject', `addProject ${ws}`, this.addOutcome),
        removeProject: ws => this.call('removeProject', `removeProject ${ws}`, undefined),
        preflight: ws => this.call('preflight', `preflight ${ws}`, this.preflightAnswer),
        rebuildSandbox: ws => this.call('rebuildSandbox', `rebuild ${ws}`, { ok: true, stdout: '', stderr: '' }),
        removeSandbox: ws => this.call('removeSandbox', `removeSandbox ${ws}`, this.removeResult),
        revokeApproval: ws => this.call('revokeApproval', `revoke ${ws}`, this.revoked),
        stop: id => this.call('stop', `stop ${id}`, this.stopped),
        planSandyFolder: (ws, source) => this.call('planSandyFolder', `plan ${ws} ${JSON.stringify(source)}`, this.folderPlan),
        createSandyFolder: (ws, source) => this.call('createSandyFolder', `create ${ws} ${JSON.stringify(source)}`, { ...this.folderPlan, created: [`${ws}/.sandy/config`] }),
        getSettings: ws => this.call('getSettings', `getSettings ${ws}`, this.settings),
        saveSettings: (scope, ws, edits) => this.call('saveSettings', `save ${scope} ${ws} ${JSON.stringify(edits.config)}`, { ok: true }),
        fleetPlan: (action, options) => this.call('fleetPlan', `fleetPlan ${action} ${JSON.stringify(options ?? {})}`, this.fleetPlanAnswer),
        fleetRun: (action, options) => this.call('fleetRun', `fleetRun ${action} ${JSON.stringify(options ?? {})}`, this.fleetRunAnswer),
        runHeadless: (ws, prompt) => this.call('runHeadless', `runHeadless ${ws} ${JSON.stringify(prompt)}`, this.headlessAnswer),
        agentChoices: () => this.call('agentChoices', 'agentChoices', this.agents.map(a => ({ ...a, found: [], recommended: false, fix: '', secretKeys: [] })))
    };
    settings = {
        schema: { skill_packs: [{ name: 'gstack', repo: 'https://github.com/garrytan/gstack' }, { name: 'other' }] },
        schemaSource: 'sandy',
        scopes: { global: { values: { SANDY_SKILL_PACKS: 'gstack,from-newer-sandy' } }, project: { values: {} } }
    } as unknown as SettingsSnapshot;
    manyAnswer: string[] | undefined = ['other'];
    /** Answers of successive picks of several, in turn (when set, before manyAnswer). */
    manyAnswers: Array<string[] | undefined> = [];
    agents = [{ name: 'claude', description: 'Claude Code' }, { name: 'codex', description: 'OpenAI Codex' }, { name: 'x;rm', description: 'not a name' }];

    readonly state = {
        get projects() { return world().projects; },
        get liveSessions() { return world().live; },
        get openFolders() { return world().openFolders; },
        get snapshot() { const flags = world().cliFlags; return flags ? { status: { found: true, cliFlags: flags } } : undefined; },
        refresh: () => this.call('refresh', 'refresh', undefined)
    };

    readonly ui: HostUi = {
        info: async (m, ...actions) => { this.log.push(`info ${m}${actions.length ? ` [${actions.join('|')}]` : ''}`); return actions.length ? this.answer : undefined; },
        warn: async (m, ...actions) => { this.log.push(`warn ${m}${actions.length ? ` [${actions.join('|')}]` : ''}`); return actions.length ? this.answer : undefined; },
        error: async m => { this.log.push(`error ${m}`); return undefined; },
        confirm: async o => { this.log.push(`confirm ${o.title}: ${o.message}${o.detail ? ` | ${o.detail}` : ''} [${o.ok}]`); return this.confirmed; },
        pick: async <T>(items: PickItem<T>[], placeholder: string) => {
            this.log.push(`pick "${placeholder}": ${items.map(i => `${i.label} (${i.description}; ${i.detail})`).join(', ')}`);
            return items.find(i => i.label === this.pickLabel)?.value;
        },
        pickMany: async <T>(items: Array<PickItem<T> & { picked?: boolean }>, placeholder: string) => {
            this.log.push(`pickMany "${placeholder}": ${items.map(i => `${i.picked ? '[x]' : '[ ]'} ${i.label}`).join(', ')}`);
            return (this.manyAnswers.length ? this.manyAnswers.shift() : this.manyAnswer) as unknown as T[] | undefined;
        },
        writeClipboard: async t => { this.log.push(`clipboard ${t}`); },
        pickFolder: async o => { this.log.push(`pickFolder ${o.title} [${o.openLabel}]`); return this.picked; },
        openFolderInNewWindow: async f => { this.log.push(`newWindow ${f}`); },
        withProgress: async (title, task) => { this.log.push(`progress ${title}`); return task(); },
        input: async o => { this.log.push(`input ${o.title} (${o.validate?.(this.inputProbe)})`); return this.inputAnswer; }
    };

    readonly tabs: ProjectSessionTabs = {
        get active() { return world().active; },
        findByWorkspace: ws => this.tabsByWorkspace.get(ws),
        attach: async s => { this.log.push(`attach ${s.id}`); },
        openForWorkspace: async (ws: string, c: LaunchClearance) => { this.log.push(`open ${ws} ${JSON.stringify(c)}`); },
        get selfHosted() { return world().selfHosted; }
    };

    tab(workspace: string, s?: SessionInfo): SessionTab {
        return { workspace, session: s, detach: () => this.log.push(`detach ${workspace}`) };
    }

    readonly commands = new ProjectCommands({
        service: this.service,
        state: this.state,
        ui: this.ui,
        tabs: this.tabs,
        projectsView: { get selectedProject() { return world().selected; }, reveal: async () => { this.log.push('revealView'); } },
        settingsEditor: { open: async (ws, key, scope) => { this.log.push(`settings ${ws ?? '<global>'}${key ? ` ${key}` : ''}${scope ? ` ${scope}` : ''}`); } },
        approvals: { ask: async r => { this.log.push(`ask ${r.token}`); return this.decision; } },
        historyViewer: { open: async id => { this.log.push(`viewer ${id}`); } }
    });
}

let current: World;
function world(): World {
    return current;
}

describe('ProjectCommands: every "Sandy:" project command, once for both hosts (unit)', () => {
    let w: World;
    beforeEach(() => {
        w = current = new World();
    });
    const alpha = () => project('alpha');

    describe('argument guards', () => {
        it('tells a project from a session from anything else', () => {
            const s = session('s1', '/w');
            expect(isProject(alpha())).to.equal(true);
            expect(isProject(JSON.parse(JSON.stringify(alpha())))).to.equal(true);
            expect(isProject(s)).to.equal(false);
            expect(isSession(s)).to.equal(true);
            expect(isSession(alpha())).to.equal(false);
            for (const other of [undefined, null, 'alpha', 3, { workspace: '/w' }, { scheme: 'file', path: '/w' }]) {
                expect(isProject(other), JSON.stringify(other)).to.equal(false);
                expect(isSession(other), JSON.stringify(other)).to.equal(false);
            }
        });
    });

    describe('launch', () => {
        it('a project: pre-flight before any tab, then the tab opens with the clearance', async () => {
            w.preflightAnswer = request('t1');
            await w.commands.launch(alpha());
            expect(w.log).to.deep.equal(['preflight /home/u/alpha', 'ask t1', 'open /home/u/alpha {"approvalToken":"t1"}']);
        });

        it('a rejected pre-flight opens nothing', async () => {
            w.preflightAnswer = request('t1');
            w.decision = 'reject';
            await w.commands.launch(alpha());
            expect(w.log).to.deep.equal(['preflight /home/u/alpha', 'ask t1']);
        });

        it('a running session is revealed (the service\'s, or one the tabs host themselves), not launched again', async () => {
            w.live = [session('s1', '/home/u/alpha')];
            await w.commands.launch(alpha());
            expect(w.log).to.deep.equal(['attach s1']);
            w.log.length = 0;
            w.live = [];
            w.selfHosted = { list: () => [session('fallback:1', '/home/u/alpha')], stop: async () => undefined };
            await w.commands.launch(alpha());
            expect(w.log).to.deep.equal(['attach fallback:1']);
        });

        it('a failed pre-flight says what to do (the problem\'s hint)', async () => {
            w.fail.preflight = HINTED;
            await w.commands.launch(alpha());
            expect(w.log).to.deep.equal(['preflight /home/u/alpha', 'error Sandy: pre-flight failed: The workspace is your home folder. Open a project folder instead.']);
        });

        it('without a project (or with an argument that is none): asks which, each row its name, path and state, and a folder', async () => {
            w.projects = [alpha(), project('beta', { state: 'running' })];
            w.pickLabel = 'beta';
            await w.commands.launch({ scheme: 'file', path: '/x' });
            expect(w.log).to.deep.equal([
                'pick "Launch sandy for which project?": alpha (~/alpha; fresh), beta (~/beta; running), $(folder-opened) Choose a folder… (undefined; undefined)',
                'preflight /home/u/beta', 'open /home/u/beta {}'
            ]);
            w.log.length = 0;
            w.pickLabel = '$(folder-opened) Choose a folder…';
            await w.commands.launch();
            expect(w.log.slice(1)).to.deep.equal([
                'pickFolder Launch sandy in which folder? (it is mounted read-write into the sandbox) [Launch]', 'preflight /home/u/new', 'open /home/u/new {}'
            ]);
        });

        it('from the palette with exactly one folder open: launches that folder, no pick', async () => {
            w.projects = [alpha(), project('beta')];
            w.openFolders = ['/home/u/beta'];
            await w.commands.launch();
            expect(w.log).to.deep.equal(['preflight /home/u/beta', 'open /home/u/beta {}']);
        });

        it('with no projects and no folder open: the folder picker (never a folder by default); cancelled, nothing', async () => {
            await w.commands.launch();
            expect(w.log).to.deep.equal([
                'pickFolder Launch sandy in which folder? (it is mounted read-write into the sandbox) [Launch]', 'preflight /home/u/new', 'open /home/u/new {}'
            ]);
            w.log.length = 0;
            w.picked = undefined;
            await w.commands.launch();
            expect(w.log).to.deep.equal(['pickFolder Launch sandy in which folder? (it is mounted read-write into the sandbox) [Launch]']);
        });
    });

    describe('launchWith: the launch options this sandy offers, for one launch', () => {
        const FLAGS_171 = ['--rebuild', '--new', '--resume', '--remote', '--agent', '--start', '--attach', '--stop'];

        it('offers only the flags sandy lists; the chosen ones go with the launch, after pre-flight, as separate arguments', async () => {
            w.cliFlags = ['--rebuild', '--new', '--start'];
            w.manyAnswers = [['new', 'rebuild']];
            w.preflightAnswer = request('t1');
            await w.commands.launchWith(alpha());
            expect(w.log).to.deep.equal([
                'pickMany "Launch with which options? (none ticked: a plain launch)": [ ] Start a fresh conversation, [ ] Rebuild sandy\'s images first',
                'preflight /home/u/alpha', 'ask t1', 'open /home/u/alpha {"approvalToken":"t1","args":["--new","--rebuild"]}'
            ]);
        });

        it('other agents: picked from sandy\'s schema (names only), one --agent list', async () => {
            w.cliFlags = FLAGS_171;
            w.manyAnswers = [['agent'], ['codex', 'claude', 'x;rm']];
            await w.commands.launchWith(alpha());
            expect(w.log).to.include('pickMany "Which agents for this launch? (several run side by side)": [ ] claude, [ ] codex');
            expect(w.log.at(-1)).to.equal('open /home/u/alpha {"args":["--agent","codex,claude"]}');
        });

        it('refuses --new with --resume, and an agent list left empty: nothing launched', async () => {
            w.cliFlags = FLAGS_171;
            w.manyAnswers = [['new', 'resume']];
            await w.commands.launchWith(alpha());
            expect(w.log.at(-1)).to.equal('error Sandy: choose either a fresh conversation (--new) or the picker (--resume), not both.');
            w.log.length = 0;
            w.manyAnswers = [['agent'], []];
            await w.commands.launchWith(alpha());
            expect(w.log.at(-1)).to.match(/^error Sandy: no agent was ticked/);
            expect(w.log.some(l => l.startsWith('open') || l.startsWith('preflight'))).to.equal(false);
        });

        it('cancelled: nothing; nothing ticked: a plain launch; a sandy offering no option says so', async () => {
            w.cliFlags = FLAGS_171;
            w.manyAnswers = [undefined];
            await w.commands.launchWith(alpha());
            expect(w.log.filter(l => !l.startsWith('pickMany'))).to.deep.equal([]);
            w.manyAnswers = [[]];
            await w.commands.launchWith(alpha());
            expect(w.log.at(-1)).to.equal('open /home/u/alpha {"args":[]}');
            w.log.length = 0;
            w.cliFlags = ['--start'];
            await w.commands.launchWith(alpha());
            expect(w.log).to.deep.equal(['info Sandy: this sandy offers no launch options (its --print-schema lists none of --new, --resume, --rebuild, --remote, --agent). Use Launch.']);
        });

        it('a project already running: says so and shows its session instead of launching', async () => {
            w.cliFlags = FLAGS_171;
            w.live = [session('s1', '/home/u/alpha')];
            w.manyAnswers = [['rebuild']];
            await w.commands.launchWith(alpha());
            expect(w.log).to.deep.equal(['info Sandy: alpha is already running; its session is shown. Stop it first to launch with other options.', 'attach s1']);
        });
    });

    describe('clearForLaunch (pre-flight with the host\'s approval view)', () => {
        it('Open Settings in the approval view opens the refused key of the workspace, and launches nothing', async () => {
            w.decision = 'open-settings';
            const clearance = await w.commands.clearForLaunch('/home/u/alpha', request('r', { key: 'SANDY_ALLOW_LAN_HOSTS', scope: 'global' }));
            expect(clearance).to.equal(undefined);
            expect(w.log).to.deep.equal(['ask r', 'settings /home/u/alpha SANDY_ALLOW_LAN_HOSTS global']);
        });

        it('nothing to approve: an empty clearance, no view', async () => {
            expect(await w.commands.clearForLaunch('/home/u/alpha')).to.deep.equal({});
            expect(w.log).to.deep.equal(['preflight /home/u/alpha']);
        });
    });

    describe('stop', () => {
        it('a session, or a project\'s running session: the service stops it and it is said', async () => {
            w.stopped = session('s1', '/home/u/alpha', 'exited');
            await w.commands.stop(session('s1', '/home/u/alpha'));
            w.live = [session('s2', '/home/u/alpha')];
            await w.commands.stop(alpha());
            expect(w.log).to.deep.equal(['stop s1', 'info Sandy: alpha stopped.', 'stop s2', 'info Sandy: alpha stopped.']);
        });

        it('a project without a running session: said, and nothing is asked', async () => {
            w.live = [session('s1', '/home/u/beta')];
            await w.commands.stop(alpha());
            expect(w.log).to.deep.equal(['info Sandy: no running session to stop.']);
        });

        it('from the palette: the focused tab\'s session, else the only running one no tab shows, else a pick', async () => {
            w.stopped = session('s1', '/home/u/alpha', 'exited');
            w.active = w.tab('/home/u/alpha', session('s1', '/home/u/alpha'));
            await w.commands.stop();
            expect(w.log).to.deep.equal(['stop s1', 'info Sandy: alpha stopped.']);
            w.log.length = 0;
            w.active = undefined;
            w.stopped = undefined;
            w.live = [session('s2', '/home/u/beta')];
            await w.commands.stop();
            expect(w.log, 'the only running session, shown by no tab here: no pick').to.deep.equal(['stop s2']);
            w.log.length = 0;
            w.tabsByWorkspace.set('/home/u/beta', w.tab('/home/u/beta', session('s2', '/home/u/beta')));
            await w.commands.stop();
            expect(w.log[0], 'a tab of this window shows it: which one is asked').to.match(/^pick "Stop which sandy session\?"/);
            w.log.length = 0;
            w.tabsByWorkspace.clear();
            w.live = [session('s2', '/home/u/beta'), session('s3', '/home/u/alpha')];
            w.pickLabel = 'beta';
            await w.commands.stop();
            expect(w.log).to.have.length(2);
            expect(w.log[0]).to.match(/^pick "Stop which sandy session\?": beta \(pid 7 · \d+s; \/home\/u\/beta\), alpha/);
            expect(w.log[1]).to.equal('stop s2');
        });

        it('nothing running: says so (the pick has nothing to offer)', async () => {
            await w.commands.stop();
            expect(w.log).to.deep.equal(['info Sandy: no sandy sessions are running.', 'info Sandy: no running session to stop.']);
        });

        it('the focused tab\'s session already ended: nothing to stop', async () => {
            w.active = w.tab('/home/u/alpha', session('s1', '/home/u/alpha', 'exited'));
            await w.commands.stop();
            expect(w.log).to.deep.equal(['info Sandy: no running session to stop.']);
        });

        it('a failure of the service is said with its hint', async () => {
            w.fail.stop = HINTED;
            await w.commands.stop(session('s1', '/home/u/alpha'));
            expect(w.log).to.deep.equal(['stop s1', 'error Sandy: stopping sandy failed: The workspace is your home folder. Open a project folder instead.']);
        });

        it('a session the tabs host themselves is stopped by them, not the service', async () => {
            const own = session('fallback:1', '/home/u/alpha');
            w.selfHosted = { list: () => [own], stop: async id => { w.log.push(`tab stops ${id}`); return { ...own, status: 'exited' }; } };
            await w.commands.stop(alpha());
            expect(w.log).to.deep.equal(['tab stops fallback:1', 'info Sandy: alpha stopped.']);
        });
    });

    describe('the attention queue: next waiting session, do not disturb', () => {
        it('goes to the session that has waited longest, not the one on screen; says so when nobody waits', async () => {
            const waiting = (id: string, ws: string, since: number): SessionInfo => ({ ...session(id, ws), attention: { state: 'needs-you', since } });
            w.live = [session('busy', '/home/u/busy'), waiting('late', '/home/u/late', 2_000), waiting('early', '/home/u/early', 1_000)];
            await w.commands.nextWaiting();
            w.active = w.tab('/home/u/early', w.live[2]);
            await w.commands.nextWaiting();
            w.live = [session('busy', '/home/u/busy')];
            await w.commands.nextWaiting();
            expect(w.log).to.deep.equal(['attach early', 'attach late', 'info Sandy: no session needs you.']);
        });

        it('toggles do not disturb in the user\'s settings and says what it means', async () => {
            let on = false;
            const commands = new ProjectCommands({
                service: w.service, state: w.state, ui: w.ui, tabs: w.tabs,
                projectsView: { selectedProject: undefined, reveal: async () => undefined },
                settingsEditor: { open: async () => undefined }, approvals: { ask: async () => w.decision },
                notifications: { get doNotDisturb() { return on; }, setDoNotDisturb: async v => { on = v; w.log.push(`dnd ${v}`); } }
            });
            await commands.toggleDoNotDisturb();
            await commands.toggleDoNotDisturb();
            expect(w.log[0]).to.equal('dnd true');
            expect(w.log[1]).to.match(/^info Sandy: do not disturb is on\. No notifications/);
            expect(w.log[2]).to.equal('dnd false');
            expect(w.log[3]).to.match(/^info Sandy: do not disturb is off/);
        });
    });

    describe('detach, reattach, switch', () => {
        it('detach closes the project\'s tab, or from the palette the focused one; without a tab nothing happens', async () => {
            w.tabsByWorkspace.set('/home/u/alpha', w.tab('/home/u/alpha'));
            w.active = w.tab('/home/u/focused');
            await w.commands.detach(alpha());
            await w.commands.detach();
            await w.commands.detach(project('beta'));
            await w.commands.detach(project('legacy', { workspacePath: undefined }));
            await w.commands.detach(session('s1', '/home/u/alpha'));
            expect(w.log).to.deep.equal(['detach /home/u/alpha', 'detach /home/u/focused', 'detach /home/u/alpha']);
            expect(w.commands.canDetach(alpha())).to.equal(true);
            expect(w.commands.canDetach(project('beta'))).to.equal(false);
            w.active = undefined;
            expect(w.commands.canDetach()).to.equal(false);
        });

        it('reattach: the project\'s running session, or says it has none; from the palette a pick', async () => {
            w.live = [session('s1', '/home/u/alpha')];
            await w.commands.reattach(alpha());
            await w.commands.reattach(project('beta'));
            w.pickLabel = 'alpha';
            await w.commands.reattach();
            expect(w.log[0]).to.equal('attach s1');
            expect(w.log[1]).to.equal('info Sandy: beta has no running session.');
            expect(w.log[2]).to.match(/^pick "Reattach to which sandy session\?": alpha/);
            expect(w.log[3]).to.equal('attach s1');
            w.log.length = 0;
            w.pickLabel = undefined;
            await w.commands.reattach();
            expect(w.log).to.have.length(1);
            w.log.length = 0;
            await w.commands.reattach(session('s9', '/home/u/other'));
            expect(w.log).to.deep.equal(['attach s9']);
        });

        it('switch session: a pick of the running ones, or says none runs', async () => {
            await w.commands.switchSession();
            expect(w.log).to.deep.equal(['info Sandy: no sandy sessions are running.']);
            w.log.length = 0;
            w.live = [session('s1', '/home/u/alpha')];
            w.pickLabel = 'alpha';
            await w.commands.switchSession();
            expect(w.log[0]).to.match(/^pick "Switch to sandy session": alpha/);
            expect(w.log[1]).to.equal('attach s1');
        });

        it('Stop and Reattach are enabled from the palette, and for a project only while it runs', () => {
            w.live = [session('s1', '/home/u/alpha')];
            expect(w.commands.canStop()).to.equal(true);
            expect(w.commands.canStop(alpha())).to.equal(true);
            expect(w.commands.canStop(project('beta'))).to.equal(false);
            expect(w.commands.canReattach(project('beta'))).to.equal(false);
            expect(w.commands.canReattach(session('s9', '/x'))).to.equal(true);
        });
    });

    describe('add project, refresh', () => {
        it('adds the picked folder, refreshes, shows the Projects view, then says everything in one notification', async () => {
            w.addOutcome = { workspace: '/home/u/new', warnings: ['unknown key SANDY_FOO', 'SANDY_CPUS: not a number'], launch: { kind: 'ready', lines: [] }, hasSandyFolder: true };
            await w.commands.addProject();
            expect(w.log).to.deep.equal([
                'pickFolder Add a project folder to Sandy [Add Project]', 'addProject /home/u/new', 'refresh', 'revealView',
                'warn Sandy: Added new. sandy says: unknown key SANDY_FOO; SANDY_CPUS: not a number.'
            ]);
        });

        it('says the verdict Launch will reach: a refusal is a refusal, not "requires approval"', async () => {
            w.addOutcome = {
                workspace: '/home/u/new', warnings: [], hasSandyFolder: true,
                launch: { kind: 'refuse', lines: ['SANDY_ALLOW_LAN_HOSTS=0.0.0.0/0 opens the sandbox to every LAN host. Narrow it to the hosts you need.'] }
            };
            await w.commands.addProject();
            expect(w.log.at(-1)).to.equal('warn Sandy: Added new, but Launch will refuse it: SANDY_ALLOW_LAN_HOSTS=0.0.0.0/0 opens the sandbox to every LAN host. Narrow it to the hosts you need.');
            w.addOutcome = { workspace: '/home/u/new', warnings: [], hasSandyFolder: true, launch: { kind: 'approve', lines: ['SANDY_SSH'] } };
            await w.commands.addProject();
            expect(w.log.at(-1)).to.equal('info Sandy: Added new. Its settings set privileged keys (SANDY_SSH): Launch shows them for your approval first.');
        });

        it('offers (never forces) a .sandy/: the starter is shown, confirmed, then written', async () => {
            w.addOutcome = { workspace: '/home/u/new', warnings: [], launch: { kind: 'ready', lines: [] }, hasSandyFolder: false };
            w.answer = undefined;
            await w.commands.addProject();
            expect(w.log.at(-1)).to.equal('info Sandy: Added new. It has no .sandy/ settings of its own: sandy uses your global ones there. [Create .sandy/config|Copy from a Project…]');
            expect(w.log.some(l => l.startsWith('create '))).to.equal(false);
            w.log.length = 0;
            w.answer = 'Create .sandy/config';
            await w.commands.addProject();
            expect(w.log.slice(5)).to.deep.equal([
                'plan /home/u/new {"kind":"starter"}',
                'confirm Create .sandy/ in new?: Creates .sandy/config [Create .sandy/config]',
                'create /home/u/new {"kind":"starter"}',
                'info Sandy: created .sandy/config in new.',
                'refresh'
            ]);
            w.log.length = 0;
            w.confirmed = false;
            await w.commands.addProject();
            expect(w.log.some(l => l.startsWith('create ')), 'declined: nothing written').to.equal(false);
        });

        it('a copy from another project asks separately before its .secrets are copied', async () => {
            w.addOutcome = { workspace: '/home/u/new', warnings: [], launch: { kind: 'ready', lines: [] }, hasSandyFolder: false };
            w.answer = 'Copy from a Project…';
            w.projects = [project('alpha'), project('new')];
            w.pickLabel = 'alpha';
            w.folderPlan = { lines: ['Copies SANDY_AGENT'], secretsAvailable: true };
            const answers = [true, false];
            w.ui.confirm = async o => { w.log.push(`confirm ${o.title}`); return answers.shift()!; };
            await w.commands.addProject();
            const from = '/home/u/alpha';
            expect(w.log.filter(l => /^(plan|confirm|create)/.test(l))).to.deep.equal([
                `plan /home/u/new {"kind":"copy","from":"${from}"}`,
                'confirm Create .sandy/ in new?',
                `plan /home/u/new {"kind":"copy","from":"${from}","includeSecrets":true}`,
                'confirm Also copy .secrets?',
                `create /home/u/new {"kind":"copy","from":"${from}"}`
            ]);
        });

        it('a cancelled pick adds nothing; a refused folder is said with its hint', async () => {
            w.picked = undefined;
            await w.commands.addProject();
            expect(w.log).to.deep.equal(['pickFolder Add a project folder to Sandy [Add Project]']);
            w.log.length = 0;
            w.picked = '/home/u';
            w.addOutcome = { workspace: '/home/u', warnings: [], problem: { code: 'usage', message: 'That is your home folder.', hint: 'Pick a project folder.' } };
            await w.commands.addProject();
            expect(w.log).to.deep.equal(['pickFolder Add a project folder to Sandy [Add Project]', 'addProject /home/u', 'error Sandy: That is your home folder. Pick a project folder.']);
            w.log.length = 0;
            w.fail.addProject = HINTED;
            await w.commands.addProject();
            expect(w.log.at(-1)).to.equal('error Sandy: adding the project failed: The workspace is your home folder. Open a project folder instead.');
        });

        it('skill packs: the schema\'s packs ticked as the scope has them, the choice written through the settings save path', async () => {
            w.pickLabel = 'Global (every project)';
            await w.commands.chooseSkillPacks();
            expect(w.log).to.deep.equal([
                'pick "Choose skill packs for which scope?": Global (every project) (~/.sandy/config; undefined)',
                'getSettings undefined',
                'pickMany "Skill packs for Global (every project) (sandy installs the ticked ones at its next build)": [x] gstack, [ ] other',
                'save global undefined [{"key":"SANDY_SKILL_PACKS","value":"other,from-newer-sandy"}]',
                'info Sandy: SANDY_SKILL_PACKS=other,from-newer-sandy written to ~/.sandy/config. The next launch builds them into the image (a few minutes once).'
            ]);
            w.log.length = 0;
            // The same scope's .secrets sets it too (sandy reads that one): said, not promised.
            w.settings.scopes.global.misplaced = [{ key: 'SANDY_SKILL_PACKS', file: 'secrets', line: 3 }];
            await w.commands.chooseSkillPacks();
            expect(w.log.at(-1)).to.match(/^warn Sandy: SANDY_SKILL_PACKS=other,from-newer-sandy written to ~\/\.sandy\/config, but the same scope's \.secrets also sets/);
            w.log.length = 0;
            w.manyAnswer = undefined;
            await w.commands.chooseSkillPacks(project('alpha'));
            expect(w.log, 'a project: its scope, no scope pick; cancelled: nothing written').to.deep.equal([
                'getSettings /home/u/alpha',
                'pickMany "Skill packs for alpha (sandy installs the ticked ones at its next build)": [ ] gstack, [ ] other'
            ]);
        });

        it('refresh polls; a failure is said with its hint', async () => {
            await w.commands.refresh();
            w.fail.refresh = HINTED;
            await w.commands.refresh();
            expect(w.log).to.deep.equal(['refresh', 'refresh', 'error Sandy: refreshing failed: The workspace is your home folder. Open a project folder instead.']);
        });
    });

    describe('the project of a row command: its argument, else the selected row, else a pick', () => {
        it('copy workspace path', async () => {
            await w.commands.copyWorkspacePath(alpha());
            w.selected = project('beta');
            await w.commands.copyWorkspacePath();
            w.selected = undefined;
            w.projects = [project('gamma')];
            w.pickLabel = 'gamma';
            await w.commands.copyWorkspacePath();
            expect(w.log).to.deep.equal(['clipboard /home/u/alpha', 'clipboard /home/u/beta', 'pick "Select a project": gamma (~/gamma; fresh)', 'clipboard /home/u/gamma']);
            w.log.length = 0;
            w.pickLabel = undefined;
            await w.commands.copyWorkspacePath();
            expect(w.log).to.deep.equal(['pick "Select a project": gamma (~/gamma; fresh)']);
        });

        it('reveal sandbox: none yet is said; else the path with Open in New Window and Copy Path', async () => {
            await w.commands.revealSandbox(alpha());
            const withSandbox = project('beta', { sandboxName: 'beta-1', sandboxPath: '/sb/beta-1' });
            w.answer = 'Copy Path';
            await w.commands.revealSandbox(withSandbox);
            w.answer = 'Open in New Window';
            await w.commands.revealSandbox(withSandbox);
            w.answer = undefined;
            await w.commands.revealSandbox(withSandbox);
            const shown = 'info Sandbox of beta: /sb/beta-1 [Open in New Window|Copy Path]';
            expect(w.log).to.deep.equal([
                'info Sandy: alpha has no sandbox yet — it is created on first launch.',
                shown, 'clipboard /sb/beta-1', shown, 'newWindow /sb/beta-1', shown
            ]);
            expect(w.commands.canRevealSandbox(alpha())).to.equal(false);
            expect(w.commands.canRevealSandbox(withSandbox)).to.equal(true);
            expect(w.commands.canRevealSandbox()).to.equal(true);
        });

        it('remove sandbox: asks first; removed, failed (exit and output) or refused (hint) is said; then refresh', async () => {
            const p = project('beta', { sandboxName: 'beta-1', displayPath: '~/beta' });
            await w.commands.removeSandbox(alpha());
            expect(w.log).to.deep.equal(['info Sandy: alpha has no sandbox to remove.']);
            w.log.length = 0;
            w.confirmed = false;
            await w.commands.removeSandbox(p);
            expect(w.log).to.have.length(1);
            expect(w.log[0]).to.match(/^confirm Remove sandbox: Remove the sandbox of ~\/beta\? .* \[Remove Sandbox\]$/);
            w.log.length = 0;
            w.confirmed = true;
            await w.commands.removeSandbox(p);
            expect(w.log.slice(1)).to.deep.equal(['removeSandbox /home/u/beta', 'info Sandy: sandbox of beta removed.', 'refresh']);
            w.log.length = 0;
            w.removeResult = { ok: false, exitCode: 2, stdout: '', stderr: 'sandbox is in use\n' };
            await w.commands.removeSandbox(p);
            expect(w.log.slice(1)).to.deep.equal(['removeSandbox /home/u/beta', 'error Sandy: removing the sandbox failed (exit 2): sandbox is in use', 'refresh']);
            w.log.length = 0;
            w.fail.removeSandbox = HINTED;
            await w.commands.removeSandbox(p);
            expect(w.log.slice(2)).to.deep.equal(['error Sandy: removing the sandbox of beta failed: The workspace is your home folder. Open a project folder instead.', 'refresh']);
            expect(w.commands.canRemoveSandbox(p)).to.equal(true);
            expect(w.commands.canRemoveSandbox({ ...p, state: 'running' })).to.equal(false);
            expect(w.commands.canRemoveSandbox(alpha())).to.equal(false);
        });

        it('remove from projects: then refresh and say what it did; a sandbox without a workspace has nothing to remove', async () => {
            await w.commands.removeProject(alpha());
            await w.commands.removeProject(project('legacy', { workspacePath: undefined }));
            expect(w.log).to.deep.equal(['removeProject /home/u/alpha', 'refresh', 'info Sandy: alpha is no longer in your projects (its folder is untouched).']);
            w.log.length = 0;
            w.openFolders = ['/home/u/alpha'];
            await w.commands.removeProject(project('alpha', { sandboxName: 'alpha-1234' }));
            expect(w.log.at(-1), 'why the row stays').to.equal('info Sandy: alpha is no longer in your projects (its folder is untouched); '
                + 'it stays in the view while a window has its folder open, and sandy still lists its sandbox (Remove Sandbox… deletes that).');
            w.log.length = 0;
            w.fail.removeProject = HINTED;
            await w.commands.removeProject(alpha());
            expect(w.log).to.deep.equal(['removeProject /home/u/alpha', 'error Sandy: removing alpha from the projects failed: The workspace is your home folder. Open a project folder instead.']);
        });

        it('revoke approval: says whether there was one, then refresh; a failure shows its hint', async () => {
            await w.commands.revokeApproval(alpha());
            w.revoked = false;
            await w.commands.revokeApproval(alpha());
            expect(w.log).to.deep.equal([
                'revoke /home/u/alpha', 'info Sandy: approvals for alpha revoked (privileged keys, Dockerfile, symlinks) — the next launch asks again.', 'refresh',
                'revoke /home/u/alpha', 'info Sandy: alpha had no recorded approval.', 'refresh'
            ]);
            w.log.length = 0;
            w.fail.revokeApproval = HINTED;
            await w.commands.revokeApproval(alpha());
            expect(w.log).to.deep.equal(['revoke /home/u/alpha', 'error Sandy: revoking the approval of alpha failed: The workspace is your home folder. Open a project folder instead.']);
            expect(w.commands.canRevokeApproval(project('legacy', { workspacePath: undefined }))).to.equal(false);
        });
    });

    describe('open settings', () => {
        it('a project: its settings (the settings editor canonicalises the workspace: settings-editor.spec)', async () => {
            await w.commands.openSettings(alpha());
            expect(w.log).to.deep.equal(['settings /home/u/alpha']);
        });

        it('{ workspace, key, scope }: at the key; a key or scope of the wrong type is ignored', async () => {
            await w.commands.openSettings({ workspace: '/home/u/alpha', key: 'SANDY_MODEL', scope: 'project' });
            await w.commands.openSettings({ workspace: '/home/u/alpha', key: 3, scope: 'everywhere' });
            expect(w.log).to.deep.equal(['settings /home/u/alpha SANDY_MODEL project', 'settings /home/u/alpha']);
        });

        it('nothing given: the selected project, else the window\'s first folder, else Global alone', async () => {
            w.selected = project('beta');
            w.openFolders = ['/home/u/open'];
            await w.commands.openSettings();
            w.selected = undefined;
            await w.commands.openSettings({ key: 'SANDY_MODEL' });
            w.openFolders = [];
            await w.commands.openSettings();
            await w.commands.openSettings(project('legacy', { workspacePath: undefined }));
            expect(w.log).to.deep.equal([
                'settings /home/u/beta',
                'settings /home/u/open SANDY_MODEL',
                'settings <global>', 'settings <global>'
            ]);
        });

        it('a workspace sandy refuses ($HOME, /) goes to the settings editor, which says why with the hint (settings-editor.spec), not a second toast', async () => {
            await w.commands.openSettings({ workspace: '/home/u' });
            expect(w.log).to.deep.equal(['settings /home/u']);
        });
    });

    describe('fleetMaintenance: sandy\'s plan first, verbatim, then the run only when accepted', () => {
        const FLAGS_171 = ['--rebuild', '--print-state', '--start', '--attach', '--stop', '--prune-orphans', '--stop-all', '--gc', '--update-sessions', '--reset-sandbox', '--remove-sandbox', '--workspace'];
        const GC_PLAN = '\nsandy --gc: reclaim plan\n  containers: 2 dead-owner\n';

        it('offers what this sandy lists (1.7.1 has no --doctor), shows the plan as sandy wrote it, runs with the user\'s consent, reports the end', async () => {
            const w = current;
            w.cliFlags = FLAGS_171;
            w.pickLabel = 'Reclaim Docker space (sandy --gc)';
            w.fleetPlanAnswer = { action: 'gc', text: GC_PLAN, ok: true, nothingToDo: false, exitCode: 0 };
            w.fleetRunAnswer = { ok: true, exitCode: 0, stdout: 'removed\n[sandy] Reclaimed 2 container(s).\n', stderr: '' };
            await w.commands.fleetMaintenance();
            const pick = w.log.find(l => l.startsWith('pick "Fleet maintenance'))!;
            expect(pick).to.contain('sandy --gc').and.contain('--prune-orphans').and.contain('Remove orphaned sandboxes').and.contain('--update-sessions').and.contain('--stop-all');
            expect(pick).not.to.contain('--doctor');
            expect(w.log.filter(l => !l.startsWith('pick'))).to.deep.equal([
                'progress Sandy: asking sandy what --gc would do (--dry-run)…',
                'fleetPlan gc {}',
                `confirm Sandy: Reclaim Docker space (sandy --gc): sandy's plan (--gc --dry-run) is below. | ${GC_PLAN.trim()} [Reclaim]`,
                'progress Sandy: running Reclaim Docker space (sandy --gc)…',
                'fleetRun gc {}',
                'info Sandy: Reclaim Docker space (sandy --gc) finished: Reclaimed 2 container(s).',
                'refresh'
            ]);
        });

        it('declined, nothing to do, or no plan: sandy never runs the command', async () => {
            const w = current;
            w.cliFlags = FLAGS_171;
            w.pickLabel = 'Stop every session (sandy --stop-all)';
            w.fleetPlanAnswer = { action: 'stopAll', text: 'sandy --stop-all: 1 daemon session(s)', ok: true, nothingToDo: false, exitCode: 0 };
            w.confirmed = false;
            await w.commands.fleetMaintenance();
            w.confirmed = true;
            w.fleetPlanAnswer = { action: 'stopAll', text: '[sandy] Nothing to reclaim.', ok: true, nothingToDo: true, exitCode: 0 };
            await w.commands.fleetMaintenance();
            w.fleetPlanAnswer = { action: 'stopAll', text: '[sandy] --stop-all requires a reachable Docker daemon.', ok: false, nothingToDo: false, exitCode: 1 };
            await w.commands.fleetMaintenance();
            expect(w.log.filter(l => l.startsWith('fleetRun'))).to.deep.equal([]);
            expect(w.log).to.include('info Sandy: Stop every session (sandy --stop-all): nothing to do (sandy: Nothing to reclaim.).');
            expect(w.log).to.include('error Sandy: sandy could not make the plan for --stop-all (exit 1): [sandy] --stop-all requires a reachable Docker daemon.');
        });

        it('--update-sessions asks which stale sessions may restart and passes --idle-for on', async () => {
            const w = current;
            w.cliFlags = FLAGS_171;
            w.pickLabel = 'Update running sessions (sandy --update-sessions)';
            await w.commands.fleetMaintenance();
            expect(w.log.some(l => l.startsWith('pick "Which stale sessions'))).to.equal(true);
            expect(w.log.filter(l => l.startsWith('fleet'))).to.deep.equal([], 'the idle question was cancelled: nothing asked of sandy');
            w.log.length = 0;
            const answers = ['Update running sessions (sandy --update-sessions)', 'Only sessions idle for 30 minutes or more'];
            w.ui.pick = async <T>(items: PickItem<T>[]) => {
                const label = answers.shift();
                return items.find(i => i.label === label)?.value;
            };
            await w.commands.fleetMaintenance();
            expect(w.log.filter(l => l.startsWith('fleet'))).to.deep.equal(['fleetPlan updateSessions {"idleForMinutes":30}', 'fleetRun updateSessions {"idleForMinutes":30}']);
        });

        it('the orphan removal says first what it removes (with the folders) and what it leaves alone, and why, then runs on exactly those', async () => {
            const w = current;
            w.cliFlags = FLAGS_171;
            w.pickLabel = 'Remove orphaned sandboxes';
            const longPlan = `sandy --remove-sandbox: 2 target(s)\n${'  - filler\n'.repeat(300)}`;
            w.fleetPlanAnswer = {
                action: 'removeOrphans', text: longPlan, ok: true, nothingToDo: false,
                targets: [{ name: 'gone-1a2b3c4d', recordedPath: '/home/u/gone' }], untrusted: [{ name: 'we-2c8e1f00', recordedPath: '/home/u/we' }]
            };
            await w.commands.fleetMaintenance();
            const confirm = w.log.find(l => l.startsWith('confirm'))!;
            const message = confirm.slice(0, confirm.indexOf(' | '));
            expect(message).to.contain('Will be removed (1): gone-1a2b3c4d (was /home/u/gone).').and.contain('Not removed: we-2c8e1f00').and.contain('cut short');
            expect(confirm.slice(confirm.indexOf(' | '))).to.contain('sandy --remove-sandbox: 2 target(s)');
            expect(w.log.filter(l => l.startsWith('fleetRun'))).to.deep.equal(['fleetRun removeOrphans {"targets":["gone-1a2b3c4d"]}']);
        });

        it('no snapshot yet (the palette before the Sandy view): refreshes first; a sandy without these flags is told so', async () => {
            const w = current;
            w.cliFlags = undefined;
            await w.commands.fleetMaintenance();
            expect(w.log).to.deep.equal(['refresh', 'info Sandy: the installed sandy offers no fleet maintenance commands.']);
        });
    });

    describe('askOnce: sandy -p in a project, the answer in the history viewer', () => {
        it('the only open folder, a prompt (options refused), progress, the answer opened read-only and its first line said', async () => {
            const w = current;
            w.openFolders = ['/home/u/alpha'];
            await w.commands.askOnce();
            expect(w.log).to.deep.equal([
                'input Sandy: Ask the Agent Once (sandy -p) (A prompt cannot start with "-".)',
                'progress Sandy: alpha: the agent is answering (sandy -p)…',
                'runHeadless /home/u/alpha "summarise the README"',
                'viewer 2026-12-03-alpha-1',
                'info Sandy: alpha answered: Done.'
            ]);
        });

        it('cancelled: nothing runs; sandy refusing says why, as sandy said it', async () => {
            const w = current;
            w.openFolders = ['/home/u/alpha'];
            w.inputAnswer = undefined;
            await w.commands.askOnce();
            expect(w.log.filter(l => !l.startsWith('input'))).to.deep.equal([]);
            w.inputAnswer = 'go';
            w.headlessAnswer = { ok: false, exitCode: 1, answer: '', sandyLines: [], stderr: '[sandy] Another sandy is already running for this workspace.\n' };
            await w.commands.askOnce(project('beta'));
            expect(w.log).to.include('error Sandy: sandy -p in beta failed (exit 1): [sandy] Another sandy is already running for this workspace.');
            expect(w.log.some(l => l.startsWith('viewer')), 'no record: no viewer').to.equal(false);
        });
    });
});
