import { expect } from 'chai';
import type { ApprovalDecision, ApprovalRequest } from './approval-model';
import type { LaunchOutcome, LaunchRequest, RunOutcome } from './service-protocol';
import { clearForLaunch, launchUntilCleared } from './launch-flow';

function request(token: string, kind: ApprovalRequest['kind'] = 'approve', refusalKey?: string): ApprovalRequest {
    return {
        workspace: '/w', kind, token, lines: [], removedKeys: [], hasPreviousApproval: false, approvalFilePath: '/a', notes: [],
        refusals: refusalKey ? [{ key: refusalKey, message: 'm', remediation: 'r' }] : []
    };
}

describe('launch flow shared by every host (unit)', () => {
    function host(decisions: ApprovalDecision[], preflights: Array<ApprovalRequest | undefined>, rebuild: RunOutcome = { ok: true, stdout: '', stderr: '' }) {
        const log: string[] = [];
        return {
            log,
            preflight: async () => { log.push('preflight'); return preflights.shift(); },
            ask: async (r: ApprovalRequest) => { log.push(`ask ${r.token}`); return decisions.shift() ?? 'reject'; },
            rebuildSandbox: async () => { log.push('rebuild'); return rebuild; },
            openSettings: async (_ws: string, key: string | undefined) => { log.push(`settings ${key}`); },
            info: (m: string) => log.push(`info ${m}`),
            error: (m: string) => log.push(`error ${m}`)
        };
    }

    it('nothing to approve: an empty clearance, no view', async () => {
        const h = host([], [undefined]);
        expect(await clearForLaunch('/w', h)).to.deep.equal({});
        expect(h.log).to.deep.equal(['preflight']);
    });

    it('approve carries the token; reject starts nothing; launch-anyway accepts the compat warning', async () => {
        expect(await clearForLaunch('/w', host(['approve'], [request('t1')]))).to.deep.equal({ approvalToken: 't1' });
        expect(await clearForLaunch('/w', host(['reject'], [request('t1')]))).to.equal(undefined);
        expect(await clearForLaunch('/w', host(['launch-anyway'], [request('c', 'compat')]))).to.deep.equal({ acceptCompatWarning: true });
    });

    it('rebuild resets the sandbox, then pre-flight runs again; a failed rebuild stops with its stderr', async () => {
        const h = host(['rebuild', 'approve'], [request('c', 'compat'), request('t2')]);
        expect(await clearForLaunch('/w', h)).to.deep.equal({ approvalToken: 't2' });
        expect(h.log).to.deep.equal(['preflight', 'ask c', 'rebuild', 'info Sandy: sandbox of w reset; its agent state starts fresh.', 'preflight', 'ask t2']);
        const failing = host(['rebuild'], [request('c', 'compat')], { ok: false, exitCode: 3, stdout: '', stderr: 'boom\n' });
        expect(await clearForLaunch('/w', failing)).to.equal(undefined);
        expect(failing.log).to.include('error Sandy: rebuilding the sandbox failed (exit 3): boom');
    });

    it('open-settings opens the refused key and launches nothing', async () => {
        const h = host(['open-settings'], [request('r', 'refuse', 'SANDY_ALLOW_LAN_HOSTS')]);
        expect(await clearForLaunch('/w', h)).to.equal(undefined);
        expect(h.log).to.include('settings SANDY_ALLOW_LAN_HOSTS');
    });

    it('launchUntilCleared asks again while the files changed since the approval, with a fresh size each time', async () => {
        const sent: LaunchRequest[] = [];
        const outcomes: LaunchOutcome[] = [
            { kind: 'needs-approval', request: request('t2') },
            { kind: 'launched', session: { id: 's', pid: 1, workspace: '/w', args: [], startedAt: 0, status: 'running', attachedViews: 0 }, warnings: [] }
        ];
        let cols = 80;
        const outcome = await launchUntilCleared('/w', { approvalToken: 't1' }, {
            launch: async r => { sent.push(r); return outcomes.shift()!; },
            measure: () => ({ cols: cols++, rows: 24 }),
            clear: async (_ws, r) => ({ approvalToken: r.token })
        });
        expect(outcome.kind).to.equal('launched');
        expect(sent).to.deep.equal([
            { workspace: '/w', cols: 80, rows: 24, approvalToken: 't1' },
            { workspace: '/w', cols: 81, rows: 24, approvalToken: 't2' }
        ]);
        const rejected = await launchUntilCleared('/w', undefined, {
            launch: async () => ({ kind: 'needs-approval', request: request('t3') }),
            measure: () => ({ cols: 80, rows: 24 }),
            clear: async () => undefined
        });
        expect(rejected).to.deep.equal({ kind: 'not-approved' });
    });
});
