import * as fs from 'fs';
import * as path from 'path';
import { MessageChannel, Worker } from 'worker_threads';
import { SCREEN_WORKER_DATA } from './screen-protocol';
import type { ScreenEvent, ScreenPort, ScreenRequest } from './screen-protocol';
import { serveScreens } from './screen-serve';

/** What a {@link ScreenThread} tells one of its screens (screen-state.ts). */
export interface ScreenClient {
    /** Chunks written so far (a screen opened again numbers on from there). */
    readonly chunksWritten: number;
    event(e: ScreenEvent): void;
    /** The thread its engine ran on ended (the worker crashed): its screen is gone, a new one is opened empty. */
    lost(): void;
}

/** Where the engines run: a worker, or this thread's own loop behind a message channel (same messages, same order). */
interface Endpoint {
    postMessage(message: ScreenRequest): void;
    /** Whether the endpoint keeps the process alive (only while a screen waits for it). */
    ref(on: boolean): void;
    terminate(): void;
}

/** What an endpoint tells its thread. (Listened to before the endpoint is unref'd: a listener added later refs it again.) */
interface EndpointListener {
    message(e: ScreenEvent): void;
    exit(reason: string): void;
}

/** The worker's file: beside this module when compiled (lib/node/terminal), beside the bundle that inlines it (the Theia backend's lib/backend, the plugin's dist). */
export const SCREEN_WORKER_FILE = path.join(__dirname, 'screen-worker.js');

/** A worker that ends this many times is not started again: the screens run on the main thread from then on. */
export const MAX_WORKER_RESTARTS = 3;

/**
 * The thread the sessions' screens are parsed on. Every byte a session prints is parsed once by the
 * backend (screen-engine.ts), which costs as much as reading it; on the thread that reads the PTYs and
 * serves the windows, that parse paced every agent (measured: the fake's daemon session 165 → 115 ms per
 * 3.7 MB flood with the parse in a worker). So a process's screens share one worker_threads Worker,
 * which holds nothing but screens: it reads no file, spawns nothing and gets only the bytes the agents
 * printed. The worker keeps the process alive only while a screen waits for it (a parse, an answer).
 * If it ends (a crash), every screen is told (its pending answers come back empty) and opened again,
 * empty, on a new worker; after {@link MAX_WORKER_RESTARTS} the screens run on this thread. Where the
 * worker's file is missing (a build that left it out), they run on this thread from the start, and that
 * is said once. One screen's engine failing on its agent's output loses that screen only (screen-serve.ts).
 */
export class ScreenThread {
    protected static sharedThread: ScreenThread | undefined;

    /** Where the shared thread says what becomes of its worker. */
    protected static sharedLog: ((message: string) => void) | undefined;

    /**
     * The process's thread: a worker (this thread when the worker's file is missing). `log`: where what
     * becomes of the worker is said, set by the first that asks with one (the service's logger); until
     * then, Node's process warnings (stderr).
     */
    static shared(log?: (message: string) => void): ScreenThread {
        ScreenThread.sharedLog ??= log;
        return this.sharedThread ??= new ScreenThread('worker', SCREEN_WORKER_FILE, message => (ScreenThread.sharedLog ?? processWarning)(message));
    }

    protected endpoint: Endpoint | undefined;
    protected readonly clients = new Map<number, { client: ScreenClient; cols: number; rows: number }>();
    protected nextId = 1;
    protected restarts = 0;
    /** Screens waiting for the thread (a parse, an answer): the process stays alive for them, and only for them. */
    protected holds = 0;

    constructor(protected mode: 'worker' | 'local', protected readonly workerFile = SCREEN_WORKER_FILE, protected readonly log: (message: string) => void = processWarning) {
        if (mode === 'worker' && !fs.existsSync(workerFile)) {
            this.mode = 'local';
            // Said once the caller is set up (a host's logger may be injected after it is constructed).
            setImmediate(() => this.say(`sandy-ui: ${workerFile} is missing; sessions' screens are parsed on the main thread (slower under heavy output).`));
        }
    }

    /** Where the screens run now. */
    get kind(): 'worker' | 'local' {
        return this.mode;
    }

    /** A new screen; its events go to `client` until {@link close}. */
    open(client: ScreenClient, cols: number, rows: number): number {
        const id = this.nextId++;
        this.clients.set(id, { client, cols, rows });
        this.post({ op: 'open', id, cols, rows, seq: client.chunksWritten });
        return id;
    }

