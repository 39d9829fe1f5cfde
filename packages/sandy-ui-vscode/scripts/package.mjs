#!/usr/bin/env node
// Builds every .vsix into dist-vsix/: one per platform target carrying node-pty's JS and ONLY that
// target's prebuild (node-pty loads `prebuilds/<platform>-<arch>/pty.node` relative to its lib folder,
// see node-pty/lib/utils.js loadNativeModule), and a universal one without node-pty. Each is packaged
// from a staging folder holding exactly the shipped files, with `vsce package --no-dependencies`.
//   node scripts/package.mjs [--target linux-x64 ...] [--skip-build]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { OUT_DIR, PKG_DIR, STAGE_DIR, TARGETS, UNIVERSAL, manifest, nodePtyDir, vsixName } from './targets.mjs';

const args = process.argv.slice(2);
const only = args.flatMap((a, i) => a === '--target' ? [args[i + 1]] : []);
const targets = only.length ? only : [...TARGETS, UNIVERSAL];
for (const t of targets) {
    if (t !== UNIVERSAL && !TARGETS.includes(t)) {
        throw new Error(`unknown target ${t}; known: ${[...TARGETS, UNIVERSAL].join(', ')}`);
    }
}

if (!args.includes('--skip-build')) {
    execFileSync(process.execPath, [path.join(PKG_DIR, 'scripts', 'build.mjs'), '--production'], { stdio: 'inherit' });
}

const vsce = createRequire(path.join(PKG_DIR, 'package.json')).resolve('@vscode/vsce/vsce');

function copy(from, to, filter = () => true) {
    const stat = fs.statSync(from);
    if (stat.isDirectory()) {
        for (const entry of fs.readdirSync(from)) {
            copy(path.join(from, entry), path.join(to, entry), filter);
        }
    } else if (filter(from)) {
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(from, to);
    }
}

/** The manifest as shipped: no workspace dependencies (everything is bundled) and no scripts. */
function shippedManifest() {
    const { dependencies: _d, devDependencies: _dd, scripts: _s, private: _p, ...rest } = manifest();
    return rest;
}

function stage(target) {
    const dir = path.join(STAGE_DIR, target);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(shippedManifest(), null, 2) + '\n');
    // The stage holds only shipped files already; this keeps vsce from warning and source maps out.
    fs.writeFileSync(path.join(dir, '.vscodeignore'), '**/*.map\n');
    for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md']) {
        copy(path.join(PKG_DIR, file), path.join(dir, file));
    }
    copy(path.join(PKG_DIR, 'media'), path.join(dir, 'media'));
    copy(path.join(PKG_DIR, 'dist'), path.join(dir, 'dist'), f => !f.endsWith('.map') && !f.includes(`${path.sep}node_modules${path.sep}`));
    if (target !== UNIVERSAL) {
        const ptySrc = nodePtyDir();
        const ptyDst = path.join(dir, 'dist', 'node_modules', 'node-pty');
        const { scripts: _s, devDependencies: _dd, ...ptyManifest } = JSON.parse(fs.readFileSync(path.join(ptySrc, 'package.json'), 'utf8'));
        fs.mkdirSync(ptyDst, { recursive: true });
        fs.writeFileSync(path.join(ptyDst, 'package.json'), JSON.stringify(ptyManifest, null, 2) + '\n');
        copy(path.join(ptySrc, 'LICENSE'), path.join(ptyDst, 'LICENSE'));
        copy(path.join(ptySrc, 'lib'), path.join(ptyDst, 'lib'), f => f.endsWith('.js') && !f.endsWith('.test.js'));
        const prebuild = path.join(ptySrc, 'prebuilds', target);
        if (!fs.existsSync(prebuild)) {
            throw new Error(`node-pty has no prebuild for ${target} (${prebuild})`);
        }
        // Debug symbols (.pdb) are not needed at run time (and are 10 MB on Windows).
        copy(prebuild, path.join(ptyDst, 'prebuilds', target), f => !f.endsWith('.pdb'));
    }
    return dir;
}

fs.mkdirSync(OUT_DIR, { recursive: true });
// The README's images and links are relative to this folder of the repository; Open VSX's page and VS Code's extension
// page do not resolve them into the package, so vsce writes them as the repository's URLs of this folder.
const { repository } = manifest();
const base = `${repository.url.replace(/\.git$/, '')}/%s/HEAD/${repository.directory}`;
const written = [];
for (const target of targets) {
    const dir = stage(target);
    const out = path.join(OUT_DIR, vsixName(target));
    fs.rmSync(out, { force: true });
    const vsceArgs = ['package', '--no-dependencies', '--baseContentUrl', base.replace('%s', 'blob'), '--baseImagesUrl', base.replace('%s', 'raw'), '--out', out];
    if (target !== UNIVERSAL) {
        vsceArgs.push('--target', target);
    }
    execFileSync(process.execPath, [vsce, ...vsceArgs], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
    written.push(out);
}
fs.rmSync(STAGE_DIR, { recursive: true, force: true });
console.log(`\nsandy-ui-vscode: ${written.length} .vsix in ${path.relative(process.cwd(), OUT_DIR) || '.'}:`);
for (const f of written) {
    console.log(`  ${path.basename(f)}  ${(fs.statSync(f).size / 1024).toFixed(0)} KiB`);
}
