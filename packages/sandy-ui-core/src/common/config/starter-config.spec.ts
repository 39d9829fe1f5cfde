import { expect } from 'chai';
import type { ConfigKey, SandySchema } from '../sandy/contract';
import { BUNDLED_FALLBACK_SCHEMA } from '../sandy/schema-cache';
import { diagnoseConfigFile, getEffectiveValues, parseConfigFile } from './config-file';
import { collectPendingPrivileged, isWeakeningValue } from './preflight';
import {
    COPY_MAX_FILE_CHARS, COPY_MAX_LINE_CHARS, copyPlanText, planCopy, STARTER_KEYS, STARTER_WIDTH, starterConfigText, workspaceSettableKeys
} from './starter-config';

const schema = BUNDLED_FALLBACK_SCHEMA;
const privilegedNames = schema.config.privileged_keys.map(k => k.name);

/** The schema with its config key lists changed (the rest as sandy 1.7.1 prints it). */
function withKeys(change: (keys: SandySchema['config']) => Partial<SandySchema['config']>, extra: Partial<SandySchema> = {}): SandySchema {
    const config = { ...schema.config, ...change(schema.config) };
    return { ...schema, ...extra, config };
}

function passive(name: string, over: Partial<ConfigKey> = {}): ConfigKey {
    return { name, type: 'string', stability: 'stable', sources: ['home_config', 'workspace_config', 'env'], description: `${name} does a thing.`, ...over };
}

/** The `# KEY=value` lines of a starter, as [key, value-as-sandy-would-read-it-once-uncommented]. */
function settingLines(text: string): [string, string | undefined][] {
    return text.split('\n').filter(l => /^# [A-Z_]+=/.test(l)).map(l => {
        const entry = parseConfigFile(l.slice(2)).lines[0];
        return [l.slice(2, l.indexOf('=')), entry.kind === 'entry' ? entry.value : undefined];
    });
}

