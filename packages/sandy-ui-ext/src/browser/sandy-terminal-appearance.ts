import { injectable, postConstruct, inject } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core';
import { PreferenceProviderProvider, PreferenceScope, PreferenceService } from '@theia/core/lib/common/preferences';
import { sameTerminalAppearance, terminalAppearance, TERMINAL_APPEARANCE_SETTINGS } from '@sandy-ui/core/common';
import type { TerminalAppearance } from '@sandy-ui/core/common';

/** The sandy tab's font and cursor from Theia's own terminal settings (core's terminal-appearance.ts reads and checks them). */
@injectable()
export class SandyTerminalAppearance {
    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(PreferenceProviderProvider) protected readonly providers: PreferenceProviderProvider;
    protected readonly onDidChangeEmitter = new Emitter<TerminalAppearance>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    protected current: TerminalAppearance | undefined;

    @postConstruct()
    protected init(): void {
        const settings: readonly string[] = TERMINAL_APPEARANCE_SETTINGS;
        this.preferences.onPreferenceChanged(e => {
            if (settings.includes(e.preferenceName)) {
                this.update();
            }
        });
        // Theia emits no change of a setting that a workspace file sets too (the workspace's value wins there), but
        // for the user-only ones (core's terminal-appearance.ts) the user's value is the one that counts: the user
        // file's own changes are listened to as well, or turning one on would be missed in such a workspace.
        this.providers(PreferenceScope.User)?.onDidPreferencesChanged(changes => {
            if (Object.keys(changes).some(name => settings.includes(name))) {
                this.update();
            }
        });
        // A tab restored with the layout may be made before the preferences are read, with no WebGL (see `appearance`):
        // once they are, every tab is sent the appearance, even one equal to what an earlier event had cached.
        this.preferences.ready.then(() => {
            this.current = undefined;
            this.update();
        });
    }

    get appearance(): TerminalAppearance {
        if (!this.preferences.isReady) {
            // The user's settings are not read yet: no WebGL until they are (the user may have turned it off); the
            // update once they are read sends the real appearance.
            return { ...terminalAppearance(key => this.preferences.inspect(key)), gpuAcceleration: 'off' };
        }
        return this.current ??= terminalAppearance(key => this.preferences.inspect(key));
    }

    protected update(): void {
        const next = terminalAppearance(key => this.preferences.inspect(key));
        if (!this.current || !sameTerminalAppearance(this.current, next)) {
            this.current = next;
            this.onDidChangeEmitter.fire(next);
        }
    }
}
