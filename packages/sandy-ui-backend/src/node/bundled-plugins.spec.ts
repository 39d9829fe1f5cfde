import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { bundledPluginsFolder, useBundledPlugins } from './bundled-plugins';

describe('the app finds its bundled plugins however it is started', () => {
    let app: string;
    let main: string;
    beforeEach(() => {
        app = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-app-')));
        fs.mkdirSync(path.join(app, 'lib', 'backend'), { recursive: true });
        fs.mkdirSync(path.join(app, 'plugins', 'vscode.git'), { recursive: true });
        main = path.join(app, 'lib', 'backend', 'main.js');
    });
    afterEach(() => fs.rmSync(app, { recursive: true, force: true }));

    it('names <app>/plugins for the backend bundled in <app>/lib/backend when nothing else named plugins (argv plays no part)', () => {
        const env: NodeJS.ProcessEnv = {};
        useBundledPlugins(env, ['node', '/somewhere/else/chosen-by-argv'], path.dirname(main));
        expect(env.THEIA_DEFAULT_PLUGINS).to.equal(`local-dir:${path.join(app, 'plugins')}`);
    });

    it('leaves an explicit THEIA_DEFAULT_PLUGINS or --plugins alone, and a missing folder or a symlink unused', () => {
        expect(bundledPluginsFolder(main, { THEIA_DEFAULT_PLUGINS: 'local-dir:/x' }, ['node', main])).to.equal(undefined);
        expect(bundledPluginsFolder(main, {}, ['node', main, '--plugins=local-dir:/y'])).to.equal(undefined);
        expect(bundledPluginsFolder(undefined, {}, [])).to.equal(undefined);
        fs.rmSync(path.join(app, 'plugins'), { recursive: true });
        expect(bundledPluginsFolder(main, {}, ['node', main])).to.equal(undefined);
        fs.symlinkSync(os.tmpdir(), path.join(app, 'plugins'));
        expect(bundledPluginsFolder(main, {}, ['node', main])).to.equal(undefined);
    });
});
