import * as http from 'http';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core';
import { BackendApplicationCliContribution, BackendApplicationContribution, EarlyExpressMiddleware } from '@theia/core/lib/node/backend-application';
import { WsRequestValidatorContribution } from '@theia/core/lib/node/ws-request-validators';
import { HostGuard, isLoopbackHost, TOKEN_COOKIE } from './host-guard';

/** Puts {@link HostGuard} in front of every HTTP request and WebSocket upgrade of the IDE. */
@injectable()
export class SandyHostGuardContribution implements BackendApplicationContribution, WsRequestValidatorContribution {
    @inject(BackendApplicationCliContribution) protected readonly cli: BackendApplicationCliContribution;
    @inject(EarlyExpressMiddleware) protected readonly early: EarlyExpressMiddleware;
    @inject(ILogger) @named('sandy') protected readonly logger: ILogger;
    protected guard: HostGuard | undefined;

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
            this.guard = new HostGuard({ allowedHosts, token });
        }
        return this.guard;
    }

    initialize(): void {
        const guard = this.getGuard();
        this.early.handlers.push((req, res, next) => {
            const verdict = guard.check(req);
            if (!verdict.ok) {
                this.logger.warn(`sandy: refused HTTP ${req.method} ${req.url}: ${verdict.reason}`);
                res.status(403).type('text/plain').send(`Forbidden: ${verdict.reason}.\n`);
                return;
            }
            if (guard.options.token) {
                res.cookie(TOKEN_COOKIE, guard.options.token, { httpOnly: true, sameSite: 'strict', path: '/' });
            }
            next();
        });
    }

    allowWsUpgrade(request: http.IncomingMessage): boolean {
        const verdict = this.getGuard().check(request);
        if (!verdict.ok) {
            this.logger.warn(`sandy: refused WebSocket upgrade: ${verdict.reason}`);
        }
        return verdict.ok;
    }
}
