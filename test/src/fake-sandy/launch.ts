/*
 * A plain launch, `--start`'s supervisor pass and the main argument parser.
 * The order of checks and messages follows the real script (CONTRACT §1.1,
 * §6.1 and fixtures 30-59): preflight -> build files -> workspace -> daemon
 * dispatch -> config + approval -> sanity checks -> agent -> images ->
 * daemon gate -> lock -> sandbox markers -> (traps) -> network -> late
 * validation -> credentials -> summary -> "docker run".
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { approvalSetHash, LoadedConfig, loadConfig, PASSIVE_KEYS, PRIVILEGED_KEYS, SECRET_KEYS } from './config';
import {
    ContainerRow, dockerMissing, findDaemonSession, listImages, newContainerId, recordImage, SessionRecord, sessionLive,
    shortSocketPath, writeSession
} from './docker';
import { attachClient, startClient, stopClient, stopDaemonQuietly } from './daemon';
import { detachHook, Runtime, runInteractive, serveDaemonSession } from './session';
import { FakeTui } from './tui';
import {
    SANDBOX_MIN_COMPAT, SANDY_VERSION, byteCompare, catFile, err, error, exists, exit, headLine, info, isBashInt, isDir, isFile,
    isTty, mkdirp, out, pidAlive, pwdLogical, pwdP, rawErr, rmrf, sandboxNameFor, sha256Hex, sleep, sortUnique,
    utcNowIso, warn, envNumber
} from './util';

export interface MainArgs {
    rebuild: boolean;
    buildOnly: boolean;
    newSession: boolean;
    remote: boolean;
    start: boolean;
    attach: boolean;
    stop: boolean;
    updateSessions: boolean;
    dryRun: boolean;
    yes: boolean;
    workspaceArg: string;
    idleFor: string;
    agentOverride: string;
    verbose: number;
    verboseExplicit: boolean;
    remaining: string[];
}

/** The main flag loop (sandy:3137-3194): unknown arguments are forwarded to the agent. */
export function parseMain(argv: string[]): MainArgs {
    const a: MainArgs = {
        rebuild: false, buildOnly: false, newSession: false, remote: false, start: false, attach: false, stop: false,
        updateSessions: false, dryRun: false, yes: false, workspaceArg: '', idleFor: '', agentOverride: '',
        verbose: 0, verboseExplicit: process.env.SANDY_VERBOSE !== undefined, remaining: []
    };
    const envVerbose = parseInt(process.env.SANDY_VERBOSE ?? '0', 10);
    a.verbose = Number.isFinite(envVerbose) ? envVerbose : 0;
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const next = argv[i + 1];
        const needsValue = (what: string): string => {
            if (next === undefined || next.startsWith('-')) {
                rawErr(`[sandy] ERROR: ${what}`);
                exit(1);
            }
            i++;
            return next;
        };
        switch (arg) {
            case '--rebuild': a.rebuild = true; break;
            case '--build-only': a.buildOnly = true; break;
            case '--new': a.newSession = true; break;
            case '--remote': a.remote = true; break;
            case '--start': a.start = true; break;
            case '--attach': a.attach = true; break;
            case '--stop': a.stop = true; break;
            case '--update-sessions': a.updateSessions = true; break;
            case '--dry-run': a.dryRun = true; break;
            case '--yes': a.yes = true; break;
            case '--workspace':
                a.workspaceArg = needsValue('--workspace requires a value (e.g. --workspace /path/to/project)');
                break;
            case '--idle-for': {
                const v = needsValue('--idle-for requires a value in minutes (e.g. --idle-for 30)');
                if (!/^[0-9]+$/.test(v) || parseInt(v, 10) === 0) {
                    rawErr(`[sandy] ERROR: --idle-for requires a positive integer number of minutes, got: ${v}`);
                    exit(1);
                }
                a.idleFor = v;
                break;
            }
            case '--upgrade':
                err('[fake-sandy] --upgrade is not supported by the fake sandy.\n');
                exit(2);
                break;
            case '--agent':
                a.agentOverride = needsValue('--agent requires a value (e.g. --agent claude,gemini)');
                break;
            case '-vvv': a.verbose = 3; a.verboseExplicit = true; break;
            case '-vv': a.verbose = 2; a.verboseExplicit = true; break;
            case '-v': a.verbose = 1; a.verboseExplicit = true; break;
            default:
                if (arg.startsWith('--workspace=')) {
                    a.workspaceArg = arg.slice('--workspace='.length);
                } else if (arg.startsWith('--agent=')) {
                    a.agentOverride = arg.slice('--agent='.length);
                } else if (arg.startsWith('--idle-for=')) {
                    const v = arg.slice('--idle-for='.length);
                    if (!/^[0-9]+$/.test(v) || parseInt(v, 10) === 0) {
                        rawErr(`[sandy] ERROR: --idle-for requires a positive integer number of minutes, got: ${v}`);
                        exit(1);
                    }
                    a.idleFor = v;
                } else {
                    a.remaining.push(arg);
                }
        }
    }
    return a;
}

export function isHeadless(remaining: string[]): boolean {
    return remaining.some(r => r === '-p' || r === '--print' || r === '--prompt');
}

/** Docker preflight (sandy:3216-3239). */
export function dockerPreflight(): void {
    const missing = dockerMissing();
    if (missing === 'not-installed') {
        error('Docker is not installed or not in PATH.');
        exit(1);
    }
    if (missing === 'not-running') {
        error('Docker is installed but the daemon isn\'t responding.');
        error('  Start Docker (Docker Desktop, or \'sudo systemctl start docker\') and retry.');
        exit(1);
    }
}

function homeWritableCheck(sandyHome: string): void {
    const probe = path.join(sandyHome, '.sandy-write-test');
    try {
        fs.writeFileSync(probe, '');
        rmrf(probe);
    } catch {
        error(`SANDY_HOME (${sandyHome}) is not writable (or could not be created).`);
        error('  Sandy must write sandbox state and build files there. Fix with:');
        error(`    chmod u+rwx "${sandyHome}"   \u2014 or set SANDY_HOME to a writable path.`);
        exit(1);
    }
}

