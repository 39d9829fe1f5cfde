import { injectable, postConstruct, inject } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core';
import { ThemeService } from '@theia/core/lib/browser/theming';
import type { ITheme } from '@xterm/xterm';

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
        const style = getComputedStyle(document.documentElement);
        const v = (name: string, fallback: string) => style.getPropertyValue(`--theia-${name}`).trim() || fallback;
        const ansi = ['Black', 'Red', 'Green', 'Yellow', 'Blue', 'Magenta', 'Cyan', 'White'];
        const theme: ITheme = {
            background: v('terminal-background', v('editor-background', '#1e1e1e')),
            foreground: v('terminal-foreground', v('editor-foreground', '#cccccc')),
            cursor: v('terminalCursor-foreground', v('terminal-foreground', '#cccccc')),
            selectionBackground: v('terminal-selectionBackground', '#264f78')
        };
        const record = theme as Record<string, string>;
        for (const name of ansi) {
            const key = name.toLowerCase();
            const normal = style.getPropertyValue(`--theia-terminal-ansi${name}`).trim();
            const bright = style.getPropertyValue(`--theia-terminal-ansiBright${name}`).trim();
            if (normal) { record[key] = normal; }
            if (bright) { record[`bright${name}`] = bright; }
        }
        return theme;
    }
}
