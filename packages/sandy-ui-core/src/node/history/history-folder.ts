import * as os from 'os';
import * as path from 'path';

/**
 * Session history outside the IDE's data folder (Theia watches its configuration folder, which is the
 * data folder, recursively): `$SANDY_IDE_HISTORY_DIR`, else `$XDG_STATE_HOME/sandy-ide/history` (only
 * an absolute path counts, as the XDG base directory rules say), else `~/.local/state/sandy-ide/history`.
 */
export function ideHistoryDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
    if (env.SANDY_IDE_HISTORY_DIR && path.isAbsolute(env.SANDY_IDE_HISTORY_DIR)) {
        return env.SANDY_IDE_HISTORY_DIR;
    }
    const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
    return path.join(state, 'sandy-ide', 'history');
}
