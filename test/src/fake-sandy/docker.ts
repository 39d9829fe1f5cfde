/*
 * The fake's stand-in for the Docker engine: a directory of JSON records, one
 * per "docker run" (agent container + proxy sidecar), plus an image table. The
 * real sandy learns everything about containers from `docker ps` labels; the
 * fake keeps the same facts (sandy.daemon, sandy.session,
 * sandy.workspace_path, sandy.daemon_pid) so --start/--attach/--stop and
 * --print-state can make the same decisions the real script makes.
 *
 * Location: $FAKE_SANDY_DOCKER_STATE, default $SANDY_HOME/.fake-docker (a dot
 * directory, so --print-state's sandboxes/approvals scan never sees it).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { mkdirp, pidAlive, sha256Hex } from './util';

export interface ContainerRow {
    id: string;
    name: string;
    image: string;
    createdMs: number;
}

export interface SessionRecord {
    version: 1;
    /** Full 64-hex id of the agent container; also the record's file name. */
    id: string;
    sandbox: string;
    workspace: string;
    daemon: boolean;
    /** sandy's PID for a bare launch, the supervisor's PID for a daemon session. */
    ownerPid: number;
    /** Unix socket the supervisor serves attach clients on (daemon only). */
    socket?: string;
    /** The tmux session inside the container exists (`tmux has-session` would succeed). */
    ready: boolean;
    /** `#{session_attached}` */
    attached: number;
    updatedAt: string | null;
    /** Agent container first, then the proxy sidecar, like `docker ps` newest-first. */
    containers: ContainerRow[];
}

export interface ImageRow {
    id: string;
    createdMs: number;
}

export function stateDir(sandyHome: string): string {
    return process.env.FAKE_SANDY_DOCKER_STATE || path.join(sandyHome, '.fake-docker');
}

function sessionsDir(sandyHome: string): string {
    return path.join(stateDir(sandyHome), 'sessions');
}

function writeJsonAtomic(file: string, data: unknown): void {
    mkdirp(path.dirname(file));
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
    fs.renameSync(tmp, file);
}

function readJson<T>(file: string): T | undefined {
    try {
        return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
    } catch {
        return undefined;
    }
}

export function newContainerId(): string {
    return sha256Hex(crypto.randomBytes(32));
}

/**
 * Every container record as it is on disk, in no order, nothing pruned: what the tests read to see
 * what is left of a session whatever --print-state makes of it. A record removed (or being replaced)
 * while it is read is skipped.
 */
export function readSessionRecords(sandyHome: string): SessionRecord[] {
    const dir = sessionsDir(sandyHome);
    let names: string[] = [];
    try {
        names = fs.readdirSync(dir).filter(n => n.endsWith('.json'));
    } catch {
        return [];
    }
    return names.flatMap(n => readJson<SessionRecord>(path.join(dir, n)) ?? []);
}

/**
 * All container records. A bare (non-daemon) session's container is `docker
 * run --rm -it` in sandy's foreground, so it is treated as gone once its
 * owner is gone; daemon containers outlive their supervisor (`--restart
 * unless-stopped`, D9) and stay until --stop removes them.
 */
export function listSessions(sandyHome: string): SessionRecord[] {
    const res: SessionRecord[] = [];
    for (const rec of readSessionRecords(sandyHome)) {
        if (!rec.daemon && !pidAlive(rec.ownerPid)) {
            removeSession(sandyHome, rec.id);
            continue;
        }
        res.push(rec);
    }
    // docker ps lists newest first
    res.sort((a, b) => (b.containers[0]?.createdMs ?? 0) - (a.containers[0]?.createdMs ?? 0));
    return res;
}

export function getSession(sandyHome: string, id: string): SessionRecord | undefined {
    return readJson<SessionRecord>(path.join(sessionsDir(sandyHome), `${id}.json`));
}

export function writeSession(sandyHome: string, rec: SessionRecord): void {
    writeJsonAtomic(path.join(sessionsDir(sandyHome), `${rec.id}.json`), rec);
}

export function updateSession(sandyHome: string, id: string, patch: Partial<SessionRecord>): void {
    const rec = getSession(sandyHome, id);
    if (rec) {
        writeSession(sandyHome, { ...rec, ...patch });
    }
}

export function removeSession(sandyHome: string, id: string): void {
    try {
        fs.unlinkSync(path.join(sessionsDir(sandyHome), `${id}.json`));
    } catch {
        // already gone
    }
}

/** `docker ps -q --filter label=sandy.daemon=true --filter label=sandy.workspace_path=$WORK_DIR | head -1` */
export function findDaemonSession(sandyHome: string, workDir: string): SessionRecord | undefined {
    return listSessions(sandyHome).find(r => r.daemon && r.workspace === workDir);
}

/** `docker exec ... tmux has-session -t sandy` */
export function sessionLive(rec: SessionRecord): boolean {
    return rec.ready && pidAlive(rec.ownerPid);
}

export function shortSocketPath(id: string): string {
    // Unix socket paths are limited to ~104-108 bytes, and SANDY_HOME in a test
    // is often a deep temp dir, so the socket lives directly in the temp dir.
    return path.join(os.tmpdir(), `fsandy-${id.slice(0, 12)}.sock`);
}

const IMAGE_ORDER = ['sandy-base', 'sandy-claude-code', 'sandy-gemini-cli', 'sandy-codex', 'sandy-opencode', 'sandy-grok', 'sandy-full'];

export function listImages(sandyHome: string): Record<string, ImageRow> {
    return readJson<Record<string, ImageRow>>(path.join(stateDir(sandyHome), 'images.json')) ?? {};
}

export function recordImage(sandyHome: string, name: string): void {
    const images = listImages(sandyHome);
    images[name] = { id: `sha256:${newContainerId()}`, createdMs: Date.now() };
    writeJsonAtomic(path.join(stateDir(sandyHome), 'images.json'), images);
}

export function installedImages(sandyHome: string): Array<{ name: string } & ImageRow> {
    const images = listImages(sandyHome);
    return IMAGE_ORDER.filter(n => images[n]).map(n => ({ name: n, ...images[n] }));
}

/**
 * Whether `docker ps` works. --print-state reports the engine only when the
 * test asks for it (FAKE_SANDY_DOCKER=1), matching the docker-less fixtures
 * (04, 41: docker_reachable false) by default.
 */
export function printStateDockerReachable(): boolean {
    return process.env.FAKE_SANDY_DOCKER === '1' && process.env.FAKE_SANDY_NO_DOCKER !== '1';
}

/** Preflight / maintenance commands: a daemon is "there" unless FAKE_SANDY_NO_DOCKER says otherwise. */
export function dockerMissing(): 'not-installed' | 'not-running' | undefined {
    const v = process.env.FAKE_SANDY_NO_DOCKER;
    if (!v || v === '0') {
        return undefined;
    }
    return v === 'not-installed' ? 'not-installed' : 'not-running';
}
