/**
 * Public surface of sandy-ui-core's pure layer (browser-safe: no node, no DOM).
 * Each module adds its own line; keep them in dependency order.
 */
export * from './errors';
export * from './runner-types';
export * from './version';
export * from './contract';
export * from './commands';
export * from './compat';
export * from './project-state';
export * from './schema-cache';
export * from './event';
export * from './replay-buffer';
export * from './session-types';
export * from './labels';
export * from './project-labels';
export * from './osc';
export * from './osc-dispatch';
export * from './output-batcher';
export * from './config-file';
export * from './preflight';
export * from './approval-diff';
export * from './settings-form';
export * from './approval-model';
export * from './service-protocol';
export * from './launch-flow';
export * from './links';
export * from './ide-preferences';
export * from './ide-commands';
export * from './launch-gates';
