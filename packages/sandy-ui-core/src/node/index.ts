/** Node-only parts of sandy-ui-core: running sandy, finding it, its environment, locks and Docker. */
export * from './env';
export * from './runner';
export * from './locate';
export * from './sandy-client';
export * from './lock-sweep';
export * from './docker-client';
export * from './workspace-guard';
export { main as runCli, formatState, formatSchema, formatValidation, formatSweep, USAGE } from './cli';
export type { DoctorCheck, CliIo } from './cli';
export * from './sandy-service';
export * from './git-safety';
