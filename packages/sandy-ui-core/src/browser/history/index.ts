/** The History list and the read-only viewer: `@sandy-ui/core/browser/history`. */
export * from './history-list';
export * from './history-viewer';
export * from './history-xterm';
