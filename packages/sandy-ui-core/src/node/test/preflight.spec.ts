/**
 * Pre-flight analysis against approval files written by the real sandy 1.7.1 (fixtures 30, 36, 37,
 * 38) and the validator outputs that disagree with them (12, 13a/b, 15b/c, 20c-e).
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ConfigKeyLike } from '../../common/config/config-file';
import {
    analyzePreflight, approvalSetLines, classifySandboxCompat, envSetKeysFrom, findWorldOpenLanEntries, PreflightInput,
    PreflightSchemaInput, sandyHomeFromEnv, ValidateConfigResultLike
} from '../../common/config/preflight';
import { isCoreVersionBelow } from '../../common/sandy/version';
import { approvalSetHash, runPreflight, sha256Hex, valueHashesFor, workspaceHash16 } from '../approvals/preflight';
import { fixturesRoot } from './sandy-fixtures';


const FIXTURES = fixturesRoot();

function fixture(prefix: string, file: string): string | undefined {
    const dir = fs.readdirSync(FIXTURES).find(d => d.startsWith(prefix + '-'))!;
    const p = path.join(FIXTURES, dir, file);
    return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined;
}

function validateResult(prefix: string): ValidateConfigResultLike {
    return JSON.parse(fixture(prefix, 'stdout.json')!);
}

const schemaJson = JSON.parse(fs.readFileSync(path.join(FIXTURES, '01-print-schema', 'stdout.json'), 'utf8'));
const names = (list: ConfigKeyLike[]) => list.map(k => k.name);
const SCHEMA: PreflightSchemaInput = {
    privilegedKeys: names(schemaJson.config.privileged_keys),
    passiveKeys: names(schemaJson.config.passive_keys),
    envOnlyKeys: names(schemaJson.config.env_only_keys),
    keys: [...schemaJson.config.privileged_keys, ...schemaJson.config.passive_keys, ...schemaJson.config.env_only_keys]
};

const WS = '/work/ws';
const HOME = '/home/u/.sandy';

function input(over: Partial<PreflightInput>): PreflightInput {
    return { workspacePath: WS, sandyHome: HOME, schema: SCHEMA, ...over };
}

const wsConfig = (text: string | undefined) => ({ path: `${WS}/.sandy/config`, text });
const wsSecrets = (text: string | undefined) => ({ path: `${WS}/.sandy/.secrets`, text });
const firstLine = (text: string) => text.split('\n')[0];

describe('preflight (unit)', () => {

    describe('launcher approval hash = the hash real sandy wrote', () => {
        it('fixture 30: config with privileged keys and a weakening value', () => {
            const approval = fixture('30', 'approval-file.list')!;
            const report = analyzePreflight(input({ workspaceConfig: wsConfig(fixture('30', 'input.config')), approvalFileText: approval }), sha256Hex);
            expect(report.approvalSetHash).to.equal(firstLine(approval));
            expect(report.approvalStatus).to.equal('approved');
            expect(report.approvalSet).to.deep.equal([
                'SANDY_ALLOW_HOSTS=internal.example.com,*.corp.example', 'SANDY_ALLOW_WORKFLOW_EDIT=1', 'SANDY_SSH=agent'
            ]);
            expect(report.pendingPrivileged.map(p => [p.key, p.line, p.reason, p.source, p.isSecret])).to.deep.equal([
                ['SANDY_SSH', 3, 'privileged-key', 'config', false],
                ['SANDY_ALLOW_HOSTS', 4, 'privileged-key', 'config', false],
                ['SANDY_ALLOW_WORKFLOW_EDIT', 5, 'weakening-value', 'config', false]
            ]);
            expect(report.pendingPrivileged[0]).to.deep.include({ rawLine: 'SANDY_SSH=agent', value: 'agent', filePath: `${WS}/.sandy/config` });
            expect(report.approvedKeys).to.deep.equal(['SANDY_ALLOW_HOSTS', 'SANDY_ALLOW_WORKFLOW_EDIT', 'SANDY_SSH']);
            expect(report.blocking).to.equal(false);
        });

        it('fixture 36: the union of .sandy/config and .sandy/.secrets', () => {
            const approval = fixture('36', 'approval-file.list')!;
            const report = analyzePreflight(input({
                workspaceConfig: wsConfig(fixture('36', 'input.config')),
                workspaceSecrets: wsSecrets(fixture('36', 'input.secrets')),
                approvalFileText: approval,
                validateResults: [validateResult('20c'), validateResult('20d')]
            }), sha256Hex);
            expect(report.approvalSetHash).to.equal(firstLine(approval));
            expect(report.approvalStatus).to.equal('approved');
            const secret = report.pendingPrivileged.find(p => p.key === 'ANTHROPIC_API_KEY')!;
            expect(secret).to.deep.include({ source: 'secrets', isSecret: true, line: 1, filePath: `${WS}/.sandy/.secrets` });
            // The validator says pending for each file alone (fx 20c, 20d).
            // (The fixtures' approval_file_path holds placeholders, so a path note is expected too.)
            const statusNotes = report.validatorNotes.filter(n => / says "/.test(n));
            expect(statusNotes).to.have.length(2);
            expect(statusNotes[0]).to.match(/"pending".*"approved".*together/);
        });

        it('fixture 37: CRLF lines hash without their CR', () => {
            const approval = fixture('37', 'approval-file.list')!;
            const report = analyzePreflight(input({
                workspaceConfig: wsConfig(fixture('37', 'input.config')),
                approvalFileText: approval,
                validateResults: [validateResult('15c')]
            }), sha256Hex);
            expect(report.approvalSetHash).to.equal(firstLine(approval));
            expect(report.approvalStatus).to.equal('approved');
            expect(report.approvalSet).to.deep.equal(['SANDY_ALLOW_WORKFLOW_EDIT=1', 'SANDY_SSH=agent']);
            expect(report.validatorNotes.join(' ')).to.match(/CR of CRLF/).and.match(/does not list SANDY_ALLOW_WORKFLOW_EDIT/);
        });

        it('fixture 38: a key set in the launch environment is skipped', () => {
            const approval = fixture('38', 'approval-file.list')!;
            const base = input({ workspaceConfig: wsConfig(fixture('38', 'input.config')), approvalFileText: approval });
            const report = analyzePreflight({ ...base, envSetKeys: ['ANTHROPIC_API_KEY'], validateResults: [validateResult('20e')] }, sha256Hex);
            expect(report.approvalSetHash).to.equal(firstLine(approval));
            expect(report.approvalStatus).to.equal('approved');
            expect(report.skippedForEnv.map(s => [s.key, s.line])).to.deep.equal([['ANTHROPIC_API_KEY', 2]]);
            expect(report.validatorNotes.join(' ')).to.match(/launch environment/);
            // Without the env variable the same approval does not cover the file.
            expect(analyzePreflight(base, sha256Hex).approvalStatus).to.equal('pending');
        });

        it('fixtures 12, 13a, 13b: approved, then a changed value, then an added key', () => {
            const approval = fixture('12', 'approval-file.list')!;
            expect(analyzePreflight(input({ workspaceConfig: wsConfig(fixture('12', 'input.config')), approvalFileText: approval }), sha256Hex)
                .approvalStatus).to.equal('approved');
            for (const prefix of ['13a', '13b']) {
                const approved = analyzePreflight(input({
                    workspaceConfig: wsConfig(fixture(prefix, 'input.approved.config')), approvalFileText: fixture(prefix, 'approval-file.list')
                }), sha256Hex);
                expect(approved.approvalStatus, prefix).to.equal('approved');
                const edited = analyzePreflight(input({
                    workspaceConfig: wsConfig(fixture(prefix, 'input.config')), approvalFileText: fixture(prefix, 'approval-file.list')
                }), sha256Hex);
                expect(edited.approvalStatus, prefix).to.equal('pending');
            }
        });

        it('fixture 15b: the launcher asks for a weakening value the validator misses', () => {
            const report = analyzePreflight(input({ workspaceConfig: wsConfig(fixture('15b', 'input.config')), validateResults: [validateResult('15b')] }), sha256Hex);
            expect(report.approvalStatus).to.equal('pending');
            expect(report.pendingPrivileged.map(p => p.key)).to.deep.equal(['SANDY_SSH', 'SANDY_ALLOW_WORKFLOW_EDIT']);
            expect(report.validatorNotes.filter(n => !/uses the approval file/.test(n))).to.deep.equal([
                `sandy --validate-config does not list SANDY_ALLOW_WORKFLOW_EDIT for ${validateResult('15b').path}, but the launcher will ask `
                + 'to approve it (the validator keeps the CR of CRLF lines, so weakening values go unnoticed).'
            ]);
        });

        it('no privileged keys → none_required', () => {
            expect(analyzePreflight(input({ workspaceConfig: wsConfig(fixture('10', 'input.config')) }), sha256Hex))
                .to.deep.include({ approvalStatus: 'none_required', approvalSetHash: undefined });
        });

        it('duplicates stay in the set and a weakening value only counts with its exact value', () => {
            const report = analyzePreflight(input({
                workspaceConfig: wsConfig('SANDY_SSH=agent\nSANDY_SSH=token\nSANDY_SSH=agent\nSANDY_EGRESS_STRICT=1\nSANDY_EGRESS_PROXY=0\n')
            }), sha256Hex);
            expect(report.approvalSet).to.deep.equal(['SANDY_EGRESS_PROXY=0', 'SANDY_SSH=agent', 'SANDY_SSH=token']);
        });

        it('the approval file path is $SANDY_HOME/approvals/passive-<sha256(ws)[0:16]>.list', () => {
            const report = analyzePreflight(input({}), sha256Hex);
            expect(report.approvalFilePath).to.equal(`${HOME}/approvals/passive-${sha256Hex(WS).slice(0, 16)}.list`);
            expect(workspaceHash16(WS)).to.equal(sha256Hex(WS).slice(0, 16));
        });
    });

    describe('sort order and hash match sort -u and sha256sum (C.UTF-8)', () => {
        it('on random sets with ASCII punctuation, unicode above and below U+FFFF', function () {
            const probe = spawnSync('bash', ['-c', 'command -v sort && command -v sha256sum'], { encoding: 'utf8' });
            if (probe.status !== 0) {
                this.skip();
            }
            const alphabet = ['A', 'Z', '_', '=', 'a', '0', ' ', '~', '.', 'é', '\uE000', '\uFFFD', '🚀', '𝒜'];
            let seed = 99;
            const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
            const sets: { approvalLine: string }[][] = [];
            for (let round = 0; round < 40; round++) {
                const lines: { approvalLine: string }[] = [];
                for (let i = rnd(12) + 1; i > 0; i--) {
                    let value = '';
                    for (let j = rnd(6); j > 0; j--) {
                        value += alphabet[rnd(alphabet.length)];
                    }
                    lines.push({ approvalLine: `${['SANDY_SSH', 'SANDY_ALLOW_HOSTS', 'SANDY_S'][rnd(3)]}=${value}` });
                }
                sets.push(lines);
            }
            // sandy:6024-6027 verbatim, once per set; one bash for all sets (spawning is slow under mocha).
            const script = `set=()
for a in "$@"; do
    if [ "$a" = "--END--" ]; then
        sorted="$(printf '%s\\n' "\${set[@]}" | sort -u)"
        printf '%s' "$sorted" | sha256sum | awk '{print $1}'
        set=()
    else
        set+=("$a")
    fi
done`;
            const args = sets.flatMap(lines => [...lines.map(l => l.approvalLine), '--END--']);
            const r = spawnSync('bash', ['-c', script, 'x', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
            const theirs = r.stdout.trim().split('\n');
            expect(theirs).to.have.length(sets.length);
            sets.forEach((lines, i) => expect(approvalSetHash(lines), JSON.stringify(approvalSetLines(lines))).to.equal(theirs[i]));
        });
    });

    describe('world-open LAN entries', () => {
        it('fixture 17: in the workspace config', () => {
            const report = analyzePreflight(input({ workspaceConfig: wsConfig(fixture('17', 'input.config')) }), sha256Hex);
            expect(report.worldOpenLan).to.have.length(1);
            expect(report.worldOpenLan[0]).to.deep.include({ entry: '0.0.0.0/0', role: 'workspace-config', line: 1, sandyRefuses: true });
            expect(report.worldOpenLan[0].remediation).to.include(`${WS}/.sandy/config`).and.include('line 1');
            expect(report.blocking).to.equal(true);
        });

        it('fixtures 18 and 53: in ~/.sandy/config, which --validate-config does not report', () => {
            const r18 = analyzePreflight(input({ homeConfig: { path: `${HOME}/config`, text: fixture('18', 'input.config') } }), sha256Hex);
            expect(r18.worldOpenLan.map(f => [f.role, f.line, f.entry])).to.deep.equal([['home-config', 4, '0.0.0.0/0']]);
            expect(r18.blocking).to.equal(true);
            const r53 = analyzePreflight(input({ homeConfig: { path: `${HOME}/config`, text: fixture('53', 'input.config') } }), sha256Hex);
            expect(r53.worldOpenLan[0].message).to.match(/refuses to launch/);
            expect(r53.worldOpenLan[0].message).to.include(`${HOME}/config line 1`);
        });

        it('catches spellings sandy lets through, and only those', () => {
            const found = findWorldOpenLanEntries(' 0.0.0.0/0 ,::/0,0/0,::0/0,0.0.0.0/0.0.0.0,[::]/0,10.1.2.3/0,0::/00, 192.168.1.0/24,0.0.0.0/8,10.0.0.5,::1/128');
            expect(found).to.deep.equal([
                { entry: '0.0.0.0/0', sandyRefuses: true },
                { entry: '::/0', sandyRefuses: true },
                { entry: '0/0', sandyRefuses: false },
                { entry: '::0/0', sandyRefuses: false },
                { entry: '0.0.0.0/0.0.0.0', sandyRefuses: false },
                { entry: '[::]/0', sandyRefuses: false },
                { entry: '10.1.2.3/0', sandyRefuses: false },
                { entry: '0::/00', sandyRefuses: false }
            ]);
        });

        it('a file value shadowed by the environment does not block; a world-open env value does', () => {
            const shadowed = analyzePreflight(input({
                homeConfig: { path: `${HOME}/config`, text: 'SANDY_ALLOW_LAN_HOSTS=0/0\n' }, envSetKeys: ['SANDY_ALLOW_LAN_HOSTS']
            }), sha256Hex);
            expect(shadowed.worldOpenLan[0].shadowedByEnv).to.equal(true);
            expect(shadowed.blocking).to.equal(false);
            const env = analyzePreflight(input({ envLanHosts: '10.0.0.1, ::/0' }), sha256Hex);
            expect(env.worldOpenLan.map(f => [f.role, f.entry])).to.deep.equal([['env', '::/0']]);
            expect(env.blocking).to.equal(true);
        });
    });

    describe('keys', () => {
        it('fixture 14: unknown and env-only keys match --validate-config', () => {
            const result = validateResult('14');
            const report = analyzePreflight(input({ workspaceConfig: wsConfig(fixture('14', 'input.config')) }), sha256Hex);
            expect(report.unknownKeys.map(k => k.key)).to.deep.equal(result.unknown_keys);
            expect(report.envOnlyKeys.map(k => k.key)).to.deep.equal(result.warnings.map(w => w.key));
            expect(report.unknownKeys[0]).to.deep.include({ role: 'workspace-config', line: 2 });
            // Without the key lists, the validator's findings are placed in the file.
            const fallback = analyzePreflight(input({
                workspaceConfig: wsConfig(fixture('14', 'input.config')),
                schema: { privilegedKeys: SCHEMA.privilegedKeys },
                validateResults: [result]
            }), sha256Hex);
            expect(fallback.unknownKeys.map(k => [k.key, k.line])).to.deep.equal([['FOO_BAR', 2], ['SANDY_MODLE', 3], ['SANDY_DAEMON_SUPERVISOR', 7], ['SANDY_SESSION_NONCE', 8]]);
        });

        it('flags non-secret keys in .secrets and per-file diagnostics', () => {
            const report = analyzePreflight(input({
                workspaceConfig: wsConfig('export SANDY_AGENT=codex\n'),
                workspaceSecrets: wsSecrets('SANDY_MODEL=x\nOPENAI_API_KEY=k\n')
            }), sha256Hex);
            expect(report.misplacedInSecrets.map(k => [k.key, k.role, k.line])).to.deep.equal([['SANDY_MODEL', 'workspace-secrets', 1]]);
            expect(report.files.find(f => f.role === 'workspace-config')!.diagnostics.map(d => d.code)).to.deep.equal(['export-prefix']);
        });

        it('envSetKeysFrom: non-empty values only, SANDY_VERBOSE whenever defined', () => {
            expect(envSetKeysFrom({ SANDY_SSH: 'agent', SANDY_MODEL: '', SANDY_VERBOSE: '', SANDY_HOST_ID: 'x', PATH: '/bin' }, SCHEMA))
                .to.deep.equal(['SANDY_SSH', 'SANDY_VERBOSE']);
        });

        it('sandyHomeFromEnv: ${SANDY_HOME:-$HOME/.sandy}', () => {
            expect(sandyHomeFromEnv({ HOME: '/h', SANDY_HOME: '' })).to.equal('/h/.sandy');
            expect(sandyHomeFromEnv({ HOME: '/h', SANDY_HOME: '/s' })).to.equal('/s');
        });
    });

    describe('sandbox compatibility', () => {
        const minCompat: string = schemaJson.sandy.sandbox_min_compat;
        const edge = JSON.parse(fixture('55', 'stdout.json')!);
        const created = (name: string) => edge.sandboxes.find((s: { name: string }) => s.name === name).created_version;

        it('fixture 55/57: 0.7.9 is below the floor and sandy refuses', () => {
            const result = classifySandboxCompat({ createdVersion: created('edge-old-01b7edd5'), sandboxMinCompat: minCompat, sandboxPath: '/s/edge-old' });
            expect(result).to.deep.include({ status: 'below-floor', severity: 'refusal' });
            expect(result.remediation).to.match(/^Rebuild sandbox/).and.include('/s/edge-old');
            expect(analyzePreflight(input({ sandbox: { createdVersion: '0.7.9', sandboxMinCompat: minCompat } }), sha256Hex).blocking).to.equal(true);
        });

        it('fixture 55: an empty created_version is unknown, a soft warning', () => {
            expect(classifySandboxCompat({ createdVersion: created('legacy-0000aaaa'), sandboxMinCompat: minCompat }))
                .to.deep.include({ status: 'unknown', severity: 'info' });
        });

        it('other versions', () => {
            const status = (v: string | undefined) => classifySandboxCompat({ createdVersion: v, sandboxMinCompat: minCompat }).status;
            expect(status('1.7.1-dev')).to.equal('ok');
            expect(status('0.7.10')).to.equal('ok');
            expect(status('0.7.10-rc1')).to.equal('ok');
            expect(status('0.7.9\n')).to.equal('below-floor');
            expect(status('garbage')).to.equal('invalid');
            expect(status('unknown')).to.equal('unknown');
            expect(status(undefined)).to.equal('new');
            expect(isCoreVersionBelow('0.10.0', '0.7.10')).to.equal(false);
        });
    });

    describe('runPreflight (reads the disk)', () => {
        let tmp: string;

        beforeEach(() => {
            tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ui-preflight-')));
        });

        afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

        it('fixture 36 laid out on disk, reached through a symlinked workspace', async () => {
            const ws = path.join(tmp, 'ws-union');
            const home = path.join(tmp, 'home', '.sandy');
            fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(ws, '.sandy', 'config'), fixture('36', 'input.config')!);
            fs.writeFileSync(path.join(ws, '.sandy', '.secrets'), fixture('36', 'input.secrets')!);
            fs.mkdirSync(path.join(home, 'approvals'), { recursive: true });
            const approvalFile = path.join(home, 'approvals', `passive-${workspaceHash16(ws)}.list`);
            fs.writeFileSync(approvalFile, fixture('36', 'approval-file.list')!);
            fs.symlinkSync(ws, path.join(tmp, 'link'));

            const report = await runPreflight({ workspacePath: path.join(tmp, 'link'), sandyHome: home, schema: SCHEMA });
            expect(report.workspacePath).to.equal(ws);
            expect(report.approvalFilePath).to.equal(approvalFile);
            expect(report.approvalStatus).to.equal('approved');
            expect(report.files.map(f => [f.role, f.exists])).to.deep.equal([
                ['home-config', false], ['home-secrets', false], ['workspace-config', true], ['workspace-secrets', true]
            ]);
            expect(valueHashesFor(report.pendingPrivileged)).to.deep.equal({
                SANDY_SSH: sha256Hex('SANDY_SSH=agent'),
                ANTHROPIC_API_KEY: sha256Hex('ANTHROPIC_API_KEY=sk-ant-api03-FAKEFAKE')
            });
        });
    });
});
