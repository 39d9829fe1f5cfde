import * as http from 'http';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core';
import type * as express from '@theia/core/shared/express';
import { environment } from '@theia/core/shared/@theia/application-package/lib/environment';
import { BackendApplicationCliContribution, BackendApplicationContribution, EarlyExpressMiddleware } from '@theia/core/lib/node/backend-application';
import { WsRequestValidatorContribution } from '@theia/core/lib/node/ws-request-validators';
import { HostGuard, HostGuardVerdict, isLoopbackHost, printable, TOKEN_COOKIE } from './host-guard';

/**
 * Puts {@link HostGuard} in front of every HTTP request (first of Theia's early middleware, so before
 * any other handler can act on, or throw at, what the request carries) and every WebSocket upgrade.
 */
@injectable()
export class SandyHostGuardContribution implements BackendApplicationContribution, WsRequestValidatorContribution {
    @inject(BackendApplicationCliContribution) protected readonly cli: BackendApplicationCliContribution;
    @inject(EarlyExpressMiddleware) protected readonly early: EarlyExpressMiddleware;
    @inject(ILogger) @named('sandy-host-guard') protected readonly logger: ILogger;
    protected guard: HostGuard | undefined;
    protected app: express.Application | undefined;

    protected getGuard(): HostGuard {
        if (!this.guard) {
            const hostname = this.cli.hostname;
            const token = process.env.SANDY_IDE_TOKEN || undefined;
            const allowedHosts = (process.env.SANDY_IDE_ALLOWED_HOSTS ?? '').split(',').map(s => s.trim()).filter(Boolean);
            if (hostname && !isLoopbackHost(hostname) && hostname !== '0.0.0.0' && hostname !== '::') {
                allowedHosts.push(hostname);
            }
            if (hostname && !isLoopbackHost(hostname) && !token) {
                // Anyone on the network could run commands as this user: refuse to start.
                process.stderr.write(`Sandy IDE: refusing to listen on ${hostname} without an access token.\n`
                    + 'Set SANDY_IDE_TOKEN to a long random secret (and SANDY_IDE_ALLOWED_HOSTS to the names you use),\n'
                    + 'or listen on 127.0.0.1 (the default).\n');
                process.exit(2);
            }
            this.guard = new HostGuard({ allowedHosts, token, scheme: this.cli.ssl ? 'https' : 'http', electron: environment.electron.is() });
        }
        return this.guard;
    }

    initialize(): void {
        const guard = this.getGuard();
        // First in line: Theia's own early middleware (its connection-token cookie) comes after.
        this.early.handlers.unshift((req, res, next) => {
            const verdict = guard.check(req);
            if (!verdict.ok) {
                this.refused(`HTTP ${printable(req.method)} ${printable(req.path)}`, verdict);
                res.status(verdict.status).set('X-Content-Type-Options', 'nosniff').type('text/plain')
                    .send(`Sandy IDE refused this request: ${verdict.reason}; ${verdict.advice}.\n`);
                return;
            }
            if (verdict.setTokenCookie && guard.options.token) {
                res.cookie(TOKEN_COOKIE, guard.options.token, { httpOnly: true, sameSite: 'strict', path: '/', secure: guard.options.scheme === 'https' });
            }
            next();
        });
    }

    configure(app: express.Application): void {
        this.app = app;
    }

    onStart(): void {
        // Last in the chain (every route is in place by now): an error of any handler ends here
        // instead of in express's default handler, which answers with the stack and install paths
        // unless NODE_ENV=production.
        this.app?.use(((err, req, res, next) => {
            const status = errorStatus(err);
            this.logger.error(`HTTP ${printable(req.method)} ${printable(req.path)} failed with ${status}:`, err);
            if (res.headersSent) {
                next(err);
                return;
            }
            const detail = status < 500 && err instanceof Error ? `: ${printable(err.message.split('\n')[0])}` : '';
            res.status(status).set('X-Content-Type-Options', 'nosniff').type('text/plain')
                .send(`${status} ${http.STATUS_CODES[status] ?? 'Error'}${detail}\n`);
        }) as express.ErrorRequestHandler);
    }

    allowWsUpgrade(request: http.IncomingMessage): boolean {
        const verdict = this.getGuard().check(request);
        if (!verdict.ok) {
            // engine.io asks at the handshake: a WebSocket upgrade, or the first long-polling GET.
            this.refused((request.headers.upgrade ?? '').toLowerCase() === 'websocket' ? 'WebSocket upgrade' : 'socket.io handshake', verdict);
        }
        return verdict.ok;
    }

    /** One line per refusal; the query is left out (it may hold the token). */
    protected refused(what: string, verdict: Extract<HostGuardVerdict, { ok: false }>): void {
        this.logger.warn(`refused ${what}: ${verdict.reason}`);
    }
}

/** The status an express error asks for (body parsers and routers set `status`), else 500. */
function errorStatus(err: unknown): number {
    const e = err as { status?: unknown; statusCode?: unknown } | undefined;
    const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
    return status >= 400 && status < 600 ? status : 500;
}
