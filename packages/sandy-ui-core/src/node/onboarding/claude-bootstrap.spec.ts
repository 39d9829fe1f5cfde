import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import { CLAUDE_SETTINGS_MAX_BYTES, proposeClaudeBootstrap, SANDY_MODEL_PATTERN } from './claude-bootstrap';

describe('onboarding settings bootstrap from ~/.claude (unit)', () => {
    let tmp: string;
    let home: string;
    let sandyHome: string;

    beforeEach(() => {
        tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ui-claude-boot-')));
        home = path.join(tmp, 'home');
        sandyHome = path.join(home, '.sandy');
        fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    });

    afterEach(() => {
        fs.rmSync(tmp, { recursive: true, force: true });
    });

    const settingsFile = () => path.join(home, '.claude', 'settings.json');
    const settings = (text: string) => fs.writeFileSync(settingsFile(), text);
    const propose = () => proposeClaudeBootstrap({ home, sandyHome });

    it('uses the pattern of SANDY_MODEL in sandy\'s schema', () => {
        const key = BUNDLED_FALLBACK_SCHEMA.config.passive_keys.find(k => k.name === 'SANDY_MODEL');
        expect(SANDY_MODEL_PATTERN.source).to.equal(key?.pattern);
    });

    it('proposes SANDY_MODEL from the model Claude Code uses, when ~/.sandy/config has none', async () => {
        settings(JSON.stringify({ model: 'claude-opus-4-1-20250805', permissions: { allow: ['Bash(ls:*)'] } }, null, 2));
        expect(await propose()).to.deep.equal([{ key: 'SANDY_MODEL', value: 'claude-opus-4-1-20250805', from: '~/.claude/settings.json' }]);
        settings('{"model":"opus"}');
        fs.mkdirSync(sandyHome);
        fs.writeFileSync(path.join(sandyHome, 'config'), 'SANDY_AGENT=claude\n# SANDY_MODEL=sonnet\n');
        expect(await propose()).to.deep.equal([{ key: 'SANDY_MODEL', value: 'opus', from: '~/.claude/settings.json' }]);
    });

    it('proposes nothing for a key already set in ~/.sandy/config or .secrets', async () => {
        settings('{"model":"opus"}');
        fs.mkdirSync(sandyHome);
        fs.writeFileSync(path.join(sandyHome, 'config'), 'SANDY_MODEL=claude-sonnet-4-5\n');
        expect(await propose()).to.deep.equal([]);
        fs.writeFileSync(path.join(sandyHome, 'config'), '');
        fs.writeFileSync(path.join(sandyHome, '.secrets'), 'SANDY_MODEL=sonnet\n', { mode: 0o600 });
        expect(await propose()).to.deep.equal([]);
    });

    it('proposes nothing when ~/.sandy/config cannot be read (it might set the key)', async () => {
        settings('{"model":"opus"}');
        fs.mkdirSync(sandyHome);
        fs.writeFileSync(path.join(tmp, 'real-config'), 'SANDY_MODEL=sonnet\n');
        fs.symlinkSync(path.join(tmp, 'real-config'), path.join(sandyHome, 'config'));
        expect(await propose()).to.deep.equal([]);
    });

    it('ignores a model that is not a plain model id (hostile input)', async () => {
        for (const model of ['sonnet[1m]', 'opus; rm -rf ~', '$(id)', 'a b', 'x\nSANDY_SSH=agent', '', '../../etc', 'ünïcode', 'a'.repeat(201)]) {
            settings(JSON.stringify({ model }));
            expect(await propose(), JSON.stringify(model).slice(0, 40)).to.deep.equal([]);
        }
        for (const model of [42, null, true, ['opus'], { id: 'opus' }]) {
            settings(JSON.stringify({ model }));
            expect(await propose(), JSON.stringify(model)).to.deep.equal([]);
        }
    });

    it('proposes nothing, and does not throw, for files that are not a settings object', async () => {
        for (const text of ['{"model": "opus"', 'not json', '', '["opus"]', 'null', '"opus"', '\u0000{"model":"opus"}', '{"__proto__":{"model":"opus"}}']) {
            settings(text);
            expect(await propose(), JSON.stringify(text)).to.deep.equal([]);
        }
        fs.rmSync(settingsFile());
        expect(await propose(), 'missing').to.deep.equal([]);
        fs.rmSync(path.join(home, '.claude'), { recursive: true });
        expect(await propose(), 'no ~/.claude').to.deep.equal([]);
    });

    it('reads at most 256 KiB: a bigger file proposes nothing', async () => {
        const body = JSON.stringify({ model: 'opus', pad: '' });
        const pad = 'x'.repeat(CLAUDE_SETTINGS_MAX_BYTES - body.length + 1);
        settings(JSON.stringify({ model: 'opus', pad }));
        expect(fs.statSync(settingsFile()).size).to.equal(CLAUDE_SETTINGS_MAX_BYTES + 1);
        expect(await propose()).to.deep.equal([]);
        settings(JSON.stringify({ model: 'opus', pad: pad.slice(1) }));
        expect(await propose()).to.deep.equal([{ key: 'SANDY_MODEL', value: 'opus', from: '~/.claude/settings.json' }]);
    });

    it('does not follow a symlinked settings.json, nor read a folder or a FIFO', async () => {
        const real = path.join(tmp, 'dotfiles-settings.json');
        fs.writeFileSync(real, '{"model":"opus"}');
        fs.symlinkSync(real, settingsFile());
        expect(await propose(), 'symlink').to.deep.equal([]);
        fs.rmSync(settingsFile());
        fs.mkdirSync(settingsFile());
        expect(await propose(), 'folder').to.deep.equal([]);
        fs.rmdirSync(settingsFile());
        try {
            execFileSync('mkfifo', [settingsFile()]);
        } catch {
            return; // no mkfifo here
        }
        expect(await propose(), 'FIFO').to.deep.equal([]);
    });
});
