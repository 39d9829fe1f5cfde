/**
 * This file can be edited to adjust the ESBuild build process.
 * To reset, delete this file and rerun theia build again.
 *
 * Sandy IDE: kept in git (Theia writes it only when it is missing). The backend bundle gets one more
 * entry, the sessions' screen worker: core's ScreenThread starts lib/backend/screen-worker.js beside
 * main.js, so that parsing every agent's output does not run on the thread that reads the PTYs.
 * browser-app/esbuild.mjs does the same.
 */
import { browserOptions, watch } from './gen-esbuild.browser.mjs';
import { nodeOptions } from './gen-esbuild.node.mjs';
import { electronOptions } from './gen-esbuild.electron.mjs';
import esbuild from 'esbuild';

nodeOptions.entryPoints['screen-worker'] = '@sandy-ui/core/node/screen-worker';

const browserContext = await esbuild.context(browserOptions);
const nodeContext = await esbuild.context(nodeOptions);
const electronContext = await esbuild.context(electronOptions);

if (watch) {
    await Promise.all([
        browserContext.watch(),
        nodeContext.watch(),
        electronContext.watch(),
    ]);
} else {
    try {
        await browserContext.rebuild();
        await browserContext.dispose();
        await nodeContext.rebuild();
        await nodeContext.dispose();
        await electronContext.rebuild();
        await electronContext.dispose();
    } catch {
        process.exit(1);
    }
}
