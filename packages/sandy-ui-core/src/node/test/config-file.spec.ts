/**
 * The config-file model against real sandy 1.7.1 inputs (test/fixtures/sandy-1.7.1). Lives under
 * src/node/test because it reads fixtures with fs; the model itself is in src/common.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import {
    applyEdits, boolSpelling, ConfigEditError, ConfigKeyLike, diagnoseConfigFile, formatValue, getEffectiveValues,
    misplacedKeysInSecrets, parseConfigFile, readLoaderLine, routeKey, serializeConfigFile
} from '../../common/config/config-file';
import { fixturesRoot } from './sandy-fixtures';


const FIXTURES = fixturesRoot();
const INPUT_NAMES = ['input.config', 'input.secrets', 'input.approved.config'];

/** Fixture input files, read as sandy-ui reads them (UTF-8, BOM kept). */
function fixtureText(scenarioPrefix: string, file = 'input.config'): string {
    const dir = fs.readdirSync(FIXTURES).find(d => d === scenarioPrefix || d.startsWith(scenarioPrefix + '-'));
    if (!dir) {
        throw new Error(`no fixture ${scenarioPrefix}`);
    }
    return fs.readFileSync(path.join(FIXTURES, dir, file), 'utf8');
}

function schemaKeys(): ConfigKeyLike[] {
    const schema = JSON.parse(fs.readFileSync(path.join(FIXTURES, '01-print-schema', 'stdout.json'), 'utf8'));
    return [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys];
}

