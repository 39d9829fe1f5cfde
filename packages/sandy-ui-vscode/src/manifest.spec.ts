import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { SANDY_PREFERENCE_PROPERTIES } from '@sandy-ui/core/common';
import { SANDY_COMMAND_CATEGORY, SANDY_IDE_COMMANDS } from '@sandy-ui/core/common';
import { TERMINAL_VIEW_TYPE } from './webview/terminal-protocol';

/** package.json is static JSON: these keep it equal to what core shares with the Theia IDE. */
describe('the plugin manifest matches core (unit)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8'));
    const contributes = manifest.contributes;

    it('contributes the settings of core\'s shared preference schema', () => {
        expect(contributes.configuration.properties).to.deep.equal(JSON.parse(JSON.stringify(SANDY_PREFERENCE_PROPERTIES)));
    });

    it('contributes exactly the Sandy IDE\'s commands, with its ids, labels and icons', () => {
        const expected = Object.values(SANDY_IDE_COMMANDS).map(c => ({
            command: c.id, title: c.label, category: SANDY_COMMAND_CATEGORY, ...'icon' in c ? { icon: `$(${c.icon})` } : {},
            // In the Sandy IDE these ids are the IDE's own: Theia adds a plugin's handler in front of a
            // built-in command's, so the plugin's must be disabled there or it would shadow the IDE's.
            enablement: '!sandy.guest'
        }));
        expect(contributes.commands).to.deep.equal(expected);
    });

    it('menus and keybindings only name contributed commands, and hide them in the Sandy IDE', () => {
        // No commandPalette entries: a `when` there would also hide the Sandy IDE's own commands (same ids).
        expect(contributes.menus.commandPalette).to.equal(undefined);
        const ids = new Set(contributes.commands.map((c: { command: string }) => c.command));
        const entries = [...Object.values(contributes.menus).flat(), ...contributes.keybindings] as Array<{ command: string; when?: string }>;
        for (const entry of entries) {
            expect(ids.has(entry.command), entry.command).to.equal(true);
            expect(entry.when ?? '', `${entry.command} when`).to.contain('!sandy.guest');
        }
    });

    it('activates on every command it contributes, so in the Sandy IDE the guest flag is set before any of them runs', () => {
        for (const c of contributes.commands) {
            expect(manifest.activationEvents, c.command).to.include(`onCommand:${c.command}`);
        }
    });

    it('activates when VS Code restores a sandy terminal tab after a window reload (its panel serializer\'s view type)', () => {
        expect(manifest.activationEvents).to.include(`onWebviewPanel:${TERMINAL_VIEW_TYPE}`);
    });

    it('targets VS Code 1.85+, runs in the workspace extension host, and the view lives in its own container', () => {
        expect(manifest.engines.vscode).to.equal('^1.85.0');
        expect(manifest.extensionKind).to.deep.equal(['workspace']);
        expect(contributes.views['sandy-explorer'].map((v: { id: string }) => v.id)).to.deep.equal(['sandy.projects', 'sandy.sessions']);
        expect(contributes.walkthroughs[0].steps.length).to.be.greaterThan(2);
    });
});
