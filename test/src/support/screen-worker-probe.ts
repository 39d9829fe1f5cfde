import { Worker } from 'worker_threads';

/**
 * Runs a built screen worker (a bundle's `screen-worker.js`: core's ScreenThread starts it beside the
 * backend) on its own and asks it what a session would: open a screen, write to it, serialize it.
 * Resolves the replay it answers and the notifications it parsed on the way; rejects if the file does
 * not serve screens (a bundle entry that lost its code, a worker that dies).
 */
export function probeScreenWorker(file: string, text: string, timeoutMs = 20_000): Promise<{ replay: string; notifications: string[] }> {
    return new Promise((resolve, reject) => {
        const worker = new Worker(file, { workerData: { sandyScreens: 1 } });
        const timer = setTimeout(() => finish(new Error(`${file} did not answer within ${timeoutMs} ms`)), timeoutMs);
        const notifications: string[] = [];
        const finish = (error: Error | undefined, replay?: string) => {
            clearTimeout(timer);
            void worker.terminate();
            if (error) {
                reject(error);
            } else {
                resolve({ replay: replay!, notifications });
            }
        };
        worker.on('message', (m: { op: string; req?: number; value?: unknown; notification?: { source: string; body: string } }) => {
            if (m.op === 'notify' && m.notification) {
                notifications.push(`${m.notification.source}:${m.notification.body}`);
            }
            if (m.op === 'reply' && m.req === 1) {
                finish(typeof m.value === 'string' ? undefined : new Error(`${file} answered ${JSON.stringify(m.value)}`), m.value as string);
            }
        });
        worker.on('error', e => finish(e instanceof Error ? e : new Error(String(e))));
        worker.on('exit', code => finish(new Error(`${file} exited (code ${code}) before it answered`)));
        worker.postMessage({ op: 'open', id: 1, cols: 80, rows: 24, seq: 0 });
        worker.postMessage({ op: 'write', id: 1, seq: 1, data: text });
        worker.postMessage({ op: 'serialize', id: 1, req: 1 });
    });
}
