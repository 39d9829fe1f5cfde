#!/usr/bin/env node
// Bundles the plugin with esbuild (as microsoft/vscode-containers' esbuild.mjs): the extension host
// entry for node (vscode and node-pty stay external: the editor provides one, the .vsix carries the
// other), and one browser bundle (+ its CSS) per webview. @sandy-ui/core is bundled from its
// TypeScript source, not from its compiled lib; type-checking is `tsc -b` (configs/tsconfig.all.json).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const coreSrc = path.resolve(pkgDir, '..', 'sandy-ui-core', 'src');
const dist = path.join(pkgDir, 'dist');
const production = process.argv.includes('--production');

/** `@sandy-ui/core`, `@sandy-ui/core/common|node` and `@sandy-ui/core/browser/<feature>` (its exports map) → core's .ts source. */
const coreFromSource = {
    name: 'sandy-core-from-source',
    setup(build) {
        build.onResolve({ filter: /^@sandy-ui\/core(\/.*)?$/ }, args => {
            const sub = args.path.slice('@sandy-ui/core'.length);
            const entry = !sub ? 'common' : /^\/(common|node|browser\/[a-z-]+)$/.exec(sub)?.[1];
            if (entry) {
                const file = path.join(coreSrc, entry, 'index.ts');
                return fs.existsSync(file) ? { path: file } : { errors: [{ text: `no core entry point for ${args.path}` }] };
            }
            // css/… and other non-code files: the package itself (its exports map).
            return undefined;
        });
    }
};

const common = {
    bundle: true,
    sourcemap: production ? false : 'linked',
    minify: production,
    logLevel: 'warning',
    plugins: [coreFromSource],
    legalComments: 'none'
};

fs.rmSync(dist, { recursive: true, force: true });
await Promise.all([
    esbuild.build({
        ...common,
        // screen-worker: the sessions' screens are parsed in it, beside extension.js (core's ScreenThread).
        entryPoints: { extension: path.join(pkgDir, 'src', 'extension.ts'), 'screen-worker': path.join(coreSrc, 'node', 'terminal', 'screen-worker.ts') },
        outdir: dist,
        platform: 'node',
        format: 'cjs',
        target: 'node18',
        external: ['vscode', 'node-pty']
    }),
    esbuild.build({
        ...common,
        entryPoints: {
            terminal: path.join(pkgDir, 'src', 'webview', 'app', 'terminal-main.ts'),
            approval: path.join(pkgDir, 'src', 'webview', 'app', 'approval-main.ts'),
            settings: path.join(pkgDir, 'src', 'webview', 'app', 'settings-main.ts'),
            dashboard: path.join(pkgDir, 'src', 'webview', 'app', 'dashboard-main.ts'),
            history: path.join(pkgDir, 'src', 'webview', 'app', 'history-main.ts'),
            'history-viewer': path.join(pkgDir, 'src', 'webview', 'app', 'history-viewer-main.ts'),
            wizard: path.join(pkgDir, 'src', 'webview', 'app', 'wizard-main.ts')
        },
        outdir: path.join(dist, 'webview'),
        platform: 'browser',
        format: 'iife',
        target: ['chrome108', 'safari16'],
        loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.svg': 'file', '.png': 'file' }
    })
]);
for (const f of ['extension.js', 'screen-worker.js', 'webview/terminal.js', 'webview/terminal.css', 'webview/approval.js', 'webview/approval.css', 'webview/settings.js', 'webview/settings.css', 'webview/dashboard.js', 'webview/dashboard.css', 'webview/history.js', 'webview/history.css', 'webview/history-viewer.js', 'webview/history-viewer.css', 'webview/wizard.js', 'webview/wizard.css']) {
    if (!fs.existsSync(path.join(dist, f))) {
        throw new Error(`build: ${f} was not produced`);
    }
}
console.log(`sandy-ui-vscode: bundled into ${path.relative(process.cwd(), dist) || 'dist'}`);
