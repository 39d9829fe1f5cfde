import * as fs from 'fs';

/**
 * sandy (and the agent it runs) gets stdin, stdout and stderr and no other descriptor of the IDE: a
 * host process (VS Code's extension host, a terminal that started the IDE) holds log files and pipes
 * that are not close-on-exec, and a child inherits them. Every sandy is therefore started through bash
 * (sandy is a bash script: bash is there wherever sandy runs), which closes every descriptor above 2
 * and then `exec`s sandy, keeping the pid. bash, because dash cannot name a descriptor above 9.
 */
const CLOSE_AND_EXEC = 'for f in /dev/fd/*; do n=${f##*/}; case $n in 0|1|2) ;; *[!0-9]*|"") ;; *) eval "exec $n>&-";; esac; done; exec "$@"';

const BASH_CANDIDATES = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'];

let bash: string | null | undefined;

function findBash(): string | null {
    if (bash === undefined) {
        bash = process.platform === 'win32' ? null : BASH_CANDIDATES.find(b => {
            try {
                fs.accessSync(b, fs.constants.X_OK);
                return true;
            } catch {
                return false;
            }
        }) ?? null;
    }
    return bash;
}

/**
 * `file args…` as started through the descriptor-closing bash, when there is one (else as is). The
 * file must exist, be a file and be executable first, so a missing sandy is still an ENOENT at spawn (a folder
 * an EACCES), not bash's exit 127 or 126.
 */
export function withOnlyStdio(file: string, args: readonly string[]): { file: string; args: string[] } {
    const shell = findBash();
    if (!shell) {
        return { file, args: [...args] };
    }
    fs.accessSync(file, fs.constants.X_OK);
    if (!fs.statSync(file).isFile()) {
        // What a direct spawn of a folder says; through bash it would only be an exit status.
        throw Object.assign(new Error(`${file} is not a file`), { code: 'EACCES' });
    }
    return { file: shell, args: ['-c', CLOSE_AND_EXEC, 'sandy', file, ...args] };
}
