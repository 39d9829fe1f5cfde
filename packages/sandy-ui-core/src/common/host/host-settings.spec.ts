import { DEFAULT_IDE_KEYS } from '../terminal/ide-keys';
import { expect } from 'chai';
import {
    dropForbiddenWorkspaceSettings, HOST_CONTROLLED_SETTINGS, hostSettingsNamedIn, hostSettingValue, HostControlledSetting, ignoredHostSettingMessage, IgnoredHostSettingNotices,
    isHostControlledSetting, notificationsAllowed, systemNotificationsAllowed, readHostSandyConfiguration, SettingInspection
} from './host-settings';
import { SANDY_PREFERENCE_PROPERTIES } from './ide-preferences';

/** What a repository (or the agent, through its workspace) writes into .vscode/ or .theia/settings.json. */
const ATTACK = {
    'sandy.path': '/home/u/work/repo/.vscode/sandy',
    'sandy.passEnvironment': ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN'],
    // Sessions that end with the IDE (no daemon), or that the IDE stops when it quits, and a nudge never shown.
    'sandy.sessionMode': 'foreground',
    'sandy.stopSessionsOnQuit': true,
    'sandy.longRunningHours': 0
} as const;

/** The configuration when nothing is set anywhere: sandy found on PATH, no extra variables, daemon sessions that outlive the IDE, a nudge after 24 h. */
const DEFAULTS = { sandyPath: undefined, passEnv: [], sessionMode: 'daemon', stopSessionsOnQuit: false, longRunningHours: 24, notifications: true, doNotDisturb: false, systemNotifications: true, historyMegabytes: 50, ideKeys: [...DEFAULT_IDE_KEYS] };

/** Each setting's declared default, as both hosts' inspect() report it. */
function declaredDefaults(): Record<HostControlledSetting, SettingInspection> {
    const all = {} as Record<HostControlledSetting, SettingInspection>;
    for (const key of HOST_CONTROLLED_SETTINGS) {
        all[key] = { defaultValue: SANDY_PREFERENCE_PROPERTIES[key].default };
    }
    return all;
}

function inspector(values: Partial<Record<HostControlledSetting, SettingInspection>>): (key: HostControlledSetting) => SettingInspection | undefined {
    return key => values[key];
}

