/**
 * Attack on the plugin in a real VS Code (code-server 4.100.3, the linux .vsix, its built-in git extension, real
 * git): the agent creates a NESTED git repository in its read-write workspace (sandy mounts only the root's
 * .git/config and hooks read-only) whose config names a `core.fsmonitor` program. VS Code's git scans sub-folders
 * for repositories and runs `git status` there by itself as the folder opens, so without protection that program
 * runs on the host with no click. The plugin starts with the window (`*`) and puts core's git safety into the
 * extension host's environment, which that git shares, before its first look. The same attack on the Sandy IDE:
 * test/src/security/git-scan.security-spec.ts. (integration)
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { holdsFor } from '@sandy-ui/test/lib/support/poll';
import { poll } from './poll';
import { useCodeServer } from './suite';

describe('Sandy plugin in code-server: a repository the agent plants runs nothing on the host through the editor\'s git (integration)', function (): void {
    this.timeout(300_000);

    let marker = '';
    let nested = '';
    const suite = useCodeServer({
        label: 'git-safety',
        seed: world => {
            const workspace = world.workspace('planted-proj');
            marker = path.join(world.root, 'PWNED-by-fsmonitor');
            nested = path.join(workspace, 'vendor');
            fs.mkdirSync(nested, { recursive: true });
            const git = (...args: string[]) => spawnSync('git', args, { cwd: nested, env: { ...process.env, HOME: world.home } });
            expect(git('init', '-q').status).to.equal(0);
            const program = path.join(workspace, 'monitor.sh');
            fs.writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
            expect(git('config', 'core.fsmonitor', program).status).to.equal(0);
            fs.writeFileSync(path.join(nested, 'file.txt'), 'changed by the agent\n');
            // The user's git on: the harness turns it off everywhere else.
            return { folder: workspace, settings: { 'git.enabled': true } };
        }
    });

    it('opening the folder: VS Code\'s git finds the nested repository and runs git status there, and the repository\'s fsmonitor program never runs', async () => {
        // The git extension looked at the nested repository (its log names it), which is when git would run the program.
        await poll(() => suite.server.gitLog().includes(nested) && /git status/.test(suite.server.gitLog()), { message: 'VS Code\'s git to open the nested repository', timeout: 90_000 });
        await holdsFor(() => !fs.existsSync(marker), 10_000, 'the fsmonitor program not to run');
        expect(suite.server.pluginLog(), 'the plugin started with the window').to.match(/sandy: activating in/);
    });
});
