/**
 * Attacks on daemon sessions (issue 10) against the BUILT browser-app, the fake sandy in daemon mode.
 *
 * 1. A page on another loopback port (the agent's own dev server, say). A daemon session's terminal
 *    channel is `/services/sandy-terminal/daemon-<sha256(workspace)[0:16]>`: unlike the random id of
 *    a foreground session it is computed from the workspace path, which the agent knows. Whoever
 *    opens that channel reads the agent's screen and types into sandy's terminal — during `--start`
 *    that is sandy's own [y/N] gate prompt. The page's script computes the id, opens Theia's
 *    socket.io connection, speaks Theia's channel protocol and asks for the channel. The same script
 *    run in the IDE's own page reads the screen and types (so the attack is real and the id right);
 *    from the other port it must get nothing: the host guard refuses the WebSocket and socket.io's
 *    long-polling, no channel opens, nothing typed reaches the agent. (`takeBack`, `stop` and every
 *    other JSON-RPC call travel over the same refused socket.)
 * 2. A repository (and, during a session, the agent through its read-write workspace) sets the
 *    daemon settings in `.theia/settings.json` and `.vscode/settings.json`: `sandy.sessionMode:
 *    foreground` (sessions that end with the IDE), `sandy.stopSessionsOnQuit: true` (the IDE's quit
 *    stops every session), `sandy.longRunningHours` tiny (a reminder at once) or 0 (silenced). None
 *    counts: the launch is a daemon session, the Sandy log names each ignored value, no long-running
 *    reminder comes, and quitting the IDE leaves the session running. The control: the same values in
 *    the user's own settings bring the reminder within seconds and stop the session on quit.
 */
import { expect } from 'chai';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as path from 'path';
import type { BrowserContext, Page } from 'playwright-core';
import { useSandyIde } from '../e2e/suite';
import { pidAlive, REPO_ROOT, SandyIde } from '../e2e/harness';
import { SandyApp } from '../e2e/page-objects/sandy-app';
import { SandyTerminal } from '../e2e/page-objects/sandy-terminal';
import { outputChannelText } from '../e2e/page-objects/theia-widgets';
import { holdsFor, poll } from '../support/poll';

/** Theia's own socket.io client (the one its frontend bundles), served by the attacker as any page could. */
const SOCKET_IO_CLIENT = fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'socket.io-client', 'dist', 'socket.io.min.js'), 'utf8');

/**
 * The attack: from `ideOrigin`'s socket.io endpoint, open the daemon session's terminal channel of
 * `workspace` with Theia's channel protocol (message-rpc/channel.ts: u8 type, u32-length UTF-8 id;
 * Open 1, Close 2, AckOpen 3, Data 4) and the sandy terminal frames inside (Data 0, Replay 3), read
 * the replay, type `typed` + Enter. Loaded with the page's `define`/`module` hidden so the UMD bundle
 * sets a global in any page.
 */
