import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { JSDOM } from 'jsdom';
import { ApprovalView } from '../../browser/approvals/approval-view';
import { ApprovalDecision, ApprovalRequest, buildApprovalRequest, maskApprovalLine } from '../../common/approvals/approval-model';
import { diffApproval } from '../../common/config/approval-diff';
import { runPreflight } from '../approvals/preflight';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import { fixturesRoot } from './sandy-fixtures';

const schema = BUNDLED_FALLBACK_SCHEMA;
const schemaInput = {
    privilegedKeys: schema.config.privileged_keys.map(k => k.name),
    passiveKeys: schema.config.passive_keys.map(k => k.name),
    envOnlyKeys: schema.config.env_only_keys.map(k => k.name),
    keys: [...schema.config.privileged_keys, ...schema.config.passive_keys, ...schema.config.env_only_keys]
};

async function requestFor(configText: string, secretsText?: string): Promise<ApprovalRequest | undefined> {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-approval-'));
    const ws = path.join(home, 'ws');
    fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.sandy', 'config'), configText);
    if (secretsText !== undefined) {
        fs.writeFileSync(path.join(ws, '.sandy', '.secrets'), secretsText);
    }
    try {
        const report = await runPreflight({ workspacePath: ws, sandyHome: path.join(home, '.sandy'), schema: schemaInput });
        const descriptions = Object.fromEntries(schemaInput.keys.map(k => [k.name, k.description]));
        return buildApprovalRequest(report, diffApproval(undefined, report.pendingPrivileged), descriptions);
    } finally {
        fs.rmSync(home, { recursive: true, force: true });
    }
}

function mount(request: ApprovalRequest, reveal: (key: string) => string | undefined = () => undefined) {
    const dom = new JSDOM('<!doctype html><div id="root"></div>');
    const container = dom.window.document.getElementById('root')!;
    const decisions: ApprovalDecision[] = [];
    const view = new ApprovalView(container, { decide: d => decisions.push(d), reveal: async line => reveal(line.key) });
    view.render(request);
    return { container, decisions, dom };
}

