import * as vscode from 'vscode';
import { chordBindings, chordEvent, commandForChord, ideKeyChords, isBrowserKeptChord, isIdeKey, SANDY_IDE_COMMANDS } from '@sandy-ui/core/common';
import type { KeyChord } from '@sandy-ui/core/common';

/** The commands a reported key may run: the plugin's own Sandy commands, never another. */
const SANDY_COMMAND_IDS: ReadonlySet<string> = new Set(Object.values(SANDY_IDE_COMMANDS).map(c => c.id));

/** The argument a relayed run carries, so the command does not take it for a second press of the same key. */
export const RELAYED_KEY = '__sandy.relayedKey__';

/** A key press and the command it ran by the other path within this time are one press. */
const SAME_PRESS_MS = 500;

/** A manifest keybinding the page may report (its `key`, and its `mac` spelling). */
export interface RelayBinding {
    key: string;
    mac?: string;
}

/**
 * Runs the plugin's own command bound to an IDE key the sandy tab's page reports (core's ide-keys.ts
 * `browserKeepsKey`: Ctrl/Cmd+C, V, X and Shift+Insert with any other modifiers, which VS Code's
 * webview host leaves to the browser when VS Code runs in one, so Ctrl+Shift+Alt+X (Stop) pressed in
 * the tab reached neither the agent nor VS Code). Only in a browser: desktop VS Code forwards such keys
 * from a webview. Where a host forwards them after all (Theia, an older VS Code that tests `key`, not
 * `keyCode`), its keybinding and the report are one press: whichever comes second within
 * {@link SAME_PRESS_MS} is dropped ({@link invoked}), so a command never runs twice.
 * The page is not believed: a report runs a command only for a chord the browser keeps, in the user's
 * IDE keys, bound by the plugin's own manifest, from the tab in front.
 * Only the chords of the plugin's own `contributes.keybindings` are known here: a user's rebinding in
 * keybindings.json is not (VS Code gives an extension no way to dispatch a key).
 */
export class IdeKeyRelay {
    protected readonly lastRun = new Map<string, number>();

    constructor(
        protected readonly keybindings: unknown,
        readonly enabled: boolean,
        protected readonly run: (command: string, marker: string) => unknown,
        protected readonly now: () => number = Date.now
    ) { }

    /** The host's own: its manifest's keybindings; on only in VS Code in a browser. */
    static forHost(extension: vscode.Extension<unknown>): IdeKeyRelay {
        const manifest = extension.packageJSON as { contributes?: { keybindings?: unknown } } | undefined;
        const inBrowser = vscode.env.uiKind === vscode.UIKind.Web && !/theia/i.test(vscode.env.appName);
        return new IdeKeyRelay(manifest?.contributes?.keybindings, inBrowser, (command, marker) => vscode.commands.executeCommand(command, marker));
    }

    /** The bindings the page may report (Sandy commands, chords the browser keeps); none when the relay is off. */
    relayBindings(): RelayBinding[] {
        if (!this.enabled || !Array.isArray(this.keybindings)) {
            return [];
        }
        const out: RelayBinding[] = [];
        for (const entry of this.keybindings as unknown[]) {
            const { command, key, mac } = (entry ?? {}) as { command?: unknown; key?: unknown; mac?: unknown };
            if (typeof command !== 'string' || !SANDY_COMMAND_IDS.has(command) || typeof key !== 'string') {
                continue;
            }
            const kept = [chordBindings([entry], SANDY_COMMAND_IDS, false), chordBindings([entry], SANDY_COMMAND_IDS, true)]
                .some(b => b.some(x => isBrowserKeptChord(x.chord)));
            if (kept) {
                out.push(typeof mac === 'string' ? { key, mac } : { key });
            }
        }
        return out;
    }

    /**
     * The page reports a key it kept from the browser; `mac`: the page runs on macOS. Returns the
     * command run, if any.
     */
    pressed(chord: KeyChord, mac: boolean, from: { active: boolean; ideKeys: readonly string[] | undefined }): string | undefined {
        if (!this.enabled || !from.active || !isBrowserKeptChord(chord) || !isIdeKey(chordEvent(chord), ideKeyChords(from.ideKeys, mac))) {
            return undefined;
        }
        const command = commandForChord(chord, chordBindings(this.keybindings, SANDY_COMMAND_IDS, mac));
        if (!command || this.samePress(command)) {
            return undefined;
        }
        this.lastRun.set(command, this.now());
        void Promise.resolve(this.run(command, RELAYED_KEY)).catch(() => undefined);
        return command;
    }

    /**
     * A Sandy command is about to run (`arg`: its argument): false when it is the same key press as a
     * relayed run a moment ago (VS Code's keybinding of a key the host forwarded after all).
     */
    invoked(command: string, arg: unknown): boolean {
        if (arg === RELAYED_KEY) {
            return true;
        }
        if (this.samePress(command)) {
            return false;
        }
        this.lastRun.set(command, this.now());
        return true;
    }

    protected samePress(command: string): boolean {
        const at = this.lastRun.get(command);
        return at !== undefined && this.now() - at < SAME_PRESS_MS;
    }
}
