/** sandy's TUI in a browser or webview: `@sandy-ui/core/browser/terminal`. */
export * from './terminal-view';
export * from './terminal-banner';
export * from './terminal-theme';
