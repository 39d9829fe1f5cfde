import { expect } from 'chai';
import { validate } from './messages';
import { checkTerminalToHost, MAX_INPUT_CHARS } from './terminal-protocol';
import { checkApprovalToHost } from './approval-protocol';
import { checkSettingsToHost, MAX_EDITS_PER_FILE } from './settings-protocol';

describe('webview messages are validated on the host (unit)', () => {
    it('accepts each terminal message of the protocol', () => {
        for (const m of [
            { type: 'ready', cols: 80, rows: 24 }, { type: 'input', data: 'ls\r' }, { type: 'ack', chars: 1024 },
            { type: 'resize', cols: 120, rows: 40 }, { type: 'notify', body: 'done', source: 'osc9' },
            { type: 'notify', title: 'T', body: 'b', source: 'osc777' }, { type: 'clipboard', text: 'x' },
            { type: 'openLink', uri: 'https://example.com' }, { type: 'relaunch' }
        ]) {
            const r = validate(checkTerminalToHost, m);
            expect(r, JSON.stringify(m)).to.deep.include({ ok: true });
        }
    });

    it('refuses unknown types, missing or extra fields, wrong types and oversized payloads', () => {
        const refused = [
            undefined, null, 'ready', [], {}, { type: 7 }, { type: 'exec', cmd: 'rm -rf /' },
            { type: 'ready', cols: 80 }, { type: 'ready', cols: 80, rows: 24, extra: true },
            { type: 'ready', cols: '80', rows: 24 }, { type: 'ready', cols: 80.5, rows: 24 }, { type: 'resize', cols: 0, rows: 24 },
            { type: 'resize', cols: 5000, rows: 24 }, { type: 'ack', chars: -1 }, { type: 'ack', chars: Number.NaN },
            { type: 'input', data: 'x'.repeat(MAX_INPUT_CHARS + 1) }, { type: 'notify', body: 'b', source: 'osc1337' },
            { type: 'openLink', uri: 'h'.repeat(9000) }, { type: 'clipboard', text: { toString: () => 'x' } }
        ];
        for (const m of refused) {
            const r = validate(checkTerminalToHost, m);
            expect(r.ok, JSON.stringify(m)?.slice(0, 80)).to.equal(false);
        }
        const r = validate(checkTerminalToHost, { type: 'ready', cols: 80, rows: 24, evil: 1 });
        expect(r).to.deep.equal({ ok: false, error: 'message.evil: unexpected field' });
    });

    it('approval: decisions from the fixed set, reveal by key name and line only', () => {
        expect(validate(checkApprovalToHost, { type: 'decide', decision: 'approve' }).ok).to.equal(true);
        expect(validate(checkApprovalToHost, { type: 'decide', decision: 'sudo' }).ok).to.equal(false);
        expect(validate(checkApprovalToHost, { type: 'reveal', requestId: 1, key: 'ANTHROPIC_API_KEY', line: 3 }).ok).to.equal(true);
        expect(validate(checkApprovalToHost, { type: 'reveal', requestId: 1, key: '../etc', line: 3 }).ok).to.equal(false);
        expect(validate(checkApprovalToHost, { type: 'reveal', requestId: -1, key: 'A', line: 3 }).ok).to.equal(false);
        expect(validate(checkApprovalToHost, { type: 'openFile', path: '/w/.sandy/config' }).ok).to.equal(true);
        expect(validate(checkApprovalToHost, { type: 'openFile', path: '/w/.sandy/config', line: 0 }).ok).to.equal(false);
    });

    it('settings: edits of loader-readable keys, bounded in number and size; an absent value removes', () => {
        const ok = validate(checkSettingsToHost, {
            type: 'save', requestId: 3, scope: 'project',
            edits: { config: [{ key: 'SANDY_MODEL', value: 'opus' }, { key: 'SANDY_MEM' }], secrets: [{ key: 'ANTHROPIC_API_KEY', value: 'sk' }] }
        });
        expect(ok.ok).to.equal(true);
        expect(ok.ok && ok.message.type === 'save' && ok.message.edits.config[1]).to.deep.equal({ key: 'SANDY_MEM' });
        for (const edits of [
            { config: [{ key: 'sandy_model', value: 'x' }], secrets: [] },
            { config: [{ key: 'A=B', value: 'x' }], secrets: [] },
            { config: [{ key: 'A', value: 3 }], secrets: [] },
            { config: [], secrets: [{ key: 'A', value: 'x'.repeat(70_000) }] },
            { config: Array.from({ length: MAX_EDITS_PER_FILE + 1 }, () => ({ key: 'A', value: '1' })), secrets: [] },
            { config: [] }
        ]) {
            expect(validate(checkSettingsToHost, { type: 'save', requestId: 1, scope: 'global', edits }).ok, JSON.stringify(edits).slice(0, 80)).to.equal(false);
        }
        expect(validate(checkSettingsToHost, { type: 'save', requestId: 1, scope: 'system', edits: { config: [], secrets: [] } }).ok).to.equal(false);
        expect(validate(checkSettingsToHost, { type: 'dirty', dirty: 'yes' }).ok).to.equal(false);
    });
});
