/*
 * Entry point of the fake sandy (test/fake-sandy/bin/sandy execs this).
 *
 * Dispatch order is the real script's (CONTRACT §1.1): SANDY_HOME check and
 * fixture files first, then FIRST-ARGUMENT-ONLY fast paths (--version,
 * introspection, maintenance, help), then the main parser and a launch.
 * `--print-state=light` or `--workspace X --print-state` are therefore NOT
 * introspection here either: they fall through to a launch (fixtures 82-84).
 */
import * as fs from 'fs';
import * as path from 'path';
import { runValidateConfig } from './config';
import { gc, pruneOrphans, stopAll } from './daemon';
import { parseMain, runLaunch } from './launch';
import { removeSandbox, resetSandbox } from './maintenance';
import { Runtime } from './session';
import { emitState } from './state';
import { approvalsReport } from './approvals';
import { ExitError, FAKE_SPEAKS_2X, SANDY_VERSION, SCHEMA_VERSION, err, exit, mkdirp, out, rawErr, readResource, sandyHome, schemaResource } from './util';

function emitSchema(): string {
    const schema = JSON.parse(schemaResource()) as {
        protected_paths: { dirs_always_mount: string[] };
    };
    // The only environment-dependent part of the schema (fixture 01b).
    if ((process.env.SANDY_ALLOW_WORKFLOW_EDIT || '0') === '1') {
        schema.protected_paths.dirs_always_mount = schema.protected_paths.dirs_always_mount.filter(d => d !== '.github/workflows');
    }
    return JSON.stringify(schema) + '\n';
}

function protectedPaths(): string {
    const schema = JSON.parse(schemaResource()) as {
        protected_paths: { files: string[]; git_files: string[]; dirs_always_mount: string[] };
    };
    const pp = schema.protected_paths;
    const dirs = pp.dirs_always_mount.filter(d => d !== '.github/workflows');
    if ((process.env.SANDY_ALLOW_WORKFLOW_EDIT || '0') !== '1') {
        dirs.push('.github/workflows');
    }
    return [...pp.files.map(f => `file:${f}`), ...pp.git_files.map(f => `gitfile:${f}`), ...dirs.map(d => `dir:${d}`)].join('\n') + '\n';
}

async function main(argv: string[], selfPath: string, rt: Runtime): Promise<void> {
    if (!process.env.SANDY_HOME && process.env.HOME === undefined) {
        // `set -u` + "${SANDY_HOME:-$HOME/.sandy}" with HOME unset (sandy:150)
        err('sandy: line 150: HOME: unbound variable\n');
        exit(1);
    }
    const home = sandyHome();
    if (/[;$`&|<>]/.test(home)) {
        rawErr('[sandy] ERROR: Invalid SANDY_HOME: contains shell metacharacters');
        exit(1);
    }
    // Every invocation creates these, introspection included (D12).
    try {
        mkdirp(home);
        if (!fs.existsSync(path.join(home, '.empty-ro-file'))) {
            fs.writeFileSync(path.join(home, '.empty-ro-file'), '');
        }
        mkdirp(path.join(home, '.empty-ro-dir'));
    } catch {
        // `2>/dev/null || true`: a read-only home must not break introspection
    }
    rt.sandyHome = home;
    const first = argv[0];
    switch (first) {
        case '-v':
        case '--version':
            out(`sandy ${SANDY_VERSION}\n`);
            exit(0);
            break;
        case '--print-protected-paths':
            out(protectedPaths());
            exit(0);
            break;
        case '--print-version':
            out(`{"schema_version":${SCHEMA_VERSION},"version":"${SANDY_VERSION}","commit":"","full_version":"${SANDY_VERSION}"}\n`);
            exit(0);
            break;
        case '--print-schema':
            out(emitSchema());
            exit(0);
            break;
        case '--print-state':
            out(emitState(argv[1], home));
            exit(0);
            break;
        case '--approvals':
            if (FAKE_SPEAKS_2X) {
                approvalsReport(argv.slice(1), home);
            }
            break;
        case '--validate-config':
            runValidateConfig(argv[1], home);
            break;
        case '--prune-orphans':
            pruneOrphans();
            break;
        case '--stop-all':
            stopAll(argv.slice(1), home);
            break;
        case '--gc':
            gc(argv.slice(1), home);
            break;
        case '--reset-sandbox':
            resetSandbox(argv.slice(1), home);
            break;
        case '--remove-sandbox':
            removeSandbox(argv.slice(1), home);
            break;
        case '-h':
        case '--help':
            out(readResource('help.txt'));
            exit(0);
            break;
        default:
            break;
    }
    const args = parseMain(argv);
    await runLaunch(args, rt, home, selfPath);
}

const runtime = new Runtime();
main(process.argv.slice(2), __filename, runtime).catch((e: unknown) => {
    if (e instanceof ExitError) {
        // The EXIT trap: release a lock we hold and undo session state.
        runtime.cleanupNow();
        process.exit(e.code);
    }
    err(`[fake-sandy] internal error: ${(e as Error).stack ?? e}\n`);
    runtime.cleanupNow();
    process.exit(70);
});
