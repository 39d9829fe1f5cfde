/*
 * --reset-sandbox and --remove-sandbox: filesystem-only maintenance commands
 * that need no Docker (sandy:2599-2989). Same selectors, plan format, refusal
 * messages and exit codes as the real script (fixtures 56, 59a, 60-69).
 */
import * as fs from 'fs';
import * as path from 'path';
import { listSessions, printStateDockerReachable } from './docker';
import { workspacePathOf } from './state';
import {
    byteCompare, catFile, duHuman, error, exists, exit, globDirs, info, isBashInt, isDir, isFile, isTty, out, pidAlive,
    pwdLogical, pwdP, readTtyLine, rmrf, sandboxNameFor, sha256Hex, statMtimeIso, warn, err
} from './util';

function confirm(question: string): boolean {
    err(question);
    return /^(y|Y|yes|YES|Yes)$/.test(readTtyLine());
}

function lockLive(sandyHome: string, name: string): string | undefined {
    const pidFile = path.join(sandyHome, 'sandboxes', `.${name}.lock`, 'pid');
    if (!isFile(pidFile)) {
        return undefined;
    }
    const pid = catFile(pidFile) ?? '';
    return pid !== '' && isBashInt(pid) && pidAlive(pid) ? pid : undefined;
}

/** `"$dir"/* "$dir"/.[!.]*` — visible entries first, then dot entries, each in byte order. */
function sandboxEntries(dir: string): string[] {
    let names: string[] = [];
    try {
        names = fs.readdirSync(dir);
    } catch {
        return [];
    }
    const visible = names.filter(n => !n.startsWith('.')).sort(byteCompare);
    const dot = names.filter(n => n.startsWith('.') && n.length > 1 && n[1] !== '.').sort(byteCompare);
    return [...visible, ...dot];
}

export function resetSandbox(args: string[], sandyHome: string): never {
    let workspace = '';
    let keepApprovals = false;
    let dryRun = false;
    let yes = false;
    for (let i = 0; i < args.length; i++) {
        const a = args[i];
        if (a === '--workspace') {
            workspace = args[++i] ?? '';
            if (!workspace) {
                error('--reset-sandbox: --workspace needs a PATH');
                exit(1);
            }
        } else if (a.startsWith('--workspace=')) {
            workspace = a.slice('--workspace='.length);
            if (!workspace) {
                error('--reset-sandbox: --workspace needs a PATH');
                exit(1);
            }
        } else if (a === '--keep-approvals') {
            keepApprovals = true;
        } else if (a === '--dry-run') {
            dryRun = true;
        } else if (a === '--yes') {
            yes = true;
        } else {
            error(`--reset-sandbox: unrecognized argument: ${a}`);
            exit(1);
        }
    }
    const wd0 = workspace || pwdLogical();
    if (!isDir(wd0)) {
        error(`--reset-sandbox: workspace not found: ${wd0}`);
        exit(1);
    }
    const wd = pwdP(wd0);
    if (!wd) {
        error('--reset-sandbox: cannot resolve workspace');
        exit(1);
    }
    const name = sandboxNameFor(wd as string);
    const dir = `${sandyHome}/sandboxes/${name}`;
    if (!isDir(dir)) {
        error(`--reset-sandbox: no sandbox for ${wd} (expected ${dir}).`);
        exit(1);
    }
    const live = lockLive(sandyHome, name);
    if (live) {
        error(`--reset-sandbox: a live sandy session (pid ${live}) holds this workspace.`);
        error('Stop it first (sandy --stop) or wait for it to exit.');
        exit(1);
    }
    const keep = (n: string): boolean => n === 'WORKSPACE.json' || n === '.handoff-enabled' ||
        (n === '.sandy-approved-symlinks.list' && keepApprovals);
    out(`\nsandy --reset-sandbox: ${name}\n`);
    out(`Workspace: ${wd}\n`);
    out('Will destroy (next launch re-materializes them):\n');
    const victims = sandboxEntries(dir).filter(n => !keep(n));
    for (const n of victims) {
        out(`  - ${n.padEnd(30)} ${duHuman(path.join(dir, n))}\n`);
    }
    out(`Preserved: WORKSPACE.json (lineage)${exists(path.join(dir, '.handoff-enabled')) ? ', .handoff-enabled (handoff enrollment)' : ''}` +
        `${keepApprovals ? ', approval list' : ''}\n\n`);
    if (victims.length === 0) {
        info('Sandbox already minimal \u2014 nothing to reset.');
        exit(0);
    }
    if (dryRun) {
        info('--dry-run: nothing removed.');
        exit(0);
    }
    if (!yes) {
        if (!isTty(0)) {
            error('Non-interactive; pass --yes to reset without a prompt.');
            exit(1);
        }
        if (!confirm(`[sandy] Reset this sandbox (${victims.length} item(s))? [y/N] `)) {
            info('Aborted \u2014 nothing removed.');
            exit(0);
        }
    }
    for (const n of victims) {
        rmrf(path.join(dir, n));
    }
    info(`Sandbox ${name} reset \u2014 next launch re-materializes it from scratch.`);
    exit(0);
}

