/** The settings editor's DOM view: `@sandy-ui/core/browser/settings`. */
export * from './settings-view';
