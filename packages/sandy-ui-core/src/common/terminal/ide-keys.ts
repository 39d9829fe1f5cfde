/**
 * The keys the IDE keeps while a sandy tab has the focus: every other key goes to the agent (Ctrl+C
 * interrupts it, Ctrl+A/E/K/R… edit its prompt). The list is the user's (`sandy.terminal.ideKeys`,
 * user settings only: a repository cannot take keys away from the user or give the IDE's to its
 * agent); by default the command palette, Quick Open and the Sandy commands' own chords, as VS Code's
 * own terminal keeps its palette and Quick Open. Both hosts apply the same list: the Theia tab by not
 * passing those keys through to xterm, the VS Code webview by letting them go on to VS Code.
 */

/** The default list, in the spelling the setting takes. */
export const DEFAULT_IDE_KEYS: readonly string[] = [
    'F1', 'CtrlCmd+Shift+P', 'CtrlCmd+P',
    'CtrlCmd+Shift+Alt+L', 'CtrlCmd+Shift+Alt+S', 'CtrlCmd+Shift+Alt+X', 'CtrlCmd+Shift+Alt+D', 'CtrlCmd+Shift+Alt+N', 'CtrlCmd+Shift+Alt+Y'
];

export const IDE_KEYS_DESCRIPTION = 'Keys that reach the IDE, not the agent, while a sandy tab has the focus (every other key goes to the agent). '
    + 'Written like "Ctrl+Shift+P", "F1", "Alt+X" (Cmd is the macOS command key; CtrlCmd is Cmd on macOS, Ctrl elsewhere). '
    + 'Default: the command palette (F1, CtrlCmd+Shift+P), Quick Open (CtrlCmd+P) and the Sandy commands\' CtrlCmd+Shift+Alt chords. '
    + 'Remove CtrlCmd+P to give Ctrl+P to the agent (its previous-line key). User settings only: a workspace\'s value is ignored.';

/** One chord: its modifiers and its key, as `KeyboardEvent.code` names it (layout-independent for letters and digits). */
export interface KeyChord {
    ctrl: boolean;
    shift: boolean;
    alt: boolean;
    meta: boolean;
    /** `KeyP`, `Digit1`, `F1`, `Escape`, `Backquote`… */
    code: string;
}

const NAMED: Readonly<Record<string, string>> = {
    'esc': 'Escape', 'escape': 'Escape', 'tab': 'Tab', 'enter': 'Enter', 'space': 'Space', 'backspace': 'Backspace',
    'delete': 'Delete', 'insert': 'Insert', 'home': 'Home', 'end': 'End', 'pageup': 'PageUp', 'pagedown': 'PageDown',
    'up': 'ArrowUp', 'down': 'ArrowDown', 'left': 'ArrowLeft', 'right': 'ArrowRight',
    '`': 'Backquote', '-': 'Minus', '=': 'Equal', '[': 'BracketLeft', ']': 'BracketRight', '\\': 'Backslash',
    ';': 'Semicolon', '\'': 'Quote', ',': 'Comma', '.': 'Period', '/': 'Slash'
};

/** `Ctrl+Shift+P` → a chord; undefined for anything that is not one (the setting is the user's, but may hold anything). */
export function parseKeyChord(text: string, isMac: boolean): KeyChord | undefined {
    if (typeof text !== 'string' || text.length > 64) {
        return undefined;
    }
    const parts = text.split('+').map(p => p.trim().toLowerCase());
    // `Ctrl++` names the plus key.
    if (text.trim().endsWith('++')) {
        parts.splice(parts.length - 2, 2, '+');
    }
    const key = parts.pop();
    if (!key) {
        return undefined;
    }
    const chord: KeyChord = { ctrl: false, shift: false, alt: false, meta: false, code: '' };
    for (const m of parts) {
        switch (m) {
            case 'ctrl': case 'control': chord.ctrl = true; break;
            case 'shift': chord.shift = true; break;
            case 'alt': case 'option': case 'opt': chord.alt = true; break;
            case 'cmd': case 'meta': case 'super': case 'win': chord.meta = true; break;
            case 'ctrlcmd': if (isMac) { chord.meta = true; } else { chord.ctrl = true; } break;
            default: return undefined;
        }
    }
    if (/^[a-z]$/.test(key)) {
        chord.code = `Key${key.toUpperCase()}`;
    } else if (/^[0-9]$/.test(key)) {
        chord.code = `Digit${key}`;
    } else if (/^f([1-9]|1[0-9]|2[0-4])$/.test(key)) {
        chord.code = key.toUpperCase();
    } else if (key === '+') {
        chord.code = 'Equal';
    } else if (NAMED[key]) {
        chord.code = NAMED[key];
    } else {
        return undefined;
    }
    return chord;
}

