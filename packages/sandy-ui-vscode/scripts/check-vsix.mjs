#!/usr/bin/env node
// Verifies dist-vsix/: every target's .vsix exists, declares its TargetPlatform, and carries node-pty's
// JS with exactly ONE prebuild folder, its own (with its native files); the universal .vsix carries no
// node-pty at all; and each passes what Open VSX checks before it publishes (a licence, a PNG icon,
// repository/bugs/homepage, no proposed API, a README, a size it accepts). Reads the archives with
// `unzip -l` / `unzip -p`. `check-vsix.mjs FILE.vsix…` runs only the Open VSX checks on those files.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OUT_DIR, TARGETS, UNIVERSAL, requiredNative, vsixName } from './targets.mjs';

const PTY = 'extension/dist/node_modules/node-pty/';
/** Far below what a registry takes; a platform package is about 0.85 MB. */
const MAX_VSIX_BYTES = 50 * 1024 * 1024;
const problems = [];

function entries(file) {
    const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' });
    return listing.split('\n').filter(Boolean);
}

/** What Open VSX (and the Marketplace) refuse or flag at publication, for one .vsix. */
function openVsxProblems(file, names) {
    const label = path.basename(file);
    const found = [];
    let manifest;
    try {
        manifest = JSON.parse(execFileSync('unzip', ['-p', file, 'extension/package.json'], { encoding: 'utf8' }));
    } catch {
        return [`${label}: no readable extension/package.json`];
    }
    if (!names.some(n => /^extension\/LICEN[CS]E(\.(md|txt))?$/i.test(n)) && !manifest.license) {
        found.push(`${label}: no licence (a LICENSE file or a license field)`);
    } else if (!names.some(n => /^extension\/LICEN[CS]E(\.(md|txt))?$/i.test(n))) {
        found.push(`${label}: no LICENSE file (Open VSX shows it; the license field alone is not enough)`);
    }
    if (!manifest.icon) {
        found.push(`${label}: no icon`);
    } else if (!/\.png$/i.test(manifest.icon)) {
        found.push(`${label}: icon ${manifest.icon} is not a PNG (SVG icons are refused)`);
    } else {
        const entry = `extension/${manifest.icon.replace(/^\.\//, '')}`;
        if (!names.includes(entry)) {
            found.push(`${label}: icon ${manifest.icon} is not in the package`);
        } else {
            const head = execFileSync('unzip', ['-p', file, entry]).subarray(0, 8);
            if (!head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
                found.push(`${label}: icon ${manifest.icon} is not PNG data`);
            }
        }
    }
    for (const field of ['repository', 'bugs', 'homepage']) {
        if (!manifest[field]) {
            found.push(`${label}: no ${field} in package.json`);
        }
    }
    if (manifest.enabledApiProposals?.length) {
        found.push(`${label}: uses proposed API (${manifest.enabledApiProposals.join(', ')}), which a public registry refuses`);
    }
    const readme = names.find(n => /^extension\/readme\.md$/i.test(n));
    if (!readme) {
        found.push(`${label}: no README`);
    }
    // Open VSX shows the README and the changelog on its own site and VS Code in its extension page: neither resolves
    // a relative image path into the package, so such an image is a broken picture on the listing.
    for (const doc of [readme, names.find(n => /^extension\/changelog\.md$/i.test(n))].filter(Boolean)) {
        for (const src of imageSources(execFileSync('unzip', ['-p', file, doc], { encoding: 'utf8' })).filter(i => !/^https:\/\//i.test(i))) {
            found.push(`${label}: ${path.basename(doc)} image ${src} is not an https URL (the listing cannot show it)`);
        }
    }
    if (/^0\./.test(manifest.version ?? '') && manifest.preview !== true) {
        found.push(`${label}: version ${manifest.version} without "preview": true`);
    }
    const size = fs.statSync(file).size;
    if (size > MAX_VSIX_BYTES) {
        found.push(`${label}: ${size} bytes, over ${MAX_VSIX_BYTES}`);
    }
    return found;
}

/**
 * Every image a Markdown document shows: inline images, reference definitions of image files, and HTML `src`,
 * `srcset` and `poster` values (quoted or not).
 */
function imageSources(text) {
    const found = [];
    for (const m of text.matchAll(/!\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)/g)) {
        found.push(m[1]);
    }
    for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/gm)) {
        if (/\.(png|jpe?g|gif|svg|webp|bmp|ico)([?#].*)?$/i.test(m[1])) {
            found.push(m[1]);
        }
    }
    for (const m of text.matchAll(/<(?:img|source|video)\b[^>]*>/gi)) {
        for (const a of m[0].matchAll(/\b(src|srcset|poster)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
            const value = a[2] ?? a[3] ?? a[4] ?? '';
            found.push(...(a[1].toLowerCase() === 'srcset' ? value.split(',').map(c => c.trim().split(/\s+/)[0]).filter(Boolean) : [value]));
        }
    }
    return found;
}

const given = process.argv.slice(2).filter(a => a.endsWith('.vsix'));
if (given.length) {
    for (const file of given) {
        const found = openVsxProblems(file, entries(file));
        problems.push(...found);
        console.log(`${found.length ? '✗' : '✓'} ${path.basename(file)}: Open VSX checks`);
    }
    if (problems.length) {
        console.error(`\n${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
        process.exit(1);
    }
    process.exit(0);
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
    // (screen-worker.js: core's ScreenThread parses the sessions' screens in it; without it they are parsed on the extension host's thread.)
    for (const required of ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/screen-worker.js', 'extension/dist/webview/terminal.js',
        'extension/dist/webview/approval.js', 'extension/dist/webview/settings.js']) {
        if (!names.includes(required)) {
            problems.push(`${target}: ${required} missing`);
        }
    }
    problems.push(...openVsxProblems(file, names).map(p => `${target}: ${p}`));
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
console.log('\nEvery .vsix carries exactly its own node-pty prebuild and passes the Open VSX checks.');
