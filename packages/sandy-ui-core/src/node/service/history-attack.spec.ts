import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PtySupervisor } from '../terminal/pty-supervisor';
import { ScriptedPty } from '../test/scripted-pty';
import { HistoryCapture } from './history';

describe('HistoryCapture attacks: a window\'s requests against running sessions (unit, scripted PTYs)', () => {
    let root: string;
    let pty: ScriptedPty;
    let supervisor: PtySupervisor;

    beforeEach(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-history-attack-'));
        pty = new ScriptedPty();
        supervisor = new PtySupervisor(() => pty, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined });
    });
    afterEach(async () => {
        await supervisor.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    it('removeHistory of a running session removes nothing, also after the user changed sandy.historyMegabytes', async () => {
        const capture = new HistoryCapture(path.join(root, 'history'), { supervisor, log: () => undefined });
        const info = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/home/u/work/p', env: {}, cols: 80, rows: 24 });
        pty.emit('working\r\n');
        const [record] = await capture.list();
        expect(await capture.remove(record.id), 'running: kept').to.equal(false);
        // Any window's configure() carries the user's cap; a new value must not forget who is running.
        capture.setCapMegabytes(20);
        expect(await capture.remove(record.id), 'still running after the cap changed: kept').to.equal(false);
        expect(fs.readdirSync(path.join(root, 'history')).filter(n => n.startsWith(record.id))).to.include.members([`${record.id}.json`, `${record.id}.log`]);
        pty.emit('more\r\n');
        pty.exit(0);
        while (supervisor.get(info.id)?.status !== 'exited') {
            await new Promise(r => setTimeout(r, 10));
        }
        await capture.close();
        const page = await capture.read(record.id);
        expect(page!.text).to.contain('working').and.contain('more');
        expect(await capture.remove(record.id), 'ended: removable').to.equal(true);
    });
});
