/*
 * `--print-state [light]` (sandy:1732-2146). Built by string concatenation in
 * the real emitter's key order, with sandy's own escaping (util.jsonEscape),
 * so consumers see the same bytes, the same types (lock_holder_pid is a
 * STRING) and the same quirks (workspace_path truncated at the first `"`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { installedImages, listImages, listSessions, printStateDockerReachable, SessionRecord } from './docker';
import {
    FAKE_SPEAKS_2X, SCHEMA_VERSION, byteCompare, catFile, dockerCreatedAt, dockerImageCreated, duKiB, globDirs, headLine, hostName,
    isBashInt, isDir, isFile, jsonEscape, pidAlive, statMtimeIso, exists
} from './util';

const HOST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** The WORKSPACE.json reader shared by print-state and --remove-sandbox (grep -m1 | sed). */
export function workspacePathOf(sandboxDir: string): string {
    let text: string;
    try {
        text = fs.readFileSync(path.join(sandboxDir, 'WORKSPACE.json')).toString('utf8');
    } catch {
        return '';
    }
    const line = text.split('\n').find(l => l.includes('"workspace_path"'));
    if (line === undefined) {
        return '';
    }
    return line.replace(/.*"workspace_path"[ \t\n\v\f\r]*:[ \t\n\v\f\r]*"/, '').replace(/".*/, '');
}

function lockInfo(sandyHome: string, name: string): string {
    const lockDir = path.join(sandyHome, 'sandboxes', `.${name}.lock`);
    if (!isDir(lockDir)) {
        return ',"lock_held":false,"lock_holder_pid":null,"lock_holder_alive":null';
    }
    const pid = catFile(path.join(lockDir, 'pid')) ?? '';
    let alive = 'null';
    if (pid !== '' && isBashInt(pid)) {
        alive = pidAlive(pid) ? 'true' : 'false';
    }
    return `,"lock_held":true,"lock_holder_pid":${jsonEscape(pid)},"lock_holder_alive":${alive}`;
}

function sandboxEntry(sandyHome: string, name: string, light: boolean): string {
    const sb = `${sandyHome}/sandboxes/${name}`;
    const wsPath = workspacePathOf(sb);
    let s = `{"name":${jsonEscape(name)},"path":${jsonEscape(sb)},"workspace_path":${jsonEscape(wsPath)}`;
    s += `,"workspace_exists":${wsPath === '' ? 'null' : isDir(wsPath) ? 'true' : 'false'}`;
    s += `,"created_version":${jsonEscape(catFile(path.join(sb, '.sandy_created_version')) ?? '')}`;
    s += `,"last_used_version":${jsonEscape(catFile(path.join(sb, '.sandy_last_version')) ?? '')}`;
    s += `,"created_at":${jsonEscape(statMtimeIso(path.join(sb, '.sandy_created_version')))}`;
    s += `,"last_used_at":${jsonEscape(statMtimeIso(path.join(sb, '.sandy_last_version')))}`;
    let size = 'null';
    if (!light) {
        const kb = duKiB(sb);
        if (kb !== undefined) {
            size = String(kb * 1024);
        }
    }
    s += `,"size_bytes":${size}`;
    if (FAKE_SPEAKS_2X) {
        // Schema 3 removed handoff_enabled/handoff; 1.13-2.4 added these (SPEC_INTROSPECTION.md, "Schema versioning").
        // `agents` is null (unknown) until a launch recorded it: never read as claude.
        s += `,"agents":null`;
        s += `,"relay":{"state":"absent","source":"none","executable_present":null,"path":null,"state_dir":null,"last_exit_code":null,"restarts":0,"last_restart_at":null,"disabled_by":null}`;
        s += `,"feature_entries":{}`;
        s += `,"agent_args_files":{${['claude', 'gemini', 'codex', 'opencode', 'grok'].map(a => `"${a}":${exists(path.join(sb, `agent-args.${a}`)) ? 'true' : 'false'}`).join(',')}}`;
        s += `,"features":[],"feature_problems":[]`;
    } else {
        s += `,"handoff_enabled":${exists(path.join(sb, '.handoff-enabled')) ? 'true' : 'false'}`;
    }
    s += lockInfo(sandyHome, name);
    return s + '}';
}

function approvalEntries(sandyHome: string): string[] {
    const dir = path.join(sandyHome, 'approvals');
    let names: string[] = [];
    try {
        names = fs.readdirSync(dir).filter(n => n.startsWith('passive-') && n.endsWith('.list')).sort(byteCompare);
    } catch {
        return [];
    }
    const res: string[] = [];
    for (const n of names) {
        const file = path.join(dir, n);
        if (!isFile(file)) {
            continue;
        }
        const text = fs.readFileSync(file).toString('utf8');
        const lines = text.split('\n');
        const field = (prefix: string): string => {
            const l = lines.find(x => x.startsWith(prefix));
            return l === undefined ? '' : l.slice(prefix.length).replace(/^[ \t\n\v\f\r]*/, '');
        };
        const hash = n.slice('passive-'.length, -'.list'.length);
        res.push(`{"workspace_hash":${jsonEscape(hash)},"workspace_path_hint":${jsonEscape(field('# workspace:'))}` +
            `,"approved_keys_sha256":${jsonEscape(headLine(file) ?? '')},"approved_at":${jsonEscape(field('# approved:'))}}`);
    }
    return res;
}

