#!/usr/bin/env node
// `npm start`: build whatever is missing or out of date, then serve the Sandy IDE on
// http://127.0.0.1:3000 (extra arguments go to `theia start`, e.g. a folder to open).
'use strict';
const { spawnSync, spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const app = path.join(root, 'browser-app');

function run(cmd, args, opts = {}) {
    const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
    if (r.status !== 0) {
        process.exit(r.status ?? 1);
    }
}

function newestMtime(dir) {
    let newest = 0;
    if (!fs.existsSync(dir)) {
        return 0;
    }
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
    }
    return newest;
}

if (!fs.existsSync(path.join(root, 'node_modules', '@theia', 'core'))) {
    console.error('Dependencies are missing: run `npm ci` first.');
    process.exit(1);
}
// tsc -b is incremental: cheap when nothing changed.
run('npx', ['tsc', '-b', 'configs/tsconfig.all.json']);
const bundle = path.join(app, 'lib', 'frontend', 'bundle.js');
const sources = Math.max(...['sandy-ui-core', 'sandy-ui-backend', 'sandy-ui-ext'].map(p => newestMtime(path.join(root, 'packages', p, 'lib'))),
    fs.statSync(path.join(app, 'package.json')).mtimeMs);
if (!fs.existsSync(bundle) || fs.statSync(bundle).mtimeMs < sources || !fs.existsSync(path.join(app, 'plugins', 'vscode.git')) || process.argv.includes('--rebuild')) {
    run('npm', ['run', 'build', '-w', 'browser-app']);
}
const args = process.argv.slice(2).filter(a => a !== '--rebuild');
const hasHost = args.some(a => a.startsWith('--hostname'));
const hasPort = args.some(a => a.startsWith('--port'));
// VS Code's built-in git/git-base (Source Control) are bundled into browser-app/plugins by the build.
const env = { ...process.env, THEIA_DEFAULT_PLUGINS: process.env.THEIA_DEFAULT_PLUGINS || `local-dir:${path.join(app, 'plugins')}` };
const child = spawn('npx', ['theia', 'start', ...(hasHost ? [] : ['--hostname', '127.0.0.1']), ...(hasPort ? [] : ['--port', '3000']), ...args],
    { cwd: app, stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => child.kill(sig));
}
child.on('exit', code => process.exit(code ?? 0));
