import { expect } from 'chai';
import { projectDescription, projectTooltip } from '../../common/projects/project-labels';
import { parsePrintSchema, parsePrintState, Sandbox, SandyState } from '../../common/sandy/contract';
import {
    abbreviateHome, DeriveProjectsInput, DerivedProject, deriveProjects, sandboxHashSuffix, sandboxNameForWorkspace, sha256Hex
} from '../../common/projects/project-state';
import { createHash, loadFixture } from './sandy-fixtures';

function state(fixture: string): SandyState {
    return parsePrintState(loadFixture(fixture).stdout);
}

const schema = parsePrintSchema(loadFixture('01-print-schema').stdout);
const base: Omit<DeriveProjectsInput, 'state'> = {
    sandyVersion: '1.7.1-dev',
    sandboxMinCompat: schema.sandy.sandbox_min_compat,
    agents: schema.agents
};

function byName(projects: DerivedProject[]): Map<string, DerivedProject> {
    return new Map(projects.map(p => [p.name, p]));
}

describe('project-state (unit)', () => {
    describe('sandbox naming', () => {
        it('sha256Hex equals node crypto on boundary lengths and non-ASCII', () => {
            const inputs = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(63), 'a'.repeat(64), 'a'.repeat(1000),
                '/home/u/edge "quote" \\back ünï', '/tmp/😀/日本語', '/w/with\nnewline'];
            for (const s of inputs) {
                expect(sha256Hex(s), JSON.stringify(s)).to.equal(createHash('sha256').update(s, 'utf8').digest('hex'));
            }
            expect(sha256Hex('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
        });

        it('sanitises the basename as sandy does (fx 55: `edge "quote" \\back ünï` → edgequotebackn)', () => {
            const path = '/home/u/src/edge "quote" \\back ünï';
            expect(sandboxNameForWorkspace(path)).to.equal(`edgequotebackn-${createHash('sha256').update(path).digest('hex').slice(0, 8)}`);
            expect(sandboxNameForWorkspace('/srv/日本').slice(0, 8)).to.equal('project-');
            expect(sandboxNameForWorkspace('/w/ws-alpha')).to.match(/^ws-alpha-[0-9a-f]{8}$/);
        });

        it('hash suffix of names', () => {
            expect(sandboxHashSuffix('ws-alpha-8163f30e')).to.equal('8163f30e');
            expect(sandboxHashSuffix('legacy')).to.equal(undefined);
        });

        it('abbreviateHome', () => {
            expect(abbreviateHome('/home/u/src/x', '/home/u')).to.equal('~/src/x');
            expect(abbreviateHome('/home/u/src/x', '/home/u/')).to.equal('~/src/x');
            expect(abbreviateHome('/home/u', '/home/u')).to.equal('~');
            expect(abbreviateHome('/home/user2/x', '/home/u')).to.equal('/home/user2/x');
            expect(abbreviateHome('/x', undefined)).to.equal('/x');
            expect(abbreviateHome('/x', '/')).to.equal('/x');
        });
    });

    describe('populated home (fx 41: docker unreachable)', () => {
        const projects = deriveProjects({ ...base, state: state('41-print-state-full-populated'), home: '<WS>' });
        const p = byName(projects);

        it('one entry per sandbox, in sandy\'s order', () => {
            expect(projects.map(x => x.name)).to.deep.equal(state('41-print-state-full-populated').sandboxes.map(s => s.name));
            expect(projects.every(x => x.key === x.name && x.sandboxName === x.name)).to.equal(true);
        });

        it('ws-alpha: live lock held by someone else → locked', () => {
            expect(p.get('ws-alpha-8163f30e')).to.deep.include({ state: 'locked', staleLock: false, lockHeld: true, lockHolderPid: 27950, ownedByUs: false });
        });

        it('ws-beta: lock of a dead pid → locked with staleLock', () => {
            expect(p.get('ws-beta-c6f3e2ca')).to.deep.include({ state: 'locked', staleLock: true, lockHolderPid: 27473 });
        });

        it('ws-approved: current and approved (hash prefix join)', () => {
            const a = p.get('ws-approved-5e26e387')!;
            expect(a).to.deep.include({ state: 'current', approved: true });
            expect(a.approval!.workspace_hash).to.equal('5e26e387598d8271');
        });

        it('ws-dockerfile: Dockerfile approvals are not passive approvals', () => {
            expect(p.get('ws-dockerfile-45b35442')).to.deep.include({ state: 'current', approved: false });
        });

        it('ws-gamma: orphan (workspace deleted) is current but workspaceExists false', () => {
            expect(p.get('ws-gamma-3ecb710a')).to.deep.include({ state: 'current', workspaceExists: false, workspacePathReliable: true });
        });

        it('ws-delta: handoff marker', () => {
            expect(p.get('ws-delta-d171e5a3')).to.deep.include({ handoffEnabled: true, state: 'current' });
            expect(p.get('ws-approved-5e26e387')!.handoffEnabled).to.equal(false);
        });

        it('oldproject: no markers → stale, shown by sandbox name', () => {
            expect(p.get('oldproject-0badc0de')).to.deep.include({
                state: 'stale', workspacePath: undefined, displayPath: 'oldproject-0badc0de', displayName: 'oldproject-0badc0de',
                createdVersion: undefined, workspaceExists: undefined
            });
        });

        it('display path, size and version fields', () => {
            expect(p.get('ws-alpha-8163f30e')).to.deep.include({
                displayPath: '~/ws-alpha', displayName: 'ws-alpha', sizeBytes: 77824, createdVersion: '1.7.1-dev', lastUsedVersion: '1.7.1-dev',
                belowMinCompat: false, sandboxPath: '<HOME:populated>/.sandy/sandboxes/ws-alpha-8163f30e'
            });
        });

        it('lastLaunched is last_used_at read as local time', () => {
            expect(p.get('ws-alpha-8163f30e')!.lastLaunched!.getTime()).to.equal(new Date(2026, 10, 30, 9, 57, 13, 62).getTime());
        });

        it('a newer sandy makes every idle sandbox stale; locks still win', () => {
            const newer = byName(deriveProjects({ ...base, sandyVersion: '1.8.0-abcdef1', state: state('41-print-state-full-populated') }));
            expect(newer.get('ws-approved-5e26e387')!.state).to.equal('stale');
            expect(newer.get('ws-gamma-3ecb710a')!.state).to.equal('stale');
            expect(newer.get('ws-alpha-8163f30e')!.state).to.equal('locked');
        });

        it('the released 1.7.1 sees 1.7.1-dev sandboxes as stale (pre-release < release)', () => {
            const rel = byName(deriveProjects({ ...base, sandyVersion: '1.7.1', state: state('41-print-state-full-populated') }));
            expect(rel.get('ws-delta-d171e5a3')!.state).to.equal('stale');
        });

        it('a live session we own holding the lock → running, not locked', () => {
            const mine = byName(deriveProjects({
                ...base, state: state('41-print-state-full-populated'),
                sessions: [{ pid: 27950, workspace: '/real/path/that/sandy/hashed', status: 'running', agent: 'codex' }]
            }));
            expect(mine.get('ws-alpha-8163f30e')).to.deep.include({ state: 'running', ownedByUs: true, lastAgent: 'codex' });
            expect(mine.get('ws-beta-c6f3e2ca')!.state).to.equal('locked');
        });

        it('an exited session does not count', () => {
            const mine = byName(deriveProjects({
                ...base, state: state('41-print-state-full-populated'),
                sessions: [{ pid: 27950, workspace: '<WS>/ws-alpha', status: 'exited' }]
            }));
            expect(mine.get('ws-alpha-8163f30e')!.state).to.equal('locked');
        });
    });

    it('fx 43 (stub docker reachable, no containers) gives the same states as 41', () => {
        const a = deriveProjects({ ...base, state: state('41-print-state-full-populated') }).map(p => [p.name, p.state, p.staleLock]);
        const b = deriveProjects({ ...base, state: state('43-stubdocker-print-state-full-populated') }).map(p => [p.name, p.state, p.staleLock]);
        expect(b).to.deep.equal(a);
    });

    it('light mode (fx 42) has no sizes', () => {
        const light = byName(deriveProjects({ ...base, state: state('42-print-state-light-populated') }));
        expect(light.get('ws-alpha-8163f30e')!.sizeBytes).to.equal(undefined);
        expect(light.get('ws-alpha-8163f30e')!.state).to.equal('locked');
    });

    describe('edge home (fx 55)', () => {
        const p = byName(deriveProjects({ ...base, state: state('55-print-state-full-edge-cases'), home: '<WS>' }));

        it('empty or non-numeric pid → locked, never stale (sandy never takes those over)', () => {
            expect(p.get('edge-garbage-08b4407c')).to.deep.include({ state: 'locked', staleLock: false, lockHolderPid: undefined });
            expect(p.get('edge-nopid-824ba1dd')).to.deep.include({ state: 'locked', staleLock: false, lockHolderPid: undefined });
        });

        it('created below the compat floor → stale + belowMinCompat (launch refused, fx 57)', () => {
            expect(p.get('edge-old-01b7edd5')).to.deep.include({ state: 'stale', belowMinCompat: true, createdVersion: '0.7.9' });
            expect(p.get('edge-real-4646e63c')).to.deep.include({ state: 'current', belowMinCompat: false });
        });

        it('truncated workspace_path (D2) is flagged, and its false `false` is not repeated', () => {
            expect(p.get('edgequotebackn-a3617a35')).to.deep.include({
                workspacePathReliable: false, workspaceExists: undefined, displayName: 'edgequotebackn-a3617a35',
                displayPath: '~/edge \\…', state: 'current'
            });
        });

        it('the header-less approval matches no sandbox; lock dir without sandbox is invisible', () => {
            expect([...p.values()].some(x => x.approved)).to.equal(false);
            expect(p.has('ghost-11112222')).to.equal(false);
            expect(p.get('legacy-0000aaaa')!.state).to.equal('stale');
        });
    });

    it('an orphaned sandbox (its folder gone, sandy\'s path reliable) says "folder gone" in its row, its size in the tooltip', () => {
        const full = state('41-print-state-full-populated');
        const one = full.sandboxes.find(s => s.workspace_path !== '' && !s.workspace_path.includes('"'))!;
        const s: SandyState = { ...full, sandboxes: [{ ...one, workspace_exists: false, size_bytes: 3 * 1024 * 1024 }] };
        const [orphan] = deriveProjects({ ...base, state: s });
        expect(orphan).to.deep.include({ workspaceExists: false, workspacePathReliable: true, sizeBytes: 3 * 1024 * 1024 });
        expect(projectDescription(orphan).split(' · ').slice(0, 2)).to.deep.equal([orphan.displayPath, 'folder gone']);
        expect(projectTooltip(orphan)).to.contain('The workspace folder no longer exists.').and.contain('\nSize: 3.0 MiB');
        const [present] = deriveProjects({ ...base, state: { ...full, sandboxes: [one] } });
        expect(projectDescription(present)).to.not.contain('folder gone');
    });

    it('D2 fixed by naming: a UI project with a `"` in its path joins its sandbox by name', () => {
        const realPath = '/home/u/src/edge "quote" \\back ünï';
        const name = sandboxNameForWorkspace(realPath);
        const edge = state('55-print-state-full-edge-cases');
        const quoted = edge.sandboxes.find(s => s.name === 'edgequotebackn-a3617a35')!;
        const sandbox: Sandbox = { ...quoted, name, workspace_path: '/home/u/src/edge \\', workspace_exists: false };
        const hash16 = createHash('sha256').update(realPath).digest('hex').slice(0, 16);
        const s: SandyState = {
            ...edge, sandboxes: [sandbox],
            approvals: [{ workspace_hash: hash16, workspace_path_hint: realPath, approved_keys_sha256: 'x', approved_at: '' }]
        };
        const [p, ...rest] = deriveProjects({ ...base, state: s, home: '/home/u', projects: [{ workspacePath: realPath, exists: true }] });
        expect(rest).to.have.length(0);
        expect(p).to.deep.include({
            name, sandboxName: name, workspacePath: realPath, displayPath: '~/src/edge "quote" \\back ünï', displayName: 'edge "quote" \\back ünï',
            workspaceExists: true, inProjectList: true, workspacePathReliable: false, approved: true
        });
    });

    describe('UI projects', () => {
        it('joins by path when the name does not match; a fresh project sits where its sandbox will be listed', () => {
            const projects = deriveProjects({
                ...base, state: state('41-print-state-full-populated'), home: '<WS>',
                projects: [{ workspacePath: '<WS>/ws-alpha/' }, { workspacePath: '<WS>/new-one', label: 'New one' }, { workspacePath: '<WS>/new-one' }]
            });
            expect(projects).to.have.length(8);
            const alpha = projects.find(p => p.name === 'ws-alpha-8163f30e')!;
            expect(alpha).to.deep.include({ inProjectList: true, workspacePath: '<WS>/ws-alpha' });
            // new-one-… sorts before oldproject-0badc0de, the first of sandy's sandboxes.
            const fresh = projects[0];
            expect(fresh).to.deep.include({
                state: 'fresh', inProjectList: true, sandboxName: undefined, sandboxPath: undefined, displayName: 'New one',
                displayPath: '~/new-one', name: sandboxNameForWorkspace('<WS>/new-one'), approved: false, lockHeld: false
            });
            expect(fresh.key).to.equal(fresh.name);
            expect(projects.filter(p => p.name !== alpha.name && p.state !== 'fresh').every(p => !p.inProjectList)).to.equal(true);
        });

        it('a project\'s first launch does not move its row: sandy lists its new sandbox where the project already was', () => {
            const populated = state('41-print-state-full-populated');
            const paths = ['<WS>/ws-bravo', '<WS>/zulu', '<WS>/aardvark'];
            const projects = paths.map(workspacePath => ({ workspacePath }));
            const before = deriveProjects({ ...base, state: populated, home: '<WS>', projects }).map(p => p.key);
            expect(before.slice(0, 2), 'aardvark first, before oldproject').to.deep.equal([sandboxNameForWorkspace('<WS>/aardvark'), 'oldproject-0badc0de']);
            expect(before[before.indexOf('ws-delta-d171e5a3') - 1], 'ws-bravo between ws-beta and ws-delta').to.equal(sandboxNameForWorkspace('<WS>/ws-bravo'));
            expect(before[before.length - 1]).to.equal(sandboxNameForWorkspace('<WS>/zulu'));
            // Each launched in turn: sandy now lists its sandbox, in its (glob) order.
            let sandboxes = [...populated.sandboxes];
            for (const path of paths) {
                sandboxes = [...sandboxes, { ...populated.sandboxes[1], name: sandboxNameForWorkspace(path), workspace_path: path }]
                    .sort((a, b) => a.name.localeCompare(b.name));
                const after = deriveProjects({ ...base, state: { ...populated, sandboxes }, home: '<WS>', projects }).map(p => p.key);
                expect(after, `after ${path}'s first launch`).to.deep.equal(before);
            }
        });

        it('a live session on a fresh project → running; an unlisted session still shows', () => {
            const projects = deriveProjects({
                ...base,
                projects: [{ workspacePath: '/w/new' }],
                sessions: [{ pid: 10, workspace: '/w/new', status: 'running' }, { pid: 11, workspace: '/w/other', status: 'running' }]
            });
            expect(projects.map(p => [p.displayPath, p.state, p.inProjectList])).to.deep.equal([
                ['/w/new', 'running', true], ['/w/other', 'running', false]
            ]);
        });

        it('no state yet: only the UI list, all fresh', () => {
            const projects = deriveProjects({ projects: [{ workspacePath: '/w/a' }] });
            expect(projects.map(p => p.state)).to.deep.equal(['fresh']);
        });

        it('metadata fills agent and model; the later launch wins', () => {
            const later = new Date(Date.UTC(2030, 0, 1));
            const p = byName(deriveProjects({
                ...base, state: state('41-print-state-full-populated'),
                metadata: {
                    'ws-approved-5e26e387': { lastAgent: 'gemini', model: 'gemini-3-pro', lastLaunched: later },
                    '<WS>/ws-delta': { model: 'claude-opus-5', lastLaunched: new Date(Date.UTC(2000, 0, 1)) }
                }
            }));
            expect(p.get('ws-approved-5e26e387')).to.deep.include({ lastAgent: 'gemini', model: 'gemini-3-pro', lastLaunched: later });
            const delta = p.get('ws-delta-d171e5a3')!;
            expect(delta.model).to.equal('claude-opus-5');
            expect(delta.lastLaunched!.getUTCFullYear()).to.equal(2026);
        });
    });

    describe('daemon sessions (fx 96, 96b, 97, 102a)', () => {
        it('a running daemon container → running with daemon info, agent from the image', () => {
            const [p] = deriveProjects({ ...base, state: state('96-stubdocker-print-state-full-daemon-running') });
            expect(p).to.deep.include({ name: 'ws-daemon-3f97ac9f', state: 'running', lastAgent: 'claude', ownedByUs: false });
            expect(p.containers.map(c => c.id)).to.deep.equal(['da3m0nc0ffee', '0badbeef0001']);
            expect(p.daemon).to.deep.equal({
                containerId: 'da3m0nc0ffee', containerName: 'sandy-ws-daemon-3f97ac9f', image: 'sandy-claude-code',
                startedAt: new Date(Date.UTC(2026, 10, 30, 9, 58, 38)), attachedClients: 1, imageStale: false, updatedAt: undefined,
                supervisorPid: 1390, supervisorAlive: true
            });
        });

        it('stale image (96b) and light mode (97)', () => {
            expect(deriveProjects({ ...base, state: state('96b-stubdocker-print-state-full-daemon-running-stale-image') })[0].daemon!.imageStale).to.equal(true);
            expect(deriveProjects({ ...base, state: state('97-stubdocker-print-state-light-daemon-running') })[0].daemon!.imageStale).to.equal(undefined);
        });

        it('supervisor dead while the container runs (102a) → running, staleLock, supervisorAlive false', () => {
            const [p] = deriveProjects({ ...base, state: state('102a-stubdocker-print-state-light-supervisor-dead') });
            expect(p).to.deep.include({ state: 'running', staleLock: true, lockHolderPid: 6024 });
            expect(p.daemon).to.deep.include({ supervisorPid: 6024, supervisorAlive: false });
        });

        it('a container is matched by its sandbox field, not by a similar name', () => {
            const s = state('96-stubdocker-print-state-full-daemon-running');
            const other: SandyState = {
                ...s,
                running_containers: s.running_containers!.map(c => ({ ...c, sandbox: 'someone-else-00000000' }))
            };
            const [p] = deriveProjects({ ...base, state: other });
            expect(p.containers).to.have.length(0);
            expect(p.daemon).to.equal(undefined);
            expect(p.state).to.equal('locked'); // live supervisor lock, no container of its own
        });
    });

    it('after --reset-sandbox (fx 59c): unknown created_version is neither stale nor below the floor', () => {
        const [p] = deriveProjects({ ...base, state: state('59c-print-state-after-reset-and-relaunch') });
        expect(p).to.deep.include({ state: 'current', createdVersion: undefined, lastUsedVersion: '1.7.1-dev', belowMinCompat: false });
    });

    it('empty home (fx 04) → no projects', () => {
        expect(deriveProjects({ ...base, state: state('04-print-state-full-empty-home') })).to.deep.equal([]);
    });
});
