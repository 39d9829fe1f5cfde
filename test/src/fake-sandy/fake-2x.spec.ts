/*
 * The fake in its sandy 2.7.1 voice (FAKE_SANDY_VERSION=2.7.1), held to sandy's own documents: the real
 * 2.7.1 `--print-schema` (test/fixtures/sandy-2.7.1), SPEC_INTROSPECTION.md's `--print-state` of
 * schemas 2-4, and the `--approvals` description in that schema. No 2.x sandy runs here, so this is
 * the fake against documents, not against a running sandy.
 */
import { expect } from 'chai';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FAKE_BIN, fakeEnv, runSync, sandboxName } from './harness';

const FIXTURE = path.resolve(__dirname, '..', '..', 'fixtures', 'sandy-2.7.1', 'print-schema.json');

describe('fake sandy speaking 2.7.1 (documents; unit)', () => {
    let root: string;
    let home: string;
    let ws: string;
    const run = (args: string[], extra: Record<string, string> = {}) =>
        runSync(FAKE_BIN, args, ws, fakeEnv({ HOME: home, FAKE_SANDY_VERSION: '2.7.1', ...extra }));

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fake-2x-')));
        home = path.join(root, 'home');
        ws = path.join(home, 'proj');
        fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('--version, --print-version and --print-schema are 2.7.1\'s (the schema is the real capture)', () => {
        expect(run(['--version']).stdout).to.equal('sandy 2.7.1\n');
        expect(JSON.parse(run(['--print-version']).stdout)).to.deep.equal({ schema_version: 4, version: '2.7.1', commit: '', full_version: '2.7.1' });
        const schema = run(['--print-schema']);
        expect(schema.code).to.equal(0);
        expect(JSON.parse(schema.stdout)).to.deep.equal(JSON.parse(fs.readFileSync(FIXTURE, 'utf8')));
    });

    it('--print-state is schema 4: no handoff fields (removed in 3), agents unknown, the per-sandbox fields of 1.8-2.4', () => {
        fs.mkdirSync(path.join(home, '.sandy', 'sandboxes', sandboxName(ws)), { recursive: true });
        const state = JSON.parse(run(['--print-state', 'light']).stdout);
        expect(state.schema_version).to.equal(4);
        const [sb] = state.sandboxes;
        expect(sb).to.not.have.property('handoff_enabled');
        expect(sb).to.not.have.property('handoff');
        expect(sb.agents).to.equal(null);
        expect(sb.agent_args_files).to.deep.equal({ claude: false, gemini: false, codex: false, opencode: false, grok: false });
        expect(sb.feature_entries).to.deep.equal({});
        expect(sb).to.include.keys('relay', 'features', 'feature_problems', 'workspace_exists', 'size_bytes', 'lock_held', 'lock_holder_pid');
        expect(sb.size_bytes, 'null in light mode').to.equal(null);
    });

    it('--approvals: exit 0 with nothing to decide; exit 2 with a pending key, named without its value; exit 1 without a workspace', () => {
        const none = run(['--approvals', '--workspace', ws]);
        expect(none.code).to.equal(0);
        expect(JSON.parse(none.stdout).gates.privileged_keys.decision).to.equal('not_applicable');
        fs.writeFileSync(path.join(ws, '.sandy', 'config'), 'SANDY_ALLOW_LAN_HOSTS=10.9.8.7\n');
        const pending = run(['--approvals', '--workspace', ws]);
        expect(pending.code).to.equal(2);
        expect(JSON.parse(pending.stdout).gates.privileged_keys).to.deep.equal({ decision: 'pending', keys: ['SANDY_ALLOW_LAN_HOSTS'] });
        expect(pending.stdout, 'key names only, never values').to.not.include('10.9.8.7');
        expect(pending.stderr).to.equal('');
        expect(run(['--approvals', '--workspace', path.join(root, 'gone')]).code).to.equal(1);
    });

    it('--approvals: the Dockerfile pending, then changed after an approval on record of another build context', () => {
        fs.writeFileSync(path.join(ws, '.sandy', 'Dockerfile'), 'FROM scratch\n');
        expect(JSON.parse(run(['--approvals', '--workspace', ws]).stdout).gates.dockerfile.decision).to.equal('pending');
        const approvals = path.join(home, '.sandy', 'approvals');
        fs.mkdirSync(approvals, { recursive: true });
        const hash = crypto.createHash('sha256').update(ws).digest('hex').slice(0, 16);
        fs.writeFileSync(path.join(approvals, `dockerfile-${hash}.list`), 'deadbeef\n');
        const changed = run(['--approvals', '--workspace', ws]);
        expect(JSON.parse(changed.stdout).gates.dockerfile.decision).to.equal('changed');
        expect(changed.code).to.equal(2);
    });
});
