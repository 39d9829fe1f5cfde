import * as pty from 'node-pty';
import { ptySpawnFrom, type PtySpawn } from '@sandy-ui/core/node';

/** node-pty behind the core's PtyLike: the only place the backend touches node-pty. */
export const nodePtySpawn: PtySpawn = ptySpawnFrom(pty);
