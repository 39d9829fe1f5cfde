import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SandyServiceCore } from '../service/sandy-service';

/** A sandy that answers discovery (`--version`, `--print-version`); `delay` seconds before `--version`. */
function stubSandy(dir: string, delay = 0): string {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'sandy');
    fs.writeFileSync(file, [
        '#!/bin/sh',
        'case "$1" in',
        `  --version) sleep ${delay}; echo "sandy 1.7.1" ;;`,
        '  --print-version) echo \'{"schema_version":1,"version":"1.7.1","commit":"","full_version":"1.7.1"}\' ;;',
        '  *) exit 1 ;;',
        'esac',
        ''
    ].join('\n'), { mode: 0o755 });
    return file;
}

/**
 * The host configures sandy while an earlier discovery still runs (the backend's start-up search
 * of PATH, then the window's settings arriving): the later configuration wins, whatever finishes last.
 */
describe('SandyServiceCore.configure (unit)', () => {
    let root: string;
    let service: SandyServiceCore;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-configure-')));
    });
    afterEach(async () => {
        await service?.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    it('the user\'s sandy.path configured during a slow PATH search is the sandy used, not the one found later', async () => {
        const home = path.join(root, 'home');
        fs.mkdirSync(home);
        const slowDir = path.join(root, 'path-bin');
        const onPath = stubSandy(slowDir, 0.5);
        const userSandy = stubSandy(path.join(home, 'opt', 'sandy'));
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY here'); },
            env: { HOME: home, PATH: `${slowDir}:/usr/bin:/bin` },
            home,
            dataDir: path.join(root, 'ide-data')
        });
        const startUp = service.configure({});
        const user = service.configure({ sandyPath: userSandy, passEnv: [] });
        const [first, second] = await Promise.all([startUp, user]);
        expect(second.path).to.equal(userSandy);
        expect(first.path, 'the superseded discovery reports the newer result').to.equal(userSandy);
        expect(service.sandyPath).to.equal(userSandy);
        expect(service.sandyStatus.path).to.equal(userSandy);
        expect(onPath).not.to.equal(userSandy);

        // Back to the PATH search: it is used again.
        expect((await service.configure({})).path).to.equal(onPath);
        expect(service.sandyPath).to.equal(onPath);
    });
});
