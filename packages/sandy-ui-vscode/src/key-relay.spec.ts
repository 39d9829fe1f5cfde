import { recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_IDE_KEYS, isBrowserKeptChord, parseKeyChord } from '@sandy-ui/core/common';
import { IdeKeyRelay, RELAYED_KEY } from './key-relay';

describe('Sandy chords the browser keeps from VS Code are run by the plugin (unit)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8'));
    const extension = { packageJSON: manifest } as never;
    const stop = parseKeyChord('Ctrl+Shift+Alt+X', false)!;
    const macStop = parseKeyChord('Cmd+Shift+Alt+X', true)!;
    const front = { active: true, ideKeys: undefined };
    /** A relay on its own clock, recording what it ran. */
    const relayWithClock = () => {
        const ran: string[] = [];
        const clock = { t: 1_000 };
        const relay = new IdeKeyRelay(manifest.contributes.keybindings, true, (c, marker) => ran.push(`${c} ${marker}`), () => clock.t);
        return { relay, ran, clock };
    };

    beforeEach(() => resetFakeVscode());

    it('in VS Code in a browser (code-server): Ctrl+Shift+Alt+X runs sandy.stop as the manifest binds it, Cmd+Shift+Opt+X on a Mac', async () => {
        recorded.uiKind = 2;
        recorded.appName = 'code-server';
        const relay = IdeKeyRelay.forHost(extension);
        expect(relay.enabled).to.equal(true);
        expect(relay.pressed(stop, false, front)).to.equal('sandy.stop');
        await new Promise(r => setImmediate(r));
        expect(recorded.commands.map(c => c.id)).to.deep.equal(['sandy.stop']);
        const { relay: r2, ran } = relayWithClock();
        expect(r2.pressed(macStop, true, front)).to.equal('sandy.stop');
        expect(r2.pressed(parseKeyChord('Ctrl+Shift+Alt+X', true)!, true, { active: true, ideKeys: ['Ctrl+Shift+Alt+X'] }), 'Ctrl on a Mac is not the Mac binding').to.equal(undefined);
        expect(ran).to.deep.equal([`sandy.stop ${RELAYED_KEY}`]);
    });

    it('every default IDE key the browser keeps is a Sandy chord the manifest binds, on both platforms, and the page is told exactly those', () => {
        for (const mac of [false, true]) {
            const { relay } = relayWithClock();
            const kept = DEFAULT_IDE_KEYS.map(k => parseKeyChord(k, mac)!).filter(isBrowserKeptChord);
            expect(kept.length, `mac ${mac}`).to.be.greaterThan(0);
            for (const chord of kept) {
                expect(relay.pressed(chord, mac, front), `${chord.code} mac ${mac}`).to.match(/^sandy\./);
            }
        }
        const { relay } = relayWithClock();
        expect(relay.relayBindings()).to.deep.equal([{ key: 'ctrl+shift+alt+x', mac: 'cmd+shift+alt+x' }]);
        expect(new IdeKeyRelay(manifest.contributes.keybindings, false, () => undefined).relayBindings(), 'off: the page reports nothing').to.deep.equal([]);
    });

    it('desktop VS Code passes the key on itself: the relay is off', async () => {
        recorded.uiKind = 1;
        expect(IdeKeyRelay.forHost(extension).pressed(stop, false, front)).to.equal(undefined);
        await new Promise(r => setImmediate(r));
        expect(recorded.commands).to.deep.equal([]);
    });

    it('a host that passes the key on after all (Theia under another name, a VS Code that tests `key`): the keybinding and the report are one press, in either order', () => {
        const { relay, ran, clock } = relayWithClock();
        // The keybinding first: the report that follows is dropped.
        expect(relay.invoked('sandy.stop', undefined)).to.equal(true);
        clock.t += 40;
        expect(relay.pressed(stop, false, front)).to.equal(undefined);
        expect(ran).to.deep.equal([]);
        // The report first: the keybinding that follows is dropped, the relayed run itself goes through.
        clock.t += 2_000;
        expect(relay.pressed(stop, false, front)).to.equal('sandy.stop');
        expect(relay.invoked('sandy.stop', RELAYED_KEY)).to.equal(true);
        clock.t += 40;
        expect(relay.invoked('sandy.stop', undefined)).to.equal(false);
        // A press later is a new press.
        clock.t += 2_000;
        expect(relay.invoked('sandy.stop', undefined)).to.equal(true);
        expect(ran).to.deep.equal([`sandy.stop ${RELAYED_KEY}`]);
    });

    it('Attack: the page is not believed — a chord the browser does not keep, one bound to nothing, one the user gave the agent, or one from a tab not in front runs nothing', () => {
        const { relay, ran } = relayWithClock();
        // Launch's chord: VS Code's webview host forwards it, so a report of it can only be forged.
        expect(relay.pressed(parseKeyChord('Ctrl+Shift+Alt+L', false)!, false, front)).to.equal(undefined);
        for (const k of ['Ctrl+X', 'Ctrl+V', 'Ctrl+Shift+Alt+C', 'Shift+Insert']) {
            expect(relay.pressed(parseKeyChord(k, false)!, false, front), k).to.equal(undefined);
        }
        expect(relay.pressed(stop, false, { active: true, ideKeys: ['F1'] }), 'not in the user\'s IDE keys').to.equal(undefined);
        expect(relay.pressed(stop, false, { active: false, ideKeys: undefined }), 'a tab in the background').to.equal(undefined);
        expect(ran).to.deep.equal([]);
    });
});