/**
 * ensure_build_files: sandy (re)writes its Dockerfiles etc. into SANDY_HOME
 * and says so once. The fake writes one marker file with the same effect on
 * the output.
 */
function ensureBuildFiles(sandyHome: string): void {
    const marker = path.join(sandyHome, '.fake-sandy-build-files');
    // A home populated by the real sandy (Dockerfile + entrypoint.sh present,
    // e.g. recreated from a fixture's home-tree.txt) counts as up to date too.
    const present = catFile(marker) === SANDY_VERSION ||
        (isFile(path.join(sandyHome, 'Dockerfile')) && isFile(path.join(sandyHome, 'entrypoint.sh')));
    if (!present) {
        fs.writeFileSync(marker, SANDY_VERSION + '\n');
        info('Build files updated.');
    }
}

export function resolveWorkDir(workspaceArg: string): { workDir: string; logical: string } {
    if (workspaceArg) {
        if (!isDir(workspaceArg)) {
            error(`--workspace path does not exist or is not a directory: ${workspaceArg}`);
            exit(1);
        }
        return { workDir: pwdP(workspaceArg) as string, logical: path.resolve(pwdLogical(), workspaceArg) };
    }
    return { workDir: pwdP(process.cwd()) ?? process.cwd(), logical: pwdLogical() };
}

const YES = /^(y|Y|yes|YES|Yes)$/;

/** Where sandy records the approved set of a workspace's privileged keys. */
export function privilegedApprovalFile(workDir: string, sandyHome: string): string {
    return `${sandyHome}/approvals/passive-${sha256Hex(workDir).slice(0, 16)}.list`;
}

/** Whether the set the workspace asks for now is the set on record. */
export function privilegedApproved(cfg: LoadedConfig, workDir: string, sandyHome: string): boolean {
    const approvalFile = privilegedApprovalFile(workDir, sandyHome);
    return isFile(approvalFile) && headLine(approvalFile) === approvalSetHash(cfg.pending);
}

/** `_resolve_passive_privileged_approval` (sandy:6015-6127). */
async function resolveApproval(rt: Runtime, cfg: LoadedConfig, workDir: string, sandyHome: string, headless: boolean): Promise<void> {
    if (cfg.pending.length === 0) {
        return;
    }
    const sorted = sortUnique(cfg.pending);
    const setHash = approvalSetHash(cfg.pending);
    const approvalsDir = `${sandyHome}/approvals`;
    const approvalFile = privilegedApprovalFile(workDir, sandyHome);
    mkdirp(approvalsDir);
    const apply = (): void => {
        for (const kv of sorted) {
            const i = kv.indexOf('=');
            cfg.values.set(kv.slice(0, i), kv.slice(i + 1));
        }
    };
    if ((process.env.SANDY_AUTO_APPROVE_PRIVILEGED || '0') === '1') {
        apply();
        return;
    }
    if (privilegedApproved(cfg, workDir, sandyHome)) {
        apply();
        return;
    }
    const src = sortUnique(cfg.pendingSources)[0];
    const lines = [
        '[sandy]',
        `[sandy] Workspace config (${src}) wants to set privileged keys:`,
        ...sorted.map(kv => `[sandy]   ${kv.slice(0, kv.indexOf('='))}`),
        '[sandy]',
        '[sandy] These affect security boundaries (SSH agent forwarding, permission',
        '[sandy] prompts, LAN allowlist, credentials). Sandy refuses to honor them',
        '[sandy] from workspace config by default because a committed .sandy/config',
        '[sandy] from a cloned repo could exploit them to escape isolation or',
        '[sandy] exfiltrate credentials.',
        '[sandy]',
        '[sandy] If this is your own workspace and you trust this config, you can',
        `[sandy] approve it once for ${workDir}.`,
        '[sandy] The approval is tied to the exact set above \u2014 any edit re-prompts.',
        '[sandy]'
    ];
    err(lines.join('\n') + '\n');
    if (headless || !isTty(0)) {
        err('[sandy] Non-interactive session \u2014 dropping these keys.\n' +
            '[sandy] Launch sandy interactively once from this directory to approve.\n[sandy]\n');
        return;
    }
    err('[sandy] Approve these keys for this workspace? [y/N] ');
    const ans = await rt.read('tty');
    if (YES.test(ans)) {
        const body = [setHash, `# workspace: ${workDir}`, `# approved:  ${utcNowIso()}`,
            ...sorted.map(kv => kv.slice(0, kv.indexOf('=')))].join('\n') + '\n';
        fs.writeFileSync(approvalFile, body);
        fs.chmodSync(approvalFile, 0o600);
        apply();
        err('[sandy] Approved. Future launches from this directory will proceed silently\n' +
            `[sandy] unless you edit the set. Revoke via: rm ${approvalFile}\n`);
    } else {
        err('[sandy] Not approved \u2014 dropping these keys for this launch.\n' +
            `[sandy] (Edit ${src} and relaunch to re-prompt.)\n`);
    }
}

/** `_load_sandy_extra_env`: the forwarded names, and whether each has a value anywhere. */
function extraEnv(cfg: LoadedConfig, sandyHome: string, workDir: string): Array<{ name: string; value?: string }> {
    const raw = cfg.values.get('SANDY_EXTRA_ENV');
    if (!raw) {
        return [];
    }
    const res: Array<{ name: string; value?: string }> = [];
    for (const part of raw.split(',')) {
        const name = part.trim();
        if (!name) {
            continue;
        }
        if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) {
            warn(`SANDY_EXTRA_ENV: skipping invalid env-var name '${name}'`);
            continue;
        }
        if (PRIVILEGED_KEYS.includes(name) || PASSIVE_KEYS.includes(name)) {
            warn(`SANDY_EXTRA_ENV: '${name}' is already a sandy-recognized key \u2014 drop it from SANDY_EXTRA_ENV`);
            continue;
        }
        let value = process.env[name];
        if (value === undefined) {
            for (const f of [`${sandyHome}/config`, `${sandyHome}/.secrets`, `${workDir}/.sandy/config`, `${workDir}/.sandy/.secrets`]) {
                if (!isFile(f)) {
                    continue;
                }
                for (const line of fs.readFileSync(f).toString('utf8').split('\n')) {
                    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(line);
                    if (m && m[1].replace(/\r$/, '') === name) {
                        let v = m[2].replace(/\r$/, '');
                        v = v.replace(/^"/, '').replace(/"$/, '').replace(/^'/, '').replace(/'$/, '');
                        value = v;
                    }
                }
            }
        }
        res.push({ name, value });
    }
    return res;
}

