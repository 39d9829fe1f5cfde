import * as http from 'http';
import * as crypto from 'crypto';

/** Host names that always mean "this machine". */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Theia's plugin webviews live on `<uuid>.webview.<host>` (@theia/plugin-ext's default
 * THEIA_WEBVIEW_EXTERNAL_ENDPOINT, `{{uuid}}.webview.{{hostname}}`), an origin of their own.
 */
const WEBVIEW_HOST = /^[a-z0-9-]+\.webview\.(.+)$/;

/** Methods that change nothing (CORS preflights included); everything else is state-changing. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isLoopbackHost(hostname: string | undefined): boolean {
    if (!hostname) {
        return false;
    }
    const h = hostname.toLowerCase();
    const base = WEBVIEW_HOST.exec(h)?.[1] ?? h;
    // `*.localhost` never leaves the machine (RFC 6761; browsers resolve it themselves, so no DNS rebinding).
    return LOOPBACK.has(base) || /^127\.\d+\.\d+\.\d+$/.test(base) || base.endsWith('.localhost');
}

/** A Host header split into its name (lower-cased, IPv6 in brackets) and port; undefined unless well-formed. */
export function parseHostHeader(hostHeader: string | undefined): { hostname: string; port?: number } | undefined {
    const m = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/.exec((hostHeader ?? '').trim().toLowerCase());
    if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) {
        return undefined;
    }
    return { hostname: m[1], port: m[2] === undefined ? undefined : Number(m[2]) };
}

export interface HostGuardOptions {
    /** Extra host names accepted in Host (SANDY_IDE_ALLOWED_HOSTS), e.g. the LAN name when bound beyond loopback. */
    allowedHosts: string[];
    /** Required when listening beyond loopback (SANDY_IDE_TOKEN). */
    token?: string;
    /** The scheme the server serves (`https` with Theia's `--ssl`); default `http`. */
    scheme?: 'http' | 'https';
    /**
     * The Electron target: its frontend is a `file://` page (Origin `file://` or `null`, every request
     * "cross-site"), and Theia's ElectronTokenValidator already demands a secret cookie that only
     * Electron's own windows hold on every HTTP request and WebSocket.
     */
    electron?: boolean;
}

export const TOKEN_COOKIE = 'sandy-ide-token';

export type GuardRequest = Pick<http.IncomingMessage, 'headers' | 'url' | 'method'>;

export type HostGuardVerdict =
    | { ok: true; /** Set (or repair) the token cookie on the answer. */ setTokenCookie: boolean }
    | { ok: false; status: 400 | 403; /** What was wrong, one line (goes to the log and the answer). */ reason: string; /** What the user should do instead. */ advice: string };

/**
 * The IDE serves a shell to whoever reaches it, so every request must come from the app's own page,
 * one origin exactly:
 * - the Host header must name this machine (or a configured name), which defeats DNS rebinding;
 * - an `Origin`, when present, must be the app's own `scheme://host:port` (the Host header's), so a
 *   page on another port of the same machine is as foreign as any other site (cookies ignore ports:
 *   Theia's `SameSite=Strict` connection token is sent along from `127.0.0.1:<any port>`);
 * - `Sec-Fetch-Site: cross-site | same-site` is refused, whatever the method;
 * - a state-changing request (not GET/HEAD/OPTIONS, and every WebSocket upgrade) must prove where it
 *   comes from with `Origin` or `Sec-Fetch-Site: same-origin | none`; the cookie alone proves nothing;
 * - beyond loopback, the user-set token is required too.
 * Plugin webviews (`<uuid>.webview.<host>`) get only what Theia serves them there: GET/HEAD of its
 * static `/webview/` shell. Their resources reach them through the main page's service-worker bridge,
 * so nothing else (no upload, no socket, no file download) is answered on a webview origin.
 */
export class HostGuard {
    protected readonly allowedHosts: string[];
    protected readonly scheme: 'http' | 'https';

    constructor(readonly options: HostGuardOptions) {
        this.allowedHosts = options.allowedHosts.map(h => h.trim().toLowerCase()).filter(Boolean);
        this.scheme = options.scheme ?? 'http';
    }

    /** A name of this IDE: loopback, a configured host, or a webview host of one of those. */
    isAllowedHostname(hostname: string | undefined): boolean {
        if (!hostname) {
            return false;
        }
        const h = hostname.toLowerCase();
        const base = WEBVIEW_HOST.exec(h)?.[1] ?? h;
        return isLoopbackHost(base) || this.allowedHosts.includes(base);
    }

    check(request: GuardRequest): HostGuardVerdict {
        const headers = request.headers;
        const method = (request.method ?? 'GET').toUpperCase();
        const host = parseHostHeader(headers.host);
        if (!host || !this.isAllowedHostname(host.hostname)) {
            const port = host?.port ? `:${host.port}` : '';
            return refuse(403, `Host ${printable(headers.host) || '(none)'} is not this IDE`,
                `open the IDE at ${this.scheme}://127.0.0.1${port}/ or a name listed in SANDY_IDE_ALLOWED_HOSTS`);
        }
        const ownOrigin = this.originOf(host.hostname, host.port);
        const isUpgrade = (headers.upgrade ?? '').toLowerCase() === 'websocket';
        const webview = WEBVIEW_HOST.exec(host.hostname);
        if (webview) {
            return this.checkWebview(request, method, isUpgrade, ownOrigin, this.originOf(webview[1], host.port));
        }
        const advice = `open the IDE at ${ownOrigin}/ from the address bar; pages on other addresses cannot use it`;

        const origin = headers.origin;
        if (origin !== undefined && !this.isOwnFrontend(origin, ownOrigin)) {
            return refuse(403, `Origin ${printable(origin)} is not this IDE`, advice);
        }
        const site = headerValue(headers['sec-fetch-site']);
        if (!this.options.electron && (site === 'cross-site' || site === 'same-site')) {
            return refuse(403, `a ${site} request (Sec-Fetch-Site) is not from this IDE's page`, advice);
        }
        const stateChanging = isUpgrade || !SAFE_METHODS.has(method);
        if (stateChanging && origin === undefined && site !== 'same-origin' && site !== 'none') {
            return refuse(403, `${isUpgrade ? 'a WebSocket upgrade' : method} without Origin or Sec-Fetch-Site: same-origin is not from this IDE's page`, advice);
        }
        return this.checkToken(request, ownOrigin);
    }