const CHANNEL_ATTACK = String.raw`
(function () {
    var define = undefined, module = undefined, exports = undefined;
    ${SOCKET_IO_CLIENT}
    var ioClient = (typeof io !== 'undefined' ? io : globalThis.io);
    function u8(n) { return Uint8Array.of(n); }
    function str(s) {
        var bytes = new TextEncoder().encode(s);
        var out = new Uint8Array(4 + bytes.length);
        new DataView(out.buffer).setUint32(0, bytes.length);
        out.set(bytes, 4);
        return out;
    }
    function concat(parts) {
        var n = parts.reduce(function (a, p) { return a + p.length; }, 0);
        var out = new Uint8Array(n), o = 0;
        parts.forEach(function (p) { out.set(p, o); o += p.length; });
        return out;
    }
    function readStr(buf, at) {
        var len = new DataView(buf.buffer, buf.byteOffset).getUint32(at);
        return [new TextDecoder().decode(buf.subarray(at + 4, at + 4 + len)), at + 4 + len];
    }
    window.channelAttack = async function (ideOrigin, workspace, typed, transports) {
        var digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(workspace)));
        var id = 'daemon-' + Array.from(digest).map(function (b) { return b.toString(16).padStart(2, '0'); }).join('').slice(0, 16);
        var channel = '/services/sandy-terminal/' + id;
        var result = { id: id, connected: false, opened: false, replay: null, typed: false, error: null };
        return new Promise(function (resolve) {
            var socket = ioClient(ideOrigin + '/services', { path: '/socket.io', transports: transports, reconnection: false, timeout: 8000 });
            var done = false;
            function finish(error) {
                if (done) { return; }
                done = true;
                if (error && !result.error) { result.error = error; }
                clearTimeout(timer);
                try { socket.close(); } catch (e) { /* closed */ }
                resolve(result);
            }
            var timer = setTimeout(function () { finish('no channel within 15 s'); }, 15000);
            socket.on('connect_error', function (e) { finish('connect_error: ' + (e && e.message)); });
            socket.on('disconnect', function (reason) { finish('disconnected: ' + reason); });
            socket.on('connect', function () {
                result.connected = true;
                socket.emit('initialConnection', 'attacker-' + Math.random().toString(36).slice(2));
            });
            socket.on('initialConnection', function () {
                socket.send(concat([u8(1), str(channel)]));
            });
            socket.on('message', function (data) {
                var buf = new Uint8Array(data);
                var head = readStr(buf, 1);
                if (head[0] !== channel) { return; }
                if (buf[0] === 3) {
                    result.opened = true;
                } else if (buf[0] === 2) {
                    finish('the backend closed the channel');
                } else if (buf[0] === 4 && buf[head[1]] === 3 && result.replay === null) {
                    result.replay = readStr(buf, head[1] + 1)[0];
                    socket.send(concat([u8(4), str(channel), u8(0), str(typed + '\r')]));
                    result.typed = true;
                    setTimeout(function () { finish(null); }, 1500);
                }
            });
        });
    };
})();
document.title = 'attacker ready';
`;

/** The fake agent's TUI is up (its header is cut at the terminal's width on long scratch paths). */
const AGENT_READY = "type 'help' for commands";

interface ChannelOutcome {
    id: string;
    connected: boolean;
    opened: boolean;
    replay: string | null;
    typed: boolean;
    error: string | null;
}

type AttackWindow = Window & { channelAttack(ideOrigin: string, workspace: string, typed: string, transports: string[]): Promise<ChannelOutcome> };

/** The attacker's dev server on another loopback port: one page carrying the attack. */
class ChannelAttacker {
    protected constructor(protected readonly server: http.Server, readonly port: number) { }

    static async start(): Promise<ChannelAttacker> {
        const server = http.createServer((_req, res) => {
            res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
            res.end(`<!doctype html><html><head><title>attacker</title></head><body><h1>Totally harmless dev server</h1><script>${CHANNEL_ATTACK}</script></body></html>`);
        });
        await new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () => resolve());
        });
        return new ChannelAttacker(server, (server.address() as net.AddressInfo).port);
    }

    get url(): string {
        return `http://127.0.0.1:${this.port}/`;
    }

    async open(context: BrowserContext): Promise<Page> {
        const page = await context.newPage();
        await page.goto(this.url);
        await page.waitForFunction(() => document.title === 'attacker ready');
        return page;
    }

    stop(): Promise<void> {
        return new Promise(resolve => {
            this.server.closeAllConnections();
            this.server.close(() => resolve());
        });
    }
}

/** The backend log through a descriptor opened at once (another run may empty test/results meanwhile). */
class BackendLog {
    protected readonly fd: number;

    constructor(ide: SandyIde) {
        this.fd = fs.openSync(ide.logFile, 'r');
    }

    text(): string {
        const size = fs.fstatSync(this.fd).size;
        const buffer = Buffer.alloc(size);
        fs.readSync(this.fd, buffer, 0, size, 0);
        return buffer.toString('utf8');
    }

    async waitFor(text: string, timeout = 10_000): Promise<void> {
        await poll(() => this.text().includes(text), { message: `the backend log to record "${text}"`, timeout });
    }

    close(): void {
        fs.closeSync(this.fd);
    }
}

function daemonIdOf(workspace: string): string {
    return `daemon-${createHash('sha256').update(workspace).digest('hex').slice(0, 16)}`;
}

