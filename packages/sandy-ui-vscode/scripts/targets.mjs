// The platforms a .vsix is built for: one per node-pty prebuild, plus a universal one without node-pty.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

export const PKG_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(PKG_DIR, 'dist-vsix');
export const STAGE_DIR = path.join(PKG_DIR, '.stage');
// sandy runs on macOS and Linux only (a bash script; on Windows, in WSL, where the Linux package runs), and the spec
// puts native Windows at 0.2.0: no win32 package until sandy and the PTY stack are tried there.
export const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];
/** The .vsix without a target: every platform, no node-pty, the editor's own terminal. */
export const UNIVERSAL = 'universal';

/** node-pty as installed for the workspace (root node_modules), resolved like node would. */
export function nodePtyDir() {
    const require = createRequire(path.join(PKG_DIR, 'package.json'));
    return path.dirname(require.resolve('node-pty/package.json'));
}

export function manifest() {
    const require = createRequire(import.meta.url);
    return require(path.join(PKG_DIR, 'package.json'));
}

export function vsixName(target) {
    const { name, version } = manifest();
    return target === UNIVERSAL ? `${name}-${version}.vsix` : `${name}-${target}-${version}.vsix`;
}

/** The native files of a target's prebuild folder that must be in its .vsix. */
export function requiredNative(target) {
    return target.startsWith('win32') ? ['conpty.node', 'conpty_console_list.node'] : ['pty.node'];
}
