import { ITheme, Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { HistoryTerminalFactory, HistoryViewer, HistoryViewerHost, HistoryViewerOptions } from './history-viewer';

/**
 * The viewer's terminal in a page: xterm.js with the viewer's options, fitted to its element. No
 * WebLinksAddon (no text becomes a link), and a link handler that does nothing should xterm make
 * an OSC 8 link after all (the viewer swallows OSC 8 before it can).
 */
export const xtermHistoryTerminal: HistoryTerminalFactory = (element, options) => {
    // The font (size, line height, a family that is only a family list: xterm writes it into a <style> element)
    // is core's terminalFont, made by the viewer, as for the sandy tab.
    const terminal = new Terminal({
        ...options,
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
        setFont: font => Object.assign(terminal.options, font),
        setTheme: theme => terminal.options.theme = theme as ITheme
    };
};

/** A history viewer over xterm.js (the hosts' one way to make it). */
export function createHistoryViewer(container: HTMLElement, host: HistoryViewerHost, options: HistoryViewerOptions = {}): HistoryViewer {
    return new HistoryViewer(container, host, xtermHistoryTerminal, options);
}
