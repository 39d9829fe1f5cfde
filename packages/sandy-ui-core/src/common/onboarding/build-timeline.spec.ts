import { expect } from 'chai';
import {
    BUILD_PHASE_LABELS, BUILD_PHASE_ORDER, BuildOutputStream, BuildPhaseId, BuildTimeline, BuildTimelineParser, MAX_BUILD_LINE,
    MAX_BUILD_PHASES, buildDurationText, buildLineSegments, buildPhaseText, buildStateText, buildTimelineText, phaseElapsed, plainBuildLine
} from './build-timeline';

/**
 * The build timeline against sandy's real output. src/common reads no files, so the recordings in
 * test/fixtures/sandy-build (sandy 1.7.1-dev at c2c58ef with the stub docker; see its README) are
 * copied below byte for byte, between the FIXTURES markers (the README says how to check the copy).
 */

const CRLF = '\r\n';
const LF = '\n';
function lines(eol: string, text: string[]): string {
    return text.join(eol);
}

interface Recording {
    /** On a PTY (`*-pty`) stdout holds stderr too, as the terminal showed them. */
    stdout: string;
    stderr?: string;
    exitCode: number;
}

// FIXTURES BEGIN
const FIXTURES: Record<string, Recording> = {
    '01-build-only-first-run-pty': {
        stdout: lines(CRLF, [
            '\x1b[0;32m[sandy]\x1b[0m Build files updated.',
            '\x1b[0;32m[sandy]\x1b[0m Building base image (language runtimes) — this may take several minutes on first run...',
            '\x1b[0;32m[sandy]\x1b[0m Building egress proxy image (sandy-proxy, ref=main)...',
            '\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...',
            '\x1b[0;32m[sandy]\x1b[0m Build complete. Exiting (--build-only).',
            ''
        ]),
        exitCode: 0
    },
    '02-build-only-first-run-pipe': {
        stdout: lines(LF, [
            '[sandy] Build files updated.',
            '[sandy] Building base image (language runtimes) — this may take several minutes on first run...',
            '[sandy] Building egress proxy image (sandy-proxy, ref=main)...',
            '[sandy] Building sandbox image (may take a few minutes)...',
            '[sandy] Build complete. Exiting (--build-only).',
            ''
        ]),
        exitCode: 0
    },
    '03-build-only-up-to-date-pty': {
        stdout: lines(CRLF, [
            '\x1b[0;32m[sandy]\x1b[0m Base image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Egress proxy image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Sandbox image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Build complete. Exiting (--build-only).',
            ''
        ]),
        exitCode: 0
    },
    '04-rebuild-build-only-pty': {
        stdout: lines(CRLF, [
            '\x1b[0;32m[sandy]\x1b[0m Build cache cleared. Images will be rebuilt.',
            '\x1b[0;32m[sandy]\x1b[0m Building base image (language runtimes) — this may take several minutes on first run...',
            '\x1b[0;32m[sandy]\x1b[0m Building egress proxy image (sandy-proxy, ref=main)...',
            '\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...',
            '\x1b[0;32m[sandy]\x1b[0m Build complete. Exiting (--build-only).',
            ''
        ]),
        exitCode: 0
    },
    '05-first-launch-skill-pack-and-project-pty': {
        stdout: lines(CRLF, [
            'y',
            '\x1b[0;32m[sandy]\x1b[0m Build files updated.',
            '\x1b[0;32m[sandy]\x1b[0m Building base image (language runtimes) — this may take several minutes on first run...',
            '\x1b[0;32m[sandy]\x1b[0m Building egress proxy image (sandy-proxy, ref=main)...',
            '\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...',
            '\x1b[0;32m[sandy]\x1b[0m Building skill pack base image (Playwright + Chromium)...',
            '\x1b[0;32m[sandy]\x1b[0m Building skill pack image (gstack)...',
            '\x1b[0;32m[sandy]\x1b[0m Creating new sandbox: <HOME:full>/.sandy/sandboxes/ws-full-02bc234a',
            '[sandy]',
            '[sandy] This project ships a .sandy/Dockerfile:  <WS>/ws-full/.sandy/Dockerfile',
            '[sandy] Building it runs its RUN commands on your HOST docker daemon with',
            '[sandy] UNFILTERED network (build-time is NOT behind the egress proxy), and the',
            '[sandy] whole .sandy/ dir is the build context. A committed or agent-written',
            '[sandy] Dockerfile could run host code or exfiltrate here. Review it:',
            '[sandy]',
            '[sandy]   | ARG BASE_IMAGE',
            '[sandy]   | FROM ${BASE_IMAGE}',
            '[sandy]   | RUN echo hello',
            '[sandy]',
            '[sandy] Build this .sandy/Dockerfile for <WS>/ws-full? [y/N] [sandy] Approved. Future launches build it silently until the Dockerfile',
            '[sandy] changes. Revoke via: rm <HOME:full>/.sandy/approvals/dockerfile-02bc234aade9a1bf.list',
            '\x1b[0;32m[sandy]\x1b[0m Building project image from .sandy/Dockerfile...',
            '\x1b[0;32m[sandy]\x1b[0m Creating egress-proxy networks (mode=permissive)...',
            '\x1b[0;32m[sandy]\x1b[0m Starting egress proxy sidecar (sandy-proxy-ws-full-02bc234a @ 10.200.0.2)...',
            '\x1b[1;33m[sandy]\x1b[0m No gh CLI token found. Git push/pull may not work.',
            '\x1b[1;33m[sandy]\x1b[0m Install gh (https://cli.github.com) and run \'gh auth login\', or use SANDY_SSH=agent.',
            '\x1b[0;32m[sandy]\x1b[0m Launching Claude Code sandbox...',
            '\x1b[0;32m[sandy]\x1b[0m   Working directory: <WS>/ws-full',
            '\x1b[0;32m[sandy]\x1b[0m   Sandbox:           <HOME:full>/.sandy/sandboxes/ws-full-02bc234a',
            '\x1b[0;32m[sandy]\x1b[0m   Resources:         4 CPUs, 7g memory',
            '\x1b[0;32m[sandy]\x1b[0m   Network:           Egress proxy (permissive): public internet allowed; LAN/host/metadata blocked',
            '',
            '[stub-docker] (agent container would run here) sleeping 0s',
            ''
        ]),
        exitCode: 0
    },
    '06-relaunch-all-up-to-date-pty': {
        stdout: lines(CRLF, [
            '\x1b[0;32m[sandy]\x1b[0m Base image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Egress proxy image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Sandbox image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Skill pack base image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Skill pack image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Reusing sandbox: <HOME:full>/.sandy/sandboxes/ws-full-02bc234a',
            '\x1b[0;32m[sandy]\x1b[0m Project image up to date.',
            '\x1b[0;32m[sandy]\x1b[0m Creating egress-proxy networks (mode=permissive)...',
            '\x1b[0;32m[sandy]\x1b[0m Starting egress proxy sidecar (sandy-proxy-ws-full-02bc234a @ 10.200.0.2)...',
            '\x1b[1;33m[sandy]\x1b[0m No gh CLI token found. Git push/pull may not work.',
            '\x1b[1;33m[sandy]\x1b[0m Install gh (https://cli.github.com) and run \'gh auth login\', or use SANDY_SSH=agent.',
            '\x1b[0;32m[sandy]\x1b[0m Launching Claude Code sandbox...',
            '\x1b[0;32m[sandy]\x1b[0m   Working directory: <WS>/ws-full',
            '\x1b[0;32m[sandy]\x1b[0m   Sandbox:           <HOME:full>/.sandy/sandboxes/ws-full-02bc234a',
            '\x1b[0;32m[sandy]\x1b[0m   Resources:         4 CPUs, 7g memory',
            '\x1b[0;32m[sandy]\x1b[0m   Network:           Egress proxy (permissive): public internet allowed; LAN/host/metadata blocked',
            '',
            '[stub-docker] (agent container would run here) sleeping 0s',
            ''
        ]),
        exitCode: 0
    },
    '07-agent-image-build-fails-pty': {
        stdout: lines(CRLF, [
            '\x1b[0;32m[sandy]\x1b[0m Build files updated.',
            '\x1b[0;32m[sandy]\x1b[0m Building base image (language runtimes) — this may take several minutes on first run...',
            '\x1b[0;32m[sandy]\x1b[0m Building egress proxy image (sandy-proxy, ref=main)...',
            '\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...',
            ''
        ]),
        exitCode: 1
    },
    '08-no-docker-daemon-pty': {
        stdout: lines(CRLF, [
            '\x1b[0;31m[sandy]\x1b[0m Docker is installed but the daemon isn\'t responding.',
            '\x1b[0;31m[sandy]\x1b[0m   Start Docker (Docker Desktop, or \'sudo systemctl start docker\') and retry.',
            ''
        ]),
        exitCode: 1
    },
    '09-no-docker-daemon-pipe': {
        stdout: lines(LF, [
            ''
        ]),
        stderr: lines(LF, [
            '[sandy] Docker is installed but the daemon isn\'t responding.',
            '[sandy]   Start Docker (Docker Desktop, or \'sudo systemctl start docker\') and retry.',
            ''
        ]),
        exitCode: 1
    },
    '10-skill-packs-need-claude-pipe': {
        stdout: lines(LF, [
            '[sandy] Build files updated.',
            ''
        ]),
        stderr: lines(LF, [
            '[sandy] ERROR: SANDY_SKILL_PACKS requires claude in SANDY_AGENT (got \'codex\')',
            ''
        ]),
        exitCode: 1
    }
};
// FIXTURES END