export function removeSandbox(args: string[], sandyHome: string): never {
    let workspace = '';
    let sandbox = '';
    let orphans = false;
    let dryRun = false;
    let yes = false;
    let wsGiven = false;
    let sbGiven = false;
    for (let i = 0; i < args.length; i++) {
        const a = args[i];
        if (a === '--workspace' || a.startsWith('--workspace=')) {
            workspace = a === '--workspace' ? args[++i] ?? '' : a.slice('--workspace='.length);
            wsGiven = true;
            if (!workspace) {
                error('--remove-sandbox: --workspace needs a PATH');
                exit(1);
            }
        } else if (a === '--sandbox' || a.startsWith('--sandbox=')) {
            sandbox = a === '--sandbox' ? args[++i] ?? '' : a.slice('--sandbox='.length);
            sbGiven = true;
            if (!sandbox) {
                error('--remove-sandbox: --sandbox needs a NAME');
                exit(1);
            }
        } else if (a === '--orphans') {
            orphans = true;
        } else if (a === '--dry-run') {
            dryRun = true;
        } else if (a === '--yes') {
            yes = true;
        } else {
            error(`--remove-sandbox: unrecognized argument: ${a}`);
            exit(1);
        }
    }
    if ([wsGiven, sbGiven, orphans].filter(Boolean).length > 1) {
        error('--remove-sandbox: --workspace, --sandbox, and --orphans are mutually exclusive.');
        exit(1);
    }
    const homeSb = `${sandyHome}/sandboxes`;
    let records: Array<{ name: string; wp: string }> = [];
    if (orphans) {
        for (const n of globDirs(homeSb)) {
            // conservative: a legacy sandbox without a marker is never an orphan
            const wp = workspacePathOf(path.join(homeSb, n));
            if (wp !== '' && !exists(wp)) {
                records.push({ name: n, wp });
            }
        }
        if (records.length === 0) {
            info('No orphaned sandboxes found.');
            exit(0);
        }
    } else if (sbGiven) {
        if (sandbox.includes('/') || sandbox.startsWith('.') || sandbox.includes('..') || /[^A-Za-z0-9._-]/.test(sandbox)) {
            error(`--remove-sandbox: --sandbox: invalid name: ${sandbox}`);
            exit(1);
        }
        if (!isDir(path.join(homeSb, sandbox))) {
            error(`--remove-sandbox: no sandbox named ${sandbox} (expected ${homeSb}/${sandbox}).`);
            exit(1);
        }
        records = [{ name: sandbox, wp: workspacePathOf(path.join(homeSb, sandbox)) }];
    } else {
        const wd0 = workspace || pwdLogical();
        if (!isDir(wd0)) {
            error(`--remove-sandbox: workspace not found: ${wd0}`);
            error('If the workspace itself is gone, use --sandbox NAME or --orphans instead.');
            exit(1);
        }
        const wd = pwdP(wd0) as string;
        const name = sandboxNameFor(wd);
        if (!isDir(path.join(homeSb, name))) {
            error(`--remove-sandbox: no sandbox for ${wd} (expected ${homeSb}/${name}).`);
            exit(1);
        }
        records = [{ name, wp: wd }];
    }

    // Best-effort container guard: exact names only, skipped when docker is unreachable.
    const liveNames = new Set<string>();
    if (printStateDockerReachable()) {
        for (const s of listSessions(sandyHome)) {
            for (const c of s.containers) {
                liveNames.add(c.name);
            }
        }
    }
    const ok: typeof records = [];
    const skipped: typeof records = [];
    for (const r of records) {
        const live = lockLive(sandyHome, r.name) !== undefined || liveNames.has(`sandy-${r.name}`) || liveNames.has(`sandy-proxy-${r.name}`);
        if (!live) {
            ok.push(r);
        } else if (orphans) {
            warn(`--remove-sandbox: skipping ${r.name} \u2014 a live session or container holds it.`);
            skipped.push(r);
        } else {
            error(`--remove-sandbox: a live sandy session or container holds ${r.name}.`);
            error('Stop it first (sandy --stop) or wait for it to exit.');
            exit(1);
        }
    }
    if (ok.length === 0) {
        info('Nothing to remove (all candidates skipped).');
        exit(0);
    }
    out(`\nsandy --remove-sandbox: ${ok.length} target(s)\n`);
    for (const r of ok) {
        const dir = path.join(homeSb, r.name);
        const last = statMtimeIso(path.join(dir, '.sandy_last_version')) || statMtimeIso(path.join(dir, '.sandy_created_version'));
        out(`  - ${r.name.padEnd(30)} ${duHuman(dir).padEnd(8)} workspace: ${(r.wp || '(unknown)').padEnd(40)} last used: ${last || '(unknown)'}\n`);
        if (exists(path.join(dir, '.handoff-enabled'))) {
            out('    NOTE: this sandbox is handoff-enrolled (.handoff-enabled) \u2014 removal un-enrolls it from the fleet.\n');
        }
    }
    if (skipped.length > 0) {
        out('Skipped (live session/container):\n');
        for (const s of skipped) {
            out(`  - ${s.name}\n`);
        }
    }
    out('\n');
    if (dryRun) {
        info('--dry-run: nothing removed.');
        exit(0);
    }
    if (!yes) {
        if (!isTty(0)) {
            error('Non-interactive; pass --yes to remove without a prompt.');
            exit(1);
        }
        if (!confirm(`[sandy] Remove ${ok.length} sandbox(es)? This destroys ALL persistent state, including WORKSPACE.json. This cannot be undone. [y/N] `)) {
            info('Aborted \u2014 nothing removed.');
            exit(0);
        }
    }
    const realSb = pwdP(homeSb);
    for (const r of ok) {
        const dir = path.join(homeSb, r.name);
        const realDir = pwdP(dir);
        if (!realSb || !realDir || !realDir.startsWith(realSb + '/') || r.name.includes('/')) {
            error(`--remove-sandbox: refusing to remove outside sandboxes/: ${dir}`);
            exit(1);
        }
        rmrf(dir);
        rmrf(path.join(homeSb, `.${r.name}.lock`));
        if (r.wp) {
            const h16 = sha256Hex(r.wp).slice(0, 16);
            rmrf(`${sandyHome}/approvals/passive-${h16}.list`);
            rmrf(`${sandyHome}/approvals/dockerfile-${h16}.list`);
        }
    }
    info(`Removed ${ok.length} sandbox(es).`);
    exit(0);
}
