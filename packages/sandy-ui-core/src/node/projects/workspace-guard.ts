import * as fs from 'fs';
import * as path from 'path';
import { SandyError } from '../../common/sandy/errors';
import { isStrictlyInside } from '../config/path-inside';
import { ideHistoryDir } from '../history/history-folder';

/** What a refused workspace should have been: said in every blast-radius refusal. */
export const OPEN_PROJECT_INSTEAD = 'Open the project folder itself instead, e.g. ~/code/myproject.';

/**
 * One folder a sandy workspace must neither be, lie inside, nor contain. sandy bind-mounts the
 * workspace read-write into the sandbox, so each of these would hand the agent secrets, or files a
 * host program later reads and acts on (an `~/.ssh/config` ProxyCommand, an `~/.aws` credential_process,
 * `~/.config/autostart`, `~/.config/systemd/user`, sandy's own approvals, the IDE's `sandy.path`).
 */
export interface BlastRadiusFolder {
    /** Absolute path, as the user's environment names it (HOME not yet resolved through symlinks). */
    readonly path: string;
    /** How the refusal names it: `~/.ssh`, `$SANDY_HOME`, `your home folder`. */
    readonly label: string;
    /** What the agent would get: "your SSH keys and config". */
    readonly holds: string;
    /**
     * False for `/` and `$HOME`: every project lives inside them, so only being or containing them is refused.
     * True for the rest: a sub-folder (`~/.ssh/sub`, `~/.config/nvim`) is refused too, because the
     * agent could write there what a host program picks up (`~/.config/nvim/init.lua` runs in the
     * user's next editor), and `~/.config/gh`, `~/.sandy/approvals` are secrets or trust by themselves.
     */
    readonly insideRefused: boolean;
}

/** The folders under HOME that are refused, with what each holds (the one list of both hosts). */
const HOME_FOLDERS: ReadonlyArray<{ name: string; holds: string }> = [
    { name: '.sandy', holds: 'sandy\'s approvals, secrets and sandboxes' },
    { name: '.ssh', holds: 'your SSH keys and config' },
    { name: '.gnupg', holds: 'your GnuPG keys' },
    { name: '.aws', holds: 'your AWS credentials' },
    { name: '.config', holds: 'your applications\' settings and tokens, and programs your desktop starts' },
    { name: '.docker', holds: 'your Docker credentials and contexts' },
    { name: '.kube', holds: 'your Kubernetes credentials' },
    // The Sandy IDE's own settings folder (browser-app "configDirName"): `sandy.path` lives there.
    { name: '.sandy-ide', holds: 'the Sandy IDE\'s settings (which sandy it runs) and approval records' },
    // XDG data: install.sh puts sandy itself in ~/.local/bin (rewritten, it runs on the host at the next
    // launch); ~/.local/share holds keyrings, .desktop launchers and code-server's user settings.
    { name: '.local', holds: 'sandy itself (~/.local/bin), your keyrings and applications\' data' },
    // macOS: keychains, and VS Code's user settings (where a user-scope `sandy.path` lives).
    { name: 'Library', holds: 'your keychains and applications\' data' },
    // On PATH for login shells (Debian's .profile) and searched by the IDE for sandy: a program the
    // agent wrote there (a `git`, a `sandy`) would run on the host.
    { name: 'bin', holds: 'programs on your PATH (the IDE looks for sandy there too)' },
    { name: '.cargo', holds: 'programs on your PATH (~/.cargo/bin) and registry tokens' },
    // Editor extensions run on the host with the editor's rights.
    { name: '.vscode', holds: 'your VS Code extensions and settings' },
    { name: '.vscode-server', holds: 'VS Code Server\'s extensions and settings' }
];

export interface WorkspaceGuardOptions {
    /** `$SANDY_HOME` when it is set somewhere else than `~/.sandy`. Default: `env.SANDY_HOME`. */
    readonly sandyHome?: string;
    /** The IDE's data folder (projects, approved value hashes). Default: `env.SANDY_IDE_DATA_DIR`. */
    readonly ideDataDir?: string;
    /** The history folder the host writes (default: {@link ideHistoryDir} of `env`). */
    readonly historyDir?: string;
    /** Where the defaults above are read. Default: `process.env`. */
    readonly env?: Readonly<Record<string, string | undefined>>;
    /** Compare paths ignoring case (default on macOS and Windows, whose file systems usually do). */
    readonly caseInsensitive?: boolean;
}

