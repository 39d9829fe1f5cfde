import { expect } from 'chai';
import type { SessionInfo } from './session-types';
import type { ProjectsSnapshot, SandyConfiguration, SandyServiceEvents } from '../service/service-protocol';
import { SandyError } from '../sandy/errors';
import { WindowState, WindowStateService } from './window-state';

function session(id: string, workspace: string, status: SessionInfo['status'] = 'running'): SessionInfo {
    return { id, pid: 1, mode: 'foreground', origin: 'ide', workspace, args: [], startedAt: 0, status, attachedViews: 1 };
}

function snapshot(sessions: SessionInfo[] = [], projects: ProjectsSnapshot['projects'] = []): ProjectsSnapshot {
    return { status: { found: true }, projects, sessions, dockerReachable: true, home: '/home/u' };
}

/** A fake connection: records every call; `fail` makes the next configure reject. */
class FakeService implements WindowStateService {
    readonly calls: string[] = [];
    listener!: SandyServiceEvents;
    next = snapshot();
    failConfigure: unknown;
    failFolders: unknown;

    async configure(config: SandyConfiguration) {
        this.calls.push(`configure ${JSON.stringify(config)}`);
        if (this.failConfigure) {
            const e = this.failConfigure;
            this.failConfigure = undefined;
            throw e;
        }
        return { found: true };
    }

    async refresh() {
        this.calls.push('refresh');
        return this.next;
    }

    async setVisible(visible: boolean) {
        this.calls.push(`visible ${visible}`);
    }

    async setSeen(ids: string[]) {
        this.calls.push(`seen ${ids.join(',')}`);
    }

    async setOpenFolders(folders: string[]) {
        this.calls.push(`folders ${folders.join(',')}`);
        if (this.failFolders) {
            throw this.failFolders;
        }
    }
}