describe('host-controlled settings (the scope rule)', () => {
    it('are sandy.path, sandy.passEnvironment, the three session settings and the two that decide whether an agent\'s request for you is said; no sandy setting is a workspace\'s', () => {
        expect([...HOST_CONTROLLED_SETTINGS].sort()).to.deep.equal([
            'sandy.doNotDisturb', 'sandy.historyMegabytes', 'sandy.longRunningHours', 'sandy.notifications', 'sandy.passEnvironment', 'sandy.path',
            'sandy.sessionMode', 'sandy.stopSessionsOnQuit', 'sandy.systemNotifications', 'sandy.terminal.ideKeys'
        ]);
        // A new setting must be decided here: does it choose a program, widen sandy's environment, decide whether sessions
        // outlive the IDE, or silence the agent a repository runs? Then it is the user's alone.
        const workspaceSettable: string[] = [];
        for (const key of Object.keys(SANDY_PREFERENCE_PROPERTIES)) {
            expect(isHostControlledSetting(key) || workspaceSettable.includes(key), `${key} is classified`).to.equal(true);
        }
    });

    it('a repository that silences its agent (sandy.notifications off, do not disturb on) silences nothing; the user\'s own switch counts', () => {
        const attack = readHostSandyConfiguration(inspector({
            'sandy.notifications': { defaultValue: true, workspaceValue: false },
            'sandy.doNotDisturb': { defaultValue: false, workspaceFolderValue: true }
        }));
        expect(notificationsAllowed(attack.config)).to.equal(true);
        expect(attack.ignored).to.deep.equal([{ key: 'sandy.notifications', scope: 'workspace' }, { key: 'sandy.doNotDisturb', scope: 'folder' }]);
        expect(notificationsAllowed(readHostSandyConfiguration(inspector({ 'sandy.doNotDisturb': { globalValue: true } })).config)).to.equal(false);
        expect(notificationsAllowed(readHostSandyConfiguration(inspector({ 'sandy.notifications': { globalValue: false } })).config)).to.equal(false);
        expect(notificationsAllowed(undefined), 'before the window read its settings').to.equal(true);
    });

    it('a repository cannot turn system notifications on or off; the user\'s own switch counts, and do not disturb silences them too', () => {
        const off = readHostSandyConfiguration(inspector({ 'sandy.systemNotifications': { defaultValue: true, workspaceValue: false } }));
        expect(systemNotificationsAllowed(off.config)).to.equal(true);
        expect(off.ignored).to.deep.equal([{ key: 'sandy.systemNotifications', scope: 'workspace' }]);
        const on = readHostSandyConfiguration(inspector({ 'sandy.systemNotifications': { defaultValue: true, globalValue: false, workspaceFolderValue: true } }));
        expect(systemNotificationsAllowed(on.config), 'the user turned them off').to.equal(false);
        expect(systemNotificationsAllowed(readHostSandyConfiguration(inspector({ 'sandy.doNotDisturb': { globalValue: true } })).config)).to.equal(false);
        expect(systemNotificationsAllowed(readHostSandyConfiguration(inspector({ 'sandy.notifications': { globalValue: false } })).config)).to.equal(false);
        expect(systemNotificationsAllowed(undefined)).to.equal(true);
    });

    it('takes the user value, else the default, and never a workspace or folder value', () => {
        expect(hostSettingValue({ defaultValue: '', workspaceValue: ATTACK['sandy.path'] })).to.equal('');
        expect(hostSettingValue({ defaultValue: '', workspaceFolderValue: ATTACK['sandy.path'] })).to.equal('');
        expect(hostSettingValue({ workspaceValue: ATTACK['sandy.path'], workspaceFolderValue: ATTACK['sandy.path'] })).to.equal(undefined);
        expect(hostSettingValue({ defaultValue: '', globalValue: '/usr/local/bin/sandy', workspaceValue: ATTACK['sandy.path'] }))
            .to.equal('/usr/local/bin/sandy');
        expect(hostSettingValue(undefined)).to.equal(undefined);
    });

    it('reads sandy\'s configuration from a workspace that sets both: nothing of the workspace reaches it, and both are reported', () => {
        const read = readHostSandyConfiguration(inspector({
            'sandy.path': { defaultValue: '', workspaceValue: ATTACK['sandy.path'] },
            'sandy.passEnvironment': { defaultValue: [], workspaceFolderValue: [...ATTACK['sandy.passEnvironment']] }
        }));
        expect(read.config).to.deep.equal(DEFAULTS);
        expect(read.ignored).to.deep.equal([
            { key: 'sandy.path', scope: 'workspace' },
            { key: 'sandy.passEnvironment', scope: 'folder' }
        ]);
    });

    it('a workspace cannot choose foreground sessions, stop them on quit or silence the long-running nudge: ignored, and each noted', () => {
        const inspections = declaredDefaults();
        inspections['sandy.sessionMode'].workspaceValue = ATTACK['sandy.sessionMode'];
        inspections['sandy.stopSessionsOnQuit'].workspaceFolderValue = ATTACK['sandy.stopSessionsOnQuit'];
        inspections['sandy.longRunningHours'].workspaceValue = ATTACK['sandy.longRunningHours'];
        inspections['sandy.longRunningHours'].workspaceFolderValue = ATTACK['sandy.longRunningHours'];
        const read = readHostSandyConfiguration(inspector(inspections));
        expect(read.config).to.deep.equal(DEFAULTS);
        expect(read.ignored).to.deep.equal([
            { key: 'sandy.sessionMode', scope: 'workspace' },
            { key: 'sandy.stopSessionsOnQuit', scope: 'folder' },
            { key: 'sandy.longRunningHours', scope: 'workspace' },
            { key: 'sandy.longRunningHours', scope: 'folder' }
        ]);
        // Each is said in the log, with why (not the generic line of a setting the rule does not know).
        const lines: string[] = [];
        const notices = new IgnoredHostSettingNotices(line => lines.push(line));
        for (const { key } of read.ignored) {
            notices.note(key, '/w/.vscode/settings.json');
        }
        expect(lines).to.have.length(3);
        expect(lines[0]).to.contain('"sandy.sessionMode" in /w/.vscode/settings.json').and.contain('how sessions run');
        expect(lines[1]).to.contain('"sandy.stopSessionsOnQuit"').and.contain('when the IDE quits');
        expect(lines[2]).to.contain('"sandy.longRunningHours"').and.contain('long-running');
        expect(hostSettingsNamedIn('{ "sandy.sessionMode": "foreground", "sandy.stopSessionsOnQuit": true, "sandy.longRunningHours": 0 }'))
            .to.deep.equal(['sandy.sessionMode', 'sandy.stopSessionsOnQuit', 'sandy.longRunningHours']);
    });

    it('declares the session settings\' defaults as the configuration assumes them (daemon, run on after quit, 24 h)', () => {
        expect(readHostSandyConfiguration(inspector(declaredDefaults()))).to.deep.equal({ config: DEFAULTS, ignored: [] });
    });

    it('honours the user\'s own session settings', () => {
        const inspections = declaredDefaults();
        inspections['sandy.sessionMode'].globalValue = 'foreground';
        inspections['sandy.stopSessionsOnQuit'].globalValue = true;
        inspections['sandy.longRunningHours'].globalValue = 0;
        expect(readHostSandyConfiguration(inspector(inspections)).config)
            .to.deep.equal({ ...DEFAULTS, sessionMode: 'foreground', stopSessionsOnQuit: true, longRunningHours: 0 });
        inspections['sandy.longRunningHours'].globalValue = 1.5;
        expect(readHostSandyConfiguration(inspector(inspections)).config.longRunningHours).to.equal(1.5);
    });

    it('checks the types of the session settings: anything but "foreground" is daemon, only true stops on quit, hours are a number >= 0 or 24', () => {
        const read = (sessionMode: unknown, stopSessionsOnQuit: unknown, longRunningHours: unknown) => readHostSandyConfiguration(inspector({
            'sandy.sessionMode': { defaultValue: 'daemon', globalValue: sessionMode },
            'sandy.stopSessionsOnQuit': { defaultValue: false, globalValue: stopSessionsOnQuit },
            'sandy.longRunningHours': { defaultValue: 24, globalValue: longRunningHours }
        })).config;
        expect(read('FOREGROUND', 'true', '5')).to.deep.equal(DEFAULTS);
        expect(read('fg', 1, -1)).to.deep.equal(DEFAULTS);
        expect(read(['foreground'], { value: true }, Number.NaN)).to.deep.equal(DEFAULTS);
        expect(read(null, null, Number.POSITIVE_INFINITY)).to.deep.equal(DEFAULTS);
        expect(read('foreground', true, 0)).to.deep.equal({ ...DEFAULTS, sessionMode: 'foreground', stopSessionsOnQuit: true, longRunningHours: 0 });
        // Even without the declared defaults (a host whose inspect() knows none).
        expect(readHostSandyConfiguration(() => undefined).config).to.deep.equal(DEFAULTS);
    });

    it('honours the user\'s settings beside an ignored workspace value', () => {
        const read = readHostSandyConfiguration(inspector({
            'sandy.path': { defaultValue: '', globalValue: '/opt/sandy/bin/sandy', workspaceValue: ATTACK['sandy.path'] },
            'sandy.passEnvironment': { defaultValue: [], globalValue: ['ANTHROPIC_API_KEY'], workspaceValue: [...ATTACK['sandy.passEnvironment']] }
        }));
        expect(read.config).to.deep.equal({ ...DEFAULTS, sandyPath: '/opt/sandy/bin/sandy', passEnv: ['ANTHROPIC_API_KEY'] });
        expect(read.ignored.map(i => i.key)).to.deep.equal(['sandy.path', 'sandy.passEnvironment']);
    });

    it('checks the types of the user\'s values (a hand-edited settings file may hold anything)', () => {
        const read = readHostSandyConfiguration(inspector({
            'sandy.path': { globalValue: 42 },
            'sandy.passEnvironment': { globalValue: ['OK_VAR', 7, { x: 1 }] }
        }));
        expect(read.config).to.deep.equal({ ...DEFAULTS, passEnv: ['OK_VAR'] });
        expect(readHostSandyConfiguration(inspector({ 'sandy.path': { globalValue: '  ' }, 'sandy.passEnvironment': { globalValue: 'AWS' } })).config)
            .to.deep.equal(DEFAULTS);
        expect(readHostSandyConfiguration(() => undefined)).to.deep.equal({ config: DEFAULTS, ignored: [] });
    });

    it('finds the host-controlled keys a settings file names, comments and all', () => {
        const text = '{\n  // the attacker\'s\n  "sandy.path" : "./x",\n  "sandy.notifications": false,\n  /* c */ "sandy.passEnvironment":["A"],\n}';
        expect(hostSettingsNamedIn(text)).to.deep.equal(['sandy.path', 'sandy.passEnvironment', 'sandy.notifications']);
        expect(hostSettingsNamedIn('{ "sandyXpath": 1, "editor.fontSize": 3 }')).to.deep.equal([]);
    });

    it('says each ignored setting once per file, naming the setting and the file on one line', () => {
        const lines: string[] = [];
        const notices = new IgnoredHostSettingNotices(line => lines.push(line));
        expect(notices.note('sandy.path', '/w/.vscode/settings.json')).to.equal(true);
        expect(notices.note('sandy.path', '/w/.vscode/settings.json')).to.equal(false);
        expect(notices.note('sandy.path', '/w/.theia/settings.json')).to.equal(true);
        expect(notices.note('sandy.passEnvironment', '/w/.vscode/settings.json')).to.equal(true);
        expect(lines).to.have.length(3);
        expect(lines[0]).to.equal('sandy: ignored "sandy.path" in /w/.vscode/settings.json: a workspace cannot choose the program the IDE runs. '
            + 'Set it in your user settings if you mean it.');
        expect(lines[2]).to.contain('"sandy.passEnvironment" in /w/.vscode/settings.json').and.contain('environment');
        for (const line of lines) {
            expect(line).not.to.contain('\n');
        }
    });
});

