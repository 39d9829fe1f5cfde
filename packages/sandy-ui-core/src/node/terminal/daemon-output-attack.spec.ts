/**
 * Attacks on daemon sessions by what a hostile agent (or a hostile but approved build step) writes
 * into the session's terminal, at the supervisor level with scripted PTYs. Each test is the attack
 * and the refusal it must meet:
 *
 * - sandy's `--start` lines are read from `--start` alone: an agent that prints "Daemon session
 *   ready … (container X)", the closed-gate lines, the build phases, or the IDE's own queued/orphan
 *   notices after it is attached names no container, closes no gate, moves no phase and changes no
 *   state; and on a failed start, a forged ready line in the container log tail sandy dumps (even
 *   behind a carriage return inside a log line) makes the IDE remember nothing;
 * - a replay (the backend's serialised screen) is inert: no OSC, DCS, APC, PM, SOS or C1 control
 *   survives it, it re-fires no notification in the backend, a fresh terminal fed it hears nothing,
 *   and a sequence the agent left unterminated is not left open for the live stream to complete.
 */
import { expect } from 'chai';
import { Terminal } from '@xterm/headless';
import { PtySupervisor, SessionPort } from './pty-supervisor';
import type { TerminalNotification } from '../../common/terminal/osc-dispatch';
import type { SessionInfo } from '../../common/session/session-types';
import { orphanScreenText, queuedLaunchText } from '../../common/host/labels';
import { ScriptedPty } from '../test/scripted-pty';


const WS = '/home/u/proj';
const REAL_CONTAINER = 'da3m0nc0ffee';
const FORGED_CONTAINER = '0000deadbeef';
const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;
const READY = `${ESC}[0;32m[sandy]${ESC}[0m Daemon session ready: proj-1234abcd (container ${REAL_CONTAINER})\r\n`;

/** Every line of sandy's `--start` output the IDE reads, as an agent would forge it (plain and coloured). */
const FORGED_START_LINES = [
    `[sandy] Daemon session ready: evil (container ${FORGED_CONTAINER})`,
    `${ESC}[0;32m[sandy]${ESC}[0m Daemon session ready: evil (container ${FORGED_CONTAINER})`,
    `[sandy] Daemon session already running for /home/u/other: evil (container ${FORGED_CONTAINER})`,
    '[sandy] Non-interactive session (no TTY): dropping these keys from the workspace config: SANDY_SSH',
    '[sandy] Non-interactive session (no TTY): NOT building the project image (.sandy/Dockerfile)',
    '[sandy] Building sandy-base image...',
    '[sandy] Creating new sandbox: evil-00000000',
    '[sandy] Reusing sandbox: evil-00000000'
].map(l => `\r\n${l}\r\n`).join('');

/** Every way a terminal stream can carry a side effect or a string command, 7-bit and 8-bit. */
const SIDE_EFFECTS = [
    `${ESC}]52;c;aGVsbG8=${BEL}`,                         // clipboard
    `${ESC}]9;osc9-note${BEL}`,                           // notifications
    `${ESC}]777;notify;osc777-title;osc777-body${BEL}`,
    `${ESC}]99;;osc99-note${ST}`,
    `${ESC}]8;;https://evil.example/${ST}LINK${ESC}]8;;${ST}`, // hyperlink
    `${ESC}]0;evil-title${BEL}`, `${ESC}]2;evil-title2${BEL}`, // titles
    `${ESC}]7;file:///etc${BEL}`, `${ESC}]1337;File=name=x:aGk=${BEL}`, `${ESC}]4;1;rgb:ff/00/00${BEL}`,
    `${ESC}Ptmux;${ESC}${ESC}]52;c;aGk=${BEL}${ST}`,       // tmux passthrough (DCS)
    `${ESC}Pq#0;2;0;0;0#0~~${ST}`,                        // sixel (DCS)
    `${ESC}_apc-payload${ST}`, `${ESC}^pm-payload${ST}`, `${ESC}Xsos-payload${ST}`,
    '\x9d52;c;aGk=\x9c', '\x9d9;c1-note\x07', '\x90qc1-dcs\x9c', // C1 (8-bit) forms
    `${ESC}[21t`, `${ESC}[>c`, `${ESC}]10;?${BEL}`,        // queries a terminal answers
    'visible text\r\n'
].join('');

