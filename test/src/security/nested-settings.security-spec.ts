/**
 * Attack: a repository (or the agent, through its read-write workspace) writes a forbidden setting NESTED in
 * `.theia/settings.json` — `{ "git": { "path": "./evil-git" } }` instead of `"git.path"`. Theia keeps the
 * object under the key `git`, and its plugin host walks into objects as VS Code does, so the IDE's bundled git
 * extension read `git.path` from it and ran the repository's program on the host as the folder opened. The
 * workspace filter now checks every path, however it is written.
 *
 * Against the BUILT browser-app (its bundled vscode.git) with the workspace trusted, as a cloned repository is.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { SandyIde } from '../e2e/harness';
import { outputChannelText } from '../e2e/page-objects/theia-widgets';
import { useSandyIde } from '../e2e/suite';
import { holdsFor } from '../support/poll';

describe('Security: a forbidden setting written nested in the workspace\'s settings runs nothing on the host', () => {
    let marker = '';
    const suite = useSandyIde({
        label: 'sec-nested-settings',
        seed: (ide: SandyIde) => {
            marker = path.join(ide.root, 'PWNED-by-nested-git-path');
            const program = path.join(ide.workspace, 'evil-git');
            // Answers like git (so the extension carries on), after leaving its mark.
            fs.writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\nexec git "$@"\n`, { mode: 0o755 });
            fs.mkdirSync(path.join(ide.workspace, '.theia'), { recursive: true });
            fs.writeFileSync(path.join(ide.workspace, '.theia', 'settings.json'), JSON.stringify({ git: { path: program, enabled: true } }, undefined, 4));
        }
    });

    it('the bundled git extension never runs the program the workspace names in { "git": { "path": … } }; the Sandy output says it was ignored', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        await app.openSandyView();
        // The git extension activates with the plugin host and looks for git at once; give it time.
        await holdsFor(() => !fs.existsSync(marker), 30_000, 'the workspace\'s git program not to run');
        await app.poll(async () => /ignored "git\.path" in .*\.theia\/settings\.json/.test(await outputChannelText(app, 'Sandy')),
            'the Sandy output to name the nested git.path', { timeout: 60_000 });
        expect(fs.existsSync(marker)).to.equal(false);
    });
});
