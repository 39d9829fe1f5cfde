import { ITheme, Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { TerminalFont, terminalFontFamily } from '../../common/terminal/terminal-appearance';
import { HistoryTerminalFactory, HistoryViewer, HistoryViewerHost, HistoryViewerOptions } from './history-viewer';

/**
 * The viewer's terminal in a page: xterm.js with the viewer's options, fitted to its element. No
 * WebLinksAddon (no text becomes a link), and a link handler that does nothing should xterm make
 * an OSC 8 link after all (the viewer swallows OSC 8 before it can).
 */
export const xtermHistoryTerminal: HistoryTerminalFactory = (element, options) => {
    const font = (f: TerminalFont): TerminalFont => ({
        fontSize: f.fontSize,
        // Only a family list, checked again at the way into xterm (which writes it into a <style> element).
        fontFamily: terminalFontFamily(f.fontFamily),
        lineHeight: f.lineHeight
    });
    const terminal = new Terminal({
        ...options,
        ...font(options),
        theme: options.theme as ITheme | undefined,
        windowOptions: {},
        linkHandler: { activate: () => undefined, allowNonHttpProtocols: false }
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    return {
        terminal,
        fit: () => fit.fit(),
        setFont: f => Object.assign(terminal.options, font(f)),
        setTheme: theme => terminal.options.theme = theme as ITheme
    };
};

/** A history viewer over xterm.js (the hosts' one way to make it). */
export function createHistoryViewer(container: HTMLElement, host: HistoryViewerHost, options: HistoryViewerOptions = {}): HistoryViewer {
    return new HistoryViewer(container, host, xtermHistoryTerminal, options);
}
