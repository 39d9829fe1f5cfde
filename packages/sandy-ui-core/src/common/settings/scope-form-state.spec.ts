import { expect } from 'chai';
import { scopeState } from './settings-test-fixtures';

describe('scope-form-state: edit state (unit)', () => {
    it('routes secrets to .secrets only and everything else to config', () => {
        const state = scopeState({ values: { SANDY_MODEL: 'old' }, secretsSet: { OPENAI_API_KEY: true } });
        state.set('ANTHROPIC_API_KEY', 'sk-new');
        state.set('SANDY_MODEL', 'claude-x');
        state.set('SANDY_SKIP_PERMISSIONS', 'false');
        state.clear('OPENAI_API_KEY');
        const plan = state.toEdits();
        expect(plan.edits).to.deep.equal({
            config: [{ key: 'SANDY_MODEL', value: 'claude-x' }, { key: 'SANDY_SKIP_PERMISSIONS', value: 'false' }],
            secrets: [{ key: 'ANTHROPIC_API_KEY', value: 'sk-new' }, { key: 'OPENAI_API_KEY', value: undefined }]
        });
        expect(plan.blocked).to.deep.equal([]);
        expect(plan.keys).to.deep.equal(['ANTHROPIC_API_KEY', 'SANDY_MODEL', 'SANDY_SKIP_PERMISSIONS', 'OPENAI_API_KEY']);
    });

    it('moves misplaced keys to the file the form writes', () => {
        const state = scopeState({
            values: { SANDY_MODEL: 'from-secrets' },
            secretsSet: { GEMINI_API_KEY: true },
            misplaced: [{ key: 'SANDY_MODEL', file: 'secrets', line: 3 }, { key: 'GEMINI_API_KEY', file: 'config', line: 1 }]
        });
        expect(state.status('SANDY_MODEL').warnings[0]).to.match(/Also set in .secrets \(line 3\)/);
        expect(state.status('GEMINI_API_KEY').warnings[0]).to.match(/This secret is in config \(line 1\)/);
        state.set('SANDY_MODEL', 'from-secrets');
        expect(state.isDirty('SANDY_MODEL'), 'a misplaced key is worth saving even unchanged').to.equal(true);
        state.clear('GEMINI_API_KEY');
        expect(state.toEdits().edits).to.deep.equal({
            config: [{ key: 'SANDY_MODEL', value: 'from-secrets' }, { key: 'GEMINI_API_KEY', value: undefined }],
            secrets: [{ key: 'SANDY_MODEL', value: undefined }, { key: 'GEMINI_API_KEY', value: undefined }]
        });
    });

    it('sends only keys that change, and nothing once they are reverted', () => {
        const state = scopeState({ values: { SANDY_MODEL: 'm1', SANDY_VERBOSE: '1' } });
        state.set('SANDY_MODEL', 'm1');
        state.clear('SANDY_CPUS');
        expect(state.dirty).to.equal(false);
        state.set('SANDY_MODEL', 'm2');
        state.set('SANDY_VERBOSE', '2');
        expect(state.dirtyKeys()).to.deep.equal(['SANDY_MODEL', 'SANDY_VERBOSE']);
        state.set('SANDY_MODEL', 'm1');
        expect(state.dirtyKeys()).to.deep.equal(['SANDY_VERBOSE']);
        state.revert('SANDY_VERBOSE');
        expect(state.toEdits().keys).to.deep.equal([]);
        state.set('ANTHROPIC_API_KEY', 'x');
        state.revertAll();
        expect(state.dirty).to.equal(false);
    });

    it('blocks only the field that fails validation', () => {
        const state = scopeState();
        state.set('SANDY_MODEL', 'not a model');
        state.set('SANDY_EFFORT', 'high');
        state.set('SANDY_AGENT', 'both');
        state.set('OPENAI_API_KEY', 'line\nbreak');
        const plan = state.toEdits();
        expect(plan.edits).to.deep.equal({ config: [{ key: 'SANDY_EFFORT', value: 'high' }], secrets: [] });
        expect(plan.blocked.map(b => b.key)).to.deep.equal(['SANDY_MODEL', 'SANDY_AGENT', 'OPENAI_API_KEY']);
        expect(state.status('SANDY_MODEL').error).to.match(/pattern/);
        expect(state.status('SANDY_EFFORT').error).to.equal(undefined);
    });

    it('shows the error of an invalid value already in the file without blocking anything', () => {
        const state = scopeState({ values: { SANDY_AGENT: 'claude,notanagent' } });
        expect(state.status('SANDY_AGENT').error).to.match(/notanagent/);
        expect(state.toEdits().blocked).to.deep.equal([]);
    });

    it('keeps env-only keys read-only but lets a dead line be cleared', () => {
        const state = scopeState({ values: { SANDY_HOST_ID: 'box' } });
        expect(state.status('SANDY_HOST_ID').warnings.join()).to.match(/has no effect/);
        state.set('SANDY_HOST_ID', 'other');
        expect(state.toEdits().blocked[0]).to.deep.include({ key: 'SANDY_HOST_ID' });
        state.clear('SANDY_HOST_ID');
        expect(state.toEdits().edits).to.deep.equal({
            config: [{ key: 'SANDY_HOST_ID', value: undefined }], secrets: [{ key: 'SANDY_HOST_ID', value: undefined }]
        });
    });

    it('knows which project values need approval', () => {
        const project = scopeState({ values: { SANDY_SSH: 'agent', SANDY_EGRESS_PROXY: '1' } }, 'project');
        project.set('SANDY_EGRESS_PROXY', '0');
        project.set('ANTHROPIC_API_KEY', 'k');
        expect(project.approvalKeys()).to.deep.equal(['SANDY_SSH', 'ANTHROPIC_API_KEY', 'SANDY_EGRESS_PROXY']);
        expect(project.status('SANDY_SSH').needsApproval).to.equal(true);
        const global = scopeState({ values: { SANDY_SSH: 'agent' } }, 'global');
        expect(global.approvalKeys()).to.deep.equal([]);
    });

    it('commits a save: baseline updated, edits made during the save survive', () => {
        const state = scopeState({ values: { SANDY_MODEL: 'a' } });
        state.set('SANDY_MODEL', 'b');
        state.set('ANTHROPIC_API_KEY', 'k');
        state.set('SANDY_VERBOSE', '2');
        const plan = state.toEdits();
        state.set('SANDY_VERBOSE', '3');
        state.commit(plan);
        expect(state.dirtyKeys()).to.deep.equal(['SANDY_VERBOSE']);
        expect(state.value('SANDY_MODEL')).to.equal('b');
        expect(state.status('ANTHROPIC_API_KEY')).to.deep.include({ secretSet: true, inFile: true, dirty: false });
    });
});
