/*
 * Source Control works however the app is started (issue 12): the backend is started here as
 * `node lib/backend/main.js` without THEIA_DEFAULT_PLUGINS or --plugins (what `npm start` used to
 * set), and the app's bundled git extension still shows the workspace's changes.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { useSandyIde } from './suite';

describe('Source Control without npm start\'s environment (end to end)', () => {
    const suite = useSandyIde({
        label: 'scm',
        seed: ide => {
            const git = (...args: string[]) => spawnSync('git', args, { cwd: ide.workspace, env: { ...process.env, HOME: ide.home } });
            git('init', '-q');
            fs.writeFileSync(path.join(ide.workspace, 'changed-by-the-test.txt'), 'hello\n');
        }
    });

    it('the bundled git extension lists the workspace\'s untracked file in Source Control', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        // The Source Control view (its own keybinding, as a user opens it).
        await app.page.keyboard.press('Control+Shift+G');
        const row = app.page.locator('.theia-scm').getByText('changed-by-the-test.txt');
        await row.first().waitFor({ state: 'visible', timeout: 60_000 });
    });
});
