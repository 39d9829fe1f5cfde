import { expect } from 'chai';
import { parsePrintState, RunningContainer, Sandbox, SandyState } from '../sandy/contract';
import { sandboxNameForWorkspace } from '../projects/project-state';
import { discoverSessions, SessionRecordsView } from './session-discovery';

/**
 * `sandy --print-state` while a daemon session runs, as the real sandy 1.7.1 printed it (fixtures
 * 96 full and 97 light, copied here because src/common reads no files). Its placeholders become a
 * real workspace, and the sandbox name the one sandy derives from that path (sha256 of the path).
 */
const FX96 = '{"schema_version":1,"sandy_home":"<HOME:daemon>/.sandy","host_id":"vm","host_id_source":"hostname","installed_images":[{"name":"sandy-base","id":"sha256:baseimageid000000000000000000000000000000000000000000000000000001","created":"2026-11-01T00:00:00.000000000Z"},{"name":"sandy-claude-code","id":"sha256:claudeimageid00000000000000000000000000000000000000000000000002","created":"2026-11-02T00:00:00.000000000Z"}],"sandboxes":[{"name":"ws-daemon-3f97ac9f","path":"<HOME:daemon>/.sandy/sandboxes/ws-daemon-3f97ac9f","workspace_path":"<WS>/ws-daemon","workspace_exists":true,"created_version":"1.7.1-dev","last_used_version":"1.7.1-dev","created_at":"2026-11-30T09:58:38.566047280Z","last_used_at":"2026-11-30T09:58:38.570047280Z","size_bytes":73728,"handoff_enabled":false,"lock_held":true,"lock_holder_pid":"1390","lock_holder_alive":true}],"approvals":[],"docker_reachable":true,"running_containers":[{"id":"da3m0nc0ffee","name":"sandy-ws-daemon-3f97ac9f","image":"sandy-claude-code","started_at":"2026-11-30 09:58:38 +0000 UTC","sandbox":"ws-daemon-3f97ac9f","daemon":true,"attached_clients":1,"updated_at":null,"image_stale":false},{"id":"0badbeef0001","name":"sandy-proxy-ws-daemon-3f97ac9f","image":"sandy-proxy","started_at":"2026-11-30 09:58:38 +0000 UTC","sandbox":"ws-daemon-3f97ac9f","daemon":false,"attached_clients":null,"updated_at":null,"image_stale":null}],"orphan_networks":0,"dangling_images":0,"orphaned_containers":0,"proxy_image_created":"2026-11-01T12:00:00.000000000Z"}';
const FX97 = '{"schema_version":1,"sandy_home":"<HOME:daemon>/.sandy","host_id":"vm","host_id_source":"hostname","installed_images":[],"sandboxes":[{"name":"ws-daemon-3f97ac9f","path":"<HOME:daemon>/.sandy/sandboxes/ws-daemon-3f97ac9f","workspace_path":"<WS>/ws-daemon","workspace_exists":true,"created_version":"1.7.1-dev","last_used_version":"1.7.1-dev","created_at":"2026-11-30T09:58:38.566047280Z","last_used_at":"2026-11-30T09:58:38.570047280Z","size_bytes":null,"handoff_enabled":false,"lock_held":true,"lock_holder_pid":"1390","lock_holder_alive":true}],"approvals":[],"docker_reachable":true,"running_containers":[{"id":"da3m0nc0ffee","name":"sandy-ws-daemon-3f97ac9f","image":"sandy-claude-code","started_at":"2026-11-30 09:58:38 +0000 UTC","sandbox":"ws-daemon-3f97ac9f","daemon":true,"attached_clients":1,"updated_at":null},{"id":"0badbeef0001","name":"sandy-proxy-ws-daemon-3f97ac9f","image":"sandy-proxy","started_at":"2026-11-30 09:58:38 +0000 UTC","sandbox":"ws-daemon-3f97ac9f","daemon":false,"attached_clients":null,"updated_at":null}],"orphan_networks":0,"dangling_images":null,"orphaned_containers":null,"proxy_image_created":null}';

const HOME = '/home/u';
const WS = '/home/u/work/ws-daemon';
const CONTAINER = 'da3m0nc0ffee';
const STARTED = Date.UTC(2026, 10, 30, 9, 58, 38);
const OBSERVED = STARTED + 60_000;

function state(fixture: string): SandyState {
    return parsePrintState(fixture.replace(/<HOME:daemon>/g, HOME).replace(/<WS>/g, '/home/u/work').replace(/ws-daemon-3f97ac9f/g, sandboxNameForWorkspace(WS)));
}

