/**
 * Approval diff against approval files written by sandy 1.7.1 (fixtures 13a/13b: the file lists
 * names only, so a changed value needs sandy-ui's own value memory).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { compareCodePoints, diffApproval, parseApprovalFile } from '../../common/config/approval-diff';
import { analyzePreflight, PreflightReport } from '../../common/config/preflight';
import { sha256Hex, valueHashesFor } from '../approvals/preflight';
import { fixturesRoot } from './sandy-fixtures';


const FIXTURES = fixturesRoot();

function fixture(prefix: string, file: string): string {
    const dir = fs.readdirSync(FIXTURES).find(d => d.startsWith(prefix + '-'))!;
    return fs.readFileSync(path.join(FIXTURES, dir, file), 'utf8');
}

const schema = JSON.parse(fs.readFileSync(path.join(FIXTURES, '01-print-schema', 'stdout.json'), 'utf8'));
const privilegedKeys: string[] = schema.config.privileged_keys.map((k: { name: string }) => k.name);

function preflight(configText: string, approvalText?: string): PreflightReport {
    return analyzePreflight({
        workspacePath: '/ws', sandyHome: '/h', schema: { privilegedKeys },
        workspaceConfig: { path: '/ws/.sandy/config', text: configText }, approvalFileText: approvalText
    }, sha256Hex);
}

describe('approval-diff (unit)', () => {
    it('parses a file written by sandy', () => {
        const info = parseApprovalFile(fixture('30', 'approval-file.list'));
        expect(info).to.deep.equal({
            setHash: '1039e2d62d59bf0ee577f0663aea9ad9968352b338488d8c2595a8ff5a419753',
            workspace: '<WS>/ws-approve',
            approvedAt: '2026-11-30T09:55:43Z',
            keys: ['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT', 'SANDY_SSH']
        });
    });

    it('parses a header-less hand-made file (fixture 55)', () => {
        expect(parseApprovalFile('deadbeef00000000000000000000000000000000000000000000000000000000\n')).to.deep.equal({
            setHash: 'deadbeef00000000000000000000000000000000000000000000000000000000', workspace: undefined, approvedAt: undefined, keys: []
        });
    });

    it('fixture 13b: an added key is reported by name', () => {
        const approval = fixture('13b', 'approval-file.list');
        const report = preflight(fixture('13b', 'input.config'), approval);
        const diff = diffApproval(approval, report.pendingPrivileged, { currentSetHash: report.approvalSetHash });
        expect(diff).to.deep.include({ hasApproval: true, hashMatches: false, addedKeys: ['SANDY_EXTRA_ENV'], removedKeys: [], changedValueKeys: [] });
    });

    it('fixture 13a: a changed value is invisible in the file but found with the value memory', () => {
        const approval = fixture('13a', 'approval-file.list');
        const approvedReport = preflight(fixture('13a', 'input.approved.config'), approval);
        expect(approvedReport.approvalStatus).to.equal('approved');
        const remembered = valueHashesFor(approvedReport.pendingPrivileged);

        const report = preflight(fixture('13a', 'input.config'), approval);
        const current = valueHashesFor(report.pendingPrivileged);
        const withoutMemory = diffApproval(approval, report.pendingPrivileged, { currentSetHash: report.approvalSetHash });
        expect(withoutMemory).to.deep.include({ hashMatches: false, addedKeys: [], removedKeys: [], changedValueKeys: [] });
        expect(withoutMemory.unverifiedKeys).to.deep.equal(['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT', 'SANDY_SSH']);

        const withMemory = diffApproval(approval, report.pendingPrivileged, {
            currentSetHash: report.approvalSetHash, approvedValueHashes: remembered, currentValueHashes: current
        });
        expect(withMemory).to.deep.include({
            changedValueKeys: ['SANDY_SSH'], unchangedKeys: ['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT'], unverifiedKeys: []
        });
    });

    it('reports removed keys, and nothing changed when line 1 matches even if the memory is stale', () => {
        const approval = fixture('30', 'approval-file.list');
        const fewer = preflight('SANDY_SSH=agent\n', approval);
        expect(diffApproval(approval, fewer.pendingPrivileged, { currentSetHash: fewer.approvalSetHash }).removedKeys)
            .to.deep.equal(['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT']);
        const same = preflight(fixture('30', 'input.config'), approval);
        const diff = diffApproval(approval, same.pendingPrivileged, {
            currentSetHash: same.approvalSetHash, approvedValueHashes: { SANDY_SSH: 'stale' }, currentValueHashes: valueHashesFor(same.pendingPrivileged)
        });
        expect(diff).to.deep.include({ hashMatches: true, changedValueKeys: [], addedKeys: [], removedKeys: [] });
    });

    it('without an approval file every pending key is added', () => {
        const report = preflight(fixture('30', 'input.config'));
        expect(diffApproval(undefined, report.pendingPrivileged)).to.deep.include({
            hasApproval: false, addedKeys: ['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT', 'SANDY_SSH']
        });
    });

    it('compareCodePoints is UTF-8 byte order, not UTF-16 order', () => {
        expect(['\uFFFD', '🚀', 'a', 'B', '_'].sort(compareCodePoints)).to.deep.equal(['B', '_', 'a', '\uFFFD', '🚀']);
        expect(['🚀', '\uFFFD'].sort()).to.deep.equal(['🚀', '\uFFFD']); // what plain sort() would do
    });
});