    /** `scheme://host[:port]`, normalised as browsers serialise an Origin (default port dropped). */
    protected originOf(hostname: string, port: number | undefined): string {
        const defaultPort = this.scheme === 'https' ? 443 : 80;
        return `${this.scheme}://${hostname}${port !== undefined && port !== defaultPort ? `:${port}` : ''}`;
    }

    protected isOwnFrontend(origin: string, ownOrigin: string): boolean {
        if (this.options.electron && (origin === 'file://' || origin === 'null')) {
            return true;
        }
        return normaliseOrigin(origin) === ownOrigin;
    }

    protected checkWebview(request: GuardRequest, method: string, isUpgrade: boolean, webviewOrigin: string, appOrigin: string): HostGuardVerdict {
        const advice = 'a webview origin serves only the webview shell';
        const pathname = pathOf(request.url);
        if (isUpgrade || (method !== 'GET' && method !== 'HEAD') || !pathname.startsWith('/webview/')) {
            return refuse(403, `${isUpgrade ? 'a WebSocket upgrade' : `${method} ${printable(pathname)}`} on a webview origin is not allowed`, advice);
        }
        const origin = request.headers.origin;
        if (origin !== undefined) {
            const normalised = normaliseOrigin(origin);
            if (normalised !== webviewOrigin && normalised !== appOrigin) {
                return refuse(403, `Origin ${printable(origin)} is not this IDE`, advice);
            }
        }
        // The shell is Theia's public static code (no token needed: the token cookie is host-only and
        // never reaches the webview's own origin); never hand the token to this origin.
        return { ok: true, setTokenCookie: false };
    }

    protected checkToken(request: GuardRequest, ownOrigin: string): HostGuardVerdict {
        const token = this.options.token;
        if (!token) {
            return { ok: true, setTokenCookie: false };
        }
        const fromQuery = queryToken(request.url);
        const fromCookies = cookieValues(request.headers.cookie, TOKEN_COOKIE);
        if (fromQuery !== undefined && safeEqual(fromQuery, token)) {
            return { ok: true, setTokenCookie: true };
        }
        if (fromCookies.some(c => c.value !== undefined && safeEqual(c.value, token))) {
            return { ok: true, setTokenCookie: false };
        }
        const advice = `open the IDE once at ${ownOrigin}/?token=<the value of SANDY_IDE_TOKEN>`;
        if (fromQuery === undefined && fromCookies.length > 0 && fromCookies.every(c => c.value === undefined)) {
            return refuse(400, `the ${TOKEN_COOKIE} cookie is malformed`, `${advice} to replace it`);
        }
        return refuse(403, 'missing or wrong access token', advice);
    }
}

function refuse(status: 400 | 403, reason: string, advice: string): HostGuardVerdict {
    return { ok: false, status, reason, advice };
}

/** An Origin header as browsers serialise it: lower-case `scheme://host[:port]`, default port omitted. */
function normaliseOrigin(origin: string): string {
    return origin.trim().toLowerCase();
}

function headerValue(value: string | string[] | undefined): string | undefined {
    return (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
}

function pathOf(url: string | undefined): string {
    try {
        return new URL(url ?? '/', 'http://x').pathname;
    } catch {
        return '/';
    }
}

function queryToken(url: string | undefined): string | undefined {
    try {
        return new URL(url ?? '/', 'http://x').searchParams.get('token') ?? undefined;
    } catch {
        return undefined;
    }
}

/**
 * Every value of cookie `name` in a Cookie header (a browser may send several: same name, other
 * paths, or one planted by another app on the same host, since cookies ignore ports). A value that
 * does not decode is `undefined`; other cookies are never decoded, so a foreign malformed cookie
 * cannot break the IDE.
 */
export function cookieValues(header: string | undefined, name: string): { value: string | undefined }[] {
    const out: { value: string | undefined }[] = [];
    for (const part of (header ?? '').split(';')) {
        const idx = part.indexOf('=');
        if (idx > 0 && part.slice(0, idx).trim() === name) {
            let raw = part.slice(idx + 1).trim();
            if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
                raw = raw.slice(1, -1);
            }
            try {
                out.push({ value: decodeURIComponent(raw) });
            } catch {
                out.push({ value: undefined });
            }
        }
    }
    return out;
}

/** A header value fit for one log line and a text answer: printable ASCII, at most 200 characters. */
export function printable(value: string | string[] | undefined): string {
    const text = Array.isArray(value) ? value.join(', ') : (value ?? '');
    const clean = text.replace(/[^\x20-\x7e]/g, '?');
    return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

function safeEqual(a: string, b: string): boolean {
    const ha = crypto.createHash('sha256').update(a).digest();
    const hb = crypto.createHash('sha256').update(b).digest();
    return crypto.timingSafeEqual(ha, hb);
}
