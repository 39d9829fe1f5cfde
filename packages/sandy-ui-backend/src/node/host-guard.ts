import * as http from 'http';
import * as crypto from 'crypto';

/** Host names that always mean "this machine". */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string | undefined): boolean {
    if (!hostname) {
        return false;
    }
    const h = hostname.toLowerCase();
    // `*.localhost` never leaves the machine (RFC 6761; browsers resolve it themselves, so no DNS
    // rebinding), and Theia serves plugin webviews from `<uuid>.webview.<host>`.
    const base = h.replace(/^[a-z0-9-]+\.webview\./, '');
    return LOOPBACK.has(base) || /^127\.\d+\.\d+\.\d+$/.test(base) || base.endsWith('.localhost');
}

/** `host:port` or `[v6]:port` → host name, lower-cased. */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
    if (!hostHeader) {
        return undefined;
    }
    const h = hostHeader.trim().toLowerCase();
    if (h.startsWith('[')) {
        const end = h.indexOf(']');
        return end > 0 ? h.slice(0, end + 1) : undefined;
    }
    return h.split(':')[0] || undefined;
}

export interface HostGuardOptions {
    /** Extra host names accepted in Host/Origin (SANDY_IDE_ALLOWED_HOSTS), e.g. the LAN name when bound beyond loopback. */
    allowedHosts: string[];
    /** Required when listening beyond loopback (SANDY_IDE_TOKEN). */
    token?: string;
}

export const TOKEN_COOKIE = 'sandy-ide-token';

/**
 * The IDE serves a shell to whoever reaches it, so requests must come from the app's own pages:
 * the Host header must name this machine (defeats DNS rebinding, where a foreign name resolves to
 * 127.0.0.1 and Theia's same-origin check alone would pass) and a present Origin must name it too
 * (defeats cross-site WebSocket hijacking). Beyond loopback, a user-set token is also required.
 */
export class HostGuard {
    constructor(readonly options: HostGuardOptions) { }

    isAllowedHostname(hostname: string | undefined): boolean {
        return !!hostname && (isLoopbackHost(hostname) || this.options.allowedHosts.map(h => h.toLowerCase()).includes(hostname));
    }

    check(request: Pick<http.IncomingMessage, 'headers' | 'url'>): { ok: true } | { ok: false; reason: string } {
        const host = hostnameOf(request.headers.host);
        if (!this.isAllowedHostname(host)) {
            return { ok: false, reason: `Host ${request.headers.host ?? '(none)'} is not this IDE` };
        }
        const origin = request.headers.origin;
        if (origin) {
            let originHost: string | undefined;
            try {
                originHost = hostnameOf(new URL(origin).host);
            } catch {
                return { ok: false, reason: 'malformed Origin' };
            }
            if (!this.isAllowedHostname(originHost)) {
                return { ok: false, reason: `Origin ${origin} is not this IDE` };
            }
        }
        if (this.options.token && !this.hasValidToken(request)) {
            return { ok: false, reason: 'missing or wrong access token' };
        }
        return { ok: true };
    }

    /** The token arrives once as `?token=` (then kept in a cookie) or in the cookie. */
    hasValidToken(request: Pick<http.IncomingMessage, 'headers' | 'url'>): boolean {
        const token = this.options.token;
        if (!token) {
            return true;
        }
        const fromQuery = new URL(request.url ?? '/', 'http://x').searchParams.get('token') ?? undefined;
        const fromCookie = parseCookie(request.headers.cookie)[TOKEN_COOKIE];
        return [fromQuery, fromCookie].some(candidate => candidate !== undefined && safeEqual(candidate, token));
    }
}

function parseCookie(header: string | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    for (const part of (header ?? '').split(';')) {
        const idx = part.indexOf('=');
        if (idx > 0) {
            out[part.slice(0, idx).trim()] = decodeURIComponent(part.slice(idx + 1).trim());
        }
    }
    return out;
}

function safeEqual(a: string, b: string): boolean {
    const ha = crypto.createHash('sha256').update(a).digest();
    const hb = crypto.createHash('sha256').update(b).digest();
    return crypto.timingSafeEqual(ha, hb);
}
