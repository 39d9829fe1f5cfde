/**
 * The Projects tree's model: one entry per sandbox sandy reports plus one per workspace the user added
 * that has no sandbox yet, each with a state (spec MVP pillar 1: fresh / current / stale / locked /
 * running). Pure: the caller passes the latest `--print-state`, its own project list and sessions.
 *
 * Entries are keyed on the sandbox name, never on `workspace_path`: sandy truncates that at the first
 * `"` of the real path (CONTRACT D2). A UI project is matched to its sandbox by computing the name sandy
 * gives it (`<sanitised basename>-<sha256(path)[0:8]>`, sandy:6468-6474), falling back to path equality.
 */
import {
    Approval, AgentInfo, containerSandboxName, isProxyContainer, isStaleLock, lockHolderPid, parseDockerCreatedAt,
    parseSandyLocalTimestamp, RunningContainer, Sandbox, SandyState
} from '../sandy/contract';
import { classifySandboxVersion, compareSandyVersions, stripCommitSuffix } from '../sandy/version';

/** sandy 1.7.1's `SANDY_SANDBOX_MIN_COMPAT`; prefer `--print-schema`.sandy.sandbox_min_compat when known. */
export const DEFAULT_SANDBOX_MIN_COMPAT = '0.7.10';

/** The state badge of a project. */
export type ProjectStateKind =
    /** Added in the UI, no sandbox yet: created on first launch. */
    | 'fresh'
    /** Sandbox last used by this sandy version. */
    | 'current'
    /** Sandbox last used by an older sandy, without version markers, or below sandy's compat floor. */
    | 'stale'
    /** The workspace lock is held by someone else — or by a dead process (then `staleLock` is true). */
    | 'locked'
    /** A container of this sandbox runs, or one of our sessions is live in this workspace. */
    | 'running';

/** A workspace the user added in sandy-ui (spec: projects.json), possibly without a sandbox yet. */
export interface UiProject {
    /** Canonical path (realpath / `pwd -P`): sandy hashes exactly this. */
    workspacePath: string;
    /** Display name override. */
    label?: string;
    /** Whether the folder exists, when the caller checked (sandy's own answer can be wrong, D2). */
    exists?: boolean;
}

/** What the UI remembers per project (sandy's `--print-state` does not report agent or model). */
export interface ProjectMetadata {
    lastAgent?: string;
    model?: string;
    lastLaunched?: Date;
}

/** The part of a PTY session (SessionInfo) that tells whether a project runs under us. */
export interface OwnedSessionLike {
    pid?: number;
    /** Canonical workspace path (sandy's cwd). */
    workspace: string;
    /** Sessions that are not `running`/`stopping` are ignored. */
    status?: string;
    agent?: string;
    /** How it runs and who started it (SessionInfo's); absent: a foreground session of this IDE. */
    mode?: 'daemon' | 'foreground';
    origin?: 'ide' | 'outside' | 'orphan';
    link?: 'starting' | 'attached' | 'detached' | 'elsewhere';
    startedAt?: number;
    /** Views showing it now (every window). */
    attachedViews?: number;
}

export interface DeriveProjectsInput {
    /** The latest `--print-state` (full or light); undefined before the first successful poll. */
    state?: SandyState;
    /** Workspaces the user added. */
    projects?: readonly UiProject[];
    /** The running sandy's version (`--print-version`.version or the full_version; the commit is ignored). */
    sandyVersion?: string;
    /** `--print-schema`.sandy.sandbox_min_compat. */
    sandboxMinCompat?: string;
    /** `--print-schema`.agents, to name the agent of a running container by its image. */
    agents?: readonly Pick<AgentInfo, 'name' | 'image'>[];
    /** The user's home directory, to abbreviate paths with `~`. */
    home?: string;
    /** Per-project metadata from the UI store, keyed by sandbox name or canonical workspace path. */
    metadata?: Readonly<Record<string, ProjectMetadata>>;
    /** Sessions this UI hosts. */
    sessions?: readonly OwnedSessionLike[];
    /** Sessions running longer than this many hours are marked `longRunning` (0 or absent: never). */
    longRunningHours?: number;
    /** The clock (tests). */
    now?: number;
}