/** The setting's value as chords: the default when unset or not a list; entries that are not a chord are dropped. */
export function ideKeyChords(setting: unknown, isMac: boolean): KeyChord[] {
    const list = Array.isArray(setting) ? setting.slice(0, 64) : DEFAULT_IDE_KEYS;
    return list.map(k => typeof k === 'string' ? parseKeyChord(k, isMac) : undefined).filter((c): c is KeyChord => !!c);
}

/** What of a keyboard event a chord is matched against (a DOM KeyboardEvent has it all). */
export interface KeyEventLike {
    code: string;
    ctrlKey: boolean;
    shiftKey: boolean;
    altKey: boolean;
    metaKey: boolean;
}

export function matchesChord(event: KeyEventLike, chord: KeyChord): boolean {
    return event.code === chord.code && event.ctrlKey === chord.ctrl && event.shiftKey === chord.shift
        && event.altKey === chord.alt && event.metaKey === chord.meta;
}

export function isIdeKey(event: KeyEventLike, chords: readonly KeyChord[]): boolean {
    return chords.some(c => matchesChord(event, c));
}

/**
 * The key the browser keeps when a VS Code webview runs in a browser (code-server, vscode.dev): its
 * webview host passes every key it does not handle on to the workbench, except Ctrl/Cmd+C, V and X
 * (by `keyCode`, as it tests them) and Shift+Insert, which it leaves to the browser's copy, paste and
 * cut. So an IDE key among them (Ctrl+Shift+Alt+X, Stop) pressed in a sandy tab reaches nothing
 * unless the page reports it (the VS Code plugin's IdeKeyRelay).
 */
export function browserKeepsKey(event: KeyEventLike & { keyCode: number }): boolean {
    return ((event.ctrlKey || event.metaKey) && [67, 86, 88].includes(event.keyCode)) || (event.shiftKey && event.keyCode === 45);
}

/** The same test on a chord (by `code`: what a report may name at all). */
export function isBrowserKeptChord(chord: KeyChord): boolean {
    return ((chord.ctrl || chord.meta) && ['KeyC', 'KeyV', 'KeyX'].includes(chord.code)) || (chord.shift && chord.code === 'Insert');
}

/** A chord as the KeyEventLike that presses it. */
export function chordEvent(chord: KeyChord): KeyEventLike {
    return { code: chord.code, ctrlKey: chord.ctrl, shiftKey: chord.shift, altKey: chord.alt, metaKey: chord.meta };
}

/** A command bound to a chord (the plugin's own `contributes.keybindings`). */
export interface ChordBinding {
    chord: KeyChord;
    command: string;
}

/**
 * The chords of `keybindings` (a manifest's `contributes.keybindings`, read as untrusted JSON) that run
 * one of `commands`; `mac` spellings on macOS. Entries that are not a chord, or name another command, are left out.
 */
export function chordBindings(keybindings: unknown, commands: ReadonlySet<string>, isMac: boolean): ChordBinding[] {
    const list = Array.isArray(keybindings) ? keybindings : [];
    const bindings: ChordBinding[] = [];
    for (const entry of list) {
        const { command, key, mac } = (entry ?? {}) as { command?: unknown; key?: unknown; mac?: unknown };
        const text = isMac && typeof mac === 'string' ? mac : key;
        const chord = typeof text === 'string' && !text.includes(' ') ? parseKeyChord(text, isMac) : undefined;
        if (chord && typeof command === 'string' && commands.has(command)) {
            bindings.push({ chord, command });
        }
    }
    return bindings;
}

/** The command bound to the chord pressed, if any. */
export function commandForChord(pressed: KeyChord, bindings: readonly ChordBinding[]): string | undefined {
    const event = chordEvent(pressed);
    return bindings.find(b => matchesChord(event, b.chord))?.command;
}
