import { envSetKeysFrom } from '../../common/config/preflight';
import { SettingsEdits, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../../common/settings/settings-dto';
import { describeValidateResult } from '../../common/settings/settings-results';
import { addSecretsToGitignore, gitignoreWarning, readSettingsScope, saveSettingsScope, scopePaths } from '../config/settings-io';
import { checkWorkspace } from '../projects/workspace-guard';
import { ServiceContext } from './service-context';
import { SandyDiscovery } from './sandy-discovery';
import { SnapshotPublisher } from './snapshots';

/** The settings editor's backend: both scopes' files read against sandy's schema, saved, validated by sandy. */
export class SettingsService {
    constructor(
        protected readonly ctx: ServiceContext,
        protected readonly discovery: SandyDiscovery,
        protected readonly snapshots: SnapshotPublisher
    ) { }

    async getSettings(workspace?: string): Promise<SettingsSnapshot> {
        await this.discovery.ensureLocated();
        const { schema, input } = this.discovery.schemaInput();
        const status = this.discovery.sandyStatus;
        const canonical = workspace ? await checkWorkspace(workspace, this.ctx.home) : undefined;
        const sandyHome = this.discovery.launchSandyHome;
        const schemaSource = this.discovery.schema ? 'sandy' : status.found ? 'fallback' : 'missing';
        return {
            schema,
            schemaSource,
            sandyProblem: schemaSource === 'sandy' ? undefined : schemaSource === 'missing'
                ? { message: status.problem?.message ?? 'sandy was not found.', hint: status.problem?.hint }
                : { message: `sandy ${status.fullVersion ?? ''} did not answer --print-schema; the bundled schema of sandy 1.7.1 is used.`, hint: `${this.ctx.logHint ?? 'See the log.'} Update sandy if it is older than 0.12.` },
            scopes: {
                project: canonical ? await readSettingsScope(scopePaths('project', { workspace: canonical, sandyHome }), schema) : undefined,
                global: await readSettingsScope(scopePaths('global', { sandyHome }), schema)
            },
            workspace: canonical,
            gitignoreWarning: canonical ? await gitignoreWarning(canonical) : undefined,
            envSet: envSetKeysFrom(this.discovery.baseEnv(), input)
        };
    }

    async saveSettings(scope: SettingsScope, workspace: string | undefined, edits: SettingsEdits): Promise<SettingsSaveResult> {
        try {
            const canonical = workspace ? await checkWorkspace(workspace, this.ctx.home) : undefined;
            const paths = scopePaths(scope, { workspace: canonical, sandyHome: this.discovery.launchSandyHome });
            const { written, mismatches, modeFixes } = await saveSettingsScope(paths, edits);
            if (mismatches.length) {
                this.ctx.logger.warn(`sandy settings: read-back mismatch after saving ${scope} scope: ${mismatches.join(', ')}`);
            }
            const validateVerdict: string[] = [];
            await this.discovery.ensureLocated();
            const located = this.discovery.located;
            if (located) {
                for (const file of written) {
                    try {
                        validateVerdict.push(...describeValidateResult(await this.discovery.client(located).validateConfig(file)));
                    } catch (e) {
                        validateVerdict.push(`Could not validate ${file}: ${this.ctx.problemOf(e).message}`);
                    }
                }
            }
            void this.snapshots.broadcast();
            return { ok: true, validateVerdict, mismatches, modeFixes };
        } catch (e) {
            const problem = this.ctx.problemOf(e);
            return { ok: false, error: { message: problem.message, hint: (e as { hint?: string }).hint ?? problem.hint } };
        }
    }

    async addSecretsToGitignore(workspace: string): Promise<void> {
        await addSecretsToGitignore(await checkWorkspace(workspace, this.ctx.home));
    }
}