/** What test/src/fake-sandy/launch.ts prints for `sandy --build-only` (first run, no TTY) and `--rebuild --build-only` on a TTY. */
const FAKE_BUILD_ONLY = lines(LF, [
    '[sandy] Build files updated.',
    '[sandy] Building base image (language runtimes) \u2014 this may take several minutes on first run...',
    '[sandy] Building egress proxy image (sandy-proxy, ref=main)...',
    '[sandy] Building sandbox image (may take a few minutes)...',
    '[sandy] Build complete. Exiting (--build-only).',
    ''
]);
const FAKE_REBUILD_TTY = lines(CRLF, [
    '\x1b[0;32m[sandy]\x1b[0m Build cache cleared. Images will be rebuilt.',
    '\x1b[0;32m[sandy]\x1b[0m Building base image (language runtimes) \u2014 this may take several minutes on first run...',
    '\x1b[0;32m[sandy]\x1b[0m Building egress proxy image (sandy-proxy, ref=main)...',
    '\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...',
    '\x1b[0;32m[sandy]\x1b[0m Build complete. Exiting (--build-only).',
    ''
]);
/** The fake's multi-agent first launch (no TTY), up to its launch line and a little after. */
const FAKE_MULTI_LAUNCH = lines(LF, [
    '[sandy] Base image up to date.',
    '[sandy] Egress proxy image up to date.',
    '[sandy] Building sandbox image (may take a few minutes)...',
    '[sandy] Creating new sandbox: <HOME>/.sandy/sandboxes/ws-3f97ac9f',
    '[sandy] Launching claude + codex sandbox (2-pane)...',
    '[sandy]   Working directory: <WS>/ws',
    ''
]);
/** The fake's refusal of a world-open LAN allowance: `rawErr` lines on stderr, never coloured. */
const FAKE_LAN_REFUSAL = lines(LF, [
    '[sandy] ERROR: SANDY_ALLOW_LAN_HOSTS contains a world-open entry: 0.0.0.0/0',
    '[sandy]   This would negate sandy\'s LAN isolation. Refusing to start.',
    ''
]);
/** The real sandy's `--start` (shared fixture 93, its first lines): the supervisor's log with forced colours. */
const DAEMON_START = lines(LF, [
    '[sandy] Starting daemon session for <WS>/ws-daemon...',
    '\x1b[0;32m[sandy]\x1b[0m Building base image (language runtimes) \u2014 this may take several minutes on first run...',
    '\x1b[0;32m[sandy]\x1b[0m Building egress proxy image (sandy-proxy, ref=main)...',
    '\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...',
    '\x1b[0;32m[sandy]\x1b[0m Creating new sandbox: <HOME:daemon>/.sandy/sandboxes/ws-daemon-3f97ac9f',
    '\x1b[0;32m[sandy]\x1b[0m Creating egress-proxy networks (mode=permissive)...',
    '\x1b[1;33m[sandy]\x1b[0m No gh CLI token found. Git push/pull may not work.',
    '\x1b[0;32m[sandy]\x1b[0m Launching Claude Code sandbox...',
    '\x1b[0;32m[sandy]\x1b[0m   Working directory: <WS>/ws-daemon',
    ''
]);

