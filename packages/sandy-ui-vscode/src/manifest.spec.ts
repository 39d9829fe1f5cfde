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
        // And the `<view>.focus` command VS Code and Theia register for each of its views (the Sandy IDE's Show Projects chord).
        const ids = new Set([...contributes.commands.map((c: { command: string }) => c.command),
            ...(Object.values(contributes.views) as Array<Array<{ id: string }>>).flat().map(v => `${v.id}.focus`)]);
        const entries = [...Object.values(contributes.menus).flat(), ...contributes.keybindings] as Array<{ command: string; when?: string }>;
        for (const entry of entries) {
            expect(ids.has(entry.command), entry.command).to.equal(true);
            expect(entry.when ?? '', `${entry.command} when`).to.contain('!sandy.guest');
        }
    });

    it('binds every chord that core\'s default ideKeys keeps from the agent, so none of them is a dead key in a sandy tab', () => {
        const chords = (contributes.configuration.properties['sandy.terminal.ideKeys'].default as string[]).filter(k => k.startsWith('CtrlCmd+Shift+Alt+'));
        const bound = (contributes.keybindings as Array<{ key: string; mac: string }>).map(b => `${b.key} ${b.mac}`);
        expect(chords.length).to.be.greaterThan(4);
        for (const chord of chords) {
            const key = chord.slice('CtrlCmd+Shift+Alt+'.length).toLowerCase();
            expect(bound, chord).to.include(`ctrl+shift+alt+${key} cmd+shift+alt+${key}`);
        }
    });

    it('activates as the window starts (for the git safety) and when a sandy tab is restored; nothing an editor derives itself', () => {
        // As the window starts, beside the editor's own git (also `*`), it puts core's git safety into the extension host's
        // environment, which that git shares, before the git's first look at the folder (an agent's nested repository:
        // git-safety.vscode-spec.ts); then it decides Get Started. No sandy runs until a window shows sandy state
        // (activation.vscode-spec.ts). Its views and commands activate it through the events VS Code (1.74+) and Theia
        // derive from `contributes`: listing them again is what issue 14 called redundant.
        expect(manifest.activationEvents).to.deep.equal(['*', `onWebviewPanel:${TERMINAL_VIEW_TYPE}`]);
    });

    it('in Theia\'s plugin host every contributed command and view activates it, so in the Sandy IDE the guest flag is set before any of them runs', () => {
        // Theia's own derivation, run on this manifest (what its plugin manifest loader does when it reads the plugin).
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { updateActivationEvents } = require('@theia/plugin-ext/lib/hosted/node/plugin-activation-events') as { updateActivationEvents(m: unknown): void };
        const derived = JSON.parse(JSON.stringify(manifest));
        updateActivationEvents(derived);
        const views = (Object.values(contributes.views) as Array<Array<{ id: string }>>).flat().map(v => `onView:${v.id}`);
        expect(derived.activationEvents).to.have.members([
            '*', `onWebviewPanel:${TERMINAL_VIEW_TYPE}`, ...contributes.commands.map((c: { command: string }) => `onCommand:${c.command}`), ...views
        ]);
    });

    it('ticks the walkthrough\'s steps from what is true, never from a click (a "Check for sandy" that finds nothing, an Add Project cancelled, a launch that failed)', () => {
        const steps = contributes.walkthroughs[0].steps as Array<{ id: string; completionEvents: string[] }>;
        const byClick = steps.filter(s => s.id !== 'settings').flatMap(s => s.completionEvents.filter(e => !e.startsWith('onContext:')).map(e => `${s.id}: ${e}`));
        expect(byClick).to.deep.equal([]);
        // Opening the settings is what that step asks, so it ticks when they open.
        expect(steps.find(s => s.id === 'settings')?.completionEvents).to.deep.equal(['onCommand:sandy.openSettings']);
    });

    it('targets VS Code 1.85+, runs in the workspace extension host, and the view lives in its own container', () => {
        // 1.74 is where VS Code began to derive onCommand/onView activation from contributes (see above).
        expect(manifest.engines.vscode).to.equal('^1.85.0');
        expect(manifest.extensionKind).to.deep.equal(['workspace']);
        expect(contributes.views['sandy-explorer'].map((v: { id: string }) => v.id)).to.deep.equal(['sandy.projects', 'sandy.sessions']);
        expect(contributes.walkthroughs[0].steps.length).to.be.greaterThan(2);
    });
});
