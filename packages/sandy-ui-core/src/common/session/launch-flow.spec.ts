import { expect } from 'chai';
import type { ApprovalDecision, ApprovalRequest } from '../approvals/approval-model';
import type { LaunchOutcome, LaunchRequest, RunOutcome } from '../service/service-protocol';
import { clearForLaunch, LaunchClearance, launchProject, launchUntilCleared } from './launch-flow';
import { NO_WORKSPACE_TEXT } from '../host/labels';

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

    it('rebuild says it is rebuilding, resets the sandbox, then pre-flight runs again and the launch goes on; a failed rebuild stops with its stderr', async () => {
        const h = host(['rebuild', 'approve'], [request('c', 'compat'), request('t2')]);
        expect(await clearForLaunch('/w', h)).to.deep.equal({ approvalToken: 't2' });
        expect(h.log).to.deep.equal(['preflight', 'ask c',
            'info Sandy: rebuilding the sandbox of w (sandy --reset-sandbox; up to a minute). It launches when done.', 'rebuild',
            'info Sandy: sandbox of w reset; its agent state starts fresh. Launching it now.', 'preflight', 'ask t2']);
        const clean = host(['rebuild'], [request('c', 'compat'), undefined]);
        expect(await clearForLaunch('/w', clean), 'nothing left to ask: the launch goes ahead').to.deep.equal({});
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
            { kind: 'launched', session: { id: 's', pid: 1, mode: 'foreground', origin: 'ide', workspace: '/w', args: [], startedAt: 0, status: 'running', attachedViews: 0 }, warnings: [] }
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
        // "Launch with…" options hold through the re-approval.
        const withOptions: LaunchRequest[] = [];
        const again: LaunchOutcome[] = [{ kind: 'needs-approval', request: request('t5') }, { kind: 'refused', problem: { code: 'failed', message: 'x', hint: '' } }];
        await launchUntilCleared('/w', { approvalToken: 't4', args: ['--new', '--agent', 'codex'] }, {
            launch: async r => { withOptions.push(r); return again.shift()!; },
            measure: () => ({ cols: 80, rows: 24 }),
            clear: async (_ws, r) => ({ approvalToken: r.token })
        });
        expect(withOptions.map(r => [r.approvalToken, r.args])).to.deep.equal([['t4', ['--new', '--agent', 'codex']], ['t5', ['--new', '--agent', 'codex']]]);
        const rejected = await launchUntilCleared('/w', undefined, {
            launch: async () => ({ kind: 'needs-approval', request: request('t3') }),
            measure: () => ({ cols: 80, rows: 24 }),
            clear: async () => undefined
        });
        expect(rejected).to.deep.equal({ kind: 'not-approved' });
    });
});

describe('launchProject: "Sandy: Launch" in every host (unit)', () => {
    function host(options: { picked?: { workspacePath?: string }; live?: boolean; clearance?: LaunchClearance; preflightThrows?: boolean }) {
        const log: string[] = [];
        return {
            log,
            pickProject: async () => { log.push('pick'); return options.picked; },
            revealExisting: async (ws: string) => { log.push(`reveal? ${ws}`); return !!options.live; },
            clearForLaunch: async (ws: string) => {
                log.push(`preflight ${ws}`);
                if (options.preflightThrows) {
                    throw new Error('boom');
                }
                return options.clearance;
            },
            open: async (ws: string, c: LaunchClearance) => { log.push(`open ${ws} ${JSON.stringify(c)}`); },
            error: (m: string) => log.push(`error ${m}`)
        };
    }

    it('pre-flight runs before the terminal opens, and the clearance goes with it', async () => {
        const h = host({ clearance: { approvalToken: 't' } });
        await launchProject({ workspacePath: '/w' }, h);
        expect(h.log).to.deep.equal(['reveal? /w', 'preflight /w', 'open /w {"approvalToken":"t"}']);
    });

    it('a running session is revealed, not launched again', async () => {
        const h = host({ live: true, clearance: {} });
        await launchProject({ workspacePath: '/w' }, h);
        expect(h.log).to.deep.equal(['reveal? /w']);
    });

    it('rejected pre-flight opens nothing; a failing one says so', async () => {
        const rejected = host({ clearance: undefined });
        await launchProject({ workspacePath: '/w' }, rejected);
        expect(rejected.log).to.deep.equal(['reveal? /w', 'preflight /w']);
        const failing = host({ preflightThrows: true });
        await launchProject({ workspacePath: '/w' }, failing);
        expect(failing.log).to.deep.equal(['reveal? /w', 'preflight /w', 'error Sandy: pre-flight failed: boom See the log for details.']);
    });

    it('asks for a project when none was given; a sandbox without a workspace cannot launch', async () => {
        const picked = host({ picked: { workspacePath: '/p' }, clearance: {} });
        await launchProject(undefined, picked);
        expect(picked.log).to.deep.equal(['pick', 'reveal? /p', 'preflight /p', 'open /p {}']);
        const legacy = host({ picked: {} });
        await launchProject(undefined, legacy);
        expect(legacy.log).to.deep.equal(['pick', `error ${NO_WORKSPACE_TEXT}`]);
        const cancelled = host({ picked: undefined });
        await launchProject(undefined, cancelled);
        expect(cancelled.log).to.deep.equal(['pick']);
    });
});
