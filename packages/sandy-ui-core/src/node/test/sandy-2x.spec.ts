import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { describeVerdict, evaluateCompat } from '../../common/sandy/compat';
import { isSecretKey, parsePrintSchema, parsePrintState } from '../../common/sandy/contract';
import { routeKey } from '../../common/config/config-file';
import { buildSettingsFields } from '../../common/settings/settings-fields';
import { isDeprecatedKey } from '../../common/config/starter-config';
import { loadFixture, repoFixtureFolder } from './sandy-fixtures';

/** The real `--print-schema` of a sandy 2.x (test/fixtures/sandy-<version>/README.md: provenance). */
function schemaText(version: string): string {
    return fs.readFileSync(path.join(repoFixtureFolder(`sandy-${version}`, 'print-schema.json'), 'print-schema.json'), 'utf8');
}
const schema271Text = (): string => schemaText('2.7.1');

describe('sandy 2.x: the real 2.8.0-dev schema, every key against 2.7.1\'s rules (unit)', () => {
    const schema = parsePrintSchema(schemaText('2.8.0-dev'));
    const keys = [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys];

    it('parses; the gate is silent; every key has a working field; base_type never overrides a type the UI knows', () => {
        expect(schema.sandy).to.deep.include({ version: '2.8.0-dev', commit: 'f585240' });
        expect(keys).to.have.length(24 + 38 + 4);
        expect(describeVerdict(evaluateCompat({ sandyVersion: `${schema.sandy.version}-${schema.sandy.commit}`, schemaVersion: schema.schema_version })).severity).to.equal('none');
        const set = buildSettingsFields(schema);
        expect(set.entries.filter(f => f.kind === 'broken')).to.deep.equal([]);
        expect(set.entries.map(f => f.key).sort()).to.deep.equal(keys.map(k => k.name).sort());
        for (const f of set.entries) {
            if (f.kind === 'field') {
                expect(f.hint, `${f.key}: ${f.hint}`).to.equal(undefined);
            }
        }
        // Secrets say base_type "string": still secrets, in .secrets, masked.
        expect(set.fields.get('ANTHROPIC_API_KEY')).to.deep.include({ widget: 'secret', file: 'secrets' });
        expect(keys.filter(k => k.type === 'secret').every(k => isSecretKey(k) && k.base_type === 'string')).to.equal(true);
        expect(set.fields.get('SANDY_CHANNEL')).to.deep.include({ widget: 'select', readOnly: true });
        expect(set.fields.get('SANDY_SCREENSHOT_DIR')).to.deep.include({ widget: 'path' });
        expect(schema.cli_flags.map(f => f.name)).to.include('--accounts').and.include('--login').and.include('--doctor');
    });
});

