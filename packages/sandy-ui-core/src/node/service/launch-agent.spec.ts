import { expect } from 'chai';
import { agentOverride } from './launch';

describe('agentOverride: a launch\'s `--agent LIST` names the session\'s agents (unit)', () => {
    it('the value after the last --agent; nothing without one, or when a flag follows it', () => {
        expect(agentOverride(['--new', '--agent', 'claude'])).to.equal('claude');
        expect(agentOverride(['--agent', 'codex', '--agent', 'claude,gemini'])).to.equal('claude,gemini');
        expect(agentOverride(['--new'])).to.equal(undefined);
        expect(agentOverride(['--agent'])).to.equal(undefined);
        expect(agentOverride(['--agent', '--rebuild'])).to.equal(undefined);
    });
});
