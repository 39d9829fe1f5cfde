import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PtySupervisor } from '../terminal/pty-supervisor';
import { ScriptedPty } from '../test/scripted-pty';
import { HistoryCapture } from './history';
import { ideHistoryDir } from '../history/history-folder';

describe('HistoryCapture: every hosted session\'s output kept on the host (unit, scripted PTYs)', () => {
    let root: string;
    let pty: ScriptedPty;
    let supervisor: PtySupervisor;
    let logs: string[];

    beforeEach(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-history-capture-'));
        pty = new ScriptedPty();
        supervisor = new PtySupervisor(() => pty, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined });
        logs = [];
    });
    afterEach(async () => {
        await supervisor.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    const workspace = '/home/u/work/my-proj';
    const launch = () => supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace, env: {}, cols: 80, rows: 24, agent: 'claude' });
    const ended = async (id: string) => {
        while (supervisor.get(id)?.status !== 'exited') {
            await new Promise(r => setTimeout(r, 10));
        }
    };

    it('records a session from its first output to how it ended, under the history folder only; the viewer\'s page has no OSC', async () => {
        const capture = new HistoryCapture(path.join(root, 'history'), { supervisor, log: m => logs.push(m) });
        const info = launch();
        pty.emit('\x1b[32mhello\x1b[0m from the agent\r\n');
        pty.emit('\x1b]9;notify me\x07\x1b]52;c;cGF3bmVk\x07done\r\n');
        pty.exit(3);
        await ended(info.id);
        await capture.close();
        const [record] = await capture.list();
        expect(record).to.include({ workspace, project: 'my-proj', agent: 'claude', mode: 'foreground', exitCode: 3 });
        expect(record.id).to.match(/^\d{4}-\d{2}-\d{2}-my-proj/);
        expect(record.endedAt).to.be.a('number');
        const page = await capture.read(record.id);
        expect(page!.text).to.contain('\x1b[32mhello\x1b[0m from the agent').and.contain('done');
        expect(page!.text, 'nothing in a page can notify or write the clipboard').not.to.match(/\x1b\]|\x07/);
        expect((await capture.list({ text: 'FROM THE AGENT' })).map(r => r.id)).to.deep.equal([record.id]);
        expect(await capture.list({ text: 'never said' })).to.deep.equal([]);
        expect(fs.readdirSync(root), 'nothing beside the history folder').to.deep.equal(['history']);
        expect(logs).to.deep.equal([]);
    });

    it('a session that ends as the IDE quits has its record finished before close() returns (the folder can go right after)', async () => {
        const capture = new HistoryCapture(path.join(root, 'history'), { supervisor, log: m => logs.push(m) });
        const info = launch();
        pty.emit('last words\r\n');
        pty.exit(0);
        await ended(info.id);
        // No wait between the end and the quit: the record's last write is still under way.
        await capture.close();
        const records = fs.readdirSync(path.join(root, 'history')).filter(n => n.endsWith('.json'));
        expect(records).to.have.length(1);
        const record = JSON.parse(fs.readFileSync(path.join(root, 'history', records[0]), 'utf8'));
        expect(record).to.include({ exitCode: 0 });
        expect(record.endedAt, 'the end is on disk when close() returns').to.be.a('number');
    });

    it('keeps nothing with a cap of 0 MB; a window\'s junk query or offset is no filter and no crash', async () => {
        const capture = new HistoryCapture(path.join(root, 'history'), { supervisor, log: m => logs.push(m) });
        capture.setCapMegabytes(0);
        const info = launch();
        pty.emit('secret work\r\n');
        pty.exit(0);
        await ended(info.id);
        expect(await capture.list()).to.deep.equal([]);
        expect(await capture.list({ project: 42, text: { $ne: 1 }, limit: -5 } as never)).to.deep.equal([]);
        expect(await capture.read('../../etc/passwd', -1)).to.equal(undefined);
        await capture.close();
    });

    it('a history folder that cannot be written leaves the session running, unrecorded, and says so once', async () => {
        const blocked = path.join(root, 'history');
        fs.writeFileSync(blocked, 'a file where the folder should be');
        const capture = new HistoryCapture(blocked, { supervisor, log: m => logs.push(m) });
        const info = launch();
        pty.emit('still runs\r\n');
        expect(supervisor.get(info.id)!.status).to.equal('running');
        expect(logs).to.have.length(1);
        expect(logs[0]).to.contain(workspace).and.contain('unrecorded');
        pty.exit(0);
        await ended(info.id);
        await capture.close();
    });
});

describe('ideHistoryDir: where a host that watches its data folder keeps history (unit)', () => {
    const home = '/home/u';

    it('is ~/.local/state/sandy-ide/history by default, beside (not in) ~/.sandy-ide', () => {
        expect(ideHistoryDir({}, home)).to.equal('/home/u/.local/state/sandy-ide/history');
    });

    it('follows an absolute XDG_STATE_HOME, and SANDY_IDE_HISTORY_DIR before it', () => {
        expect(ideHistoryDir({ XDG_STATE_HOME: '/var/state/u' }, home)).to.equal('/var/state/u/sandy-ide/history');
        expect(ideHistoryDir({ XDG_STATE_HOME: '/var/state/u', SANDY_IDE_HISTORY_DIR: '/data/hist' }, home)).to.equal('/data/hist');
    });

    it('ignores relative values (the XDG rule): history never lands relative to whatever the backend\'s cwd is', () => {
        expect(ideHistoryDir({ XDG_STATE_HOME: 'state', SANDY_IDE_HISTORY_DIR: '../hist' }, home)).to.equal('/home/u/.local/state/sandy-ide/history');
    });
});
