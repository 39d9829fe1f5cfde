// The Open VSX namespace check of publish.mjs, as pure functions (scripts/namespace.test.mjs).
//
// Open VSX refuses to publish into a namespace (package.json `publisher`) that does not exist yet. publish.mjs
// runs `ovsx verify-pat <namespace>` first (the token comes from OVSX_PAT, never the command line). ovsx 1.1
// exits 1 and prints its error after "❌": for a missing namespace the registry's verify-pat answers 404
// (openvsx LocalRegistryService.verifyToken: NotFoundException), which ovsx prints as "The server responded
// with status 404…" or, when the 404 carries a JSON body, its `error` text ("Not Found"); a publish into a
// missing namespace fails with "Unknown publisher: <name>\nUse the 'create-namespace' command…".

/** `ovsx verify-pat <namespace>` (plus --registryUrl when a registry was given): the check publish.mjs runs. */
export function namespaceCheckArgs(namespace, registry) {
    return ['verify-pat', namespace, ...(registry ? ['--registryUrl', registry] : [])];
}

/** What the user runs to create the namespace: ovsx takes the token from OVSX_PAT itself, so it is not on the command line (`ps`). */
export function createNamespaceCommand(namespace, registry) {
    return `npx ovsx create-namespace ${namespace}${registry ? ` --registryUrl ${registry}` : ''}`;
}

const MISSING = [
    /\bstatus 404\b/,
    /^\s*(?:❌\s*)?Not Found\s*$/m,
    /\bUnknown publisher: /,
    /\bUnknown namespace: /
];

/**
 * ovsx's exit code and output (stdout and stderr together) → `ok` (the token may publish there),
 * `missing` (no such namespace: create it first) or `failed` (anything else: a bad token, no access, no network).
 */
export function namespaceVerdict(status, output) {
    if (status === 0) {
        return 'ok';
    }
    return MISSING.some(re => re.test(output ?? '')) ? 'missing' : 'failed';
}
