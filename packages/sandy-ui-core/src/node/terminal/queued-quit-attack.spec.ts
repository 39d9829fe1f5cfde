/**
 * Attack: the IDE quits (Theia onStop, a VS Code window reload or close) while a
 * foreground launch waits for its turn through sandy's build (another launch, of this IDE or of
 * another window, holds the build gate). The waiting session has no process yet (pid 0), yet
 * PtySupervisor.dispose sends it SIGTERM and, after the grace, SIGKILL — and signalProcessGroup(0)
 * is process.kill(-0) = kill(0, sig): the IDE's OWN process group. In the VS Code extension host that
 * group is VS Code's (every window); in Electron, the app's. Expected: no signal to a pid ≤ 1 ever.
 */
import { expect } from 'chai';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PtyLike, PtySupervisor } from './pty-supervisor';
import { BuildGate } from './build-gate';

describe('Attack: quitting while a foreground launch is queued signals the IDE\'s own process group (unit)', () => {
    it('dispose sends no signal to the queued session\'s pid 0', async () => {
        const gate = new BuildGate();
        const building = gate.enter();
        expect(building.now, 'another launch is in sandy\'s build').to.equal(true);
        const signals: string[] = [];
        const supervisor = new PtySupervisor((): PtyLike => { throw new Error('its turn never comes in this test'); }, {
            timings: { interruptGraceMs: 20, terminateGraceMs: 20 },
            sendSignal: (pid, signal) => signals.push(`${signal} ${pid}`),
            buildGate: gate
        });
        const queued = supervisor.launch({ sandyPath: '/x/sandy', args: [], workspace: '/home/u/proj', env: {}, cols: 80, rows: 24 });
        expect(queued.pid, 'the queued launch has no process').to.equal(0);
        await supervisor.dispose();
        expect(signals, 'signals sent on quit').to.deep.equal([]);
        building.release();
    });

    it('signalProcessGroup(0) leaves the caller\'s process group alone', async function () {
        this.timeout(10_000);
        // A stand-in IDE process, leader of its own group, with a helper in that group.
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-pgrp-'));
        const out = path.join(dir, 'out');
        const script = `
            const { spawn } = require('child_process');
            const { signalProcessGroup } = require(${JSON.stringify(path.join(__dirname, 'pty-supervisor.js'))});
            const helper = spawn('sleep', ['20'], { stdio: 'ignore' });
            helper.on('exit', (code, signal) => require('fs').appendFileSync(${JSON.stringify(out)}, 'helper ' + signal + '\\n'));
            process.on('SIGTERM', () => require('fs').appendFileSync(${JSON.stringify(out)}, 'ide SIGTERM\\n'));
            setTimeout(() => signalProcessGroup(0, 'SIGTERM'), 300);
            setTimeout(() => { helper.kill('SIGKILL'); setTimeout(() => process.exit(0), 200); }, 1500);`;
        const ide = spawn(process.execPath, ['-e', script], { detached: true, stdio: 'ignore' });
        await new Promise(resolve => ide.once('exit', resolve));
        const said = fs.readFileSync(out, 'utf8').trim().split('\n').sort();
        fs.rmSync(dir, { recursive: true, force: true });
        expect(said, 'what the IDE process and its helper got').to.deep.equal(['helper SIGKILL']);
    });
});
