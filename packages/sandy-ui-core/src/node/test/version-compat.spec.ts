import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import {
    classifySandboxVersion, compareSandyVersions, isCoreVersionBelow, isVersionAtLeast, parseSandyVersion, stripCommitSuffix
} from '../../common/sandy/version';
import {
    CompatVerdict, describeVerdict, evaluateCompat, SANDY_KNOWN_MAJOR, SANDY_MIN_VERSION, SUPPORTED_SCHEMA_VERSIONS, supportsIntrospection, supportsPrintVersion,
    UI_VERSION
} from '../../common/sandy/compat';
import { parsePrintSchema, parsePrintState, parsePrintVersion, SandyState } from '../../common/sandy/contract';
import { analyzePreflight, classifySandboxCompat } from '../../common/config/preflight';
import { deriveProjects } from '../../common/projects/project-state';
import { sha256Hex } from '../approvals/preflight';
import { loadFixture } from './sandy-fixtures';

describe('version (unit)', () => {
    it('parses sandy versions and full_versions', () => {
        expect(parseSandyVersion('1.7.1-dev')).to.deep.include({ major: 1, minor: 7, patch: 1, prerelease: ['dev'], commit: undefined });
        expect(parseSandyVersion('0.12.0')).to.deep.include({ major: 0, minor: 12, patch: 0, prerelease: [] });
        expect(parseSandyVersion('1.7.1-dev-abc1234')).to.deep.include({ prerelease: ['dev'], commit: 'abc1234' });
        expect(parseSandyVersion('1.7.1-abc1234')).to.deep.include({ prerelease: [], commit: 'abc1234' });
        expect(parseSandyVersion('1.0.0-rc2')).to.deep.include({ prerelease: ['rc2'], commit: undefined });
        expect(parseSandyVersion('v1.2')).to.deep.include({ major: 1, minor: 2, patch: 0 });
        expect(parseSandyVersion('garbage')).to.equal(undefined);
        expect(parseSandyVersion('')).to.equal(undefined);
    });

    it('strips a known commit exactly, even one that does not look like hex', () => {
        expect(parseSandyVersion('1.7.1-dev-local', 'local')).to.deep.include({ prerelease: ['dev'], commit: 'local' });
        expect(stripCommitSuffix('1.7.1-dev-abc1234')).to.equal('1.7.1-dev');
        expect(stripCommitSuffix('1.7.1-dev')).to.equal('1.7.1-dev');
    });

    it('orders by semver precedence, commit ignored', () => {
        expect(compareSandyVersions('1.7.1-dev', '1.7.1')).to.equal(-1);
        expect(compareSandyVersions('1.7.1', '1.7.1-dev')).to.equal(1);
        expect(compareSandyVersions('1.7.0', '1.7.1-dev')).to.equal(-1);
        expect(compareSandyVersions('0.12.0', '0.9.9')).to.equal(1);
        expect(compareSandyVersions('1.7.1-dev-abc1234', '1.7.1-dev')).to.equal(0);
        expect(compareSandyVersions('1.0.0-rc1', '1.0.0-rc2')).to.equal(-1);
        expect(compareSandyVersions('1.0.0-rc.2', '1.0.0-rc.10')).to.equal(-1);
        expect(compareSandyVersions('1.0.0-1', '1.0.0-alpha')).to.equal(-1);
        expect(compareSandyVersions('1.0.0-alpha', '1.0.0-alpha.1')).to.equal(-1);
        expect(compareSandyVersions('x', '1.0.0')).to.equal(undefined);
        expect(isVersionAtLeast('1.7.1-dev', '1.7.0')).to.equal(true);
        expect(isVersionAtLeast('0.15.2', '1.0.0')).to.equal(false);
    });

    it('mirrors sandy\'s _ver_lt for the compat floor (suffix dropped)', () => {
        expect(isCoreVersionBelow('0.7.9', '0.7.10')).to.equal(true);
        expect(isCoreVersionBelow('0.7.10-dev', '0.7.10')).to.equal(false);
        expect(isCoreVersionBelow('0.7.10', '0.7.10')).to.equal(false);
        expect(isCoreVersionBelow('1.0', '0.7.10')).to.equal(false);
        expect(classifySandboxVersion('0.7.9', '0.7.10')).to.equal('below-floor');
        expect(classifySandboxVersion('1.7.1-dev', '0.7.10')).to.equal('ok');
        expect(classifySandboxVersion('', '0.7.10')).to.equal('unknown');
        expect(classifySandboxVersion(undefined, '0.7.10')).to.equal('unknown');
        expect(classifySandboxVersion('1.7', '0.7.10')).to.equal('invalid');
    });
});