describe('settings a workspace may not set (the Theia providers drop them)', () => {
    it('written nested, as a plugin host reads them, they are dropped all the same; what else the object holds is kept', () => {
        const { kept, dropped } = dropForbiddenWorkspaceSettings<unknown>({
            git: { path: './evil-git', enabled: true },
            terminal: { integrated: { shell: { linux: '/bin/sh' }, fontSize: 12 } },
            'terminal.integrated': { profiles: { linux: { evil: { path: '/bin/sh' } } }, env: { linux: { BASH_ENV: '/x' } }, cursorBlinking: true },
            'ai-features': { mcp: { mcpServers: { x: { command: '/bin/sh' } } } },
            sandy: { path: '/ws/evil', passEnvironment: ['AWS_SECRET_ACCESS_KEY'] },
            security: { workspace: { trust: { enabled: false } } },
            markdown: { preview: { fontFamily: 'x; } body { display: none } .y {' } },
            files: { exclude: { '**/.git': true } },
            '[go]': { git: { path: './evil' }, editor: { tabSize: 8 } }
        });
        expect(kept).to.deep.equal({
            git: { enabled: true },
            terminal: { integrated: { fontSize: 12 } },
            'terminal.integrated': { cursorBlinking: true },
            'ai-features': { mcp: {} },
            sandy: {},
            security: { workspace: { trust: {} } },
            markdown: { preview: {} },
            files: { exclude: { '**/.git': true } },
            '[go]': { git: {}, editor: { tabSize: 8 } }
        });
        expect(dropped.sort()).to.deep.equal([
            '[go].git.path', 'ai-features.mcp.mcpServers', 'git.path', 'markdown.preview.fontFamily', 'sandy.passEnvironment', 'sandy.path',
            'security.workspace.trust.enabled', 'terminal.integrated.env', 'terminal.integrated.profiles', 'terminal.integrated.shell'
        ]);
    });

    it('below a depth no setting nests to, an object is dropped whole, never walked to the bottom (no stack overflow)', () => {
        let deep: Record<string, unknown> = { path: './evil-git' };
        for (let i = 0; i < 100_000; i++) {
            deep = { x: deep };
        }
        const { kept, dropped } = dropForbiddenWorkspaceSettings({ a: deep, 'editor.tabSize': 4 });
        expect(kept['editor.tabSize']).to.equal(4);
        expect(JSON.stringify(kept), 'nothing from below the limit').to.not.contain('evil');
        expect(dropped).to.have.length(1);
        expect(dropped[0]).to.match(/^a(\.x){16}$/);
    });

    it('a font family only as a list of font names: one that closes the CSS rule it is written into is dropped, with its own reason', () => {
        const css = 'monospace; } * { background: url(https://evil.example/x) } .x {';
        const { kept, dropped } = dropForbiddenWorkspaceSettings<unknown>({
            'editor.fontFamily': css,
            'terminal.integrated.fontFamily': 'Hack, "Fira Code", monospace',
            'debug.console.fontFamily': { toString: () => 'x' },
            'scm.inputFontFamily': '',
            'markdown.preview.fontFamily': '-apple-system, BlinkMacSystemFont, "Segoe WPC", sans-serif',
            'editor.codeLensFontFamily': css,
            '[python]': { 'editor.fontFamily': css, 'editor.fontSize': 15 }
        });
        expect(kept).to.deep.equal({
            'terminal.integrated.fontFamily': 'Hack, "Fira Code", monospace',
            'scm.inputFontFamily': '',
            'markdown.preview.fontFamily': '-apple-system, BlinkMacSystemFont, "Segoe WPC", sans-serif',
            '[python]': { 'editor.fontSize': 15 }
        });
        expect(dropped.sort()).to.deep.equal(['[python].editor.fontFamily', 'debug.console.fontFamily', 'editor.codeLensFontFamily', 'editor.fontFamily']);
        // Theia hands a language override on flattened too.
        expect(dropForbiddenWorkspaceSettings({ '[python].editor.fontFamily': css }).dropped).to.deep.equal(['[python].editor.fontFamily']);
        expect(ignoredHostSettingMessage('editor.fontFamily', '/w/.theia/settings.json')).to.contain('must be a list of font names');
        // One rule with the sandy tab's own read: a family list longer than it takes is not one either.
        expect(dropForbiddenWorkspaceSettings({ 'editor.fontFamily': Array(40).fill('"Fira Code"').join(', ') }).dropped).to.deep.equal(['editor.fontFamily']);
    });

    it('drops host programs and trust, keeps the rest, also inside [language] overrides', () => {
        const { kept, dropped } = dropForbiddenWorkspaceSettings({
            'ai-features.mcp.mcpServers': { x: { command: '/bin/sh' } },
            'terminal.integrated.shell.linux': '/bin/sh',
            'terminal.integrated.profiles.linux': {},
            'terminal.integrated.defaultProfile.linux': 'x',
            'terminal.integrated.env.linux': { BASH_ENV: '/x' },
            'terminal.external.linuxExec': 'x',
            'git.path': '/ws/git',
            'security.workspace.trust.trustedFolders': ['file:///'],
            'sandy.path': '/ws/evil',
            'sandy.passEnvironment': ['AWS_SECRET_ACCESS_KEY'],
            'sandy.sessionMode': 'foreground',
            'sandy.stopSessionsOnQuit': true,
            'sandy.longRunningHours': 0,
            'sandy.notifications': false,
            'editor.fontSize': 17,
            'terminal.integrated.fontSize': 12,
            'git.enabled': true,
            '[markdown]': { 'editor.wordWrap': 'on', 'terminal.integrated.shell.linux': '/bin/sh' }
        });
        expect(Object.keys(kept).sort()).to.deep.equal(['[markdown]', 'editor.fontSize', 'git.enabled', 'terminal.integrated.fontSize']);
        expect(kept['[markdown]']).to.deep.equal({ 'editor.wordWrap': 'on' });
        expect(dropped).to.include.members([
            'ai-features.mcp.mcpServers', 'git.path', 'sandy.path', 'sandy.sessionMode', 'sandy.stopSessionsOnQuit', 'sandy.longRunningHours',
            '[markdown].terminal.integrated.shell.linux'
        ]);
    });
});
