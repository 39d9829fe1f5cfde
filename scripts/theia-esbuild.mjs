/**
 * The Sandy IDE's Theia builds (browser-app/esbuild.mjs, electron-app/esbuild.mjs call this with
 * Theia's generated options): Theia's bundles, plus one more backend entry, the sessions' screen
 * worker. Core's ScreenThread starts lib/backend/screen-worker.js beside main.js, so that parsing
 * every agent's output does not run on the thread that reads the PTYs; without it the screens are
 * parsed on the main thread (and the backend says so).
 */
import esbuild from 'esbuild';

export async function buildTheiaApp({ watch, browserOptions, nodeOptions, electronOptions }) {
    nodeOptions.entryPoints['screen-worker'] = '@sandy-ui/core/node/screen-worker';
    const contexts = [];
    for (const options of [browserOptions, nodeOptions, electronOptions].filter(Boolean)) {
        contexts.push(await esbuild.context(options));
    }
    if (watch) {
        await Promise.all(contexts.map(c => c.watch()));
        return;
    }
    try {
        for (const c of contexts) {
            await c.rebuild();
            await c.dispose();
        }
    } catch {
        process.exit(1);
    }
}
