/**
 * Public surface of sandy-ui-core's pure layer, `@sandy-ui/core/common` (browser-safe: no node, no DOM).
 * Each module adds its own line; keep them in dependency order.
 */
export * from './sandy/errors';
export * from './sandy/runner-types';
export * from './sandy/version';
export * from './sandy/contract';
export * from './sandy/commands';
export * from './sandy/compat';
export * from './projects/project-state';
export * from './sandy/schema-cache';
export * from './base/event';
export * from './terminal/replay-buffer';
export * from './session/session-types';
export * from './host/labels';
export * from './projects/project-labels';
export * from './terminal/osc';
export * from './terminal/osc-dispatch';
export * from './terminal/output-batcher';
export * from './config/config-file';
export * from './config/preflight';
export * from './config/approval-diff';
export * from './settings/settings-dto';
export * from './settings/posix-pattern';
export * from './settings/agent-combo';
export * from './settings/settings-fields';
export * from './settings/settings-validation';
export * from './settings/scope-form';
export * from './settings/scope-form-state';
export * from './settings/settings-form-state';
export * from './settings/settings-results';
export * from './approvals/approval-model';
export * from './service/service-protocol';
export * from './session/launch-flow';
export * from './terminal/links';
export * from './host/ide-preferences';
export * from './host/ide-commands';
export * from './approvals/launch-gates';
export * from './host/host-settings';
export * from './terminal/notification-text';
export * from './terminal/notification-coalescer';
export * from './host/host-ui';
export * from './terminal/session-tabs';
export * from './session/window-state';
export * from './session/status-bar-model';
export * from './projects/project-commands';