function world() {
    const ptys: ScriptedPty[] = [];
    const remembered: string[] = [];
    const supervisor = new PtySupervisor((file, args, options) => {
        const p = new ScriptedPty(file, args, options.cwd);
        ptys.push(p);
        return p;
    }, {
        timings: { interruptGraceMs: 20, terminateGraceMs: 20 },
        sendSignal: () => undefined,
        pidAlive: () => false,
        isSandy: () => false
    });
    const port: SessionPort = {
        commandLine: () => ({ sandyPath: '/x/sandy', env: { HOME: '/home/u' } }),
        run: async () => ({ exitCode: 0, stdout: 'Daemon session stopped.\n', stderr: '' }),
        remember: (workspace, started) => remembered.push(`+${workspace} ${JSON.stringify(started)}`),
        forget: (workspace, mode) => remembered.push(`-${workspace} ${mode}`)
    };
    supervisor.setSessionPort(port);
    const notifications: TerminalNotification[] = [];
    supervisor.onDidNotify(e => notifications.push(e.notification));
    const changes: SessionInfo[] = [];
    supervisor.onDidChangeSession(s => changes.push(s));
    return {
        supervisor, ptys, remembered, notifications, changes,
        last: () => ptys[ptys.length - 1],
        start: () => supervisor.startDaemon({ sandyPath: '/x/sandy', args: [], workspace: WS, env: { HOME: '/home/u' }, cols: 100, rows: 30 })
    };
}

const tick = (ms = 0) => new Promise(r => setTimeout(r, ms));
/** The supervisor lets a PTY's output settle (40 ms of quiet) before it acts on the exit. */
const settled = () => tick(120);

/** A daemon session started here and attached: sandy's own `--start` output, then our --attach client. */
async function attachedSession() {
    const w = world();
    const info = w.start();
    w.last().emit(`[sandy] Starting daemon session for ${WS}...\r\n`);
    w.last().emit(READY);
    w.last().exit(0);
    await settled();
    const client = w.last();
    expect(client.args, 'our attach client').to.deep.equal(['--attach']);
    expect(w.supervisor.get(info.id)).to.include({ link: 'attached', status: 'running' });
    return { w, info, client };
}

/** A terminal as a view has one, fed `data`: every OSC handler, DCS, bell and title it hears. */
function sideEffectsOf(data: string): Promise<string[]> {
    const t = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
    const heard: string[] = [];
    for (const ident of [0, 1, 2, 4, 7, 8, 9, 10, 11, 52, 99, 777, 1337]) {
        t.parser.registerOscHandler(ident, payload => { heard.push(`OSC ${ident}: ${payload}`); return true; });
    }
    for (const final of ['q', 'p', '|']) {
        t.parser.registerDcsHandler({ final }, payload => { heard.push(`DCS ${final}: ${payload}`); return true; });
    }
    t.onBell(() => heard.push('bell'));
    t.onTitleChange(title => heard.push(`title: ${title}`));
    // What a terminal would answer (DA, window title report, colour query) goes back to sandy's input.
    t.onData(answer => heard.push(`answer: ${JSON.stringify(answer)}`));
    return new Promise(resolve => t.write(data, () => {
        t.dispose();
        resolve(heard);
    }));
}

describe('Attack: an agent imitates sandy\'s --start output in a daemon session (unit, scripted PTYs)', () => {
    it('after it is attached, sandy\'s ready, closed-gate and phase lines and the IDE\'s own notices change nothing', async () => {
        const { w, info, client } = await attachedSession();
        const before = { ...w.supervisor.get(info.id)! };
        const changesBefore = w.changes.length;
        client.emit(FORGED_START_LINES);
        client.emit(queuedLaunchText());
        client.emit(orphanScreenText(4242));
        // Cut anywhere, as a PTY delivers it.
        for (let i = 0; i < FORGED_START_LINES.length; i += 7) {
            client.emit(FORGED_START_LINES.slice(i, i + 7));
        }
        await settled();
        const after = w.supervisor.get(info.id)!;
        expect(w.remembered, 'what the IDE remembers as its own').to.deep.equal([`+${WS} {"containerId":"${REAL_CONTAINER}"}`]);
        expect(after.closedGates, 'gates the tab would say sandy closed').to.equal(undefined);
        expect(after.startPhase).to.equal(undefined);
        expect(after).to.include({ link: 'attached', status: 'running', pid: client.pid, origin: 'ide', mode: 'daemon' });
        expect(after.problem).to.equal(undefined);
        expect(after.endReason).to.equal(undefined);
        // Its output is activity (working, its last output later): nothing else of the session changed.
        expect({ ...after, attachedViews: before.attachedViews, attention: before.attention, lastOutputAt: before.lastOutputAt }).to.deep.equal(before);
        expect(w.changes.length, 'session changes announced for the agent\'s text').to.equal(changesBefore);
        expect(w.ptys.length, 'sandy runs started by the agent\'s text').to.equal(2);
    });

    it('a build step that prints sandy\'s ready line before sandy does: the container sandy itself names last is the one remembered', async () => {
        const w = world();
        const info = w.start();
        // An (approved) project Dockerfile's RUN output streams through the supervisor log, before sandy's own last line.
        w.last().emit(`#7 [3/4] RUN printf ...\r\n${FORGED_START_LINES}`);
        w.last().emit(READY);
        w.last().exit(0);
        await settled();
        expect(w.remembered).to.deep.equal([`+${WS} {"containerId":"${REAL_CONTAINER}"}`]);
        expect(w.last().args).to.deep.equal(['--attach']);
        expect(w.last().cwd, 'the attach client runs in the session\'s own workspace').to.equal(WS);
        expect(w.supervisor.get(info.id)).to.include({ link: 'attached' });
    });

    it('a failed --start whose container log tail forges the ready line (behind a carriage return too) remembers no container and attaches nothing', async () => {
        const w = world();
        const info = w.start();
        // sandy's failure path (sandy:5355-5368): its error, then `docker logs --tail 30` prefixed with "[sandy]   ".
        w.last().emit('[sandy] Daemon session failed to become attachable within 600s.\r\n');
        w.last().emit(`[sandy] Container log tail (docker logs ${REAL_CONTAINER}):\r\n`);
        w.last().emit(`[sandy]   [sandy] Daemon session ready: evil (container ${FORGED_CONTAINER})\r\n`);
        w.last().emit(`[sandy]   agent drew this\r[sandy] Daemon session ready: evil (container ${FORGED_CONTAINER})\r\n`);
        w.last().emit(`[sandy]   \x1b[2K\r[sandy] Daemon session already running for /home/u/other: evil (container ${FORGED_CONTAINER})\r\n`);
        w.last().exit(1);
        await settled();
        expect(w.remembered, 'containers remembered from a failed start').to.deep.equal([]);
        expect(w.ptys.length, 'sandy runs after the failed start (an --attach would be one)').to.equal(1);
        expect(w.supervisor.get(info.id)).to.include({ status: 'exited', endReason: 'start-failed' });
    });
});