describe('compat (unit)', () => {
    const fixtureVersion = parsePrintVersion(loadFixture('02-print-version').stdout).version;
    const fixtureSchema = parsePrintSchema(loadFixture('01-print-schema').stdout).schema_version;

    it('declares what the spec says', () => {
        expect(SANDY_MIN_VERSION).to.equal('1.0.0');
        expect(SUPPORTED_SCHEMA_VERSIONS).to.deep.equal([1, 2, 3, 4]);
        expect(SANDY_KNOWN_MAJOR).to.equal(2);
    });

    it('UI_VERSION is the package version', () => {
        const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
        expect(UI_VERSION).to.equal(pkg.version);
    });

    it('the captured sandy 1.7.1 is supported and silent', () => {
        const v = evaluateCompat({ sandyVersion: fixtureVersion, schemaVersion: fixtureSchema });
        expect(v).to.deep.equal({ kind: 'supported', sandyVersion: '1.7.1-dev', schemaVersion: 1 });
        expect(describeVerdict(v).severity).to.equal('none');
    });

    const cases: Array<[string, Parameters<typeof evaluateCompat>[0], CompatVerdict['kind'], string]> = [
        ['nothing known', {}, 'sandy-missing', 'info'],
        ['print-schema failed', { sandyVersion: '1.7.1', schemaFailed: true }, 'sandy-broken', 'warning'],
        ['print-schema failed, version unknown', { schemaFailed: true }, 'sandy-broken', 'warning'],
        ['older than the floor', { sandyVersion: '0.15.2', schemaVersion: 1 }, 'too-old', 'error'],
        ['old and schema failed: too-old wins', { sandyVersion: '0.9.0', schemaFailed: true }, 'too-old', 'error'],
        ['rc of the floor release', { sandyVersion: '1.0.0-rc2' }, 'too-old', 'error'],
        ['exactly the floor', { sandyVersion: '1.0.0', schemaVersion: 1 }, 'supported', 'none'],
        ['newer sandy, same schema', { sandyVersion: '1.9.0-abcdef0', schemaVersion: 1 }, 'supported', 'none'],
        ['a new major with a supported schema', { sandyVersion: '2.0.0', schemaVersion: 1 }, 'supported', 'none'],
        ['version known, schema not yet', { sandyVersion: '1.7.1-dev' }, 'supported', 'none'],
        ['unparseable version', { sandyVersion: 'nightly', schemaVersion: 1 }, 'supported', 'none'],
        ['sandy 2.0.0, schema 2', { sandyVersion: '2.0.0', schemaVersion: 2 }, 'supported', 'none'],
        ['sandy 2.2.0, schema 3', { sandyVersion: '2.2.0', schemaVersion: 3 }, 'supported', 'none'],
        ['sandy 2.7.1, schema 4 (the reference extension\'s hotfix)', { sandyVersion: '2.7.1', schemaVersion: 4 }, 'supported', 'none'],
        ['sandy 2.8.0-dev, schema 4', { sandyVersion: '2.8.0-dev-f585240', schemaVersion: 4 }, 'supported', 'none'],
        ['schema one past max, same major', { sandyVersion: '2.9.0', schemaVersion: 5 }, 'newer-schema', 'warning'],
        ['schema one past max, version unknown', { schemaVersion: 5 }, 'newer-schema', 'warning'],
        ['several schemas past max within a known major: still a warning', { sandyVersion: '2.12.0', schemaVersion: 7 }, 'newer-schema', 'warning'],
        ['schema one past max on a new major', { sandyVersion: '3.0.0', schemaVersion: 5 }, 'incompatible', 'error'],
        ['schema 99 on a new major', { sandyVersion: '3.1.0', schemaVersion: 99 }, 'incompatible', 'error'],
        ['a new major with a supported schema', { sandyVersion: '3.0.0', schemaVersion: 4 }, 'supported', 'none'],
        ['schema older than any supported', { sandyVersion: '1.2.0', schemaVersion: 0 }, 'incompatible', 'error']
    ];
    for (const [title, input, kind, severity] of cases) {
        it(`${title} → ${kind} (${severity})`, () => {
            const verdict = evaluateCompat(input);
            expect(verdict.kind).to.equal(kind);
            const d = describeVerdict(verdict);
            expect(d.kind).to.equal(kind);
            expect(d.severity).to.equal(severity);
            expect(d.message).to.be.a('string').and.not.equal('');
            // Every non-silent verdict tells the user what to do.
            if (severity !== 'none') {
                expect(d.action).to.be.a('string').and.not.equal('');
            }
        });
    }

    it('messages carry the numbers the user needs', () => {
        expect(describeVerdict(evaluateCompat({ sandyVersion: '0.15.2' })).message)
            .to.equal('sandy 0.15.2 found — sandy-ui requires sandy ≥ 1.0.0.');
        expect(describeVerdict(evaluateCompat({ sandyVersion: '2.9.0', schemaVersion: 5 })).message)
            .to.contain('(v5) is newer than sandy-ui supports (v4)');
        const major = evaluateCompat({ sandyVersion: '3.0.0', schemaVersion: 5 });
        expect(major).to.deep.include({ reason: 'sandy-major', maxSupported: 4 });
        expect(describeVerdict(major).message).to.contain('sandy 3.0.0 is a new major release with config schema v5');
    });

    it('--print-version is only probed on sandy ≥ 1.7.0', () => {
        expect(supportsPrintVersion('1.7.0')).to.equal(true);
        expect(supportsPrintVersion(fixtureVersion)).to.equal(true);
        expect(supportsPrintVersion('1.7.0-rc1')).to.equal(false);
        expect(supportsPrintVersion('1.6.0-abcdef1')).to.equal(false);
        expect(supportsPrintVersion('nightly')).to.equal(false);
    });

    it('introspection flags from sandy 0.12.0 on; a version that does not parse is asked (client and doctor alike)', () => {
        expect(supportsIntrospection('0.12.0')).to.equal(true);
        expect(supportsIntrospection(' 0.12.0-abcdef1 ')).to.equal(true);
        expect(supportsIntrospection('0.11.3')).to.equal(false);
        expect(supportsIntrospection('0.12.0-rc1')).to.equal(false);
        // Fails closed: an unrecognised version might be an old sandy, where the flag would launch it.
        expect(supportsIntrospection('nightly')).to.equal(false);
        expect(supportsIntrospection('0.11.3_rc1')).to.equal(false);
    });
});

