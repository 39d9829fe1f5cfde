import { ContainerModule } from '@theia/core/shared/inversify';
import { ConnectionHandler, RpcConnectionHandler } from '@theia/core/lib/common/messaging';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { MessagingService } from '@theia/core/lib/node/messaging/messaging-service';
import { WsRequestValidatorContribution } from '@theia/core/lib/node/ws-request-validators';
import { BrowserConnectionToken } from '@theia/core/lib/node/hosting/browser-connection-token';
import { SANDY_SERVICE_PATH, SandyServiceClient } from '../common/sandy-protocol';
import { SandyBackend } from './sandy-backend';
import { SandyTerminalContribution } from './sandy-terminal-contribution';
import { SandyHostGuardContribution } from './sandy-host-guard-contribution';
import { SandyGitSafetyContribution } from './sandy-git-safety-contribution';
import { useBundledPlugins } from './bundled-plugins';
import { ideDataDir } from '@sandy-ui/core/node';
import { persistentConnectionToken } from './connection-token';

export default new ContainerModule((bind, _unbind, isBound, rebind) => {
    useBundledPlugins();
    // A page open across a backend crash reconnects by itself (the token outlives the process).
    if (isBound(BrowserConnectionToken)) {
        rebind(BrowserConnectionToken).toConstantValue(persistentConnectionToken(ideDataDir()));
    }

    bind(SandyBackend).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(SandyBackend);

    bind(ConnectionHandler).toDynamicValue(ctx =>
        new RpcConnectionHandler<SandyServiceClient>(SANDY_SERVICE_PATH, client => {
            const service = ctx.container.get(SandyBackend).connect(client);
            client.onDidCloseConnection(() => service.dispose());
            return service;
        })
    ).inSingletonScope();

    bind(SandyTerminalContribution).toSelf().inSingletonScope();
    bind(MessagingService.Contribution).toService(SandyTerminalContribution);

    bind(SandyGitSafetyContribution).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(SandyGitSafetyContribution);

    bind(SandyHostGuardContribution).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(SandyHostGuardContribution);
    bind(WsRequestValidatorContribution).toService(SandyHostGuardContribution);
});
