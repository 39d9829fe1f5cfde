/*
 * A signal to sandy's process group while it waits at a y/N gate (the user's Ctrl-C at the prompt, or
 * the IDE's Stop: SIGINT, then SIGTERM, then SIGKILL to the group). sandy is bash: the `read` ends at
 * once and the trap armed at that point runs. At the Dockerfile gate that is the interim
 * `trap _sandy_release_lock EXIT` (sandy:7210): the lock is released and sandy dies of the signal.
 * Once the full cleanup trap is armed (sandy:8462) it exits 128+N after its cleanup. Either way no
 * stale lock is left, and the IDE's next launch is not met by one.
 *
 * In a real PTY (the gates read /dev/tty). With SANDY_BIN and SANDY_STUB_DOCKER (a stub `docker`
 * script, as for test/src/real-sandy) the same scenarios run against that real sandy: verified with
 * sandy 1.7.1 and ../shared/sandy/stub-docker's stubs.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as pty from 'node-pty';
import { FAKE_BIN, Probe, fakeEnv, sandboxName } from './harness';

interface Ended {
    code: number;
    signal?: number;
}

const TARGETS: Array<{ label: string; bin: string; env: (home: string) => Record<string, string> }> = [
    { label: 'fake', bin: FAKE_BIN, env: home => fakeEnv({ HOME: home, FAKE_SANDY_CLEANUP_MS: '50' }) }
];
if (process.env.SANDY_BIN && process.env.SANDY_STUB_DOCKER) {
    TARGETS.push({
        label: 'real', bin: process.env.SANDY_BIN,
        env: home => {
            const bin = path.join(home, '..', 'bin');
            fs.mkdirSync(bin, { recursive: true });
            fs.copyFileSync(process.env.SANDY_STUB_DOCKER!, path.join(bin, 'docker'));
            fs.chmodSync(path.join(bin, 'docker'), 0o755);
            // A fresh update check, so sandy does not try GitHub first.
            fs.mkdirSync(path.join(home, '.sandy'), { recursive: true });
            fs.writeFileSync(path.join(home, '.sandy', '.update_check'), `${Math.floor(Date.now() / 1000)} v1.7.0\n`);
            return {
                HOME: home, PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, LANG: 'C.UTF-8', TZ: 'UTC', TERM: 'xterm-256color',
                TMPDIR: path.join(home, '..'), STUB_STATE: path.join(home, '..', 'stub-state'), STUB_DOCKER_LOG: path.join(home, '..', 'docker.log')
            };
        }
    });
}

const SGR = /\x1b\[[0-9;]*m/g;

const terminals: pty.IPty[] = [];

/** How it ended, or undefined if it ran on for `ms` (the old fake waited for the Stop's SIGKILL). */
function endedWithin(ended: Promise<Ended>, ms: number): Promise<Ended | undefined> {
    return Promise.race([ended, new Promise<undefined>(resolve => setTimeout(resolve, ms))]);
}

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`not within ${ms} ms: ${condition}`);
        }
        await new Promise(resolve => setTimeout(resolve, 50));
    }
}

/** sandy in a terminal of its own until it prints `prompt`; the caller signals its group. */
async function atPrompt(bin: string, cwd: string, env: Record<string, string>, prompt: RegExp): Promise<{ term: pty.IPty; text: () => string; ended: Promise<Ended> }> {
    const term = pty.spawn(bin, [], { cwd, env, cols: 120, rows: 40, name: 'xterm-256color' });
    terminals.push(term);
    let text = '';
    term.onData(d => text += d);
    const ended = new Promise<Ended>(resolve => term.onExit(e => resolve({ code: e.exitCode, signal: e.signal || undefined })));
    const deadline = Date.now() + 30_000;
    while (!prompt.test(text.replace(SGR, ''))) {
        if (Date.now() > deadline) {
            term.kill('SIGKILL');
            throw new Error(`no ${prompt} in:\n${text}`);
        }
        await new Promise(resolve => setTimeout(resolve, 50));
    }
    return { term, text: () => text, ended };
}

