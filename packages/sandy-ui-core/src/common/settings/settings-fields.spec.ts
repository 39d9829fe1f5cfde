import { expect } from 'chai';
import { SandySchema } from '../sandy/contract';
import { BUNDLED_FALLBACK_SCHEMA } from '../sandy/schema-cache';
import { buildSettingsFields } from './settings-fields';
import { fallbackField, schemaWith } from './settings-test-fixtures';

describe('settings-fields: field descriptors (unit)', () => {
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
