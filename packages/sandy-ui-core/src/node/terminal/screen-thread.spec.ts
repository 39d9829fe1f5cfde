import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { PtySupervisor } from './pty-supervisor';
import { Worker } from 'worker_threads';
import { MAX_SCREEN_BACKLOG_CHARS, ScreenState } from './screen-state';
import { MAX_WORKER_RESTARTS, SCREEN_WORKER_FILE, ScreenThread } from './screen-thread';
import { ScriptedPty } from '../test/scripted-pty';

/** A thread whose worker a spec can make crash (ended from outside, as a crash would end it). */
class CrashableThread extends ScreenThread {
    crash(): void {
        (this.endpoint as { terminate(): void } | undefined)?.terminate();
    }
}

/** A private thread for one test (its worker ended after it), and what it said. */
async function withThread(body: (thread: CrashableThread, said: string[]) => Promise<void>): Promise<void> {
    const said: string[] = [];
    const thread = new CrashableThread('worker', SCREEN_WORKER_FILE, m => said.push(m));
    try {
        await body(thread, said);
    } finally {
        thread.dispose();
    }
}

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i} the quick brown fox jumps over the lazy dog\r\n`).join('');
const until = async (what: () => boolean, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!what()) {
        expect(Date.now(), 'timed out').to.be.below(deadline);
        await new Promise(r => setTimeout(r, 10));
    }
};

describe('ScreenThread: the sessions\' screens are parsed off the thread that reads the PTYs (unit, real worker)', function () {
    this.timeout(20_000);

    it('runs the screens in a worker beside this module, and a screen works through it', async () => {
        expect(ScreenThread.shared().kind).to.equal('worker');
        expect(path.dirname(SCREEN_WORKER_FILE)).to.equal(__dirname);
        const screen = new ScreenState(80, 24, () => undefined);
        screen.write('\x1b]0;title\x07hello from the worker\r\n');
        expect(screen.unparsedChars, 'counted until the worker says it is parsed').to.be.above(0);
        const replay = await screen.serialize();
        expect(replay).to.contain('hello from the worker').and.not.contain('\x1b]');
        expect(screen.unparsedChars).to.equal(0);
        screen.dispose();
    });

    it('notifications and the bell are parsed in the worker and reach the session once', async () => {
        const heard: string[] = [];
        const screen = new ScreenState(80, 24, n => heard.push(`${n.source}:${n.body}`));
        screen.write('\x1b]9;build done\x07\x07');
        await screen.serialize();
        expect(heard).to.deep.equal(['osc9:build done', 'bell:The session rang the bell.']);
        screen.dispose();
    });

    it('Attack: a worker that dies mid-flood (a crash) takes nothing down: what was asked comes back empty, the screen starts again and keeps working', async () => {
        await withThread(async (thread, said) => {
            const screen = new ScreenState(80, 24, () => undefined, thread);
            let parsedCalls = 0;
            screen.onParsed = () => parsedCalls++;
            screen.write(lines(20, 'before'));
            expect(await screen.serialize()).to.contain('before 19');
            screen.write(lines(60_000, 'flood'));
            const asked = screen.serialize();
            thread.crash();
            expect(await asked, 'the answer the dead worker owed').to.equal('');
            expect(screen.unparsedChars, 'nothing waits for a parse that will never come').to.equal(0);
            expect(parsedCalls, 'the session was told (its flow control is not held by the lost backlog)').to.be.above(0);
            expect(screen.alternate).to.equal(false);
            expect(said.join('\n')).to.match(/screen worker ended .*1 session screen\(s\) start again empty/);
            expect(thread.kind).to.equal('worker');
            screen.write('after the crash\r\n');
            const replay = await screen.serialize();
            expect(replay).to.contain('after the crash').and.not.contain('before 19');
            screen.dispose();
        });
    });

    it(`a worker that keeps dying is not started again after ${MAX_WORKER_RESTARTS} ends: the screens run on this thread`, async () => {
        await withThread(async (thread, said) => {
            const screen = new ScreenState(80, 24, () => undefined, thread);
            for (let i = 0; i < MAX_WORKER_RESTARTS; i++) {
                screen.write(`round ${i}\r\n`);
                await screen.serialize();
                thread.crash();
                await until(() => said.length === i + 1);
            }
            expect(thread.kind).to.equal('local');
            expect(said[said.length - 1]).to.contain('on the main thread from now on');
            screen.write('still drawn\r\n');
            expect(await screen.serialize()).to.contain('still drawn');
            screen.dispose();
        });
    });

    it('a build without the worker\'s file parses on this thread and says so once', async () => {
        const said: string[] = [];
        const thread = new ScreenThread('worker', path.join(__dirname, 'no-such-screen-worker.js'), m => said.push(m));
        expect(thread.kind).to.equal('local');
        await new Promise(r => setImmediate(r));
        expect(said).to.have.length(1);
        expect(said[0]).to.contain('no-such-screen-worker.js is missing');
        const screen = new ScreenState(80, 24, () => undefined, thread);
        screen.write('on the main thread\r\n');
        expect(await screen.serialize()).to.contain('on the main thread');
        screen.dispose();
        thread.dispose();
    });

    it('a session outlives a crash of the worker: its output still reaches the view, a new view gets the screen drawn since', async () => {
        const said: string[] = [];
        const thread = new CrashableThread('worker', SCREEN_WORKER_FILE, m => said.push(m));
        const pty = new ScriptedPty();
        const supervisor = new PtySupervisor(() => pty, { timings: { interruptGraceMs: 10, terminateGraceMs: 10 }, sendSignal: () => undefined, screenThread: thread });
        try {
            const info = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/w', env: {}, cols: 80, rows: 24 });
            const view = await supervisor.attach(info.id);
            let seen = '';
            view.onData(d => {
                seen += d;
                view.acknowledge(d.length);
            });
            pty.emit(lines(2000, 'one'));
            thread.crash();
            pty.emit('two\r\n');
            await until(() => seen.includes('two'));
            expect(supervisor.get(info.id)!.status).to.equal('running');
            // (What came between the crash and its exit being known went to a dead worker: the screen shows what comes after.)
            await until(() => said.length === 1);
            pty.emit('\x1b[2J\x1b[Hthree\r\n');
            const second = await supervisor.attach(info.id);
            expect(second.replay).to.contain('three');
            second.dispose();
            view.dispose();
        } finally {
            await supervisor.dispose();
            thread.dispose();
        }
    });

    it('Attack: output that makes one screen\'s engine throw (xterm refuses more than 50 MB waiting) loses that screen only: the worker, and every other session\'s screen, go on', async () => {
        await withThread(async (thread, said) => {
            const victim = new ScreenState(80, 24, () => undefined, thread);
            const bystander = new ScreenState(80, 24, () => undefined, thread);
            bystander.write('the other session\'s screen\r\n');
            expect(await bystander.serialize()).to.contain('the other session');
            // Past the session's own bound (a bound the screen keeps itself: see the next test), straight to the worker.
            const id = (victim as unknown as { id: number }).id;
            const told: string[] = [];
            const event = victim.event.bind(victim);
            victim.event = e => {
                told.push(e.op);
                event(e);
            };
            const mb = 'x'.repeat(1024 * 1024);
            for (let seq = 1; seq <= 60; seq++) {
                thread.post({ op: 'write', id, seq, data: mb });
            }
            (victim as unknown as { written: number }).written = 60;
            await until(() => told.includes('lost'), 15_000);
            expect(said, 'no worker ended').to.deep.equal([]);
            expect(thread.kind).to.equal('worker');
            expect(await bystander.serialize()).to.contain('the other session');
            victim.write('drawn again\r\n');
            expect(await victim.serialize()).to.contain('drawn again').and.not.contain('xxxxxxxx');
            expect(await victim.frame(), 'a frame is answered, not waited for').to.equal(undefined);
            victim.dispose();
            bystander.dispose();
        });
    });

    it(`Attack: a session read past its flow control (a stop under way) keeps at most ${MAX_SCREEN_BACKLOG_CHARS} characters waiting for the parse, and its screen starts again after`, async () => {
        await withThread(async (thread, said) => {
            const screen = new ScreenState(80, 24, () => undefined, thread);
            const chunk = lines(20_000, 'flood'); // about 1 MB
            let most = 0;
            for (let i = 0; i < 60; i++) {
                screen.write(chunk);
                most = Math.max(most, screen.unparsedChars);
            }
            expect(most).to.be.at.most(MAX_SCREEN_BACKLOG_CHARS);
            expect(screen.chunksWritten, 'every chunk numbered').to.equal(60);
            await until(() => screen.unparsedChars === 0, 15_000);
            screen.write('after the overrun\r\n');
            const replay = await screen.serialize();
            expect(replay).to.contain('after the overrun').and.not.contain('flood 19999');
            expect(said).to.deep.equal([]);
            screen.dispose();
        });
    });

    it('a screen opened again after its worker ended numbers on: a frame asked then is answered, and stands only for output after the restart', async () => {
        await withThread(async (thread, said) => {
            const screen = new ScreenState(80, 24, () => undefined, thread);
            screen.write('\x1b[?1049h');
            for (let i = 0; i < 5; i++) {
                screen.write(`before ${i}\r\n`);
            }
            await screen.serialize();
            thread.crash();
            await until(() => said.length === 1);
            expect(await screen.frame(), 'answered at once, nothing after the restart to stand for').to.equal(undefined);
            screen.write('\x1b[?1049h');
            screen.write('\x1b[Hafter the restart');
            const frame = await screen.frame();
            expect(frame, 'a frame of the alternate screen drawn since').to.not.equal(undefined);
            expect(frame!.seq).to.equal(8);
            expect(frame!.alternateSince, 'not the chunks the dead worker had').to.equal(8);
            expect(frame!.data).to.contain('after the restart');
            screen.dispose();
        });
    });

    it('the worker\'s file loaded without its worker data serves nothing', async () => {
        const worker = new Worker(SCREEN_WORKER_FILE);
        const heard: unknown[] = [];
        worker.on('message', m => heard.push(m));
        worker.postMessage({ op: 'open', id: 1, cols: 80, rows: 24, seq: 0 });
        worker.postMessage({ op: 'serialize', id: 1, req: 1 });
        const code = await new Promise<number>(resolve => worker.on('exit', resolve));
        expect(code).to.equal(0);
        expect(heard).to.deep.equal([]);
    });

    it('the worker keeps a process alive only while a screen waits for it', () => {
        const lib = path.join(__dirname, '..', 'index.js');
        // No dispose: an idle worker must not hold the process; an answer it owes must.
        const script = `const { ScreenState } = require(${JSON.stringify(lib)});
            const s = new ScreenState(80, 24, () => undefined);
            s.write('answered before exit\\r\\n');
            s.serialize().then(r => console.log(r.includes('answered before exit') ? 'ANSWERED' : 'WRONG'));`;
        const started = Date.now();
        const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000 });
        expect(r.stdout.trim(), r.stderr).to.equal('ANSWERED');
        expect(r.status).to.equal(0);
        expect(Date.now() - started, 'it exited by itself').to.be.below(10_000);
    });
});
