import { expect } from 'chai';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * Attack surface: a host process holds descriptors that are not close-on-exec (the extension host's log
 * files and pipes); sandy, and the agent it runs, must not inherit them. A host here is a node process
 * that was handed an extra pipe as fd 3 (as a parent's leaked descriptor would be); it starts a "sandy"
 * that lists its own descriptors, through the runner and through a PTY, each as the IDE does.
 */
describe('sandy gets only stdin, stdout and stderr (slow)', function () {
    this.timeout(30_000);
    if (process.platform !== 'linux') {
        return;
    }
    let dir: string;
    beforeEach(() => {
        dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-fds-')));
        // The fake sandy: the descriptors it was started with, probed one by one (listing /proc would open one).
        fs.writeFileSync(path.join(dir, 'sandy'), '#!/bin/sh\nexec python3 -c \'import os\n'
            + 'def is_open(fd):\n    try:\n        os.fstat(fd)\n        return True\n    except OSError:\n        return False\n'
            + 'print(" ".join(str(fd) for fd in range(0, 1024) if is_open(fd)) + " ")\'\n', { mode: 0o755 });
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    const host = (script: string): Promise<string> => new Promise((resolve, reject) => {
        const file = path.join(dir, 'host.js');
        fs.writeFileSync(file, script);
        // fd 3 of the host: a pipe it did not open itself, so not close-on-exec there.
        const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_PATH: path.resolve(__dirname, '..', '..', '..', '..', '..', 'node_modules') } });
        let out = '';
        child.stdout!.on('data', d => { out += d; });
        child.stderr!.on('data', d => { out += d; });
        child.on('error', reject);
        child.on('close', () => resolve(out));
    });

    it('through the runner (introspection, maintenance, the wizard\'s build)', async () => {
        const runner = require.resolve('./runner');
        const out = await host(`
            const { ProcessSandyRunner } = require(${JSON.stringify(runner)});
            const fs = require('fs');
            process.stdout.write('host fds: ' + fs.readdirSync('/proc/self/fd').join(' ') + '\\n');
            new ProcessSandyRunner({ sandyPath: ${JSON.stringify(path.join(dir, 'sandy'))}, processEnv: process.env })
                .run(['--print-version'], { timeoutMs: 10000 }).then(r => process.stdout.write('sandy fds: ' + r.stdout), e => process.stdout.write('failed: ' + e));
        `);
        expect(out).to.match(/host fds: .*\b3\b/, 'the host has the leaked fd 3');
        expect(out).to.match(/sandy fds: 0 1 2 \n/);
    });

    it('through core\'s node-pty adapter (every session and attach client, both hosts)', async () => {
        const supervisor = require.resolve('../terminal/pty-supervisor');
        const out = await host(`
            // core's node-pty adapter, as both hosts build it (Theia's backend, the VS Code extension host).
            const { ptySpawnFrom } = require(${JSON.stringify(supervisor)});
            const spawnPty = ptySpawnFrom(require('node-pty'));
            const p = spawnPty(${JSON.stringify(path.join(dir, 'sandy'))}, [], { name: 'xterm-256color', cols: 80, rows: 24, cwd: ${JSON.stringify(dir)}, env: process.env });
            let text = '';
            p.onData(d => { text += d; });
            p.onExit(() => process.stdout.write('sandy fds: ' + text.replace(/\\r/g, '')));
        `);
        expect(out).to.match(/sandy fds: 0 1 2 \n/);
    });
});
