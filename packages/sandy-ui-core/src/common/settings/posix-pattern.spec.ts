import { expect } from 'chai';
import { buildSettingsFields } from './settings-fields';
import { posixPatternToJs } from './posix-pattern';
import { validateFieldValue } from './settings-validation';
import { fallbackField, schemaWith } from './settings-test-fixtures';

describe('posix-pattern: POSIX patterns (unit)', () => {
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
});