/** Feeds `text` in chunks of `size(i)` characters, the clock moving `tick` ms per chunk. */
function feed(parser: BuildTimelineParser, text: string, size: (i: number) => number, stream?: BuildOutputStream, clock?: { t: number; tick: number }): void {
    for (let at = 0, i = 0; at < text.length; i++) {
        const n = Math.max(1, size(i));
        parser.push(text.slice(at, at + n), stream);
        at += n;
        if (clock) {
            clock.t += clock.tick;
        }
    }
}

/** A recording as the service sees it: stdout, then stderr (each on its own stream when `streams`), then the exit. */
function parse(rec: Recording, size: (i: number) => number = () => Number.MAX_SAFE_INTEGER, streams = true): BuildTimeline {
    const parser = new BuildTimelineParser(() => 0);
    feed(parser, rec.stdout, size, 'stdout');
    feed(parser, rec.stderr ?? '', size, streams ? 'stderr' : 'stdout');
    parser.end(rec.exitCode);
    return parser.timeline();
}

type Row = [BuildPhaseId, string] | [BuildPhaseId, string, string];
function rows(t: BuildTimeline): Row[] {
    return t.phases.map(p => (p.detail === undefined ? [p.id, p.state] : [p.id, p.state, p.detail]));
}

const BUILT_THREE: Row[] = [['base', 'done'], ['proxy', 'done', 'ref=main'], ['agent', 'done']];
const UP_TO_DATE_THREE: Row[] = [['base', 'up-to-date'], ['proxy', 'up-to-date'], ['agent', 'up-to-date']];

