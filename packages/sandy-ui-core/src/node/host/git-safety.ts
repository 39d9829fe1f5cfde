/**
 * git runs programs named in a repository's own config when a command merely looks at the repository:
 * `core.fsmonitor` on `git status`, `ls-files`, `check-ignore` (and an embedded bare repository can carry
 * such a config). sandy mounts the workspace's `.git/config` and hooks read-only for the agent, but the
 * agent can still create a NESTED repository in its read-write workspace, and an IDE's git integration
 * scans sub-folders and runs `git status` there by itself — a program of the agent's on the host, with
 * no action of the user's. Every git the IDE runs, or lets its extensions run, gets these settings in
 * git's command-line scope (`GIT_CONFIG_COUNT`), which outranks every config file.
 */
export const GIT_SAFETY_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
    ['core.fsmonitor', 'false'],
    ['safe.bareRepository', 'explicit']
];

/** `env` plus {@link GIT_SAFETY_CONFIG} appended to any `GIT_CONFIG_COUNT` entries already there. */
export function withGitSafety(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) {
        if (typeof v === 'string') {
            out[k] = v;
        }
    }
    const existing = /^\d{1,4}$/.test(out.GIT_CONFIG_COUNT ?? '') ? Number(out.GIT_CONFIG_COUNT) : 0;
    let n = existing;
    for (const [key, value] of GIT_SAFETY_CONFIG) {
        const already = [...Array(n).keys()].some(i => out[`GIT_CONFIG_KEY_${i}`] === key && out[`GIT_CONFIG_VALUE_${i}`] === value);
        if (!already) {
            out[`GIT_CONFIG_KEY_${n}`] = key;
            out[`GIT_CONFIG_VALUE_${n}`] = value;
            n++;
        }
    }
    out.GIT_CONFIG_COUNT = String(n);
    return out;
}
