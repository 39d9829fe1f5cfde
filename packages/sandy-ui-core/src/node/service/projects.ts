import * as fs from 'fs';
import * as path from 'path';
import { AddProjectOutcome } from '../../common/service/service-protocol';
import { ProjectsStore } from '../projects/projects-store';
import { checkWorkspace } from '../projects/workspace-guard';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';
import { SnapshotPublisher } from './snapshots';

/** The stored projects list: adding (guarded, with sandy's word on its config files) and removing. */
export class ProjectsService {
    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly store: ProjectsStore,
        protected readonly snapshots: SnapshotPublisher
    ) { }

    async addProject(workspace: string): Promise<AddProjectOutcome> {
        let canonical: string;
        try {
            canonical = await checkWorkspace(workspace, this.ctx.home);
        } catch (e) {
            return { workspace, warnings: [], problem: this.ctx.problemOf(e) };
        }
        await this.store.add(canonical);
        const warnings = await this.validateWarnings(canonical);
        void this.snapshots.broadcast();
        return { workspace: canonical, warnings };
    }

    async removeProject(workspace: string): Promise<void> {
        await this.store.remove(workspace);
        void this.snapshots.broadcast();
    }

    /** `--validate-config` of the workspace files, as sentences; sandy only warns, it never blocks here. */
    async validateWarnings(workspace: string, forLaunch = false): Promise<string[]> {
        await this.discovery.ensureLocated();
        const located = this.discovery.located;
        if (!located) {
            return [];
        }
        const warnings: string[] = [];
        for (const name of ['config', '.secrets']) {
            const file = path.join(workspace, '.sandy', name);
            if (!fs.existsSync(file)) {
                continue;
            }
            try {
                const result = await this.discovery.client(located).validateConfig(file);
                for (const w of result.warnings) {
                    // At launch, privileged keys were just shown (and decided) in the approval view.
                    if (!(forLaunch && result.privileged_keys_requiring_approval.includes(w.key))) {
                        warnings.push(`${w.key}: ${w.message} (.sandy/${name})`);
                    }
                }
                if (result.unknown_keys.length) {
                    warnings.push(`Unknown keys in .sandy/${name} (sandy ignores them): ${result.unknown_keys.join(', ')}`);
                }
                if (result.approval_status === 'pending' && !forLaunch) {
                    warnings.push(`Privileged keys in .sandy/${name} need your approval; launching shows them for you to approve first.`);
                }
            } catch (e) {
                warnings.push(`Could not validate .sandy/${name}: ${this.ctx.problemOf(e).message}`);
            }
        }
        return [...new Set(warnings)];
    }
}
