import { expect } from 'chai';
import { AUTO_APPROVE_VAR, buildSandyEnv, INTERNAL_SANDY_VARS } from './env';

describe('buildSandyEnv (unit)', () => {
    const host: Record<string, string> = {
        HOME: '/home/u', USER: 'u', LOGNAME: 'u', PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', LC_CTYPE: 'C',
        TERM: 'xterm-256color', SHELL: '/bin/bash', TMPDIR: '/tmp',
        SANDY_HOME: '/home/u/.sandy', SANDY_MODEL: 'opus', SANDY_DAEMON_SUPERVISOR: '1', SANDY_DAEMON_LOG: '/x',
        SANDY_APPROVE_ONLY: '1', SANDY_UPDATE_RESTART: '1', SANDY_TEST_PANE_TAGS: '1', [AUTO_APPROVE_VAR]: '1',
        SSH_AUTH_SOCK: '/run/agent.sock', DOCKER_HOST: 'unix:///run/docker.sock', DOCKER_CONTEXT: 'colima', DOCKER_CONFIG: '/dc',
        ANTHROPIC_API_KEY: 'sk-secret', NODE_OPTIONS: '--inspect', LD_PRELOAD: '/evil.so', SANDY_UI_CANARY: 'leak', CANARY: 'leak',
        BASH_ENV: '/evil.sh', PROMPT_COMMAND: 'x'
    };

    it('keeps only the base whitelist, locale variables, SANDY_HOME and the docker selection by default', () => {
        expect(buildSandyEnv(host)).to.deep.equal({
            HOME: '/home/u', USER: 'u', LOGNAME: 'u', PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', LC_CTYPE: 'C',
            TERM: 'xterm-256color', SHELL: '/bin/bash', TMPDIR: '/tmp', SANDY_HOME: '/home/u/.sandy',
            DOCKER_HOST: 'unix:///run/docker.sock', DOCKER_CONTEXT: 'colima', DOCKER_CONFIG: '/dc'
        });
    });

    it('never lets a canary variable through, whatever the options', () => {
        const env = buildSandyEnv(host, {
            sandyVars: ['SANDY_MODEL', 'SANDY_UI_CANARY'], credentialVars: ['ANTHROPIC_API_KEY'], effectiveConfig: { SANDY_SSH: 'agent' }
        });
        expect(env.SANDY_MODEL).to.equal('opus');
        expect(Object.values(env)).not.to.include('leak');
        expect(env).not.to.have.any.keys('CANARY', 'NODE_OPTIONS', 'LD_PRELOAD', 'BASH_ENV', 'PROMPT_COMMAND');
    });

    it('passes SANDY_* names only from the allow list, never internal ones or auto-approve', () => {
        const env = buildSandyEnv(host, { sandyVars: ['SANDY_MODEL', ...INTERNAL_SANDY_VARS, AUTO_APPROVE_VAR] });
        expect(env.SANDY_MODEL).to.equal('opus');
        expect(env).not.to.have.any.keys(...INTERNAL_SANDY_VARS, AUTO_APPROVE_VAR, 'SANDY_HOME');
    });

    it('passes credential variables only when enabled, and refuses SANDY_* through that door', () => {
        expect(buildSandyEnv(host)).not.to.have.key('ANTHROPIC_API_KEY');
        const env = buildSandyEnv(host, { credentialVars: ['ANTHROPIC_API_KEY', 'SANDY_DAEMON_SUPERVISOR', AUTO_APPROVE_VAR, 'SSH_AUTH_SOCK'] });
        expect(env.ANTHROPIC_API_KEY).to.equal('sk-secret');
        expect(env).not.to.have.any.keys('SANDY_DAEMON_SUPERVISOR', AUTO_APPROVE_VAR, 'SSH_AUTH_SOCK');
    });

    it('passes SSH_AUTH_SOCK only with SANDY_SSH=agent as sandy will see it (passed env, extra, else effective config)', () => {
        expect(buildSandyEnv(host)).not.to.have.key('SSH_AUTH_SOCK');
        expect(buildSandyEnv(host, { effectiveConfig: { SANDY_SSH: 'none' } })).not.to.have.key('SSH_AUTH_SOCK');
        expect(buildSandyEnv(host, { effectiveConfig: { SANDY_SSH: 'agent' } }).SSH_AUTH_SOCK).to.equal('/run/agent.sock');
        expect(buildSandyEnv({ ...host, SANDY_SSH: 'agent' }, { sandyVars: ['SANDY_SSH'] }).SSH_AUTH_SOCK).to.equal('/run/agent.sock');
        // Not passed to sandy, so sandy will not act on it: the socket stays home.
        expect(buildSandyEnv({ ...host, SANDY_SSH: 'agent' })).not.to.have.key('SSH_AUTH_SOCK');
        expect(buildSandyEnv(host, { extra: { SANDY_SSH: 'agent' } }).SSH_AUTH_SOCK).to.equal('/run/agent.sock');
        // An explicit socket without agent mode is still dropped.
        expect(buildSandyEnv(host, { extra: { SSH_AUTH_SOCK: '/other' } })).not.to.have.key('SSH_AUTH_SOCK');
        // What sandy sees in its env beats the config file (CONTRACT §8).
        expect(buildSandyEnv({ ...host, SANDY_SSH: 'none' }, { sandyVars: ['SANDY_SSH'], effectiveConfig: { SANDY_SSH: 'agent' } }))
            .not.to.have.key('SSH_AUTH_SOCK');
    });

    it('refuses SANDY_* names that are not on the allow list (sandy uses many as plain globals)', () => {
        const env = buildSandyEnv({ ...host, SANDY_START: 'true', SANDY_WORKSPACE_LOCK: '/x' }, { sandyVars: ['SANDY_START', 'SANDY_WORKSPACE_LOCK'] });
        expect(env).not.to.have.any.keys('SANDY_START', 'SANDY_WORKSPACE_LOCK');
        expect(buildSandyEnv(host, { extra: { SANDY_WORKSPACE_LOCK: '/x' } })).not.to.have.key('SANDY_WORKSPACE_LOCK');
        // A host may widen or narrow the list with the running sandy's schema.
        expect(buildSandyEnv(host, { sandyVars: ['SANDY_MODEL'], sandyAllowList: ['SANDY_HOME'] })).not.to.have.key('SANDY_MODEL');
        expect(buildSandyEnv(host, { sandyVars: ['SANDY_DAEMON_SUPERVISOR'], sandyAllowList: ['SANDY_DAEMON_SUPERVISOR'] }))
            .not.to.have.key('SANDY_DAEMON_SUPERVISOR');
    });

    it('refuses shell and loader hooks even when enabled', () => {
        const names = ['BASH_ENV', 'ENV', 'SHELLOPTS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'BASH_FUNC_x%%', 'PROMPT_COMMAND'];
        expect(buildSandyEnv(host, { credentialVars: names })).not.to.have.any.keys(...names);
        expect(buildSandyEnv(host, { extra: { BASH_ENV: '/evil.sh', LD_PRELOAD: '/evil.so' } })).not.to.have.any.keys('BASH_ENV', 'LD_PRELOAD');
    });

    it('never lets SANDY_AUTO_APPROVE_PRIVILEGED through, not even as an explicit extra, nor internal extras', () => {
        const env = buildSandyEnv(host, { extra: { [AUTO_APPROVE_VAR]: '1', SANDY_DAEMON_SUPERVISOR: '1', SANDY_MODEL: 'haiku' } });
        expect(env).not.to.have.key(AUTO_APPROVE_VAR);
        expect(env.SANDY_MODEL).to.equal('haiku');
        expect(env).not.to.have.key('SANDY_DAEMON_SUPERVISOR');
    });

    it('can drop the docker selection variables', () => {
        expect(buildSandyEnv(host, { dockerSelection: false })).not.to.have.any.keys('DOCKER_HOST', 'DOCKER_CONTEXT', 'DOCKER_CONFIG');
    });

    it('skips undefined values and invalid names', () => {
        const env = buildSandyEnv({ PATH: '/bin', HOME: undefined }, { extra: { 'BAD-NAME': 'x', OK: undefined } });
        expect(env).to.deep.equal({ PATH: '/bin' });
    });
});