/** Every folder a workspace is checked against, HOME's entries under `home` as given. */
export function blastRadiusFolders(home: string, options: WorkspaceGuardOptions = {}): BlastRadiusFolder[] {
    const env = options.env ?? process.env;
    const folders: BlastRadiusFolder[] = [];
    if (home && path.isAbsolute(home)) {
        folders.push({ path: path.resolve(home), label: 'your home folder', holds: 'everything of yours: ~/.ssh, ~/.sandy and all your projects', insideRefused: false });
        for (const f of HOME_FOLDERS) {
            folders.push({ path: path.join(home, f.name), label: `~/${f.name}`, holds: f.holds, insideRefused: true });
        }
    }
    const sandyHome = options.sandyHome ?? env.SANDY_HOME;
    if (sandyHome && path.isAbsolute(sandyHome)) {
        folders.push({ path: path.resolve(sandyHome), label: '$SANDY_HOME', holds: 'sandy\'s approvals, secrets and sandboxes', insideRefused: true });
    }
    const dataDir = options.ideDataDir ?? env.SANDY_IDE_DATA_DIR;
    if (dataDir && path.isAbsolute(dataDir)) {
        folders.push({ path: path.resolve(dataDir), label: 'the Sandy IDE data folder', holds: 'the Sandy IDE\'s projects and approval records', insideRefused: true });
    }
    // Where the IDE keeps every session's output ($SANDY_IDE_HISTORY_DIR or $XDG_STATE_HOME may move it out of ~/.local).
    const historyDir = options.historyDir ?? ideHistoryDir(env, home);
    if (historyDir && path.isAbsolute(historyDir)) {
        folders.push({ path: path.resolve(historyDir), label: 'the Sandy IDE history folder', holds: 'the output of every session you ran', insideRefused: true });
    }
    return folders;
}

/**
 * Checks a folder before it is handed to sandy as the workspace and returns its canonical path (what
 * sandy's `pwd -P` would give, CONTRACT §5.1). Canonicalised first, so a symlink (`~/proj` → `~/.ssh`)
 * is judged by what it points at. Refused: `/`, `$HOME`, every {@link blastRadiusFolders} entry, any
 * folder inside one of those but `/` and `$HOME`, and any folder containing one of them (`/home`).
 * Both the given path of each entry and its real path (`~/.aws` may be a link to elsewhere) count.
 * Missing paths and files are refused with a message instead of sandy's own launch-time error
 * (sandy:5152-5158).
 *
 * Blast-radius refusals carry the whole advice in `message` (the hint is empty): the Theia RPC
 * keeps only an error's message, and the user must read which folder to open instead everywhere.
 */
export async function checkWorkspace(workspace: string, home: string, options: WorkspaceGuardOptions = {}): Promise<string> {
    if (typeof workspace !== 'string' || workspace.trim() === '') {
        throw usage('No workspace folder was given.', 'Open a folder first, or pass a workspace path.');
    }
    if (!path.isAbsolute(workspace)) {
        throw usage(`Workspace "${workspace}" is not an absolute path.`, 'Pass the full path of the project folder.');
    }
    let canonical: string;
    try {
        canonical = await fs.promises.realpath(workspace);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') {
            throw usage(`Workspace ${workspace} does not exist.`, 'Create the folder or choose an existing one.');
        }
        throw usage(`Workspace ${workspace} cannot be opened (${code ?? 'error'}).`, 'Check the folder\'s permissions or choose another one.');
    }
    const stat = await fs.promises.stat(canonical);
    if (!stat.isDirectory()) {
        throw usage(`Workspace ${workspace} is a file, not a folder.`, 'Choose the folder that contains it.');
    }
    const fold = options.caseInsensitive ?? (process.platform === 'darwin' || process.platform === 'win32');
    const key = (p: string): string => (fold ? p.toLowerCase() : p);
    const named = canonical === path.resolve(workspace) ? workspace : `${workspace} (a link to ${canonical})`;
    if (canonical === path.parse(canonical).root) {
        throw refusal(`Sandy will not use ${named} as a workspace: it is the file system root, and sandy mounts the workspace read-write into the sandbox, so the agent could read and change every file on this machine.`);
    }
    const ws = key(canonical);
    for (const folder of blastRadiusFolders(home, options)) {
        for (const candidate of await spellings(folder.path)) {
            const blocked = key(candidate);
            if (ws === blocked) {
                throw refusal(`Sandy will not use ${named} as a workspace: it is ${folder.label}, which holds ${folder.holds}, and sandy mounts the workspace read-write into the sandbox.`);
            }
            if (isStrictlyInside(blocked, ws)) {
                throw refusal(`Sandy will not use ${named} as a workspace: it contains ${folder.label} (${candidate}), which holds ${folder.holds}, and sandy mounts the workspace read-write into the sandbox.`);
            }
            if (folder.insideRefused && isStrictlyInside(ws, blocked)) {
                throw refusal(`Sandy will not use ${named} as a workspace: it is inside ${folder.label} (${candidate}), which holds ${folder.holds}, and sandy mounts the workspace read-write into the sandbox.`);
            }
        }
    }
    return canonical;
}


/**
 * The paths that name one folder: as given, with HOME resolved (`/home/u` → `/data/u`), and its own
 * real path when it exists. A folder that does not exist yet is still refused by its name.
 */
async function spellings(p: string): Promise<string[]> {
    const out = new Set<string>([p]);
    try {
        out.add(await fs.promises.realpath(p));
    } catch {
        // Missing: resolve the deepest existing ancestor, so a symlinked HOME still matches.
        let dir = path.dirname(p);
        let rest = path.basename(p);
        while (dir !== path.dirname(dir)) {
            try {
                out.add(path.join(await fs.promises.realpath(dir), rest));
                break;
            } catch {
                rest = path.join(path.basename(dir), rest);
                dir = path.dirname(dir);
            }
        }
    }
    return [...out];
}

function usage(message: string, hint: string): SandyError {
    return new SandyError('usage', message, hint);
}

function refusal(what: string): SandyError {
    return new SandyError('usage', `${what} ${OPEN_PROJECT_INSTEAD}`, '');
}