/** `_ver_lt A B` on the numeric core (suffix after the first `-` ignored). */
function verLt(a: string, b: string): boolean {
    const pa = a.split('-')[0].split('.');
    const pb = b.split('-')[0].split('.');
    for (let i = 0; i < 3; i++) {
        const x = /^[0-9]+$/.test(pa[i] ?? '') ? parseInt(pa[i], 10) : 0;
        const y = /^[0-9]+$/.test(pb[i] ?? '') ? parseInt(pb[i], 10) : 0;
        if (x < y) {
            return true;
        }
        if (x > y) {
            return false;
        }
    }
    return false;
}

function compatClassify(ver: string): 'unknown' | 'invalid' | 'below-floor' | 'ok' {
    if (ver === '' || ver === 'unknown') {
        return 'unknown';
    }
    if (!/^[0-9]+\.[0-9]+\.[0-9]+([-.].*)?$/.test(ver)) {
        return 'invalid';
    }
    return verLt(ver, SANDBOX_MIN_COMPAT) ? 'below-floor' : 'ok';
}

const AGENT_IMAGES: Record<string, string> = {
    claude: 'sandy-claude-code', gemini: 'sandy-gemini-cli', codex: 'sandy-codex', opencode: 'sandy-opencode', grok: 'sandy-grok'
};
const AGENT_HASH_FILES: Record<string, string> = {
    claude: '.build_hash', gemini: '.build_hash_gemini', codex: '.build_hash_codex', opencode: '.build_hash_opencode', grok: '.build_hash_grok'
};
// sandy:9877-9881: anything but these three (claude, grok) is announced as "Claude Code"
const AGENT_LABELS: Record<string, string> = { gemini: 'Gemini CLI', codex: 'Codex CLI', opencode: 'OpenCode' };

function buildImage(sandyHome: string, hashFile: string, image: string, building: string, upToDate: string): void {
    const f = path.join(sandyHome, hashFile);
    if (exists(f)) {
        info(upToDate);
        return;
    }
    info(building);
    fs.writeFileSync(f, sha256Hex(`${image}:${Date.now()}`) + '\n');
    recordImage(sandyHome, image);
}

