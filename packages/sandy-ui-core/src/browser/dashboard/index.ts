/** The Sessions dashboard view: `@sandy-ui/core/browser/dashboard`. */
export * from './dashboard-view';