describe('config-file (unit)', () => {

    describe('round trip', () => {
        const inputs: string[] = [];
        for (const dir of fs.readdirSync(FIXTURES)) {
            for (const name of INPUT_NAMES) {
                if (fs.existsSync(path.join(FIXTURES, dir, name))) {
                    inputs.push(path.join(dir, name));
                }
            }
        }

        it('finds the fixture inputs', () => {
            expect(inputs.length).to.be.greaterThan(35);
        });

        for (const input of inputs) {
            it(`${input} serialises byte-identically`, () => {
                const bytes = fs.readFileSync(path.join(FIXTURES, input));
                const doc = parseConfigFile(bytes.toString('utf8'));
                expect(Buffer.from(serializeConfigFile(doc), 'utf8').equals(bytes)).to.equal(true);
            });
        }

        it('keeps CRLF/LF per line, a missing final newline, a BOM and empty files', () => {
            for (const text of ['', '\n', 'A_B=1', 'A=1\r\nB=2\nC=3', '\uFEFFSANDY_AGENT=claude\n', '\r\n\r\n', 'X=\r', 'A=1\n\n# c\r\n']) {
                expect(serializeConfigFile(parseConfigFile(text))).to.equal(text);
            }
        });

        it('a no-op edit returns the same document', () => {
            const doc = parseConfigFile(fixtureText('15'));
            const result = applyEdits(doc, [{ key: 'SANDY_EFFORT', value: 'high' }, { key: 'NOT_THERE', value: undefined }]);
            expect(result.changed).to.equal(false);
            expect(result.document).to.equal(doc);
        });
    });

    describe('reads values as sandy does', () => {
        it('fixture 15: malformed lines are ignored, the rest read literally', () => {
            const doc = parseConfigFile(fixtureText('15'));
            expect(getEffectiveValues(doc)).to.deep.equal({
                SANDY_VERBOSE: '1 # inline comment after value',
                SANDY_EFFORT: 'high',
                SANDY_TEAMMATE_MODE: 'tmux',
                SANDY_EGRESS_LOG: 'summary=extra=equals',
                SANDY_SSH: 'agent # privileged key WITH inline comment',
                SANDY_AGENT: '=claude',
                SANDY_GEMINI_AUTH: 'oauth',
                SANDY_ALLOW_WORKFLOW_EDIT: '1',
                GEMINI_MODEL: '\tgemini-2.5-pro',
                SANDY_OPENCODE_AUTH: 'oauth'
            });
            // export / indented / `KEY = v` / no `=` / empty value / `=v` / `KEY:v` / [section] / quoted key
            const opaque = doc.lines.filter(l => l.kind === 'opaque').map(l => l.text);
            expect(opaque).to.include.members(['export SANDY_AGENT=gemini', '  SANDY_MODEL=claude-sonnet-4-5', 'SANDY_CPUS = 4',
                'SANDY_MEM', 'SANDY_GPU=', '=orphan-value', 'SANDY_CHANNELS:telegram', '[section]', '"SANDY_CODEX_AUTH"=api_key']);
        });

        it('fixture 15b: CRLF lines lose their CR', () => {
            const doc = parseConfigFile(fixtureText('15b'));
            expect(getEffectiveValues(doc)).to.deep.equal({ SANDY_AGENT: 'claude', SANDY_SSH: 'agent', SANDY_ALLOW_WORKFLOW_EDIT: '1' });
            expect(doc.lines.map(l => l.eol)).to.deep.equal(['\r\n', '\r\n', '\r\n']);
        });

        it('fixture 21: special characters stay literal, quotes stripped one per side', () => {
            const values = getEffectiveValues(parseConfigFile(fixtureText('21')));
            expect(values.SANDY_MODEL).to.equal('<script>alert(1)</script>');
            expect(values.GEMINI_MODEL).to.equal('double quoted');
            expect(values.CODEX_MODEL).to.equal('single quoted');
            expect(values.OPENCODE_MODEL).to.equal('mixed');
            expect(values.GROK_MODEL).to.equal('  leading and trailing spaces  ');
            expect(values.GOOGLE_CLOUD_LOCATION).to.equal('ünïcødé-日本語-🚀');
            expect(values.SANDY_TEAMMATE_MODE).to.match(/^\$\(touch .*\/pwned\)$/);
            expect(values.SANDY_CHANNELS).to.equal('`id`');
            expect(values.SANDY_MEM).to.equal('back\\slash\\n');
            expect(values.TELEGRAM_ALLOWED_SENDERS).to.equal('1,2;3|4');
        });

        it('fixture 54c: an inline comment is part of the value', () => {
            const doc = parseConfigFile(fixtureText('54c'));
            expect(getEffectiveValues(doc)).to.deep.equal({ SANDY_EGRESS_STRICT: '1 # strict please' });
            expect(diagnoseConfigFile(doc).map(d => d.code)).to.deep.equal(['inline-comment']);
        });

        it('bash read drops exactly one trailing "=" of a single field', () => {
            expect(readLoaderLine('K=abc=')?.value).to.equal('abc');
            expect(readLoaderLine('K=abc==')?.value).to.equal('abc==');
            expect(readLoaderLine('K=a=b=')?.value).to.equal('a=b=');
            expect(readLoaderLine('K==')?.value).to.equal('');
            expect(readLoaderLine('K==v')?.value).to.equal('=v');
            expect(readLoaderLine('K=abc=\r')?.value).to.equal('abc=');
            expect(readLoaderLine('K="abc="')?.value).to.equal('abc=');
        });

        it('KEY=<CR> passes grep and sets an empty value; KEY= does not', () => {
            expect(getEffectiveValues(parseConfigFile('A=\r\nB=\n'))).to.deep.equal({ A: '' });
        });

        it('a BOM hides the first line, a NUL byte hides the whole file', () => {
            expect(getEffectiveValues(parseConfigFile('\uFEFFSANDY_AGENT=codex\nSANDY_MODEL=m\n'))).to.deep.equal({ SANDY_MODEL: 'm' });
            const binary = parseConfigFile('SANDY_AGENT=codex\nX=\0\n');
            expect(getEffectiveValues(binary)).to.deep.equal({});
            expect(diagnoseConfigFile(binary)[0].code).to.equal('binary-file');
            expect(() => applyEdits(binary, [{ key: 'SANDY_AGENT', value: 'claude' }])).to.throw(ConfigEditError);
        });

        it('last line wins', () => {
            expect(getEffectiveValues(parseConfigFile('A=1\nA=2\n'))).to.deep.equal({ A: '2' });
        });
    });

    describe('formatValue', () => {
        const tricky = ['plain', '', ' ', '"', '\'', '""', '\'\'', '"x', 'x"', '\'x', 'x\'', '"x\'', '\'x"', ' lead', 'trail ',
            'a # b', 'a#b', 'abc=', 'abc==', '=', '==', 'a=b', '\t', 'ünï 🚀', '$(id)', '`id`', 'back\\slash', '"\'both\'"', '\'"mixed"\''];

        it('reads back as the same value for every tricky value and every preferred style', () => {
            for (const value of tricky) {
                for (const style of ['none', 'double', 'single'] as const) {
                    const f = formatValue(value, style);
                    expect(f.ok, value).to.equal(true);
                    const text = (f as { text: string }).text;
                    expect(readLoaderLine(`K=${text}`)?.value, `${style} ${JSON.stringify(value)} → ${text}`).to.equal(value);
                    // … also in a CRLF file
                    expect(readLoaderLine(`K=${text}\r`)?.value).to.equal(value);
                }
            }
        });

        it('quotes only when needed', () => {
            expect(formatValue('claude-opus-5')).to.deep.include({ text: 'claude-opus-5', quote: 'none' });
            expect(formatValue('a=b')).to.deep.include({ text: 'a=b' });
            expect(formatValue('')).to.deep.include({ text: '""' });
            expect(formatValue(' x')).to.deep.include({ text: '" x"' });
            expect(formatValue('abc=')).to.deep.include({ text: '"abc="' });
            expect(formatValue('\'x')).to.deep.include({ text: '\'\'x\'' });
            expect(formatValue('a # b')).to.deep.include({ text: '"a # b"' });
        });

        it('refuses values sandy cannot represent', () => {
            for (const value of ['a\nb', 'a\r', 'a\0b', '\uD800']) {
                expect(formatValue(value).ok, JSON.stringify(value)).to.equal(false);
            }
        });

        it('random values round-trip', () => {
            const alphabet = ['a', 'Z', '0', '=', '"', '\'', ' ', '\t', '#', '\\', '$', 'é', '🚀'];
            let seed = 42;
            const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
            for (let i = 0; i < 2000; i++) {
                let value = '';
                for (let j = rnd(7); j > 0; j--) {
                    value += alphabet[rnd(alphabet.length)];
                }
                const f = formatValue(value) as { text: string };
                expect(readLoaderLine(`K=${f.text}`)?.value, JSON.stringify(value)).to.equal(value);
            }
        });
    });

    describe('applyEdits', () => {
        it('changes only the lines of changed keys', () => {
            const text = fixtureText('15');
            const doc = parseConfigFile(text);
            const result = applyEdits(doc, [{ key: 'SANDY_EFFORT', value: 'low' }, { key: 'SANDY_AGENT', value: '=claude' }]);
            expect(result.changedKeys).to.deep.equal(['SANDY_EFFORT']);
            const before = text.split('\n');
            const after = serializeConfigFile(result.document).split('\n');
            expect(after.length).to.equal(before.length);
            const changed = before.map((l, i) => l === after[i] ? -1 : i).filter(i => i >= 0);
            expect(changed).to.deep.equal([10]);
            // `SANDY_EFFORT="high` had no matching quotes, so the minimal form is used.
            expect(after[10]).to.equal('SANDY_EFFORT=low');
        });

        it('keeps the line ending and the quoting style of the rewritten line', () => {
            const doc = parseConfigFile('# x\r\nGEMINI_MODEL="old"\r\nCODEX_MODEL=\'o\'\nSANDY_MEM=4g');
            const out = serializeConfigFile(applyEdits(doc, [
                { key: 'GEMINI_MODEL', value: 'new' },
                { key: 'CODEX_MODEL', value: 'n' },
                { key: 'SANDY_MEM', value: '8g' }
            ]).document);
            expect(out).to.equal('# x\r\nGEMINI_MODEL="new"\r\nCODEX_MODEL=\'n\'\nSANDY_MEM=8g');
        });

        it('falls back when the old quoting cannot carry the new value', () => {
            const out = serializeConfigFile(applyEdits(parseConfigFile('GEMINI_MODEL="old"\n'), [{ key: 'GEMINI_MODEL', value: '\'q' }]).document);
            expect(out).to.equal('GEMINI_MODEL=\'\'q\'\n');
        });

        it('updates the last occurrence and drops earlier duplicates', () => {
            const out = serializeConfigFile(applyEdits(parseConfigFile('SANDY_SSH=agent\n# keep\nSANDY_SSH=token\nZ=1\n'),
                [{ key: 'SANDY_SSH', value: 'agent' }]).document);
            expect(out).to.equal('# keep\nSANDY_SSH=agent\nZ=1\n');
        });

        it('removes every line of a deleted key and leaves look-alike lines alone', () => {
            const out = serializeConfigFile(applyEdits(parseConfigFile('A=1\nexport A=2\nB=2\nA=3\n'), [{ key: 'A', value: undefined }]).document);
            expect(out).to.equal('export A=2\nB=2\n');
        });

        it('appends new keys in the file\'s newline style', () => {
            expect(serializeConfigFile(applyEdits(parseConfigFile('A=1\r\nB=2\r\n'), [{ key: 'C', value: '3' }]).document))
                .to.equal('A=1\r\nB=2\r\nC=3\r\n');
            expect(serializeConfigFile(applyEdits(parseConfigFile(''), [{ key: 'C', value: '' }]).document)).to.equal('C=""\n');
        });

        it('keeps a missing final newline missing', () => {
            expect(serializeConfigFile(applyEdits(parseConfigFile('A=1\nB=2'), [{ key: 'C', value: '3' }, { key: 'D', value: '4' }]).document))
                .to.equal('A=1\nB=2\nC=3\nD=4');
        });

        it('rejects keys sandy cannot read and unrepresentable values, applying nothing', () => {
            const doc = parseConfigFile('A=1\n');
            let error: ConfigEditError | undefined;
            try {
                applyEdits(doc, [{ key: 'A', value: '2' }, { key: 'lower', value: 'x' }, { key: 'B2', value: 'x' }, { key: 'C', value: 'a\nb' }]);
            } catch (e) {
                error = e as ConfigEditError;
            }
            expect(error).to.be.instanceOf(ConfigEditError);
            expect(error!.problems.map(p => p.key)).to.deep.equal(['lower', 'B2', 'C']);
            expect(error!.hint).to.be.a('string').and.not.equal('');
        });
    });

    describe('diagnostics', () => {
        it('fixture 15: flags what the author probably meant', () => {
            const found = diagnoseConfigFile(parseConfigFile(fixtureText('15'))).map(d => `${d.line}:${d.code}`);
            expect(found).to.include.members([
                '2:export-prefix', '3:leading-whitespace', '4:spaces-around-equals', '5:missing-equals', '6:empty-value',
                '8:missing-equals', '10:inline-comment', '11:unbalanced-quote', '12:unbalanced-quote', '14:inline-comment',
                '16:quoted-key', '19:value-whitespace'
            ]);
        });

        it('flags lowercase and digit keys, a BOM, and a dropped trailing "="', () => {
            const codes = diagnoseConfigFile(parseConfigFile('\uFEFFA=1\nsandy_agent=claude\nHA_TOKEN2=x\nANTHROPIC_API_KEY=abc=\n'))
                .map(d => `${d.line}:${d.code}`);
            expect(codes).to.deep.equal(['1:bom', '2:not-loader-key', '3:not-loader-key', '4:dropped-trailing-equals']);
        });

        it('does not flag quoted values containing # or outer spaces', () => {
            expect(diagnoseConfigFile(parseConfigFile('SANDY_MEM="a # b"\nGROK_MODEL=" x "\n'))).to.deep.equal([]);
        });
    });

    describe('schema helpers', () => {
        const keys = schemaKeys();
        const key = (name: string) => keys.find(k => k.name === name)!;

        it('bool spelling follows the schema default (CONTRACT §0.5)', () => {
            expect(boolSpelling(key('SANDY_SKIP_PERMISSIONS'))).to.deep.equal(['true', 'false']);
            expect(boolSpelling(key('SANDY_VENV_OVERLAY'))).to.deep.equal(['1', '0']);
            expect(boolSpelling(key('SANDY_EGRESS_STRICT'))).to.deep.equal(['1', '0']);
            expect(boolSpelling(key('CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS'))).to.deep.equal(['1', '0']);
            expect(boolSpelling(key('GOOGLE_GENAI_USE_VERTEXAI'))).to.deep.equal(['true', 'false']);
        });

        it('routes secrets to .secrets, everything else to config', () => {
            expect(routeKey('ANTHROPIC_API_KEY', keys)).to.equal('secrets');
            expect(routeKey('TELEGRAM_BOT_TOKEN', new Map(keys.map(k => [k.name, k])))).to.equal('secrets');
            expect(routeKey('SANDY_SSH', keys)).to.equal('config');
            expect(routeKey('UNKNOWN_THING', keys)).to.equal('config');
        });

        it('flags non-secret schema keys in .secrets, not SANDY_EXTRA_ENV names', () => {
            const doc = parseConfigFile('ANTHROPIC_API_KEY=x\nSANDY_MODEL=m\nHA_TOKEN=t\n');
            expect(misplacedKeysInSecrets(doc, keys)).to.deep.equal([{ key: 'SANDY_MODEL', line: 2, text: 'SANDY_MODEL=m' }]);
        });

        it('every schema key can be written by the loader (no digits, no lowercase)', () => {
            expect(keys.filter(k => !/^[A-Z_]+$/.test(k.name))).to.deep.equal([]);
        });
    });
});