function writeWorkspaceJson(sandboxDir: string, name: string, workDir: string, logical: string): void {
    const file = path.join(sandboxDir, 'WORKSPACE.json');
    const now = utcNowIso();
    let firstSeen = '';
    let firstVersion = '';
    if (isFile(file)) {
        const text = fs.readFileSync(file, 'utf8');
        const grab = (key: string): string => {
            const line = text.split('\n').find(l => l.includes(`"${key}"`));
            return line === undefined ? '' : line.replace(new RegExp(`.*"${key}"[ \\t]*:[ \\t]*"`), '').replace(/".*/, '');
        };
        firstSeen = grab('first_seen_at');
        firstVersion = grab('sandy_version_first');
    }
    const esc = (s: string): string => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')
        .replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t') + '"';
    let j = '{\n  "schema_version": 1,\n';
    j += `  "sandbox_name": ${esc(name)},\n`;
    j += `  "workspace_path": ${esc(workDir)}`;
    if (logical && logical !== workDir) {
        j += `,\n  "workspace_path_uncanonicalized": ${esc(logical)}`;
    }
    j += `,\n  "first_seen_at": ${esc(firstSeen || now)},\n`;
    j += `  "last_seen_at": ${esc(now)},\n`;
    j += `  "sandy_version_first": ${esc(firstVersion || SANDY_VERSION)},\n`;
    j += `  "sandy_version_last": ${esc(SANDY_VERSION)}\n}\n`;
    fs.writeFileSync(file, j);
}

/** Every regular file under DIR, recursively, as paths (for `find DIR -type f`). */
function findFiles(dir: string): string[] {
    const res: string[] = [];
    const walk = (d: string): void => {
        let names: string[] = [];
        try {
            names = fs.readdirSync(d);
        } catch {
            return;
        }
        for (const n of names) {
            const p = path.join(d, n);
            let st: fs.Stats;
            try {
                st = fs.lstatSync(p);
            } catch {
                continue;
            }
            if (st.isDirectory()) {
                walk(p);
            } else if (st.isFile()) {
                res.push(p);
            }
        }
    };
    walk(dir);
    return res.sort(byteCompare);
}

/**
 * `_sandy_context_hash` (sandy:7966-7975): sha256 over "<sha256 of file>  <path
 * relative to .sandy/>\n" for every file of the build context except any
 * `config`/`.secrets`, in C-locale path order.
 */
function contextHash(ctx: string): string {
    let acc = '';
    for (const f of findFiles(ctx)) {
        const b = path.basename(f);
        if (b === 'config' || b === '.secrets') {
            continue;
        }
        acc += `${sha256Hex(fs.readFileSync(f))}  ${path.relative(ctx, f)}\n`;
    }
    return sha256Hex(acc);
}

/** GNU `readlink -f`: all components resolved, only the last may be missing; '' when it cannot. */
function readlinkF(link: string): string {
    try {
        return fs.realpathSync(link);
    } catch {
        try {
            const abs = path.resolve(path.dirname(link), fs.readlinkSync(link));
            return path.join(fs.realpathSync(path.dirname(abs)), path.basename(abs));
        } catch {
            return '';
        }
    }
}

/**
 * Symlinks that escape the workspace (sandy:9089-9202): `find -maxdepth 8 -type l` outside
 * node_modules/.venv*\/.git, target (`readlink -f`) not under the real workspace by string prefix but
 * under $HOME/. First time: warn, `Proceed anyway? [y/N]` on stdout read from stdin (non-TTY: exit 1);
 * the approved set goes to `<sandbox>/.sandy-approved-symlinks.list`; a NEW entry later exits 1.
 */
export function escapingSymlinks(workDir: string): string[] {
    const realWorkDir = pwdP(workDir) ?? workDir;
    const home = process.env.HOME ?? '';
    const found: string[] = [];
    const walk = (dir: string, depth: number): void => {
        let entries: fs.Dirent[];
        try {
            entries = fs.readdirSync(dir, { withFileTypes: true });
        } catch {
            return;
        }
        for (const e of entries) {
            const full = `${dir}/${e.name}`;
            if (e.isSymbolicLink()) {
                if (full.includes('/node_modules/') || /\/\.venv.*\//.test(full) || full.includes('/.git/')) {
                    continue;
                }
                const target = readlinkF(full);
                if (target && !target.startsWith(realWorkDir) && target.startsWith(`${home}/`)) {
                    found.push(`${full.slice(workDir.length + 1)} -> ${target}`);
                }
            } else if (e.isDirectory() && depth < 8) {
                walk(full, depth + 1);
            }
        }
    };
    walk(workDir, 1);
    return sortUnique(found);
}

async function symlinkGate(rt: Runtime, workDir: string, sandboxDir: string): Promise<void> {
    const current = escapingSymlinks(workDir);
    if (!current.length) {
        return;
    }
    const approvedList = path.join(sandboxDir, '.sandy-approved-symlinks.list');
    if (isFile(approvedList)) {
        const approved = new Set((catFile(approvedList) ?? '').split('\n').filter(Boolean));
        const added = current.filter(c => !approved.has(c));
        if (added.length) {
            error('Symlink escape detected that wasn\'t present at previous approval:');
            for (const a of added) {
                error(`  ${a}`);
            }
            error('');
            error('This would expose files outside the workspace to sandy.');
            error('If this is legitimate, delete the symlink, relaunch sandy, re-create it,');
            error('and re-approve from the symlink warning — or clear the approval list:');
            error(`  rm '${approvedList}'`);
            exit(1);
        }
        fs.writeFileSync(approvedList, current.join('\n') + '\n');
        return;
    }
    warn('Symlinks that point outside the workspace:');
    for (const c of current) {
        warn(`  ${c}`);
    }
    out('\x1b[0;33m[sandy] These could allow Claude to access files outside the sandbox.\x1b[0m\n');
    if (!isTty(0)) {
        error('Dangerous symlinks need interactive approval, but stdin is not a terminal.');
        error('Approve them once by launching sandy interactively in this workspace:');
        error(`  cd '${workDir}' && sandy      # answer y at the prompt, then exit`);
        error(`then retry (e.g. 'sandy --start'). Or clear the list: rm '${approvedList}'`);
        if (process.env.SANDY_DAEMON_LOG) {
            fs.writeFileSync(`${process.env.SANDY_DAEMON_LOG}.fatal`, '');
        }
        exit(1);
    }
    out('\x1b[0;33m[sandy] Proceed anyway? [y/N] \x1b[0m');
    if (!/^[Yy]$/.test(await rt.read('stdin'))) {
        error('Aborting. Remove dangerous symlinks and try again.');
        exit(1);
    }
    fs.writeFileSync(approvedList, current.join('\n') + '\n');
    info(`  Persisted ${current.length} approved symlink(s) to ${path.basename(approvedList)}`);
}

function dockerfileApprovalFile(workDir: string, sandyHome: string): string {
    return `${sandyHome}/approvals/dockerfile-${sha256Hex(workDir).slice(0, 16)}.list`;
}

/** Whether the project's `.sandy/` build context is the one on record ('none' when no approval was ever recorded). */
export function dockerfileApproved(workDir: string, sandyHome: string): boolean | 'none' {
    const approvalFile = dockerfileApprovalFile(workDir, sandyHome);
    if (!isFile(approvalFile)) {
        return 'none';
    }
    return headLine(approvalFile) === contextHash(path.join(workDir, '.sandy'));
}

/**
 * The per-project `.sandy/Dockerfile` gate (`_sandy_project_dockerfile_approved`,
 * sandy:7988-8048) and the project image build. Returns the project image name
 * when the Dockerfile is used, undefined when there is none or it was refused.
 */
async function projectDockerfile(rt: Runtime, workDir: string, sandyHome: string, sandboxDir: string, name: string, baseImage: string,
    headless: boolean): Promise<string | undefined> {
    const dockerfile = path.join(workDir, '.sandy', 'Dockerfile');
    if (!isFile(dockerfile)) {
        return undefined;
    }
    const ctx = path.dirname(dockerfile);
    const dfHash = contextHash(ctx);
    const approvalFile = dockerfileApprovalFile(workDir, sandyHome);
    mkdirp(`${sandyHome}/approvals`);
    const approved = (process.env.SANDY_AUTO_APPROVE_PRIVILEGED || '0') === '1' || dockerfileApproved(workDir, sandyHome) === true;
    if (!approved) {
        const text = fs.readFileSync(dockerfile).toString('utf8');
        const all = text.split('\n');
        const complete = all.slice(0, -1);
        const lines = [
            '[sandy]',
            `[sandy] This project ships a .sandy/Dockerfile:  ${dockerfile}`,
            '[sandy] Building it runs its RUN commands on your HOST docker daemon with',
            '[sandy] UNFILTERED network (build-time is NOT behind the egress proxy), and the',
            '[sandy] whole .sandy/ dir is the build context. A committed or agent-written',
            '[sandy] Dockerfile could run host code or exfiltrate here. Review it:',
            '[sandy]',
            // `sed -n 1,200p | while read` drops an unterminated last line; control chars are stripped
            ...complete.slice(0, 200).map(l => `[sandy]   | ${l.replace(/[\x00-\x1f\x7f]/g, '')}`)
        ];
        if (complete.length > 200) {
            lines.push('[sandy]   | ... (truncated \u2014 review the full file)');
        }
        for (const f of findFiles(ctx)) {
            const b = path.basename(f);
            if (b !== 'Dockerfile' && b !== 'config' && b !== '.secrets') {
                lines.push(`[sandy]   + build-context file (contents not shown): ${path.relative(ctx, f)}`);
            }
        }
        lines.push('[sandy]');
        err(lines.join('\n') + '\n');
        if (headless || !isTty(0)) {
            err('[sandy] Non-interactive session \u2014 NOT building the project image; using the\n' +
                '[sandy] base agent image. Launch sandy interactively once from this directory\n' +
                '[sandy] to review and approve the .sandy/Dockerfile.\n[sandy]\n');
            return undefined;
        }
        err(`[sandy] Build this .sandy/Dockerfile for ${workDir}? [y/N] `);
        if (YES.test(await rt.read('tty'))) {
            fs.writeFileSync(approvalFile, `${dfHash}\n# workspace: ${workDir}\n# approved:  ${utcNowIso()}\n`);
            fs.chmodSync(approvalFile, 0o600);
            err('[sandy] Approved. Future launches build it silently until the Dockerfile\n' +
                `[sandy] changes. Revoke via: rm ${approvalFile}\n`);
        } else {
            err('[sandy] Not approved \u2014 using the base agent image for this launch.\n');
            return undefined;
        }
    }
    const projectImage = `sandy-project-${name}`.toLowerCase();
    const parentId = listImages(sandyHome)[baseImage]?.id ?? 'unknown';
    const projectHash = sha256Hex(`${dfHash}|${parentId}\n`);
    const hashFile = path.join(sandboxDir, '.project_build_hash');
    if (catFile(hashFile) !== projectHash) {
        info('Building project image from .sandy/Dockerfile...');
        fs.writeFileSync(hashFile, projectHash + '\n');
    } else {
        info('Project image up to date.');
    }
    return projectImage;
}

/**
 * Acquire `$SANDY_HOME/sandboxes/.<name>.lock` exactly like sandy:7159-7201,
 * including the stale-lock takeover by atomic rename.
 */
function acquireLock(rt: Runtime, sandyHome: string, name: string, workDir: string): void {
    const sbRoot = path.join(sandyHome, 'sandboxes');
    mkdirp(sbRoot);
    const lock = path.join(sbRoot, `.${name}.lock`);
    const tryMkdir = (): boolean => {
        try {
            fs.mkdirSync(lock);
            return true;
        } catch {
            return false;
        }
    };
    if (!tryMkdir()) {
        const holder = catFile(path.join(lock, 'pid')) ?? '';
        if (holder !== '' && isBashInt(holder) && !pidAlive(holder)) {
            info(`Stale lock detected (pid ${holder} not running) \u2014 clearing.`);
            const reap = `${lock}.reap.${process.pid}`;
            let moved = false;
            try {
                fs.renameSync(lock, reap);
                moved = true;
            } catch {
                moved = false;
            }
            if (!moved || (rmrf(reap), !tryMkdir())) {
                const h = catFile(path.join(lock, 'pid')) ?? 'unknown';
                error(`Another sandy concurrently acquired the lock (pid ${h})`);
                error(`  Workspace: ${workDir}`);
                exit(1);
            }
        } else {
            error(`Another sandy is already running in this workspace (pid ${holder || 'unknown'})`);
            error(`  Workspace: ${workDir}`);
            error('  If that process is dead, remove the stale lock:');
            error(`    rm -rf '${lock}'`);
            exit(1);
        }
    }
    fs.writeFileSync(path.join(lock, 'pid'), `${process.pid}\n`);
    rt.lockDir = lock;
    rt.installTraps();
}

/**
 * Everything from "Docker preflight" to the foreground `docker run`.
 * Returns normally once the session runtime has been started (it then lives on
 * the event loop); every refusal is an ExitError.
 */
export async function runLaunch(a: MainArgs, rt: Runtime, sandyHome: string, selfPath: string): Promise<void> {
    const supervisor = rt.supervisor;
    const headless = isHeadless(a.remaining);
    dockerPreflight();
    homeWritableCheck(sandyHome);
    ensureBuildFiles(sandyHome);
    const { workDir, logical } = resolveWorkDir(a.workspaceArg);

    if (a.start && !supervisor) {
        startClient(a, workDir, sandyHome, selfPath, headless);
        return;
    }
    if (a.attach) {
        attachClient(workDir, sandyHome, a.verbose);
        return;
    }
    if (a.stop) {
        stopClient(workDir, sandyHome);
        return;
    }
    if (a.updateSessions) {
        err('[fake-sandy] --update-sessions is not supported by the fake sandy.\n');
        exit(2);
    }

    // bash ignores SIGQUIT while no trap is set for it (the cleanup trap, armed later, takes it).
    rt.installTraps(['SIGQUIT']);
    // Test knob: hold the launch before it reads the config files (as a slow start would), so a test
    // can change them between pre-flight and sandy's read.
    const readHold = envNumber('FAKE_SANDY_CONFIG_DELAY_MS', 0);
    if (readHold > 0) {
        await sleep(readHold);
    }
    const cfg = loadConfig(sandyHome, workDir, a.verboseExplicit);
    await resolveApproval(rt, cfg, workDir, sandyHome, headless);
    const extra = extraEnv(cfg, sandyHome, workDir);
    if (process.env.SANDY_APPROVE_ONLY === '1') {
        exit(0);
    }
    const v = (k: string): string => cfg.values.get(k) ?? '';

    // --- launch-time value checks (CONTRACT §3.4), first failure is fatal ---
    if (v('SANDY_ALLOW_LAN_HOSTS')) {
        for (const h0 of v('SANDY_ALLOW_LAN_HOSTS').split(',')) {
            const h = h0.replace(/\s/g, '');
            if (h === '0.0.0.0/0' || h === '::/0') {
                rawErr(`[sandy] ERROR: SANDY_ALLOW_LAN_HOSTS contains a world-open entry: ${h}`);
                rawErr('[sandy]   This would negate sandy\'s LAN isolation. Refusing to start.');
                exit(1);
            }
        }
    }
    const llm = v('SANDY_LOCAL_LLM_HOST');
    if (llm) {
        if (!/^[A-Za-z0-9._-]+:[0-9]+$/.test(llm)) {
            rawErr(`[sandy] ERROR: SANDY_LOCAL_LLM_HOST='${llm}' is not in host:port format (allowed: letters, digits, . _ - then :port)`);
            exit(1);
        }
        const host = llm.slice(0, llm.lastIndexOf(':'));
        const port = parseInt(llm.slice(llm.lastIndexOf(':') + 1), 10);
        if (host === '0.0.0.0' || host === '::' || host === '') {
            rawErr(`[sandy] ERROR: SANDY_LOCAL_LLM_HOST host portion is world-open or empty: '${host}'`);
            exit(1);
        }
        if (port < 1 || port > 65535) {
            rawErr(`[sandy] ERROR: SANDY_LOCAL_LLM_HOST port out of range: ${port}`);
            exit(1);
        }
    }
    if (v('SANDY_EGRESS_PROXY')) {
        switch (v('SANDY_EGRESS_PROXY')) {
            case '0': cfg.values.set('SANDY_EGRESS_NO_ISOLATION', '1'); break;
            case '1': break;
            case '2': cfg.values.set('SANDY_EGRESS_STRICT', '1'); break;
            default:
                rawErr(`[sandy] ERROR: SANDY_EGRESS_PROXY='${v('SANDY_EGRESS_PROXY')}' invalid (want 0, 1, or 2)`);
                exit(1);
        }
        warn('SANDY_EGRESS_PROXY is deprecated \u2014 use SANDY_EGRESS_NO_ISOLATION=1 (off) or SANDY_EGRESS_STRICT=1 (strict).');
    }
    for (const k of ['SANDY_EGRESS_NO_ISOLATION', 'SANDY_EGRESS_STRICT']) {
        const val = v(k) || '0';
        if (val !== '0' && val !== '1') {
            rawErr(`[sandy] ERROR: ${k}='${v(k)}' invalid (want 0 or 1)`);
            exit(1);
        }
    }
    if (v('SANDY_EGRESS_NO_ISOLATION') === '1' && v('SANDY_EGRESS_STRICT') === '1') {
        rawErr('[sandy] ERROR: SANDY_EGRESS_NO_ISOLATION and SANDY_EGRESS_STRICT are mutually exclusive.');
        exit(1);
    }
    const proxyOn = v('SANDY_EGRESS_NO_ISOLATION') !== '1';
    const proxyMode = v('SANDY_EGRESS_STRICT') === '1' ? 'strict' : 'permissive';

    // --- agent resolution (sandy:6368-6420) ---
    let agent = a.agentOverride || v('SANDY_AGENT') || 'claude';
    if (agent === 'all') {
        agent = 'claude,gemini,codex,opencode';
    } else if (agent === 'both') {
        error('SANDY_AGENT=both is no longer supported.');
        error('  Use SANDY_AGENT=claude,gemini (or any comma-separated combo) instead.');
        exit(1);
    }
    const agents = agent.split(',');
    if (agent.endsWith(',')) {
        agents.pop();
    }
    for (const ag of agents) {
        if (!Object.prototype.hasOwnProperty.call(AGENT_IMAGES, ag)) {
            rawErr(`[sandy] ERROR: Invalid agent '${ag}' in SANDY_AGENT='${agent}' (valid: claude, gemini, codex, opencode, grok, or comma-separated combo)`);
            exit(1);
        }
    }
    if (agents.length >= 2) {
        const seen = new Set<string>();
        for (const ag of agents) {
            if (seen.has(ag)) {
                rawErr(`[sandy] ERROR: Duplicate agent '${ag}' in SANDY_AGENT='${agent}'`);
                exit(1);
            }
            seen.add(ag);
        }
    }
    if (agents.length > 4) {
        rawErr(`[sandy] ERROR: at most 4 agents per session (the multi-agent layout is a 2x2 grid); got ${agents.length} in SANDY_AGENT='${agent}'`);
        exit(1);
    }
    const multi = agents.length > 1;
    const image = multi ? 'sandy-full' : AGENT_IMAGES[agents[0]];
    const hashFile = multi ? '.build_hash_full' : AGENT_HASH_FILES[agents[0]];
    const hasClaude = agents.includes('claude');

    // --- images ---
    if (a.rebuild) {
        for (const f of ['.base_build_hash', '.build_hash', '.build_hash_gemini', '.build_hash_codex', '.build_hash_opencode',
            '.build_hash_grok', '.build_hash_full', '.build_hash_proxy', '.skills_build_hash']) {
            rmrf(path.join(sandyHome, f));
        }
        info('Build cache cleared. Images will be rebuilt.');
    }
    buildImage(sandyHome, '.base_build_hash', 'sandy-base',
        'Building base image (language runtimes) \u2014 this may take several minutes on first run...', 'Base image up to date.');
    if (proxyOn) {
        buildImage(sandyHome, '.build_hash_proxy', 'sandy-proxy',
            `Building egress proxy image (sandy-proxy, ref=${process.env.SANDY_PROXY_REF || process.env.GITHUB_HEAD_REF || 'main'})...`,
            'Egress proxy image up to date.');
    }
    buildImage(sandyHome, hashFile, image, 'Building sandbox image (may take a few minutes)...', 'Sandbox image up to date.');
    if (a.buildOnly) {
        info('Build complete. Exiting (--build-only).');
        exit(0);
    }

    // --- a bare launch over a live daemon session is refused (DEC-B, fixture 95) ---
    if (!supervisor) {
        const existing = findDaemonSession(sandyHome, workDir);
        if (existing) {
            if (sessionLive(existing)) {
                error('A daemon session is already running for this workspace. Attach with \'sandy --attach\', or end it with \'sandy --stop\'.');
                exit(1);
            }
            warn('Found a daemon container with no live session for this workspace (agent exited) \u2014 reaping it before starting.');
            stopDaemonQuietly(existing, sandyHome);
        }
    }

    // --- lock, sandbox dir, markers ---
    const name = sandboxNameFor(workDir);
    const sandboxDir = `${sandyHome}/sandboxes/${name}`;
    acquireLock(rt, sandyHome, name, workDir);
    let isNew = false;
    if (!isDir(sandboxDir)) {
        info(`Creating new sandbox: ${sandboxDir}`);
        mkdirp(sandboxDir);
        isNew = true;
    }
    const createdFile = path.join(sandboxDir, '.sandy_created_version');
    if (isNew) {
        fs.writeFileSync(createdFile, SANDY_VERSION + '\n');
    } else {
        const ver = isFile(createdFile) ? (headLine(createdFile) ?? '').replace(/\s/g, '') : 'unknown';
        const cls = compatClassify(ver);
        if (cls === 'below-floor') {
            error(`Sandbox was created by sandy ${ver}, which is below the`);
            error(`  compatibility floor (sandy ${SANDBOX_MIN_COMPAT}). Its cached absolute`);
            error('  paths (venv, .pth files, editable installs) reference the old /workspace');
            error('  layout and would break silently. sandy refuses to launch against it.');
            error('  Recreate the sandbox (host-side, one-time):');
            error(`    rm -rf "${sandboxDir}" && sandy --rebuild`);
            exit(1);
        } else if (cls === 'unknown' || cls === 'invalid') {
            warn('Sandbox version is unknown (.sandy_created_version missing or unreadable).');
            warn(`  If it was created before sandy ${SANDBOX_MIN_COMPAT} (the /workspace \u2192`);
            warn('  /home/claude/<rel> mount change), cached paths may be broken. If you hit');
            warn(`  path issues, recreate:  rm -rf "${sandboxDir}" && sandy --rebuild`);
        }
    }
    fs.writeFileSync(path.join(sandboxDir, '.sandy_last_version'), SANDY_VERSION + '\n');
    writeWorkspaceJson(sandboxDir, name, workDir, logical);
    for (const d of ['claude', 'pip', 'uv', 'npm-global', 'go', 'cargo', 'handoff/inbox', 'handoff/outbox']) {
        mkdirp(path.join(sandboxDir, d));
    }
    const claudeJson = path.join(sandyHome, 'sandboxes', `${name}.claude.json`);
    if (!exists(claudeJson)) {
        fs.writeFileSync(claudeJson, '{}\n');
    }
    if (!isNew) {
        info(`Reusing sandbox: ${sandboxDir}`);
    }
    // Test knob: hold the launch before the Dockerfile and symlink gates (as a slow image build would),
    // so a test can change the files between pre-flight and sandy's prompts.
    const hold = envNumber('FAKE_SANDY_GATE_DELAY_MS', 0);
    if (hold > 0) {
        await sleep(hold);
    }
    const projectImage = await projectDockerfile(rt, workDir, sandyHome, sandboxDir, name, image, headless);

    // --- the full cleanup trap is armed here (sandy:8462) ---
    rt.armTraps();
    const snapshots = ['.session-created-stubs', '.protected-existed-at-launch'].concat(hasClaude ? ['.claude-perm-mode-at-launch'] : []);
    for (const s of snapshots) {
        const f = path.join(sandboxDir, s);
        // leftovers of a SIGKILLed session are replaced, as sandy:8487 does
        fs.writeFileSync(f, s === '.claude-perm-mode-at-launch' ? 'bypassPermissions\n' : '');
        rt.snapshotFiles.push(f);
    }
    fs.writeFileSync(path.join(sandboxDir, 'sandy-session.json'),
        '{\n' +
        '  "schema": 1,\n' +
        `  "sandy_version": "${SANDY_VERSION}",\n` +
        `  "egress_mode": "${proxyOn ? proxyMode : 'off'}",\n` +
        // written unescaped, as sandy does (D20)
        `  "workspace": "${workDir}",\n` +
        `  "host_uid": ${process.getuid ? process.getuid() : 0},\n` +
        `  "host_gid": ${process.getgid ? process.getgid() : 0},\n` +
        `  "launched_at": "${utcNowIso()}",\n` +
        `  "session_nonce": "${sha256Hex(String(Math.random())).slice(0, 32)}",\n` +
        `  "effort": "${v('SANDY_EFFORT')}",\n` +
        `  "permission_mode": "${v('SANDY_SKIP_PERMISSIONS') === 'false' ? 'default' : 'bypassPermissions'}"\n}\n`);

    // --- network ---
    if (proxyOn) {
        info(`Creating egress-proxy networks (mode=${proxyMode})...`);
        info(`Starting egress proxy sidecar (sandy-proxy-${name} @ 10.200.0.2)...`);
        fs.writeFileSync(path.join(sandboxDir, 'proxy.log'), '');
        fs.writeFileSync(path.join(sandboxDir, 'sandy-proxy.json'),
            JSON.stringify({ mode: proxyMode, allow_hosts: v('SANDY_ALLOW_HOSTS').split(',').filter(Boolean) }, null, 2) + '\n');
    } else {
        info('Creating isolated network...');
        info('Applying network isolation rules...');
        // The fake, like the capture machine, has no usable iptables (fixture 31).
        if (v('SANDY_ALLOW_NO_ISOLATION') === '1') {
            warn('WARNING: LAN isolation NOT active (SANDY_ALLOW_NO_ISOLATION=1).');
        } else {
            error('Cannot apply network isolation (iptables DOCKER-USER chain not accessible).');
            error('Refusing to start without LAN isolation. To override: SANDY_ALLOW_NO_ISOLATION=1');
            info('Cleaning up network isolation rules...');
            exit(1);
        }
    }

    await symlinkGate(rt, workDir, sandboxDir);

    // --- late validation: after lock and proxy setup (fixtures 54a, 54d) ---
    const model = hasClaude ? (v('SANDY_MODEL') || 'claude-opus-5') : v('SANDY_MODEL');
    if (model && !/^[a-zA-Z0-9._-]+$/.test(model)) {
        error(`Invalid SANDY_MODEL: ${model} (only alphanumeric, hyphens, dots, underscores allowed)`);
        exit(1);
    }
    if (hasClaude && v('SANDY_EFFORT') && !['low', 'medium', 'high', 'xhigh', 'max'].includes(v('SANDY_EFFORT'))) {
        error(`Invalid SANDY_EFFORT: ${v('SANDY_EFFORT')} (allowed: low, medium, high, xhigh, max)`);
        exit(1);
    }

    // --- credentials: secret values go to a 0600 --env-file under $TMPDIR (D19) ---
    const secrets: string[] = [];
    for (const k of SECRET_KEYS) {
        if (v(k)) {
            secrets.push(`${k}=${v(k)}`);
        }
    }
    for (const e of extra) {
        if (e.value !== undefined) {
            secrets.push(`${e.name}=${e.value}`);
        } else {
            warn(`SANDY_EXTRA_ENV: '${e.name}' has no value (set it in env or ~/.sandy/.secrets)`);
        }
    }
    if (secrets.length > 0) {
        const dir = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'tmp.'));
        fs.chmodSync(dir, 0o700);
        fs.writeFileSync(path.join(dir, 'env'), secrets.join('\n') + '\n', { mode: 0o600 });
        rt.secretDir = dir;
    }
    const ssh = v('SANDY_SSH') || 'token';
    if (ssh === 'agent') {
        const sock = process.env.SSH_AUTH_SOCK;
        let isSock = false;
        try {
            isSock = !!sock && fs.statSync(sock).isSocket();
        } catch {
            isSock = false;
        }
        if (!isSock) {
            warn('SANDY_SSH=agent but no SSH agent found (SSH_AUTH_SOCK not set)');
        }
    } else if (process.env.FAKE_SANDY_GH_TOKEN === '1') {
        info('Git auth: GitHub token via gh CLI (HTTPS)');
    } else {
        warn('No gh CLI token found. Git push/pull may not work.');
        warn('Install gh (https://cli.github.com) and run \'gh auth login\', or use SANDY_SSH=agent.');
    }
    if (process.env.FAKE_SANDY_GH_TOKEN === '1' && proxyOn && proxyMode === 'permissive') {
        info('Note: a GitHub token is reachable in-container under permissive egress;');
        info('      use SANDY_EGRESS_PROXY=2 (strict) for token-sensitive work.');
    }

    // --- summary ---
    if (multi) {
        info(`Launching ${agents.join(' + ')} sandbox (${agents.length}-pane)...`);
    } else {
        info(`Launching ${AGENT_LABELS[agents[0]] ?? 'Claude Code'} sandbox...`);
    }
    const memGb = envNumber('FAKE_SANDY_MEM_GB', 8);
    info(`  Working directory: ${workDir}`);
    info(`  Sandbox:           ${sandboxDir}`);
    info(`  Resources:         ${v('SANDY_CPUS') || process.env.FAKE_SANDY_NCPU || '4'} CPUs, ${v('SANDY_MEM') || `${memGb > 2 ? memGb - 1 : 2}g`} memory`);
    if (proxyOn) {
        info(proxyMode === 'strict'
            ? '  Network:           Egress proxy (strict): allowlist + SANDY_ALLOW_HOSTS only; LAN/host blocked'
            : '  Network:           Egress proxy (permissive): public internet allowed; LAN/host/metadata blocked');
    } else {
        info('  Network:           Public internet only (LAN blocked via iptables)');
    }
    out('\n');

    // --- "docker run" ---
    const now = Date.now();
    const id = newContainerId();
    const containers: ContainerRow[] = [{ id, name: `sandy-${name}`, image: projectImage ?? image, createdMs: now }];
    if (proxyOn) {
        containers.push({ id: newContainerId(), name: `sandy-proxy-${name}`, image: 'sandy-proxy', createdMs: now - 1 });
    }
    const rec: SessionRecord = {
        version: 1, id, sandbox: name, workspace: workDir, daemon: supervisor, ownerPid: process.pid,
        ready: !supervisor, attached: 0, updatedAt: null, containers
    };
    rt.sandyHome = sandyHome;
    rt.sessionId = id;
    const agentSeconds = process.env.FAKE_SANDY_AGENT_SECONDS ? envNumber('FAKE_SANDY_AGENT_SECONDS', 0) : undefined;
    const agentExit = envNumber('FAKE_SANDY_AGENT_EXIT_CODE', 0);

    if (headless && !supervisor) {
        writeSession(sandyHome, rec);
        const i = a.remaining.findIndex(r => r === '-p' || r === '--print' || r === '--prompt');
        const prompt = a.remaining[i + 1] ?? '';
        out((process.env.FAKE_SANDY_HEADLESS_OUTPUT ?? `FAKE-AGENT-ANSWER: ${prompt}`) + '\n');
        rt.finish(agentExit);
        return;
    }

    const tui = new FakeTui({
        version: SANDY_VERSION, workspace: workDir, sandbox: name, agent: agents.join(','),
        mode: supervisor ? 'daemon' : 'interactive', env: process.env,
        onExit: code => rt.agentExited(code),
        onDetach: supervisor ? () => detachHook.fn() : undefined
    }, {
        // A terminal's ONLCR already turns \n into \r\n; pipes get the \r\n verbatim.
        write: s => process.stdout.write(process.stdout.isTTY ? s.replace(/\r\n/g, '\n') : s),
        waitDrain: () => new Promise(r => process.stdout.once('drain', () => r()))
    });

    if (supervisor) {
        rec.socket = shortSocketPath(id);
        writeSession(sandyHome, rec);
        // `docker run -d` prints the full container id
        out(id + '\n');
        info(`Daemon supervisor running (pid ${process.pid}) \u2014 container detached, holding workspace lock.`);
        serveDaemonSession(rt, tui, rec.socket, () => {
            writeSession(sandyHome, { ...rec, ready: true });
        });
    } else {
        writeSession(sandyHome, rec);
        if (process.env.FAKE_SANDY_DEFER_TRAPS === '1') {
            rt.startDeferChild(agentSeconds, code => rt.agentExited(code || agentExit));
        }
        runInteractive(rt, tui);
    }
    if (agentSeconds !== undefined && process.env.FAKE_SANDY_DEFER_TRAPS !== '1') {
        setTimeout(() => rt.agentExited(agentExit), agentSeconds * 1000);
    }
}