describe('starter-config: starterConfigText (unit)', () => {
    const text = starterConfigText(schema);

    it('sets nothing: the project\'s parser finds no entry, no diagnostic, only comments and blank lines', () => {
        const doc = parseConfigFile(text);
        expect(doc.binary).to.equal(false);
        expect(doc.lines.filter(l => l.kind === 'entry')).to.deep.equal([]);
        expect(getEffectiveValues(doc)).to.deep.equal({});
        expect(diagnoseConfigFile(doc)).to.deep.equal([]);
        for (const line of doc.lines) {
            expect(line.text === '' || line.text.startsWith('# '), line.text).to.equal(true);
            expect(line.eol).to.equal('\n');
        }
        expect(text.endsWith('\n')).to.equal(true);
        expect(text).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    });

    it('stays within ~78 columns', () => {
        for (const line of text.split('\n')) {
            expect(line.length, line).to.be.at.most(STARTER_WIDTH);
        }
    });

    it('says what the file is and that privileged keys in it need approval', () => {
        const header = text.slice(0, text.indexOf('\n\n'));
        expect(header).to.match(/^# \.sandy\/config: sandy's settings for this project/);
        expect(header.replace(/\n# /g, ' ')).to.match(/Privileged keys \(API keys, SANDY_ALLOW_HOSTS, .*\) set in this file need your approval/);
        expect(header.replace(/\n# /g, ' ')).to.contain('no comment after a value');
        expect(header.replace(/\n# /g, ' ')).to.contain('changes nothing yet');
    });

    it('shows the useful settings the schema has, as # KEY=default under their description', () => {
        const settings = settingLines(text);
        expect(settings.map(([k]) => k)).to.deep.equal(STARTER_KEYS.filter(k => workspaceSettableKeys(schema).some(s => s.name === k)));
        expect(settings.map(([k]) => k)).to.include.members(['SANDY_AGENT', 'SANDY_MODEL', 'SANDY_SKILL_PACKS', 'SANDY_CPUS', 'SANDY_MEM', 'SANDY_EGRESS_STRICT']);
        expect(text).to.contain('# Model ID for the Claude agent.\n# SANDY_MODEL=claude-opus-5\n');
        expect(text).to.contain('\n# SANDY_AGENT=claude\n');
        expect(text).to.contain('Agents this sandy knows: claude, gemini,');
        expect(text).to.match(/One of: low, medium, high,\s+(# )?xhigh, max\.\n# SANDY_EFFORT=\n/);
        const byName = new Map(schema.config.passive_keys.map(k => [k.name, k]));
        for (const [key, value] of settings) {
            const def = byName.get(key)!;
            if (def.default && !isWeakeningValue(key, def.default)) {
                expect(value, key).to.equal(def.default);
            }
        }
    });

    it('uncommenting any of its settings needs no approval: no privileged key, no value that weakens isolation', () => {
        const uncommented = text.split('\n').filter(l => /^# [A-Z_]+=/.test(l)).map(l => l.slice(2)).join('\n');
        const doc = parseConfigFile(uncommented);
        const { pending } = collectPendingPrivileged({ config: { path: '.sandy/config', doc } }, privilegedNames);
        expect(pending).to.deep.equal([]);
        // SANDY_EGRESS_STRICT's default 0 would be approval-gated from a project file: the starter offers 1.
        expect(text).to.contain('\n# SANDY_EGRESS_STRICT=1\n');
        expect(text.replace(/\n# /g, ' ')).to.contain('(Shown as 1: setting 0 in a project file needs sandy\'s approval.)');
    });

    it('leaves out deprecated, experimental, privileged, secret and env-only keys', () => {
        for (const key of ['SANDY_EGRESS_PROXY', 'SANDY_HANDOFF_DIRS', ...privilegedNames.filter(k => k !== 'SANDY_ALLOW_HOSTS' && k !== 'SANDY_EXTRA_ENV' && k !== 'SANDY_AGENT_ARGS'),
            'SANDY_AUTO_APPROVE_PRIVILEGED', 'SANDY_HOST_ID']) {
            expect(text, key).to.not.match(new RegExp(`\\b${key}\\b`));
        }
        for (const [key] of settingLines(text)) {
            expect(privilegedNames, key).to.not.include(key);
        }
        const other = text.slice(text.indexOf('# Other settings a project may set:')).replace(/\n# /g, ' ');
        expect(other).to.contain('SANDY_TEAMMATE_MODE, SANDY_GPU');
        expect(other).to.not.contain('SANDY_EGRESS_PROXY');
    });

    it('leaves out a key whose description says DEPRECATED even when marked stable, and one not settable from a workspace', () => {
        const s = withKeys(c => ({
            passive_keys: [
                ...c.passive_keys.filter(k => k.name !== 'SANDY_MODEL' && k.name !== 'SANDY_MEM'),
                passive('SANDY_MODEL', { description: 'DEPRECATED — use SANDY_AGENT_MODEL.', default: 'x' }),
                passive('SANDY_MEM', { sources: ['home_config', 'env'] })
            ]
        }));
        const t = starterConfigText(s);
        expect(t).to.not.contain('SANDY_MODEL');
        expect(t).to.not.contain('SANDY_MEM');
        expect(getEffectiveValues(parseConfigFile(t))).to.deep.equal({});
    });

    it('a schema whose words try to break out of the comment still yields a file that sets nothing', () => {
        const hostile = withKeys(c => ({
            passive_keys: [
                passive('SANDY_AGENT', {
                    default: 'claude',
                    description: 'Agent.\nSANDY_SKIP_PERMISSIONS=false\r\nANTHROPIC_API_KEY=sk-x\u2028SANDY_ALLOW_HOSTS=*\u001b]8;;x\u0007 \u202eevil'
                }),
                passive('SANDY_MODEL', { default: 'a\nSANDY_SSH=agent' }),
                passive('SANDY_CPUS', { description: 'SANDY_SSH=agent is the first word' }),
                passive('SANDY_MEM', { description: `${'word '.repeat(14)}SANDY_SSH=agent after a wrap ${'more '.repeat(20)}` }),
                ...c.passive_keys.filter(k => !['SANDY_AGENT', 'SANDY_MODEL', 'SANDY_CPUS', 'SANDY_MEM'].includes(k.name))
            ]
        }), { sandy: { version: '1.7.1\nSANDY_SSH=agent', commit: '', sandbox_min_compat: '0.7.10' } });
        const t = starterConfigText(hostile);
        const doc = parseConfigFile(t);
        expect(getEffectiveValues(doc)).to.deep.equal({});
        expect(doc.lines.every(l => l.text === '' || l.text.startsWith('# '))).to.equal(true);
        expect(t).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
        // A default sandy could not read back is not offered; the other settings' lines are the only `# KEY=` lines.
        expect(settingLines(t).map(([k]) => k)).to.not.include('SANDY_MODEL');
        expect(settingLines(t).map(([k]) => k)).to.not.include('SANDY_SSH');
        expect(t).to.not.contain('1.7.1');
    });

    it('a schema with none of the useful keys gives the header and the list of what may be set', () => {
        const t = starterConfigText(withKeys(() => ({ passive_keys: [passive('SANDY_GPU')] })));
        expect(settingLines(t)).to.deep.equal([]);
        expect(t).to.contain('# Other settings a project may set: SANDY_GPU.');
        expect(getEffectiveValues(parseConfigFile(t))).to.deep.equal({});
    });
});

describe('starter-config: planCopy (unit)', () => {
    const source = [
        '# team defaults',
        'SANDY_AGENT=claude,codex',
        'SANDY_MODEL="claude-opus-5"',
        '',
        'SANDY_ALLOW_HOSTS=internal.example.com',
        'ANTHROPIC_API_KEY=sk-ant-SECRET-IN-CONFIG',
        'SANDY_CPUS=4',
        ''
    ].join('\n');

    const configOf = (plan: ReturnType<typeof planCopy>) => plan.files.find(f => f.name === 'config')!.text;
    const heldKeys = (plan: ReturnType<typeof planCopy>) => plan.heldBack.map(h => h.key);

    it('copies passive lines verbatim and holds back privileged and secret keys', () => {
        const plan = planCopy({ config: source }, schema);
        expect(configOf(plan)).to.equal('# team defaults\nSANDY_AGENT=claude,codex\nSANDY_MODEL="claude-opus-5"\n\nSANDY_CPUS=4\n');
        expect(plan.copiedKeys).to.deep.equal(['SANDY_AGENT', 'SANDY_MODEL', 'SANDY_CPUS']);
        expect(plan.heldBack).to.deep.equal([
            { key: 'SANDY_ALLOW_HOSTS', reason: 'privileged', why: plan.heldBack[0].why },
            { key: 'ANTHROPIC_API_KEY', reason: 'secret', why: 'a secret — copy only if you choose to' }
        ]);
        expect(plan.heldBack[0].why).to.match(/privileged key — set from a project file it needs your approval, and a copy would need sandy's approval in the new project too/);
        expect(plan.needApproval).to.deep.equal([]);
        expect(JSON.stringify(plan)).to.not.contain('SECRET');
        expect(plan.files.map(f => f.name)).to.deep.equal(['config']);
    });

    it('the copy reads back, under the project\'s parser, as the source minus what was held back', () => {
        const plan = planCopy({ config: source }, schema);
        const before = getEffectiveValues(parseConfigFile(source));
        delete before.SANDY_ALLOW_HOSTS;
        delete before.ANTHROPIC_API_KEY;
        expect(getEffectiveValues(parseConfigFile(configOf(plan)))).to.deep.equal(before);
    });

    it('copies a held-back key only when the user names it, and says sandy will ask to approve it there', () => {
        const plan = planCopy({ config: source }, schema, { includeKeys: ['SANDY_ALLOW_HOSTS'] });
        expect(configOf(plan)).to.contain('SANDY_ALLOW_HOSTS=internal.example.com\n');
        expect(configOf(plan)).to.not.contain('ANTHROPIC_API_KEY');
        expect(heldKeys(plan)).to.deep.equal(['ANTHROPIC_API_KEY']);
        expect(plan.needApproval).to.deep.equal(['SANDY_ALLOW_HOSTS']);
        expect(copyPlanText(plan).join('\n')).to.contain('sandy will ask you to approve SANDY_ALLOW_HOSTS at the first launch in the new project');
    });

    it('holds back every secret-typed key, also where sandy ignores the line (commented out, export) — a secret there is still a secret', () => {
        const plan = planCopy({
            config: '# OPENAI_API_KEY=sk-old-one\nexport GEMINI_API_KEY=AIza-x\n  XAI_API_KEY = xai-y\nTELEGRAM_BOT_TOKEN=1:abc\n# SANDY_ALLOW_HOSTS=a.example\nSANDY_MEM=8g\n'
        }, schema);
        expect(configOf(plan)).to.equal('# SANDY_ALLOW_HOSTS=a.example\nSANDY_MEM=8g\n');
        expect(plan.heldBack.map(h => [h.key, h.reason])).to.deep.equal([
            ['OPENAI_API_KEY', 'secret'], ['GEMINI_API_KEY', 'secret'], ['XAI_API_KEY', 'secret'], ['TELEGRAM_BOT_TOKEN', 'secret']
        ]);
        expect(JSON.stringify(plan)).to.not.match(/sk-old|AIza|xai-y|1:abc/);
    });

    it('holds back a passive key set to a value that weakens isolation, but copies its safe value', () => {
        const plan = planCopy({ config: 'SANDY_EGRESS_NO_ISOLATION=1\nSANDY_ALLOW_WORKFLOW_EDIT=0\nSANDY_EGRESS_STRICT=1\n' }, schema);
        expect(configOf(plan)).to.equal('SANDY_ALLOW_WORKFLOW_EDIT=0\nSANDY_EGRESS_STRICT=1\n');
        expect(plan.heldBack.map(h => [h.key, h.reason])).to.deep.equal([['SANDY_EGRESS_NO_ISOLATION', 'weakening']]);
        expect(plan.heldBack[0].why).to.contain('SANDY_EGRESS_NO_ISOLATION=1 weakens the sandbox\'s isolation');
    });

    it('holds back values SANDY_EXTRA_ENV forwards and names that say credential', () => {
        const plan = planCopy({
            config: 'SANDY_EXTRA_ENV=HA_URL, ha_token\nHA_URL=http://ha.local\nha_token=eyJ-secret\nDB_PASSWORD=hunter2\nMY_SETTING=1\n'
        }, schema);
        expect(configOf(plan)).to.equal('MY_SETTING=1\n');
        expect(plan.heldBack.map(h => [h.key, h.reason])).to.deep.equal([
            ['SANDY_EXTRA_ENV', 'privileged'], ['HA_URL', 'maybe-secret'], ['ha_token', 'maybe-secret'], ['DB_PASSWORD', 'maybe-secret']
        ]);
        expect(plan.heldBack[1].why).to.contain('named in SANDY_EXTRA_ENV');
        expect(JSON.stringify(plan)).to.not.match(/eyJ|hunter2/);
    });

    it('never copies .secrets unless includeSecrets is passed, and then says what sandy will ask', () => {
        const secrets = 'ANTHROPIC_API_KEY=sk-ant-REAL\nHA_TOKEN=x\n';
        const without = planCopy({ config: 'SANDY_AGENT=claude\n', secrets, secretsExists: true }, schema);
        expect(without.files.map(f => f.name)).to.deep.equal(['config']);
        expect(without.notCopied).to.deep.include({ name: '.secrets', why: 'it holds secrets (ANTHROPIC_API_KEY, HA_TOKEN) — copied only if you choose to' });
        expect(JSON.stringify(without)).to.not.contain('sk-ant-REAL');

        const notRead = planCopy({ config: '', secretsExists: true }, schema, { includeSecrets: true });
        expect(notRead.files.map(f => f.name)).to.deep.equal(['config']);
        expect(notRead.notCopied.map(n => n.name)).to.deep.equal(['.secrets']);

        const withSecrets = planCopy({ config: 'SANDY_AGENT=claude\n', secrets, secretsExists: true }, schema, { includeSecrets: true });
        expect(withSecrets.files).to.deep.equal([
            { name: 'config', text: 'SANDY_AGENT=claude\n', keys: ['SANDY_AGENT'] },
            { name: '.secrets', text: secrets, keys: ['ANTHROPIC_API_KEY', 'HA_TOKEN'] }
        ]);
        expect(withSecrets.copiedKeys).to.deep.equal(['SANDY_AGENT', 'ANTHROPIC_API_KEY', 'HA_TOKEN']);
        expect(withSecrets.needApproval).to.deep.equal(['ANTHROPIC_API_KEY']);
        expect(copyPlanText(withSecrets)).to.include('Copies .secrets with ANTHROPIC_API_KEY, HA_TOKEN (values not shown)');
    });

    it('lists a Dockerfile and the rest of the build context as not copied, names escaped', () => {
        const plan = planCopy({ config: '', dockerfile: true, otherFiles: ['setup.sh', 'evil\u001b[31m\u202ename'] }, schema);
        expect(plan.notCopied).to.deep.equal([
            { name: 'Dockerfile', why: 'it runs at build time; copy it yourself after reading it' },
            { name: 'setup.sh', why: 'part of the Dockerfile\'s build context, not a setting; copy it yourself if you need it' },
            { name: 'evil\\u001b[31m\\u202ename', why: 'part of the Dockerfile\'s build context, not a setting; copy it yourself if you need it' }
        ]);
        expect(plan.files).to.deep.equal([{ name: 'config', text: '', keys: [] }]);
    });

    it('drops lines with control characters other than tab (ESC, NUL, a CR inside a line, bidi overrides, U+2028) and says which', () => {
        const config = [
            'SANDY_AGENT=claude',                      // 1 kept
            'SANDY_MODEL=opus\u001b[2K',               // 2 ESC
            'SANDY_MEM=8g\rSANDY_SSH=agent',           // 3 a CR inside: a terminal shows only the second half
            '# note\u202e SANDY_CPUS=1',               // 4 bidi override
            'SANDY_GPU=all\u0000',                     // 5 NUL
            'SANDY_VERBOSE=1\u2028SANDY_SSH=agent',    // 6 line separator
            '#\tindented with a tab',                  // 7 kept
            'SANDY_CPUS=2'                             // 8 kept, no final newline
        ].join('\n');
        const plan = planCopy({ config }, schema);
        expect(configOf(plan)).to.equal('SANDY_AGENT=claude\n#\tindented with a tab\nSANDY_CPUS=2\n');
        expect(plan.copiedKeys).to.deep.equal(['SANDY_AGENT', 'SANDY_CPUS']);
        expect(plan.notCopied).to.deep.equal([{
            name: 'config lines 2, 3, 4, 5, 6',
            why: 'holds control characters (other than tab), which can make a line show differently from what sandy reads'
        }]);
        expect(copyPlanText(plan)).to.include('Does not copy config lines 2, 3, 4, 5, 6: holds control characters (other than tab), '
            + 'which can make a line show differently from what sandy reads');
    });

    it('CRLF input: lines keep their CRLF, keys are read as sandy reads them (CR stripped), held-back rules still apply', () => {
        const config = 'SANDY_AGENT=claude\r\nSANDY_EGRESS_NO_ISOLATION=1\r\nSANDY_ALLOW_HOSTS=x.example\r\nSANDY_MODEL=opus\r\n# last\r';
        const plan = planCopy({ config }, schema);
        expect(configOf(plan)).to.equal('SANDY_AGENT=claude\r\nSANDY_MODEL=opus\r\n# last\r\n');
        expect(heldKeys(plan)).to.deep.equal(['SANDY_EGRESS_NO_ISOLATION', 'SANDY_ALLOW_HOSTS']);
        expect(getEffectiveValues(parseConfigFile(configOf(plan)))).to.deep.equal({ SANDY_AGENT: 'claude', SANDY_MODEL: 'opus' });
        expect(plan.notCopied).to.deep.equal([]);
    });

    it('caps sizes: an over-long line is dropped, a file past the cap is copied only up to it', () => {
        const long = `SANDY_AGENT_ARGS=${'x'.repeat(COPY_MAX_LINE_CHARS)}`;
        const filler = Array.from({ length: 10_000 }, (_, i) => `# filler line ${i}`).join('\n');
        const plan = planCopy({ config: `SANDY_MEM=8g\n${long}\n${filler}\nSANDY_CPUS=2\n` }, schema, { includeKeys: ['SANDY_AGENT_ARGS'] });
        const copied = configOf(plan);
        expect(copied.length).to.be.at.most(COPY_MAX_FILE_CHARS);
        expect(copied.startsWith('SANDY_MEM=8g\n# filler line 0\n')).to.equal(true);
        expect(copied).to.not.contain('SANDY_CPUS');
        expect(copied).to.not.contain('SANDY_AGENT_ARGS');
        expect(plan.notCopied.map(n => n.name)).to.deep.equal(['config line 2', `config from line ${plan.notCopied[1].name.match(/\d+/)![0]} on`]);
        expect(plan.notCopied[0].why).to.equal(`longer than ${COPY_MAX_LINE_CHARS} characters`);
        expect(plan.notCopied[1].why).to.contain('larger than 64 KiB');
    });

    it('passes on what the reader could not read', () => {
        const plan = planCopy({ unreadable: [{ name: 'config', why: 'it is a symbolic link to /home/u/.ssh/config' }] }, schema);
        expect(plan.notCopied).to.deep.equal([{ name: 'config', why: 'it is a symbolic link to /home/u/.ssh/config' }]);
        expect(plan.files).to.deep.equal([{ name: 'config', text: '', keys: [] }]);
        expect(copyPlanText(plan)[0]).to.equal('Copies no settings from config');
    });
});

describe('starter-config: copyPlanText (unit)', () => {
    it('says what is copied, what is left out and why, and what is not copied', () => {
        const plan = planCopy({
            config: 'SANDY_AGENT=claude\nSANDY_MODEL=opus\nANTHROPIC_API_KEY=sk-x\n',
            secretsExists: true,
            dockerfile: true
        }, schema);
        expect(copyPlanText(plan)).to.deep.equal([
            'Copies SANDY_AGENT, SANDY_MODEL',
            'Leaves out ANTHROPIC_API_KEY: a secret — copy only if you choose to',
            'Does not copy .secrets: it holds secrets — copied only if you choose to',
            'Does not copy Dockerfile: it runs at build time; copy it yourself after reading it'
        ]);
    });

    it('keeps a long list short', () => {
        const names = Array.from({ length: 40 }, (_, i) => `SANDY_X_${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`);
        const plan = planCopy({ config: names.map(n => `${n}=1`).join('\n') }, schema);
        const first = copyPlanText(plan)[0];
        expect(first).to.match(/^Copies SANDY_X_AA, .* and 10 more$/);
    });
});
