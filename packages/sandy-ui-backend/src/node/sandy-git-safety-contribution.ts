import { injectable } from '@theia/core/shared/inversify';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { withGitSafety } from '@sandy-ui/core/node';

/**
 * Puts core's git safety settings into the backend's environment before any plugin host or terminal
 * starts, so the built-in git extension's automatic `git status` in a repository the agent planted
 * in its workspace cannot run that repository's `core.fsmonitor` program on the host.
 */
@injectable()
export class SandyGitSafetyContribution implements BackendApplicationContribution {
    initialize(): void {
        Object.assign(process.env, withGitSafety(process.env));
    }
}
