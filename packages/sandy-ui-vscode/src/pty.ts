import type { PtySpawn } from '@sandy-ui/core/node';
import { ptySpawnFrom, NodePtyModuleLike } from '@sandy-ui/core/node';

export type PtyLoad = { ok: true; spawn: PtySpawn; from: string } | { ok: false; problem: string };

/**
 * node-pty, if this package carries it. A platform .vsix holds node-pty's JS and the one prebuild of
 * its target in dist/node_modules/node-pty (node-pty looks for `prebuilds/<platform>-<arch>/pty.node`
 * beside its lib folder); the universal .vsix holds none, and the plugin falls back to the editor's
 * own terminal. esbuild leaves `require('node-pty')` to the runtime (it is external).
 */
export function loadNodePty(): PtyLoad {
    try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const nodePty = require('node-pty') as NodePtyModuleLike;
        if (typeof nodePty?.spawn !== 'function') {
            return { ok: false, problem: 'node-pty loaded without a spawn function' };
        }
        let from = 'node-pty';
        try {
            from = require.resolve('node-pty');
        } catch {
            // only for the log line
        }
        return { ok: true, spawn: ptySpawnFrom(nodePty), from };
    } catch (e) {
        return { ok: false, problem: e instanceof Error ? e.message.split('\n')[0] : String(e) };
    }
}
