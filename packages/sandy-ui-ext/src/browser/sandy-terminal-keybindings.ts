import { inject, injectable } from '@theia/core/shared/inversify';
import { ApplicationShell, FrontendApplicationContribution, Key, KeyCode, KeybindingContribution, KeybindingRegistry } from '@theia/core/lib/browser';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import { ContextKeyService } from '@theia/core/lib/browser/context-key-service';
import { CommandContribution, CommandRegistry, DisposableCollection, isOSX } from '@theia/core';
import { ideKeyChords, isIdeKey } from '@sandy-ui/core/common';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalWidget } from './sandy-terminal-widget';

/** True while a sandy terminal tab has focus. */
export const SANDY_TERMINAL_FOCUS = 'sandyTerminalFocus';

export namespace SandyTerminalCommands {
    export const COPY = { id: 'sandy.terminal.copy', label: 'Copy', category: 'Sandy' };
    export const PASTE = { id: 'sandy.terminal.paste', label: 'Paste', category: 'Sandy' };
}

/**
 * Keys belong to sandy while its tab has focus: Ctrl+C must interrupt the agent, not copy, and
 * Ctrl+A/K/O/P/Z… must reach the TUI instead of Theia's global shortcuts (found by `npm run bench`).
 * The same passthrough set as Theia's own terminal (terminal-frontend-contribution.ts), under our
 * own context key; copy and paste move to Ctrl+Shift+C / Ctrl+Shift+V as in Linux terminals.
 */
@injectable()
export class SandyTerminalKeybindings implements FrontendApplicationContribution, KeybindingContribution, CommandContribution {
    @inject(ContextKeyService) protected readonly contextKeys: ContextKeyService;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(ClipboardService) protected readonly clipboard: ClipboardService;
    @inject(SandyStateService) protected readonly state: SandyStateService;

    onStart(): void {
        const focus = this.contextKeys.createKey<boolean>(SANDY_TERMINAL_FOCUS, false);
        const update = () => focus.set(this.shell.activeWidget instanceof SandyTerminalWidget);
        this.shell.onDidChangeActiveWidget(update);
        update();
    }

    protected active(): SandyTerminalWidget | undefined {
        const w = this.shell.activeWidget;
        return w instanceof SandyTerminalWidget ? w : undefined;
    }

    registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(SandyTerminalCommands.COPY, {
            isEnabled: () => !!this.active()?.selection,
            execute: () => {
                const text = this.active()?.selection;
                if (text) {
                    void this.clipboard.writeText(text);
                }
            }
        });
        commands.registerCommand(SandyTerminalCommands.PASTE, {
            isEnabled: () => !!this.active(),
            execute: async () => this.active()?.paste(await this.clipboard.readText())
        });
    }

    registerKeybindings(keybindings: KeybindingRegistry): void {
        this.keybindings = keybindings;
        this.registerPassthrough(undefined);
        keybindings.registerKeybinding({ command: SandyTerminalCommands.COPY.id, keybinding: 'ctrlcmd+shift+c', when: SANDY_TERMINAL_FOCUS });
        keybindings.registerKeybinding({ command: SandyTerminalCommands.PASTE.id, keybinding: 'ctrlcmd+shift+v', when: SANDY_TERMINAL_FOCUS });
        // The user's sandy.terminal.ideKeys, once read and whenever they change: those keys are not passed through.
        this.state.window.onDidChange(() => {
            const keys = JSON.stringify(this.state.window.configuration?.ideKeys ?? null);
            if (keys !== this.passedFor) {
                this.registerPassthrough(this.state.window.configuration?.ideKeys);
            }
        });
    }

    protected keybindings: KeybindingRegistry | undefined;
    protected readonly passthrough = new DisposableCollection();
    protected passedFor: string | undefined;

    /**
     * Every key the agent needs that Theia would otherwise take, passed through to xterm while a sandy
     * tab has the focus — except the user's IDE keys (core's ide-keys.ts; default: F1, Ctrl+Shift+P,
     * Ctrl+P and the Sandy chords), which stay Theia's.
     */
    protected registerPassthrough(ideKeys: readonly string[] | undefined): void {
        const keybindings = this.keybindings;
        if (!keybindings) {
            return;
        }
        this.passedFor = JSON.stringify(ideKeys ?? null);
        this.passthrough.dispose();
        const ideChords = ideKeyChords(ideKeys, isOSX);
        const pass = (key: { keyCode: number; code: string }, modifier: 'ctrl' | 'alt') => {
            if (isIdeKey({ code: key.code, ctrlKey: modifier === 'ctrl', altKey: modifier === 'alt', shiftKey: false, metaKey: false }, ideChords)) {
                return;
            }
            this.passthrough.push(keybindings.registerKeybinding({
                command: KeybindingRegistry.PASSTHROUGH_PSEUDO_COMMAND,
                keybinding: KeyCode.createKeyCode({ key, [modifier]: true }).toString(),
                when: SANDY_TERMINAL_FOCUS
            }));
        };
        pass(Key.SPACE, 'ctrl');
        for (let i = 0; i < 26; i++) {
            const letter = { keyCode: Key.KEY_A.keyCode + i, code: `Key${String.fromCharCode(65 + i)}` };
            pass(letter, 'ctrl');
            pass(letter, 'alt');
        }
        for (const key of [Key.BRACKET_LEFT, Key.BRACKET_RIGHT, Key.BACKSLASH, Key.DIGIT3, Key.DIGIT4, Key.DIGIT5, Key.DIGIT6, Key.DIGIT7, Key.DIGIT8]) {
            pass(key, 'ctrl');
        }
        pass(Key.BACKQUOTE, 'alt');
        for (let i = 0; i < 10; i++) {
            pass({ keyCode: Key.DIGIT0.keyCode + i, code: `Digit${i}` }, 'alt');
        }
    }
}