function records(more: Partial<SessionRecordsView> = {}): SessionRecordsView {
    return { daemons: {}, foreground: {}, ...more };
}

/** A daemon session of another workspace, as sandy lists it: its sandbox, its container and its proxy sidecar. */
function withDaemon(base: SandyState, workspace: string, id: string, listedPath = workspace, attachedClients: number | null = 0): SandyState {
    const name = sandboxNameForWorkspace(workspace);
    const sandbox: Sandbox = { ...base.sandboxes[0], name, path: `${HOME}/.sandy/sandboxes/${name}`, workspace_path: listedPath, lock_holder_pid: '4242' };
    const container: RunningContainer = { ...base.running_containers![0], id, name: `sandy-${name}`, sandbox: name, attached_clients: attachedClients };
    const proxy: RunningContainer = { ...base.running_containers![1], id: `${id.slice(0, 10)}ff`, name: `sandy-proxy-${name}`, sandbox: name };
    return { ...base, sandboxes: [...base.sandboxes, sandbox], running_containers: [...base.running_containers!, container, proxy] };
}

describe('discoverSessions: the running sessions in a --print-state (unit)', () => {
    it('a shell\'s daemon session (fixture 96): one session from its container, its proxy sidecar is none, its workspace the one sandy lists', () => {
        for (const fixture of [FX96, FX97]) {
            const found = discoverSessions(state(fixture), records(), OBSERVED);
            expect(found).to.deep.equal({
                daemons: [{ workspace: WS, containerId: CONTAINER, startedAt: STARTED, attachedClients: 1, ours: false }],
                orphans: [],
                observedAt: OBSERVED
            });
        }
    });

    it('a proxy row is never a session, even one sandy would flag as a daemon', () => {
        const s = state(FX96);
        s.running_containers = s.running_containers!.map(c => ({ ...c, daemon: true }));
        expect(discoverSessions(s, records(), OBSERVED).daemons!.map(d => d.containerId)).to.deep.equal([CONTAINER]);
        // A plain (foreground) sandy's container is not a daemon session either.
        s.running_containers = s.running_containers.map(c => ({ ...c, daemon: false }));
        expect(discoverSessions(s, records(), OBSERVED).daemons).to.deep.equal([]);
    });

    it('the container this IDE remembered for a workspace is ours, under the workspace we remembered', () => {
        const found = discoverSessions(state(FX96), records({ daemons: { [WS]: CONTAINER } }), OBSERVED);
        expect(found.daemons).to.deep.equal([{ workspace: WS, containerId: CONTAINER, startedAt: STARTED, attachedClients: 1, ours: true }]);
        // A container id we remembered elsewhere does not make this one ours.
        const other = discoverSessions(state(FX96), records({ daemons: { [WS]: '0123456789ab' } }), OBSERVED);
        expect(other.daemons!.map(d => d.ours)).to.deep.equal([false]);
    });

    it('the 12-character id is the join key, whatever length sandy prints', () => {
        const s = state(FX96);
        s.running_containers![0] = { ...s.running_containers![0], id: `${CONTAINER}00000000000000000000000000000000000000000000000000001` };
        expect(discoverSessions(s, records({ daemons: { [WS]: CONTAINER } }), OBSERVED).daemons!.map(d => [d.containerId, d.ours])).to.deep.equal([[CONTAINER, true]]);
    });

    it('a workspace_path sandy cut at a quote (CONTRACT D2: its sandbox name does not match it) is skipped, unless we remembered the container', () => {
        const quoted = '/home/u/work/edge "quote" \\back ünï';
        // What sandy 1.7.1 lists for that workspace (fixture 55): the path up to the quote, the name from the whole path.
        const s = withDaemon(state(FX96), quoted, '4d3f00c0ffee', '/home/u/work/edge \\');
        expect(s.sandboxes[1].name).to.equal(sandboxNameForWorkspace(quoted));
        expect(sandboxNameForWorkspace('/home/u/work/edge \\')).to.not.equal(s.sandboxes[1].name);

        const unknown = discoverSessions(s, records(), OBSERVED);
        expect(unknown.daemons!.map(d => d.workspace), 'never under a wrong path').to.deep.equal([WS]);

        const remembered = discoverSessions(s, records({ daemons: { [quoted]: '4d3f00c0ffee' } }), OBSERVED);
        expect(remembered.daemons!.map(d => [d.workspace, d.containerId, d.ours])).to.deep.equal([[WS, CONTAINER, false], [quoted, '4d3f00c0ffee', true]]);
    });

    it('a container with no sandbox sandy lists, or a sandbox without a path, is skipped unless remembered', () => {
        const s = withDaemon(state(FX96), '/home/u/work/legacy', '1e9ac0000001', '');
        expect(discoverSessions(s, records(), OBSERVED).daemons!.map(d => d.workspace)).to.deep.equal([WS]);
        s.sandboxes = s.sandboxes.slice(0, 1);
        expect(discoverSessions(s, records(), OBSERVED).daemons!.map(d => d.workspace)).to.deep.equal([WS]);
        expect(discoverSessions(s, records({ daemons: { '/home/u/work/legacy': '1e9ac0000001' } }), OBSERVED).daemons!.map(d => d.workspace))
            .to.deep.equal([WS, '/home/u/work/legacy']);
    });

    it('reads attached clients only when sandy could count them, and a start time only when it parses', () => {
        const s = withDaemon(state(FX96), '/home/u/work/other', '0123456789ab', '/home/u/work/other', null);
        s.running_containers![2] = { ...s.running_containers![2], started_at: 'yesterday' };
        const other = discoverSessions(s, records(), OBSERVED).daemons![1];
        expect(other).to.deep.equal({ workspace: '/home/u/work/other', containerId: '0123456789ab', startedAt: undefined, attachedClients: undefined, ours: false });
    });

    it('Docker unreachable (running_containers null): the daemon list is unknown, not empty', () => {
        const s: SandyState = { ...state(FX96), docker_reachable: false, running_containers: null };
        const found = discoverSessions(s, records({ daemons: { [WS]: CONTAINER } }), OBSERVED);
        expect(found.daemons).to.equal(undefined);
        expect(found.orphans).to.deep.equal([]);
        // An empty list is a real answer: nothing runs.
        expect(discoverSessions({ ...s, docker_reachable: true, running_containers: [] }, records(), OBSERVED).daemons).to.deep.equal([]);
    });

    describe('orphans', () => {
        /** A foreground sandy's lock on the workspace (no container: the plain launch's container is not a daemon). */
        function locked(pid: string | null, alive: boolean | null, held = true): SandyState {
            const s = state(FX96);
            s.running_containers = [];
            s.sandboxes[0] = { ...s.sandboxes[0], lock_held: held, lock_holder_pid: pid, lock_holder_alive: alive };
            return s;
        }

        it('a foreground sandy we launched whose lock is still held by the same live pid', () => {
            expect(discoverSessions(locked('1390', true), records({ foreground: { [WS]: { pid: 1390, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([{ workspace: WS, pid: 1390, start: 'proc:77' }]);
        });

        it('not when another process holds the lock now (a shell\'s sandy took over), nor one we never launched', () => {
            expect(discoverSessions(locked('1391', true), records({ foreground: { [WS]: { pid: 1390, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([]);
            expect(discoverSessions(locked('1390', true), records(), OBSERVED).orphans).to.deep.equal([]);
            expect(discoverSessions(locked('1390', true), records({ foreground: { '/home/u/work/other': { pid: 1390, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([]);
        });

        it('not when the holder is dead (a stale lock, fixture 102a), unknown, or the lock is not held', () => {
            expect(discoverSessions(locked('1390', false), records({ foreground: { [WS]: { pid: 1390, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([]);
            expect(discoverSessions(locked('1390', null), records({ foreground: { [WS]: { pid: 1390, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([]);
            expect(discoverSessions(locked('1390', true, false), records({ foreground: { [WS]: { pid: 1390, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([]);
            // sandy's pid file may be empty or hold garbage (fixture 55): never a pid.
            expect(discoverSessions(locked('', true), records({ foreground: { [WS]: { pid: 0, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([]);
            expect(discoverSessions(locked('1390x', true), records({ foreground: { [WS]: { pid: 1390, start: 'proc:77' } } }), OBSERVED).orphans).to.deep.equal([]);
        });

        it('found whether or not Docker answered', () => {
            const s = { ...locked('1390', true), docker_reachable: false, running_containers: null };
            expect(discoverSessions(s, records({ foreground: { [WS]: { pid: 1390, start: 'proc:77' } } }), OBSERVED)).to.deep.equal({ daemons: undefined, orphans: [{ workspace: WS, pid: 1390, start: 'proc:77' }], observedAt: OBSERVED });
        });
    });
});