function containerRows(rec: SessionRecord, light: boolean): string[] {
    return rec.containers.map((c, i) => {
        const isAgent = i === 0;
        const daemon = rec.daemon && isAgent;
        let row = `{"id":${jsonEscape(c.id.slice(0, 12))},"name":${jsonEscape(c.name)},"image":${jsonEscape(c.image)}`;
        row += `,"started_at":${jsonEscape(dockerCreatedAt(c.createdMs))}`;
        // sandbox: the sandy.session label on daemon containers, else the name minus ONE prefix.
        let sandbox = c.name;
        if (daemon) {
            sandbox = rec.sandbox;
        } else if (c.name.startsWith('sandy-proxy-')) {
            sandbox = c.name.slice('sandy-proxy-'.length);
        } else if (c.name.startsWith('sandy-')) {
            sandbox = c.name.slice('sandy-'.length);
        }
        row += `,"sandbox":${jsonEscape(sandbox)}`;
        row += `,"daemon":${daemon ? 'true' : 'false'}`;
        // attached_clients comes from `tmux display` inside the container: null when
        // the probe fails (no live session) and for every non-daemon row.
        // A SIGKILLed supervisor leaves its container (and, in reality, the tmux
        // session) running (D9, fixture 102a), so only a clean teardown or a
        // session that never came up reads as null.
        const ac = daemon && rec.ready ? String(rec.attached) : 'null';
        row += `,"attached_clients":${ac}`;
        row += `,"updated_at":${daemon && rec.updatedAt ? jsonEscape(rec.updatedAt) : 'null'}`;
        if (!light) {
            row += `,"image_stale":${process.env.FAKE_SANDY_IMAGE_STALE === '1' ? 'true' : 'false'}`;
        }
        return row + '}';
    });
}

export function emitState(modeArg: string | undefined, sandyHome: string): string {
    const light = modeArg === 'light';
    let j = `{"schema_version":${SCHEMA_VERSION},"sandy_home":${jsonEscape(sandyHome)}`;

    let hostId = '';
    let hostIdSource = '';
    const envHost = process.env.SANDY_HOST_ID;
    if (envHost && HOST_ID_RE.test(envHost)) {
        hostId = envHost;
        hostIdSource = 'env';
    } else {
        hostId = hostName();
        if (hostId) {
            hostIdSource = 'hostname';
        }
    }
    j += `,"host_id":${hostId ? jsonEscape(hostId) : 'null'}`;
    j += `,"host_id_source":${hostIdSource ? jsonEscape(hostIdSource) : 'null'}`;

    const reachable = printStateDockerReachable();
    const images = !light && reachable ? installedImages(sandyHome) : [];
    j += `,"installed_images":[${images.map(i =>
        `{"name":${jsonEscape(i.name)},"id":${jsonEscape(i.id)},"created":${jsonEscape(dockerImageCreated(i.createdMs))}}`).join(',')}]`;

    const sandboxes = globDirs(path.join(sandyHome, 'sandboxes')).map(n => sandboxEntry(sandyHome, n, light));
    j += `,"sandboxes":[${sandboxes.join(',')}]`;
    j += `,"approvals":[${approvalEntries(sandyHome).join(',')}]`;

    if (!reachable) {
        j += ',"docker_reachable":false,"running_containers":null,"orphan_networks":null' +
            ',"dangling_images":null,"orphaned_containers":null,"proxy_image_created":null';
    } else {
        const sessions = listSessions(sandyHome);
        const rows = sessions.flatMap(r => containerRows(r, light));
        j += `,"docker_reachable":true,"running_containers":[${rows.join(',')}],"orphan_networks":0`;
        if (light) {
            j += ',"dangling_images":null,"orphaned_containers":null,"proxy_image_created":null';
        } else {
            // Dead-owner daemon containers are what --gc would reap.
            const orphaned = sessions.filter(r => r.daemon && !pidAlive(r.ownerPid)).length;
            const proxy = listImages(sandyHome)['sandy-proxy'];
            j += `,"dangling_images":0,"orphaned_containers":${orphaned}`;
            j += `,"proxy_image_created":${proxy ? `"${dockerImageCreated(proxy.createdMs)}"` : 'null'}`;
        }
    }
    return j + '}\n';
}
