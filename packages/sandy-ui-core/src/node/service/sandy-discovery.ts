import { SandyError } from '../../common/sandy/errors';
import { SandySchema, SandyState } from '../../common/sandy/contract';
import { describeVerdict, evaluateCompat } from '../../common/sandy/compat';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import { SandyConfiguration, SandyStatus } from '../../common/service/service-protocol';
import { locateSandy, LocatedSandy } from '../sandy/locate';
import { SandyClient } from '../sandy/sandy-client';
import { ProcessSandyRunner } from '../sandy/runner';
import { buildSandyEnv, SandyEnvOptions } from '../sandy/env';
import { ServiceContext } from './service-context';
import { preflightSchemaInput } from '../approvals/launch-analysis';
import { SchemaDiskCache, schemaVariant } from '../sandy/schema-disk-cache';
import { onboardingDir } from '../onboarding/onboarding-store';
import * as path from 'path';

/** The schema's key lists as pre-flight takes them. */
export interface SchemaInput {
    schema: SandySchema;
    input: { privilegedKeys: string[]; passiveKeys: string[]; envOnlyKeys: string[]; keys: SandySchema['config']['privileged_keys'] };
}

/** At most one full `--print-state` (a `du` of every sandbox) per this long, however often the state is refreshed. */
export const FULL_STATE_MIN_INTERVAL_MS = 10 * 60_000;

/**
 * Which sandy the service uses and what it is: the host's configuration (sandy.path, the variables
 * the user lets through), the located executable, its `--print-schema` and the compat verdict, and
 * the whitelisted environment every sandy process of the service gets.
 */
export class SandyDiscovery {
    protected config: SandyConfiguration = {};
    protected current: LocatedSandy | undefined;
    protected currentSchema: SandySchema | undefined;
    protected status: SandyStatus = { found: false };
    protected locating: Promise<SandyStatus> | undefined;
    protected fullStateAt = -Infinity;
    /** Sandbox sizes (bytes) by name, from the last full `--print-state`. */
    protected sizes = new Map<string, number>();

    constructor(protected readonly ctx: ServiceContext) { }

    /** The located sandy, once {@link ensureLocated} found one. */
    get located(): LocatedSandy | undefined {
        return this.current;
    }

    /** sandy's own `--print-schema`; undefined when it did not answer (or no sandy was found). */
    get schema(): SandySchema | undefined {
        return this.currentSchema;
    }

    /** The user's settings as last configured (the session mode among them). */
    get configuration(): SandyConfiguration {
        return this.config;
    }

    get sandyStatus(): SandyStatus {
        return this.status;
    }

    async configure(config: SandyConfiguration): Promise<SandyStatus> {
        const changed = whereToFind(config) !== whereToFind(this.config);
        this.config = { ...config };
        if (changed) {
            this.current = undefined;
            this.locating = undefined;
        }
        return this.ensureLocated();
    }

    ensureLocated(): Promise<SandyStatus> {
        if (!this.locating) {
            this.locating = this.locate().finally(() => {
                // Keep a success cached; retry a failure on the next request (the user may have installed sandy).
                if (!this.status.found) {
                    this.locating = undefined;
                }
            });
        }
        return this.locating;
    }

    protected async locate(): Promise<SandyStatus> {
        // A configure() while this runs starts a newer locate: this one's result must not land
        // after it (the user's sandy.path would lose to the start-up search of PATH).
        const config = this.config;
        const superseded = () => whereToFind(config) !== whereToFind(this.config);
        const { logger } = this.ctx;
        try {
            const located = await locateSandy({ configuredPath: config.sandyPath, processEnv: this.ctx.processEnv, home: this.ctx.home, envOptions: this.envOptions() });
            if (superseded()) {
                return this.ensureLocated();
            }
            this.current = located;
            const client = this.client(located);
            let schemaVersion: number | undefined;
            let schemaFailed = false;
            try {
                const schema = await this.schemaOf(located, client);
                if (superseded()) {
                    return this.ensureLocated();
                }
                this.currentSchema = schema;
                schemaVersion = schema.schema_version;
            } catch (e) {
                if (superseded()) {
                    return this.ensureLocated();
                }
                schemaFailed = true;
                logger.warn(`sandy: --print-schema failed: ${this.ctx.problemOf(e).message}`);
            }
            const verdict = evaluateCompat({ sandyVersion: located.fullVersion, schemaVersion, schemaFailed });
            const compat = describeVerdict(verdict);
            logger.info(`sandy: ${located.path} ${located.fullVersion} — compat: ${compat.severity} ${compat.message}`);
            const cliFlags = schemaFailed ? undefined : this.currentSchema?.cli_flags.map(f => f.name);
            this.status = { found: true, path: located.path, fullVersion: located.fullVersion, schemaVersion, cliFlags, compat };
        } catch (e) {
            if (superseded()) {
                return this.ensureLocated();
            }
            this.current = undefined;
            const problem = this.ctx.problemOf(e);
            const candidates = (e as { candidates?: Array<{ path: string }> }).candidates;
            this.status = { found: false, problem, searched: candidates?.map(c => c.path) };
            logger.warn(`sandy: ${problem.message}`);
        }
        return this.status;
    }

