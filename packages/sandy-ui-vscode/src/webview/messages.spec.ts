import { expect } from 'chai';
import type { ZodTypeAny } from 'zod';
import { Messenger } from '@sandy-ui/core/common';
import { parseMessage as validate } from '@sandy-ui/core/common';
import { messageSchema } from '@sandy-ui/core/common';
import { checkTerminalToHost, MAX_INPUT_CHARS, terminalToView } from './terminal-protocol';
import { historyViewerToView } from './history-protocol';
import { approvalProtocol, checkApprovalToHost } from './approval-protocol';
import { checkSettingsToHost, MAX_EDITS_PER_FILE, settingsProtocol } from './settings-protocol';

describe('webview messages are validated on the host (unit)', () => {
    it('accepts each terminal message of the protocol', () => {
        for (const m of [
            { type: 'ready', cols: 80, rows: 24 }, { type: 'input', data: 'ls\r' }, { type: 'ack', chars: 1024 },
            { type: 'resize', cols: 120, rows: 40 }, { type: 'clipboard', text: 'x' },
            { type: 'openLink', uri: 'https://example.com' }, { type: 'bannerAction' },
            { type: 'ideKey', code: 'KeyX', ctrl: true, shift: true, alt: true, meta: false, mac: false }
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
            { type: 'input', data: 'x'.repeat(MAX_INPUT_CHARS + 1) }, { type: 'openLink', uri: 'h'.repeat(9000) },
            { type: 'clipboard', text: { toString: () => 'x' } },
            // The page never makes a notification (the service parses them from the session's stream), and the old relaunch is gone.
            { type: 'notify', body: 'done', source: 'osc9' }, { type: 'notify', title: 'Approve?', body: 'b', source: 'osc777' }, { type: 'relaunch' },
            // The banner's button says nothing of what it does: the host's controller knows (a page cannot turn Take Back into Stop).
            { type: 'bannerAction', action: 'stop' }, { type: 'bannerAction', sessionId: 'daemon-0123' },
            // A key is a key: never a command named by the page, never a key name that is not a code.
            { type: 'ideKey', code: 'KeyX', ctrl: true, shift: true, alt: true, meta: false, mac: false, command: 'sandy.stop' },
            { type: 'ideKey', code: 'Key X', ctrl: true, shift: true, alt: true, meta: false, mac: false },
            { type: 'ideKey', code: 'KeyX', ctrl: 1, shift: true, alt: true, meta: false, mac: false }
        ];
        for (const m of refused) {
            const r = validate(checkTerminalToHost, m);
            expect(r.ok, JSON.stringify(m)?.slice(0, 80)).to.equal(false);
        }
        const r = validate(checkTerminalToHost, { type: 'ready', cols: 80, rows: 24, evil: 1 });
        expect(r).to.deep.equal({ ok: false, error: 'message.evil: unexpected field' });
        expect(validate(checkTerminalToHost, { type: 'notify', body: 'done', source: 'osc9' })).to.deep.equal({ ok: false, error: 'message.type: unknown message type' });
    });

    it('the terminal and history viewer pages take an appearance only as core reads one: no CSS for a family, sizes in range, nothing more', () => {
        const good = { type: 'appearance', cursorBlink: false, cursorStyle: 'bar', fontSize: 17, fontFamily: '"Fira Code", monospace', lineHeight: 1.2, gpuAcceleration: 'auto' };
        const refused = [
            { ...good, fontFamily: 'evil; } .xterm-rows { font-size: 3px } .x {' }, { ...good, fontFamily: '"a\\" } *{}' },
            { ...good, fontSize: 1000 }, { ...good, fontSize: Number.NaN }, { ...good, lineHeight: 0.5 }, { ...good, cursorStyle: 'line' },
            { ...good, gpuAcceleration: 'canvas' }, { ...good, gpuAcceleration: undefined }, { ...good, css: '* { display: none }' }, { type: 'appearance', fontSize: 17 }
        ];
        for (const schema of [messageSchema(terminalToView), messageSchema(historyViewerToView)] as ZodTypeAny[]) {
            expect(validate(schema, good)).to.deep.include({ ok: true });
            for (const m of refused) {
                expect(validate(schema, m), JSON.stringify(m)).to.deep.include({ ok: false });
            }
        }
    });

    it('approval: decisions from the fixed set, reveal by key name and line only', () => {
        expect(validate(checkApprovalToHost, { type: 'decide', decision: 'approve', token: 'a1b2' }).ok).to.equal(true);
        expect(validate(checkApprovalToHost, { type: 'decide', decision: 'sudo', token: 'a1b2' }).ok).to.equal(false);
        // A decision names the request it was made on.
        expect(validate(checkApprovalToHost, { type: 'decide', decision: 'approve' }).ok).to.equal(false);
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
        expect(ok.ok && ok.message.type === 'save' && ok.message.edits.config[1]).to.deep.equal({ key: 'SANDY_MEM', value: undefined });
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

    it('refuses prototype keys, look-alike types and values that only pretend to be strings, in every protocol', () => {
        const hostile: Array<[ZodTypeAny, unknown]> = [
            [checkTerminalToHost, JSON.parse('{"type":"input","data":"x","__proto__":{"polluted":1}}')],
            [checkTerminalToHost, JSON.parse('{"type":"bannerAction","constructor":{"prototype":{"polluted":1}}}')],
            [checkTerminalToHost, { type: '__proto__' }], [checkTerminalToHost, { type: 'toString' }], [checkTerminalToHost, { type: 'READY', cols: 80, rows: 24 }],
            [checkTerminalToHost, { type: ['input'], data: 'x' }], [checkTerminalToHost, { type: 'input', data: ['x'] }],
            [checkTerminalToHost, { type: 'resize', cols: Number.POSITIVE_INFINITY, rows: 24 }], [checkTerminalToHost, JSON.parse('{"type":"bannerAction","__proto__":{"action":"stop"}}')],
            [checkApprovalToHost, { type: 'decide', decision: 'approve', token: 't', approved: true }], [checkApprovalToHost, { type: 'decide', decision: 'APPROVE', token: 't' }],
            [checkApprovalToHost, { type: 'decide', decision: 'approve', token: 't'.repeat(257) }],
            [checkApprovalToHost, { type: 'reveal', requestId: 1, key: 'A'.repeat(129), line: 1 }], [checkApprovalToHost, { type: 'reveal', requestId: 1, key: 'A', line: '3' }],
            [checkApprovalToHost, { type: 'reveal', key: 'A', line: 3 }], [checkApprovalToHost, { type: 'openFile', path: 'p'.repeat(5000) }],
            [checkApprovalToHost, { type: 'render', request: {} }], [checkApprovalToHost, { type: 'reply', requestId: 1, result: 'x' }],
            [checkSettingsToHost, JSON.parse('{"type":"save","requestId":1,"scope":"global","edits":{"config":[{"key":"A","value":"1","__proto__":{"x":1}}],"secrets":[]}}')],
            [checkSettingsToHost, JSON.parse('{"type":"save","requestId":1,"scope":"global","edits":{"config":[],"secrets":[],"__proto__":[]}}')],
            [checkSettingsToHost, { type: 'save', requestId: 1, scope: 'global', edits: { config: { length: 1, 0: { key: 'A' } }, secrets: [] } }],
            [checkSettingsToHost, { type: 'pickPath', requestId: 1, kind: 'folder', current: 'c'.repeat(5000) }],
            [checkSettingsToHost, { type: 'pickPath', requestId: 1, kind: 'executable' }], [checkSettingsToHost, { type: 'addToGitignore', requestId: 1, workspace: '/elsewhere' }],
            [checkSettingsToHost, { type: 'openFile', path: '/etc/passwd' }], [checkSettingsToHost, { type: 'snapshot', snapshot: {} }]
        ];
        for (const [check, m] of hostile) {
            expect(validate(check, m).ok, JSON.stringify(m).slice(0, 100)).to.equal(false);
        }
        expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('the host end answers a webview request once by id; a reply the webview forges, or an unknown type, runs nothing', async () => {
        const posted: unknown[] = [];
        const log: string[] = [];
        const host = Messenger.forHost(settingsProtocol, { post: m => posted.push(m) }, { log: t => log.push(t) });
        let picks = 0;
        host.onRequest('pickPath', ({ kind }) => { picks++; return `/picked-${kind}`; });
        host.receive({ type: 'reply', requestId: 1, result: '/forged' });
        host.receive({ type: 'pickPath', requestId: 7, kind: 'folder' });
        host.receive({ type: 'exec', requestId: 8, cmd: 'id' });
        await new Promise(resolve => setTimeout(resolve, 0));
        expect(picks).to.equal(1);
        expect(posted).to.deep.equal([{ type: 'reply', requestId: 7, result: '/picked-folder' }]);
        expect(log).to.deep.equal(['sandy settings: refused a reply to no pending request (1)', 'sandy settings: refused a message: message.type: unknown message type']);
    });

    it('the approval page\'s reveal is a request answered by id; a host answer that is not text is refused', async () => {
        const posted: Array<Record<string, unknown>> = [];
        const log: string[] = [];
        const page = Messenger.forView(approvalProtocol, { post: m => posted.push(m as Record<string, unknown>) }, { log: t => log.push(t) });
        const revealed = page.request('reveal', { key: 'API_KEY', line: 3 });
        const refused = page.request('reveal', { key: 'API_KEY', line: 4 });
        expect(posted).to.deep.equal([{ type: 'reveal', key: 'API_KEY', line: 3, requestId: 1 }, { type: 'reveal', key: 'API_KEY', line: 4, requestId: 2 }]);
        page.receive({ type: 'reply', requestId: 2, result: { html: '<b>' } });
        page.receive({ type: 'reply', requestId: 1, result: 'API_KEY=sk-1' });
        expect(await revealed).to.equal('API_KEY=sk-1');
        expect(await refused.then(() => 'answered', () => 'refused')).to.equal('refused');
        page.dispose();
    });
});
