/**
 * Attack: an agent floods its terminal with BEL and OSC 9. Since issue 10 the
 * backend parses notifications once from the session's stream and fans each one out to every
 * window (SandyServiceEvents.onDidNotify: one JSON-RPC message per notification per Theia window,
 * with a copy of the SessionInfo). Nothing coalesces them before they cross: the frontends'
 * toast coalescer only acts after the storm has been serialised, sent and decoded. The README
 * promises "a flood is coalesced". Expected: a window hears a bounded number of notifications for
 * a flood, and still hears the latest one.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PtySupervisor } from '../terminal/pty-supervisor';
import { SandyServiceCore } from './sandy-service';
import type { SessionNotification } from '../../common/service/service-protocol';
import { ScriptedPty } from '../test/scripted-pty';


describe('Attack: an agent floods BEL and OSC 9; every window gets every one (unit)', () => {
    let root: string;
    let service: SandyServiceCore;
    let pty: ScriptedPty;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-flood-')));
        pty = new ScriptedPty();
        const supervisor = new PtySupervisor(() => pty, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined });
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => pty,
            env: { HOME: root, PATH: '/nonexistent' },
            home: root,
            dataDir: path.join(root, 'ide-data'),
            supervisor
        });
        service.start();
    });

    afterEach(async () => {
        await service.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    it('100,000 bells and 10,000 OSC 9 in one burst reach each of two windows as a handful of notifications, the latest among them', async () => {
        const heard: SessionNotification[][] = [[], []];
        const windows = heard.map((list, i) => service.connect(`window-${i}`, {
            onDidChangeSnapshot: () => undefined,
            onDidChangeSession: () => undefined,
            onDidNotify: e => list.push(e)
        }));
        service.supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: path.join(root, 'proj'), env: {}, cols: 80, rows: 24 });
        for (let i = 0; i < 100; i++) {
            pty.emit('\x07'.repeat(1000));
        }
        for (let i = 1; i <= 10_000; i++) {
            pty.emit(`\x1b]9;flood-${i}\x07`);
        }
        // Enough for any coalescing window to flush its latest.
        await new Promise(resolve => setTimeout(resolve, 2_500));
        for (const [i, list] of heard.entries()) {
            expect(list.length, `notifications window ${i} was sent (each one a JSON-RPC message in Theia)`).to.be.at.most(20);
            expect(list.map(e => e.notification.body), `window ${i}: the latest notification`).to.include('flood-10000');
        }
        windows.forEach(w => w.dispose());
    });
});
