import { expect } from 'chai';
import { SandyError } from '../sandy/errors';
import type { SettingsEdits, SettingsSaveResult, SettingsScope, SettingsScopeData, SettingsSnapshot } from '../settings/settings-dto';
import { SettingsEditor, SettingsEditorService } from './settings-editor';

function scope(dir: string): SettingsScopeData {
    return { values: {}, secretsSet: {}, unknownKeys: [], misplaced: [], filePaths: { config: `${dir}/config`, secrets: `${dir}/.secrets` } };
}

function snapshot(workspace: string | undefined, tag = ''): SettingsSnapshot {
    return {
        schema: { version: tag } as unknown as SettingsSnapshot['schema'],
        schemaSource: 'sandy',
        scopes: { project: workspace ? scope(`${workspace}/.sandy`) : undefined, global: scope('/home/u/.sandy') },
        workspace
    };
}

const EDITS: SettingsEdits = { config: [{ key: 'SANDY_MODEL', value: 'opus' }], secrets: [] };
const tick = () => new Promise(resolve => setTimeout(resolve, 0));

/** The editor over fake ports; `log` records every port call in order. */
function editor(options: { workspace?: string; service?: Partial<SettingsEditorService>; hostMarksDirty?: boolean } = {}) {
    const log: string[] = [];
    const titles: string[] = [];
    const service: SettingsEditorService = {
        canonicalWorkspace: async ws => { log.push(`canonical ${ws}`); return `/real${ws}`; },
        getSettings: async ws => { log.push(`get ${ws}`); return snapshot(ws); },
        saveSettings: async (sc, ws) => { log.push(`save ${sc} ${ws}`); return { ok: true, validateVerdict: ['config: valid'] }; },
        addSecretsToGitignore: async ws => void log.push(`gitignore ${ws}`),
        ...options.service
    };
    const e = new SettingsEditor({
        workspace: options.workspace,
        service,
        hostMarksDirty: options.hostMarksDirty,
        view: {
            show: s => log.push(`show ${s.workspace} ${(s.schema as unknown as { version: string }).version}`),
            showProblem: p => log.push(`problem ${p.message}${p.hint ? ` | ${p.hint}` : ''}`),
            revealKey: (key, sc) => log.push(`reveal ${key} ${sc}`),
            setTitle: (title, caption, dirty) => titles.push(`${title} | ${caption} | ${dirty}`)
        },
        host: {
            openFile: async path => void log.push(`open ${path}`),
            pickPath: async ({ kind, title, current }) => { log.push(`pick ${kind} "${title}" ${current}`); return '/picked'; },
            appendLog: line => log.push(`log ${line.replace(/^\S+ /, '')}`),
            warn: text => log.push(`warn ${text}`)
        }
    });
    return { e, log, titles };
}

