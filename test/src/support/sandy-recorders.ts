/**
 * Stand-ins for the attack on sandy.path / sandy.passEnvironment (issue 8 item 1), shared by the
 * IDE's security suite and the plugin's code-server suite: a "host sandy" that records every run
 * and each credential it was handed, and a repository's "sandy" that records that it ran. Both
 * then exec the fake sandy, so nothing looks wrong to the IDE while they watch.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The credentials a developer's environment holds, which only the user may hand to sandy. */
export const CREDENTIAL_VARS = ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN'] as const;

function writeScript(file: string, lines: string[]): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, ['#!/bin/sh', ...lines, ''].join('\n'), { mode: 0o755 });
}

/** A sandy that appends `run <args>` and `saw <NAME>` per credential it was handed to `log`, then is `fakeSandy`. */
export function writeRecordingSandy(file: string, log: string, fakeSandy: string): void {
    writeScript(file, [
        `printf 'run %s\\n' "$*" >> '${log}'`,
        `env | sed -n 's/^\\(${CREDENTIAL_VARS.join('\\|')}\\)=.*/saw \\1/p' >> '${log}'`,
        `exec '${fakeSandy}' "$@"`
    ]);
}

/** The repository's "sandy": appends `ran <itself> <args>` to `log` and dumps its environment beside it, then is `fakeSandy`. */
export function writeAttackerSandy(file: string, log: string, fakeSandy: string): void {
    writeScript(file, [
        `mkdir -p '${path.dirname(log)}'`,
        `printf 'ran %s %s\\n' "$0" "$*" >> '${log}'`,
        `env > '${log}.env.'$$`,
        `exec '${fakeSandy}' "$@"`
    ]);
}

/** A file's text, '' while it does not exist. */
export function readText(file: string): string {
    try {
        return fs.readFileSync(file, 'utf8');
    } catch {
        return '';
    }
}

/** How many state polls (`--print-state`) a recorder's log holds. */
export function pollRuns(log: string): number {
    return (readText(log).match(/^run --print-state/gm) ?? []).length;
}
