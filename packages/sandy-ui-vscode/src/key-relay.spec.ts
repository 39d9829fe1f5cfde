import { recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_IDE_KEYS, parseKeyChord } from '@sandy-ui/core/common';
import { IdeKeyRelay } from './key-relay';

describe('Sandy chords the browser keeps from VS Code are run by the plugin (unit)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8'));
    const extension = { packageJSON: manifest } as never;
    const stop = parseKeyChord('Ctrl+Shift+Alt+X', false)!;

    beforeEach(() => resetFakeVscode());

    it('in VS Code in a browser (code-server): Ctrl+Shift+Alt+X runs sandy.stop, as the manifest binds it', async () => {
        recorded.uiKind = 2;
        recorded.appName = 'code-server';
        const relay = IdeKeyRelay.forHost(extension);
        expect(relay.enabled).to.equal(true);
        expect(relay.pressed(stop, false)).to.equal('sandy.stop');
        await new Promise(r => setImmediate(r));
        expect(recorded.commands.map(c => c.id)).to.deep.equal(['sandy.stop']);
    });

    it('every default IDE key the browser keeps is a Sandy chord the manifest binds (none is left doing nothing)', () => {
        const relay = new IdeKeyRelay(manifest.contributes.keybindings, true, () => undefined);
        const kept = DEFAULT_IDE_KEYS.map(k => parseKeyChord(k, false)!).filter(c => (c.ctrl || c.meta) && ['KeyC', 'KeyV', 'KeyX'].includes(c.code));
        expect(kept.length).to.be.greaterThan(0);
        for (const chord of kept) {
            expect(relay.pressed(chord, false), chord.code).to.match(/^sandy\./);
        }
    });

    it('desktop VS Code and Theia pass the key on themselves: nothing is run twice', async () => {
        recorded.uiKind = 1;
        expect(IdeKeyRelay.forHost(extension).pressed(stop, false)).to.equal(undefined);
        recorded.uiKind = 2;
        recorded.appName = 'Theia';
        expect(IdeKeyRelay.forHost(extension).pressed(stop, false)).to.equal(undefined);
        await new Promise(r => setImmediate(r));
        expect(recorded.commands).to.deep.equal([]);
    });

    it('Attack: a report of a chord bound to no Sandy command runs nothing', async () => {
        recorded.uiKind = 2;
        const relay = IdeKeyRelay.forHost(extension);
        for (const k of ['Ctrl+X', 'Ctrl+V', 'Ctrl+Shift+Alt+C', 'Shift+Insert']) {
            expect(relay.pressed(parseKeyChord(k, false)!, false), k).to.equal(undefined);
        }
        await new Promise(r => setImmediate(r));
        expect(recorded.commands).to.deep.equal([]);
    });
});
