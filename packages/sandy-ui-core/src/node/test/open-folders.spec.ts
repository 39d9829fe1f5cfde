import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { projectsBanners } from '../../common/projects/project-labels';
import { OPEN_PROJECT_INSTEAD } from '../projects/workspace-guard';
import { SandyServiceCore } from '../service/sandy-service';

/**
 * A window opens `~/.ssh` (File › Open Folder, or a `#/path` link): it is never offered as a sandy
 * workspace, and the Projects view of either host says so, naming the folder and what to open.
 */
describe('SandyServiceCore open folders (unit)', () => {
    let root: string;
    let home: string;
    let service: SandyServiceCore;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-open-')));
        home = path.join(root, 'home');
        fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
        fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
        fs.mkdirSync(path.join(home, 'proj'), { recursive: true });
        fs.symlinkSync(path.join(home, '.ssh'), path.join(home, 'proj-link'));
        service = new SandyServiceCore({
            logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
            spawnPty: () => { throw new Error('no PTY here'); },
            env: { HOME: home, PATH: '/usr/bin:/bin' },
            home,
            dataDir: path.join(root, 'ide-data')
        });
    });
    afterEach(async () => {
        await service.dispose();
        fs.rmSync(root, { recursive: true, force: true });
    });

    it('lists a project folder, and names the refused ones above the list instead of dropping them silently', async () => {
        const ssh = path.join(home, '.ssh');
        const link = path.join(home, 'proj-link');
        await service.setOpenFolders('window-1', [ssh, path.join(home, 'proj'), link, home]);
        const snapshot = await service.snapshot();

        expect(snapshot.projects.map(p => p.workspacePath)).to.deep.equal([path.join(home, 'proj')]);
        expect(snapshot.refusedFolders!.map(r => r.folder)).to.deep.equal([ssh, link, home]);
        const [banner, ...others] = projectsBanners(snapshot);
        expect(others).to.deep.equal([]);
        expect(banner.kind).to.equal('refused-folder');
        expect(banner.text).to.contain(`Sandy will not use ${ssh} as a workspace`);
        expect(banner.text).to.contain(`Sandy will not use ${link} (a link to ${ssh})`);
        expect(banner.text).to.contain(`Sandy will not use ${home} as a workspace: it is your home folder`);
        expect(banner.text).to.contain(OPEN_PROJECT_INSTEAD);

        // The window opens a project instead: the banner goes; a window that closes takes its folders along.
        await service.setOpenFolders('window-1', [path.join(home, 'proj')]);
        expect(projectsBanners(await service.snapshot())).to.deep.equal([]);
        const second = service.connect('window-2');
        await second.setOpenFolders([ssh]);
        expect((await second.snapshot()).refusedFolders!.map(r => r.folder)).to.deep.equal([ssh]);
        second.dispose();
        expect((await service.snapshot()).refusedFolders).to.deep.equal([]);
    });
});
