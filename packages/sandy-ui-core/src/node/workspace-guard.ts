import * as fs from 'fs';
import * as path from 'path';
import { SandyError } from '../common/errors';

const PICK_FOLDER = 'Open a project folder (not your home folder or /) as the workspace.';

/**
 * Checks a folder before it is handed to sandy as the workspace and returns its canonical path (what
 * sandy's `pwd -P` would give, CONTRACT §5.1). sandy mounts the workspace read-write into the sandbox,
 * so `/`, `$HOME` — and any folder that contains `$HOME`, e.g. `/home` — would expose `~/.sandy`
 * (approvals, secrets), `~/.ssh` and every other project to the agent. Missing paths and files are
 * refused with a message instead of sandy's own launch-time error (sandy:5152-5158).
 */
export async function checkWorkspace(workspace: string, home: string): Promise<string> {
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
    if (canonical === path.parse(canonical).root) {
        throw usage(`Workspace ${workspace} is the file system root; sandy would mount every file into the sandbox.`, PICK_FOLDER);
    }
    const canonicalHome = await realpathOr(home);
    if (canonicalHome) {
        if (canonical === canonicalHome) {
            throw usage(`Workspace ${workspace} is your home folder; sandy would mount ~/.sandy, ~/.ssh and all your projects into the sandbox.`, PICK_FOLDER);
        }
        if (isInside(canonicalHome, canonical)) {
            throw usage(`Workspace ${workspace} contains your home folder (${canonicalHome}); sandy would mount it into the sandbox.`, PICK_FOLDER);
        }
    }
    return canonical;
}

function isInside(child: string, parent: string): boolean {
    const rel = path.relative(parent, child);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

async function realpathOr(p: string): Promise<string | undefined> {
    if (!p) {
        return undefined;
    }
    try {
        return await fs.promises.realpath(p);
    } catch {
        return path.resolve(p);
    }
}

function usage(message: string, hint: string): SandyError {
    return new SandyError('usage', message, hint);
}