describe('approval view (hostile content, fixture 21)', () => {
    it('shows every privileged line of the file byte-for-byte in <pre> elements, via textContent', async () => {
        const configText = fs.readFileSync(path.join(fixturesRoot(), '21-validate-special-chars-values', 'input.config'), 'utf8');
        const request = (await requestFor(configText))!;
        expect(request.kind).to.equal('approve');
        const { container } = mount(request);
        const shown = [...container.querySelectorAll('pre.sandy-approval-pre')].map(p => p.textContent);
        const fileLines = configText.split('\n');
        const expected = request.lines.map(l => fileLines[l.line - 1]);
        expect(shown).to.deep.equal(expected.map((text, i) => request.lines[i].masked ? maskApprovalLine(text) : text));
        // the hostile payloads survived as text: no element was created from them
        expect(container.querySelector('script')).to.equal(null);
        expect(container.querySelector('b')).to.equal(null);
        const agentArgs = shown.find(s => s!.startsWith('SANDY_AGENT_ARGS='));
        expect(agentArgs).to.equal('SANDY_AGENT_ARGS=--mcp-config "/path with spaces/mcp.json" <b>bold</b> & echo hi');
        // every line names its file
        expect(container.querySelector('.sandy-approval-file-name')!.textContent).to.contain(path.join('.sandy', 'config'));
    });

    it('keeps leading spaces, tabs, unicode and a very long line exactly, without wrapping', async () => {
        const long = 'x'.repeat(5000);
        const text = `SANDY_ALLOW_HOSTS=  lead\tand\ttabs ünïcödé 🚀 \nSANDY_EXTRA_ENV=${long}\n`;
        const request = (await requestFor(text))!;
        const { container } = mount(request);
        const shown = [...container.querySelectorAll('pre')].map(p => p.textContent);
        expect(shown).to.include('SANDY_ALLOW_HOSTS=  lead\tand\ttabs ünïcödé 🚀 ');
        expect(shown).to.include(`SANDY_EXTRA_ENV=${long}`);
    });

    it('masks secrets until revealed, and reveals through the host only', async () => {
        const request = (await requestFor('SANDY_SSH=agent\n', 'ANTHROPIC_API_KEY=sk-ant-secret\n'))!;
        const secretLine = request.lines.find(l => l.key === 'ANTHROPIC_API_KEY')!;
        expect(secretLine.masked).to.equal(true);
        expect(JSON.stringify(request)).not.to.contain('sk-ant-secret');
        const { container } = mount(request, key => key === 'ANTHROPIC_API_KEY' ? 'ANTHROPIC_API_KEY=sk-ant-secret' : undefined);
        const row = container.querySelector('[data-key="ANTHROPIC_API_KEY"]')!;
        expect(row.querySelector('pre')!.textContent).to.equal('ANTHROPIC_API_KEY=••••••••');
        (row.querySelector('button.sandy-approval-reveal') as HTMLButtonElement).click();
        await new Promise(r => setTimeout(r, 0));
        expect(row.querySelector('pre')!.textContent).to.equal('ANTHROPIC_API_KEY=sk-ant-secret');
        expect(row.querySelector('.sandy-approval-location')!.textContent).to.contain('.secrets');
    });

    it('offers Approve/Reject, and reports the decision', async () => {
        const { container, decisions } = mount((await requestFor('SANDY_SKIP_PERMISSIONS=true\n'))!);
        const labels = [...container.querySelectorAll('.sandy-approval-actions button')].map(b => b.textContent);
        expect(labels).to.deep.equal(['Approve', 'Reject']);
        (container.querySelector('button.sandy-approval-reject') as HTMLButtonElement).click();
        expect(decisions).to.deep.equal(['reject']);
    });

    it('refuses a world-open LAN allowlist with the remediation and no Approve button', async () => {
        const request = (await requestFor('SANDY_ALLOW_LAN_HOSTS=192.168.1.0/24,0.0.0.0/0\n'))!;
        expect(request.kind).to.equal('refuse');
        const { container } = mount(request);
        expect(container.querySelector('.sandy-approval-refusals')!.textContent).to.contain('0.0.0.0/0');
        const labels = [...container.querySelectorAll('.sandy-approval-actions button')].map(b => b.textContent);
        expect(labels).to.not.include('Approve');
        expect(labels).to.include('Open Settings');
    });

    it('needs no view for passive-only config', async () => {
        expect(await requestFor('SANDY_MODEL=opus\nSANDY_AGENT=claude\n')).to.equal(undefined);
    });
});

describe('approval refusals name the settings scope to open', () => {
    it('a world-open LAN entry in ~/.sandy/config points at the Global tab, one in the workspace at Project', async () => {
        const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-approval-scope-'));
        const ws = path.join(home, 'ws');
        fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
        fs.mkdirSync(path.join(home, '.sandy'), { recursive: true });
        fs.writeFileSync(path.join(home, '.sandy', 'config'), 'SANDY_ALLOW_LAN_HOSTS=::/0\n');
        fs.writeFileSync(path.join(ws, '.sandy', 'config'), 'SANDY_ALLOW_LAN_HOSTS=0.0.0.0/0\n');
        try {
            const report = await runPreflight({ workspacePath: ws, sandyHome: path.join(home, '.sandy'), schema: schemaInput });
            const request = buildApprovalRequest(report, diffApproval(undefined, report.pendingPrivileged))!;
            expect(request.kind).to.equal('refuse');
            expect(request.refusals.map(r => r.scope).sort()).to.deep.equal(['global', 'project']);
        } finally {
            fs.rmSync(home, { recursive: true, force: true });
        }
    });
});

