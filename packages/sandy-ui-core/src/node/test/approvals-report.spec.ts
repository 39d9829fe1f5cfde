/**
 * sandy 2.x's `--approvals`: the reader (exit status = verdict, gates read tolerantly, names as plain
 * text) and what it does to Launch's pre-flight (sandy decides which gates are pending; the files still
 * give the preview). The flag's documented contract is its description in the real 2.7.1 schema.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { approvalsCommand, gatesInApprovalsDocument, parseApprovalsResult, SandyGateReport } from '../../common/sandy/approvals-report';
import { parsePrintSchema } from '../../common/sandy/contract';
import { RunResult } from '../../common/sandy/runner-types';
import { analyzeLaunch } from '../approvals/launch-analysis';
import { repoFixtureFolder } from './sandy-fixtures';

const schema271 = parsePrintSchema(fs.readFileSync(path.join(repoFixtureFolder('sandy-2.7.1', 'print-schema.json'), 'print-schema.json'), 'utf8'));

function result(exitCode: number | undefined, stdout: string, extra: Partial<RunResult> = {}): RunResult {
    return { stdout, stderr: '', exitCode, signal: undefined, timedOut: false, durationMs: 5, args: ['--approvals', '--workspace', '/w'], ...extra };
}

describe('sandy --approvals: the reader (unit)', () => {
    it('is documented by the 2.7.1 schema it is offered in: decisions, exit 0/2/1, key names only', () => {
        const flag = schema271.cli_flags.find(f => f.name === '--approvals');
        expect(flag?.description).to.include('approved, pending, changed, refused or not_applicable')
            .and.include('Exit 0 when nothing is unresolved, 2 when a gate would be withheld or refused, 1 when no report could be produced')
            .and.include('key names only, never values');
    });

    it('asks with the flag first and the workspace as one argument; refuses a relative workspace', () => {
        expect(approvalsCommand('/home/u/my project').args).to.deep.equal(['--approvals', '--workspace', '/home/u/my project']);
        expect(() => approvalsCommand('proj')).to.throw(/absolute path/);
    });

    it('takes the verdict from the exit status alone, whatever the document says', () => {
        const lying = JSON.stringify({ gates: { privileged_keys: { decision: 'pending', keys: ['SANDY_SSH'] } } });
        expect(parseApprovalsResult(result(0, lying)).verdict).to.equal('clear');
        expect(parseApprovalsResult(result(2, '{}')).verdict).to.equal('unresolved');
        expect(parseApprovalsResult(result(2, 'not json at all')).verdict).to.equal('unresolved');
        expect(parseApprovalsResult(result(2, 'not json at all')).gates).to.deep.equal([]);
    });

    it('no report (exit 1, another status, a signal, a timeout): an error, so the files decide', () => {
        for (const r of [result(1, '{"error":"x"}'), result(3, ''), result(undefined, '', { signal: 'SIGKILL' }), result(0, '{}', { timedOut: true })]) {
            expect(() => parseApprovalsResult(r)).to.throw(/no report/);
        }
    });

    it('finds gates in more than one layout, named by key or by a gate/name field, with their names', () => {
        expect(gatesInApprovalsDocument({ gates: { dockerfile: { decision: 'changed' }, symlinks: { decision: 'not_applicable', links: [] } } }))
            .to.deep.equal([{ gate: 'dockerfile', decision: 'changed', names: [] }, { gate: 'symlinks', decision: 'not_applicable', names: [] }]);
        expect(gatesInApprovalsDocument([{ gate: 'privileged_keys', status: 'pending', keys: ['SANDY_SSH', 'SANDY_ALLOW_LAN_HOSTS'] }]))
            .to.deep.equal([{ gate: 'privileged_keys', decision: 'pending', names: ['SANDY_SSH', 'SANDY_ALLOW_LAN_HOSTS'] }]);
        expect(gatesInApprovalsDocument({ gates: { x: { decision: 'maybe' } } }), 'an unknown decision is no gate').to.deep.equal([]);
    });

    it('Attack: names from the document are one plain line each, bounded in number and length', () => {
        const gates = gatesInApprovalsDocument({
            'evil\u001b]8;;https://x\u0007name\nsecond line': { decision: 'pending', keys: ['A\u202eB', 'x'.repeat(500), ...Array.from({ length: 100 }, (_, i) => `K${i}`)] }
        });
        expect(gates).to.have.length(1);
        expect(gates[0].gate).to.not.match(/[\u0000-\u001f\u007f]/);
        expect(gates[0].names.length).to.be.at.most(32);
        expect(gates[0].names.every(n => n.length <= 120)).to.equal(true);
        const deep = { a: { b: { c: { d: { e: { decision: 'pending' } } } } } };
        expect(gatesInApprovalsDocument(deep), 'not followed without end').to.deep.equal([]);
    });
});

describe('sandy --approvals in Launch\'s pre-flight (unit, real files, the 2.7.1 schema)', () => {
    let root: string;
    let workspace: string;
    let sandyHome: string;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'approvals-report-')));
        workspace = path.join(root, 'home', 'proj');
        sandyHome = path.join(root, 'home', '.sandy');
        fs.mkdirSync(path.join(workspace, '.sandy'), { recursive: true });
        fs.mkdirSync(sandyHome, { recursive: true });
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const analyze = (sandyGates?: SandyGateReport) => analyzeLaunch({
        workspace, schema: schema271, sandyHome, home: path.join(root, 'home'), launchEnv: {}, sandyGates,
        problemOf: e => ({ code: 'failed', message: (e as Error).message, hint: '' })
    });

    it('without sandy\'s report the files decide: a workspace SANDY_SSH is a gate to approve, its value previewed', async () => {
        fs.writeFileSync(path.join(workspace, '.sandy', 'config'), 'SANDY_SSH=agent\n');
        const a = await analyze();
        expect(a.gates.privileged?.keys).to.deep.equal(['SANDY_SSH']);
        expect(a.request?.kind).to.equal('approve');
        expect(a.notes).to.deep.equal([]);
    });

    it('sandy says nothing is unresolved (exit 0): nothing to approve, whatever the files suggest', async () => {
        fs.writeFileSync(path.join(workspace, '.sandy', 'config'), 'SANDY_SSH=agent\n');
        fs.writeFileSync(path.join(workspace, '.sandy', 'Dockerfile'), 'FROM scratch\n');
        const a = await analyze({ verdict: 'clear', gates: [] });
        expect(a.gates).to.deep.equal({ workspace });
        expect(a.request).to.equal(undefined);
    });

    it('sandy reports a gate the files did not show (exit 2): the launch says which, and that sandy asks in the terminal', async () => {
        const a = await analyze({ verdict: 'unresolved', gates: [{ gate: 'dockerfile', decision: 'changed', names: [] }, { gate: 'symlinks', decision: 'approved', names: [] }] });
        expect(a.request).to.equal(undefined);
        expect(a.notes).to.deep.equal(['sandy reports a launch gate the IDE could not preview — dockerfile: changed. sandy asks about it in the session\'s terminal; answer there.']);
    });

    it('sandy and the files agree that a gate is pending: the approval view as before, no extra note', async () => {
        fs.writeFileSync(path.join(workspace, '.sandy', 'config'), 'SANDY_SSH=agent\n');
        const a = await analyze({ verdict: 'unresolved', gates: [{ gate: 'privileged_keys', decision: 'pending', names: ['SANDY_SSH'] }] });
        expect(a.request?.kind).to.equal('approve');
        expect(a.notes).to.deep.equal([]);
    });
});
