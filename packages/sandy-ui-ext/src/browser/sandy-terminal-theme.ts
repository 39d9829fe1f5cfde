import { injectable, postConstruct, inject } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core';
import { ThemeService } from '@theia/core/lib/browser/theming';
import type { ITheme } from '@xterm/xterm';
import { terminalThemeFromCss } from '@sandy-ui/core/browser/terminal';

/** xterm colours from the current Theia theme's terminal colour variables. */
@injectable()
export class SandyTerminalTheme {
    @inject(ThemeService) protected readonly themeService: ThemeService;
    protected readonly onDidChangeEmitter = new Emitter<ITheme>();
    readonly onDidChange = this.onDidChangeEmitter.event;

    @postConstruct()
    protected init(): void {
        this.themeService.onDidColorThemeChange(() => {
            // Theia updates its CSS variables after the event; read them on the next frame.
            requestAnimationFrame(() => this.onDidChangeEmitter.fire(this.theme));
        });
    }

    get theme(): ITheme {
        return terminalThemeFromCss(getComputedStyle(document.documentElement), '--theia-');
    }
}
