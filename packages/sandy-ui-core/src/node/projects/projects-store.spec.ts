import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ProjectsStore } from './projects-store';

describe('ProjectsStore', () => {
    let dir: string;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-store-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('adds, remembers launches, removes, and persists across instances', async () => {
        const file = path.join(dir, 'sub', 'projects.json');
        const store = new ProjectsStore(file);
        await store.add('/w/a');
        await store.add('/w/a');
        await store.recordLaunch('/w/b', { agent: 'codex', model: 'o4' });
        const again = new ProjectsStore(file);
        const list = await again.list();
        expect(list.map(p => p.workspace)).to.deep.equal(['/w/a', '/w/b']);
        expect(list[1]).to.include({ lastAgent: 'codex', lastModel: 'o4' });
        expect(await again.remove('/w/a')).to.equal(true);
        expect((await new ProjectsStore(file).list()).map(p => p.workspace)).to.deep.equal(['/w/b']);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    });

    it('keeps a corrupt file aside instead of overwriting it', async () => {
        const file = path.join(dir, 'projects.json');
        fs.writeFileSync(file, '{not json');
        const store = new ProjectsStore(file);
        expect(await store.list()).to.deep.equal([]);
        await store.add('/w/c');
        const kept = fs.readdirSync(dir).filter(f => f.startsWith('projects.json.corrupt-'));
        expect(kept).to.have.length(1);
        expect(fs.readFileSync(path.join(dir, kept[0]), 'utf8')).to.equal('{not json');
    });

    it('serialises concurrent changes', async () => {
        const store = new ProjectsStore(path.join(dir, 'projects.json'));
        await Promise.all(Array.from({ length: 20 }, (_, i) => store.add(`/w/${i}`)));
        expect(await new ProjectsStore(path.join(dir, 'projects.json')).list()).to.have.length(20);
    });
});
