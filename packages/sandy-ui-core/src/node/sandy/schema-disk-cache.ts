import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { parsePrintSchema, SandySchema } from '../../common/sandy/contract';
import { SchemaCacheKeyInput, schemaCacheKey } from '../../common/sandy/schema-cache';
import { writeFileAtomic } from '../config/config-io';
import { readPrivateFileAsync } from '../host/private-file';

/** A schema is about 50 kB (sandy 2.7.1); anything far larger is not one of ours. */
const MAX_ENTRY_BYTES = 2 * 1024 * 1024;
/** Entries kept: a few sandy builds (an upgrade, a dev checkout beside a release) and their variants. */
const MAX_ENTRIES = 8;

interface Entry {
    key: string;
    schema: unknown;
}

/**
 * The spec's schema cache, on disk: `sandy --print-schema` (seconds, up to twelve under load) is asked
 * once per sandy build, not at every start of every window. Keyed by {@link schemaCacheKey}: sandy's
 * full version and its executable's size and mtime (a `-dev` install reports the same version for every
 * commit), and the sandy variables of its environment that change the schema. The folder is the IDE's own
 * (`~/.sandy-ui/schema-cache`, 0700): an entry is read only if it is a regular file of this user that no
 * one else can read, carries the key asked for, and parses as a schema, so a stale, swapped or damaged
 * entry is a miss (sandy is asked again), never a wrong form.
 */
export class SchemaDiskCache {
    constructor(readonly dir: string) { }

    protected file(key: string): string {
        return path.join(this.dir, `${crypto.createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
    }

    async get(input: SchemaCacheKeyInput): Promise<SandySchema | undefined> {
        const key = schemaCacheKey(input);
        const text = await readPrivateFileAsync(this.file(key), MAX_ENTRY_BYTES, { ownerOnly: true });
        if (text === undefined) {
            return undefined;
        }
        try {
            const entry = JSON.parse(text) as Partial<Entry> | null;
            if (!entry || entry.key !== key) {
                return undefined;
            }
            return parsePrintSchema(JSON.stringify(entry.schema));
        } catch {
            return undefined;
        }
    }

    /** Best effort: a cache that cannot be written costs the next start a `--print-schema`, nothing else. */
    async set(input: SchemaCacheKeyInput, schema: SandySchema): Promise<void> {
        const key = schemaCacheKey(input);
        try {
            await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
            const entry: Entry = { key, schema };
            await writeFileAtomic(this.file(key), JSON.stringify(entry), { mode: 0o600 });
            await this.prune();
        } catch {
            // Not cached.
        }
    }

    /** Only the newest {@link MAX_ENTRIES} entries stay. */
    protected async prune(): Promise<void> {
        const names = (await fs.promises.readdir(this.dir)).filter(n => /^[0-9a-f]{32}\.json$/.test(n));
        if (names.length <= MAX_ENTRIES) {
            return;
        }
        const dated = await Promise.all(names.map(async n => ({ n, t: (await fs.promises.lstat(path.join(this.dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
        dated.sort((a, b) => b.t - a.t);
        await Promise.all(dated.slice(MAX_ENTRIES).map(d => fs.promises.unlink(path.join(this.dir, d.n)).catch(() => undefined)));
    }
}

/** The sandy variables of sandy's environment, as a cache key variant (they can change its schema, e.g. SANDY_ALLOW_WORKFLOW_EDIT). */
export function schemaVariant(env: Readonly<Record<string, string | undefined>>): string | undefined {
    const vars = Object.keys(env).filter(k => k.startsWith('SANDY_') && env[k] !== undefined).sort().map(k => [k, env[k]]);
    return vars.length ? JSON.stringify(vars) : undefined;
}
