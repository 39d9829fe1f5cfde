#!/usr/bin/env node
// Verifies dist-vsix/: every target's .vsix exists, declares its TargetPlatform, and carries node-pty's
// JS with exactly ONE prebuild folder, its own (with its native files); the universal .vsix carries no
// node-pty at all. Reads the archives with `unzip -l` / `unzip -p`.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OUT_DIR, TARGETS, UNIVERSAL, requiredNative, vsixName } from './targets.mjs';

const PTY = 'extension/dist/node_modules/node-pty/';
const problems = [];

function entries(file) {
    const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' });
    return listing.split('\n').filter(Boolean);
}

for (const target of [...TARGETS, UNIVERSAL]) {
    const file = path.join(OUT_DIR, vsixName(target));
    if (!fs.existsSync(file)) {
        problems.push(`${target}: ${path.relative(process.cwd(), file)} is missing (run npm run package -w sandy-ui)`);
        continue;
    }
    const names = entries(file);
    const manifest = execFileSync('unzip', ['-p', file, 'extension.vsixmanifest'], { encoding: 'utf8' });
    const declared = /TargetPlatform="([^"]+)"/.exec(manifest)?.[1];
    const prebuildDirs = [...new Set(names.filter(n => n.startsWith(`${PTY}prebuilds/`)).map(n => n.slice(`${PTY}prebuilds/`.length).split('/')[0]))];
    for (const required of ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/webview/terminal.js',
        'extension/dist/webview/approval.js', 'extension/dist/webview/settings.js']) {
        if (!names.includes(required)) {
            problems.push(`${target}: ${required} missing`);
        }
    }
    if (names.some(n => n.endsWith('.map') || n.endsWith('.pdb') || n.endsWith('.ts') && !n.endsWith('.d.ts'))) {
        problems.push(`${target}: carries source maps, debug symbols or sources`);
    }
    if (target === UNIVERSAL) {
        if (declared) {
            problems.push(`universal: declares TargetPlatform ${declared}`);
        }
        if (names.some(n => n.startsWith(PTY))) {
            problems.push('universal: carries node-pty');
        }
    } else {
        if (declared !== target) {
            problems.push(`${target}: TargetPlatform is ${declared ?? '(none)'}`);
        }
        if (prebuildDirs.length !== 1 || prebuildDirs[0] !== target) {
            problems.push(`${target}: prebuild folders ${JSON.stringify(prebuildDirs)}, expected exactly ["${target}"]`);
        }
        for (const native of requiredNative(target)) {
            if (!names.includes(`${PTY}prebuilds/${target}/${native}`)) {
                problems.push(`${target}: ${native} missing from its prebuild`);
            }
        }
        for (const js of ['package.json', 'lib/index.js', 'lib/utils.js', target.startsWith('win32') ? 'lib/windowsTerminal.js' : 'lib/unixTerminal.js']) {
            if (!names.includes(`${PTY}${js}`)) {
                problems.push(`${target}: node-pty ${js} missing`);
            }
        }
        if (target.startsWith('darwin') && !names.includes(`${PTY}prebuilds/${target}/spawn-helper`)) {
            problems.push(`${target}: spawn-helper missing (node-pty forks through it on macOS)`);
        }
    }
    console.log(`${problems.some(p => p.startsWith(target)) ? '✗' : '✓'} ${path.basename(file)}: ${names.length} files, `
        + (target === UNIVERSAL ? 'no node-pty' : `prebuilds/${prebuildDirs.join(', ')}`));
}
const stray = fs.existsSync(OUT_DIR) ? fs.readdirSync(OUT_DIR).filter(f => f.endsWith('.vsix') && ![...TARGETS, UNIVERSAL].map(vsixName).includes(f)) : [];
if (stray.length) {
    console.log(`(other .vsix files in ${path.relative(process.cwd(), OUT_DIR)}, not checked: ${stray.join(', ')})`);
}
if (problems.length) {
    console.error(`\n${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
}
console.log('\nEvery .vsix carries exactly its own node-pty prebuild.');