    /** Screen `id` again, empty (its engine was lost), numbering on from its chunks written. */
    reopen(id: number): void {
        const entry = this.clients.get(id);
        if (entry) {
            this.post({ op: 'open', id, cols: entry.cols, rows: entry.rows, seq: entry.client.chunksWritten });
        }
    }

    post(message: ScreenRequest): void {
        const entry = this.clients.get(message.id);
        if (!entry) {
            return;
        }
        if (message.op === 'resize') {
            entry.cols = message.cols;
            entry.rows = message.rows;
        }
        this.ensure().postMessage(message);
    }

    close(id: number): void {
        if (this.clients.has(id)) {
            this.post({ op: 'close', id });
            this.clients.delete(id);
        }
    }

    /** A screen waits for the thread: the process does not exit under it. */
    hold(): void {
        if (++this.holds === 1) {
            this.endpoint?.ref(true);
        }
    }

    release(): void {
        if (this.holds > 0 && --this.holds === 0) {
            this.endpoint?.ref(false);
        }
    }

    /** Ends the worker; screens still open are told and start again, empty, on a new one (as after a crash, without counting as one). */
    dispose(): void {
        const endpoint = this.endpoint;
        this.endpoint = undefined;
        endpoint?.terminate();
        this.restartScreens();
    }

    protected ensure(): Endpoint {
        if (!this.endpoint) {
            const listener: EndpointListener = {
                message: e => this.clients.get(e.id)?.client.event(e),
                exit: reason => this.ended(endpoint, reason)
            };
            let endpoint: Endpoint;
            try {
                endpoint = this.mode === 'worker' ? workerEndpoint(this.workerFile, listener) : localEndpoint(listener);
            } catch (e) {
                // (A thread that cannot be created: out of memory, a resource limit.)
                this.mode = 'local';
                endpoint = localEndpoint(listener);
                this.say(`sandy-ui: the screen worker could not start (${e instanceof Error ? e.message : String(e)}); sessions' screens are parsed on the main thread.`);
            }
            this.endpoint = endpoint;
            endpoint.ref(this.holds > 0);
        }
        return this.endpoint;
    }

    /** The worker ended: its screens are gone; each is told, then opened again (on the main thread after too many ends). */
    protected ended(endpoint: Endpoint, reason: string): void {
        if (this.endpoint !== endpoint) {
            return; // terminated on purpose (dispose)
        }
        this.endpoint = undefined;
        if (++this.restarts >= MAX_WORKER_RESTARTS) {
            this.mode = 'local';
        }
        const screens = this.clients.size;
        this.restartScreens();
        this.say(`sandy-ui: the screen worker ended (${reason}); ${screens} session screen(s) start again empty${this.mode === 'local' ? ', on the main thread from now on' : ''}.`);
    }

    /** Every open screen is told its engine is gone, then opened again (empty) where the screens run now. */
    protected restartScreens(): void {
        const open = [...this.clients.entries()];
        for (const [, entry] of open) {
            entry.client.lost();
        }
        for (const [id, entry] of open) {
            if (this.clients.get(id) === entry) {
                this.reopen(id);
            }
        }
    }

    /** What becomes of the worker goes to the log; a log that throws changes nothing here. */
    protected say(message: string): void {
        try {
            this.log(message);
        } catch {
            // Nothing else to tell.
        }
    }
}

function processWarning(message: string): void {
    process.emitWarning(message, 'SandyScreenThread');
}

function workerEndpoint(file: string, listener: EndpointListener): Endpoint {
    const worker = new Worker(file, { workerData: SCREEN_WORKER_DATA, stdout: false, stderr: false });
    let error = '';
    worker.on('message', listener.message);
    worker.on('error', e => error = e instanceof Error ? e.message : String(e));
    worker.on('exit', code => listener.exit(error || `exit code ${code}`));
    worker.unref();
    return { postMessage: m => worker.postMessage(m), ref: on => on ? worker.ref() : worker.unref(), terminate: () => void worker.terminate() };
}

function localEndpoint(listener: EndpointListener): Endpoint {
    const { port1, port2 } = new MessageChannel();
    serveScreens(port2 as unknown as ScreenPort<ScreenRequest, ScreenEvent>);
    port1.on('message', listener.message);
    port1.unref();
    port2.unref();
    return { postMessage: m => port1.postMessage(m), ref: on => on ? port1.ref() : port1.unref(), terminate: () => port1.close() };
}
