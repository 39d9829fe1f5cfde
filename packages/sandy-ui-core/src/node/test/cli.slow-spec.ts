import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { CliIo, main } from '../cli/cli';

const PACKAGE = path.resolve(__dirname, '../../..');
const FIXTURES = path.resolve(PACKAGE, '../../test/fixtures/sandy-1.7.1');

/**
 * A bash stand-in for sandy that replays captured 1.7.1 outputs. Everything is baked into the script,
 * because the runner hands sandy a whitelisted environment only. `mode` picks a misbehaviour.
 */
function writeFakeSandy(dir: string, mode: 'normal' | 'bad-json' | 'hang-state' | 'old' = 'normal'): { sandy: string; log: string } {
    const log = path.join(dir, 'sandy-calls.log');
    const sandy = path.join(dir, 'bin', 'sandy');
    fs.mkdirSync(path.dirname(sandy), { recursive: true });
    fs.writeFileSync(sandy, `#!/usr/bin/env bash
F='${FIXTURES}'
MODE='${mode}'
printf '%s\\n' "$*" >> '${log}'
emit() {
    if [ -f "$F/$1/stdout.json" ]; then cat "$F/$1/stdout.json"; else cat "$F/$1/stdout.txt"; fi
    cat "$F/$1/stderr.txt" >&2
    exit "$(cat "$F/$1/exitcode.txt")"
}
case "\${1:-}" in
    --version|-v) if [ "$MODE" = old ]; then echo "sandy 0.11.0"; exit 0; fi; emit 03-version ;;
    --print-version) emit 02-print-version ;;
    --print-schema) emit 01-print-schema ;;
    --print-state)
        if [ "$MODE" = bad-json ]; then
            # fx 58: an ESC in a workspace path → invalid JSON, exit 0, empty stderr (CONTRACT D1).
            printf '{"schema_version":1,"sandy_home":"/h","sandboxes":[{"workspace_path":"/ws/a\\033b"}]}\\n'; exit 0
        fi
        if [ "$MODE" = hang-state ]; then sleep 300 & wait; fi
        if [ "\${2:-}" = light ]; then emit 42-print-state-light-populated; else emit 41-print-state-full-populated; fi ;;
    --validate-config)
        case "\${2:-}" in *missing*) emit 24-validate-missing-file ;; *) emit 11-validate-pending-privileged ;; esac ;;
    *) echo "fake sandy: this would have been a launch" >&2; exit 99 ;;
esac
`, { mode: 0o755 });
    return { sandy, log };
}

interface Captured { code: number; stdout: string; stderr: string }