describe('settings editor shared by the Theia widget and the VS Code panel (unit)', () => {
    it('canonicalises the workspace before loading, and loads once the view is ready', async () => {
        const { e, log, titles } = editor({ workspace: '/w' });
        expect(log).to.deep.equal([]);
        await e.viewReady();
        expect(log).to.deep.equal(['canonical /w', 'get /real/w', 'show /real/w ']);
        expect(e.workspace).to.equal('/real/w');
        expect(titles).to.deep.equal([
            'Sandy Settings: w | sandy settings — /w | false',
            'Sandy Settings: w | sandy settings — /real/w | false'
        ]);
        await e.reload();
        expect(log.filter(l => l.startsWith('canonical'))).to.have.length(1);
    });

    it('a workspace sandy refuses is never loaded: the view says why and what to do', async () => {
        const { e, log } = editor({
            workspace: '/home/u',
            service: { canonicalWorkspace: async () => { throw new SandyError('usage', '/home/u is your home folder.', 'Open a project folder instead.'); } }
        });
        await e.viewReady();
        expect(log).to.deep.equal(['problem Could not read the sandy settings: /home/u is your home folder. Open a project folder instead.']);
        expect(await e.save('project', EDITS)).to.deep.equal({ ok: false, error: { message: 'No project is open.', hint: 'Open the settings from a project.' } });
    });

    it('a load failure reaches the user with its hint (an error that crossed RPC as { code, message, hint } too)', async () => {
        const crossed = Object.assign(new Error('schema unreadable'), { data: { code: 'invalid-output', message: 'sandy printed no schema.', hint: 'Update sandy.' } });
        const { e, log } = editor({ service: { getSettings: async () => { throw crossed; } } });
        await e.viewReady();
        expect(log).to.deep.equal(['problem Could not read the sandy settings: sandy printed no schema. Update sandy.']);
        const plain = editor({ service: { getSettings: async () => { throw new Error('EACCES'); } } });
        await plain.e.viewReady();
        expect(plain.log).to.deep.equal(['problem Could not read the sandy settings: EACCES Check the Sandy log, then reopen the settings.']);
    });

    it('the latest of overlapping loads wins', async () => {
        const answers: Array<(s: SettingsSnapshot) => void> = [];
        const { e, log } = editor({ service: { getSettings: () => new Promise(resolve => answers.push(resolve)) } });
        const first = e.reload();
        const second = e.reload();
        answers[1](snapshot(undefined, 'new'));
        answers[0](snapshot(undefined, 'old'));
        await Promise.all([first, second]);
        expect(log).to.deep.equal(['show undefined new']);
    });

    it('saves a scope into the canonical workspace, logs what was written, then reloads after answering', async () => {
        const { e, log } = editor({ workspace: '/w' });
        await e.viewReady();
        log.length = 0;
        const result = await e.save('global', EDITS);
        expect(result).to.deep.equal({ ok: true, validateVerdict: ['config: valid'] });
        expect(log).to.deep.equal(['save global /real/w', 'log global: config: valid']);
        await tick();
        expect(log.slice(2)).to.deep.equal(['get /real/w', 'show /real/w ']);
    });

    it('refuses a Project save without a project (nothing written), and a failed save is no reload', async () => {
        const { e, log } = editor();
        await e.viewReady();
        log.length = 0;
        expect(await e.save('project', EDITS)).to.deep.equal({ ok: false, error: { message: 'No project is open.', hint: 'Open the settings from a project.' } });
        expect(log).to.deep.equal([]);
        const failing = editor({ workspace: '/w', service: { saveSettings: async (): Promise<SettingsSaveResult> => { throw new SandyError('usage', 'Read-only file system.', 'Check the folder.'); } } });
        await failing.e.viewReady();
        failing.log.length = 0;
        const failed = await failing.e.save('project', EDITS);
        expect(failed).to.deep.equal({ ok: false, error: { message: 'Read-only file system.', hint: 'Check the folder.' } });
        await tick();
        expect(failing.log).to.deep.equal(['log project: save failed: Read-only file system. Check the folder.']);
    });

    it('opens only a file of the snapshot on screen', async () => {
        const { e, log } = editor({ workspace: '/w' });
        await e.openFile('/real/w/.sandy/config');
        await e.viewReady();
        log.length = 0;
        await e.openFile('/real/w/.sandy/.secrets');
        await e.openFile('/home/u/.sandy/config');
        await e.openFile('/etc/passwd');
        await e.openFile('/real/w/.sandy/../../etc/passwd');
        expect(log).to.deep.equal([
            'open /real/w/.sandy/.secrets', 'open /home/u/.sandy/config',
            'warn sandy settings: refused to open a file that is not one of this editor\'s settings files',
            'warn sandy settings: refused to open a file that is not one of this editor\'s settings files'
        ]);
    });

    it('pickers carry the words; .gitignore is updated for the canonical project, then reloaded; a failure says what to do', async () => {
        const { e, log } = editor({ workspace: '/w' });
        await e.viewReady();
        log.length = 0;
        expect(await e.pickPath('folder', '/cur')).to.equal('/picked');
        await e.addToGitignore();
        expect(log).to.deep.equal(['pick folder "Choose a folder" /cur', 'gitignore /real/w', 'get /real/w', 'show /real/w ']);
        const failing = editor({ workspace: '/w', service: { addSecretsToGitignore: async () => { throw new SandyError('usage', '.gitignore is a folder.', 'Remove it.'); } } });
        await failing.e.viewReady();
        const error = await failing.e.addToGitignore().then(() => undefined, (x: Error) => x.message);
        expect(error).to.equal('.gitignore is a folder. Remove it.');
        const global = editor();
        expect(await global.e.addToGitignore().then(() => undefined, (x: Error) => x.message)).to.equal('No project is open. Open the settings from a project.');
        expect(global.log.filter(l => l.startsWith('gitignore'))).to.deep.equal([]);
    });

    it('reveals a key after a fresh load, and waits for the view before loading', async () => {
        const { e, log } = editor({ workspace: '/w' });
        await e.reveal('SANDY_ALLOW_LAN_HOSTS', 'global' as SettingsScope);
        expect(log).to.deep.equal([]);
        await e.viewReady();
        expect(log).to.deep.equal(['canonical /w', 'get /real/w', 'show /real/w ', 'reveal SANDY_ALLOW_LAN_HOSTS global']);
        await e.reveal('SANDY_MODEL');
        expect(log.slice(4)).to.deep.equal(['get /real/w', 'show /real/w ', 'reveal SANDY_MODEL undefined']);
    });

    it('the title marks unsaved edits, unless the host\'s tab does', () => {
        const { e, titles } = editor();
        e.setDirty(true);
        e.setDirty(true);
        e.setDirty(false);
        expect(titles).to.deep.equal([
            'Sandy Settings | sandy settings (global) | false',
            '● Sandy Settings | sandy settings (global) | true',
            'Sandy Settings | sandy settings (global) | false'
        ]);
        expect(e.dirty).to.equal(false);
        const theia = editor({ workspace: '/w', hostMarksDirty: true });
        theia.e.setDirty(true);
        expect(theia.titles.at(-1)).to.equal('Sandy Settings: w | sandy settings — /w | true');
        expect(theia.e.dirty).to.equal(true);
    });
});