describe('approval view (the project Dockerfile and escaping symlinks)', () => {
    it('shows the whole Dockerfile with escapes visible, its context, what sandy does not cover, and the symlinks', () => {
        const request: ApprovalRequest = {
            workspace: '/w', kind: 'approve', token: 't', lines: [], removedKeys: [], hasPreviousApproval: false,
            approvalFilePath: '/h/a', refusals: [], notes: [],
            dockerfile: {
                path: '/w/.sandy/Dockerfile', text: 'FROM x\nRUN a\x1b[2K\u202eb\n', contextFiles: ['helper.sh'], unhashedFiles: ['sub/config'],
                changedSinceApproval: true, diff: [{ op: 'removed', text: 'RUN old' }, { op: 'added', text: 'RUN a' }]
            },
            symlinks: ['notes -> /home/u/notes']
        };
        const { container } = mount(request);
        const text = (sel: string) => [...container.querySelectorAll(sel)].map(e => e.textContent);
        expect(text('.sandy-approval-dockerfile-text')).to.deep.equal(['FROM x\nRUN a\\x1b[2K\\u202eb\n']);
        expect(text('.sandy-approval-context-files li')).to.deep.equal(['helper.sh']);
        expect(text('.sandy-approval-unhashed-files li')).to.deep.equal(['sub/config']);
        expect(text('.sandy-approval-diff-removed, .sandy-approval-diff-added')).to.deep.equal(['- RUN old\n', '+ RUN a\n']);
        expect(text('.sandy-approval-symlink-list')).to.deep.equal(['notes -> /home/u/notes']);
        expect(text('.sandy-approval-title')[0]).to.equal('Approve the project Dockerfile and symlinks out of the workspace for this workspace?');
        expect(text('.sandy-approval-actions button')).to.deep.equal(['Approve', 'Reject']);
    });
});

describe('approval view (hostile text in every field)', () => {
    it('renders an <img onerror> payload as text wherever workspace or agent text reaches the view', async () => {
        const attack = '<img src=x onerror=alert(1)>';
        const request: ApprovalRequest = {
            workspace: `/w/${attack}`, kind: 'approve', token: 't', removedKeys: [attack], hasPreviousApproval: true,
            approvalFilePath: '/h/a', notes: [attack],
            refusals: [{ message: attack, remediation: attack, key: '', filePath: `/w/${attack}`, line: 1 }],
            compat: { message: attack, remediation: attack, minCompat: '1', refuses: false },
            lines: [{
                key: 'SANDY_SSH', text: `SANDY_SSH=${attack}`, masked: true, source: 'config', filePath: `/w/${attack}/config`, line: 1,
                reason: 'privileged-key', change: 'added', description: attack
            }],
            dockerfile: {
                path: `/w/${attack}/Dockerfile`, text: `RUN ${attack}`, contextFiles: [attack], unhashedFiles: [attack], changedSinceApproval: true,
                diff: [{ op: 'added', text: attack }]
            },
            symlinks: [`l -> ${attack}`]
        };
        const dom = new JSDOM('<!doctype html><div id="root"></div>');
        const container = dom.window.document.getElementById('root')!;
        const opened: string[] = [];
        new ApprovalView(container, { decide: () => undefined, reveal: async () => `SANDY_SSH=${attack}`, openFile: p => opened.push(p) }).render(request);
        const noMarkup = () => {
            expect(container.querySelector('img, script')).to.equal(null);
            expect([...container.querySelectorAll('*')].filter(e => e.getAttributeNames().some(n => n.startsWith('on')))).to.deep.equal([]);
        };
        noMarkup();
        const count = container.textContent!.split(attack).length - 1;
        expect(count, 'every field shows the payload verbatim').to.equal(17);
        (container.querySelector('button.sandy-approval-reveal') as HTMLButtonElement).click();
        await new Promise(resolve => setTimeout(resolve, 0));
        noMarkup();
        expect(container.querySelector('.sandy-approval-line pre')!.textContent).to.equal(`SANDY_SSH=${attack}`);
        (container.querySelector('a.sandy-approval-path') as HTMLAnchorElement).click();
        expect(opened).to.deep.equal([`/w/${attack}`]);
    });
});
