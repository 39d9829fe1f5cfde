import * as pty from 'node-pty';
import type { PtySpawn } from '@sandy-ui/core/lib/node/pty-supervisor';

/** node-pty behind the core's PtyLike: the only place the backend touches node-pty. */
export const nodePtySpawn: PtySpawn = (file, args, options) => {
    const p = pty.spawn(file, args, {
        name: options.name,
        cols: options.cols,
        rows: options.rows,
        cwd: options.cwd,
        env: options.env
    });
    return {
        pid: p.pid,
        onData: listener => p.onData(listener),
        onExit: listener => p.onExit(listener),
        write: data => p.write(data),
        resize: (cols, rows) => p.resize(cols, rows),
        pause: () => p.pause(),
        resume: () => p.resume(),
        kill: signal => p.kill(signal)
    };
};
