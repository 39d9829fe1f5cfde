/** The pre-flight approval view: `@sandy-ui/core/browser/approvals`. */
export * from './approval-view';
