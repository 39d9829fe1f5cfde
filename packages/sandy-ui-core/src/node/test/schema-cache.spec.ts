import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { parsePrintSchema, SandySchema } from '../../common/sandy/contract';
import { BUNDLED_FALLBACK_SCHEMA, SchemaCache, schemaCacheKey } from '../../common/sandy/schema-cache';
import { loadFixture } from './sandy-fixtures';

describe('schema-cache (unit)', () => {
    const fixture = parsePrintSchema(loadFixture('01-print-schema').stdout);

    it('the bundled fallback is fixture 01, byte for byte', () => {
        const bundled = fs.readFileSync(path.resolve(__dirname, '../../../src/common/sandy/fallback-schema.json'), 'utf8');
        expect(bundled).to.equal(loadFixture('01-print-schema').stdout);
        expect(BUNDLED_FALLBACK_SCHEMA).to.deep.equal(fixture);
    });

    it('the bundled fallback is frozen all the way down', () => {
        expect(Object.isFrozen(BUNDLED_FALLBACK_SCHEMA)).to.equal(true);
        expect(Object.isFrozen(BUNDLED_FALLBACK_SCHEMA.config.passive_keys[0])).to.equal(true);
        expect(() => { (BUNDLED_FALLBACK_SCHEMA.config.passive_keys as unknown[]).push({}); }).to.throw(TypeError);
    });

    it('keys differ when any part differs, and cannot collide through separators', () => {
        const k = { fullVersion: '1.7.1-dev', mtimeMs: 1700000000123.5, size: 400000 };
        expect(schemaCacheKey(k)).to.equal(schemaCacheKey({ ...k, mtimeMs: 1700000000123.9 }));
        expect(schemaCacheKey(k)).to.not.equal(schemaCacheKey({ ...k, fullVersion: '1.7.1-dev-abc1234' }));
        expect(schemaCacheKey(k)).to.not.equal(schemaCacheKey({ ...k, mtimeMs: k.mtimeMs + 1000 }));
        expect(schemaCacheKey(k)).to.not.equal(schemaCacheKey({ ...k, size: k.size + 1 }));
        expect(schemaCacheKey(k)).to.not.equal(schemaCacheKey({ ...k, variant: 'SANDY_ALLOW_WORKFLOW_EDIT=1' }));
        expect(schemaCacheKey({ fullVersion: 'a","1', mtimeMs: 2, size: 3 })).to.not.equal(schemaCacheKey({ fullVersion: 'a', mtimeMs: 1, size: 2 }));
    });

    it('get/set/has/delete by key', () => {
        const cache = new SchemaCache();
        const k = { fullVersion: '1.7.1-dev', mtimeMs: 1, size: 2 };
        expect(cache.get(k)).to.equal(undefined);
        cache.set(k, fixture);
        expect(cache.get({ ...k })).to.equal(fixture);
        expect(cache.has(k)).to.equal(true);
        expect(cache.get({ ...k, size: 3 })).to.equal(undefined);
        expect(cache.delete(k)).to.equal(true);
        expect(cache.size).to.equal(0);
    });

    it('evicts the least recently used entry beyond capacity', () => {
        const cache = new SchemaCache(2);
        const key = (n: number) => ({ fullVersion: `1.${n}.0`, mtimeMs: n, size: n });
        const schemas: SandySchema[] = [1, 2, 3].map(n => ({ ...fixture, schema_version: n }));
        cache.set(key(1), schemas[0]);
        cache.set(key(2), schemas[1]);
        cache.get(key(1));
        cache.set(key(3), schemas[2]);
        expect(cache.size).to.equal(2);
        expect(cache.has(key(2))).to.equal(false);
        expect(cache.get(key(1))).to.equal(schemas[0]);
        expect(cache.get(key(3))).to.equal(schemas[2]);
        cache.clear();
        expect(cache.size).to.equal(0);
    });
});
