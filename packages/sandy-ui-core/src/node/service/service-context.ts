import type { SandyProblem } from '../../common/service/service-protocol';
import { toProblem } from '../../common/service/service-protocol';

/** The host's logger (Theia's named ILogger, a VS Code output channel): three levels are enough. */
export interface ServiceLogger {
    info(message: string): void;
    warn(message: string): void;
    error(message: string): void;
}

/**
 * What every part of {@link SandyServiceCore} shares: where it runs, how it logs, how a failure
 * becomes a {@link SandyProblem}. Built once by the core, handed to each module.
 */
export class ServiceContext {
    constructor(
        readonly logger: ServiceLogger,
        readonly home: string,
        readonly sandyHome: string,
        protected readonly env: NodeJS.ProcessEnv | undefined,
        /** Where "see the log" points a user, e.g. 'See the backend log for details.'. */
        readonly logHint: string | undefined
    ) { }

    /** The environment sandy's whitelist is taken from; read at each use (default `process.env`). */
    get processEnv(): NodeJS.ProcessEnv {
        return this.env ?? process.env;
    }

    problemOf(e: unknown): SandyProblem {
        return toProblem(e, this.logHint);
    }
}
