/**
 * Which links from a session's terminal (OSC 8 hyperlinks, URLs the web-links addon finds) the IDE
 * offers and opens. The agent writes them, so: only `http:`/`https:` (opened outside, after the
 * user's click and a confirmation that shows the exact URL) and `file:` links to a path inside the
 * session's workspace (opened in an editor). Everything else — `command:`, `vscode:`, `theia:`,
 * `javascript:`, `data:`, `mailto:`, a file outside the workspace — is not a link at all.
 *
 * {@link classifyLink} is lexical (pure, browser-safe), so a view can decide while parsing whether
 * an OSC 8 sequence forms a link. A `file:` link it accepts must still be checked by the host on the
 * real filesystem before opening ({@link isInsideFolder} over canonical paths, or no symlink on the
 * way): the agent can plant a symlink inside its read-write workspace that points anywhere.
 */

/** What a host does with a link the user activated. */
export type LinkAction =
    | { kind: 'external'; url: string }
    /** `path`: absolute, decoded, normalised, lexically inside the workspace. */
    | { kind: 'file'; url: string; path: string }
    | { kind: 'refused'; reason: LinkRefusal; message: string };

export type LinkRefusal = 'invalid' | 'scheme' | 'credentials' | 'remote-file' | 'outside-workspace';

/** Longest link accepted (as OSC 8 allows in osc.ts). */
export const MAX_LINK_LENGTH = 8 * 1024;

/** Schemes that can be a link at all; `file:` only with a workspace to be inside of. */
export const LINK_SCHEMES: readonly string[] = ['http:', 'https:', 'file:'];

/** What the user is told when a link was not opened; the link itself is never echoed (the agent wrote it). */
export const LINK_REFUSED_TEXT: Record<LinkRefusal, string> = {
    'invalid': 'Sandy: the terminal\'s link is not a valid URL; it was not opened.',
    'scheme': 'Sandy: only http, https and file links inside the project open from a sandy terminal; this one was not opened.',
    'credentials': 'Sandy: the terminal\'s link carries a user name or password; it was not opened.',
    'remote-file': 'Sandy: the terminal\'s link names a file on another host; it was not opened.',
    'outside-workspace': 'Sandy: the terminal\'s link points outside the project folder (or through a symlink); it was not opened.'
};

/** Title and text of the confirmation before an external link opens (hosts without a confirmation of their own). */
export function externalLinkPrompt(url: string): { title: string; message: string; ok: string } {
    return {
        title: 'Open external link?',
        message: `The sandy terminal links to:\n\n${url}\n\nThe agent in the sandbox chose this link. Open it in your browser?`,
        ok: 'Open'
    };
}

function refused(reason: LinkRefusal): LinkAction {
    return { kind: 'refused', reason, message: LINK_REFUSED_TEXT[reason] };
}

/**
 * Decides what activating `uri` does in the terminal of the session in `workspace` (its canonical
 * absolute POSIX path; `undefined` refuses every `file:` link).
 */
export function classifyLink(uri: string, workspace: string | undefined): LinkAction {
    if (typeof uri !== 'string' || uri.length > MAX_LINK_LENGTH || !/^[\x21-\x7e]+$/.test(uri)) {
        return refused('invalid');
    }
    let parsed: URL;
    try {
        parsed = new URL(uri);
    } catch {
        return refused('invalid');
    }
    const scheme = parsed.protocol.toLowerCase();
    if (scheme === 'http:' || scheme === 'https:') {
        if (!parsed.hostname) {
            return refused('invalid');
        }
        // `https://docs.example@evil.example/` reads as docs.example to a hurried eye.
        if (parsed.username || parsed.password) {
            return refused('credentials');
        }
        return { kind: 'external', url: parsed.href };
    }
    if (scheme !== 'file:') {
        return refused('scheme');
    }
    if (parsed.hostname && parsed.hostname !== 'localhost') {
        return refused('remote-file');
    }
    let decoded: string;
    try {
        decoded = decodeURIComponent(parsed.pathname);
    } catch {
        return refused('invalid');
    }
    if (decoded.includes('\0')) {
        return refused('invalid');
    }
    const root = workspace && normalisePosixPath(workspace);
    const target = normalisePosixPath(decoded);
    if (!root || !target || !isInsideFolder(target, root) || target === root) {
        return refused('outside-workspace');
    }
    return { kind: 'file', url: parsed.href, path: target };
}

/** Whether the terminal shows `uri` as a link at all (what a click on it would not refuse). */
export function isOfferedLink(uri: string, workspace: string | undefined): boolean {
    return classifyLink(uri, workspace).kind !== 'refused';
}

/**
 * `/a/./b//c/../d` → `/a/b/d`; `undefined` for a relative path. `..` never climbs above `/`, and
 * `%2F` has been decoded by then, so an encoded `..%2F..` is resolved here too.
 */
export function normalisePosixPath(p: string): string | undefined {
    if (!p.startsWith('/')) {
        return undefined;
    }
    const out: string[] = [];
    for (const part of p.split('/')) {
        if (part === '' || part === '.') {
            continue;
        }
        if (part === '..') {
            out.pop();
        } else {
            out.push(part);
        }
    }
    return `/${out.join('/')}`;
}

/** `target` is `folder` or below it (both absolute and normalised — canonical, for a real-filesystem check). */
export function isInsideFolder(target: string, folder: string): boolean {
    const root = folder.length > 1 ? folder.replace(/\/+$/, '') : folder;
    return target === root || target.startsWith(root === '/' ? '/' : `${root}/`);
}
