import { expect } from 'chai';
import {
    DISK_FAIL_BYTES, DISK_WARN_BYTES, diskCheck, dockerCliCheck, dockerDaemonCheck, localBinCheck, prerequisiteLines, reportOf, sandyInstallFix
} from './prerequisites';
import { SANDY_INSTALL_COMMAND } from '../projects/project-labels';

describe('prerequisite checks (Get Started, sandy-ui doctor)', () => {
    it('no docker CLI fails with the installer for the platform, none where there is no one command', () => {
        const linux = dockerCliCheck(undefined, 'linux');
        expect(linux.status).to.equal('fail');
        expect(linux.summary).to.include('Docker is not installed or not in PATH');
        expect(linux.fix?.command).to.equal('curl -fsSL https://get.docker.com | sh');
        expect(dockerCliCheck(undefined, 'darwin').fix?.command).to.equal('brew install --cask docker');
        expect(dockerCliCheck(undefined, 'win32').fix).to.equal(undefined);
        expect(dockerCliCheck('/usr/bin/docker', 'linux')).to.deep.equal({ id: 'docker-cli', status: 'ok', summary: 'docker CLI at /usr/bin/docker' });
    });

    it('a daemon that does not answer fails with sandy\'s own advice and the start command', () => {
        const down = dockerDaemonCheck({ ok: false, reason: 'connect ENOENT /var/run/docker.sock' }, 'linux');
        expect(down.status).to.equal('fail');
        expect(down.summary).to.equal('Docker daemon not reachable: connect ENOENT /var/run/docker.sock');
        expect(down.hint).to.include('Start Docker');
        expect(down.fix?.command).to.equal('sudo systemctl start docker');
        expect(dockerDaemonCheck({ ok: false, reason: 'x' }, 'darwin').fix?.command).to.equal('open -a Docker');
        expect(dockerDaemonCheck({ ok: true, apiVersion: '1.45' }, 'linux').summary).to.equal('Docker daemon reachable (API 1.45)');
    });

    it('free space: a fail below 5 GiB, a warning below 15 GiB, a warning when it cannot be read', () => {
        expect(diskCheck({ bytes: DISK_FAIL_BYTES - 1, where: '/home/u' }).status).to.equal('fail');
        expect(diskCheck({ bytes: DISK_FAIL_BYTES - 1, where: '/home/u' }).hint).to.include('docker system prune');
        expect(diskCheck({ bytes: DISK_WARN_BYTES - 1, where: '/home/u' }).status).to.equal('warn');
        expect(diskCheck({ bytes: DISK_WARN_BYTES, where: '/home/u' })).to.deep.equal({ id: 'disk', status: 'ok', summary: '15.0 GiB free on /home/u' });
        expect(diskCheck(undefined).status).to.equal('warn');
    });

    it('~/.local/bin off PATH fails only when the selected sandy is there, and offers the profile line', () => {
        const there = localBinCheck('/home/u/.local/bin', false, true, true);
        expect(there.status).to.equal('fail');
        expect(there.fix?.command).to.equal('echo \'export PATH="$HOME/.local/bin:$PATH"\' >> ~/.profile');
        expect(localBinCheck('/home/u/.local/bin', false, false, true).status).to.equal('warn');
        expect(localBinCheck('/home/u/.local/bin', false, false, false).hint).to.include(SANDY_INSTALL_COMMAND);
        expect(localBinCheck('/home/u/.local/bin', true, true, true).status).to.equal('ok');
    });

    it('a report is ok unless something failed; warnings do not hold the wizard back', () => {
        const warn = localBinCheck('/b', false, false, true);
        expect(reportOf([warn], 'linux').ok).to.equal(true);
        expect(reportOf([warn, dockerCliCheck(undefined, 'linux')], 'linux').ok).to.equal(false);
    });

    it('the CLI lines show the hint and the fix command under a failing check only', () => {
        const lines = prerequisiteLines(reportOf([
            { id: 'sandy', status: 'fail', summary: 'sandy was not found', hint: 'Install it', fix: sandyInstallFix() },
            dockerCliCheck('/usr/bin/docker', 'linux')
        ], 'linux'));
        expect(lines).to.deep.equal([
            '✘ sandy was not found', '    → Install it', `    $ ${SANDY_INSTALL_COMMAND}`,
            '✔ docker CLI at /usr/bin/docker',
            'Some checks failed; fix the items marked ✘.'
        ]);
    });
});
