import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { withGitSafety } from '../host/git-safety';

describe('git safety (attack: the agent plants a nested repository whose config runs a program)', () => {
    let tmp: string;
    let marker: string;
    let nested: string;
    beforeEach(() => {
        tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-git-')));
        marker = path.join(tmp, 'PWNED');
        nested = path.join(tmp, 'workspace', 'vendor', 'lib');
        fs.mkdirSync(nested, { recursive: true });
        const git = (...args: string[]) => spawnSync('git', args, { cwd: nested, env: { ...process.env, HOME: tmp } });
        git('init', '-q');
        const hook = path.join(tmp, 'workspace', 'vendor', 'monitor.sh');
        fs.writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
        git('config', 'core.fsmonitor', hook);
        fs.writeFileSync(path.join(nested, 'a.txt'), 'x\n');
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    const status = (env: NodeJS.ProcessEnv) => spawnSync('git', ['status', '--porcelain'], { cwd: nested, env: { ...env, HOME: tmp } });

    it('runs the program without the safety settings (so this test can fail)', () => {
        status(process.env);
        expect(fs.existsSync(marker)).to.equal(true);
    });

    it('runs nothing with them, and git still answers', () => {
        const r = status(withGitSafety(process.env));
        expect(r.status).to.equal(0);
        expect(String(r.stdout)).to.include('a.txt');
        expect(fs.existsSync(marker)).to.equal(false);
    });

    it('keeps the user\'s own command-line config entries and adds its own once', () => {
        const env = withGitSafety(withGitSafety({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'me' }));
        expect(env).to.include({ GIT_CONFIG_COUNT: '3', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_KEY_1: 'core.fsmonitor', GIT_CONFIG_VALUE_1: 'false' });
    });
});
