import { expect } from 'chai';
import {
    dropForbiddenWorkspaceSettings, HOST_CONTROLLED_SETTINGS, hostSettingsNamedIn, hostSettingValue, HostControlledSetting, IgnoredHostSettingNotices,
    isHostControlledSetting, readHostSandyConfiguration, SettingInspection
} from './host-settings';
import { SANDY_PREFERENCE_PROPERTIES } from './ide-preferences';

/** What a repository (or the agent, through its workspace) writes into .vscode/ or .theia/settings.json. */
const ATTACK = {
    'sandy.path': '/home/u/work/repo/.vscode/sandy',
    'sandy.passEnvironment': ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN']
} as const;

function inspector(values: Partial<Record<HostControlledSetting, SettingInspection>>): (key: HostControlledSetting) => SettingInspection | undefined {
    return key => values[key];
}

describe('host-controlled settings (the scope rule)', () => {
    it('are sandy.path and sandy.passEnvironment, and every other sandy setting is one a workspace may set on purpose', () => {
        expect([...HOST_CONTROLLED_SETTINGS].sort()).to.deep.equal(['sandy.passEnvironment', 'sandy.path']);
        // A new setting must be decided here: does it choose a program or widen sandy's environment?
        const workspaceSettable = ['sandy.notifications'];
        for (const key of Object.keys(SANDY_PREFERENCE_PROPERTIES)) {
            expect(isHostControlledSetting(key) || workspaceSettable.includes(key), `${key} is classified`).to.equal(true);
        }
        expect(isHostControlledSetting('sandy.notifications')).to.equal(false);
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
        expect(read.config).to.deep.equal({ sandyPath: undefined, passEnv: [] });
        expect(read.ignored).to.deep.equal([
            { key: 'sandy.path', scope: 'workspace' },
            { key: 'sandy.passEnvironment', scope: 'folder' }
        ]);
    });

    it('honours the user\'s settings beside an ignored workspace value', () => {
        const read = readHostSandyConfiguration(inspector({
            'sandy.path': { defaultValue: '', globalValue: '/opt/sandy/bin/sandy', workspaceValue: ATTACK['sandy.path'] },
            'sandy.passEnvironment': { defaultValue: [], globalValue: ['ANTHROPIC_API_KEY'], workspaceValue: [...ATTACK['sandy.passEnvironment']] }
        }));
        expect(read.config).to.deep.equal({ sandyPath: '/opt/sandy/bin/sandy', passEnv: ['ANTHROPIC_API_KEY'] });
        expect(read.ignored.map(i => i.key)).to.deep.equal(['sandy.path', 'sandy.passEnvironment']);
    });

    it('checks the types of the user\'s values (a hand-edited settings file may hold anything)', () => {
        const read = readHostSandyConfiguration(inspector({
            'sandy.path': { globalValue: 42 },
            'sandy.passEnvironment': { globalValue: ['OK_VAR', 7, { x: 1 }] }
        }));
        expect(read.config).to.deep.equal({ sandyPath: undefined, passEnv: ['OK_VAR'] });
        expect(readHostSandyConfiguration(inspector({ 'sandy.path': { globalValue: '  ' }, 'sandy.passEnvironment': { globalValue: 'AWS' } })).config)
            .to.deep.equal({ sandyPath: undefined, passEnv: [] });
        expect(readHostSandyConfiguration(() => undefined)).to.deep.equal({ config: { sandyPath: undefined, passEnv: [] }, ignored: [] });
    });

    it('finds the host-controlled keys a settings file names, comments and all', () => {
        const text = '{\n  // the attacker\'s\n  "sandy.path" : "./x",\n  "sandy.notifications": false,\n  /* c */ "sandy.passEnvironment":["A"],\n}';
        expect(hostSettingsNamedIn(text)).to.deep.equal(['sandy.path', 'sandy.passEnvironment']);
        expect(hostSettingsNamedIn('{ "sandyXpath": 1, "sandy.notifications": true }')).to.deep.equal([]);
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
            'sandy.notifications': false,
            'editor.fontSize': 17,
            'terminal.integrated.fontSize': 12,
            'git.enabled': true,
            '[markdown]': { 'editor.wordWrap': 'on', 'terminal.integrated.shell.linux': '/bin/sh' }
        });
        expect(Object.keys(kept).sort()).to.deep.equal(['[markdown]', 'editor.fontSize', 'git.enabled', 'sandy.notifications', 'terminal.integrated.fontSize']);
        expect(kept['[markdown]']).to.deep.equal({ 'editor.wordWrap': 'on' });
        expect(dropped).to.include.members(['ai-features.mcp.mcpServers', 'git.path', 'sandy.path', '[markdown].terminal.integrated.shell.linux']);
    });
});