/**
 * The launch gate (pre-flight: "sandy will refuse this sandbox") and the project's state icon (stale
 * when below the floor) read the same `created_version` from `--print-state`. They must reach one
 * verdict, the one sandy's launcher reaches (`head -n1 | tr -d '[:space:]'`, then `_ver_lt`).
 */
describe('sandbox compat: one verdict for the launch gate and the state icon (unit)', () => {
    const schema = parsePrintSchema(loadFixture('01-print-schema').stdout);
    const floor = schema.sandy.sandbox_min_compat;
    const edge = parsePrintState(loadFixture('55-print-state-full-edge-cases').stdout);
    const old = edge.sandboxes.find(s => s.name === 'edge-old-01b7edd5')!;
    const running = '1.7.1-dev';

    /** `--print-state` drops trailing newlines only, so everything else reaches both paths as is. */
    const cases: [createdVersion: string, launcher: 'ok' | 'below-floor' | 'unknown' | 'invalid'][] = [
        ['0.7.9', 'below-floor'],
        [' 0.7.9', 'below-floor'],
        ['0.7.9 ', 'below-floor'],
        ['\t0.7.9', 'below-floor'],
        ['0.7.9\r', 'below-floor'],
        ['0.7.9\nsecond line', 'below-floor'],
        ['0.7.9 \v\f', 'below-floor'],
        ['0.7.9-dev', 'below-floor'],
        [' 0.7.9-dev\r', 'below-floor'],
        ['0.7.9.1', 'below-floor'],
        ['0.7.10-dev', 'ok'],
        ['0.7.10 ', 'ok'],
        [' 1.7.1-dev-abc1234', 'ok'],
        ['0 .7.9', 'below-floor'],
        ['0.7', 'invalid'],
        ['0.7.', 'invalid'],
        [' 1 ', 'invalid'],
        ['v0.7.9', 'invalid'],
        ['0.7.x', 'invalid'],
        ['0.7.9\u00a0', 'invalid'],
        ['', 'unknown'],
        [' ', 'unknown'],
        ['\r', 'unknown'],
        ['unknown', 'unknown'],
        [' unknown\t', 'unknown'],
        ['\n0.7.9', 'unknown']
    ];

    function iconOf(createdVersion: string) {
        const state: SandyState = { ...edge, sandboxes: [{ ...old, created_version: createdVersion, last_used_version: running, lock_held: false }], running_containers: [] };
        const [project] = deriveProjects({ state, sandyVersion: running, sandboxMinCompat: floor, agents: schema.agents });
        return project;
    }

    for (const [createdVersion, launcher] of cases) {
        it(`${JSON.stringify(createdVersion)}: ${launcher} on both paths`, () => {
            const gate = analyzePreflight({
                workspacePath: '/w', sandyHome: '/h/.sandy', schema: { privilegedKeys: [] },
                sandbox: { createdVersion, sandboxMinCompat: floor }
            }, sha256Hex);
            expect(gate.sandboxCompat?.status, 'launch gate').to.equal(launcher);
            expect(classifySandboxCompat({ createdVersion, sandboxMinCompat: floor }).status).to.equal(launcher);
            expect(classifySandboxVersion(createdVersion, floor), 'icon classifier').to.equal(launcher);
            const icon = iconOf(createdVersion);
            expect(icon.belowMinCompat, 'icon').to.equal(gate.blocking);
            expect(icon.state, 'icon state').to.equal(launcher === 'below-floor' ? 'stale' : 'current');
        });
    }
});