    /** The schema cache of the spec, on disk in the IDE's `~/.sandy-ui` (shared by every window and host of the user). */
    protected get schemaCache(): SchemaDiskCache {
        return new SchemaDiskCache(path.join(onboardingDir(this.ctx.home, this.ctx.processEnv), 'schema-cache'));
    }

    /** `--print-schema` of this sandy build: from the cache when this very build (and environment) answered it before. */
    protected async schemaOf(located: LocatedSandy, client: SandyClient): Promise<SandySchema> {
        const key = { fullVersion: located.fullVersion, mtimeMs: located.mtimeMs, size: located.size, variant: schemaVariant(this.baseEnv()) };
        const cache = this.schemaCache;
        const cached = await cache.get(key);
        if (cached) {
            this.ctx.logger.info(`sandy: --print-schema of ${located.fullVersion} taken from the cache (${cache.dir})`);
            return cached;
        }
        const schema = await client.schema();
        await cache.set(key, schema);
        return schema;
    }

    /** A runner of this sandy for one-off commands (maintenance, fleet, `-p`): the same whitelisted environment as every other. */
    runner(located: LocatedSandy): ProcessSandyRunner {
        return new ProcessSandyRunner({ sandyPath: located.path, processEnv: this.ctx.processEnv, envOptions: this.envOptions() });
    }

    client(located: LocatedSandy): SandyClient {
        // The host's environment the service was given (not this process's): the same whitelist as every other sandy it runs.
        return SandyClient.forPath(located.path, { processEnv: this.ctx.processEnv, envOptions: this.envOptions() }, { fullVersion: located.fullVersion });
    }

    /** The whitelist plus what the user enabled in settings (sandy.passEnvironment). */
    envOptions(extra?: Record<string, string>): SandyEnvOptions {
        const enabled = this.config.passEnv ?? [];
        return {
            sandyVars: ['SANDY_HOME', ...enabled.filter(n => n.startsWith('SANDY_'))],
            credentialVars: enabled.filter(n => !n.startsWith('SANDY_')),
            extra
        };
    }

    /** The environment a sandy process gets: the whitelist of the host's environment, nothing else. */
    baseEnv(extra?: Record<string, string>): Record<string, string> {
        return buildSandyEnv(this.ctx.processEnv, this.envOptions(extra));
    }

    /** `$SANDY_HOME` as the launched sandy will see it. */
    get launchSandyHome(): string {
        return this.baseEnv().SANDY_HOME || this.ctx.sandyHome;
    }

    /** sandy's schema, or the bundled one when sandy did not answer; with the key lists pre-flight takes. */
    schemaInput(): SchemaInput {
        const schema = this.currentSchema ?? BUNDLED_FALLBACK_SCHEMA;
        return { schema, input: preflightSchemaInput(schema) };
    }

    /**
     * One `--print-state light` of the located sandy: what the state poller runs. The sandbox sizes of the
     * last full read ({@link readFullState}) are carried into it, since light mode reports none.
     */
    async fetchState(): Promise<SandyState> {
        await this.ensureLocated();
        if (!this.current) {
            throw new SandyError('not-found', this.status.problem?.message ?? 'sandy was not found.', this.status.problem?.hint ?? '');
        }
        const state = await this.client(this.current).state('light');
        return { ...state, sandboxes: state.sandboxes.map(s => s.size_bytes == null && this.sizes.has(s.name) ? { ...s, size_bytes: this.sizes.get(s.name)! } : s) };
    }

    /**
     * A full `--print-state` (a `du` of every sandbox) for the sandbox sizes, at most once per
     * {@link FULL_STATE_MIN_INTERVAL_MS}; false when none was due or it failed. Run beside the polls,
     * never in their way: a slow `du` holds up no snapshot.
     */
    async readFullState(now = Date.now()): Promise<boolean> {
        if (!this.current || now - this.fullStateAt < FULL_STATE_MIN_INTERVAL_MS) {
            return false;
        }
        this.fullStateAt = now;
        try {
            const state = await this.client(this.current).state('full');
            this.sizes = new Map(state.sandboxes.flatMap(s => typeof s.size_bytes === 'number' ? [[s.name, s.size_bytes] as const] : []));
            return true;
        } catch (e) {
            this.ctx.logger.warn(`sandy: the full --print-state (sandbox sizes) failed: ${this.ctx.problemOf(e).message}`);
            return false;
        }
    }
}

/** The part of the configuration that decides which sandy runs and what it sees: a change finds sandy again. */
function whereToFind(config: SandyConfiguration): string {
    return JSON.stringify({ sandyPath: config.sandyPath, passEnv: config.passEnv });
}
