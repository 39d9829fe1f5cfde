/*
 * `--approvals [--workspace PATH]` — 2.7.1 mode only (FAKE_SANDY_VERSION=2.7.1; a 1.7.1 sandy has no such
 * flag and treats it as a launch).
 *
 * What is sandy's, from the flag's description in the real 2.7.1 `--print-schema`
 * (test/fixtures/sandy-2.7.1/print-schema.json): one JSON document on stdout; for each gate —
 * privileged workspace config keys, symlinks escaping the workspace, the `.sandy/Dockerfile` build — one
 * of approved / pending / changed / refused / not_applicable, judged as the launch path judges it
 * (workspace config and .secrets, minus keys the environment sets); key names only, never values;
 * read-only; no Docker; exit 0 when nothing is unresolved, 2 when a gate would be withheld or refused,
 * 1 when no report could be produced.
 *
 * What is the FAKE'S OWN INVENTION, because sandy's document layout is published nowhere this project
 * can read: the field names below (`gates.<gate>.decision`, `keys`, `links`). The IDE reads the verdict
 * from the exit status only and the gates tolerantly (core's approvals-report.ts), so it does not
 * depend on them.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadConfig } from './config';
import { dockerfileApproved, escapingSymlinks, privilegedApprovalFile, privilegedApproved, resolveWorkDir } from './launch';
import { catFile, exit, isDir, isFile, jsonEscape, out, sandboxNameFor } from './util';

type Decision = 'approved' | 'pending' | 'changed' | 'refused' | 'not_applicable';

export function approvalsReport(args: string[], sandyHome: string): never {
    let workspaceArg = '';
    for (let i = 0; i < args.length; i++) {
        if (args[i] === '--workspace' && i + 1 < args.length) {
            workspaceArg = args[++i];
        } else {
            out(JSON.stringify({ error: `unknown option ${args[i]}` }) + '\n');
            exit(1);
        }
    }
    const target = workspaceArg || process.cwd();
    if (!isDir(target)) {
        out(JSON.stringify({ error: `workspace not found: ${target}` }) + '\n');
        exit(1);
    }
    const { workDir } = resolveWorkDir(target);

    // Privileged keys from the workspace's files (the environment's keys are not asked about).
    const cfg = loadConfig(sandyHome, workDir, false);
    const keys = [...new Set(cfg.pending.map(kv => kv.slice(0, kv.indexOf('='))))].sort();
    const privileged: Decision = !keys.length ? 'not_applicable'
        : privilegedApproved(cfg, workDir, sandyHome) ? 'approved'
            : isFile(privilegedApprovalFile(workDir, sandyHome)) ? 'changed' : 'pending';

    // Escaping symlinks against the sandbox's approved list: a new one is refused (sandy exits), a first set pending.
    const links = escapingSymlinks(workDir);
    const approvedList = path.join(sandyHome, 'sandboxes', sandboxNameFor(workDir), '.sandy-approved-symlinks.list');
    let symlinks: Decision = 'not_applicable';
    if (links.length) {
        if (!isFile(approvedList)) {
            symlinks = 'pending';
        } else {
            const approved = new Set((catFile(approvedList) ?? '').split('\n').filter(Boolean));
            symlinks = links.every(l => approved.has(l)) ? 'approved' : 'refused';
        }
    }

    // The project Dockerfile: its build context against the recorded hash.
    let dockerfile: Decision = 'not_applicable';
    if (fs.existsSync(path.join(workDir, '.sandy', 'Dockerfile'))) {
        const recorded = dockerfileApproved(workDir, sandyHome);
        dockerfile = recorded === 'none' ? 'pending' : recorded ? 'approved' : 'changed';
    }

    const linkNames = links.map(l => l.slice(0, l.indexOf(' -> ')));
    const json = `{"schema_version":4,"workspace":${jsonEscape(workDir)},"gates":{`
        + `"privileged_keys":{"decision":"${privileged}","keys":[${keys.map(jsonEscape).join(',')}]},`
        + `"symlinks":{"decision":"${symlinks}","links":[${linkNames.map(jsonEscape).join(',')}]},`
        + `"dockerfile":{"decision":"${dockerfile}"}}}\n`;
    out(json);
    exit([privileged, symlinks, dockerfile].some(d => d === 'pending' || d === 'changed' || d === 'refused') ? 2 : 0);
}