describe('sandy-ui CLI (slow)', function () {
    this.timeout(60_000);
    let root: string;
    let home: string;
    let env: Record<string, string>;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sui-')));
        home = path.join(root, 'home');
        fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
        // No sandy on this PATH: every test names its fake with --sandy.
        env = { PATH: `${path.join(home, '.local', 'bin')}:/usr/bin:/bin`, HOME: home, SANDY_HOME: path.join(home, '.sandy'), DOCKER_HOST: `unix://${path.join(root, 'no-docker.sock')}` };
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const run = async (argv: string[]): Promise<Captured> => {
        let stdout = '';
        let stderr = '';
        const io: CliIo = { stdout: t => { stdout += t; }, stderr: t => { stderr += t; }, env, cwd: root, home };
        const code = await main(argv, io);
        return { code, stdout, stderr };
    };
    const expectOneLineFailure = (r: Captured, pattern: RegExp): void => {
        expect(r.code).to.equal(2);
        expect(r.stderr.split('\n').filter(Boolean)).to.have.length(1);
        expect(r.stderr).to.match(/^sandy-ui: /);
        expect(r.stderr).to.match(pattern);
        expect(r.stderr).not.to.match(/\n\s+at /);
    };

    it('prints help, and refuses a missing or unknown command with one line', async () => {
        const help = await run(['--help']);
        expect(help.code).to.equal(0);
        expect(help.stdout).to.contain('sweep-locks <workspace>');
        expectOneLineFailure(await run([]), /No command given/);
        expectOneLineFailure(await run(['frobnicate']), /Unknown command "frobnicate"/);
        expectOneLineFailure(await run(['--bogus', 'doctor']), /Unknown option --bogus/);
        const json = await run(['--json', 'validate']);
        expectOneLineFailure(json, /validate needs a config file/);
        expect(JSON.parse(json.stdout)).to.deep.equal({
            error: { code: 'usage', message: 'validate needs a config file.', hint: 'Example: sandy-ui validate .sandy/config' }
        });
    });

    it('schema, state and validate replay the fixture outputs, human and --json', async () => {
        const { sandy, log } = writeFakeSandy(root);
        const schema = await run(['--sandy', sandy, 'schema']);
        expect(schema.code).to.equal(0);
        expect(schema.stdout).to.contain('21 privileged, 31 passive, 3 env-only');
        expect(JSON.parse((await run(['--sandy', sandy, '--json', 'schema'])).stdout).schema_version).to.equal(1);

        const state = await run(['state', '--sandy', sandy]);
        expect(state.code).to.equal(0);
        expect(state.stdout).to.match(/ws-alpha-8163f30e .*locked by pid 27950/);
        expect(state.stdout).to.match(/ws-beta-c6f3e2ca .*STALE lock \(pid 27473 not running\)/);
        const light = JSON.parse((await run(['--json', '--sandy', sandy, 'state', 'light'])).stdout);
        expect(light.sandboxes.every((s: { size_bytes: unknown }) => s.size_bytes === null)).to.equal(true);

        fs.mkdirSync(path.join(root, 'ws', '.sandy'), { recursive: true });
        fs.writeFileSync(path.join(root, 'ws', '.sandy', 'config'), 'SANDY_SSH=agent\n');
        const pending = await run(['--sandy', sandy, 'validate', 'ws/.sandy/config']);
        expect(pending.code).to.equal(0);
        expect(pending.stdout).to.match(/needs approval: .* — status pending/);
        const missing = await run(['--sandy', sandy, '--json', 'validate', 'missing/config']);
        expect(missing.code).to.equal(1);
        expect(JSON.parse(missing.stdout).errors[0]).to.match(/^file does not exist/);

        const calls = fs.readFileSync(log, 'utf8').trim().split('\n');
        // The flag is always first and a relative path is made absolute; nothing else reached sandy.
        expect(calls).to.include(`--validate-config ${path.join(root, 'ws/.sandy/config')}`);
        expect(calls.every(c => /^--(version|print-version|print-schema|print-state|validate-config)( |$)/.test(c))).to.equal(true);
    });

    it('validate says the verdict Launch will reach (what Add Project says): a world-open LAN allowlist is refused, exit 1', async () => {
        const { sandy } = writeFakeSandy(root);
        const ws = path.join(home, 'work', 'lan');
        fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
        fs.writeFileSync(path.join(ws, '.sandy', 'config'), 'SANDY_ALLOW_LAN_HOSTS=0.0.0.0/0\n');
        const human = await run(['--sandy', sandy, 'validate', path.join(ws, '.sandy', 'config')]);
        expect(human.code).to.equal(1);
        expect(human.stdout).to.match(new RegExp(`launch   ${ws}: REFUSED — SANDY_ALLOW_LAN_HOSTS in .* contains the world-open entry "0\\.0\\.0\\.0/0"`));
        const json = JSON.parse((await run(['--sandy', sandy, '--json', 'validate', path.join(ws, '.sandy', 'config')])).stdout);
        expect(json.launch.workspace).to.equal(ws);
        expect(json.launch.verdict.kind).to.equal('refuse');
        fs.writeFileSync(path.join(ws, '.sandy', 'config'), 'SANDY_SSH=agent\n');
        const approve = await run(['--sandy', sandy, 'validate', path.join(ws, '.sandy', 'config')]);
        expect(approve.code).to.equal(0);
        expect(approve.stdout).to.contain(`launch   ${ws}: asks you to approve SANDY_SSH first.`);
        // A folder Launch would refuse (it does not exist) is a refusal, never silence.
        const gone = await run(['--sandy', sandy, 'validate', path.join(home, 'work', 'gone', '.sandy', 'config')]);
        expect(gone.code).to.equal(1);
        expect(gone.stdout).to.match(/launch {3}.*gone: REFUSED — Workspace .* does not exist/);
    });

    it('reports invalid JSON from sandy as one line, and as a JSON error with --json', async () => {
        const { sandy } = writeFakeSandy(root, 'bad-json');
        const r = await run(['--json', '--sandy', sandy, 'state']);
        expectOneLineFailure(r, /./);
        const body = JSON.parse(r.stdout);
        expect(body.error.code).to.equal('invalid-json');
        expect(body.error.hint).to.be.a('string').and.not.equal('');
        expect(Object.keys(body.error)).to.deep.equal(['code', 'message', 'hint']);
    });

    it('reports a missing sandy with the install command', async () => {
        const r = await run(['--sandy', path.join(root, 'nope'), 'schema']);
        expectOneLineFailure(r, /sandy was not found.*curl -fsSL https:\/\/raw\.githubusercontent\.com\/rappdw\/sandy\/main\/install\.sh \| bash/);
        expect(r.stderr).to.contain('or set the sandy path in settings');
    });

    it('never asks a sandy that predates introspection for it', async () => {
        const { sandy, log } = writeFakeSandy(root, 'old');
        expectOneLineFailure(await run(['--sandy', sandy, 'state']), /sandy 0\.11\.0 has no --print-state/);
        expect(fs.readFileSync(log, 'utf8').trim().split('\n')).to.deep.equal(['--version']);
    });

    it('reports a hanging sandy as a timeout, after killing it', async () => {
        const { sandy } = writeFakeSandy(root, 'hang-state');
        const r = await run(['--json', '--sandy', sandy, 'state', 'light']);
        expectOneLineFailure(r, /did not answer within/);
        expect(JSON.parse(r.stdout).error.code).to.equal('timeout');
    });

    it('sweep-locks removes this workspace\'s stale lock only', async () => {
        const ws = path.join(root, 'proj');
        fs.mkdirSync(ws);
        const { sandboxNameFor, lockDirFor } = await import('../sandy/lock-sweep');
        const lock = lockDirFor(env.SANDY_HOME, sandboxNameFor(ws));
        fs.mkdirSync(lock, { recursive: true });
        fs.writeFileSync(path.join(lock, 'pid'), '4194305\n');
        const r = await run(['sweep-locks', 'proj']);
        expect(r.code).to.equal(0);
        expect(r.stdout).to.match(/Removed the stale lock of .*proj: pid 4194305 is not running/);
        expect(fs.existsSync(lock)).to.equal(false);
        const again = JSON.parse((await run(['--json', 'sweep-locks', ws])).stdout);
        expect(again).to.deep.include({ outcome: 'absent', reason: 'no-lock' });
        expectOneLineFailure(await run(['sweep-locks', 'does-not-exist']), /cannot be resolved/);
    });

    describe('doctor', () => {
        let server: http.Server | undefined;
        afterEach(async () => {
            if (server) {
                await new Promise(resolve => server!.close(resolve));
                server = undefined;
            }
        });

        const fakeDocker = async (): Promise<void> => {
            const socket = path.join(root, 'd.sock');
            server = http.createServer((_req, res) => { res.writeHead(200, { 'Api-Version': '1.47' }); res.end('OK'); });
            await new Promise<void>(resolve => server!.listen(socket, resolve));
            env.DOCKER_HOST = `unix://${socket}`;
            fs.writeFileSync(path.join(home, '.local', 'bin', 'docker'), '#!/bin/sh\n', { mode: 0o755 });
        };

        it('passes when sandy, Docker and the folders are fine', async () => {
            const { sandy } = writeFakeSandy(root);
            await fakeDocker();
            const r = await run(['doctor', '--sandy', sandy]);
            expect(r.stdout).to.contain(`✔ sandy 1.7.1-dev at ${sandy}`);
            expect(r.stdout).to.contain('✔ sandy 1.7.1-dev (schema v1) is supported.');
            expect(r.stdout).to.contain('✔ Docker daemon reachable (API 1.47)');
            expect(r.stdout).to.contain('does not exist yet; sandy will create it');
            expect(r.stdout).to.contain('All checks passed.');
            expect(r.code).to.equal(0);
        });

        it('fails with fix-it hints when sandy and Docker are missing', async () => {
            env.PATH = '/usr/bin:/bin';
            const r = await run(['doctor', '--sandy', path.join(root, 'nope')]);
            expect(r.code).to.equal(1);
            expect(r.stdout).to.match(/✘ sandy was not found/);
            expect(r.stdout).to.contain('→ Install it with `curl -fsSL');
            expect(r.stdout).to.match(/✘ Docker daemon not reachable: no Docker socket/);
            expect(r.stdout).to.contain('→ Start Docker');
            expect(r.stdout).to.match(/! .*\.local\/bin is not on PATH/);
            const json = JSON.parse((await run(['doctor', '--json', '--sandy', path.join(root, 'nope')])).stdout);
            expect(json.ok).to.equal(false);
            expect(json.compat).to.deep.equal({ kind: 'sandy-missing' });
            expect(json.checks.map((c: { id: string; status: string }) => `${c.id}:${c.status}`)).to.include.members(['sandy:fail', 'docker:fail', 'local-bin:warn']);
        });

        it('fails when sandy is only in ~/.local/bin and that is not on PATH', async () => {
            await fakeDocker();
            const { sandy } = writeFakeSandy(path.join(home, '.local'));
            expect(sandy).to.equal(path.join(home, '.local', 'bin', 'sandy'));
            env.PATH = `${path.join(root, 'dockerbin')}:/usr/bin:/bin`;
            fs.mkdirSync(path.join(root, 'dockerbin'));
            fs.writeFileSync(path.join(root, 'dockerbin', 'docker'), '#!/bin/sh\n', { mode: 0o755 });
            const r = await run(['--json', 'doctor']);
            const json = JSON.parse(r.stdout);
            expect(json.sandy.path).to.equal(sandy);
            expect(json.checks.find((c: { id: string }) => c.id === 'local-bin').status).to.equal('fail');
            expect(r.code).to.equal(1);
        });

        it('flags an unwritable SANDY_HOME and a metacharacter in it', async () => {
            env.SANDY_HOME = `${root}/a;b`;
            const r = await run(['--json', 'doctor', '--sandy', writeFakeSandy(root).sandy]);
            expect(JSON.parse(r.stdout).checks.find((c: { id: string }) => c.id === 'sandy-home')).to.deep.include({ status: 'fail' });
            fs.writeFileSync(path.join(root, 'file'), '');
            env.SANDY_HOME = path.join(root, 'file');
            const r2 = await run(['--json', 'doctor', '--sandy', writeFakeSandy(root).sandy]);
            expect(JSON.parse(r2.stdout).checks.find((c: { id: string }) => c.id === 'sandy-home').summary).to.match(/not a folder/);
        });
    });

    it('bin/sandy-ui.js runs the CLI as a process: JSON on stdout, one line and exit 2 on failure', () => {
        const { sandy } = writeFakeSandy(root);
        const bin = path.join(PACKAGE, 'bin', 'sandy-ui.js');
        expect(fs.statSync(bin).mode & 0o777).to.equal(0o755);
        const ok = spawnSync(process.execPath, [bin, '--sandy', sandy, '--json', 'schema'], { env, encoding: 'utf8' });
        expect(ok.status).to.equal(0);
        expect(JSON.parse(ok.stdout).schema_version).to.equal(1);
        const bad = spawnSync(process.execPath, [bin, '--sandy', path.join(root, 'nope'), '--json', 'state'], { env, encoding: 'utf8' });
        expect(bad.status).to.equal(2);
        expect(bad.stderr.trim().split('\n')).to.have.length(1);
        expect(JSON.parse(bad.stdout).error.code).to.equal('not-found');
    });
});
