/**
 * Test support: the service both hosts wrap, running the fake sandy (test/fake-sandy) through a shim
 * that logs where and with what each sandy was started, in a scratch HOME. The service's state polls
 * read the process environment (as in both hosts), so HOME is set there too while it lives.
 * Nothing in src/ imports it.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SandyServiceCore } from '../service/sandy-service';

export const REPO_ROOT = path.resolve(__dirname, '../../../../..');
export const FAKE_SANDY = path.join(REPO_ROOT, 'test', 'fake-sandy', 'bin', 'sandy');

const TOUCHED = ['HOME', 'SANDY_HOME', 'FAKE_SANDY_NODE'];

export interface FakeSandyService {
    readonly root: string;
    readonly home: string;
    readonly sandyHome: string;
    readonly service: SandyServiceCore;
    /** Every sandy the service started: its working folder, its arguments (`args` joined by spaces). */
    calls(): Array<{ cwd: string; args: string; argv: string[] }>;
    /** Polls settled, the service disposed, the environment restored, the scratch folder removed. */
    dispose(): Promise<void>;
}

export function requireCompiledFake(): void {
    if (!fs.existsSync(path.join(REPO_ROOT, 'test', 'lib', 'fake-sandy', 'main.js'))) {
        throw new Error('The fake sandy is not compiled; run `npx tsc -b test` first.');
    }
}

/** A started service on the fake (`fakeEnv`: the fake's knobs, passed through sandy.passEnvironment). */
export async function startFakeSandyService(label: string, fakeEnv: Record<string, string> = {}): Promise<FakeSandyService> {
    requireCompiledFake();
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sandy-${label}-`)));
    const home = path.join(root, 'home');
    fs.mkdirSync(home, { recursive: true });
    const log = path.join(root, 'sandy-calls.log');
    const saved = Object.fromEntries(TOUCHED.map(n => [n, process.env[n]]));
    process.env.HOME = home;
    process.env.FAKE_SANDY_NODE = process.execPath;
    delete process.env.SANDY_HOME;
    const wrapper = path.join(root, 'bin', 'sandy');
    fs.mkdirSync(path.dirname(wrapper), { recursive: true });
    // Each argument ends in \x1f (unit separator): the log proves where one argument ends. One printf, so
    // one write per call: the service's polls run sandy beside a maintenance run, and three writes each
    // interleaved (CI: a call's cwd read as another call's arguments).
    fs.writeFileSync(wrapper, `#!/usr/bin/env bash\nprintf '%s\\t%s\\n' "$PWD" "$(printf '%s\\x1f' "$@")" >> '${log}'\nexec '${FAKE_SANDY}' "$@"\n`, { mode: 0o755 });
    const service = new SandyServiceCore({
        logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
        spawnPty: () => { throw new Error('no PTY in these tests'); },
        env: { HOME: home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', FAKE_SANDY_NODE: process.execPath, ...fakeEnv },
        home,
        dataDir: path.join(root, 'ide-data')
    });
    service.start();
    const status = await service.configure({ sandyPath: wrapper, passEnv: ['FAKE_SANDY_NODE', ...Object.keys(fakeEnv)] });
    expect(status.found, JSON.stringify(status)).to.equal(true);
    return {
        root, home, sandyHome: path.join(home, '.sandy'), service,
        calls: () => fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map(line => {
            const tab = line.indexOf('\t');
            const argv = line.slice(tab + 1).split('\x1f').slice(0, -1);
            return { cwd: line.slice(0, tab), args: argv.join(' '), argv };
        }) : [],
        dispose: async () => {
            // Let the polls a maintenance run queued finish before their HOME is deleted.
            await service.poller.pollNow();
            await service.poller.pollNow();
            await service.dispose();
            for (const n of TOUCHED) {
                if (saved[n] === undefined) {
                    delete process.env[n];
                } else {
                    process.env[n] = saved[n];
                }
            }
            fs.rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
        }
    };
}