const EXPECTED: Record<string, { rows: Row[]; state: BuildTimeline['state']; error?: string }> = {
    '01-build-only-first-run-pty': { rows: BUILT_THREE, state: 'done' },
    '02-build-only-first-run-pipe': { rows: BUILT_THREE, state: 'done' },
    '03-build-only-up-to-date-pty': { rows: UP_TO_DATE_THREE, state: 'done' },
    '04-rebuild-build-only-pty': { rows: BUILT_THREE, state: 'done' },
    '05-first-launch-skill-pack-and-project-pty': {
        rows: [...BUILT_THREE, ['skill-base', 'done', 'Playwright + Chromium'], ['skills', 'done', 'gstack'], ['project', 'done']], state: 'done'
    },
    '06-relaunch-all-up-to-date-pty': {
        rows: [...UP_TO_DATE_THREE, ['skill-base', 'up-to-date'], ['skills', 'up-to-date'], ['project', 'up-to-date']], state: 'done'
    },
    '07-agent-image-build-fails-pty': { rows: [['base', 'done'], ['proxy', 'done', 'ref=main'], ['agent', 'failed']], state: 'failed' },
    '08-no-docker-daemon-pty': {
        rows: [], state: 'failed',
        error: 'Docker is installed but the daemon isn\'t responding. Start Docker (Docker Desktop, or \'sudo systemctl start docker\') and retry.'
    },
    '09-no-docker-daemon-pipe': {
        rows: [], state: 'failed',
        error: 'Docker is installed but the daemon isn\'t responding. Start Docker (Docker Desktop, or \'sudo systemctl start docker\') and retry.'
    },
    '10-skill-packs-need-claude-pipe': { rows: [], state: 'failed', error: 'ERROR: SANDY_SKILL_PACKS requires claude in SANDY_AGENT (got \'codex\')' }
};

/** A small seeded generator, so a failing fuzz case can be run again. */
function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        return s / 2 ** 32;
    };
}

