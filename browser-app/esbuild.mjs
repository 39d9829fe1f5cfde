/**
 * This file can be edited to adjust the ESBuild build process.
 * To reset, delete this file and rerun theia build again.
 *
 * Sandy IDE: kept in git (Theia writes it only when it is missing, or when it does not mention
 * gen-esbuild); the build itself is ../scripts/theia-esbuild.mjs, shared with electron-app.
 */
import { browserOptions, watch } from './gen-esbuild.browser.mjs';
import { nodeOptions } from './gen-esbuild.node.mjs';
import { buildTheiaApp } from '../scripts/theia-esbuild.mjs';

await buildTheiaApp({ watch, browserOptions, nodeOptions });
