#!/usr/bin/env node
// Bundles VS Code's built-in `git` and `git-base` extensions into browser-app/plugins so the Sandy IDE
// has Source Control. They come from the npm registry (code-server@4.100.3 ships VS Code 1.100.3's
// built extensions under lib/vscode/extensions/), because open-vsx and GitHub are not reachable on
// offline build machines. The tarball is cached under node_modules/.cache.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const CODE_SERVER = 'code-server@4.100.3';
const EXTENSIONS = ['git', 'git-base'];
const root = path.resolve(__dirname, '..');
const target = path.resolve(process.argv[2] || path.join(root, 'browser-app', 'plugins'));
const cache = path.join(root, 'node_modules', '.cache', 'sandy-builtins');

const wanted = EXTENSIONS.map(name => ({ name, dir: path.join(target, `vscode.${name}`) }));
if (wanted.every(w => fs.existsSync(path.join(w.dir, 'package.json')))) {
    process.exit(0);
}
fs.mkdirSync(cache, { recursive: true });
let tarball = fs.readdirSync(cache).find(f => f.startsWith('code-server-') && f.endsWith('.tgz'));
if (!tarball) {
    console.log(`Fetching ${CODE_SERVER} from the npm registry for VS Code's built-in git extensions…`);
    const out = execFileSync('npm', ['pack', CODE_SERVER, '--pack-destination', cache, '--silent'], { encoding: 'utf8' }).trim().split('\n').pop();
    tarball = out;
}
const tgz = path.join(cache, tarball);
for (const { name, dir } of wanted) {
    const member = `package/lib/vscode/extensions/${name}`;
    const staging = fs.mkdtempSync(path.join(cache, 'x-'));
    execFileSync('tar', ['xzf', tgz, '-C', staging, member]);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.renameSync(path.join(staging, member), dir);
    fs.rmSync(staging, { recursive: true, force: true });
    console.log(`Bundled vscode.${name} into ${path.relative(root, dir)}`);
}
