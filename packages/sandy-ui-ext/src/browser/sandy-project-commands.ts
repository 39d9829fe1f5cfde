import type { ProjectCommands } from '@sandy-ui/core/common';

/**
 * This window's project commands: core's {@link ProjectCommands} over Theia's ports (bound by
 * `bindSandyProjectCommands` in sandy-view-contribution.ts). A token of its own, so the approval
 * service and the view contribution can both inject it.
 */
export const SandyProjectCommands = Symbol('SandyProjectCommands');
export type SandyProjectCommands = ProjectCommands;
