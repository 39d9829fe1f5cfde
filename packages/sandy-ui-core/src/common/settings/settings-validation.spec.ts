import { expect } from 'chai';
import { buildSettingsFields } from './settings-fields';
import { parseAgentCombo, toggleAgent, validateAgentCombo } from './agent-combo';
import { validateFieldValue } from './settings-validation';
import { fallbackField, schemaWith } from './settings-test-fixtures';

describe('settings-validation: validation (unit)', () => {
    it('adds sandy\'s stricter launch checks for SANDY_LOCAL_LLM_HOST and SANDY_ALLOW_LAN_HOSTS', () => {
        const llm = fallbackField('SANDY_LOCAL_LLM_HOST');
        expect(validateFieldValue(llm, 'my$host:80')).to.match(/only accepts host:port/);
        expect(validateFieldValue(llm, '0.0.0.0:80')).to.match(/world-open/);
        expect(validateFieldValue(llm, 'localhost:0')).to.match(/out of range/);
        expect(validateFieldValue(llm, 'localhost:65536')).to.match(/out of range/);
        const lan = fallbackField('SANDY_ALLOW_LAN_HOSTS');
        expect(validateFieldValue(lan, '192.168.1.0/24')).to.equal(undefined);
        expect(validateFieldValue(lan, '10.0.0.1, 0.0.0.0/0')).to.match(/refuses/);
        expect(validateFieldValue(lan, '1.2.3.4/0')).to.match(/zero-length mask/);
    });

    it('writes bools in the spelling each key uses', () => {
        expect(fallbackField('SANDY_SKIP_PERMISSIONS').boolValues).to.deep.equal({ on: 'true', off: 'false' });
        expect(fallbackField('SANDY_VENV_OVERLAY').boolValues).to.deep.equal({ on: '1', off: '0' });
        expect(fallbackField('SANDY_EGRESS_STRICT').boolValues).to.deep.equal({ on: '1', off: '0' });
        expect(fallbackField('CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS').boolValues).to.deep.equal({ on: '1', off: '0' });
        expect(fallbackField('GOOGLE_GENAI_USE_VERTEXAI').boolValues).to.deep.equal({ on: 'true', off: 'false' });
        const skip = fallbackField('SANDY_SKIP_PERMISSIONS');
        expect(validateFieldValue(skip, 'false')).to.equal(undefined);
        expect(validateFieldValue(skip, '1')).to.match(/only understands true \(on\) or false \(off\)/);
        expect(validateFieldValue(fallbackField('SANDY_TOOL_AUDIT'), 'true')).to.match(/only understands 1 \(on\) or 0 \(off\)/);
    });

    it('checks ints, and min / max when a newer schema sends them', () => {
        const cpus = fallbackField('SANDY_CPUS');
        expect(validateFieldValue(cpus, '4')).to.equal(undefined);
        for (const bad of ['abc', '1.5', ' 2', '2 ', '']) {
            expect(validateFieldValue(cpus, bad), JSON.stringify(bad)).to.match(/whole number/);
        }
        const set = buildSettingsFields(schemaWith([], [{ name: 'A_PANE', type: 'int', min: 0, max: '3' }]));
        const pane = set.fields.get('A_PANE')!;
        expect([pane.min, pane.max]).to.deep.equal([0, 3]);
        expect(validateFieldValue(pane, '3')).to.equal(undefined);
        expect(validateFieldValue(pane, '4')).to.match(/largest allowed value is 3/);
        expect(validateFieldValue(pane, '-1')).to.match(/smallest allowed value is 0/);
    });

    it('checks enums against their choices', () => {
        const effort = fallbackField('SANDY_EFFORT');
        expect(validateFieldValue(effort, 'high')).to.equal(undefined);
        expect(validateFieldValue(effort, 'extreme')).to.match(/not one of low, medium/);
    });

    it('refuses values sandy cannot represent in a file', () => {
        expect(validateFieldValue(fallbackField('SANDY_MEM'), 'a\nb')).to.match(/line break/);
        expect(validateFieldValue(fallbackField('SANDY_MEM'), 'has "quotes" inside')).to.equal(undefined);
    });

    it('judges agent combos like sandy does', () => {
        expect(validateAgentCombo('claude')).to.equal(undefined);
        expect(validateAgentCombo('claude,codex')).to.equal(undefined);
        expect(validateAgentCombo('all')).to.equal(undefined);
        expect(validateAgentCombo('claude,')).to.equal(undefined);
        expect(validateAgentCombo('')).to.equal(undefined);
        expect(validateAgentCombo('both')).to.match(/no longer accepts "both"/);
        expect(validateAgentCombo('claude,notanagent')).to.match(/"notanagent" is not an agent/);
        expect(validateAgentCombo('claude,,codex')).to.match(/"" is not an agent/);
        expect(validateAgentCombo('claude, codex')).to.match(/" codex" is not an agent/);
        expect(validateAgentCombo('codex,codex')).to.match(/listed twice/);
        expect(validateAgentCombo('claude,gemini,codex,opencode,grok')).to.match(/At most 4 agents/);
        expect(validateAgentCombo('Claude')).to.match(/not an agent/);
        expect(parseAgentCombo('all')).to.deep.equal(['claude', 'gemini', 'codex', 'opencode']);
        const field = fallbackField('SANDY_AGENT');
        expect(validateFieldValue(field, 'grok,claude')).to.equal(undefined);
        expect(validateFieldValue(field, 'both')).to.match(/both/);
    });

    it('toggles agents keeping the user\'s order and expanding all', () => {
        expect(toggleAgent('codex', 'claude', true)).to.equal('codex,claude');
        expect(toggleAgent('codex,claude', 'codex', false)).to.equal('claude');
        expect(toggleAgent('claude', 'claude', false)).to.equal('');
        expect(toggleAgent('all', 'gemini', false)).to.equal('claude,codex,opencode');
        expect(toggleAgent(undefined, 'grok', true)).to.equal('grok');
    });
});
