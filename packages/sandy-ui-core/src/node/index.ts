/**
 * Node-only parts of sandy-ui-core (`@sandy-ui/core/node`): running and finding sandy, its config
 * files, pre-flight and approvals, projects, PTYs and the one service every host binds.
 * Feature folders: sandy/, config/, approvals/, projects/, terminal/, service/, host/, cli/.
 */
export * from './sandy/env';
export * from './sandy/runner';
export * from './sandy/locate';
export * from './sandy/sandy-client';
export * from './sandy/lock-sweep';
export * from './sandy/docker-client';
export * from './config/path-inside';
export * from './config/config-io';
export * from './config/settings-io';
export * from './config/host-settings-files';
export * from './approvals/approval-memory';
export * from './approvals/launch-gates';
export * from './approvals/gate-responder';
export * from './approvals/preflight';
export * from './projects/projects-store';
export * from './projects/state-poller';
export * from './projects/workspace-guard';
export * from './terminal/pty-supervisor';
export { REPLAY_SCROLLBACK_LINES, ScreenState } from './terminal/screen-state';
export { ScreenThread, SCREEN_WORKER_FILE } from './terminal/screen-thread';
export * from './terminal/hosted-session';
export * from './terminal/attachment-stream';
export * from './terminal/session-records';
export * from './terminal/build-gate';
export { isSandyProcess } from './terminal/process-identity';
export * from './service/sandy-service';
export * from './service/dashboard';
export * from './host/git-safety';
export * from './host/private-file';
export { main as runCli, formatState, formatSchema, formatValidation, formatSweep, USAGE } from './cli/cli';
export type { DoctorCheck, CliIo } from './cli/cli';
export * from './history/session-history';
export * from './history/history-folder';
