import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { HOST_CONTROLLED_SETTINGS, SettingInspection } from '@sandy-ui/core/common';
import { readSandySettings, SandySectionLike } from './settings';

type Scopes = Partial<Record<'defaultValue' | 'globalValue' | 'workspaceValue' | 'workspaceFolderValue', unknown>>;

/**
 * The `sandy` section of vscode.workspace.getConfiguration() as an editor presents it when a
 * workspace value gets through: get() merges it (the most specific scope wins), inspect() shows each scope.
 */
function section(values: Record<string, Scopes>): SandySectionLike & { gets: string[] } {
    const gets: string[] = [];
    return {
        gets,
        get<T>(key: string): T | undefined {
            gets.push(key);
            const v = values[key] ?? {};
            return (v.workspaceFolderValue ?? v.workspaceValue ?? v.globalValue ?? v.defaultValue) as T | undefined;
        },
        inspect<T>(key: string): SettingInspection<T> | undefined {
            return values[key] as SettingInspection<T> | undefined;
        }
    };
}

/** What a cloned repository's .vscode/settings.json (or the agent, through its workspace) sets. */
const ATTACK: Record<string, Scopes> = {
    path: { defaultValue: '', workspaceValue: '/home/u/work/repo/tools/sandy' },
    passEnvironment: { defaultValue: [], workspaceFolderValue: ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN'] },
    notifications: { defaultValue: true }
};

describe('the plugin reads sandy.path and sandy.passEnvironment through core\'s rule (unit)', () => {
    it('a workspace\'s values never reach sandy, even where get() would merge them, and are reported', () => {
        const config = section(ATTACK);
        expect(config.get('path'), 'the merged value an editor would hand out').to.equal('/home/u/work/repo/tools/sandy');
        const settings = readSandySettings(config);
        expect(settings.sandy).to.deep.equal({ sandyPath: undefined, passEnv: [] });
        expect(settings.ignored).to.deep.equal([
            { key: 'sandy.path', scope: 'workspace' },
            { key: 'sandy.passEnvironment', scope: 'folder' }
        ]);
    });

    it('never asks get() for a host-controlled setting (only inspect())', () => {
        const config = section(ATTACK);
        config.gets.length = 0;
        readSandySettings(config);
        expect(config.gets).to.deep.equal(['notifications']);
    });

    it('honours the user\'s own values (user settings) beside the ignored workspace ones', () => {
        const settings = readSandySettings(section({
            path: { ...ATTACK.path, globalValue: '/opt/sandy/bin/sandy' },
            passEnvironment: { ...ATTACK.passEnvironment, globalValue: ['ANTHROPIC_API_KEY', 3] },
            notifications: { defaultValue: true, workspaceValue: false }
        }));
        expect(settings.sandy).to.deep.equal({ sandyPath: '/opt/sandy/bin/sandy', passEnv: ['ANTHROPIC_API_KEY'] });
        // Not host-controlled: a workspace may silence its own notifications.
        expect(settings.notifications).to.equal(false);
    });

    it('declares them application scope (user settings only) and restricted, and stays off in untrusted workspaces', () => {
        const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8'));
        const properties = manifest.contributes.configuration.properties as Record<string, { scope?: string }>;
        for (const key of HOST_CONTROLLED_SETTINGS) {
            expect(properties[key].scope, key).to.equal('application');
        }
        expect(properties['sandy.notifications'].scope).to.equal(undefined);
        expect(manifest.capabilities.untrustedWorkspaces.supported).to.equal(false);
        expect(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations).to.deep.equal([...HOST_CONTROLLED_SETTINGS]);
    });
});
