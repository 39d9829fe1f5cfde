import { FakeUri, FakeWebviewPanel, recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import type { ApprovalDecision, ApprovalRequest } from '@sandy-ui/core/common';
import type { SandyServiceCore } from '@sandy-ui/core/node';
import { ApprovalPanels } from './approval-panel';

function request(token: string): ApprovalRequest {
    return { workspace: '/w/proj', token, lines: [], refusals: [] } as unknown as ApprovalRequest;
}

/**
 * The approval webview answers asynchronously: a second pre-flight for the same workspace (Launch
 * clicked again, a Relaunch) swaps the request while the user's click on the first is in flight.
 */
describe('VS Code plugin: an approval decision counts only for the request the user saw (unit)', () => {
    let panels: ApprovalPanels;
    let warned: string[];
    let panel: FakeWebviewPanel;

    beforeEach(() => {
        resetFakeVscode();
        warned = [];
        const log = { info: () => undefined, warn: (m: string) => warned.push(m), error: () => undefined };
        panels = new ApprovalPanels({} as unknown as SandyServiceCore, log as never, FakeUri.file('/ext') as never);
    });
    afterEach(() => panels.dispose());

    it('an Approve clicked on request A does not approve request B that replaced it', async () => {
        const first = panels.ask(request('TOKEN-A'));
        panel = recorded.panels[recorded.panels.length - 1];
        panel.fromPage.fire({ type: 'ready' });
        const second = panels.ask(request('TOKEN-B'));
        // The click on A's Approve arrives after B was posted but before the page rendered it.
        panel.fromPage.fire({ type: 'decide', decision: 'approve', token: 'TOKEN-A' });

        expect(await first).to.equal('reject');
        const settled: ApprovalDecision[] = [];
        void second.then(d => settled.push(d));
        await new Promise(resolve => setTimeout(resolve, 10));
        expect(settled, 'B is still waiting for a decision made on B').to.deep.equal([]);
        expect(warned.join('\n')).to.contain('no longer on screen');

        panel.fromPage.fire({ type: 'decide', decision: 'approve', token: 'TOKEN-B' });
        expect(await second).to.equal('approve');
    });
});
