import { copyPlanText, planCopy, starterConfigText } from '../../common/config/starter-config';
import { SandyFolderPlan, SandyFolderSource } from '../../common/service/service-protocol';
import { createSandyFolder, readSandyFolder } from '../config/sandy-folder-creator';
import { STARTER_PLAN_LINES } from '../../common/host/labels';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';

/**
 * A project's `.sandy/` made on request (never on Add Project by itself): the schema's commented
 * starter, or another project's files as `planCopy` allows — secrets, privileged and weakening keys
 * held back unless asked, a Dockerfile never copied. The creator refuses an existing `.sandy` and any
 * symlink; both folders pass the workspace guard.
 */
export class SandyFolders {
    constructor(protected readonly ctx: ServiceContext, protected readonly discovery: SandyDiscovery) { }

    async plan(workspace: string, source: SandyFolderSource): Promise<SandyFolderPlan & { config: string; secrets?: string }> {
        const { schema } = this.discovery.schemaInput();
        if (source.kind === 'starter') {
            return { lines: STARTER_PLAN_LINES, secretsAvailable: false, config: starterConfigText(schema) };
        }
        const read = await readSandyFolder(source.from, { home: this.ctx.home, readSecrets: !!source.includeSecrets });
        const plan = planCopy(read, schema, { includeSecrets: !!source.includeSecrets });
        const config = plan.files.find(f => f.name === 'config')?.text ?? '';
        const secrets = plan.files.find(f => f.name === '.secrets')?.text;
        return { lines: copyPlanText(plan), secretsAvailable: read.secretsExists, config, ...(secrets !== undefined ? { secrets } : {}) };
    }

    async create(workspace: string, source: SandyFolderSource): Promise<SandyFolderPlan> {
        const { lines, secretsAvailable, config, secrets } = await this.plan(workspace, source);
        const { created } = await createSandyFolder(workspace, { config, ...(secrets !== undefined ? { secrets } : {}) }, { home: this.ctx.home });
        return { lines, secretsAvailable, created };
    }
}
