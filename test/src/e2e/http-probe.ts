import * as http from 'http';
import WebSocket from 'ws';

/** How a WebSocket upgrade went. */
export type UpgradeOutcome =
    | { kind: 'open'; firstMessage: string }
    | { kind: 'refused'; status: number }
    | { kind: 'error'; message: string }
    | { kind: 'closed'; code: number };

/**
 * Opens a raw WebSocket with chosen headers, as a foreign page or a DNS-rebinding attacker could.
 * An accepted socket.io connection is proven by engine.io's open packet (`0{"sid":…}`).
 */
export function tryWebSocket(url: string, headers: Record<string, string>, timeoutMs = 10_000): Promise<UpgradeOutcome> {
    return new Promise(resolve => {
        const ws = new WebSocket(url, { headers, handshakeTimeout: timeoutMs });
        let settled = false;
        const settle = (outcome: UpgradeOutcome): void => {
            if (!settled) {
                settled = true;
                clearTimeout(timer);
                ws.terminate();
                resolve(outcome);
            }
        };
        const timer = setTimeout(() => settle({ kind: 'error', message: `no answer in ${timeoutMs} ms` }), timeoutMs);
        ws.on('unexpected-response', (_req, res) => settle({ kind: 'refused', status: res.statusCode ?? 0 }));
        ws.on('message', data => settle({ kind: 'open', firstMessage: data.toString() }));
        ws.on('error', e => settle({ kind: 'error', message: e.message }));
        ws.on('close', code => settle({ kind: 'closed', code }));
    });
}

export interface HttpAnswer {
    status: number;
    /** `name=value` of every Set-Cookie, ready for a Cookie header. */
    cookies: string[];
}

/** A plain GET with chosen headers. */
export function httpGet(port: number, urlPath: string, headers: Record<string, string>): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: urlPath, headers }, res => {
            res.resume();
            const cookies = (res.headers['set-cookie'] ?? []).map(c => c.split(';')[0]);
            resolve({ status: res.statusCode ?? 0, cookies });
        });
        req.setTimeout(10_000, () => req.destroy(new Error('HTTP request timed out')));
        req.on('error', reject);
    });
}