describe('Security: a page on another port and a daemon session\'s terminal channel (issue 10)', () => {
    const suite = useSandyIde({ label: 'sec-dchan' });
    let attacker: ChannelAttacker;
    let log: BackendLog;

    before(async () => {
        attacker = await ChannelAttacker.start();
        log = new BackendLog(suite.ide);
    });

    after(async () => {
        log?.close();
        await attacker?.stop();
    });

    async function openSession(app: SandyApp): Promise<SandyTerminal> {
        const terminal = await app.launch(suite.ide.projectName);
        await terminal.waitForText(AGENT_READY);
        await app.poll(() => suite.ide.runningDaemon()?.clients.length === 1, 'the daemon session with the IDE\'s attach client');
        return terminal;
    }

    it('cannot read or type into daemon-<hash of the workspace>; the same script from the IDE\'s page can', async function () {
        this.timeout(240_000);
        const { ide } = suite;
        const app = await suite.browser.openApp(ide);
        const terminal = await openSession(app);

        // The control: the attack script in the IDE's own page (its origin, its cookie) gets the channel.
        await app.page.addScriptTag({ content: CHANNEL_ATTACK });
        const own = await app.page.evaluate(([ws, typed]) => (window as unknown as AttackWindow).channelAttack(location.origin, ws, typed, ['websocket']),
            [ide.workspace, 'echo typed-from-own-page-e2e']);
        expect(own.id, 'the id the page computed from the workspace path').to.equal(daemonIdOf(ide.workspace));
        expect(own, JSON.stringify(own)).to.include({ connected: true, opened: true, typed: true, error: null });
        expect(own.replay, 'the screen the channel replays').to.contain(AGENT_READY).and.contain(`sandbox: ${ide.projectName}-`);
        await terminal.waitForText(/^typed-from-own-page-e2e$/m);

        // The attack: the same script on the attacker's page, in the browser that holds the IDE's cookies.
        const evil = await attacker.open(app.page.context());
        for (const transports of [['websocket'], ['polling'], ['polling', 'websocket']]) {
            const marker = `typed-from-port-${attacker.port}-${transports.join('-')}-e2e`;
            const outcome = await evil.evaluate(([o, ws, typed, t]) => (window as unknown as AttackWindow).channelAttack(o as string, ws as string, typed as string, t as string[]),
                [ide.origin, ide.workspace, `echo ${marker}`, transports] as const);
            expect(outcome.id).to.equal(daemonIdOf(ide.workspace));
            expect(outcome, `the attack over ${transports.join(' then ')}: ${JSON.stringify(outcome)}`).to.include({ connected: false, opened: false, replay: null, typed: false });
            expect(outcome.error).to.match(/^connect_error/);
            await holdsFor(async () => !(await terminal.text()).includes(marker), 1_500, `${marker} never to reach the agent`);
        }
        await log.waitFor(`refused WebSocket upgrade: Origin http://127.0.0.1:${attacker.port} is not this IDE`);
        // Long-polling is refused at engine.io's handshake (or by the HTTP guard in front of it).
        await poll(() => /refused (socket\.io handshake|HTTP GET \/socket\.io\/): /.test(log.text()), { message: 'the backend log to record the refused long-polling handshake', timeout: 10_000 });

        // The session is as it was: one IDE attach client, still running, still typed into from its tab.
        expect(ide.runningDaemon()?.clients.length, 'attach clients of the session').to.equal(1);
        await terminal.enter('echo still-mine-e2e');
        await terminal.waitForText(/^still-mine-e2e$/m);
    });
});

/** What the repository ships in both settings files Theia reads (the agent writes the same mid-session). */
const HOSTILE_SESSION_SETTINGS = {
    'sandy.sessionMode': 'foreground',
    'sandy.stopSessionsOnQuit': true,
    // 0.0005 h = 1.8 s: a reminder almost at once, if it counted.
    'sandy.longRunningHours': 0.0005,
    'editor.tabSize': 3
};

/** Long enough for a reminder due after 1.8 s to show (it came after about 3 s in the control). */
const REMINDER_WAIT_MS = 10_000;

/** The long-running reminders the window shows (LongRunningNudge: "sandy (<name>) has been running for …"). */
async function reminders(app: SandyApp): Promise<string[]> {
    return (await app.page.locator('.theia-notification-list-item').allTextContents()).filter(t => /has been running for/.test(t));
}

function writeSettings(workspace: string, settings: Record<string, unknown>): void {
    for (const dir of ['.theia', '.vscode']) {
        fs.mkdirSync(path.join(workspace, dir), { recursive: true });
        fs.writeFileSync(path.join(workspace, dir, 'settings.json'), JSON.stringify(settings, undefined, 4));
    }
}