describe('sandy at a gate prompt, signalled through its process group', function () {
    this.timeout(60_000);
    let probe: Probe;

    beforeEach(() => probe = new Probe());
    afterEach(() => {
        for (const term of terminals.splice(0)) {
            try {
                process.kill(-term.pid, 'SIGKILL');
            } catch {
                // Ended, as it should have.
            }
        }
        probe.cleanup();
    });

    for (const target of TARGETS) {
        const lockOf = (home: string, ws: string): string => path.join(home, '.sandy', 'sandboxes', `.${sandboxName(ws)}.lock`);

        for (const [sig, num] of [['SIGINT', os.constants.signals.SIGINT], ['SIGTERM', os.constants.signals.SIGTERM], ['SIGHUP', os.constants.signals.SIGHUP]] as const) {
            it(`${target.label}: the Dockerfile gate holds the lock; ${sig} releases it and sandy dies of ${sig}`, async () => {
                const home = probe.home('df');
                const ws = path.join(home, 'work', 'ws');
                probe.write(path.join(ws, '.sandy', 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN echo hi\n');
                const run = await atPrompt(target.bin, ws, target.env(home), /Build this \.sandy\/Dockerfile for .*\? \[y\/N\] $/);
                expect(fs.existsSync(lockOf(home, ws)), 'the lock while sandy asks').to.equal(true);
                process.kill(-run.term.pid, sig);
                const ended = await endedWithin(run.ended, 5_000);
                expect(ended?.signal, run.text()).to.equal(num);
                expect(fs.existsSync(lockOf(home, ws)), 'the lock after the signal').to.equal(false);
            });
        }

        for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
            it(`${target.label}: at the symlink gate ${sig} runs the cleanup trap: exit ${code}, no lock left`, async () => {
                const home = probe.home('link');
                const ws = path.join(home, 'work', 'ws');
                fs.mkdirSync(path.join(home, 'notes'), { recursive: true });
                fs.mkdirSync(ws, { recursive: true });
                fs.symlinkSync(path.join(home, 'notes'), path.join(ws, 'notes'));
                const run = await atPrompt(target.bin, ws, target.env(home), /Proceed anyway\? \[y\/N\] $/);
                expect(fs.existsSync(lockOf(home, ws)), 'the lock while sandy asks').to.equal(true);
                process.kill(-run.term.pid, sig);
                // Ended by the signal itself, not left for a later SIGKILL (which would leave the lock).
                const ended = await endedWithin(run.ended, 5_000);
                expect(ended && [ended.code, ended.signal], run.text()).to.deep.equal([code, undefined]);
                expect(fs.existsSync(lockOf(home, ws)), 'the lock after the signal').to.equal(false);
            });
        }

        const dockerfileGate = async (): Promise<{ home: string; ws: string; run: Awaited<ReturnType<typeof atPrompt>> }> => {
            const home = probe.home('df');
            const ws = path.join(home, 'work', 'ws');
            probe.write(path.join(ws, '.sandy', 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN echo hi\n');
            return { home, ws, run: await atPrompt(target.bin, ws, target.env(home), /Build this \.sandy\/Dockerfile for .*\? \[y\/N\] $/) };
        };
        const symlinkGate = async (): Promise<{ home: string; ws: string; run: Awaited<ReturnType<typeof atPrompt>> }> => {
            const home = probe.home('link');
            const ws = path.join(home, 'work', 'ws');
            fs.mkdirSync(path.join(home, 'notes'), { recursive: true });
            fs.mkdirSync(ws, { recursive: true });
            fs.symlinkSync(path.join(home, 'notes'), path.join(ws, 'notes'));
            return { home, ws, run: await atPrompt(target.bin, ws, target.env(home), /Proceed anyway\? \[y\/N\] $/) };
        };

        it(`${target.label}: SIGTERM to sandy's pid alone is taken at either gate (the group need not get it)`, async () => {
            const df = await dockerfileGate();
            process.kill(df.run.term.pid, 'SIGTERM');
            expect((await endedWithin(df.run.ended, 5_000))?.signal, df.run.text()).to.equal(os.constants.signals.SIGTERM);
            expect(fs.existsSync(lockOf(df.home, df.ws))).to.equal(false);
            const link = await symlinkGate();
            process.kill(link.run.term.pid, 'SIGTERM');
            const ended = await endedWithin(link.run.ended, 5_000);
            expect(ended && [ended.code, ended.signal], link.run.text()).to.deep.equal([143, undefined]);
            expect(fs.existsSync(lockOf(link.home, link.ws))).to.equal(false);
        });

        it(`${target.label}: a hang-up to sandy alone at the Dockerfile gate (node-pty's kill) releases the lock`, async () => {
            const { home, ws, run } = await dockerfileGate();
            process.kill(run.term.pid, 'SIGHUP');
            expect((await endedWithin(run.ended, 5_000))?.signal, run.text()).to.equal(os.constants.signals.SIGHUP);
            expect(fs.existsSync(lockOf(home, ws))).to.equal(false);
        });

        it(`${target.label}: SIGQUIT at the Dockerfile gate is ignored (bash without a trap for it), sandy keeps asking`, async () => {
            const { home, ws, run } = await dockerfileGate();
            process.kill(-run.term.pid, 'SIGQUIT');
            expect(await endedWithin(run.ended, 1_000), run.text()).to.equal(undefined);
            expect(fs.existsSync(lockOf(home, ws)), 'the lock while sandy still asks').to.equal(true);
            run.term.write('n\r');
            await waitFor(() => run.text().includes('Not approved'), 10_000);
        });

        it(`${target.label}: answers as bash reads them: "y" cut off by end-of-input is no at the Dockerfile gate, " y" is yes at the symlink gate`, async () => {
            const df = await dockerfileGate();
            df.run.term.write('y\x04\x04');
            await waitFor(() => df.run.text().includes('Not approved'), 10_000);
            const link = await symlinkGate();
            link.run.term.write(' y\r');
            await waitFor(() => /Persisted 1 approved symlink/.test(link.run.text()), 10_000);
        });
    }
});
