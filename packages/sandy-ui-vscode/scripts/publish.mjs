#!/usr/bin/env node
// Publishes every .vsix of dist-vsix/ to Open VSX, one `ovsx publish <file> --target <target>` per
// platform plus the universal one (ovsx reads the target from the package; --target only documents it).
// ovsx has no dry run: with --dry-run, or in CI, or without OVSX_PAT, this checks the packages
// (scripts/check-vsix.mjs) and prints the commands it would run, touching no registry.
// Before the first publish it checks that the namespace (package.json `publisher`) exists: Open VSX refuses a
// publish into a missing one, so this stops before publishing anything and says how to create it (namespace.mjs).
//   node scripts/publish.mjs [--dry-run] [--registry https://open-vsx.org]
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { OUT_DIR, PKG_DIR, TARGETS, UNIVERSAL, vsixName } from './targets.mjs';
import { createNamespaceCommand, namespaceCheckArgs, namespaceVerdict } from './namespace.mjs';

const args = process.argv.slice(2);
const registry = args.includes('--registry') ? args[args.indexOf('--registry') + 1] : undefined;
const dryRun = args.includes('--dry-run') || !!process.env.CI || !process.env.OVSX_PAT;

execFileSync(process.execPath, [path.join(PKG_DIR, 'scripts', 'check-vsix.mjs')], { stdio: 'inherit' });

const ovsx = createRequire(path.join(PKG_DIR, 'package.json')).resolve('ovsx/bin/ovsx');
const namespace = JSON.parse(fs.readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8')).publisher;
const check = namespaceCheckArgs(namespace, registry);
const commands = [...TARGETS, UNIVERSAL].map(target => {
    const file = path.join(OUT_DIR, vsixName(target));
    if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
        throw new Error(`${file} is missing or empty`);
    }
    const argv = ['publish', file];
    if (target !== UNIVERSAL) {
        argv.push('--target', target);
    }
    if (registry) {
        argv.push('--registryUrl', registry);
    }
    return argv;
});

if (dryRun) {
    const why = args.includes('--dry-run') ? '--dry-run' : process.env.CI ? 'CI is set' : 'OVSX_PAT is not set';
    console.log(`\nDry run (${why}): every package checked; these would run (the token comes from OVSX_PAT):`);
    console.log(`  ovsx ${check.join(' ')}    (the namespace must exist; if not: ${createNamespaceCommand(namespace, registry)})`);
    for (const argv of commands) {
        console.log(`  ovsx ${argv.map(a => a.includes(' ') ? JSON.stringify(a) : a).join(' ')}`);
    }
    process.exit(0);
}
// The namespace first (namespace.mjs): Open VSX refuses a publish into a missing namespace; stop before any publish.
console.log(`ovsx ${check.join(' ')}`);
const verified = spawnSync(process.execPath, [ovsx, ...check], { encoding: 'utf8', env: process.env });
process.stdout.write(verified.stdout ?? '');
process.stderr.write(verified.stderr ?? '');
const verdict = namespaceVerdict(verified.status, `${verified.stdout ?? ''}\n${verified.stderr ?? ''}`);
if (verdict !== 'ok') {
    console.error(verdict === 'missing'
        ? `\nThe Open VSX namespace "${namespace}" does not exist. Nothing was published. Create it, then run this again:\n  ${createNamespaceCommand(namespace, registry)}`
        : `\nThe namespace check (ovsx ${check.join(' ')}) failed; nothing was published.`);
    process.exit(1);
}
for (const argv of commands) {
    console.log(`ovsx ${argv.join(' ')}`);
    execFileSync(process.execPath, [ovsx, ...argv], { stdio: 'inherit', env: process.env });
}