describe('Security: a workspace sets how sessions run, end and are reminded of (issue 10)', () => {
    const suite = useSandyIde({
        label: 'sec-dset',
        seed: ide => writeSettings(ide.workspace, HOSTILE_SESSION_SETTINGS)
    });

    it('the launch is a daemon session, no reminder comes, and a graceful quit of the IDE leaves the session running', async function () {
        this.timeout(240_000);
        const { ide } = suite;
        const app = await suite.browser.openApp(ide);
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText(AGENT_READY);
        const daemon = await app.poll(() => {
            const d = ide.runningDaemon();
            return d?.clients.length === 1 ? d : undefined;
        }, 'a daemon session (its container, its supervisor, the IDE\'s attach client), not a foreground sandy');
        expect(ide.sandyProcesses().filter(p => p.args.length === 0 && !p.supervisor), 'foreground sandys').to.deep.equal([]);
        await app.poll(async () => (await app.statusBar().activeSession())?.startsWith('daemon · '), 'the status bar to show a daemon session');
        const output = await outputChannelText(app, 'Sandy');
        for (const key of ['sandy.sessionMode', 'sandy.stopSessionsOnQuit', 'sandy.longRunningHours']) {
            // Named once per setting and file, from whichever settings file the host read it in.
            const named = [path.join(ide.workspace, '.theia', 'settings.json'), path.join(ide.workspace, '.vscode', 'settings.json')]
                .some(file => output.includes(`ignored "${key}" in ${file}: a workspace cannot`));
            expect(named, `the Sandy output names the workspace's ${key} as ignored: ${output}`).to.equal(true);
        }

        // The agent writes the settings again during the session (its workspace is read-write), and silences the reminder.
        writeSettings(ide.workspace, { ...HOSTILE_SESSION_SETTINGS, 'sandy.longRunningHours': 0 });
        // Its tiny value, had it counted, would have asked about the session after 1.8 s.
        // Had the workspace's 1.8 s counted, the reminder would be up within seconds (the control below: about 3 s).
        await holdsFor(async () => (await reminders(app)).length === 0, REMINDER_WAIT_MS, 'no long-running reminder');

        // The IDE quits (SIGTERM: Theia's onStop runs, as when the user closes it).
        const backend = ide.backendPid!;
        process.kill(backend, 'SIGTERM');
        await poll(() => !pidAlive(backend), { timeout: 30_000, message: 'the backend to quit' });
        expect(pidAlive(daemon.supervisor), `the session's supervisor ${daemon.supervisor} after the IDE quit`).to.equal(true);
        expect(ide.containers(ide.workspace).map(c => c.id), 'the session\'s container').to.deep.equal([daemon.container.id]);
        expect(fs.existsSync(ide.lockDir), 'the session\'s workspace lock').to.equal(true);
        expect(ide.lockHolder(), 'the lock\'s holder').to.equal(daemon.supervisor);
    });
});

describe('Security (control): the same session settings in the user\'s own settings count (issue 10)', () => {
    const suite = useSandyIde({
        label: 'sec-dset-user',
        settings: { 'sandy.longRunningHours': HOSTILE_SESSION_SETTINGS['sandy.longRunningHours'], 'sandy.stopSessionsOnQuit': true }
    });

    it('a session older than the user\'s sandy.longRunningHours is asked about, and quitting stops it', async function () {
        this.timeout(120_000);
        const { ide } = suite;
        const app = await suite.browser.openApp(ide);
        const terminal = await app.launch(ide.projectName);
        await terminal.waitForText(AGENT_READY);
        const daemon = await app.poll(() => ide.runningDaemon(), 'the daemon session');
        await app.poll(async () => (await reminders(app)).length > 0, 'the long-running reminder', { timeout: REMINDER_WAIT_MS });
        expect((await reminders(app))[0]).to.contain(`sandy (${ide.projectName}) has been running for`);

        const backend = ide.backendPid!;
        process.kill(backend, 'SIGTERM');
        await poll(() => !pidAlive(backend), { timeout: 40_000, message: 'the backend to quit' });
        await poll(() => !pidAlive(daemon.supervisor), { timeout: 10_000, message: `the session's supervisor ${daemon.supervisor} to be stopped on quit` });
        expect(ide.containers(ide.workspace), 'the session\'s container after the quit').to.deep.equal([]);
    });
});
