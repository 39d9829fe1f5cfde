/**
 * Attack: the agent creates a NESTED git repository in its read-write workspace (sandy mounts only the
 * root's .git/config and hooks read-only) whose config names a `core.fsmonitor` program. The IDE's
 * built-in git extension scans sub-folders for repositories and runs `git status` there by itself, so
 * without protection that program runs on the host as soon as the folder is open, with no click.
 *
 * Against the BUILT browser-app (its bundled vscode.git extension) and real git.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { SandyIde } from '../e2e/harness';
import { useSandyIde } from '../e2e/suite';
import { holdsFor } from '../support/poll';

describe('Security: a repository the agent plants runs nothing on the host through the IDE\'s git', () => {
    let marker = '';
    const suite = useSandyIde({
        label: 'sec-git',
        seed: (ide: SandyIde) => {
            marker = path.join(ide.home, 'PWNED-by-fsmonitor');
            const nested = path.join(ide.workspace, 'vendor');
            fs.mkdirSync(nested, { recursive: true });
            const git = (...args: string[]) => spawnSync('git', args, { cwd: nested, env: { ...process.env, HOME: ide.home } });
            git('init', '-q');
            const program = path.join(ide.workspace, 'monitor.sh');
            fs.writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
            git('config', 'core.fsmonitor', program);
            fs.writeFileSync(path.join(nested, 'file.txt'), 'changed by the agent\n');
        }
    });

    it('opening the folder (git extension scanning it) never runs the nested repository\'s fsmonitor program', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        // The git extension runs in the plugin host; wait for it to be up, then give it time to scan.
        await app.poll(() => pluginHostEnv(ide) !== undefined, 'the plugin host to start', { timeout: 90_000 });
        const env = pluginHostEnv(ide)!;
        const keys = Object.keys(env).filter(k => k.startsWith('GIT_CONFIG_KEY_')).map(k => env[k]);
        expect(keys, 'the plugin host runs git with the safety settings').to.include('core.fsmonitor');
        await holdsFor(() => !fs.existsSync(marker), 30_000, 'the fsmonitor program not to run');
    });
});

/** The environment of this run's plugin host process (a node process with the run's HOME running plugin-host). */
function pluginHostEnv(ide: SandyIde): Record<string, string> | undefined {
    for (const entry of fs.readdirSync('/proc').filter(e => /^\d+$/.test(e))) {
        try {
            const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
            if (!/plugin-host|ipc-bootstrap/.test(cmdline)) {
                continue;
            }
            const env = Object.fromEntries(fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').filter(Boolean)
                .map(kv => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
            if (env.HOME === ide.home) {
                return env;
            }
        } catch {
            // gone, or not ours
        }
    }
    return undefined;
}
