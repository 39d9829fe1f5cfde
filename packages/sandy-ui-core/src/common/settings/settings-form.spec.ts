import { expect } from 'chai';
import { ConfigKey, SandySchema } from '../sandy/contract';
import { BUNDLED_FALLBACK_SCHEMA } from '../sandy/schema-cache';
import {
    buildSettingsFields, buildSettingsForm, describeValidateResult, parseAgentCombo, posixPatternToJs, ScopeFormState,
    SettingsField, SettingsFormState, SettingsScopeData, SettingsSnapshot, toggleAgent, validateAgentCombo, validateFieldValue
} from './settings-form';

function schemaWith(privileged: unknown[], passive: unknown[] = [], envOnly: unknown[] = [], agents?: unknown[]): SandySchema {
    return {
        ...BUNDLED_FALLBACK_SCHEMA,
        agents: (agents ?? BUNDLED_FALLBACK_SCHEMA.agents) as SandySchema['agents'],
        config: {
            privileged_keys: privileged as ConfigKey[],
            passive_keys: passive as ConfigKey[],
            env_only_keys: envOnly as ConfigKey[]
        }
    };
}

function scopeData(partial: Partial<SettingsScopeData> = {}): SettingsScopeData {
    return {
        values: {}, secretsSet: {}, unknownKeys: [], misplaced: [],
        filePaths: { config: '/h/.sandy/config', secrets: '/h/.sandy/.secrets' },
        ...partial
    };
}

function snapshot(project: Partial<SettingsScopeData> | undefined, global: Partial<SettingsScopeData> = {}, extra: Partial<SettingsSnapshot> = {}): SettingsSnapshot {
    return {
        schema: BUNDLED_FALLBACK_SCHEMA,
        schemaSource: 'sandy',
        scopes: {
            project: project && scopeData({ filePaths: { config: '/w/.sandy/config', secrets: '/w/.sandy/.secrets' }, ...project }),
            global: scopeData(global)
        },
        workspace: '/w',
        ...extra
    };
}

function fallbackField(key: string): SettingsField {
    const field = buildSettingsFields(BUNDLED_FALLBACK_SCHEMA).fields.get(key);
    expect(field, key).to.not.equal(undefined);
    return field!;
}

function scopeState(data: Partial<SettingsScopeData> = {}, scope: 'project' | 'global' = 'project'): ScopeFormState {
    const state = new ScopeFormState(scope);
    state.setForm(buildSettingsForm(BUNDLED_FALLBACK_SCHEMA, scopeData(data), { scope }));
    return state;
}

