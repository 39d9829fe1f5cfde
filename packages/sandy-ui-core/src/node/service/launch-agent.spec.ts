import { expect } from 'chai';
import { agentOverride, launchArgsProblem } from './launch';

describe('agentOverride: a launch\'s `--agent LIST` names the session\'s agents (unit)', () => {
    it('the value after the last --agent; nothing without one, or when a flag follows it', () => {
        expect(agentOverride(['--new', '--agent', 'claude'])).to.equal('claude');
        expect(agentOverride(['--agent', 'codex', '--agent', 'claude,gemini'])).to.equal('claude,gemini');
        expect(agentOverride(['--new'])).to.equal(undefined);
        expect(agentOverride(['--agent'])).to.equal(undefined);
        expect(agentOverride(['--agent', '--rebuild'])).to.equal(undefined);
    });
});

describe('launchArgsProblem: what a launch request may put on sandy\'s command line (unit)', () => {
    it('takes sandy\'s launch flags and one --agent list', () => {
        expect(launchArgsProblem([])).to.equal(undefined);
        expect(launchArgsProblem(['--new', '--rebuild', '--agent', 'claude,codex'])).to.equal(undefined);
        expect(launchArgsProblem(['--resume', '--remote'])).to.equal(undefined);
    });

    it('Attack: a forged request (another page, a compromised frontend) cannot reach sandy\'s argv with anything else', () => {
        expect(launchArgsProblem(['--print-state'])).to.match(/--print-state cannot be used for a launch/);
        expect(launchArgsProblem(['--stop-all'])).to.match(/cannot be used/);
        expect(launchArgsProblem(['--upgrade']), 'sandy updating itself from the network is no launch option').to.match(/--upgrade cannot be used/);
        expect(launchArgsProblem(['--new', 'rm -rf ~'])).to.match(/is not a sandy launch option/);
        expect(launchArgsProblem(['--agent', '--dangerously-skip-permissions'])).to.match(/--agent needs/);
        expect(launchArgsProblem(['--agent', 'claude;touch /tmp/x'])).to.match(/--agent needs/);
        expect(launchArgsProblem(['--agent'])).to.match(/--agent needs/);
        expect(launchArgsProblem([{ toString: () => '--new' }])).to.match(/not a short list/);
        expect(launchArgsProblem('--new')).to.match(/not a short list/);
        expect(launchArgsProblem(Array(17).fill('--new'))).to.match(/not a short list/);
    });
});
