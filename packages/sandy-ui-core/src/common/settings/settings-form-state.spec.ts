import { expect } from 'chai';
import { SettingsFormState } from './settings-form-state';
import { snapshot } from './settings-test-fixtures';

describe('settings-form-state: SettingsFormState (unit)', () => {
    it('keeps edits per scope across tab switches and new snapshots', () => {
        const state = new SettingsFormState();
        state.update(snapshot({ values: { SANDY_MODEL: 'p' } }, { values: { SANDY_MODEL: 'g' } }));
        expect(state.activeScope).to.equal('project');
        state.active.set('SANDY_MODEL', 'p2');
        state.activeScope = 'global';
        state.active.set('SANDY_VERBOSE', '3');
        state.update(snapshot({ values: { SANDY_MODEL: 'p', SANDY_CPUS: '2' } }, { values: { SANDY_MODEL: 'g' } }));
        expect(state.scope('project').value('SANDY_MODEL')).to.equal('p2');
        expect(state.scope('project').value('SANDY_CPUS')).to.equal('2');
        expect(state.scope('global').dirtyKeys()).to.deep.equal(['SANDY_VERBOSE']);
        expect(state.activeScope).to.equal('global');
    });

    it('drops edits a new snapshot already contains', () => {
        const state = new SettingsFormState();
        state.update(snapshot({}));
        state.active.set('SANDY_MODEL', 'x');
        state.update(snapshot({ values: { SANDY_MODEL: 'x' } }));
        expect(state.active.dirty).to.equal(false);
    });

    it('serializes and restores edits, leaving typed secrets out unless asked', () => {
        const state = new SettingsFormState();
        state.update(snapshot({}));
        state.scope('project').set('SANDY_MODEL', 'm');
        state.scope('project').set('ANTHROPIC_API_KEY', 'sk-SECRET');
        state.scope('project').clear('OPENAI_API_KEY');
        state.scope('global').set('SANDY_VERBOSE', '2');
        state.filter = 'egress';
        const saved = state.serialize();
        expect(JSON.stringify(saved)).to.not.contain('sk-SECRET');
        expect(saved).to.deep.equal({
            version: 1, activeScope: 'project', filter: 'egress', workspace: '/w',
            edits: { project: { SANDY_MODEL: { kind: 'set', value: 'm' } }, global: { SANDY_VERBOSE: { kind: 'set', value: '2' } } }
        });
        expect(JSON.stringify(state.serialize({ includeSecrets: true }))).to.contain('sk-SECRET');

        const restored = new SettingsFormState();
        restored.restore(JSON.parse(JSON.stringify(saved)));
        restored.update(snapshot({}));
        expect(restored.scope('project').value('SANDY_MODEL')).to.equal('m');
        expect(restored.scope('global').value('SANDY_VERBOSE')).to.equal('2');
        expect(restored.filter).to.equal('egress');
        expect(restored.scope('project').toEdits().keys).to.deep.equal(['SANDY_MODEL']);
    });

    it('restores tolerantly and never carries project edits to another workspace', () => {
        const state = new SettingsFormState();
        for (const junk of [undefined, null, 42, 'x', { version: 2 }, { version: 1, edits: { project: { K: { kind: 'weird' } } } }]) {
            state.restore(junk);
        }
        expect(state.scope('project').dirty).to.equal(false);
        state.restore({ version: 1, activeScope: 'project', workspace: '/elsewhere', edits: { project: { SANDY_MODEL: { kind: 'set', value: 'm' } } } });
        state.update(snapshot({}));
        expect(state.scope('project').dirty).to.equal(false);
    });

    it('falls back to the Global tab without a workspace', () => {
        const state = new SettingsFormState();
        state.update(snapshot(undefined));
        expect(state.availableScopes()).to.deep.equal(['global']);
        expect(state.activeScope).to.equal('global');
    });

    it('marks unknown keys named in SANDY_EXTRA_ENV as forwarded', () => {
        const state = new SettingsFormState();
        state.update(snapshot({ unknownKeys: ['HA_TOKEN', 'SANDY_TYPO'] }, { values: { SANDY_EXTRA_ENV: 'HA_TOKEN,FOO' } }));
        expect(state.scope('project').form!.unknownKeys).to.deep.equal([
            { key: 'HA_TOKEN', forwarded: true }, { key: 'SANDY_TYPO', forwarded: false }
        ]);
    });

    it('marks keys the environment overrides', () => {
        const state = new SettingsFormState();
        state.update(snapshot({}, {}, { envSet: ['SANDY_AGENT'] }));
        expect(state.active.status('SANDY_AGENT').warnings.join()).to.match(/environment/);
    });
});
