import { expect } from 'chai';
import { BUNDLED_FALLBACK_SCHEMA } from '../sandy/schema-cache';
import {
    AGENT_DESCRIPTIONS, agentDescription, AgentCredentialInfo, credentialFilesToCheck, CredentialFacts, credentialVariablesToCheck,
    credentialFindingText, decideAgentCredentials, decideCredentials, OPENCODE_PROVIDER_KEYS, probeLabel
} from './credentials';

/** The agents of sandy 1.7.1's real `--print-schema` (the bundled copy of fixture 01). */
const AGENTS: readonly AgentCredentialInfo[] = BUNDLED_FALLBACK_SCHEMA.agents;

function facts(over: Partial<CredentialFacts> = {}): CredentialFacts {
    return {
        env: [], envNotPassed: [], sandyConfig: [], sandySecrets: [], files: {},
        sandyConfigPath: '~/.sandy/config', sandySecretsPath: '~/.sandy/.secrets', platform: 'linux', problems: [],
        ...over
    };
}

function agent(name: string): AgentCredentialInfo {
    return AGENTS.find(a => a.name === name)!;
}

describe('onboarding credentials: which agents already have credentials (unit)', () => {
    it('reads the probe order of the real schema', () => {
        expect(AGENTS.map(a => a.name)).to.deep.equal(['claude', 'gemini', 'codex', 'opencode', 'grok']);
        expect(agent('claude').credentials?.probe_order).to.deep.equal(['CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_API_KEY', 'host_credentials_file']);
    });

    it('asks the probe for exactly the variables and files sandy looks at', () => {
        expect(credentialVariablesToCheck(AGENTS)).to.deep.equal([
            'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'OPENAI_API_KEY', 'XAI_API_KEY'
        ]);
        expect(credentialFilesToCheck(AGENTS)).to.deep.equal([
            '~/.claude/.credentials.json',
            '~/.gemini/oauth_creds.json', '~/.gemini/tokens.json',
            '~/.config/gcloud/application_default_credentials.json',
            '~/.codex/auth.json',
            '~/.local/share/opencode/auth.json'
        ]);
        expect(OPENCODE_PROVIDER_KEYS).to.deep.equal(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY']);
    });

    it('nothing found: no agent is recommended, each says what to do', () => {
        const all = decideCredentials(AGENTS, facts());
        expect(all.map(a => [a.agent, a.recommended, a.found.length])).to.deep.equal([
            ['claude', false, 0], ['gemini', false, 0], ['codex', false, 0], ['opencode', false, 0], ['grok', false, 0]
        ]);
        for (const a of all) {
            expect(a.explanation, a.agent).to.match(/^No credentials for .+ were found on this computer\./);
            expect(a.fix, a.agent).to.contain('~/.sandy/.secrets');
        }
        expect(all[0].fix).to.contain('claude setup-token');
        expect(all[2].fix).to.contain('codex login');
    });

    describe('claude', () => {
        it('the login file is found', () => {
            const d = decideAgentCredentials(agent('claude'), facts({ files: { '~/.claude/.credentials.json': 'present' } }));
            expect(d.recommended).to.equal(true);
            expect(d.found).to.deep.equal([{ probe: 'host_credentials_file', where: 'file', path: '~/.claude/.credentials.json' }]);
            expect(d.explanation).to.equal('Found for Claude Code: Claude Code login (~/.claude/.credentials.json).');
            expect(d.fix).to.equal('');
        });

        it('token and API key are listed in sandy\'s order, each variable environment first, then .secrets, then config', () => {
            const d = decideAgentCredentials(agent('claude'), facts({
                env: ['ANTHROPIC_API_KEY'], sandyConfig: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'], sandySecrets: ['ANTHROPIC_API_KEY']
            }));
            expect(d.found).to.deep.equal([
                { probe: 'CLAUDE_CODE_OAUTH_TOKEN', where: 'sandy config', variable: 'CLAUDE_CODE_OAUTH_TOKEN', path: '~/.sandy/config' },
                { probe: 'ANTHROPIC_API_KEY', where: 'environment', variable: 'ANTHROPIC_API_KEY' },
                { probe: 'ANTHROPIC_API_KEY', where: 'sandy secrets', variable: 'ANTHROPIC_API_KEY', path: '~/.sandy/.secrets' },
                { probe: 'ANTHROPIC_API_KEY', where: 'sandy config', variable: 'ANTHROPIC_API_KEY', path: '~/.sandy/config' }
            ]);
            expect(d.recommended).to.equal(true);
            expect(d.explanation).to.contain('sandy prefers the first of these.');
            // The token is only in config, the world-readable one: say where keys belong.
            expect(d.fix).to.equal('Consider moving CLAUDE_CODE_OAUTH_TOKEN from ~/.sandy/config to ~/.sandy/.secrets, the file kept private for keys.');
        });

        it('an empty login file is not a login, and says so', () => {
            const d = decideAgentCredentials(agent('claude'), facts({ files: { '~/.claude/.credentials.json': 'empty' } }));
            expect(d.recommended).to.equal(false);
            expect(d.found).to.deep.equal([]);
            expect(d.explanation).to.contain('~/.claude/.credentials.json is empty.');
        });

        it('on macOS the Keychain is named as not checked, and the file is still looked for', () => {
            const none = decideAgentCredentials(agent('claude'), facts({ platform: 'darwin' }));
            expect(none.recommended).to.equal(false);
            expect(none.notChecked.map(n => n.probe)).to.deep.equal(['host_credentials_file']);
            expect(none.explanation).to.contain('Keychain');
            expect(probeLabel('claude', 'host_credentials_file', 'darwin')).to.contain('macOS Keychain');
            expect(probeLabel('claude', 'host_credentials_file', 'linux')).to.equal('Claude Code login (~/.claude/.credentials.json)');
            const file = decideAgentCredentials(agent('claude'), facts({ platform: 'darwin', files: { '~/.claude/.credentials.json': 'present' } }));
            expect(file.recommended).to.equal(true);
            expect(file.notChecked).to.deep.equal([]);
        });

        it('a variable sandy-ui does not pass to sandy is no credential, and the fix says how to pass it', () => {
            const d = decideAgentCredentials(agent('claude'), facts({ envNotPassed: ['ANTHROPIC_API_KEY'] }));
            expect(d.recommended).to.equal(false);
            expect(d.fix).to.match(/^ANTHROPIC_API_KEY is set in sandy-ui's environment but not passed to sandy: add it to the sandy\.passEnvironment setting/);
        });
    });

    describe('gemini', () => {
        it('the current login file, the older tokens.json, or ADC', () => {
            const current = decideAgentCredentials(agent('gemini'), facts({ files: { '~/.gemini/oauth_creds.json': 'present' } }));
            expect(current.found).to.deep.equal([{ probe: 'host_tokens_json', where: 'file', path: '~/.gemini/oauth_creds.json' }]);
            const older = decideAgentCredentials(agent('gemini'), facts({ files: { '~/.gemini/tokens.json': 'present' } }));
            expect(older.found).to.deep.equal([{ probe: 'host_tokens_json', where: 'file', path: '~/.gemini/tokens.json' }]);
            const adc = decideAgentCredentials(agent('gemini'), facts({ files: { '~/.config/gcloud/application_default_credentials.json': 'present' } }));
            expect(adc.recommended).to.equal(true);
            expect(adc.found[0].probe).to.equal('host_adc');
        });

        it('like sandy, an empty oauth_creds.json is the one used, so tokens.json behind it does not count', () => {
            const d = decideAgentCredentials(agent('gemini'), facts({ files: { '~/.gemini/oauth_creds.json': 'empty', '~/.gemini/tokens.json': 'present' } }));
            expect(d.found).to.deep.equal([]);
            expect(d.explanation).to.contain('~/.gemini/oauth_creds.json is empty.');
        });

        it('a folder named oauth_creds.json is skipped, as sandy\'s [ -f ] skips it', () => {
            const d = decideAgentCredentials(agent('gemini'), facts({ files: { '~/.gemini/oauth_creds.json': 'not a file', '~/.gemini/tokens.json': 'present' } }));
            expect(d.found).to.deep.equal([{ probe: 'host_tokens_json', where: 'file', path: '~/.gemini/tokens.json' }]);
        });

        it('GEMINI_API_KEY from the environment', () => {
            const d = decideAgentCredentials(agent('gemini'), facts({ env: ['GEMINI_API_KEY'] }));
            expect(d.recommended).to.equal(true);
            expect(d.explanation).to.equal('Found for Gemini CLI: Gemini API key (GEMINI_API_KEY) in the environment.');
        });
    });

    describe('codex', () => {
        it('the login file or OPENAI_API_KEY', () => {
            expect(decideAgentCredentials(agent('codex'), facts({ files: { '~/.codex/auth.json': 'present' } })).recommended).to.equal(true);
            expect(decideAgentCredentials(agent('codex'), facts({ sandySecrets: ['OPENAI_API_KEY'] })).found)
                .to.deep.equal([{ probe: 'OPENAI_API_KEY', where: 'sandy secrets', variable: 'OPENAI_API_KEY', path: '~/.sandy/.secrets' }]);
        });

        it('an unreadable or symlinked-away login file is explained, not counted', () => {
            const unreadable = decideAgentCredentials(agent('codex'), facts({ files: { '~/.codex/auth.json': 'unreadable' } }));
            expect(unreadable.recommended).to.equal(false);
            expect(unreadable.explanation).to.contain('~/.codex/auth.json cannot be read by your user');
            const away = decideAgentCredentials(agent('codex'), facts({ files: { '~/.codex/auth.json': 'outside home' } }));
            expect(away.recommended).to.equal(false);
            expect(away.explanation).to.contain('outside your home folder');
        });
    });

    describe('opencode', () => {
        it('its own login file recommends it', () => {
            const d = decideAgentCredentials(agent('opencode'), facts({ files: { '~/.local/share/opencode/auth.json': 'present' } }));
            expect(d.recommended).to.equal(true);
            expect(d.found).to.deep.equal([{ probe: 'host_auth_json', where: 'file', path: '~/.local/share/opencode/auth.json' }]);
            expect(probeLabel('opencode', 'host_auth_json')).to.equal('OpenCode login (~/.local/share/opencode/auth.json)');
            expect(probeLabel('codex', 'host_auth_json')).to.equal('Codex login (~/.codex/auth.json)');
        });

        it('another provider\'s key is found and named, but does not pick it on its own', () => {
            const d = decideAgentCredentials(agent('opencode'), facts({ sandySecrets: ['ANTHROPIC_API_KEY'], env: ['OPENAI_API_KEY'] }));
            expect(d.found).to.deep.equal([
                { probe: 'provider_env_keys', where: 'sandy secrets', variable: 'ANTHROPIC_API_KEY', path: '~/.sandy/.secrets' },
                { probe: 'provider_env_keys', where: 'environment', variable: 'OPENAI_API_KEY' }
            ]);
            expect(d.recommended).to.equal(false);
            expect(d.explanation).to.equal('Found for OpenCode: ANTHROPIC_API_KEY in ~/.sandy/.secrets; OPENAI_API_KEY in the environment. '
                + 'OpenCode can use these keys, but so can another agent, so it is not picked for that alone; it also needs that provider\'s model chosen (OPENCODE_MODEL).');
            expect(d.fix).to.equal('Run `opencode auth login` on this computer, or put a provider\'s API key (ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY) '
                + 'in ~/.sandy/.secrets and choose that provider\'s model with OPENCODE_MODEL.');
        });

        it('GROQ_API_KEY is not one of them: sandy neither loads nor forwards it', () => {
            expect(decideAgentCredentials(agent('opencode'), facts({ env: ['GROQ_API_KEY'] })).found).to.deep.equal([]);
        });
    });

    describe('grok', () => {
        it('XAI_API_KEY is its credential; the grok login session is not checked, nothing being taken from this computer', () => {
            const d = decideAgentCredentials(agent('grok'), facts({ sandySecrets: ['XAI_API_KEY'] }));
            expect(d.recommended).to.equal(true);
            expect(d.notChecked).to.have.length(1);
            expect(d.notChecked[0].probe).to.equal('host_grok_session');
            expect(d.notChecked[0].reason).to.contain('grok login');
            expect(d.explanation, 'said only while nothing was found').to.equal('Found for Grok Build: xAI API key (XAI_API_KEY) in ~/.sandy/.secrets.');
            const none = decideAgentCredentials(agent('grok'), facts());
            expect(none.fix).to.contain('XAI_API_KEY');
            expect(none.fix).to.contain('grok login');
        });
    });

    describe('a newer sandy', () => {
        it('an unknown probe is reported as not checked, not a failure; a variable-shaped one is looked for', () => {
            const newer: AgentCredentialInfo = { name: 'claude', credentials: { probe_order: ['host_magic_link', 'CLAUDE_NEW_TOKEN', 'host_credentials_file'] } };
            expect(credentialVariablesToCheck([newer])).to.deep.equal(['CLAUDE_NEW_TOKEN']);
            const none = decideAgentCredentials(newer, facts());
            expect(none.notChecked).to.deep.equal([{
                probe: 'host_magic_link', reason: '"host_magic_link" (a check this sandy-ui does not know): this sandy-ui does not know what sandy checks for it (a newer sandy?).'
            }]);
            expect(none.explanation).to.contain('host_magic_link');
            const found = decideAgentCredentials(newer, facts({ sandySecrets: ['CLAUDE_NEW_TOKEN'] }));
            expect(found.recommended).to.equal(true);
            expect(found.explanation).to.equal('Found for Claude Code: the variable CLAUDE_NEW_TOKEN in ~/.sandy/.secrets. '
                + '"host_magic_link" (a check this sandy-ui does not know): this sandy-ui does not know what sandy checks for it (a newer sandy?).');
        });

        it('an unknown agent gets a generic description and fix, and its variables are checked', () => {
            const qwen: AgentCredentialInfo = { name: 'qwen', credentials: { probe_order: ['QWEN_API_KEY', 'host_qwen_file'] } };
            expect(agentDescription('qwen')).to.match(/^qwen: an agent this version of sandy offers\./);
            const d = decideAgentCredentials(qwen, facts());
            expect(d.recommended).to.equal(false);
            expect(d.notChecked.map(n => n.probe)).to.deep.equal(['host_qwen_file']);
            expect(d.fix).to.equal('Put QWEN_API_KEY in ~/.sandy/.secrets, or see sandy\'s documentation for how qwen signs in.');
            expect(decideAgentCredentials(qwen, facts({ env: ['QWEN_API_KEY'] })).recommended).to.equal(true);
        });

        it('an agent without a probe order: a known one uses sandy 1.7.1\'s, an unknown one checks nothing', () => {
            expect(decideAgentCredentials({ name: 'codex' }, facts({ env: ['OPENAI_API_KEY'] })).recommended).to.equal(true);
            const bare = decideAgentCredentials({ name: 'mystery' }, facts({ env: ['OPENAI_API_KEY'] }));
            expect(bare).to.deep.include({ recommended: false, found: [], notChecked: [] });
            expect(bare.fix).to.equal('See sandy\'s documentation for how mystery signs in.');
        });

        it('an agent named like an Object property is just unknown', () => {
            expect(agentDescription('constructor')).to.match(/^constructor: an agent/);
            expect(decideAgentCredentials({ name: '__proto__' }, facts()).found).to.deep.equal([]);
        });
    });

    it('says each finding in words, naming the file actually found', () => {
        expect(credentialFindingText('gemini', { probe: 'host_tokens_json', where: 'file', path: '~/.gemini/tokens.json' }))
            .to.equal('Gemini CLI login (~/.gemini/tokens.json)');
        expect(credentialFindingText('opencode', { probe: 'provider_env_keys', where: 'environment', variable: 'OPENAI_API_KEY' }))
            .to.equal('OPENAI_API_KEY in the environment');
        expect(credentialFindingText('claude', { probe: 'ANTHROPIC_API_KEY', where: 'sandy secrets', variable: 'ANTHROPIC_API_KEY', path: '~/.sandy/.secrets' }))
            .to.equal('Anthropic API key (ANTHROPIC_API_KEY) in ~/.sandy/.secrets');
    });

    it('every agent of sandy 1.x has a description of one or two sentences', () => {
        for (const a of AGENTS) {
            const text = agentDescription(a.name);
            expect(text, a.name).to.equal(AGENT_DESCRIPTIONS[a.name]);
            expect(text.split(/\.(?:\s|$)/).filter(Boolean).length, a.name).to.be.within(1, 2);
        }
    });

    it('recommendation order: recommended agents first, each group in the schema\'s order', () => {
        const all = decideCredentials(AGENTS, facts({
            sandySecrets: ['XAI_API_KEY', 'ANTHROPIC_API_KEY'],
            files: { '~/.codex/auth.json': 'present' }
        }));
        expect(all.map(a => `${a.agent}:${a.recommended}`)).to.deep.equal([
            'claude:true', 'codex:true', 'grok:true', 'gemini:false', 'opencode:false'
        ]);
    });

    it('a config file that could not be read is named by the agents that read variables', () => {
        const d = decideAgentCredentials(agent('codex'), facts({ problems: [{ path: '~/.sandy/.secrets', message: 'it is a symbolic link' }] }));
        expect(d.explanation).to.contain('~/.sandy/.secrets was not read: it is a symbolic link.');
    });
});
