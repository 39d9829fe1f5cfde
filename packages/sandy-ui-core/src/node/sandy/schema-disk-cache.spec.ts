import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parsePrintSchema } from '../../common/sandy/contract';
import { SandyServiceCore } from '../service/sandy-service';
import { fixturesRoot } from '../test/sandy-fixtures';
import { SchemaDiskCache, schemaVariant } from './schema-disk-cache';

const SCHEMA_FILE = () => path.join(fixturesRoot(), '01-print-schema', 'stdout.json');

describe('SchemaDiskCache: --print-schema once per sandy build (unit)', () => {
    let root: string;
    let cache: SchemaDiskCache;
    const schema = () => parsePrintSchema(fs.readFileSync(SCHEMA_FILE(), 'utf8'));
    const key = { fullVersion: '1.7.1-dev', mtimeMs: 1_700_000_000_123, size: 123_456 };
    const entries = () => fs.readdirSync(cache.dir).map(n => path.join(cache.dir, n));

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-schema-cache-')));
        cache = new SchemaDiskCache(path.join(root, '.sandy-ui', 'schema-cache'));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('a stored schema comes back for the same build only: version, size, mtime and environment variant each tell builds apart', async () => {
        expect(await cache.get(key)).to.equal(undefined);
        await cache.set(key, schema());
        expect(await cache.get(key)).to.deep.equal(schema());
        for (const other of [{ ...key, fullVersion: '1.7.1-dev-abc1234' }, { ...key, size: key.size + 1 }, { ...key, mtimeMs: key.mtimeMs + 1000 }, { ...key, variant: schemaVariant({ SANDY_ALLOW_WORKFLOW_EDIT: '1' }) }]) {
            expect(await cache.get(other), JSON.stringify(other)).to.equal(undefined);
        }
        expect(fs.statSync(cache.dir).mode & 0o777).to.equal(0o700);
        expect(fs.statSync(entries()[0]).mode & 0o777).to.equal(0o600);
    });

    it('attack: an entry swapped for a link, made readable by others, copied under another key or damaged is a miss, never a schema', async () => {
        await cache.set(key, schema());
        const [entry] = entries();
        const text = fs.readFileSync(entry, 'utf8');

        // A planted schema elsewhere, linked in place of the entry.
        const planted = path.join(root, 'planted.json');
        fs.writeFileSync(planted, text, { mode: 0o600 });
        fs.rmSync(entry);
        fs.symlinkSync(planted, entry);
        expect(await cache.get(key)).to.equal(undefined);

        fs.rmSync(entry);
        fs.writeFileSync(entry, text, { mode: 0o644 });
        expect(await cache.get(key), 'readable by others').to.equal(undefined);

        fs.chmodSync(entry, 0o600);
        expect(await cache.get(key)).to.deep.equal(schema());
        // The entry of one build under the name of another: its recorded key does not match.
        const other = { ...key, fullVersion: '9.9.9' };
        await cache.set(other, schema());
        const otherEntry = entries().find(e => e !== entry)!;
        fs.writeFileSync(otherEntry, text);
        expect(await cache.get(other)).to.equal(undefined);

        fs.writeFileSync(entry, text.slice(0, text.length / 2));
        expect(await cache.get(key), 'truncated').to.equal(undefined);
        fs.writeFileSync(entry, JSON.stringify({ key: JSON.parse(text).key, schema: { schema_version: 'one' } }));
        expect(await cache.get(key), 'not a schema').to.equal(undefined);
        // A FIFO would hang a plain read (and with it the IDE's start).
        fs.rmSync(entry);
        execFileSync('mkfifo', ['-m', '600', entry]);
        expect(await cache.get(key), 'a FIFO').to.equal(undefined);
    });

    it('keeps the newest eight builds', async () => {
        for (let i = 0; i < 11; i++) {
            await cache.set({ ...key, size: i }, schema());
        }
        expect(entries()).to.have.length(8);
    });

    it('a folder it cannot write costs nothing but the cache', async () => {
        fs.mkdirSync(path.dirname(cache.dir), { recursive: true });
        fs.writeFileSync(cache.dir, 'not a folder');
        await cache.set(key, schema());
        expect(await cache.get(key)).to.equal(undefined);
    });
});

describe('SandyServiceCore: the schema cache across starts (unit)', () => {
    let root: string;
    let service: SandyServiceCore | undefined;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-schema-starts-')));
    });
    afterEach(async () => {
        await service?.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    /** A sandy that answers discovery and --print-schema (the real 1.7.1 output), logging each --print-schema. */
    function stubSandy(): { file: string; log: string } {
        const dir = path.join(root, 'bin');
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, 'sandy');
        const log = path.join(root, 'print-schema.log');
        fs.writeFileSync(file, [
            '#!/bin/sh',
            'case "$1" in',
            '  --version) echo "sandy 1.7.1" ;;',
            '  --print-version) echo \'{"schema_version":1,"version":"1.7.1","commit":"","full_version":"1.7.1"}\' ;;',
            `  --print-schema) echo run >> '${log}'; cat '${SCHEMA_FILE()}' ;;`,
            '  *) exit 1 ;;',
            'esac',
            ''
        ].join('\n'), { mode: 0o755 });
        return { file, log };
    }

    async function start(home: string, bin: string): Promise<number | undefined> {
        await service?.dispose();
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY here'); },
            env: { HOME: home, PATH: `${path.dirname(bin)}:/usr/bin:/bin` },
            home,
            dataDir: path.join(root, 'ide-data')
        });
        const status = await service.configure({});
        expect(status.found).to.equal(true);
        return status.schemaVersion;
    }

    it('a second start of the same sandy runs no --print-schema; sandy updated in place is asked again', async () => {
        const home = path.join(root, 'home');
        fs.mkdirSync(home);
        const { file, log } = stubSandy();
        const runs = () => fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
        expect(await start(home, file)).to.equal(1);
        expect(runs()).to.equal(1);
        expect(await start(home, file)).to.equal(1);
        expect(runs(), 'the cached schema served the second start').to.equal(1);
        // The same version, updated in place (a -dev checkout): a new mtime.
        const later = new Date(Date.now() + 60_000);
        fs.utimesSync(file, later, later);
        expect(await start(home, file)).to.equal(1);
        expect(runs()).to.equal(2);
    });
});
