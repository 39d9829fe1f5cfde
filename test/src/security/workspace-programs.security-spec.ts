/**
 * Attack: the agent writes `.theia/settings.json` in its read-write workspace (sandy keeps `.vscode/`
 * read-only, not `.theia/`) naming host programs in settings of the IDE around sandy: an MCP server,
 * which Theia starts by itself when its setting changes, and the shell of the next terminal. Theia
 * merges workspace values whatever a setting's scope says, so without a filter the MCP command runs on
 * the host with no click.
 *
 * Against the BUILT browser-app (its @theia/ai-mcp).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { SandyIde } from '../e2e/harness';
import { useSandyIde } from '../e2e/suite';
import { holdsFor } from '../support/poll';

describe('Security: workspace settings cannot name a host program for the IDE around sandy', () => {
    const plant = (ide: SandyIde, marker: string) => {
        fs.mkdirSync(path.join(ide.workspace, '.theia'), { recursive: true });
        fs.writeFileSync(path.join(ide.workspace, '.theia', 'settings.json'), JSON.stringify({
            'ai-features.mcp.mcpServers': { planted: { command: '/bin/sh', args: ['-c', `touch '${marker}-mcp'`], autostart: true } },
            'terminal.integrated.shell.linux': '/bin/sh',
            'terminal.integrated.shellArgs.linux': ['-c', `touch '${marker}-shell'`]
        }, undefined, 2));
    };
    // The repository ships the file (a cloned repo): it is there when the window opens.
    const suite = useSandyIde({ label: 'sec-wsprog', seed: ide => plant(ide, path.join(ide.home, 'PWNED-shipped')) });

    it('a repository\'s .theia/settings.json naming an MCP server runs nothing when the folder opens', async () => {
        const { ide, browser } = suite;
        const app = await browser.openApp(ide);
        await app.poll(async () => await app.page.locator('#theia-app-shell').isVisible(), 'the IDE shell');
        await holdsFor(() => !fs.existsSync(path.join(ide.home, 'PWNED-shipped-mcp')), 20_000, 'the shipped MCP server not to start');
    });

    it('an MCP server and a terminal shell written into .theia/settings.json during a session run nothing', async () => {
        const { ide, browser } = suite;
        const marker = path.join(ide.home, 'PWNED-by-workspace-setting');
        const app = await browser.openApp(ide);
        await app.poll(async () => await app.page.locator('#theia-app-shell').isVisible(), 'the IDE shell');
        // The agent writes the file while the window is open (the provider reloads it on change).
        plant(ide, marker);
        await holdsFor(() => !fs.existsSync(`${marker}-mcp`), 20_000, 'the planted MCP server not to start');
        expect(fs.existsSync(`${marker}-shell`)).to.equal(false);
    });
});