const UNCLEAN = /[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

function expectClean(t: BuildTimeline): void {
    expect(t.phases.length).to.be.at.most(MAX_BUILD_PHASES);
    expect(new Set(t.phases.map(p => p.id)).size, 'one row per phase').to.equal(t.phases.length);
    expect(['waiting', 'building', 'done', 'failed']).to.include(t.state);
    for (const p of t.phases) {
        expect(p.label).to.equal(BUILD_PHASE_LABELS[p.id]);
        expect(p.detail ?? '').to.have.length.at.most(80).and.not.match(UNCLEAN);
        expect(Number.isFinite(p.startedAt)).to.equal(true);
    }
    expect(t.error ?? '').to.have.length.at.most(600).and.not.match(UNCLEAN);
    for (const line of buildTimelineText(t, 0)) {
        expect(line).to.not.match(UNCLEAN);
    }
}

describe('build timeline: sandy\'s image build as phases (unit)', () => {

    describe('real sandy 1.7.1 output (test/fixtures/sandy-build)', () => {
        for (const [name, rec] of Object.entries(FIXTURES)) {
            const want = EXPECTED[name];

            it(`${name}: ${want.rows.map(r => r[0]).join(' → ') || 'no phase'}, ${want.state}`, () => {
                const t = parse(rec);
                expect(rows(t)).to.deep.equal(want.rows);
                expect(t.state).to.equal(want.state);
                expect(t.error).to.equal(want.error);
                expectClean(t);
            });

            it(`${name}: the same when fed in chunks of 1 to 7 characters`, () => {
                const whole = parse(rec);
                for (let n = 1; n <= 7; n++) {
                    expect(parse(rec, () => n), `chunks of ${n}`).to.deep.equal(whole);
                }
                const next = random(name.length * 7919);
                expect(parse(rec, () => 1 + Math.floor(next() * 7)), 'chunks of 1 to 7 at random').to.deep.equal(whole);
            });
        }

        it('every recording is expected something of', () => {
            expect(Object.keys(EXPECTED)).to.deep.equal(Object.keys(FIXTURES));
        });

        it('each phase ends when the next one starts, and the last when the build completes', () => {
            const clock = { t: 0, tick: 0 };
            const parser = new BuildTimelineParser(() => clock.t);
            const times = [0, 1_000, 125_000, 130_000, 190_000];
            FIXTURES['01-build-only-first-run-pty'].stdout.split(CRLF).forEach((line, i) => {
                clock.t = times[i] ?? clock.t;
                parser.push(line + CRLF);
            });
            const t = parser.timeline();
            expect(t.phases.map(p => [p.id, p.startedAt, p.endedAt])).to.deep.equal([['base', 1_000, 125_000], ['proxy', 125_000, 130_000], ['agent', 130_000, 190_000]]);
            expect(buildTimelineText(t, 999_999)).to.deep.equal([
                '✔ Base image (language runtimes) — 2 min 4 s',
                '✔ Egress proxy image (ref=main) — 5 s',
                '✔ Agent image — 1 min'
            ]);
            expect(buildStateText(t)).to.equal('The images are built.');
        });

        it('while a phase runs, its time is counted to now', () => {
            let now = 5_000;
            const parser = new BuildTimelineParser(() => now);
            parser.push(FIXTURES['05-first-launch-skill-pack-and-project-pty'].stdout.split(CRLF).slice(0, 3).join(CRLF) + CRLF);
            now = 65_000;
            const t = parser.timeline();
            expect(t.state).to.equal('building');
            expect(rows(t)).to.deep.equal([['base', 'running']]);
            expect(phaseElapsed(t.phases[0], now)).to.equal(60_000);
            expect(buildTimelineText(t, now)).to.deep.equal(['… Base image (language runtimes) — 1 min']);
            expect(buildStateText(t)).to.equal('Building images…');
        });

        it('a first launch: the approval text is no phase, "Creating new sandbox" ends nothing, the launch line ends the build', () => {
            const parser = new BuildTimelineParser(() => 0);
            const stdout = FIXTURES['05-first-launch-skill-pack-and-project-pty'].stdout;
            const upToSandbox = stdout.slice(0, stdout.indexOf('Creating new sandbox'));
            parser.push(upToSandbox);
            parser.push(stdout.slice(upToSandbox.length, stdout.indexOf('Building project image')));
            // `[sandy] Building it runs its RUN commands …` and `… [y/N] [sandy] Approved.` are read, and neither is a phase.
            expect(parser.timeline().state).to.equal('building');
            expect(rows(parser.timeline()).map(r => r[0])).to.deep.equal(['base', 'proxy', 'agent', 'skill-base', 'skills']);
            parser.push(stdout.slice(stdout.indexOf('Building project image')));
            expect(parser.timeline().state, 'done at "Launching", before sandy exits').to.equal('done');
            parser.push('\x1b[0;31m[sandy]\x1b[0m Daemon container is crash-looping — giving up.\r\n');
            parser.end(1);
            expect(parser.timeline().state, 'what the session does after the launch is not the build').to.equal('done');
            expect(parser.timeline().error).to.equal(undefined);
        });

        it('a failed agent build: sandy says nothing (set -e), the exit code fails the running phase', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push(FIXTURES['07-agent-image-build-fails-pty'].stdout);
            expect(parser.timeline().state).to.equal('building');
            expect(rows(parser.timeline()).pop()).to.deep.equal(['agent', 'running']);
            parser.end(1);
            const t = parser.timeline();
            expect(buildTimelineText(t, 0).pop()).to.equal('✘ Agent image — failed after 0 s');
            expect(buildStateText(t)).to.equal('Building the agent image failed. Show the raw log for everything sandy printed, fix the cause, then build again.');
        });

        it('sandy\'s red error() fails the build as soon as it is read; its indented lines go on with it', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push(FIXTURES['08-no-docker-daemon-pty'].stdout);
            expect(parser.timeline().state).to.equal('failed');
            expect(parser.timeline().error).to.equal(EXPECTED['08-no-docker-daemon-pty'].error);
            expect(buildStateText(parser.timeline())).to.equal(`The build failed: ${EXPECTED['08-no-docker-daemon-pty'].error} Show the raw log for everything sandy printed, fix the cause, then build again.`);
        });

        it('without a terminal sandy\'s error() is uncoloured: only its stream tells it apart, so without the stream there are no words', () => {
            const rec = FIXTURES['09-no-docker-daemon-pipe'];
            const parser = new BuildTimelineParser(() => 0);
            parser.push(rec.stderr ?? '', 'stderr');
            expect(parser.timeline().state, 'uncoloured: not certain until the exit').to.equal('waiting');
            parser.end(rec.exitCode);
            expect(parser.timeline().error).to.equal(EXPECTED['09-no-docker-daemon-pipe'].error);
            const blind = parse(rec, undefined, false);
            expect(blind.state).to.equal('failed');
            expect(blind.error).to.equal(undefined);
        });
    });

    describe('the fake sandy (test/src/fake-sandy) the end-to-end test runs', () => {
        it('--build-only and --rebuild --build-only read like the real sandy\'s', () => {
            expect(rows(parse({ stdout: FAKE_BUILD_ONLY, exitCode: 0 }))).to.deep.equal(BUILT_THREE);
            expect(parse({ stdout: FAKE_REBUILD_TTY, exitCode: 0 }, () => 3)).to.deep.equal(parse(FIXTURES['04-rebuild-build-only-pty']));
        });

        it('a multi-agent first launch is done at its launch line', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push(FAKE_MULTI_LAUNCH);
            expect(rows(parser.timeline())).to.deep.equal([['base', 'up-to-date'], ['proxy', 'up-to-date'], ['agent', 'done']]);
            expect(parser.timeline().state).to.equal('done');
        });

        it('a refusal: `[sandy] ERROR:` and the line after it on stderr', () => {
            const t = parse({ stdout: '[sandy] Build files updated.\n', stderr: FAKE_LAN_REFUSAL, exitCode: 1 });
            expect(t.state).to.equal('failed');
            expect(t.error).to.equal('ERROR: SANDY_ALLOW_LAN_HOSTS contains a world-open entry: 0.0.0.0/0 This would negate sandy\'s LAN isolation. Refusing to start.');
        });

        it('sandy --start (the daemon supervisor\'s log) is done at its launch line too', () => {
            const t = parse({ stdout: DAEMON_START, exitCode: 0 }, () => 5);
            expect(rows(t)).to.deep.equal(BUILT_THREE);
            expect(t.state).to.equal('done');
        });
    });

    describe('lines around the phases', () => {
        it('an agent update sandy found is the agent phase\'s detail (sandy:6627)', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push('[sandy] Base image up to date.\n[sandy] Claude Code update available: 2.1.0 → 2.2.0\n[sandy] Building sandbox image (may take a few minutes)...\n');
            expect(rows(parser.timeline())).to.deep.equal([['base', 'up-to-date'], ['agent', 'running', 'Claude Code 2.1.0 → 2.2.0']]);
        });

        it('docker\'s own failure words explain a non-zero exit (the last run of them)', () => {
            // BuildKit's shape (not recorded: no Docker engine here); sandy itself prints nothing when `docker build` fails.
            const parser = new BuildTimelineParser(() => 0);
            parser.push('[sandy] Building sandbox image (may take a few minutes)...\n');
            parser.push([
                '#7 ERROR: process "/bin/sh -c apt-get install -y nope" did not complete successfully: exit code: 100',
                '------',
                ' > [2/3] RUN apt-get install -y nope:',
                '0.345 E: Unable to locate package nope',
                '------',
                'ERROR: failed to solve: process "/bin/sh -c apt-get install -y nope" did not complete successfully: exit code: 100',
                ''
            ].join('\n'), 'stderr');
            expect(parser.timeline().state, 'docker\'s words alone fail nothing').to.equal('building');
            parser.end(1);
            expect(parser.timeline().error).to.equal('ERROR: failed to solve: process "/bin/sh -c apt-get install -y nope" did not complete successfully: exit code: 100');
            expect(rows(parser.timeline())).to.deep.equal([['agent', 'failed']]);
        });

        it('what sandy said on stderr before a phase began does not explain a failure in it', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push('[sandy] Non-interactive session — dropping these keys.\n', 'stderr');
            parser.push('[sandy] Building base image (language runtimes) — this may take several minutes on first run...\n');
            parser.end(1);
            expect(parser.timeline()).to.deep.equal({ phases: [{ id: 'base', label: BUILD_PHASE_LABELS.base, state: 'failed', startedAt: 0, endedAt: 0 }], state: 'failed' });
        });

        it('only sandy\'s tagged lines count: docker output and the Dockerfile review are no phases', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push('Building base image (language runtimes)\n#5 0.3 [sandy] Building sandbox image\n[sandy]   | RUN echo [sandy] Building project image from .sandy/Dockerfile...\n');
            parser.push('[sandy] Building it runs its RUN commands on your HOST docker daemon with\n');
            expect(parser.timeline()).to.deep.equal({ phases: [], state: 'waiting' });
        });

        it('a prompt and sandy\'s next line on one terminal line are two lines', () => {
            expect(buildLineSegments('[sandy] Build this .sandy/Dockerfile for <WS>/ws? [y/N] \x1b[0;32m[sandy]\x1b[0m Building project image from .sandy/Dockerfile...')).to.deep.equal([
                { tag: 'sandy', text: 'Build this .sandy/Dockerfile for <WS>/ws? [y/N]', indented: false },
                { tag: 'sandy', text: 'Building project image from .sandy/Dockerfile...', indented: false }
            ]);
            expect(plainBuildLine('\x1b[0;31m[sandy]\x1b[0m   Start Docker and retry.\r')).to.equal('[sandy] Start Docker and retry.');
        });

        it('end: exit 0 ends the running phase done; a second end and later output change nothing', () => {
            const parser = new BuildTimelineParser(() => 7);
            parser.push('[sandy] Building base image (language runtimes)');
            parser.end(0);
            parser.end(1);
            parser.push('\x1b[0;31m[sandy]\x1b[0m too late\n');
            expect(parser.timeline()).to.deep.equal({ phases: [{ id: 'base', label: BUILD_PHASE_LABELS.base, state: 'done', startedAt: 7, endedAt: 7 }], state: 'done' });
            const never = new BuildTimelineParser(() => 0);
            never.end(undefined);
            expect(never.timeline(), 'sandy could not be run').to.deep.equal({ phases: [], state: 'failed' });
        });

        it('the timeline is a copy', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push('[sandy] Building base image\n');
            parser.timeline().phases[0].state = 'failed';
            expect(parser.timeline().phases[0].state).to.equal('running');
        });
    });

    describe('words', () => {
        it('every phase has its words, in sandy\'s order', () => {
            expect(BUILD_PHASE_ORDER).to.deep.equal(['base', 'proxy', 'agent', 'skill-base', 'skills', 'project']);
            expect(Object.keys(BUILD_PHASE_LABELS).sort()).to.deep.equal([...BUILD_PHASE_ORDER].sort());
        });

        it('durations', () => {
            const cases: Array<[number, string]> = [[0, '0 s'], [999, '0 s'], [59_999, '59 s'], [60_000, '1 min'], [123_000, '2 min 3 s'],
                [3_600_000, '1 h'], [3_900_000, '1 h 5 min'], [-5, '0 s'], [NaN, '0 s'], [Infinity, '0 s']];
            for (const [ms, text] of cases) {
                expect(buildDurationText(ms), String(ms)).to.equal(text);
            }
        });

        it('a phase\'s line in each state', () => {
            const base = { id: 'skills' as const, label: BUILD_PHASE_LABELS.skills, detail: 'gstack', startedAt: 1_000 };
            expect(buildPhaseText({ ...base, state: 'running' }, 4_000)).to.equal('… Skill packs (gstack) — 3 s');
            expect(buildPhaseText({ ...base, state: 'done', endedAt: 62_000 }, 99_000)).to.equal('✔ Skill packs (gstack) — 1 min 1 s');
            expect(buildPhaseText({ ...base, state: 'up-to-date', endedAt: 1_000 }, 99_000)).to.equal('✔ Skill packs (gstack) — up to date');
            expect(buildPhaseText({ ...base, state: 'failed', endedAt: 2_000 }, 99_000)).to.equal('✘ Skill packs (gstack) — failed after 1 s');
            expect(phaseElapsed({ ...base, state: 'running' }, 0), 'a clock that went back').to.equal(0);
        });

        it('where the build stands', () => {
            expect(buildStateText({ phases: [], state: 'waiting' })).to.equal('Waiting for sandy to start building…');
            expect(buildStateText({ phases: [], state: 'failed' })).to.equal('The build failed. Show the raw log for everything sandy printed, fix the cause, then build again.');
        });
    });

    describe('hostile output: bounded, clean, never throws', () => {
        it('a huge line without a newline is looked at up to a cap; the next line still counts', () => {
            const parser = new BuildTimelineParser(() => 0);
            const huge = 'x'.repeat(1_000_000);
            feed(parser, huge, () => 65_536);
            feed(parser, huge, () => 1 + (huge.length % 7) * 10_000);
            parser.push('\n[sandy] Building base image (language runtimes)...\n');
            expect(rows(parser.timeline())).to.deep.equal([['base', 'running']]);
            parser.push(`\x1b[0;31m[sandy]\x1b[0m ${'A'.repeat(1_000_000)}\n`);
            const t = parser.timeline();
            expect(t.state).to.equal('failed');
            expect(t.error).to.have.length(MAX_BUILD_LINE);
        });

        it('escape sequences, control, zero-width and bidi characters are stripped; sandy\'s words survive', () => {
            const parser = new BuildTimelineParser(() => 0);
            parser.push('\x1b]0;evil title\x07\x1b[2J\x1b[H\x1bP1$r\x1b\\\x9b31m\x1b[0;32m[sandy]\x1b[0m Building skill pack image (\x1b]8;;https://evil.example\x07g\u202estack\u200b\x1b]8;;\x07\x00\x08)...\n');
            parser.push('[sandy] Building egress proxy image (sandy-proxy, ref=\x1b[1mmain\x1b[0m\x7f)...\n');
            expect(rows(parser.timeline())).to.deep.equal([['skills', 'done', 'gstack'], ['proxy', 'running', 'ref=main']]);
            parser.push('\x1b[0;31m[sandy]\x1b[0m \x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07bad\x1b[31m thing\x9d0;title\x9c\x1b');
            parser.end(1);
            expect(parser.timeline().error).to.equal('bad thing');
            expectClean(parser.timeline());
        });

        it('10 000 "Building" lines: one row per phase, a capped error', () => {
            const parser = new BuildTimelineParser(() => 0);
            const starts = ['Building base image', 'Building egress proxy image (sandy-proxy, ref=x)', 'Building sandbox image', 'Building skill pack base image (y)',
                'Building skill pack image (z)', 'Building project image', 'Base image up to date.'];
            const text = Array.from({ length: 10_000 }, (_, i) => `\x1b[0;32m[sandy]\x1b[0m ${starts[i % starts.length]} ${i}\r\n`).join('');
            const started = Date.now();
            feed(parser, text, i => 1 + (i % 4093));
            expect(Date.now() - started, 'fast').to.be.below(2_000);
            expect(parser.timeline().phases).to.have.length(MAX_BUILD_PHASES);
            feed(parser, Array.from({ length: 10_000 }, (_, i) => `\x1b[0;31m[sandy]\x1b[0m   error ${i} ${'e'.repeat(250)}\n`).join(''), () => 999);
            parser.end(1);
            expect(parser.timeline().error).to.have.length(600);
            expectClean(parser.timeline());
        });

        it('random bytes in random chunks on both streams, and bad arguments, never throw', () => {
            const next = random(42);
            const alphabet = ['\x1b', '[', ']', '\x07', '\r', '\n', '\x00', '\x9b', '\u202e', ';', '0', '31m', 'm', ' ', '[sandy]', '\x1b[0;31m[sandy]', 'Building base image',
                'Building skill pack image (', ')', 'up to date.', 'Base image', 'ERROR:', '[y/N] ', 'Launching', 'Build complete', 'x', 'é', '\ud800'];
            for (let round = 0; round < 50; round++) {
                let clockCalls = 0;
                const parser = new BuildTimelineParser(() => (++clockCalls % 5 === 0 ? NaN : clockCalls));
                for (let i = 0; i < 200; i++) {
                    const chunk = Array.from({ length: 1 + Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
                    parser.push(chunk, next() < 0.3 ? 'stderr' : 'stdout');
                }
                parser.end(next() < 0.5 ? 0 : 1);
                expectClean(parser.timeline());
            }
            const parser = new BuildTimelineParser(() => {
                throw new Error('clock');
            });
            parser.push(undefined as unknown as string);
            parser.push(42 as unknown as string);
            parser.push('[sandy] Building base image\n', 'bogus' as unknown as BuildOutputStream);
            parser.end(NaN);
            expect(parser.timeline()).to.deep.equal({ phases: [{ id: 'base', label: BUILD_PHASE_LABELS.base, state: 'failed', startedAt: 0, endedAt: 0 }], state: 'failed' });
        });
    });
});