/** A daemon session (`--start`) of this sandbox. */
export interface DaemonInfo {
    containerId: string;
    containerName: string;
    image: string;
    startedAt?: Date;
    /** tmux clients attached; undefined when sandy could not probe. */
    attachedClients?: number;
    /** The image was rebuilt since the container started (full mode only). */
    imageStale?: boolean;
    updatedAt?: string;
    /** The supervisor holds the workspace lock (sandy:8879-8885). */
    supervisorPid?: number;
    /** false when the supervisor died while the container still runs (fx 102a). */
    supervisorAlive?: boolean;
}

/** One entry of the Projects tree. */
export interface DerivedProject {
    /** Tree identity: equal to `name`. */
    key: string;
    /** The sandbox name — the existing sandbox's, or the one sandy will create for a fresh project. */
    name: string;
    /** The existing sandbox's name; undefined for a fresh project. */
    sandboxName?: string;
    /** `$SANDY_HOME/sandboxes/<name>`; undefined for a fresh project. */
    sandboxPath?: string;
    /** Canonical workspace path; the UI's when known (sandy's can be truncated, D2); undefined for a legacy sandbox. */
    workspacePath?: string;
    /** The path with `~` for the home directory, or the sandbox name when no path is known. */
    displayPath: string;
    /** Label, else the workspace folder name, else the sandbox name. */
    displayName: string;
    state: ProjectStateKind;
    /** Lock held by a process that is provably dead (sandy clears it on the next launch, fx 51). */
    staleLock: boolean;
    lockHeld: boolean;
    lockHolderPid?: number;
    /** Running under one of our sessions. */
    ownedByUs: boolean;
    /** That session, as the tree and its tooltip describe it. */
    session?: Pick<OwnedSessionLike, 'mode' | 'origin' | 'link' | 'startedAt' | 'attachedViews' | 'pid'>;
    /** That session runs longer than the user's `sandy.longRunningHours`. */
    longRunning?: boolean;
    /** The workspace was added in the UI. */
    inProjectList: boolean;
    lastAgent?: string;
    model?: string;
    lastLaunched?: Date;
    createdVersion?: string;
    lastUsedVersion?: string;
    /** Full `--print-state` only. */
    sizeBytes?: number;
    /** A passive-key approval file exists for this workspace. */
    approved: boolean;
    approval?: Approval;
    /** Created by a sandy below the compat floor: sandy refuses to launch it (exit 1, fx 57). */
    belowMinCompat: boolean;
    workspaceExists?: boolean;
    /**
     * false when sandy's `workspace_path` cannot be the real one (its folder name does not give the sandbox
     * name — the `"` truncation of D2), so `workspaceExists` may be a false `false`.
     */
    workspacePathReliable: boolean;
    handoffEnabled: boolean;
    daemon?: DaemonInfo;
    /** Every running container of this sandbox (agent and proxy sidecar). */
    containers: RunningContainer[];
}

// ----------------------------------------------------------------------------------------------
// Sandbox naming (sandy:6468-6474)

const SHA256_K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
];

/** UTF-8 as Node's `crypto` and the file system encode it: a lone surrogate becomes U+FFFD. */
function utf8Bytes(text: string): number[] {
    return Array.from(new TextEncoder().encode(text));
}

/**
 * SHA-256 of the UTF-8 bytes of `text`, as lowercase hex. Synchronous and dependency-free because
 * src/common has no node `crypto` and WebCrypto is async; inputs are short paths.
 */
export function sha256Hex(text: string): string {
    const bytes = utf8Bytes(text);
    const bitLength = bytes.length * 8;
    bytes.push(0x80);
    while (bytes.length % 64 !== 56) {
        bytes.push(0);
    }
    // Length as a 64-bit big-endian integer; paths never exceed 2^32 bits, but keep the high word right.
    const high = Math.floor(bitLength / 0x100000000);
    for (const word of [high, bitLength >>> 0]) {
        bytes.push((word >>> 24) & 0xff, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff);
    }
    const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    const w = new Array<number>(64);
    const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
    for (let offset = 0; offset < bytes.length; offset += 64) {
        for (let i = 0; i < 16; i++) {
            const j = offset + i * 4;
            w[i] = ((bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3]) >>> 0;
        }
        for (let i = 16; i < 64; i++) {
            const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
            const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
            w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
        }
        let [a, b, c, d, e, f, g, hh] = h;
        for (let i = 0; i < 64; i++) {
            const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i]) >>> 0;
            const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
            hh = g;
            g = f;
            f = e;
            e = (d + t1) >>> 0;
            d = c;
            c = b;
            b = a;
            a = (t1 + t2) >>> 0;
        }
        const next = [a, b, c, d, e, f, g, hh];
        for (let i = 0; i < 8; i++) {
            h[i] = (h[i] + next[i]) >>> 0;
        }
    }
    return h.map(x => x.toString(16).padStart(8, '0')).join('');
}

