import { expect } from 'chai';
import type { SessionInfo } from '../session/session-types';
import { describeExit, isLongRunning, sessionLinkBanner } from './labels';

type Banner = Parameters<typeof sessionLinkBanner>[0];

const HOUR = 3_600_000;

describe('labels: how a session ended, its banner and its age (unit)', () => {
    describe('describeExit', () => {
        const exited = (more: Partial<SessionInfo>) => describeExit({ status: 'exited', ...more });

        it('a daemon session stopped with sandy --stop says so; a foreground one was "stopped", whatever its exit code', () => {
            expect(exited({ endReason: 'stopped', mode: 'daemon', exitCode: 0 })).to.equal('The daemon session was stopped (sandy --stop).');
            expect(exited({ endReason: 'stopped', mode: 'foreground', exitCode: 130 })).to.equal('sandy was stopped.');
            expect(exited({ endReason: 'stopped', signal: 'SIGKILL' }), 'the reason beats the signal').to.equal('sandy was stopped.');
        });

        it('the agent exited (the daemon shuts down) and a container gone outside the IDE are told apart from an exit code', () => {
            expect(exited({ endReason: 'agent-exited', mode: 'daemon', exitCode: 0 })).to.equal('The agent exited; its daemon session has ended.');
            expect(exited({ endReason: 'gone', mode: 'daemon', exitCode: 0 })).to.equal('The daemon session ended outside the IDE (its container is gone).');
            expect(exited({ mode: 'daemon', exitCode: 0 }), 'no reason: the exit code speaks').to.equal('sandy exited normally.');
        });

        it('a start that failed says why when the IDE knows, else points at sandy\'s own words above (with --start\'s exit code)', () => {
            expect(exited({ endReason: 'start-failed', mode: 'daemon', exitCode: 1, problem: { message: 'sandy was not found.', hint: 'Set sandy.path.' } }))
                .to.equal('sandy could not be started: sandy was not found.');
            expect(exited({ endReason: 'start-failed', mode: 'daemon', exitCode: 1 }))
                .to.equal('sandy --start did not start the session (exit 1); sandy\'s reason is above.');
            expect(exited({ endReason: 'start-failed', mode: 'daemon', signal: 'SIGTERM' }))
                .to.equal('sandy --start did not start the session; sandy\'s reason is above.');
            expect(exited({ endReason: 'start-failed', mode: 'foreground', exitCode: 1 })).to.equal('sandy could not be started.');
        });

        it('a session still running is running, whatever reason it carries', () => {
            expect(describeExit({ status: 'running', endReason: 'stopped', mode: 'daemon' })).to.equal('sandy is running.');
            expect(describeExit({ status: 'stopping', endReason: 'gone' })).to.equal('sandy is running.');
        });

        it('sandy 2.x\'s exit 6 (refused before launch, fixable in one step) points at sandy\'s own words, in the foreground and from --start', () => {
            const text = 'sandy refused to launch (exit 6: refused before launch, fixable in one step). sandy\'s last lines above name the cause and the one step that fixes it; then Launch again.';
            expect(exited({ exitCode: 6, mode: 'foreground' })).to.equal(text);
            expect(exited({ exitCode: 6, mode: 'daemon', endReason: 'start-failed' })).to.equal(text);
            expect(exited({ exitCode: 1, mode: 'daemon', endReason: 'start-failed' })).to.equal('sandy --start did not start the session (exit 1); sandy\'s reason is above.');
        });

        it('without a reason: the exit code or signal of CONTRACT §6.5', () => {
            expect(exited({ exitCode: 130 })).to.equal('sandy stopped (interrupted, exit 130).');
            expect(exited({ exitCode: 143 })).to.equal('sandy stopped (terminated, exit 143).');
            expect(exited({ exitCode: 129 })).to.equal('sandy stopped (hang-up, exit 129).');
            expect(exited({ exitCode: 2 })).to.equal('sandy exited with code 2.');
            expect(exited({})).to.equal('sandy ended.');
            expect(exited({ signal: 'SIGHUP' })).to.equal('sandy ended on SIGHUP.');
            expect(exited({ signal: 'SIGKILL' })).to.contain('SIGKILL').and.contain('stale lock');
        });
    });

    describe('sessionLinkBanner', () => {
        const daemon = (more: Partial<Banner>): Banner => ({ mode: 'daemon', origin: 'ide', link: 'attached', status: 'running', ...more });

        it('says nothing while the IDE shows a session live: attached daemon, our own detached daemon, a foreground session', () => {
            expect(sessionLinkBanner(daemon({}))).to.equal(undefined);
            expect(sessionLinkBanner(daemon({ link: 'detached' })), 'ours: the view attaching re-attaches it').to.equal(undefined);
            expect(sessionLinkBanner({ mode: 'foreground', origin: 'ide', status: 'running' })).to.equal(undefined);
            expect(sessionLinkBanner(daemon({ status: 'stopping' }))).to.equal(undefined);
        });

        it('starting: how far sandy --start got (building, starting its container, attachable), or just starting', () => {
            expect(sessionLinkBanner(daemon({ link: 'starting' }))).to.equal('Starting the daemon session (sandy --start: images, then the container)…');
            expect(sessionLinkBanner(daemon({ link: 'starting', startPhase: 'building' })))
                .to.equal('Starting the daemon session: building images (sandy --start; the first build takes minutes)…');
            expect(sessionLinkBanner(daemon({ link: 'starting', startPhase: 'starting' }))).to.equal('Starting the daemon session: starting its container (sandy --start)…');
            expect(sessionLinkBanner(daemon({ link: 'starting', startPhase: 'ready' }))).to.equal('Starting the daemon session: attachable, attaching…');
            expect(sessionLinkBanner(daemon({ link: 'attached', startPhase: 'ready' })), 'the phase only while starting').to.equal(undefined);
        });

        it('elsewhere: another terminal attached, Take Back shows it here', () => {
            expect(sessionLinkBanner(daemon({ link: 'elsewhere' }))).to.equal('Attached in another terminal (sandy --attach there took it over). Take Back shows it here again.');
            expect(sessionLinkBanner(daemon({ link: 'elsewhere', origin: 'outside' }))).to.contain('Take Back');
        });

        it('a shell\'s session nobody is attached to: started outside the IDE, Attach shows it', () => {
            expect(sessionLinkBanner(daemon({ origin: 'outside', link: 'detached' })))
                .to.equal('Started outside the IDE. Attach shows it here (it takes it from any other terminal).');
            expect(sessionLinkBanner(daemon({ origin: 'outside', link: 'attached' })), 'once attached here, nothing to say').to.equal(undefined);
        });

        it('an orphan can only be stopped', () => {
            expect(sessionLinkBanner({ mode: 'foreground', origin: 'orphan', status: 'running' }))
                .to.equal('Started by an IDE that has since quit: its terminal cannot be shown. Stop it to launch again.');
        });

        it('a problem is said with its hint, before the link', () => {
            const problem = { message: 'The daemon session did not stop within 15 s (sandy --stop, exit 5).', hint: 'Stop again, or run sandy --stop in the workspace to see why.' };
            expect(sessionLinkBanner(daemon({ problem }))).to.equal(`${problem.message} ${problem.hint}`);
            expect(sessionLinkBanner(daemon({ link: 'elsewhere', problem }))).to.equal(`${problem.message} ${problem.hint}`);
            expect(sessionLinkBanner(daemon({ link: 'detached', problem: { message: 'sandy --attach failed (exit 1).', hint: '' } }))).to.equal('sandy --attach failed (exit 1).');
        });

        it('an ended session has no live banner (its exit line says how it ended)', () => {
            expect(sessionLinkBanner(daemon({ status: 'exited', link: 'elsewhere' }))).to.equal(undefined);
            expect(sessionLinkBanner({ mode: 'foreground', origin: 'orphan', status: 'exited' })).to.equal(undefined);
            expect(sessionLinkBanner(daemon({ status: 'exited', problem: { message: 'x', hint: 'y' } }))).to.equal(undefined);
        });
    });

    describe('isLongRunning', () => {
        const now = 1_000 * HOUR;

        it('a live session is long-running from the configured age on, not a moment before', () => {
            expect(isLongRunning({ status: 'running', startedAt: now - 24 * HOUR }, 24, now)).to.equal(true);
            expect(isLongRunning({ status: 'running', startedAt: now - 24 * HOUR + 1 }, 24, now)).to.equal(false);
            expect(isLongRunning({ status: 'stopping', startedAt: now - 100 * HOUR }, 24, now)).to.equal(true);
            expect(isLongRunning({ status: 'running', startedAt: now - 90 * 60_000 }, 1.5, now)).to.equal(true);
            expect(isLongRunning({ status: 'running', startedAt: now - 89 * 60_000 }, 1.5, now)).to.equal(false);
        });

        it('never for an ended session, nor with the nudge off (0 hours)', () => {
            expect(isLongRunning({ status: 'exited', startedAt: now - 100 * HOUR }, 24, now)).to.equal(false);
            expect(isLongRunning({ status: 'running', startedAt: now - 100 * HOUR }, 0, now)).to.equal(false);
        });

        it('a clock that went back (startedAt in the future) is not long-running', () => {
            expect(isLongRunning({ status: 'running', startedAt: now + HOUR }, 24, now)).to.equal(false);
        });
    });
});
