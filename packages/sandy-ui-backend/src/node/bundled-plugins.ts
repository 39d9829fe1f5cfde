import * as fs from 'fs';
import * as path from 'path';

/**
 * The app's own bundled VS Code extensions (git and git-base: Source Control) are found by the app
 * itself, however it is started: `npm start`, `theia start`, `node lib/backend/main.js`, a desktop
 * launcher. They live in the app's `plugins` folder beside `lib/` (the build puts them there); Theia
 * reads that only from `THEIA_DEFAULT_PLUGINS` or `--plugins`, which only `npm start` set. Called
 * when the backend module loads, before any contribution starts (the plugin deployer reads the
 * variable as it starts). The folder is the installation's, never a workspace's; an explicit
 * setting of either wins.
 */
export function useBundledPlugins(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.argv, backendDir: string = __dirname): void {
    // The backend bundle's own folder (`<app>/lib/backend`), never argv: under Electron's --no-cluster
    // argv[1] is the user's first argument.
    const folder = bundledPluginsFolder(path.join(backendDir, 'main.js'), env, argv);
    if (folder) {
        env.THEIA_DEFAULT_PLUGINS = `local-dir:${folder}`;
    }
}

/** `<app>/plugins` for a backend bundled as `<app>/lib/backend/main.js`, unless plugins were named already or it is not a real folder. */
export function bundledPluginsFolder(main: string | undefined, env: NodeJS.ProcessEnv, argv: readonly string[]): string | undefined {
    if (!main || env.THEIA_DEFAULT_PLUGINS || argv.some(a => a === '--plugins' || a.startsWith('--plugins='))) {
        return undefined;
    }
    const folder = path.resolve(path.dirname(main), '..', '..', 'plugins');
    try {
        return fs.lstatSync(folder).isDirectory() ? folder : undefined;
    } catch {
        return undefined;
    }
}