function basename(path: string): string {
    const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
    return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** sandy's `tr -cd 'a-zA-Z0-9._-'` of the folder name, or `project` when nothing is left. */
function sanitizedBasename(workspacePath: string): string {
    return basename(workspacePath).replace(/[^a-zA-Z0-9._-]/g, '') || 'project';
}

/**
 * The sandbox name sandy gives a workspace: `<basename with all but [a-zA-Z0-9._-] deleted, or
 * "project">-<sha256(path)[0:8]>`. `workspacePath` must be canonical (`pwd -P`), as sandy hashes that.
 * The approval file uses the first 16 hex of the same hash (`approvals/passive-<h16>.list`).
 */
export function sandboxNameForWorkspace(workspacePath: string): string {
    return `${sanitizedBasename(workspacePath)}-${sha256Hex(workspacePath).slice(0, 8)}`;
}

/**
 * Whether sandy's recorded `workspace_path` is the folder this sandbox was named after (it hashes to the
 * name): what anything acting on that path (discovering a session's workspace, removing an orphan) requires.
 * A path sandy cut at a `"` (CONTRACT D2) fails it.
 */
export function recordedPathNamesSandbox(sandbox: { name: string; workspace_path?: string | null }): boolean {
    return !!sandbox.workspace_path && sandboxNameForWorkspace(sandbox.workspace_path) === sandbox.name;
}

/** The 8-hex suffix of a sandbox name (the join key to approvals), or undefined for a non-conforming name. */
export function sandboxHashSuffix(name: string): string | undefined {
    const m = /-([0-9a-f]{8})$/.exec(name);
    return m ? m[1] : undefined;
}

/** Abbreviates `home` at the start of `path` to `~` (`/home/u/src/x` → `~/src/x`). */
export function abbreviateHome(path: string, home: string | undefined): string {
    const h = home && home.length > 1 ? home.replace(/\/+$/, '') : undefined;
    if (!h) {
        return path;
    }
    if (path === h) {
        return '~';
    }
    return path.startsWith(`${h}/`) ? `~${path.slice(h.length)}` : path;
}

function normalizePath(path: string): string {
    return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

// ----------------------------------------------------------------------------------------------
// Derivation

/** sandy's agent images (sandy:1059-1089), used when the schema's `agents` list is not at hand. */
const DEFAULT_AGENT_IMAGES: ReadonlyArray<Pick<AgentInfo, 'name' | 'image'>> = [
    { name: 'claude', image: 'sandy-claude-code' },
    { name: 'gemini', image: 'sandy-gemini-cli' },
    { name: 'codex', image: 'sandy-codex' },
    { name: 'opencode', image: 'sandy-opencode' },
    { name: 'grok', image: 'sandy-grok' }
];

function agentOfImage(image: string, agents: ReadonlyArray<Pick<AgentInfo, 'name' | 'image'>>): string | undefined {
    const bare = image.replace(/:[^/:]*$/, '');
    return agents.find(a => a.image === bare)?.name;
}

function isLive(session: OwnedSessionLike): boolean {
    return session.status === undefined || session.status === 'running' || session.status === 'stopping';
}

function latest(...dates: Array<Date | undefined>): Date | undefined {
    return dates.reduce<Date | undefined>((best, d) => (d && (!best || d.getTime() > best.getTime()) ? d : best), undefined);
}

interface Pairing {
    sandbox?: Sandbox;
    project?: UiProject;
}

/** Pairs UI projects with sandboxes: by computed sandbox name first, then by recorded workspace path. */
function pair(sandboxes: readonly Sandbox[], projects: readonly UiProject[]): Pairing[] {
    const byName = new Map(sandboxes.map(s => [s.name, s]));
    const taken = new Set<string>();
    const projectFor = new Map<string, UiProject>();
    const unmatched: UiProject[] = [];
    const seenPaths = new Set<string>();
    for (const project of projects) {
        const path = normalizePath(project.workspacePath);
        if (seenPaths.has(path)) {
            continue;
        }
        seenPaths.add(path);
        const name = sandboxNameForWorkspace(path);
        if (byName.has(name) && !taken.has(name)) {
            taken.add(name);
            projectFor.set(name, project);
        } else {
            unmatched.push(project);
        }
    }
    const fresh: UiProject[] = [];
    for (const project of unmatched) {
        const path = normalizePath(project.workspacePath);
        const match = sandboxes.find(s => !taken.has(s.name) && s.workspace_path !== '' && normalizePath(s.workspace_path) === path);
        if (match) {
            taken.add(match.name);
            projectFor.set(match.name, project);
        } else {
            fresh.push(project);
        }
    }
    // A project without a sandbox yet sits where its sandbox will be listed (sandy lists them in its
    // locale's collation; Intl's stands in for it), so its first launch does not move its row from the
    // end of the list to that place under the user's pointer.
    const rows: Pairing[] = sandboxes.map(sandbox => ({ sandbox, project: projectFor.get(sandbox.name) }));
    const names = new Map(fresh.map(project => [project, sandboxNameForWorkspace(normalizePath(project.workspacePath))]));
    for (const project of [...fresh].sort((a, b) => SANDBOX_ORDER.compare(names.get(a)!, names.get(b)!))) {
        const name = names.get(project)!;
        const before = rows.findIndex(r => SANDBOX_ORDER.compare(r.sandbox?.name ?? names.get(r.project!)!, name) > 0);
        rows.splice(before < 0 ? rows.length : before, 0, { project });
    }
    return rows;
}

/** Stands in for the collation sandy lists its sandboxes in (a shell glob in the user's locale). */
const SANDBOX_ORDER = new Intl.Collator();

/**
 * Joins `--print-state` (sandboxes, running containers by their `sandbox` field, approvals by hash
 * prefix) with the UI's projects, sessions and metadata. Order: sandy's sandbox order (locale collation),
 * a project without a sandbox yet where its sandbox will be listed.
 */
export function deriveProjects(input: DeriveProjectsInput): DerivedProject[] {
    const sandboxes = input.state?.sandboxes ?? [];
    const containers = input.state?.running_containers ?? [];
    const approvals = input.state?.approvals ?? [];
    const agents = input.agents?.length ? input.agents : DEFAULT_AGENT_IMAGES;
    const floor = input.sandboxMinCompat || DEFAULT_SANDBOX_MIN_COMPAT;
    const running = input.sandyVersion ? stripCommitSuffix(input.sandyVersion) : undefined;
    const sessions = (input.sessions ?? []).filter(isLive).map(session => ({
        session,
        path: normalizePath(session.workspace),
        name: sandboxNameForWorkspace(normalizePath(session.workspace))
    }));
    const metadata = input.metadata ?? {};
    const listed = input.projects ?? [];
    // A live session whose workspace is neither listed nor has a sandbox yet (the first launch, before
    // sandy created the directory) must still show up as running.
    const listedPaths = new Set(listed.map(p => normalizePath(p.workspacePath)));
    const implicit = sessions.filter(s => !listedPaths.has(s.path)).map(s => ({ workspacePath: s.path }));
    const implicitSet = new Set<UiProject>(implicit);

    return pair(sandboxes, [...listed, ...implicit]).map(({ sandbox, project }) => {
        const projectPath = project ? normalizePath(project.workspacePath) : undefined;
        const name = sandbox?.name ?? sandboxNameForWorkspace(projectPath!);
        const suffix = sandboxHashSuffix(name);
        const sandyPath = sandbox?.workspace_path || undefined;
        // Reliable iff the folder name sandy recorded still yields the sandbox name's prefix: a path cut
        // at a `"` (D2) loses the rest of the folder name.
        const workspacePathReliable = !sandyPath || (suffix !== undefined && `${sanitizedBasename(sandyPath)}-${suffix}` === name);
        const workspacePath = projectPath ?? sandyPath;
        const pathIsTruncated = projectPath === undefined && !workspacePathReliable;

        const ownContainers = containers.filter(c => containerSandboxName(c) === name);
        const agentContainer = ownContainers.find(c => !isProxyContainer(c));
        const daemonContainer = ownContainers.find(c => c.daemon === true && !isProxyContainer(c));

        const pid = sandbox ? lockHolderPid(sandbox) : undefined;
        const lockHeld = !!sandbox?.lock_held;
        const staleLock = !!sandbox && isStaleLock(sandbox);
        const session = sessions.find(s =>
            s.name === name || (workspacePath !== undefined && s.path === workspacePath) || (pid !== undefined && s.session.pid === pid))?.session;
        const ownedByUs = !!session;

        const createdVersion = sandbox?.created_version || undefined;
        const lastUsedVersion = sandbox?.last_used_version || undefined;
        const belowMinCompat = classifySandboxVersion(createdVersion, floor) === 'below-floor';
        // The last version that touched the sandbox; a sandbox with neither marker predates markers
        // (sandy < 0.10.1) and is stale by definition.
        const touchedBy = lastUsedVersion ?? createdVersion;
        const outdated = !!sandbox && (touchedBy === undefined ||
            (running !== undefined && compareSandyVersions(touchedBy, running) === -1));

        let state: ProjectStateKind;
        if (ownContainers.length > 0 || ownedByUs) {
            state = 'running';
        } else if (lockHeld) {
            // A held lock blocks a launch: live holder, unknown holder (empty/garbage pid — sandy never
            // treats that as stale), or a dead one (sandy will clear it; surfaced as staleLock).
            state = 'locked';
        } else if (!sandbox) {
            state = 'fresh';
        } else if (belowMinCompat || outdated) {
            state = 'stale';
        } else {
            state = 'current';
        }

        const meta = metadata[name] ?? (workspacePath !== undefined ? metadata[workspacePath] : undefined) ?? {};
        const approval = suffix !== undefined ? approvals.find(a => a.workspace_hash.slice(0, 8) === suffix) : undefined;
        const containerAgent = agentContainer ? agentOfImage(agentContainer.image, agents) : undefined;

        const derived: DerivedProject = {
            key: name,
            name,
            sandboxName: sandbox?.name,
            sandboxPath: sandbox?.path,
            workspacePath,
            // A truncated path is shown as the prefix it is; its folder name would be wrong, so the name is the sandbox's.
            displayPath: workspacePath === undefined ? name : `${abbreviateHome(workspacePath, input.home)}${pathIsTruncated ? '…' : ''}`,
            displayName: project?.label || (workspacePath !== undefined && !pathIsTruncated ? basename(workspacePath) : '') || name,
            state,
            staleLock,
            lockHeld,
            lockHolderPid: pid,
            ownedByUs,
            session: session && { mode: session.mode, origin: session.origin, link: session.link, startedAt: session.startedAt, attachedViews: session.attachedViews, pid: session.pid },
            longRunning: !!session?.startedAt && !!input.longRunningHours && (input.now ?? Date.now()) - session.startedAt >= input.longRunningHours * 3_600_000,
            inProjectList: !!project && !implicitSet.has(project),
            lastAgent: session?.agent ?? containerAgent ?? meta.lastAgent,
            model: meta.model,
            lastLaunched: latest(sandbox ? parseSandyLocalTimestamp(sandbox.last_used_at || sandbox.created_at) : undefined, meta.lastLaunched),
            createdVersion,
            lastUsedVersion,
            sizeBytes: sandbox?.size_bytes ?? undefined,
            approved: !!approval,
            approval,
            belowMinCompat,
            // sandy's answer for a truncated path is a false `false` (D2): unknown is more honest.
            workspaceExists: project?.exists ?? (pathIsTruncated ? undefined : (sandbox?.workspace_exists ?? undefined)),
            workspacePathReliable,
            handoffEnabled: !!sandbox?.handoff_enabled,
            containers: ownContainers
        };
        if (daemonContainer) {
            derived.daemon = {
                containerId: daemonContainer.id,
                containerName: daemonContainer.name,
                image: daemonContainer.image,
                startedAt: parseDockerCreatedAt(daemonContainer.started_at),
                attachedClients: daemonContainer.attached_clients ?? undefined,
                imageStale: daemonContainer.image_stale ?? undefined,
                updatedAt: daemonContainer.updated_at ?? undefined,
                supervisorPid: pid,
                supervisorAlive: sandbox?.lock_holder_alive ?? undefined
            };
        }
        return derived;
    });
}
