import { inject, injectable, named } from '@theia/core/shared/inversify';
import { generateUuid, ILogger } from '@theia/core';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { ideHistoryDir, SandyServiceCore } from '@sandy-ui/core/node';
import { SandyService, SandyServiceClient, SandyServiceError } from '../common/sandy-protocol';
import { nodePtySpawn } from './node-pty-spawn';

/**
 * The one sandy service of this IDE process: core's {@link SandyServiceCore} (the VS Code plugin
 * holds the same class), which owns the PTY supervisor, the shared state poller and the projects
 * store and fans every change out to all windows. Theia's part is only the logger, the process
 * lifecycle and {@link connect}: one connection per window, its failures as {@link SandyServiceError}.
 */
@injectable()
export class SandyBackend implements BackendApplicationContribution {
    @inject(ILogger) @named('sandy') protected readonly logger: ILogger;

    readonly core = new SandyServiceCore({
        // The logger is injected after construction: look it up at each call.
        logger: {
            info: message => void this.logger.info(message),
            warn: message => void this.logger.warn(message),
            error: message => void this.logger.error(message)
        },
        spawnPty: nodePtySpawn,
        // Theia watches its configuration folder (~/.sandy-ide, our data folder) recursively and tells every
        // window of each change: the history logs, written with every line an agent prints, live elsewhere.
        historyDir: ideHistoryDir(),
        logHint: 'See the backend log for details.'
    });

    initialize(): void {
        this.core.start();
    }

    onStop(): Promise<void> {
        return this.core.dispose();
    }

    /** One window's service: core's connection as the JSON-RPC target, every rejection as {code, message, hint}. */
    connect(client?: SandyServiceClient): SandyService {
        const connection = this.core.connect(generateUuid(), client, problem => {
            const error = SandyServiceError(problem);
            // Only { code, message, hint } crosses to the browser: no backend stack or file paths.
            error.stack = '';
            return error;
        });
        return {
            ...connection,
            // The client is fixed per connection (the RPC handler passes it in); nothing to swap.
            setClient: () => undefined,
            getClient: () => client
        };
    }
}