describe('WindowState: a window\'s view of sandy in every host (unit)', () => {
    function make(before?: () => SessionInfo[]) {
        const service = new FakeService();
        const log: string[] = [];
        const state = new WindowState(listener => { service.listener = listener; return service; }, { log: m => log.push(m), sessionsBeforeSnapshot: before });
        const events: string[] = [];
        state.onDidChange(s => events.push(`snapshot ${s.sessions.length}`));
        state.onDidChangeSession(s => events.push(`session ${s.id} ${s.status}`));
        return { service, state, log, events };
    }

    it('keeps the latest snapshot the service sends, and says so', () => {
        const { service, state, events } = make();
        expect(state.snapshot).to.equal(undefined);
        expect(state.projects).to.deep.equal([]);
        const s = snapshot([session('a', '/w')]);
        service.listener.onDidChangeSnapshot(s);
        expect(state.snapshot).to.equal(s);
        expect(events).to.deep.equal(['snapshot 1']);
    });

    it('merges a session event into the snapshot (replacing the same id), and lists only live sessions', () => {
        const { service, state, events } = make();
        service.listener.onDidChangeSnapshot(snapshot([session('a', '/w'), session('b', '/v')]));
        service.listener.onDidChangeSession(session('a', '/w', 'exited'));
        service.listener.onDidChangeSession(session('c', '/x'));
        expect(state.sessions.map(s => `${s.id} ${s.status}`)).to.have.members(['a exited', 'b running', 'c running']);
        expect(state.sessions).to.have.length(3);
        expect(state.liveSessions.map(s => s.id)).to.have.members(['b', 'c']);
        expect(events).to.deep.equal(['snapshot 2', 'session a exited', 'session c running']);
    });

    it('before the first snapshot: a session event is still said; the host\'s known sessions are listed', () => {
        const { service, state, events } = make(() => [session('early', '/w'), session('gone', '/v', 'exited')]);
        service.listener.onDidChangeSession(session('x', '/w'));
        expect(events).to.deep.equal(['session x running']);
        expect(state.snapshot).to.equal(undefined);
        expect(state.liveSessions.map(s => s.id)).to.deep.equal(['early']);
        expect(make().state.liveSessions).to.deep.equal([]);
    });

    it('refresh asks the service and publishes its snapshot', async () => {
        const { service, state, events } = make();
        service.next = snapshot([session('a', '/w')]);
        await state.refresh();
        expect(service.calls).to.deep.equal(['refresh']);
        expect(state.liveSessions.map(s => s.id)).to.deep.equal(['a']);
        expect(events).to.deep.equal(['snapshot 1']);
    });

    it('tells the service only when "any view visible" flips', () => {
        const { service, state } = make();
        state.setVisible('projects', true);
        state.setVisible('other', true);
        state.setVisible('projects', false);
        state.setVisible('other', false);
        expect(service.calls).to.deep.equal(['visible true', 'visible false']);
    });

    it('configure sends a changed configuration once, then refreshes; the same configuration again sends nothing', async () => {
        const { service, state, events } = make();
        await state.configure({ sandyPath: '/opt/sandy', passEnv: [] });
        await state.configure({ sandyPath: '/opt/sandy', passEnv: [] });
        expect(service.calls).to.deep.equal(['configure {"sandyPath":"/opt/sandy","passEnv":[]}', 'refresh']);
        expect(events).to.deep.equal(['snapshot 0']);
        await state.configure({ sandyPath: '/usr/bin/sandy', passEnv: [] });
        expect(service.calls.slice(2)).to.deep.equal(['configure {"sandyPath":"/usr/bin/sandy","passEnv":[]}', 'refresh']);
    });

    it('a failed configure is logged with its hint and forgotten: the next try sends it again', async () => {
        const { service, state, log } = make();
        service.failConfigure = new SandyError('not-found', 'sandy was not found.', 'Install sandy or set sandy.path.');
        await state.configure({ sandyPath: '/nope' });
        expect(log).to.deep.equal(['sandy: configuring the service failed: sandy was not found. Install sandy or set sandy.path.']);
        expect(service.calls).to.deep.equal(['configure {"sandyPath":"/nope"}']);
        await state.configure({ sandyPath: '/nope' });
        expect(service.calls).to.deep.equal(['configure {"sandyPath":"/nope"}', 'configure {"sandyPath":"/nope"}', 'refresh']);
    });

    it('publishes the window\'s open folders and remembers them; a failure is logged', async () => {
        const { service, state, log } = make();
        await state.publishOpenFolders(['/a', '/b']);
        expect(service.calls).to.deep.equal(['folders /a,/b']);
        expect(state.openFolders).to.deep.equal(['/a', '/b']);
        service.failFolders = new Error('gone');
        await state.publishOpenFolders([]);
        expect(state.openFolders).to.deep.equal([]);
        expect(log).to.deep.equal(['sandy: telling the service this window\'s open folders failed: gone See the log for details.']);
    });

    it('passes on each notification the service parsed from a session, as it came (the tabs make the toast)', () => {
        const { service, state, events } = make();
        const heard: string[] = [];
        state.onDidNotify(e => heard.push(`${e.session.id} ${e.notification.source} ${e.notification.body}`));
        service.listener.onDidNotify({ session: session('a', '/w'), notification: { body: 'done', source: 'osc9' } });
        service.listener.onDidNotify({ session: session('b', '/v'), notification: { title: 't', body: 'x', source: 'osc777' } });
        expect(heard).to.deep.equal(['a osc9 done', 'b osc777 x']);
        // A notification is no change of the snapshot or of a session.
        expect(events).to.deep.equal([]);
        expect(state.sessions).to.deep.equal([]);
    });

    it('after dispose, nobody hears the service any more', () => {
        const { service, state, events } = make();
        const heard: unknown[] = [];
        state.onDidNotify(e => heard.push(e));
        state.dispose();
        service.listener.onDidChangeSnapshot(snapshot());
        service.listener.onDidChangeSession(session('a', '/w'));
        service.listener.onDidNotify({ session: session('a', '/w'), notification: { body: 'late', source: 'bell' } });
        expect(events).to.deep.equal([]);
        expect(heard).to.deep.equal([]);
    });

    it('resync() tells a restarted service again what the old one was told: visibility, folders, settings; then a fresh snapshot', async () => {
        const { service, state, log } = make();
        // Nothing told yet (a window that never configured): only that no view is looking.
        await state.resync();
        expect(service.calls).to.deep.equal(['visible false']);
        state.setVisible('projects', true);
        state.setSeen(['d1']);
        await state.publishOpenFolders(['/w/a', '/w/b']);
        await state.configure({ sandyPath: '/opt/sandy' } as SandyConfiguration);
        service.calls.length = 0;
        service.next = snapshot([session('d1', '/w/a')]);
        await state.resync();
        expect(service.calls).to.deep.equal(['visible true', 'seen d1', 'folders /w/a,/w/b', 'configure {"sandyPath":"/opt/sandy"}', 'refresh']);
        expect(state.sessions.map(s => s.id), 'the new service\'s sessions').to.deep.equal(['d1']);
        // A failing configure is logged; the next resync sends the settings again.
        service.failConfigure = new SandyError('not-found', 'sandy went away', 'Install it.');
        service.calls.length = 0;
        await state.resync();
        expect(log.some(l => l.includes('sandy went away')), log.join('\n')).to.equal(true);
        service.calls.length = 0;
        await state.resync();
        expect(service.calls).to.include('configure {"sandyPath":"/opt/sandy"}');
    });

    it('setSeen() sends the sessions the window shows only when they change, in any order', () => {
        const { service, state } = make();
        service.calls.length = 0;
        state.setSeen(['b', 'a']);
        state.setSeen(['a', 'b', 'a']);
        state.setSeen([]);
        state.setSeen([]);
        expect(service.calls).to.deep.equal(['seen a,b', 'seen ']);
    });
});