describe('settings-form (unit)', () => {

    describe('field descriptors', () => {
        it('maps every schema type to a widget, and an unknown type to text with a hint', () => {
            const set = buildSettingsFields(schemaWith([
                { name: 'A_STRING', type: 'string' },
                { name: 'A_INT', type: 'int' },
                { name: 'A_BOOL', type: 'bool', default: '0' },
                { name: 'A_SECRET', type: 'secret' },
                { name: 'A_ENUM', type: 'enum', choices: ['x', 'y'] },
                { name: 'A_COMBO', type: 'agent_combo' },
                { name: 'A_DIR', type: 'path' },
                { name: 'A_FUTURE', type: 'duration', default: '5m' }
            ]));
            const widgets = Object.fromEntries([...set.fields.values()].map(f => [f.key, f.widget]));
            expect(widgets).to.deep.equal({
                A_STRING: 'text', A_INT: 'number', A_BOOL: 'toggle', A_SECRET: 'secret',
                A_ENUM: 'select', A_COMBO: 'agents', A_DIR: 'path', A_FUTURE: 'text'
            });
            const future = set.fields.get('A_FUTURE')!;
            expect(future.hint).to.match(/"duration" is not recognised/);
            expect(future.default).to.equal('5m');
            expect(set.fields.get('A_DIR')!.pathKind).to.equal('folder');
            expect(set.fields.get('A_SECRET')!.file).to.equal('secrets');
            expect([...set.fields.values()].filter(f => f.file === 'secrets').map(f => f.key)).to.deep.equal(['A_SECRET']);
        });

        it('yields a field for every key of the bundled fallback schema, grouped by tier', () => {
            const schema = BUNDLED_FALLBACK_SCHEMA;
            const set = buildSettingsFields(schema);
            const names = [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys].map(k => k.name);
            expect(names.length).to.equal(55);
            expect(set.entries.map(e => e.key)).to.deep.equal(names);
            expect(set.entries.every(e => e.kind === 'field')).to.equal(true);
            expect(set.groups.map(g => [g.tier, g.entries.length])).to.deep.equal([['privileged', 21], ['passive', 31], ['env-only', 3]]);
            expect(set.problems).to.deep.equal([]);
            for (const field of set.fields.values()) {
                expect(field.readOnly, field.key).to.equal(field.tier === 'env-only');
                expect(field.hint, field.key).to.equal(undefined);
            }
            expect(fallbackField('SANDY_SCREENSHOT_DIR').widget).to.equal('path');
            expect(fallbackField('SANDY_SCREENSHOT_DIR').pathKind).to.equal('folder');
            expect(fallbackField('SANDY_AGENT').agents).to.deep.equal(['claude', 'gemini', 'codex', 'opencode', 'grok']);
            expect(fallbackField('SANDY_EFFORT').choices).to.deep.equal(['low', 'medium', 'high', 'xhigh', 'max']);
            expect(fallbackField('SANDY_LOCAL_LLM_HOST').jsPattern).to.equal('^[^ \\t\\n\\r\\f\\v]+:[0-9]+$');
        });

        it('turns a key that throws into a broken entry without losing the others', () => {
            const evil = { name: 'EVIL_KEY', get type(): string { throw new Error('boom'); } };
            const set = buildSettingsFields(schemaWith([{ name: 'GOOD_ONE', type: 'string' }, evil, { type: 'string' }, { name: 'GOOD_TWO', type: 'int' }]));
            expect(set.entries.map(e => [e.key, e.kind])).to.deep.equal([
                ['GOOD_ONE', 'field'], ['EVIL_KEY', 'broken'], ['(key 3)', 'broken'], ['GOOD_TWO', 'field']
            ]);
            const broken = set.entries[1];
            expect(broken.kind === 'broken' && broken.error).to.match(/boom/);
        });

        it('survives a malformed schema: missing lists, non-string fields, enums without choices', () => {
            const set = buildSettingsFields({ config: { passive_keys: [{ name: 'X_ENUM', type: 'enum', choices: 42 }, { name: 'X_NUM', type: 7 }] } } as unknown as SandySchema);
            expect(set.problems.length).to.equal(1);
            expect(set.fields.get('X_ENUM')!.widget).to.equal('text');
            expect(set.fields.get('X_ENUM')!.notes[0]).to.match(/no choices/);
            expect(set.fields.get('X_NUM')!.hint).to.match(/"7" is not recognised/);
            expect(buildSettingsFields(undefined as unknown as SandySchema).entries).to.deep.equal([]);
        });

        it('offers agents the schema adds, and makes keys the loader cannot read read-only', () => {
            const set = buildSettingsFields(schemaWith([{ name: 'lower_key', type: 'string' }], [{ name: 'SANDY_AGENT', type: 'agent_combo' }], [],
                [{ name: 'claude', image: 'x' }, { name: 'newbie', image: 'y' }, { name: 'bad,name', image: 'z' }]));
            expect(set.fields.get('SANDY_AGENT')!.agents).to.deep.equal(['claude', 'gemini', 'codex', 'opencode', 'grok', 'newbie']);
            expect(set.fields.get('lower_key')!.readOnly).to.equal(true);
        });
    });

    describe('POSIX patterns', () => {
        it('converts [[:space:]] so SANDY_LOCAL_LLM_HOST is checked live', () => {
            const result = posixPatternToJs('^[^[:space:]]+:[0-9]+$');
            expect(result.ok).to.equal(true);
            const re = (result as { regex: RegExp }).regex;
            expect(re.test('localhost:11434')).to.equal(true);
            expect(re.test('local host:11434')).to.equal(false);
            expect(re.test('host:\t1')).to.equal(false);
            const field = fallbackField('SANDY_LOCAL_LLM_HOST');
            expect(validateFieldValue(field, '127.0.0.1:11434')).to.equal(undefined);
            expect(validateFieldValue(field, 'local host:11434')).to.match(/does not match the pattern \^\[\^\[:space:\]\]\+:\[0-9\]\+\$/);
        });

        it('expands every common class and keeps POSIX bracket rules', () => {
            const cases: [string, string[], string[]][] = [
                ['^[[:alnum:]]+$', ['aZ09'], ['a-b']],
                ['^[[:digit:]]+$', ['0123'], ['1a']],
                ['^[[:alpha:]]+$', ['abcXYZ'], ['ab1']],
                ['^[[:upper:]]+$', ['ABC'], ['AbC']],
                ['^[[:lower:]]+$', ['abc'], ['aBc']],
                ['^[[:punct:]]+$', ['!-/:@[`{~'], ['a']],
                ['^[[:xdigit:]]+$', ['09afAF'], ['g']],
                ['^[[:alpha:][:digit:]_]+$', ['a_1'], ['a-1']],
                ['^[\\.]$', ['\\', '.'], ['x']],
                ['^[]a]+$', [']a'], ['b']]
            ];
            for (const [pattern, good, bad] of cases) {
                const result = posixPatternToJs(pattern);
                expect(result.ok, pattern).to.equal(true);
                const re = (result as { regex: RegExp }).regex;
                good.forEach(v => expect(re.test(v), `${pattern} ~ ${v}`).to.equal(true));
                bad.forEach(v => expect(re.test(v), `${pattern} !~ ${v}`).to.equal(false));
            }
        });

        it('reports patterns it cannot translate instead of throwing, and the field then skips the check', () => {
            expect(posixPatternToJs('[[:nope:]]').ok).to.equal(false);
            expect(posixPatternToJs('[abc').ok).to.equal(false);
            expect(posixPatternToJs('[[.a.]]').ok).to.equal(false);
            expect(posixPatternToJs('a{2,1}').ok).to.equal(false);
            const set = buildSettingsFields(schemaWith([{ name: 'ODD', type: 'string', pattern: '(unclosed' }]));
            const field = set.fields.get('ODD')!;
            expect(field.jsPattern).to.equal(undefined);
            expect(field.notes[0]).to.match(/cannot be checked here/);
            expect(validateFieldValue(field, 'anything')).to.equal(undefined);
        });

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
    });

    describe('validation', () => {
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

    describe('edit state', () => {
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

    describe('SettingsFormState', () => {
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

    describe('describeValidateResult', () => {
        it('summarises a verdict without claiming values were checked', () => {
            expect(describeValidateResult({
                path: '/w/.sandy/config', errors: [], unknown_keys: ['SANDY_TYPO'], approval_status: 'pending',
                privileged_keys_requiring_approval: ['SANDY_SSH'],
                warnings: [{ key: 'SANDY_SSH', message: 'privileged' }, { key: 'SANDY_HOST_ID', message: 'env-only key set in a config file' }]
            })).to.deep.equal([
                'Needs your approval at the next launch: SANDY_SSH.',
                'SANDY_HOST_ID: env-only key set in a config file',
                'sandy does not know (and ignores): SANDY_TYPO.'
            ]);
            expect(describeValidateResult({ path: '/h/.sandy/config', errors: [], warnings: [], unknown_keys: [] }))
                .to.deep.equal(['sandy --validate-config found nothing to report in config.']);
        });
    });
});