describe('sandy 2.x: the real 2.7.1 schema (unit)', () => {
    const schema = parsePrintSchema(schema271Text());
    const keys = [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys];

    it('parses, every key kept', () => {
        expect(schema.schema_version).to.equal(4);
        expect(schema.sandy.version).to.equal('2.7.1');
        expect(keys).to.have.length(24 + 38 + 3);
        expect(schema.agents.map(a => a.name)).to.include('grok');
    });

    it('the gate is silent for it: no error or warning at start (the defect the reference extension hotfixed)', () => {
        const verdict = evaluateCompat({ sandyVersion: schema.sandy.version, schemaVersion: schema.schema_version });
        expect(verdict.kind).to.equal('supported');
        expect(describeVerdict(verdict).severity).to.equal('none');
    });

    it('the settings form has a working field for every key, none broken, none falling back to text for an unknown type', () => {
        const set = buildSettingsFields(schema);
        const fields = set.entries;
        const broken = fields.filter(f => f.kind === 'broken');
        expect(broken, JSON.stringify(broken)).to.deep.equal([]);
        const shown = fields.filter(f => f.kind === 'field').map(f => f.key).sort();
        expect(shown).to.deep.equal(keys.map(k => k.name).sort());
        for (const f of fields) {
            if (f.kind === 'field') {
                expect(f.hint, `${f.key}: ${f.hint}`).to.equal(undefined);
            }
        }
        const byKey = new Map(fields.flatMap(f => f.kind === 'field' ? [[f.key, f] as const] : []));
        expect(byKey.get('SANDY_SCREENSHOT_DIR')).to.deep.include({ widget: 'path', pathKind: 'folder' });
        expect(byKey.get('SANDY_EGRESS')).to.deep.include({ widget: 'select', choices: ['off', 'permissive', 'strict'] });
        expect(byKey.get('XAI_API_KEY')).to.deep.include({ widget: 'secret', file: 'secrets' });
        expect(set.fields.get('SANDY_AGENT')?.agents).to.include('grok');
    });

    it('removed and deprecated keys are marked from the schema\'s own words, and no starter suggests them', () => {
        const fields = buildSettingsFields(schema).entries;
        const lifecycle = Object.fromEntries(fields.flatMap(f => f.kind === 'field' && f.lifecycle ? [[f.key, f.lifecycle]] : []));
        expect(lifecycle).to.deep.equal({
            SANDY_HANDOFF_RELAY: 'removed',
            SANDY_RELAY: 'removed',
            SANDY_EGRESS_PROXY: 'deprecated'
        });
        const relay = fields.find(f => f.key === 'SANDY_RELAY');
        expect(relay?.kind === 'field' && relay.notes.join(' ')).to.contain('refuse to start');
        for (const name of Object.keys(lifecycle)) {
            expect(isDeprecatedKey(keys.find(k => k.name === name)!), name).to.equal(true);
        }
    });

    it('a type the UI does not know but whose base_type it does is edited as that base type', () => {
        const withNewType = JSON.parse(schema271Text());
        withNewType.config.passive_keys.push({ name: 'SANDY_NEW_DIR', type: 'dir_list', base_type: 'path', description: 'A new kind of path.', sources: ['home_config'] });
        withNewType.config.passive_keys.push({ name: 'SANDY_NEW_THING', type: 'thing', description: 'No base type.', sources: ['home_config'] });
        const fields = buildSettingsFields(parsePrintSchema(JSON.stringify(withNewType))).entries;
        const dir = fields.find(f => f.key === 'SANDY_NEW_DIR');
        expect(dir).to.deep.include({ kind: 'field', type: 'dir_list', widget: 'path', hint: undefined });
        expect(dir?.kind === 'field' && dir.notes.join(' ')).to.contain('edited as its base type "path"');
        expect(fields.find(f => f.key === 'SANDY_NEW_THING')).to.deep.include({ widget: 'text' })
            .and.to.have.property('hint').that.contains('"thing" is not recognised');
        // A secret by its base type is a secret everywhere: the form, the file it is written to, pre-flight's masking.
        withNewType.config.privileged_keys.push({ name: 'NEW_PROVIDER_KEY', type: 'api_token', base_type: 'secret', sources: ['home_config'] });
        const schema2 = parsePrintSchema(JSON.stringify(withNewType));
        expect(buildSettingsFields(schema2).fields.get('NEW_PROVIDER_KEY')).to.deep.include({ widget: 'secret', file: 'secrets' });
        expect(routeKey('NEW_PROVIDER_KEY', schema2.config.privileged_keys)).to.equal('secrets');
        expect(isSecretKey(schema2.config.privileged_keys.find(k => k.name === 'NEW_PROVIDER_KEY'))).to.equal(true);
    });
});

describe('sandy 2.x: --print-state with workspace_path null (documents only) (unit)', () => {
    it('a sandbox without a marker (null in 2.x, "" in 1.7.1) parses as "" instead of failing the whole state', () => {
        const state = JSON.parse(loadFixture('41-print-state-full-populated').stdout);
        expect(state.sandboxes.length).to.be.greaterThan(0);
        state.schema_version = 4;
        state.sandboxes[0].workspace_path = null;
        const parsed = parsePrintState(JSON.stringify(state));
        expect(parsed.sandboxes[0].workspace_path).to.equal('');
    });
});
