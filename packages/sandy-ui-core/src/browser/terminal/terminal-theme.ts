import type { ITheme } from '@xterm/xterm';

/**
 * xterm colours from the host theme's CSS variables. Theia (`--theia-`) and VS Code webviews
 * (`--vscode-`) name the terminal colours alike, so one reader serves both with a different prefix.
 */
export function terminalThemeFromCss(style: Pick<CSSStyleDeclaration, 'getPropertyValue'>, prefix: '--theia-' | '--vscode-'): ITheme {
    const v = (name: string, fallback: string) => style.getPropertyValue(`${prefix}${name}`).trim() || fallback;
    const theme: ITheme = {
        background: v('terminal-background', v('editor-background', '#1e1e1e')),
        foreground: v('terminal-foreground', v('editor-foreground', '#cccccc')),
        cursor: v('terminalCursor-foreground', v('terminal-foreground', '#cccccc')),
        selectionBackground: v('terminal-selectionBackground', '#264f78')
    };
    const record = theme as Record<string, string>;
    for (const name of ['Black', 'Red', 'Green', 'Yellow', 'Blue', 'Magenta', 'Cyan', 'White']) {
        const normal = style.getPropertyValue(`${prefix}terminal-ansi${name}`).trim();
        const bright = style.getPropertyValue(`${prefix}terminal-ansiBright${name}`).trim();
        if (normal) { record[name.toLowerCase()] = normal; }
        if (bright) { record[`bright${name}`] = bright; }
    }
    return theme;
}
