/**
 * `--print-schema` results, cached per sandy build. `full_version` alone is not enough: a developer
 * editing the sandy script changes neither version nor commit, so the executable's mtime and size are
 * part of the key. The schema also depends on sandy's environment (fx 01b), hence the optional variant.
 */
import { SandySchema, SandySchemaSchema } from './contract';
import fallbackSchemaJson from './fallback-schema.json';

/** What identifies one sandy build on disk. */
export interface SchemaCacheKeyInput {
    /** `--print-version`.full_version, or the `--version` line. */
    fullVersion: string;
    /** mtime of the resolved sandy executable (after following symlinks). */
    mtimeMs: number;
    size: number;
    /**
     * Anything in sandy's environment that changes its schema output, e.g. `SANDY_ALLOW_WORKFLOW_EDIT=1`
     * (removes `.github/workflows` from `protected_paths.dirs_always_mount`). Omit when none.
     */
    variant?: string;
}

/** A stable string key; JSON so that no version text can collide with a separator. */
export function schemaCacheKey(input: SchemaCacheKeyInput): string {
    const parts: Array<string | number> = [input.fullVersion, Math.trunc(input.mtimeMs), input.size];
    if (input.variant) {
        parts.push(input.variant);
    }
    return JSON.stringify(parts);
}

/** In-memory schema cache keyed by schemaCacheKey; bounded so a long session of sandy upgrades cannot grow it. */
export class SchemaCache {
    protected readonly entries = new Map<string, SandySchema>();

    constructor(protected readonly capacity = 8) { }

    get(key: SchemaCacheKeyInput): SandySchema | undefined {
        const k = schemaCacheKey(key);
        const hit = this.entries.get(k);
        if (hit) {
            // Re-insert: the Map's order is the eviction order (least recently used first).
            this.entries.delete(k);
            this.entries.set(k, hit);
        }
        return hit;
    }

    set(key: SchemaCacheKeyInput, schema: SandySchema): void {
        const k = schemaCacheKey(key);
        this.entries.delete(k);
        this.entries.set(k, schema);
        while (this.entries.size > this.capacity) {
            this.entries.delete(this.entries.keys().next().value!);
        }
    }

    has(key: SchemaCacheKeyInput): boolean {
        return this.entries.has(schemaCacheKey(key));
    }

    delete(key: SchemaCacheKeyInput): boolean {
        return this.entries.delete(schemaCacheKey(key));
    }

    clear(): void {
        this.entries.clear();
    }

    get size(): number {
        return this.entries.size;
    }
}

function deepFreeze<T>(value: T): T {
    if (value && typeof value === 'object' && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const v of Object.values(value)) {
            deepFreeze(v);
        }
    }
    return value;
}

/**
 * The schema of sandy 1.7.1-dev (fixture 01, captured from the real CLI), used when `--print-schema`
 * fails so the settings form still renders — always together with the loud "sandy-broken" notice.
 * Frozen: it is shared by every caller.
 */
export const BUNDLED_FALLBACK_SCHEMA: SandySchema = deepFreeze(SandySchemaSchema.parse(fallbackSchemaJson));