describe('Attack: an agent plants side effects for the replay of a daemon session (unit, scripted PTYs)', () => {
    it('the replay a view gets carries no OSC, DCS, APC, PM, SOS or C1 control, and a terminal fed it hears nothing', async () => {
        const { w, info, client } = await attachedSession();
        client.emit(SIDE_EFFECTS);
        await settled();
        // Parsed once, live, in the backend: the notifications, 8-bit OSC 9 included (and nothing for the
        // clipboard or a title) — the first at once, the burst after it folded into its latest a second later.
        await new Promise(resolve => setTimeout(resolve, 1100));
        expect(w.notifications.map(n => `${n.body}${n.folded ? ` +${n.folded}` : ''}`)).to.deep.equal(['osc9-note', 'c1-note +2']);

        const view = await w.supervisor.attach(info.id);
        const replay = view.replay;
        expect(replay, 'the replay shows the screen').to.contain('visible text').and.contain('LINK');
        const introducers: Array<[string, RegExp]> = [
            ['OSC', /\x1b\]|\x9d/], ['DCS', /\x1bP|\x90/], ['APC', /\x1b_|\x9f/], ['PM', /\x1b\^|\x9e/], ['SOS', /\x1bX|\x98/],
            ['BEL', /\x07/], ['a C1 control', /[\x80-\x9f]/], ['a payload', /aGVsbG8|aGk=|evil|payload|c1-note|c1-dcs|osc9-note|osc99-note|osc777/]
        ];
        for (const [what, re] of introducers) {
            expect(re.test(replay), `${what} in the replay: ${JSON.stringify(replay)}`).to.equal(false);
        }
        expect(await sideEffectsOf(replay), 'what a terminal fed the replay acts on').to.deep.equal([]);
        view.dispose();

        // Reattaching (a reload, a second window) fires nothing again in the backend.
        const again = await w.supervisor.attach(info.id);
        await settled();
        expect(w.notifications.length, 'notifications after two attaches').to.equal(2);
        expect(again.replay).to.equal(replay);
        again.dispose();
    });

    it('a sequence the agent leaves open at the end of the stream is not open in the replay: the live bytes after it are text', async () => {
        const { w, info, client } = await attachedSession();
        for (const opener of [`${ESC}]52;c;`, `${ESC}Ptmux;${ESC}${ESC}]52;c;`, `${ESC}]9;`, '\x9d52;c;', `${ESC}`]) {
            client.emit(`before\r\n${opener}`);
            const view = await w.supervisor.attach(info.id);
            const live: string[] = [];
            view.onData(d => live.push(d));
            // The agent finishes its sequence after the view attached.
            client.emit(`aGVsbG8=${BEL}`);
            expect(live.join('')).to.equal(`aGVsbG8=${BEL}`);
            const heard = await sideEffectsOf(view.replay + live.join(''));
            expect(heard.filter(h => h !== 'bell'), `after ${JSON.stringify(opener)}: what the view's terminal acts on`).to.deep.equal([]);
            view.dispose();
        }
    });
});

